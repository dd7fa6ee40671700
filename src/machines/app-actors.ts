import { inspectOption } from './inspect';
import { createActor, type ActorRefFrom, type CallbackActorLogic } from 'xstate';
import type { SessionApi } from '../api/session';
import type { NotificationsApi } from '../api/notifications';
import type { KeyValueStore } from '../lib/storage';
import type { AppToaster } from '../lib/toaster';
import { createSessionMachine } from './session/session.actors';
import type { SessionInput, SessionMachine } from './session/session.machine';
import { loginFormMachine, preloadLoginValidation } from './auth/login-form.machine';
import type { CustomerAccessMachine } from './auth/customer-access.machine';
import type { ResetRequestMachine } from './auth/reset-request.machine';
import type { NewPasswordMachine } from './auth/new-password.machine';
import type { StyleSettings, UserType } from '../schemas/session';
import type { DashboardChangedEvent } from '../schemas/inicio/dashboard';
import type { RealtimeEvent, RealtimeInput } from './realtime/realtime.machine';
import type { ShellActors } from './shell/shell.actors';
import type { ApiClient, ApiError } from '../api/client';
import { lazyModule, onDemand } from './shared/on-demand';
import { createScreenMachines, type ScreenMachines } from './screen-machines';

/**
 * Wires the app-wide actors and the screen machines (issues "Foundation" and "Shell") to their
 * effects: the session and notifications apis (docs/product.md §7), storage (docs/product.md §3), navigation and the
 * toaster. The app calls this once at start-up; view tests call it with fakes. Views receive the
 * result through the services context and never touch the api.
 *
 * - `session` (started here) invokes `notifications` (rows 12–14) and `realtime` while logged in;
 *   the realtime DashboardChanged pushes go out to the listeners Inicio's dashboard subscribes
 *   (`onDashboardChanged` of the screen machines' deps).
 * - The shell's app-wide actors (`layout`, `theme`, `change-password`, `menu-search`, see
 *   shell/shell.actors.ts) are created the first time the authenticated area is shown, with it;
 *   the session restores the theme through them at login and logout.
 * - The machines of the screens that are themselves loaded on demand (customer access with the
 *   registration rules, password reset) are loaded on first use too, so the staff login's bundle
 *   does not carry them.
 */

export interface AppActorDeps {
  sessionApi: SessionApi;
  /** Where the docs/product.md §3 keys live (localStorage in the app). */
  store: KeyValueStore | null;
  /**
   * The session read from `store` at start-up (src/machines/session/stored-session.ts
   * `readStoredSession`; `{}` without a stored token): the session machine's input. Read by the
   * caller, which loads that module (zod) only when a token is stored.
   */
  storedSession: SessionInput;
  /**
   * Starts fetching what a login's submit needs beside the form's validation (the session calls,
   * the api client's transport), at the login form's first focus; nothing by default (tests).
   */
  prepareLogin?: () => void;
  navigate: (to: string) => void;
  toaster: AppToaster;
  /** Rows 12–14 (notifications of the signed-in user). */
  notificationsApi: Pick<NotificationsApi, 'list' | 'markSeen'>;
  /** Logs errors the user never sees (docs/product.md §8); defaults to console.error. */
  log?: (what: string, error: unknown) => void;
  /** The realtime connection (tests pass a fake; laravel-echo loaded on demand otherwise). */
  realtimeConnection?: CallbackActorLogic<RealtimeEvent, RealtimeInput>;
  /** The window of the layout (tests pass a stub); defaults to the global window. */
  win?: Pick<Window, 'innerWidth' | 'addEventListener'> | null;
  /** The api client the on-demand screen machines build their api modules on (Configuración → Usuarios, Roles). */
  apiClient?: ApiClient;
}

/**
 * Modules of the machines of the public pages and of the shell, loaded on demand and shared by
 * every app instance; the pages start loading theirs together with their own code
 * (views/router/screens.ts). The authenticated screens' machine modules are in
 * ./screen-machines.ts, derived from the screen table (src/config/screens.ts).
 */
export const ON_DEMAND_MACHINES = {
  customerAccess: lazyModule(() => import('./auth/customer-access.actors')),
  passwordReset: lazyModule(() => import('./auth/password-reset.actors')),
  /** The shell's app-wide actors, loaded with the authenticated area. */
  shell: lazyModule(() => import('./shell/shell.actors')),
};

