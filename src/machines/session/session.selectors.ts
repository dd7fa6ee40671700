import type { SnapshotFrom } from 'xstate';
import type { Local, SessionUser } from '../../schemas/session';
import type { SessionMachine } from './session.machine';

/**
 * Selectors of the session machine (issue "Foundation"), read by views through `useSelector`.
 * Pure functions of a snapshot; tested alone.
 */
export type SessionSnapshot = SnapshotFrom<SessionMachine>;

/** A token is present (docs/product.md §4: "Logged in means a token is present"); the route guard uses it. */
export const selectHasToken = (s: SessionSnapshot): boolean => s.context.token !== null;

/** Login call or the secondary fetches in flight: the login button shows its loading state. */
export const selectIsLoggingIn = (s: SessionSnapshot): boolean =>
  s.matches('authenticating') || s.matches({ loggedIn: 'loadingSessionData' });

/** Rows 3, 9, 10 and 11 in flight after a login: the full-screen loading overlay shows (docs/product.md §2 "Layout"). */
export const selectIsLoadingSessionData = (s: SessionSnapshot): boolean => s.matches({ loggedIn: 'loadingSessionData' });

/**
 * The login pages send the user to / (docs/product.md §2 route guard): a token is stored and the post-login
 * fetches are over (the machine itself navigates when they end).
 */
export const selectShouldLeaveLogin = (s: SessionSnapshot): boolean =>
  selectHasToken(s) && !selectIsLoggingIn(s) && !s.matches('loggingOut');

/** Spanish message of the last failed login, or null. */
export const selectLoginError = (s: SessionSnapshot): string | null => s.context.loginError;

/** The signed-in user (`user_details`), or null. */
export const selectUser = (s: SessionSnapshot): SessionUser | null => s.context.user;

/** The active location: first entry of `local_active`, or null when there is none. */
export const selectActiveLocal = (s: SessionSnapshot): Local | null => s.context.locals[0] ?? null;

/** Permission strings (`accesos`, docs/product.md §6). */
export const selectPermissions = (s: SessionSnapshot): readonly string[] => s.context.permissions;

/** Logout call in flight. */
export const selectIsLoggingOut = (s: SessionSnapshot): boolean => s.matches('loggingOut');

/**
 * True when every required permission is held (docs/product.md §6: module and submodule).
 * @param held the user's permission strings; @param required the route's permissions (none → true).
 */
export function hasPermissions(held: readonly string[], required: readonly string[] | undefined): boolean {
  if (!required || required.length === 0) return true;
  const set = new Set(held);
  return required.every((p) => set.has(p));
}
