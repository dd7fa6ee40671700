import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import { resetPasswordPath } from '../../src/config/paths';
import type { ResetType } from '../../src/schemas/session';
import type { AppDeps } from '../context';
import { isProduction } from '../config';
import { MINUTE_MS, type Clock } from '../clock';
import type { AccountType, DB } from '../db/database';
import { fieldError, tooManyRequests } from '../errors';
import { systemAuditContext, type AuditContext } from '../audit/audit';
import { findAccountByDocument, setAccountPassword } from './accounts';
import { accountKey } from './attempt-limiter';
import { hashPassword } from './password';
import { generateSecret, hashToken, revokeAccountSessions, type TokenOwner } from './tokens';
import { insertOutboxMessage } from '../platform/outbox.repository';
import { notifyPasswordChanged } from '../notifications/notifications.service';
import {
  consumeAccountPasswordResets,
  findUsablePasswordReset,
  insertPasswordReset,
  markPasswordResetUsed,
} from './password-reset.repository';

/** Account recovery (docs/product.md §7 rows 4–6, docs/product.md §2 /auth/reset_password/{id_encrypted}/{type}). */

/** Spanish messages of account recovery (and the e-mail subject). */
export const RESET_MESSAGES = {
  requested: 'Si el documento está registrado, enviaremos un enlace de recuperación a su correo.',
  done: 'Contraseña actualizada. Ya puede iniciar sesión.',
  invalidLink: 'El enlace de recuperación no es válido o ha expirado',
  linkValid: 'El enlace de recuperación es válido',
  mailSubject: 'Recuperación de contraseña - Parcela',
} as const;

/** Lifetime of a reset link, in minutes. */
export const RESET_LINK_MINUTES = 30;

/** The account type of each reset `{type}`. */
export const RESET_TYPE_ACCOUNT: Record<ResetType, AccountType> = { collaborator: 'COLLABORATOR', customer: 'CUSTOMER' };

/**
 * Creates a single-use reset link token for an account, valid {@link RESET_LINK_MINUTES} minutes.
 * @param raw the token to store (fixtures honouring a contract state); default a fresh random one.
 * @returns the raw token (the link's `{id_encrypted}`); only its SHA-256 is stored.
 */
export async function createPasswordResetToken(
  db: Kysely<DB>,
  clock: Clock,
  owner: TokenOwner,
  raw: string = generateSecret().raw,
): Promise<string> {
  const now = clock.now();
  await insertPasswordReset(db, {
    tokenHash: hashToken(raw),
    userType: owner.userType,
    accountId: owner.accountId,
    createdAt: now.toISOString(),
    expiresAt: new Date(now.getTime() + RESET_LINK_MINUTES * MINUTE_MS).toISOString(),
  });
  return raw;
}

function mailBody(name: string, link: string): string {
  return [
    `Hola ${name}:`,
    '',
    'Recibimos una solicitud para restablecer la contraseña de su cuenta en Parcela.',
    `Abra este enlace dentro de los próximos ${RESET_LINK_MINUTES} minutos para elegir una nueva contraseña:`,
    link,
    '',
    'Si usted no lo solicitó, ignore este mensaje; su contraseña no cambiará.',
  ].join('\n');
}

/**
 * Creates a reset link for an account and queues its e-mail in the outbox, in `deps.db` (pass a
 * transaction to make it atomic with other writes, e.g. a staff user's creation). The caller
 * calls `deps.outbox.kick()` once that transaction committed, so the e-mail leaves at once
 * (server/platform/outbox-delivery.ts; the delivery's timer would find it within seconds anyway).
 * @returns the link (logged outside production by the callers).
 */
