import { createApiClient, preloadTransport, type ApiClient, type ApiError } from './api/http';
import { lazyCalls } from './api/lazy-calls';
import type { SessionApi } from './api/session';
import type { NotificationsApi } from './api/notifications';
import { apiBases, type ApiBases } from './config/env';
import { readPlainStorage, type KeyValueStore } from './lib/plain-storage';
import { createLazyToaster, type AppToaster } from './lib/toaster';
import { todayInLima } from './lib/lima-today';
import { createAppActors, type AppActorDeps } from './machines/app-actors';
import type { ViewServices } from './views/services';
import type { SessionInput } from './machines/session/session.machine';

/**
 * Builds the services of the web app (docs/architecture.md; issues
 * "Foundation" and "Shell"): the api modules over `createApiClient` (bearer token read from storage
 * key `token`, docs/product.md §7), the lazy top-right toaster, `navigate`, and the app-wide session actor
 * (with notifications and realtime while logged in) plus the shell's actors and the screen machines
 * provided with those effects.
 */
export interface AppServices extends ViewServices {
  /** The api modules, one per area (only the machines use them). */
  api: { session: SessionApi; notifications: NotificationsApi };
}

export interface AppServicesOptions {
  /** wouter navigate of the location hook the <Router> uses. */
  navigate: (to: string, options?: { replace?: boolean }) => void;
  /** Storage of the docs/product.md §3 keys; defaults to localStorage. */
  store?: KeyValueStore | null;
  /**
   * The session read from that storage (src/machines/session/stored-session.ts
   * `readStoredSession(store)`; `{}` when no token is stored): src/main.tsx loads that reader, and
   * the schemas it needs, only when a token is stored.
   */
  storedSession: SessionInput;
  bases?: ApiBases;
  /** fetch implementation (tests). */
  fetch?: typeof globalThis.fetch;
  toaster?: AppToaster;
  today?: () => string;
  /** Overrides the session api (view tests pass fakes). */
  sessionApi?: SessionApi;
  /** Overrides the notifications api (view tests pass fakes). */
  notificationsApi?: NotificationsApi;
  /** Overrides the realtime connection and the layout's window (view tests). */
  realtimeConnection?: AppActorDeps['realtimeConnection'];
  win?: AppActorDeps['win'];
}

/** Creates the services once per app (main.tsx) or per test. */
export function createAppServices(options: AppServicesOptions): AppServices {
  const store = options.store === undefined ? (typeof localStorage === 'undefined' ? null : localStorage) : options.store;
  // docs/product.md §7's global check, one mechanism for every call of every machine: the client hands each
  // 401/402/404 answer to the session, which decides where the user goes (session.machine.ts).
  // The session is created below, with the api modules it needs; its first call (row 11 of a
  // restored session) starts there, but every answer arrives asynchronously, after `sessionRef` is set.
  let sessionRef: { send: (event: { type: 'session.apiError'; error: ApiError }) => void } | null = null;
  const client = createApiClient({
    bases: options.bases ?? apiBases,
    getToken: () => readPlainStorage('token', store),
    onSessionError: (error) => sessionRef?.send({ type: 'session.apiError', error }),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const session = lazySessionApi(client);
  const sessionApi = options.sessionApi ?? session.calls;
  const notificationsApi = options.notificationsApi ?? lazyNotificationsApi(client);
  const toaster = options.toaster ?? createLazyToaster();
  const actors = createAppActors({
    sessionApi,
    notificationsApi,
    store,
    storedSession: options.storedSession,
    // What a login's submit needs, fetched while the user types (the login form's first focus).
    prepareLogin: () => {
      session.preload();
      preloadTransport();
    },
    navigate: (to) => options.navigate(to),
    toaster,
    ...(options.realtimeConnection ? { realtimeConnection: options.realtimeConnection } : {}),
    ...(options.win !== undefined ? { win: options.win } : {}),
    apiClient: client,
  });
  sessionRef = actors.session;
  return {
    api: { session: sessionApi, notifications: notificationsApi },
    session: actors.session,
    machines: actors.machines,
    navigate: options.navigate,
    toaster,
    today: options.today ?? (() => todayInLima()),
  };
}

/**
 * The session calls (src/api/session.ts), imported with the first call or the login form's
 * preload: their zod schemas stay out of the login page's entry chunk.
 */
function lazySessionApi(client: ApiClient) {
  return lazyCalls<SessionApi>(() => import('./api/session').then((m) => m.createSessionApi(client)), {
    registerCustomer: true,
    login: true,
    realtimeCredentials: true,
    requestPasswordReset: true,
    checkResetLink: true,
    resetPassword: true,
    logout: true,
    storeStyles: true,
    activeLocals: true,
    roleNames: true,
    rolePermissions: true,
    changePassword: true,
  });
}

/** The notification calls (src/api/notifications.ts), imported with the first one (after a login). */
function lazyNotificationsApi(client: ApiClient): NotificationsApi {
  return lazyCalls<NotificationsApi>(() => import('./api/notifications').then((m) => m.createNotificationsApi(client)), {
    list: true,
    markSeen: true,
    send: true,
  }).calls;
}
