import { sql, type Kysely, type UpdateResult } from 'kysely';
import { STALE_RECORD_MESSAGE, VERSION_FIELD } from '../../src/schemas/versions';
import { HttpError } from '../errors';
import type { DB } from './database';
import { VERSIONED_TABLES as FIRST_VERSIONED_TABLES } from './migrations/0007-record-versions';

/** Tables with a `version` column: 0007's and the ones later migrations gave one (0015: customers, 0016: reservations, 0017: leads, 0018: quotes, 0019: sales, 0022: bank_accounts and wallets; 0040: public_holidays and title_processes; 0043: contract_templates and contracts; 0050: expenses). */
export const VERSIONED_TABLES = [
  ...FIRST_VERSIONED_TABLES,
  'customers',
  'reservations',
  'leads',
  'quotes',
  'sales',
  'bank_accounts',
  'wallets',
  'payments',
  'public_holidays',
  'title_processes',
  'contract_templates',
  'contracts',
  'expenses',
] as const;
export type VersionedTable = (typeof VERSIONED_TABLES)[number];

/**
 * Optimistic locking of edited records (issue 11 item 9; src/schemas/versions.ts has the wire
 * rules, docs/decisions.md "Record versions" the reasons). Every change of a versioned row sets
 * `version = version + 1` ({@link nextVersion}); an edit that carries the version it read adds
 * `where version = ?` to the same UPDATE (`.$if(version !== undefined, (q) => q.where('version', '=', version))`), so the check and the write are one
 * atomic statement on SQLite and PostgreSQL (under PostgreSQL's READ COMMITTED a concurrent update
 * of the row makes the second UPDATE re-check its WHERE against the new row and match nothing).
 * {@link assertVersionedUpdate} turns "no row matched" into a 409 or a 404.
 */

/** 409 `{ message, errors: { version: [message] } }` of a stale edit. */
export const staleRecord = () => new HttpError(409, STALE_RECORD_MESSAGE, { [VERSION_FIELD]: [STALE_RECORD_MESSAGE] });

/** `version + 1`, for the `set` of an UPDATE of one versioned table. */
export const nextVersion = () => sql<number>`version + 1`;

/**
 * After a versioned UPDATE of row `id` of `table`: when it matched no row, throws the 404 of
 * `notFound` if the row is gone (deleted meanwhile) and the 409 {@link staleRecord} otherwise.
 * Run it inside the edit's transaction so a 409 rolls back what the edit already wrote.
 */
export async function assertVersionedUpdate(
  db: Kysely<DB>,
  table: VersionedTable,
  id: number,
  result: UpdateResult | readonly UpdateResult[],
  notFound: () => HttpError,
): Promise<void> {
  const rows = (Array.isArray(result) ? result : [result]).reduce((sum: bigint, r: UpdateResult) => sum + r.numUpdatedRows, 0n);
  if (rows > 0n) return;
  const exists = await db.selectFrom(table).select('id').where('id', '=', id).executeTakeFirst();
  throw exists ? staleRecord() : notFound();
}
