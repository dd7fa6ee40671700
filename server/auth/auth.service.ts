import { buildPermissionsNames } from '../../src/schemas/menu-catalogue';
import type { LoginData, LoginRequest } from '../../src/schemas/session';
import type { AppDeps } from '../context';
import { fieldError, tooManyRequests, unauthenticated } from '../errors';
import type { AuditContext } from '../audit/audit';
import { accountAccess, findAccountByLogin, findAccountById, setAccountPassword, type Account } from './accounts';
import { accountKey } from './attempt-limiter';
import type { AuthContext } from './guard';
import { dummyPasswordHash, hashPassword, verifyPassword } from './password';
import { issueAccessToken, revokeAccessToken, revokeAccountSessions } from './tokens';
import { parseStoredStyles } from '../platform/styles.service';
import { notifyPasswordChanged } from '../notifications/notifications.service';

/** Login, logout and password change (docs/product.md §7 rows 2, 7 and 15). */

/** Spanish messages of login, logout and password change. */
export const AUTH_MESSAGES = {
  wrongCredentials: 'Usuario o contraseña incorrectos',
  inactive: 'Su cuenta está desactivada. Comuníquese con el administrador.',
  loggedOut: 'Sesión cerrada',
  passwordChanged: 'Contraseña actualizada correctamente',
  wrongCurrentPassword: 'La contraseña actual es incorrecta',
} as const;

/** `data.user` of the login response for an account. */
async function sessionUser(deps: AppDeps, account: Account): Promise<LoginData['user']> {
  const { roles, permissions } = await accountAccess(deps.db, account.userType, account.id);
  return {
    id: account.id,
    name: account.name,
    surname: account.surname,
    dni: account.dni,
    email: account.email,
    phone: account.phone,
    status: account.status,
    roles,
    permissions_names: buildPermissionsNames(permissions),
  };
}

/** Failed logins one account may take from all addresses together, as a multiple of the per-address limit. */
export const LOGIN_ACCOUNT_CEILING_FACTOR = 10;

/**
 * Logs in (docs/product.md §7 row 2). Staff match DNI or e-mail, customers their document number. The same
 * scrypt work runs whether or not the account exists (on the bounded login lane of
 * `deps.passwordWork`). Failed attempts (issue 11 item 11) count once per *account* — by e-mail and
 * by DNI alike — and per account + client address: past LOGIN_RATE_LIMIT_PER_ACCOUNT failures
 * within 15 minutes that address is refused for that account, while the owner elsewhere can still
 * sign in; a ceiling of {@link LOGIN_ACCOUNT_CEILING_FACTOR} times as many failures from all
 * addresses together refuses every attempt on the account for the rest of the window. Unknown
 * identifiers count per identifier.
 * @param ip the client's address (`request.ip`; configure TRUST_PROXY behind a proxy).
 * @returns token, type, system_styles and user.
 * @throws HttpError 429 (too many failures), 422 on `user` (wrong credentials, inactive account).
 */
export async function login(deps: AppDeps, body: LoginRequest, ip = 'local'): Promise<LoginData> {
  const identifierKey = accountKey(body.user_type, body.user);
  if (deps.limiters.login.isBlocked(identifierKey)) throw tooManyRequests();

  const account = await findAccountByLogin(deps.db, body.user_type, body.user);
  const accountLimitKey = account ? `${account.userType}#${account.id}` : null;
  const pairKey = accountLimitKey ? `${accountLimitKey}@${ip}` : null;
  if (
    accountLimitKey &&
    pairKey &&
    (deps.limiters.login.isBlocked(pairKey) || deps.limiters.loginAccountCeiling.isBlocked(accountLimitKey))
  ) {
    throw tooManyRequests();
  }
  const stored = account?.passwordHash ?? (await dummyPasswordHash(deps.config.scryptLogN));
  const valid = await deps.passwordWork.login.run(() => verifyPassword(body.password, stored));
  if (!account || !valid) {
    if (accountLimitKey && pairKey) {
      deps.limiters.login.hit(pairKey);
      deps.limiters.loginAccountCeiling.hit(accountLimitKey);
    } else deps.limiters.login.hit(identifierKey);
    throw fieldError('user', AUTH_MESSAGES.wrongCredentials);
  }
  if (account.status !== 'ACTIVO') throw fieldError('user', AUTH_MESSAGES.inactive);
  deps.limiters.login.reset(pairKey!);

  const token = await issueAccessToken(deps, { userType: account.userType, accountId: account.id });
  return {
    token,
    type: account.userType,
    system_styles: parseStoredStyles(account.systemStyles),
    user: await sessionUser(deps, account),
  };
}

/** Logs out (docs/product.md §7 row 7): revokes the caller's token. */
export function logout(deps: AppDeps, auth: AuthContext): Promise<void> {
  return revokeAccessToken(deps, auth.tokenId);
}

/**
 * Changes the caller's password (docs/product.md §7 row 15) and revokes every other session of the account;
 * the current token stays valid. In the same transaction the account gets the notification
 * "Contraseña actualizada", broadcast after commit.
 * Attempts are limited (issue 11 item 4): LOGIN_RATE_LIMIT_PER_ACCOUNT per account and half as many
 * per session token within 15 minutes, counted before the scrypt work and cleared by a success;
 * the scrypt work runs on the bounded `account` lane of `deps.passwordWork`.
 * @throws HttpError 422 on `actual_password` when the current password is wrong; 429 past the
 *   attempt limits; 503 when the password lane's queue is full.
 */
export async function changePassword(
  deps: AppDeps,
  auth: AuthContext,
  body: { actual_password: string; new_password: string },
  audit: AuditContext = { actor: { userType: auth.userType, accountId: auth.accountId }, ip: null, clock: deps.clock },
): Promise<void> {
  const { changePasswordAccount: perAccount, changePasswordToken: perToken } = deps.limiters;
  const accountLimitKey = `${auth.userType}:${auth.accountId}`;
  const tokenKey = String(auth.tokenId);
  if (perAccount.isBlocked(accountLimitKey) || perToken.isBlocked(tokenKey)) throw tooManyRequests();
  // Counted before the scrypt work, so concurrent attempts cannot all slip past the check.
  perAccount.hit(accountLimitKey);
  perToken.hit(tokenKey);
  const account = await findAccountById(deps.db, auth.userType, auth.accountId);
  if (!account) throw unauthenticated();
  const stored = account.passwordHash;
  if (stored === null || !(await deps.passwordWork.account.run(() => verifyPassword(body.actual_password, stored)))) {
    throw fieldError('actual_password', AUTH_MESSAGES.wrongCurrentPassword);
  }
  perAccount.reset(accountLimitKey);
  perToken.reset(tokenKey);
  const passwordHash = await deps.passwordWork.account.run(() => hashPassword(body.new_password, deps.config.scryptLogN));
  const { events } = await deps.db.transaction().execute(async (trx) => {
    await setAccountPassword(trx, audit, account.userType, account.id, passwordHash, deps.clock.now().toISOString());
    await revokeAccountSessions({ db: trx, clock: deps.clock }, auth, auth.tokenId);
    return notifyPasswordChanged(trx, deps.clock, { userType: account.userType, accountId: account.id });
  });
  deps.broadcaster.publish(events);
}