export async function sendPasswordResetLink(
  deps: Pick<AppDeps, 'db' | 'clock' | 'config'>,
  account: TokenOwner & { email: string; name: string },
): Promise<string> {
  const type: ResetType = account.userType === 'COLLABORATOR' ? 'collaborator' : 'customer';
  const token = await createPasswordResetToken(deps.db, deps.clock, { userType: account.userType, accountId: account.accountId });
  const link = `${deps.config.publicUrl}${resetPasswordPath(token, type)}`;
  await insertOutboxMessage(
    deps.db,
    { recipient: account.email, subject: RESET_MESSAGES.mailSubject, body: mailBody(account.name, link), link },
    deps.clock.now().toISOString(),
  );
  return link;
}

/**
 * Requests a reset link for a DNI / document number. Always answers the same message whether or
 * not the document exists; when it names an active account, a link is e-mailed (outbox) and,
 * outside production, logged. Requests count per type and DNI.
 * @throws HttpError 429 past LOGIN_RATE_LIMIT_PER_ACCOUNT requests for one DNI within 15 minutes.
 */
export async function requestPasswordReset(deps: AppDeps, type: ResetType, dni: string, log: FastifyBaseLogger): Promise<void> {
  const userType = RESET_TYPE_ACCOUNT[type];
  const key = accountKey(userType, dni);
  if (deps.limiters.resetRequest.isBlocked(key)) throw tooManyRequests();
  deps.limiters.resetRequest.hit(key);

  const account = await findAccountByDocument(deps.db, userType, dni);
  if (!account || account.status !== 'ACTIVO') return;

  // Answered now, e-mailed right after: a known DNI costs the request the same work as an unknown
  // one (the lookup), so timing does not tell which documents have accounts (issue 11 item 12).
  deps.background.run('password reset e-mail', async () => {
    const link = await sendPasswordResetLink(deps, { userType, accountId: account.id, email: account.email, name: account.name });
    if (!isProduction(deps.config)) log.info({ resetLink: link, recipient: account.email }, 'Password reset link (development only)');
    deps.outbox.kick();
  });
}

/**
 * Checks a reset link without using it (GET /api/password_reset_{type}?id=): the reset page asks
 * on arrival, so a bad, used or expired link is said before a new password is typed.
 * @throws HttpError 422 on `id` when the link is unknown, used, expired or of another type.
 */
export async function checkPasswordResetLink(deps: Pick<AppDeps, 'db' | 'clock'>, type: ResetType, id: string): Promise<void> {
  const reset = await findUsablePasswordReset(deps.db, hashToken(id), RESET_TYPE_ACCOUNT[type], deps.clock.now().toISOString());
  if (!reset) throw fieldError('id', RESET_MESSAGES.invalidLink);
}

/**
 * Sets a new password from a reset link (docs/product.md §7 row 6): consumes the link (and any other open link
 * of the account), revokes every session of the account and stores the notification "Contraseña
 * actualizada", in one transaction; the notification is broadcast after commit.
 * @throws HttpError 422 on `id` when the link is unknown, used, expired or of another type.
 */
export async function resetPassword(
  deps: AppDeps,
  type: ResetType,
  body: { id: string; password: string },
  audit: AuditContext = systemAuditContext(deps.clock),
): Promise<void> {
  const userType = RESET_TYPE_ACCOUNT[type];
  const now = deps.clock.now().toISOString();
  const reset = await findUsablePasswordReset(deps.db, hashToken(body.id), userType, now);
  if (!reset) throw fieldError('id', RESET_MESSAGES.invalidLink);

  const passwordHash = await hashPassword(body.password, deps.config.scryptLogN);
  const owner = { userType, accountId: reset.account_id };
  const { events } = await deps.db.transaction().execute(async (trx) => {
    if (!(await markPasswordResetUsed(trx, reset.id, now))) throw fieldError('id', RESET_MESSAGES.invalidLink);
    await consumeAccountPasswordResets(trx, owner, now);
    // The link proves who the caller is: the account itself is the change's actor.
    await setAccountPassword(trx, { ...audit, actor: owner }, userType, reset.account_id, passwordHash, now);
    await revokeAccountSessions({ db: trx, clock: deps.clock }, owner);
    return notifyPasswordChanged(trx, deps.clock, owner);
  });
  deps.broadcaster.publish(events);
}
