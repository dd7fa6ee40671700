import { sql, type Insertable, type Kysely } from 'kysely';
import type { Wallet, WalletsQuery } from '../../../src/schemas/finanzas/wallets';
import type { DB, WalletsTable } from '../../db/database';
import { paginate, parseSort, type Page } from '../../db/paging';
import { searchPattern, searchTextOf } from '../../db/text-search';
import { fromFlag, toFlag } from '../../db/portable';
import { MAIN_BASE } from '../../platform/bases';

/** SQL of `wallets` (Finanzas → Billetera Digital). The QR bytes are read only by {@link findWalletQr}. */

const COLUMNS = ['id', 'kind', 'phone', 'holder', 'active', 'version', 'qr_updated_at'] as const;

/** Authenticated path of a wallet's QR image, versioned by its upload instant (`?v=` milliseconds). */
export function walletQrUrl(id: number, updatedAt: string | null): string | null {
  return updatedAt ? `${MAIN_BASE}/wallets/${id}/qr?v=${new Date(updatedAt).getTime()}` : null;
}

/** A stored row → wire (and change-history snapshot: no image bytes). */
function toWallet(row: {
  id: number;
  kind: Wallet['kind'];
  phone: string;
  holder: string;
  active: number;
  version: number;
  qr_updated_at: string | null;
}): Wallet {
  const { qr_updated_at: qrUpdatedAt, ...rest } = row;
  return { ...rest, active: fromFlag(row.active), qr_url: walletQrUrl(row.id, qrUpdatedAt) };
}

/** One wallet, or undefined. */
export async function findWallet(db: Kysely<DB>, id: number): Promise<Wallet | undefined> {
  const row = await db.selectFrom('wallets').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toWallet(row) : undefined;
}

/** One page of wallets: `q` on phone and holder; filters kind, active; sort by a column then id. */
export async function listWalletsPage(db: Kysely<DB>, query: WalletsQuery): Promise<Page<Wallet>> {
  let base = db.selectFrom('wallets');
  if (query.q) {
    const pattern = searchPattern(query.q);
    base = base.where((eb) =>
      eb.or([
        eb(searchTextOf(db, 'wallets.holder'), 'like', sql<string>`${pattern} escape '\\'`),
        eb(sql<string>`wallets.phone`, 'like', sql<string>`${pattern} escape '\\'`),
      ]),
    );
  }
  if (query.kind) base = base.where('wallets.kind', '=', query.kind);
  if (query.active) base = base.where('wallets.active', '=', toFlag(query.active === 'true'));
  const { field, direction } = parseSort<'kind' | 'holder' | 'phone' | 'id'>(query.sort, 'id');
  const page = await paginate(base, query, (q) =>
    q
      .select(COLUMNS.map((c) => `wallets.${c}` as const))
      .orderBy(`wallets.${field}`, direction)
      .orderBy('wallets.id', direction),
  );
  return { data: page.data.map(toWallet), meta: page.meta };
}

/** Inserts a wallet. @returns its id. @throws the database's unique violation (same kind + phone). */
export async function insertWallet(db: Kysely<DB>, values: Insertable<WalletsTable>): Promise<number> {
  const { id } = await db.insertInto('wallets').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** Whether another wallet (not `exceptId`) has this kind and phone. */
export async function walletPhoneTaken(db: Kysely<DB>, fields: { kind: string; phone: string }, exceptId?: number): Promise<boolean> {
  const row = await db
    .selectFrom('wallets')
    .select('id')
    .where('kind', '=', fields.kind as Wallet['kind'])
    .where('phone', '=', fields.phone)
    .$if(exceptId !== undefined, (q) => q.where('id', '<>', exceptId!))
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * A wallet's stored QR image, or null (no such wallet, no QR, or — with `activeOnly` — an inactive
 * wallet). The reader every route serving the image goes through, after its own access check: the
 * staff route today, the customers' PagoYape route of a later slice with `activeOnly`.
 */
export async function findWalletQr(
  db: Kysely<DB>,
  id: number,
  { activeOnly = false }: { activeOnly?: boolean } = {},
): Promise<{ contentType: string; data: Buffer; updatedAt: string } | null> {
  const row = await db
    .selectFrom('wallets')
    .select(['qr_content_type', 'qr_data', 'qr_updated_at'])
    .where('id', '=', id)
    .$if(activeOnly, (q) => q.where('active', '=', toFlag(true)))
    .executeTakeFirst();
  if (!row?.qr_content_type || !row.qr_data || !row.qr_updated_at) return null;
  return { contentType: row.qr_content_type, data: Buffer.from(row.qr_data), updatedAt: row.qr_updated_at };
}
