import { createActor, fromPromise, type ActorRefFrom } from 'xstate';
import type { SessionApi } from '../api/session';
import type { KeyValueStore } from '../lib/storage';
import type { AppToaster } from '../lib/toaster';
import { createSessionMachine, readStoredSession } from './session/session.actors';
import type { SessionMachine } from './session/session.machine';
import { loginFormMachine } from './auth/login-form.machine';
import { registrationMachine } from './auth/registration.machine';
import { customerAccessMachine } from './auth/customer-access.machine';
import { resetRequestMachine } from './auth/reset-request.machine';
import { newPasswordMachine } from './auth/new-password.machine';

/**
 * Wires the app-wide actors and the screen machines of issue "Foundation" to their effects: the
 * session api (SPEC §7), storage (SPEC §3), navigation and the toaster. The app calls this once
 * at start-up; view tests call it with fakes. Views receive the result through the services
 * context and never touch the api.
 */

export interface AppActorDeps {
  sessionApi: SessionApi;
  /** Where the SPEC §3 keys live (localStorage in the app). */
  store: KeyValueStore | null;
  navigate: (to: string) => void;
  toaster: AppToaster;
  /** Logs errors the user never sees (SPEC §8); defaults to console.error. */
  log?: (what: string, error: unknown) => void;
}

/** The screen machines, already provided with their effects. */
export interface AppMachines {
  loginForm: typeof loginFormMachine;
  registration: typeof registrationMachine;
  customerAccess: typeof customerAccessMachine;
  resetRequest: typeof resetRequestMachine;
  newPassword: typeof newPasswordMachine;
}

export type SessionActorRef = ActorRefFrom<SessionMachine>;

/**
 * Creates and starts the session actor (initial state from `store`) and provides every screen
 * machine. @returns { session, machines }.
 */
export function createAppActors({ sessionApi, store, navigate, toaster, log }: AppActorDeps): {
  session: SessionActorRef;
  machines: AppMachines;
} {
  const session = createActor(createSessionMachine({ api: sessionApi, store, navigate, log }), {
    input: readStoredSession(store),
  });
  session.start();

  const loginForm = loginFormMachine.provide({
    actions: {
      submitLogin: (_, request) => session.send({ type: 'session.login', ...request }),
      clearServerError: () => session.send({ type: 'session.clearError' }),
    },
  });
  const registration = registrationMachine.provide({
    actions: { notify: (_, toast) => toaster.show(toast) },
    actors: { registerCustomer: fromPromise(({ input }) => sessionApi.registerCustomer(input)) },
  });
  const customerAccess = customerAccessMachine.provide({ actors: { loginForm, registration } });
  const resetRequest = resetRequestMachine.provide({
    actors: { requestReset: fromPromise(({ input }) => sessionApi.requestPasswordReset(input.type, input.dni)) },
  });
  const newPassword = newPasswordMachine.provide({
    actors: {
      resetPassword: fromPromise(({ input }) => sessionApi.resetPassword(input.type, input.id, input.password)),
    },
  });

  return { session, machines: { loginForm, registration, customerAccess, resetRequest, newPassword } };
}