/**
 * The screen machines, already provided with their effects: those of the public pages and the
 * shell, plus one loader per machine module of the screen table (`users`, `projects`, …, see
 * ./screen-machines.ts). The loaders return the same promise on every call (see
 * shared/on-demand.ts): the screen suspends on it with `use()`.
 */
export interface AppMachines extends ScreenMachines {
  loginForm: typeof loginFormMachine;
  /** Customer access: login and registration tabs (registration provided). */
  customerAccess: () => Promise<CustomerAccessMachine>;
  resetRequest: () => Promise<ResetRequestMachine>;
  newPassword: () => Promise<NewPasswordMachine>;
  /** The shell's app-wide actors (layout, theme, change-password, menu-search), created once. */
  shell: () => Promise<ShellActors>;
}

export type SessionActorRef = ActorRefFrom<SessionMachine>;

/**
 * Creates and starts the session actor (initial state from `store`) and provides every screen
 * machine. @returns { session, machines }.
 */
export function createAppActors({
  sessionApi,
  store,
  storedSession,
  prepareLogin,
  navigate,
  toaster,
  notificationsApi,
  log,
  realtimeConnection,
  win,
  apiClient,
}: AppActorDeps): {
  session: SessionActorRef;
  machines: AppMachines;
} {
  // The theme is restored once the shell's module is loaded (until then its actors read storage when
  // created). Deferred: the session's action must not create or drive other actors synchronously.
  const restoreTheme = (restored: { styles: StyleSettings | null; userType: UserType | null }) => {
    if (!ON_DEMAND_MACHINES.shell.loaded) return;
    void Promise.resolve()
      .then(shell)
      .then((actors) => actors.theme.send({ type: 'theme.restored', ...restored }));
  };
  // Realtime DashboardChanged pushes, handed to whoever listens (Inicio's dashboard while it is shown).
  const dashboardListeners = new Set<(payload: DashboardChangedEvent) => void>();
  const onDashboardChanged = (listener: (payload: DashboardChangedEvent) => void) => {
    dashboardListeners.add(listener);
    return () => void dashboardListeners.delete(listener);
  };
  const session: SessionActorRef = createActor(
    createSessionMachine({
      api: sessionApi,
      store,
      navigate,
      log,
      notificationsApi,
      restoreTheme,
      // Deferred, like restoreTheme: the session's action must not drive other actors synchronously.
      dashboardChanged: (payload) => queueMicrotask(() => dashboardListeners.forEach((listener) => listener(payload))),
      ...(realtimeConnection ? { realtimeConnection } : {}),
    }),
    { input: storedSession, ...inspectOption() },
  );
  const shell = onDemand(ON_DEMAND_MACHINES.shell, (m) =>
    m.createShellActors({
      session,
      sessionApi,
      store,
      navigate,
      toaster,
      ...(log ? { log } : {}),
      ...(win !== undefined ? { win } : {}),
    }),
  );
  session.start();

  const loginForm = loginFormMachine.provide({
    actions: {
      submitLogin: (_, request) => session.send({ type: 'session.login', ...request }),
      clearServerError: () => session.send({ type: 'session.clearError' }),
      prepare: () => {
        preloadLoginValidation();
        prepareLogin?.();
      },
    },
  });
  const customerAccess = onDemand(ON_DEMAND_MACHINES.customerAccess, (m) => m.provideCustomerAccess({ sessionApi, toaster, loginForm }));
  const resetRequest = onDemand(ON_DEMAND_MACHINES.passwordReset, (m) => m.provideResetRequest(sessionApi));
  const newPassword = onDemand(ON_DEMAND_MACHINES.passwordReset, (m) => m.provideNewPassword(sessionApi));
  const screenClient = (): ApiClient => {
    if (!apiClient) throw new Error('createAppActors: apiClient is needed for this screen');
    return apiClient;
  };
  const reportApiError = (error: ApiError) => session.send({ type: 'session.apiError', error });
  const screens = createScreenMachines(screenClient, { sessionApi, reportApiError, toaster, navigate, onDashboardChanged });

  return { session, machines: { ...screens, loginForm, customerAccess, resetRequest, newPassword, shell } };
}
