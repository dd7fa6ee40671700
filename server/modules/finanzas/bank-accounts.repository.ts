import { sql, type Kysely } from 'kysely';
import type { BankAccount, BankAccountsQuery } from '../../../src/schemas/finanzas/bank-accounts';
import type { DB, BankAccountsTable } from '../../db/database';
import { paginate, parseSort, type Page } from '../../db/paging';
import { searchPattern, searchTextOf } from '../../db/text-search';
import { fromFlag, toFlag } from '../../db/portable';
import type { Insertable } from 'kysely';

/** SQL of `bank_accounts` (Finanzas → Bancos). */

const COLUMNS = ['id', 'bank', 'kind', 'currency', 'number', 'cci', 'holder', 'active', 'version'] as const;

/** A stored row → wire (and change-history snapshot: nothing secret in it). */
function toBankAccount(row: {
  id: number;
  bank: string;
  kind: BankAccount['kind'];
  currency: BankAccount['currency'];
  number: string;
  cci: string;
  holder: string;
  active: number;
  version: number;
}): BankAccount {
  return { ...row, active: fromFlag(row.active) };
}

/** One account, or undefined. */
export async function findBankAccount(db: Kysely<DB>, id: number): Promise<BankAccount | undefined> {
  const row = await db.selectFrom('bank_accounts').select(COLUMNS).where('id', '=', id).executeTakeFirst();
  return row ? toBankAccount(row) : undefined;
}

/** One page of accounts: `q` on holder, number and CCI; filters bank, kind, currency, active; sort by a column then id. */
export async function listBankAccountsPage(db: Kysely<DB>, query: BankAccountsQuery): Promise<Page<BankAccount>> {
  let base = db.selectFrom('bank_accounts');
  if (query.q) {
    const pattern = searchPattern(query.q);
    base = base.where((eb) =>
      eb.or([
        eb(searchTextOf(db, 'bank_accounts.holder'), 'like', sql<string>`${pattern} escape '\\'`),
        eb(sql<string>`bank_accounts.number`, 'like', sql<string>`${pattern} escape '\\'`),
        eb(sql<string>`bank_accounts.cci`, 'like', sql<string>`${pattern} escape '\\'`),
      ]),
    );
  }
  if (query.bank) base = base.where('bank_accounts.bank', '=', query.bank);
  if (query.kind) base = base.where('bank_accounts.kind', '=', query.kind);
  if (query.currency) base = base.where('bank_accounts.currency', '=', query.currency);
  if (query.active) base = base.where('bank_accounts.active', '=', toFlag(query.active === 'true'));
  const { field, direction } = parseSort<'bank' | 'holder' | 'currency' | 'kind' | 'id'>(query.sort, 'id');
  const page = await paginate(base, query, (q) =>
    q
      .select(COLUMNS.map((c) => `bank_accounts.${c}` as const))
      .orderBy(`bank_accounts.${field}`, direction)
      .orderBy('bank_accounts.id', direction),
  );
  return { data: page.data.map(toBankAccount), meta: page.meta };
}

/** Inserts an account. @returns its id. @throws the database's unique violation (same bank + number, same CCI). */
export async function insertBankAccount(db: Kysely<DB>, values: Insertable<BankAccountsTable>): Promise<number> {
  const { id } = await db.insertInto('bank_accounts').values(values).returning('id').executeTakeFirstOrThrow();
  return id;
}

/** Which of the unique keys another account already holds (`exceptId` is the account being edited). */
export async function findBankAccountConflicts(
  db: Kysely<DB>,
  fields: { bank: string; number: string; cci: string },
  exceptId?: number,
): Promise<{ number: boolean; cci: boolean }> {
  const rows = await db
    .selectFrom('bank_accounts')
    .select(['bank', 'number', 'cci'])
    .where((eb) => eb.or([eb.and([eb('bank', '=', fields.bank), eb('number', '=', fields.number)]), eb('cci', '=', fields.cci)]))
    .$if(exceptId !== undefined, (q) => q.where('id', '<>', exceptId!))
    .execute();
  return {
    number: rows.some((r) => r.bank === fields.bank && r.number === fields.number),
    cci: rows.some((r) => r.cci === fields.cci),
  };
}
