import { fromPromise } from 'xstate';
import type { SessionApi } from '../../api/session';
import { newPasswordMachine } from './new-password.machine';
import { resetRequestMachine } from './reset-request.machine';

/**
 * The password-reset machines with their effects supplied (issue "Foundation"; docs/product.md §7 rows 4–6).
 * Loaded on demand with the /auth/recuperar and /auth/reset_password screens (see `AppMachines`).
 */

/** `reset-request` calling row 4 (staff) or 5 (customers). */
export function provideResetRequest(sessionApi: Pick<SessionApi, 'requestPasswordReset'>) {
  return resetRequestMachine.provide({
    actors: { requestReset: fromPromise(({ input }) => sessionApi.requestPasswordReset(input.type, input.dni)) },
  });
}

/** `new-password` checking the link on arrival (GET password_reset_{type}) and calling row 6. */
export function provideNewPassword(sessionApi: Pick<SessionApi, 'checkResetLink' | 'resetPassword'>) {
  return newPasswordMachine.provide({
    actors: {
      checkLink: fromPromise(({ input }) => sessionApi.checkResetLink(input.type, input.id)),
      resetPassword: fromPromise(({ input }) => sessionApi.resetPassword(input.type, input.id, input.password)),
    },
  });
}
