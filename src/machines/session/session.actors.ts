import { fromPromise, sendParent, type CallbackActorLogic } from 'xstate';
import { ApiError } from '../../api/http';
import type { SessionApi } from '../../api/session';
import type { NotificationsApi } from '../../api/notifications';
import type { NotificationsData, PermissionsChangedEvent } from '../../schemas/notification';
import { notificationsMachine } from '../notifications/notifications.machine';
import { realtimeMachine, type RealtimeEvent, type RealtimeInput } from '../realtime/realtime.machine';
import { lazyEchoConnection } from '../realtime/realtime.connection';
import { clearStorage, readPlainStorage, writeStorage, type KeyValueStore } from '../../lib/plain-storage';
import type { StorageKey } from '../../lib/storage';
import type { StyleSettings, UserType } from '../../schemas/session';
import type { DashboardChangedEvent } from '../../schemas/inicio/dashboard';
import { sessionMachine, type RolePermissions, type StoredValues } from './session.machine';

/**
 * Real implementations of the session machine's named effects (issues "Foundation" and "Shell"):
 * the api calls of docs/product.md §7 rows 2, 3, 7, 9, 10, 11 and (through the invoked notifications machine)
 * 12–14, the docs/product.md §3 storage keys, wouter's navigate, the realtime connection (its
 * NotificationsMessageEvent pushes go to the notifications machine, its PermissionsChangedEvent
 * pushes back to the session, its DashboardChanged pushes to `dashboardChanged`) and the theme.
 */

/** The api functions the session uses (a subset of `createSessionApi`, so tests pass fakes). */
export type SessionCalls = Pick<SessionApi, 'login' | 'logout' | 'realtimeCredentials' | 'activeLocals' | 'roleNames' | 'rolePermissions'>;

export interface SessionDeps {
  api: SessionCalls;
  /** Where the docs/product.md §3 keys live (localStorage in the app, an in-memory store in tests). */
  store: KeyValueStore | null;
  /** wouter navigate (browser or memory location). */
  navigate: (to: string) => void;
  /** Logs errors the user never sees (docs/product.md §8). Defaults to console.error. */
  log?: (what: string, error: unknown) => void;
  /**
   * Rows 12–14 (`list` by user type, `markSeen`). Without it the notifications list is empty
   * (tests of the session alone).
   */
  notificationsApi?: NotificationCalls;
  /** The realtime connection actor; defaults to laravel-echo over pusher-js, loaded on demand. */
  realtimeConnection?: CallbackActorLogic<RealtimeEvent, RealtimeInput>;
  /** Restores the theme at login (the login's styles) and at logout (null: defaults). */
  restoreTheme?: (restored: { styles: StyleSettings | null; userType: UserType | null }) => void;
  /** Receives each realtime DashboardChanged payload (the app hands it to Inicio's dashboard); dropped by default. */
  dashboardChanged?: (payload: DashboardChangedEvent) => void;
}

/** The notification calls the session's notifications machine makes. */
export type NotificationCalls = Pick<NotificationsApi, 'list' | 'markSeen'>;

const NO_NOTIFICATIONS: NotificationsData = { notification_quantity: 0, notification: [] };

/** Writes each present key of `values` to `store` (JSON except token/type, see lib/storage). */
export function persistValues(values: Partial<StoredValues>, store: KeyValueStore | null): void {
  for (const [key, value] of Object.entries(values)) {
    if (value !== undefined) writeStorage(key as StorageKey, value as never, store);
  }
}

/**
 * The session machine with its effects supplied.
 * @returns a machine to start once for the whole app (with `readStoredSession(store)` as input).
 */
export function createSessionMachine({
  api,
  store,
  navigate,
  log = defaultLog,
  notificationsApi,
  realtimeConnection = lazyEchoConnection,
  restoreTheme = () => {},
  dashboardChanged = () => {},
}: SessionDeps) {
  const notifications = notificationsMachine.provide({
    actions: {
      navigate: (_, { to }) => navigate(to),
      logError: (_, { what, error }) => log(what, error),
    },
    actors: {
      // Rows 12 (staff) / 13 (customers): the type stored at login picks the base.
      fetchNotifications: fromPromise(async () =>
        notificationsApi ? notificationsApi.list(readPlainStorage('type', store) ?? 'COLLABORATOR') : NO_NOTIFICATIONS,
      ),
      markSeen: fromPromise(async ({ input }) => (notificationsApi ? notificationsApi.markSeen(input.ids) : null)),
    },
  });
  const realtime = realtimeMachine.provide({
    actors: { connection: realtimeConnection },
    actions: {
      // Pushes go to the notifications machine invoked beside it (same actor system).
      deliver: ({ system }, payload) => system.get('notifications')?.send({ type: 'notification.received', payload }),
      // Connected (again): notifications pushed while there was no socket (the ~5 s after a page load, a drop) are read from the list.
      connected: ({ system }) => system.get('notifications')?.send({ type: 'notifications.refresh' }),
      // PermissionsChangedEvent goes to the session that invoked the realtime machine (refetch, new menu).
      permissionsChanged: sendParent((_, payload: PermissionsChangedEvent) => ({ type: 'session.permissionsChanged' as const, payload })),
      // DashboardChanged goes out of the session to whoever listens (Inicio's dashboard, src/machines/app-actors.ts).
      dashboardChanged: (_, payload) => dashboardChanged(payload),
      // The channel authorisation refused (pusher-js's own call): the session's global check, like any call.
      authRefused: sendParent((_, status: number) => ({
        type: 'session.apiError' as const,
        error: new ApiError(status, 'Autorización del canal en tiempo real rechazada'),
      })),
    },
  });
  return sessionMachine.provide({
    actions: {
      navigate: (_, { to }) => navigate(to),
      persist: (_, values) => persistValues(values, store),
      clearStorage: () => clearStorage(store),
      logError: (_, { what, error }) => log(what, error),
      restoreTheme: (_, restored) => restoreTheme(restored),
    },
    actors: {
      login: fromPromise(({ input }) => api.login(input)),
      logout: fromPromise(({ input }) => api.logout(input.userType)),
      fetchRealtimeCredentials: fromPromise(() => api.realtimeCredentials()),
      fetchActiveLocals: fromPromise(() => api.activeLocals()),
      fetchRoleNames: fromPromise(() => api.roleNames()),
      // Row 11 and the menu catalogue, loaded together (the catalogue is not in the entry chunk).
      fetchRolePermissions: fromPromise<RolePermissions, void>(async () => {
        const [permissions, { buildPermissionsNames }] = await Promise.all([api.rolePermissions(), import('../../schemas/menu-catalogue')]);
        return { permissions, menu: buildPermissionsNames(permissions) };
      }),
      notifications,
      realtime,
    },
  });
}

function defaultLog(what: string, error: unknown): void {
  console.error(`[session] ${what}:`, error);
}
