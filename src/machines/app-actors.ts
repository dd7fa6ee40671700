import { createActor, type ActorRefFrom } from 'xstate';
import type { SessionApi } from '../api/session';
import type { KeyValueStore } from '../lib/storage';
import type { AppToaster } from '../lib/toaster';
import { createSessionMachine, readStoredSession } from './session/session.actors';
import type { SessionMachine } from './session/session.machine';
import { loginFormMachine } from './auth/login-form.machine';
import type { CustomerAccessMachine } from './auth/customer-access.machine';
import type { ResetRequestMachine } from './auth/reset-request.machine';
import type { NewPasswordMachine } from './auth/new-password.machine';
import { lazyModule, onDemand } from './shared/on-demand';

/**
 * Wires the app-wide actors and the screen machines of issue "Foundation" to their effects: the
 * session api (SPEC §7), storage (SPEC §3), navigation and the toaster. The app calls this once
 * at start-up; view tests call it with fakes. Views receive the result through the services
 * context and never touch the api. The machines of the screens that are themselves loaded on
 * demand (customer access with the registration rules, password reset) are loaded on first use
 * too, so the staff login's bundle does not carry them.
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

/**
 * Modules of the machines loaded on demand, shared by every app instance. The lazy screens start
 * loading theirs together with their own code (views/router/screens.ts).
 */
export const ON_DEMAND_MACHINES = {
  customerAccess: lazyModule(() => import('./auth/customer-access.actors')),
  passwordReset: lazyModule(() => import('./auth/password-reset.actors')),
};

/**
 * The screen machines, already provided with their effects. The loaders return the same promise
 * on every call (see shared/on-demand.ts): the screen suspends on it with `use()`.
 */
export interface AppMachines {
  loginForm: typeof loginFormMachine;
  /** Customer access: login and registration tabs (registration provided). */
  customerAccess: () => Promise<CustomerAccessMachine>;
  resetRequest: () => Promise<ResetRequestMachine>;
  newPassword: () => Promise<NewPasswordMachine>;
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
  const customerAccess = onDemand(ON_DEMAND_MACHINES.customerAccess, (m) =>
    m.provideCustomerAccess({ sessionApi, toaster, loginForm }),
  );
  const resetRequest = onDemand(ON_DEMAND_MACHINES.passwordReset, (m) => m.provideResetRequest(sessionApi));
  const newPassword = onDemand(ON_DEMAND_MACHINES.passwordReset, (m) => m.provideNewPassword(sessionApi));

  return { session, machines: { loginForm, customerAccess, resetRequest, newPassword } };
}
