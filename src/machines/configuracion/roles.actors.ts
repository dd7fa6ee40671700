import { assign, fromPromise, setup } from 'xstate';
import type { ApiClient, ApiError } from '../../api/client';
import { createRolesApi, type RolesApi } from '../../api/configuracion/roles';
import type { AppToaster } from '../../lib/toaster';
import type { Role } from '../../schemas/configuracion/roles';
import { resourceScreenMachines } from '../shared/resource-screen';
import { placeholder } from '../shared/placeholder';
import { errorMessage, forwardSessionErrors } from '../shared/api-errors';
import { isStaleRecordError } from '../../schemas/versions';

/**
 * Configuración → Roles y permisos (issue "Configuración"): the CRUD pattern's list and editor
 * (create / rename / delete) over the roles api, and {@link permissionMatrixMachine}, the
 * permission matrix of one role ("Guardar" sends PATCH {permissions}). "Copiar rol" is the editor
 * opened in create mode with `copy_of` (the save calls POST roles/{id}/copy).
 */

/** The role the server keeps read-only (docs/decisions.md). */
export const ADMIN_ROLE_NAME = 'Administrador';

/**
 * Toggles one permission of a matrix: a module off also removes its submodules; a submodule on
 * also adds its module (a submodule needs the module, docs/product.md §6); an action permission on
 * also adds the submodule it needs, and that submodule off removes it.
 */
export function togglePermission(held: readonly string[], permission: string, checked: boolean, group: MatrixGroupRef): string[] {
  const set = new Set(held);
  const requires = group.requires ?? {};
  if (permission === group.module) {
    if (checked) set.add(group.module);
    else {
      set.delete(group.module);
      for (const p of group.submodules) set.delete(p);
    }
  } else if (checked) {
    set.add(permission);
    set.add(group.module);
    const needed = requires[permission];
    if (needed) set.add(needed);
  } else {
    set.delete(permission);
    for (const [action, needed] of Object.entries(requires)) if (needed === permission) set.delete(action);
  }
  return [...set];
}

/** A group of the matrix as the toggle reads it: its module, its submodules and action permissions, and what each action needs. */
export interface MatrixGroupRef {
  module: string;
  submodules: readonly string[];
  /** Action permission → the submodule it needs (src/schemas/permissions.ts ACTION_REQUIRES). */
  requires?: Readonly<Record<string, string>>;
}

export type MatrixEvent =
  | { type: 'matrix.open'; role: Role }
  | { type: 'matrix.toggle'; permission: string; checked: boolean; group: MatrixGroupRef }
  | { type: 'matrix.save' }
  | { type: 'matrix.reload' }
  | { type: 'matrix.close' };

/**
 * `permissionMatrix`: closed → editing ⇄ saving; `matrix.save` PATCHes the role's permission list
 * with the version of the role it opened. A stale-edit 409 (src/schemas/versions.ts) sets `stale`
 * and shows the message; `matrix.reload` fetches the role again (`reloading`) and reopens the
 * matrix on it.
 */
export const permissionMatrixMachine = setup({
  types: {
    context: {} as { role: Role | null; permissions: string[]; error: string | null; stale: boolean },
    events: {} as MatrixEvent,
  },
  actors: {
    save: placeholder<Role, { role: Role; permissions: string[] }>('save'),
    /** GET the role again. */
    reload: placeholder<Role, Role>('reload'),
  },
  actions: {
    saved: (_, _role: Role) => {},
    reportApiError: (_, _error: ApiError) => {},
  },
}).createMachine({
  id: 'permissionMatrix',
  context: { role: null, permissions: [], error: null, stale: false },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'matrix.open': {
          target: 'editing',
          actions: assign(({ event }) => ({ role: event.role, permissions: [...event.role.permissions], error: null, stale: false })),
        },
      },
    },
    editing: {
      on: {
        'matrix.open': {
          actions: assign(({ event }) => ({ role: event.role, permissions: [...event.role.permissions], error: null, stale: false })),
        },
        'matrix.reload': { guard: ({ context }) => context.stale && context.role !== null, target: 'reloading' },
        'matrix.toggle': {
          actions: assign(({ context, event }) => ({
            permissions: togglePermission(context.permissions, event.permission, event.checked, event.group),
          })),
        },
        'matrix.save': 'saving',
        'matrix.close': { target: 'closed', actions: assign({ role: null, permissions: [], error: null, stale: false }) },
      },
    },
    saving: {
      invoke: {
        src: 'save',
        input: ({ context }) => ({ role: context.role!, permissions: context.permissions }),
        onDone: {
          target: 'editing',
          actions: [
            assign(({ event }) => ({ role: event.output, permissions: [...event.output.permissions], error: null, stale: false })),
            { type: 'saved', params: ({ event }) => event.output },
          ],
        },
        onError: {
          target: 'editing',
          actions: [
            assign(({ event }) => ({ error: errorMessage(event.error), stale: isStaleRecordError(event.error) })),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
    reloading: {
      invoke: {
        src: 'reload',
        input: ({ context }) => context.role!,
        onDone: {
          target: 'editing',
          actions: assign(({ event }) => ({ role: event.output, permissions: [...event.output.permissions], error: null, stale: false })),
        },
        onError: {
          target: 'editing',
          actions: [
            assign(({ event }) => ({ error: errorMessage(event.error) })),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
  },
});

/**
 * The roles editor's body: the name, and for "Copiar rol" the id of the role whose permissions the
 * new one copies (create only).
 */
export interface RoleFormBody {
  name: string;
  copy_of?: number | null;
}

export interface RolesMachinesDeps {
  rolesApi: RolesApi;
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
}

/** The Roles y permisos screen's machines, provided. */
export function createRolesMachines(deps: RolesMachinesDeps) {
  const { rolesApi, toaster } = deps;
  const screen = resourceScreenMachines<Role, RoleFormBody>({
    fetchPage: rolesApi.list,
    save: (input) => {
      if (input.mode === 'edit') return rolesApi.update(input.record.id, { name: input.body.name, version: input.body.version });
      const { name, copy_of } = input.body;
      if (copy_of) return rolesApi.copy(copy_of, { name });
      return rolesApi.create({ name, permissions: [] });
    },
    remove: (record) => rolesApi.remove(record.id),
    fetchOne: (record) => rolesApi.get(record.id),
    reportApiError: deps.reportApiError,
    toaster,
  });
  const matrix = permissionMatrixMachine.provide({
    actors: {
      save: fromPromise(({ input }: { input: { role: Role; permissions: string[] } }) =>
        rolesApi.update(input.role.id, { permissions: input.permissions, version: input.role.version }),
      ),
      reload: fromPromise(({ input }: { input: Role }) => rolesApi.get(input.id)),
    },
    actions: {
      saved: () => toaster.show({ severity: 'success', summary: 'Permisos guardados' }),
      reportApiError: (_, error) => forwardSessionErrors(deps.reportApiError)(error),
    },
  });
  return { ...screen, matrix };
}
export type RolesMachines = ReturnType<typeof createRolesMachines>;

/** Builds the roles api on the app's client (this module is loaded on demand with the screen). */
export function createRolesMachinesFor(client: ApiClient, deps: Omit<RolesMachinesDeps, 'rolesApi'>) {
  return createRolesMachines({ ...deps, rolesApi: createRolesApi(client) });
}
