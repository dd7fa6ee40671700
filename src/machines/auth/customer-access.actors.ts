import { fromPromise } from 'xstate';
import type { SessionApi } from '../../api/session';
import type { AppToaster } from '../../lib/toaster';
import { customerAccessMachine } from './customer-access.machine';
import type { LoginFormMachine } from './login-form.machine';
import { registrationMachine } from './registration.machine';

/**
 * The customer-access machine with its effects supplied (issue "Foundation"; docs/product.md §2
 * /auth/loginclientes): its login tab uses the app's `loginForm` (wired to the session), its
 * registration tab calls row 1 and toasts the server's message. This module is loaded on demand
 * (see `AppMachines.customerAccess`): the registration rules (zod schema with Temporal) are not
 * part of the staff login's bundle.
 */
export function provideCustomerAccess({
  sessionApi,
  toaster,
  loginForm,
}: {
  sessionApi: Pick<SessionApi, 'registerCustomer'>;
  toaster: AppToaster;
  /** The login-form machine already wired to the session actor. */
  loginForm: LoginFormMachine;
}) {
  const registration = registrationMachine.provide({
    actions: { notify: (_, toast) => toaster.show(toast) },
    actors: { registerCustomer: fromPromise(({ input }) => sessionApi.registerCustomer(input)) },
  });
  return customerAccessMachine.provide({ actors: { loginForm, registration } });
}

export type ProvidedCustomerAccessMachine = ReturnType<typeof provideCustomerAccess>;
