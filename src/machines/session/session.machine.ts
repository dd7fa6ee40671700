import { and, assign, assertEvent, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import { placeholder } from '../shared/placeholder';
import { errorMessage, errorStatus } from '../shared/api-errors';
import { notificationsMachine } from '../notifications/notifications.machine';
import { realtimeMachine } from '../realtime/realtime.machine';
import type { PermissionsChangedEvent } from '../../schemas/notification';
import type {
  Channels,
  EchoInfo,
  LoginData,
  LoginRequest,
  Local,
  RealtimeCredentials,
  RoleEntry,
  SessionUser,
  StyleSettings,
  UserType,
} from '../../schemas/session';

/**
 * The app-wide `session` machine (issue "Foundation"; docs/product.md §2 route guard, §3 storage keys, §4
 * "Logged out to logged in" and "Logout", §7 rows 2, 3, 7, 9, 10, 11 and the global 401/404/402
 * rule, §8).
 *
 * States: loggedOut → authenticating → loggedIn (loadingSessionData → ready) → loggingOut →
 * loggedOut, and redirected. A session restored from storage first revalidates its token by
 * refreshing the permissions (row 11), so an expired or revoked token meets the global rule at
 * start-up instead of on the user's first action (a global API error sent the user to /auth/access, /auth/error or
 * /auth/pago). The initial state comes from storage: a stored token means loggedIn.
 *
 * The global 401/404/402 rule (docs/product.md §7 "Every response passes a global check", §8) is one
 * mechanism for every call of every machine (issue 12 item 2): the api client hands each such
 * answer to this machine as `session.apiError` (`ApiClientOptions.onSessionError`, installed in
 * app-services.ts) before the call rejects, so the session leaves its state — stopping the call's
 * actor and every call it invoked — and the calling machine only decides whether to stay quiet.
 * - 401 with a session: storage cleared, context reset, theme defaults, → /auth/access
 *   ("Acceso denegado"). A 401 with no session (a late answer after logout or after an earlier
 *   401) has nothing left to end and is ignored.
 * - 404 → /auth/error, 402 → /auth/pago; the token stays.
 * - The same error object reported twice (the client, then a screen's `reportApiError`) is routed
 *   once.
 * - While `authenticating`, a 401 or 404 is the login's own answer (shown on the form); a 402 is
 *   global even at login. While `loggingOut`, nothing is routed: a logout always lands on
 *   /auth/login (docs/product.md §4, §8 "Logout errors: only logged").
 *
 * While logged in and ready (issue "Shell"; docs/architecture.md "invokes `notifications` and
 * `realtime` only while logged in"), the session invokes the `notifications` machine (system id
 * 'notifications', input the user's id) and the `realtime` machine (system id 'realtime', input the
 * stored echo_info, channels, type and token); both stop when the session leaves `loggedIn`
 * (logout, a global redirect). The top bar starts the realtime connection (docs/product.md §4).
 *
 * Live permissions (issue "Configuración and Historial de cambios"): while `ready`, a
 * `PermissionsChangedEvent` pushed on the user's own channel (the realtime machine hands it on as
 * `session.permissionsChanged`) refetches row 11 (`accesos`) in `ready.refreshingPermissions` and
 * rebuilds `user_details.permissions_names` from the new permission strings with the server's own
 * rule (`buildPermissionsNames`, docs/product.md §6), so the side menu, the shortcut search and the route
 * guard change without a reload; a screen whose permission was withdrawn shows the same "no
 * permission" state as any forbidden route. (Row 10, the list of every role, does not change with
 * a role's permissions and is not refetched.) A second event while refreshing restarts the refresh
 * (the older answer is dropped). 401/402/404 go through the global rule; other failures are logged
 * and the current permissions stay. The restore-time revalidation stores its answer the same way,
 * so a menu changed while the app was closed is current on the next visit.
 *
 * The theme follows the session (docs/product.md §4 "restored from saved styles"): a login restores the
 * login's system_styles, and a logout or a 401 restores the defaults (`restoreTheme`).
 *
 * Every effect is a named action or actor declared here as a placeholder and supplied with
 * `.provide()` (see session.actors.ts), so tests inject fakes and the inspector shows real names.
 */

/** Where the global API error rule (docs/product.md §7, §8) sends the user. */
export const REDIRECT_PATHS = { 401: '/auth/access', 404: '/auth/error', 402: '/auth/pago' } as const;
export type RedirectStatus = keyof typeof REDIRECT_PATHS;

/** Route of the staff login, where logout lands (docs/product.md §4). */
export const LOGIN_PATH = '/auth/login';
/** Route of the dashboard, where a completed login lands. */
export const HOME_PATH = '/';

/** Values written to the docs/product.md §3 storage keys (see lib/storage.ts). */
export interface StoredValues {
  token: string;
  type: UserType;
  system_styles: StyleSettings | null;
  user_details: SessionUser;
  echo_info: EchoInfo;
  channels: Channels;
  accesos: string[];
  local_active: Local[];
  roles: RoleEntry[];
}

/** What the session knows; mirrors the stored keys it reads back. */
export interface SessionContext {
  /** Opaque bearer token; null when logged out (docs/product.md §4: logged in means a token is present). */
  token: string | null;
  userType: UserType | null;
  user: SessionUser | null;
  styles: StyleSettings | null;
  /** Active locations (row 9, `local_active`). */
  locals: Local[];
  /** Role list (row 10, `roles`). */
  roles: RoleEntry[];
  /** Permission strings (row 11, `accesos`, docs/product.md §6). */
  permissions: string[];
  /** Realtime connection info (row 3, `echo_info`). */
  echoInfo: EchoInfo | null;
  /** Notification channel names (row 3, `channels`). */
  channels: Channels | null;
  /** Spanish message of the last failed login, shown by the login views. */
  loginError: string | null;
  /** The last global redirect (status and path), while in `redirected`. */
  redirect: { status: RedirectStatus; to: string } | null;
  /** The error object the global rule last routed (the same object reported again is ignored). */
  routedError: ApiError | null;
}

/** Input: what was read from storage at start-up (see `readStoredSession`). */
export type SessionInput = Partial<Omit<SessionContext, 'loginError' | 'redirect' | 'routedError'>>;

export type SessionEvent =
  | ({ type: 'session.login' } & LoginRequest)
  | { type: 'session.logout' }
  | { type: 'session.apiError'; error: ApiError }
  | { type: 'session.clearError' }
  /** A realtime `PermissionsChangedEvent` payload (parsed by the connection; see {@link isOwnPermissionsChange}). */
  | { type: 'session.permissionsChanged'; payload: PermissionsChangedEvent };

/**
 * True when a pushed `PermissionsChangedEvent` payload (`{user_id, changed_at}`, parsed by the
 * realtime connection: src/machines/realtime/realtime-events.ts) names the signed-in user; a
 * payload for someone else, or any payload while no user is known, is ignored.
 */
export function isOwnPermissionsChange(payload: PermissionsChangedEvent, user: SessionUser | null): boolean {
  return user !== null && payload.user_id === user.id;
}

/**
 * Row 11's answer as the session keeps it: the permission strings (`accesos`) and the user's menu
 * (`permissions_names`, docs/product.md §3) rebuilt from them by the rule the server applies at
 * login (`buildPermissionsNames`, src/schemas/menu-catalogue.ts — loaded with the call by
 * session.actors.ts, so the catalogue is not in the login page's entry chunk).
 */
export interface RolePermissions {
  permissions: string[];
  menu: SessionUser['permissions_names'];
}

const emptyContext: SessionContext = {
  token: null,
  userType: null,
  user: null,
  styles: null,
  locals: [],
  roles: [],
  permissions: [],
  echoInfo: null,
  channels: null,
  loginError: null,
  redirect: null,
  routedError: null,
};

/** The docs/product.md §3 keys that hold the user's access: `accesos` and, when a user is known, `user_details`. */
export function storedAccess(context: Pick<SessionContext, 'permissions' | 'user'>): Partial<StoredValues> {
  return context.user ? { accesos: context.permissions, user_details: context.user } : { accesos: context.permissions };
}

/** The theme restored when the session ends: defaults (docs/product.md §9). */
const DEFAULT_THEME = { styles: null, userType: null } as const;

function statusOf(event: { type: string; error?: unknown }): number | null {
  return errorStatus(event.error);
}

/**
 * Row 11 (`fetchRolePermissions`) then `target`: on success keep the permissions (and the menu
 * names built from them) and persist them; any failure is logged and the current permissions stay
 * (a 401/402/404 never gets here: the client's global check already sent `session.apiError`, which
 * left this state and stopped the call). Shared by the start-up revalidation and the refresh after
 * a PermissionsChangedEvent.
 */
function permissionsRefresh<const T extends string>(target: T) {
  return {
    src: 'fetchRolePermissions',
    onDone: {
      target,
      actions: [
        { type: 'keepPermissions', params: ({ event }: { event: { output: RolePermissions } }) => event.output },
        { type: 'persist', params: ({ context }: { context: SessionContext }) => storedAccess(context) },
      ],
    },
    onError: {
      target,
      actions: { type: 'logError', params: ({ event }: { event: { error: unknown } }) => ({ what: 'permissions', error: event.error }) },
    },
  } as const;
}

/** What each secondary call of a login answers (docs/product.md §7 rows 3, 9, 10, 11). */
interface SecondaryOutputs {
  fetchRealtimeCredentials: RealtimeCredentials;
  fetchActiveLocals: Local[];
  fetchRoleNames: RoleEntry[];
  fetchRolePermissions: RolePermissions;
}

/** Where a secondary call's answer goes: the session's context and the docs/product.md §3 storage keys. */
interface Kept {
  context: Partial<SessionContext>;
  stored: Partial<StoredValues>;
}

/**
 * One region of `loadingSessionData`: "load call `src` into storage": the call runs once; its
 * answer is kept in the context and written to its docs/product.md §3 keys (`keep` maps it to both); a
 * failure is logged under `what` and is not fatal (docs/product.md §8). A 401/402/404 never reaches `onError`:
 * the client's global check sent `session.apiError` first, which left `loggedIn`.
 * @returns the region's config (states `loading` → `done`, final).
 */
function loadIntoStorage<const S extends keyof SecondaryOutputs>(src: S, what: string, keep: (output: SecondaryOutputs[S]) => Kept) {
  type Done = { event: { output: SecondaryOutputs[S] } };
  return {
    initial: 'loading',
    states: {
      loading: {
        invoke: {
          src,
          onDone: {
            target: 'done',
            actions: [
              { type: 'keepSessionData', params: ({ event }: Done) => keep(event.output).context },
              { type: 'persist', params: ({ event }: Done) => keep(event.output).stored },
            ],
          },
          onError: {
            target: 'done',
            actions: { type: 'logError', params: ({ event }: { event: { error: unknown } }) => ({ what, error: event.error }) },
          },
        },
      },
      done: { type: 'final' },
    },
  } as const;
}

/** The three global redirects of docs/product.md §7, as the transitions of the root `session.apiError` handler. */
function globalRedirect<const S extends RedirectStatus>(
  status: S,
  guard: 'isUnauthorizedWithSession' | 'isNotFound' | 'isPaymentRequired',
) {
  const redirect = { status, to: REDIRECT_PATHS[status] };
  const route = [
    {
      type: 'keepRedirect',
      params: ({ event }: { event: { type: string; error?: unknown } }) => ({ redirect, error: event.error as ApiError }),
    },
    { type: 'navigate', params: { to: redirect.to } },
  ] as const;
  return {
    guard,
    target: '#session.redirected',
    // A 401 ends the session: storage cleared, context and theme back to their defaults.
    actions:
      status === 401 ? (['clearStorage', 'resetContext', { type: 'restoreTheme', params: DEFAULT_THEME }, ...route] as const) : route,
  } as const;
}

export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    events: {} as SessionEvent,
    input: {} as SessionInput,
    children: {} as { notifications: 'notifications'; realtime: 'realtime' },
  },
  actions: {
    /** Navigates the app to `to` (wouter navigate, injected). */
    navigate: (_, _params: { to: string }) => {},
    /** Writes the given docs/product.md §3 keys to storage (injected). */
    persist: (_, _params: Partial<StoredValues>) => {},
    /** Clears all storage (docs/product.md §4 logout, and on 401). */
    clearStorage: () => {},
    /** Logs an error that the user does not see (docs/product.md §8: logout errors, secondary fetches). */
    logError: (_, _params: { what: string; error: unknown }) => {},
    /** Restores the theme (theme machine `theme.restored`): the login's styles, or defaults (null). */
    restoreTheme: (_, _params: { styles: StyleSettings | null; userType: UserType | null }) => {},
    /**
     * Fresh permission strings (row 11) kept, with the user's menu (`permissions_names`) rebuilt
     * from them (docs/product.md §3, §6); `persist` with {@link storedAccess} stores both.
     */
    keepPermissions: assign(({ context }, { permissions, menu }: RolePermissions) => ({
      permissions,
      user: context.user ? { ...context.user, permissions_names: menu } : null,
    })),
    /** A secondary call's answer kept in the context (see {@link loadIntoStorage}). */
    keepSessionData: assign((_, values: Partial<SessionContext>) => values),
    /** The global rule's redirect, and the error it routed (so the same error is not routed twice). */
    keepRedirect: assign((_, { redirect, error }: { redirect: SessionContext['redirect']; error: ApiError }) => ({
      redirect,
      routedError: error,
    })),
    resetContext: assign(() => ({ ...emptyContext })),
    clearLoginError: assign({ loginError: null }),
  },
  actors: {
    /** Row 2: POST auth/login. */
    login: placeholder<LoginData, LoginRequest>('login'),
    /** Row 7: POST auth/logout with the stored type. */
    logout: placeholder<unknown, { userType: UserType }>('logout'),
    /** Row 3: realtime credentials (echo_info, channels). */
    fetchRealtimeCredentials: placeholder<RealtimeCredentials>('fetchRealtimeCredentials'),
    /** Row 9: active locations (local_active). */
    fetchActiveLocals: placeholder<Local[]>('fetchActiveLocals'),
    /** Row 10: role list (roles). */
    fetchRoleNames: placeholder<RoleEntry[]>('fetchRoleNames'),
    /** Row 11: permission strings (accesos). */
    fetchRolePermissions: placeholder<RolePermissions>('fetchRolePermissions'),
    /** The notifications machine (rows 12–14), provided with its api calls and navigate. */
    notifications: notificationsMachine,
    /** The realtime machine (laravel-echo connection), provided with its connection and delivery. */
    realtime: realtimeMachine,
  },
  guards: {
    hasToken: ({ context }) => context.token !== null,
    isUnauthorized: ({ event }) => statusOf(event as { type: string; error?: unknown }) === 401,
    isNotFound: ({ event }) => statusOf(event as { type: string; error?: unknown }) === 404,
    isPaymentRequired: ({ event }) => statusOf(event as { type: string; error?: unknown }) === 402,
    isUnauthorizedWithSession: and(['isUnauthorized', 'hasToken']),
    /** The error object was already routed (reported by the client, then again by a screen). */
    isAlreadyRouted: ({ context, event }) => event.type === 'session.apiError' && event.error === context.routedError,
    isOwnPermissionsChange: ({ context, event }) =>
      event.type === 'session.permissionsChanged' && isOwnPermissionsChange(event.payload, context.user),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({ ...emptyContext, ...input }),
  initial: 'starting',
  on: {
    // docs/product.md §7 "Every response passes a global check": the api client reports every 401/402/404 of
    // every call here (see the comment at the top); where the user goes is decided here only.
    'session.apiError': [
      { guard: 'isAlreadyRouted' },
      globalRedirect(401, 'isUnauthorizedWithSession'),
      // A 401 without a session: nothing left to end (a late answer after logout or another 401).
      { guard: 'isUnauthorized' },
      globalRedirect(404, 'isNotFound'),
      globalRedirect(402, 'isPaymentRequired'),
    ],
  },
  states: {
    /** Transient: a stored token means loggedIn (docs/product.md §4). */
    starting: {
      always: [{ guard: 'hasToken', target: 'loggedIn.revalidating' }, { target: 'loggedOut' }],
    },
    loggedOut: {
      on: {
        'session.login': { target: 'authenticating', actions: 'clearLoginError' },
        'session.clearError': { actions: 'clearLoginError' },
      },
    },
    /** Row 2 in flight. */
    authenticating: {
      on: {
        // The login's 401 or 404 is its own answer, shown on the form (onError below); a 402 goes
        // on to the global rule (→ /auth/pago, even at login).
        'session.apiError': [{ guard: 'isUnauthorized' }, { guard: 'isNotFound' }],
      },
      invoke: {
        src: 'login',
        input: ({ event }) => {
          assertEvent(event, 'session.login');
          return { user: event.user, password: event.password, user_type: event.user_type };
        },
        onDone: {
          target: 'loggedIn.loadingSessionData',
          actions: [
            assign(({ event }) => ({
              token: event.output.token,
              userType: event.output.type,
              styles: event.output.system_styles,
              user: event.output.user,
              loginError: null,
              redirect: null,
            })),
            // docs/product.md §4: a successful login stores token, type, system_styles and user_details.
            {
              type: 'persist',
              params: ({ event }) => ({
                token: event.output.token,
                type: event.output.type,
                system_styles: event.output.system_styles,
                user_details: event.output.user,
              }),
            },
            {
              type: 'restoreTheme',
              params: ({ event }) => ({ styles: event.output.system_styles, userType: event.output.type }),
            },
          ],
        },
        onError: {
          target: 'loggedOut',
          actions: assign({ loginError: ({ event }) => errorMessage(event.error) }),
        },
      },
    },
    loggedIn: {
      initial: 'ready',
      on: { 'session.logout': 'loggingOut' },
      states: {
        /**
         * Rows 3, 9, 10 and 11 in parallel, each loaded into its storage keys; each failure is
         * logged, never fatal (a 401/402/404 leaves through the global rule instead).
         */
        loadingSessionData: {
          type: 'parallel',
          onDone: { target: 'ready', actions: { type: 'navigate', params: { to: HOME_PATH } } },
          states: {
            realtime: loadIntoStorage('fetchRealtimeCredentials', 'realtime credentials', ({ echo_info, channels }) => ({
              context: { echoInfo: echo_info, channels },
              stored: { echo_info, channels },
            })),
            locals: loadIntoStorage('fetchActiveLocals', 'active locations', (locals) => ({
              context: { locals },
              stored: { local_active: locals },
            })),
            roles: loadIntoStorage('fetchRoleNames', 'roles', (roles) => ({ context: { roles }, stored: { roles } })),
            permissions: loadIntoStorage('fetchRolePermissions', 'permissions', ({ permissions }) => ({
              context: { permissions },
              stored: { accesos: permissions },
            })),
          },
        },
        /**
         * Restored from storage: row 11 refreshes `accesos` (and the menu built from it) and proves
         * the token is still valid.
         * A 401/402/404 goes through the global rule; any other failure is logged and the stored
         * session is kept.
         */
        revalidating: {
          invoke: permissionsRefresh('ready'),
        },
        /**
         * Logged in with the session data at hand: notifications and realtime run here only (the
         * permission refresh happens in a substate, so they keep running through it).
         */
        ready: {
          initial: 'current',
          on: {
            // Targets a child of `ready`: `ready` (and its invocations) stays, while an active
            // `refreshingPermissions` is exited and entered again, restarting its calls.
            'session.permissionsChanged': { guard: 'isOwnPermissionsChange', target: '.refreshingPermissions' },
          },
          states: {
            /** The permissions are the latest known. */
            current: {},
            /** Row 11 again after a PermissionsChangedEvent; then the menu is rebuilt. */
            refreshingPermissions: {
              invoke: permissionsRefresh('current'),
            },
          },
          invoke: [
            {
              src: 'notifications',
              id: 'notifications',
              systemId: 'notifications',
              input: ({ context }) => ({ userId: context.user?.id ?? 0 }),
            },
            {
              src: 'realtime',
              id: 'realtime',
              systemId: 'realtime',
              input: ({ context }) => ({
                echoInfo: context.echoInfo,
                channels: context.channels,
                userType: context.userType,
                token: context.token,
              }),
            },
          ],
        },
      },
    },
    /** Row 7 in flight; whatever it answers, storage is cleared and the user goes to /auth/login. */
    loggingOut: {
      // The logout ends the session whatever it answers: no global redirect (docs/product.md §8 "Logout errors: only logged").
      on: { 'session.apiError': {} },
      invoke: {
        src: 'logout',
        input: ({ context }) => ({ userType: context.userType ?? 'COLLABORATOR' }),
        onDone: {
          target: 'loggedOut',
          actions: [
            'clearStorage',
            'resetContext',
            { type: 'restoreTheme', params: DEFAULT_THEME },
            { type: 'navigate', params: { to: LOGIN_PATH } },
          ],
        },
        onError: {
          target: 'loggedOut',
          actions: [
            { type: 'logError', params: ({ event }) => ({ what: 'logout', error: event.error }) },
            'clearStorage',
            'resetContext',
            { type: 'restoreTheme', params: DEFAULT_THEME },
            { type: 'navigate', params: { to: LOGIN_PATH } },
          ],
        },
      },
    },
    /**
     * A global API error redirected the user. After a 401 the session is gone (token cleared);
     * after 404/402 the token stays, so the user may go back to the app or log out.
     */
    redirected: {
      on: {
        'session.login': { target: 'authenticating', actions: 'clearLoginError' },
        'session.clearError': { actions: 'clearLoginError' },
        'session.logout': [
          { guard: 'hasToken', target: 'loggingOut' },
          {
            target: 'loggedOut',
            actions: [
              'clearStorage',
              'resetContext',
              { type: 'restoreTheme', params: DEFAULT_THEME },
              { type: 'navigate', params: { to: LOGIN_PATH } },
            ],
          },
        ],
      },
    },
  },
});

export type SessionMachine = typeof sessionMachine;
