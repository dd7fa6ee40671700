import { clearStorage, readStorage, type KeyValueStore } from '../../lib/storage';
import type { SessionInput } from './session.machine';

/**
 * The session stored in the browser (docs/product.md §3 keys), read with their zod schemas. Not in
 * the login page's entry chunk: src/main.tsx imports it only when a token is stored, and the
 * server announces it with the authenticated routes' chunks (server/preload-hints.ts), so a
 * signed-in start fetches it beside the entry (docs/decisions.md "Compression and the login
 * budget"). Its result is the session machine's input (src/app-services.ts `storedSession`).
 */

/**
 * Reads the stored session (docs/product.md §3 keys) as the machine's input; malformed optional keys read as
 * absent, while an unreadable `user_details` or `accesos` ends the session (logged through `log`).
 * @returns token, userType, user, styles, locals, roles, permissions, echoInfo and channels.
 */
export function readStoredSession(store: KeyValueStore | null, log: (message: string) => void = console.error): SessionInput {
  const token = readStorage('token', store);
  if (!token) return {};
  // docs/product.md §8: a stored session whose user or permissions cannot be read is logged and treated like
  // an expired one (storage cleared, so the route guard sends the user to the login) rather than
  // shown as a half-empty shell (issue "The shell, exactly as specified" item 8).
  const unreadable = (['user_details', 'accesos'] as const).filter(
    (key) => store?.getItem(key) != null && readStorage(key, store) === null,
  );
  if (readStorage('user_details', store) === null || unreadable.length > 0) {
    log(`[sesión] Datos de sesión ilegibles (${unreadable.length ? unreadable.join(', ') : 'user_details ausente'}): se cierra la sesión`);
    clearStorage(store);
    return {};
  }
  return {
    token,
    userType: readStorage('type', store),
    user: readStorage('user_details', store),
    styles: readStorage('system_styles', store),
    locals: readStorage('local_active', store) ?? [],
    roles: readStorage('roles', store) ?? [],
    permissions: readStorage('accesos', store) ?? [],
    echoInfo: readStorage('echo_info', store),
    channels: readStorage('channels', store),
  };
}
