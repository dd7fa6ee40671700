import type { Kysely } from 'kysely';
import type { z } from 'zod';
import {
  WALLET_MESSAGES,
  type createWalletRequestSchema,
  type updateWalletRequestSchema,
  type Wallet,
  type WalletsQuery,
} from '../../../src/schemas/finanzas/wallets';
import { recordChange, type AuditContext } from '../../audit/audit';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import type { Page } from '../../db/paging';
import { isUniqueViolation, toFlag } from '../../db/portable';
import { assertVersionedUpdate, nextVersion } from '../../db/versions';
import { conflict, fieldError, notFound } from '../../errors';
import { detectQrType } from './qr-image';
import { oversizedImage, QR_PIXEL_LIMITS, tooManyPixelsMessage } from '../../platform/image-type';
import { findWallet, insertWallet, listWalletsPage, walletPhoneTaken } from './wallets.repository';

/**
 * Finanzas → Billetera Digital (issue 16): the company's Yape / Plin wallets and their QR images.
 * Every change writes its change history (without the image bytes) in its transaction. Deleting
 * is allowed while nothing references a wallet (docs/decisions.md "Bank accounts and wallets").
 */

/** Parsed POST body. */
export type CreateWalletBody = z.output<typeof createWalletRequestSchema>;
/** Parsed PATCH body. */
export type UpdateWalletBody = z.output<typeof updateWalletRequestSchema>;

/** One page (GET /api/wallets). */
export function listWallets(db: Kysely<DB>, query: WalletsQuery): Promise<Page<Wallet>> {
  return listWalletsPage(db, query);
}

/** One wallet. @throws HttpError 404. */
export async function getWallet(db: Kysely<DB>, id: number): Promise<Wallet> {
  const wallet = await findWallet(db, id);
  if (!wallet) throw notFound();
  return wallet;
}

/** Runs `fn` in a transaction; a unique violation (same kind + phone, a lost race) becomes the 422 on `phone`. */
async function withUniqueCheck<T>(deps: AppDeps, fn: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  try {
    return await deps.db.transaction().execute(fn);
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError('phone', WALLET_MESSAGES.duplicatePhone);
    throw error;
  }
}

/** Creates a wallet without QR (POST /api/wallets). @throws HttpError 422 on `phone` when that kind and phone exist. */
export async function createWallet(deps: AppDeps, audit: AuditContext, body: CreateWalletBody): Promise<Wallet> {
  if (await walletPhoneTaken(deps.db, body)) throw fieldError('phone', WALLET_MESSAGES.duplicatePhone);
  const now = deps.clock.now().toISOString();
  const id = await withUniqueCheck(deps, async (trx) => {
    const walletId = await insertWallet(trx, {
      kind: body.kind,
      phone: body.phone,
      holder: body.holder,
      active: toFlag(body.active),
      created_at: now,
      updated_at: now,
    });
    await recordChange(trx, audit, { entity: 'wallets', recordId: walletId, action: 'CREATE', after: await findWallet(trx, walletId) });
    return walletId;
  });
  return getWallet(deps.db, id);
}

/**
 * Updates a wallet (PATCH /api/wallets/{id}). With `version`, only that version is changed.
 * @throws HttpError 404; 422 on `phone` when another wallet has that kind and phone; 409 when stale.
 */
export async function updateWallet(deps: AppDeps, audit: AuditContext, id: number, body: UpdateWalletBody): Promise<Wallet> {
  const stored = await getWallet(deps.db, id);
  const { version, active, ...changes } = body;
  if (await walletPhoneTaken(deps.db, { ...stored, ...changes }, id)) throw fieldError('phone', WALLET_MESSAGES.duplicatePhone);
  await withUniqueCheck(deps, async (trx) => {
    const before = await findWallet(trx, id);
    const updated = await trx
      .updateTable('wallets')
      .set({
        ...changes,
        ...(active === undefined ? {} : { active: toFlag(active) }),
        updated_at: deps.clock.now().toISOString(),
        version: nextVersion(),
      })
      .where('id', '=', id)
      .$if(version !== undefined, (q) => q.where('version', '=', version!))
      .executeTakeFirst();
    await assertVersionedUpdate(trx, 'wallets', id, updated, notFound);
    await recordChange(trx, audit, { entity: 'wallets', recordId: id, action: 'UPDATE', before, after: await findWallet(trx, id) });
  });
  return getWallet(deps.db, id);
}

/** Deletes a wallet and its QR (DELETE /api/wallets/{id}). @throws HttpError 404. */
export async function deleteWallet(deps: AppDeps, audit: AuditContext, id: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const before = await findWallet(trx, id);
    if (!before) throw notFound();
    if (await trx.selectFrom('payments').select('id').where('wallet_id', '=', id).executeTakeFirst()) throw conflict(WALLET_MESSAGES.inUse);
    await trx.deleteFrom('wallets').where('id', '=', id).execute();
    await recordChange(trx, audit, { entity: 'wallets', recordId: id, action: 'DELETE', before });
  });
}

/**
 * Stores (or replaces) a wallet's QR image (POST /api/wallets/{id}/qr): PNG or JPEG by its bytes,
 * ≤ 1 MB (the route's multipart limit). The wallet's `version` stays: the QR is not a field of the
 * edit form (an editor open on the wallet may upload it and then save its fields); `qr_url` carries
 * the upload instant instead. The history records the new type and instant, not the bytes.
 * @throws HttpError 404; 422 on `qr` when the bytes are neither PNG nor JPEG, or declare more
 *   pixels than QR_PIXEL_LIMITS (server/platform/image-type.ts).
 */
export async function saveWalletQr(deps: AppDeps, audit: AuditContext, id: number, bytes: Buffer): Promise<Wallet> {
  const type = detectQrType(bytes);
  await getWallet(deps.db, id);
  if (!type) throw fieldError('qr', WALLET_MESSAGES.qrNotImage);
  const oversized = oversizedImage(bytes, type, QR_PIXEL_LIMITS);
  if (oversized) throw fieldError('qr', tooManyPixelsMessage('El QR', oversized, QR_PIXEL_LIMITS));
  await deps.db.transaction().execute(async (trx) => {
    const before = await findWallet(trx, id);
    const now = deps.clock.now().toISOString();
    const updated = await trx
      .updateTable('wallets')
      .set({ qr_content_type: type, qr_data: bytes, qr_updated_at: now, updated_at: now })
      .where('id', '=', id)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) throw notFound();
    await recordChange(trx, audit, { entity: 'wallets', recordId: id, action: 'UPDATE', before, after: await findWallet(trx, id) });
  });
  return getWallet(deps.db, id);
}
