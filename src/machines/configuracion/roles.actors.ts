import { assign, fromPromise, setup } from 'xstate';
import type { ApiClient, ApiError } from '../../api/client';
import { createRolesApi, type RolesApi } from '../../api/roles';
import type { AppToaster } from '../../lib/toaster';
import type { Role } from '../../schemas/roles';
import { resourceScreenMachines } from '../shared/resource-screen';
import { placeholder } from '../shared/placeholder';
import { errorMessage, forwardSessionErrors } from '../shared/api-errors';

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
 * also adds its module (a submodule needs the module, SPEC §6).
 */
export function togglePermission(
  held: readonly string[],
  permission: string,
  checked: boolean,
  group: { module: string; submodules: readonly string[] },
): string[] {
  const set = new Set(held);
  if (permission === group.module) {
    if (checked) set.add(group.module);
    else {
      set.delete(group.module);
      for (const p of group.submodules) set.delete(p);
    }
  } else if (checked) {
    set.add(permission);
    set.add(group.module);
  } else set.delete(permission);
  return [...set];
}

export type MatrixEvent =
  | { type: 'matrix.open'; role: Role }
  | { type: 'matrix.toggle'; permission: string; checked: boolean; group: { module: string; submodules: readonly string[] } }
  | { type: 'matrix.save' }
  | { type: 'matrix.close' };

/** `permissionMatrix`: closed → editing ⇄ saving; `matrix.save` PATCHes the role's permission list. */
export const permissionMatrixMachine = setup({
  types: {
    context: {} as { role: Role | null; permissions: string[]; error: string | null },
    events: {} as MatrixEvent,
  },
  actors: { save: placeholder<Role, { role: Role; permissions: string[] }>('save') },
  actions: {
    saved: (_, _role: Role) => {},
    reportApiError: (_, _error: ApiError) => {},
  },
}).createMachine({
  id: 'permissionMatrix',
  context: { role: null, permissions: [], error: null },
  initial: 'closed',
  states: {
    closed: {
      on: { 'matrix.open': { target: 'editing', actions: assign(({ event }) => ({ role: event.role, permissions: [...event.role.permissions], error: null })) } },
    },
    editing: {
      on: {
        'matrix.open': { actions: assign(({ event }) => ({ role: event.role, permissions: [...event.role.permissions], error: null })) },
        'matrix.toggle': {
          actions: assign(({ context, event }) => ({ permissions: togglePermission(context.permissions, event.permission, event.checked, event.group) })),
        },
        'matrix.save': 'saving',
        'matrix.close': { target: 'closed', actions: assign({ role: null, permissions: [], error: null }) },
      },
    },
    saving: {
      invoke: {
        src: 'save',
        input: ({ context }) => ({ role: context.role!, permissions: context.permissions }),
        onDone: {
          target: 'editing',
          actions: [assign(({ event }) => ({ role: event.output, permissions: [...event.output.permissions], error: null })), { type: 'saved', params: ({ event }) => event.output }],
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

export interface RolesMachinesDeps {
  rolesApi: RolesApi;
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
}

/** The Roles y permisos screen's machines, provided. */
export function createRolesMachines(deps: RolesMachinesDeps) {
  const { rolesApi, toaster } = deps;
  const screen = resourceScreenMachines<Role>({
    fetchPage: rolesApi.list,
    save: ({ mode, record, body }) => {
      const { name, copy_of } = body as { name: string; copy_of?: number | null };
      if (mode === 'edit') return rolesApi.update((record as Role).id, { name });
      if (copy_of) return rolesApi.copy(copy_of, { name });
      return rolesApi.create({ name, permissions: [] });
    },
    remove: (record) => rolesApi.remove((record as Role).id),
    reportApiError: deps.reportApiError,
    toaster,
  });
  const matrix = permissionMatrixMachine.provide({
    actors: { save: fromPromise(({ input }: { input: { role: Role; permissions: string[] } }) => rolesApi.update(input.role.id, { permissions: input.permissions })) },
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
