import { fromPromise } from 'xstate';
import type { SessionApi } from '../../api/session';
import { clearStorage, readStorage, writeStorage, type KeyValueStore, type StorageKey } from '../../lib/storage';
import { sessionMachine, type SessionInput, type StoredValues } from './session.machine';

/**
 * Real implementations of the session machine's named effects (issue "Foundation"): the api calls
 * of SPEC §7 rows 2, 3, 7, 9, 10 and 11, the SPEC §3 storage keys and wouter's navigate.
 */

/** The api functions the session uses (a subset of `createSessionApi`, so tests pass fakes). */
export type SessionCalls = Pick<
  SessionApi,
  'login' | 'logout' | 'realtimeCredentials' | 'activeLocals' | 'roleNames' | 'rolePermissions'
>;

export interface SessionDeps {
  api: SessionCalls;
  /** Where the SPEC §3 keys live (localStorage in the app, an in-memory store in tests). */
  store: KeyValueStore | null;
  /** wouter navigate (browser or memory location). */
  navigate: (to: string) => void;
  /** Logs errors the user never sees (SPEC §8). Defaults to console.error. */
  log?: (what: string, error: unknown) => void;
}

/**
 * Reads the stored session (SPEC §3 keys) as the machine's input; malformed keys read as absent.
 * @returns token, userType, user, styles, locals, roles and permissions (only those present).
 */
export function readStoredSession(store: KeyValueStore | null): SessionInput {
  const token = readStorage('token', store);
  if (!token) return {};
  return {
    token,
    userType: readStorage('type', store),
    user: readStorage('user_details', store),
    styles: readStorage('system_styles', store),
    locals: readStorage('local_active', store) ?? [],
    roles: readStorage('roles', store) ?? [],
    permissions: readStorage('accesos', store) ?? [],
  };
}

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
export function createSessionMachine({ api, store, navigate, log = defaultLog }: SessionDeps) {
  return sessionMachine.provide({
    actions: {
      navigate: (_, { to }) => navigate(to),
      persist: (_, values) => persistValues(values, store),
      clearStorage: () => clearStorage(store),
      logError: (_, { what, error }) => log(what, error),
    },
    actors: {
      login: fromPromise(({ input }) => api.login(input)),
      logout: fromPromise(({ input }) => api.logout(input.userType)),
      fetchRealtimeCredentials: fromPromise(() => api.realtimeCredentials()),
      fetchActiveLocals: fromPromise(() => api.activeLocals()),
      fetchRoleNames: fromPromise(() => api.roleNames()),
      fetchRolePermissions: fromPromise(() => api.rolePermissions()),
    },
  });
}

function defaultLog(what: string, error: unknown): void {
  console.error(`[session] ${what}:`, error);
}
