import { createApiClient, type ApiError } from './api/client';
import { createSessionApi, type SessionApi } from './api/session';
import { createNotificationsApi, type NotificationsApi } from './api/notifications';
import { apiBases, type ApiBases } from './config/env';
import { readStorage, type KeyValueStore } from './lib/storage';
import { createLazyToaster, type AppToaster } from './lib/toaster';
import { todayInLima } from './lib/lima-today';
import { createAppActors, type AppActorDeps } from './machines/app-actors';
import type { ViewServices } from './views/services';

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
    getToken: () => readStorage('token', store),
    onSessionError: (error) => sessionRef?.send({ type: 'session.apiError', error }),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const sessionApi = options.sessionApi ?? createSessionApi(client);
  const notificationsApi = options.notificationsApi ?? createNotificationsApi(client);
  const toaster = options.toaster ?? createLazyToaster();
  const { session, machines } = createAppActors({
    sessionApi,
    notificationsApi,
    store,
    navigate: (to) => options.navigate(to),
    toaster,
    ...(options.realtimeConnection ? { realtimeConnection: options.realtimeConnection } : {}),
    ...(options.win !== undefined ? { win: options.win } : {}),
    apiClient: client,
  });
  sessionRef = session;
  return {
    api: { session: sessionApi, notifications: notificationsApi },
    session,
    machines,
    navigate: options.navigate,
    toaster,
    today: options.today ?? (() => todayInLima()),
  };
}
