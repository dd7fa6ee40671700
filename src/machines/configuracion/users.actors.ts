import { fromPromise } from 'xstate';
import type { ApiClient, ApiError } from '../../api/client';
import { createUsersApi, type UsersApi } from '../../api/configuracion/users';
import type { SessionApi } from '../../api/session';
import type { AppToaster } from '../../lib/toaster';
import type { CreateUserRequest, StaffUser, UpdateUserRequest } from '../../schemas/configuracion/users';
import { resourceScreenMachines } from '../shared/resource-screen';
import { createRecordActionsMachine } from '../shared/record-actions.machine';
import { createLoadOnceMachine } from '../shared/load-once.machine';
import { forwardSessionErrors } from '../shared/api-errors';

/**
 * Configuración → Usuarios (issue "Configuración"): the CRUD pattern's list and editor over the
 * users api, the form's options (roles: docs/product.md §7 row 10, locals: row 9, both readable by any staff
 * user) and the row actions that are not CRUD (deactivate / reactivate with a confirmation, send a
 * password-reset link) in {@link userActionsMachine}.
 */

export type UserActionKind = 'deactivate' | 'reactivate' | 'sendPasswordReset';

/** Spanish success toasts per action. */
export const USER_ACTION_DONE: Record<UserActionKind, string> = {
  deactivate: 'Usuario desactivado',
  reactivate: 'Usuario reactivado',
  sendPasswordReset: 'Enlace de contraseña enviado',
};

export interface UserOption {
  id: number;
  name: string;
}

/** Options of the form and filters: every role and every active local. */
export interface UserFormOptions {
  roles: UserOption[];
  locals: UserOption[];
}

/**
 * `userActions` (src/machines/shared/record-actions.machine.ts); `sendPasswordReset` also asks
 * first. A refusal (409: self-deactivation, last Administrador) shows its message (`failed`),
 * 401/402/404 also go to the session. `done` refreshes the list and toasts.
 */
export const userActionsMachine = createRecordActionsMachine<UserActionKind, StaffUser>('userActions');

/** `userOptions`: the roles and locals, loaded once (src/machines/shared/load-once.machine.ts). */
export const userOptionsMachine = createLoadOnceMachine<UserFormOptions>('userOptions', { roles: [], locals: [] });

export interface UsersMachinesDeps {
  usersApi: UsersApi;
  /** Rows 9 and 10 (active locals, role names) for the form's options. */
  sessionApi: Pick<SessionApi, 'roleNames' | 'activeLocals'>;
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
}

/** The Usuarios screen's machines, provided. */
export function createUsersMachines(deps: UsersMachinesDeps) {
  const { usersApi, toaster } = deps;
  const screen = resourceScreenMachines<StaffUser, CreateUserRequest, UpdateUserRequest>({
    fetchPage: usersApi.list,
    save: (input) => (input.mode === 'edit' ? usersApi.update(input.record.id, input.body) : usersApi.create(input.body)),
    fetchOne: (record) => usersApi.get(record.id),
    reportApiError: deps.reportApiError,
    toaster,
  });
  const actions = userActionsMachine.provide({
    actors: {
      run: fromPromise<unknown, { kind: UserActionKind; record: StaffUser }>(({ input }) => usersApi[input.kind](input.record.id)),
    },
    actions: {
      done: (_, { kind }) => toaster.show({ severity: 'success', summary: USER_ACTION_DONE[kind] }),
      failed: (_, { message }) => toaster.show({ severity: 'error', summary: 'No se pudo completar', detail: message, life: 6000 }),
      reportApiError: (_, error) => forwardSessionErrors(deps.reportApiError)(error),
    },
  });
  const options = userOptionsMachine.provide({
    actors: {
      load: fromPromise(async () => {
        const [roles, locals] = await Promise.all([deps.sessionApi.roleNames(), deps.sessionApi.activeLocals()]);
        return { roles: roles.map((r) => ({ id: r.code, name: r.name })), locals: locals.map((l) => ({ id: l.id, name: l.name })) };
      }),
    },
  });
  return { ...screen, actions, options };
}
export type UsersMachines = ReturnType<typeof createUsersMachines>;

/** Builds the api modules on the app's client (this module is loaded on demand with the screen). */
export function createUsersMachinesFor(client: ApiClient, deps: Omit<UsersMachinesDeps, 'usersApi'>) {
  return createUsersMachines({ ...deps, usersApi: createUsersApi(client) });
}
