import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import {
  EXPENSE_MESSAGES,
  type createExpenseRequestSchema,
  type Expense,
  type ExpensesQuery,
  type updateExpenseRequestSchema,
} from '../../../src/schemas/reportes/expenses';
import { recordChange, staffActorId, type AuditContext } from '../../audit/audit';
import { todayInLimaBy } from '../../clock';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import { paginate, parseSort, type Page } from '../../db/paging';
import { searchTextOf, searchPatternSql } from '../../db/text-search';
import { assertVersionedUpdate, nextVersion, staleRecord } from '../../db/versions';
import { notFound, validationError, type FieldErrors } from '../../errors';

/**
 * Egresos, the expenses register of /ReportesEconomicos (src/schemas/reportes/expenses.ts;
 * docs/reports.md "Ingresos vs egresos and the expenses register"). Every change writes its change
 * history (entity `expenses`) in its transaction; edits and deletions carry the `version` read
 * (stale → 409, src/schemas/versions.ts).
 */

/** Parsed POST body. */
export type CreateExpenseBody = z.output<typeof createExpenseRequestSchema>;
/** Parsed PUT body. */
export type UpdateExpenseBody = z.output<typeof updateExpenseRequestSchema>;

/** The columns of an answer: the expense's, its subdivision's name and its registrar's name. */
const DETAIL_COLUMNS = [
  'expenses.id',
  'expenses.subdivision_id',
  'subdivisions.name as subdivision_name',
  'expenses.expense_date',
  'expenses.concept',
  'expenses.amount',
  'expenses.currency',
  'expenses.voucher',
  'expenses.created_by',
  'users.name as user_name',
  'users.surname as user_surname',
  'expenses.created_at',
  'expenses.updated_at',
  'expenses.version',
] as const;

/** The stored columns an answer (and a change-history snapshot) is built from. */
function expenseRows(db: Kysely<DB>) {
  return db
    .selectFrom('expenses')
    .innerJoin('subdivisions', 'subdivisions.id', 'expenses.subdivision_id')
    .leftJoin('users', 'users.id', 'expenses.created_by')
    .select(DETAIL_COLUMNS);
}

type ExpenseRow = Awaited<ReturnType<ReturnType<typeof expenseRows>['execute']>>[number];

/** A stored row → wire. */
function toExpense(r: ExpenseRow): Expense {
  return {
    id: r.id,
    subdivision: { id: r.subdivision_id, name: r.subdivision_name },
    expense_date: r.expense_date,
    concept: r.concept,
    amount: Number(r.amount),
    currency: r.currency,
    voucher: r.voucher,
    created_by: r.user_name === null ? '' : `${r.user_name} ${r.user_surname ?? ''}`.trim(),
    created_at: r.created_at,
    updated_at: r.updated_at,
    version: r.version,
  };
}

/** The change-history snapshot of an expense: its own columns (ids, not names). */
async function snapshot(db: Kysely<DB>, id: number): Promise<Record<string, unknown> | undefined> {
  const row = await db
    .selectFrom('expenses')
    .select(['id', 'subdivision_id', 'expense_date', 'concept', 'amount', 'currency', 'voucher', 'created_by', 'created_at', 'updated_at'])
    .where('id', '=', id)
    .executeTakeFirst();
  return row ? { ...row, amount: Number(row.amount) } : undefined;
}

/** One expense, or undefined. */
export async function findExpense(db: Kysely<DB>, id: number): Promise<Expense | undefined> {
  const row = await expenseRows(db).where('expenses.id', '=', id).executeTakeFirst();
  return row ? toExpense(row) : undefined;
}

/** The expenses matching the list's filters (FROM/WHERE only). Shared with the report's "egresos" so both read the same rows. */
export function filteredExpenses(db: Kysely<DB>, filters: Pick<ExpensesQuery, 'from' | 'to' | 'subdivision_id' | 'currency' | 'q'>) {
  let query = db.selectFrom('expenses');
  if (filters.subdivision_id !== undefined) query = query.where('expenses.subdivision_id', '=', filters.subdivision_id);
  if (filters.from) query = query.where('expenses.expense_date', '>=', filters.from);
  if (filters.to) query = query.where('expenses.expense_date', '<=', filters.to);
  if (filters.currency) query = query.where('expenses.currency', '=', filters.currency);
  if (filters.q) {
    const pattern = searchPatternSql(filters.q);
    query = query.where((eb) =>
      eb.or([
        eb(searchTextOf(db, 'expenses.concept'), 'like', pattern),
        eb(sql<string>`lower(coalesce(expenses.voucher, ''))`, 'like', pattern),
      ]),
    );
  }
  return query;
}

/** One page (GET /api/expenses): newest first unless `sort` says otherwise; ties by id. */
export async function listExpenses(db: Kysely<DB>, query: ExpensesQuery): Promise<Page<Expense>> {
  const { field, direction } = parseSort<'expense_date' | 'amount' | 'id'>(query.sort, '-expense_date');
  const page = await paginate(filteredExpenses(db, query), query, (q) =>
    q
      .innerJoin('subdivisions', 'subdivisions.id', 'expenses.subdivision_id')
      .leftJoin('users', 'users.id', 'expenses.created_by')
      .select(DETAIL_COLUMNS)
      .orderBy(`expenses.${field}`, direction)
      .orderBy('expenses.id', direction),
  );
  return { data: page.data.map(toExpense), meta: page.meta };
}

/** One expense. @throws HttpError 404. */
export async function getExpense(db: Kysely<DB>, id: number): Promise<Expense> {
  const expense = await findExpense(db, id);
  if (!expense) throw notFound();
  return expense;
}

/**
 * The rules the schema cannot check: the subdivision exists, the currency is its own, the date is
 * not after Lima's today.
 * @throws HttpError 422 on `subdivision_id`, `currency` or `expense_date`.
 */
async function checkExpense(deps: AppDeps, body: CreateExpenseBody): Promise<void> {
  const errors: FieldErrors = {};
  if (body.expense_date > todayInLimaBy(deps.clock)) errors.expense_date = [EXPENSE_MESSAGES.futureDate];
  const subdivision = await deps.db.selectFrom('subdivisions').select('currency').where('id', '=', body.subdivision_id).executeTakeFirst();
  if (!subdivision) errors.subdivision_id = [EXPENSE_MESSAGES.unknownSubdivision];
  else if (subdivision.currency !== body.currency) errors.currency = [EXPENSE_MESSAGES.currencyMismatch];
  if (Object.keys(errors).length > 0) throw validationError(errors);
}

/**
 * Registers an expense (POST /api/expenses) as the caller.
 * @throws HttpError 422 (unknown subdivision, another currency, a future date).
 */
export async function createExpense(deps: AppDeps, audit: AuditContext, body: CreateExpenseBody): Promise<Expense> {
  await checkExpense(deps, body);
  const now = deps.clock.now().toISOString();
  const id = await deps.db.transaction().execute(async (trx) => {
    const { id: expenseId } = await trx
      .insertInto('expenses')
      .values({
        subdivision_id: body.subdivision_id,
        expense_date: body.expense_date,
        concept: body.concept,
        amount: body.amount,
        currency: body.currency,
        voucher: body.voucher,
        created_by: staffActorId(audit),
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordChange(trx, audit, { entity: 'expenses', recordId: expenseId, action: 'CREATE', after: await snapshot(trx, expenseId) });
    return expenseId;
  });
  return getExpense(deps.db, id);
}

/**
 * Replaces an expense's fields (PUT /api/expenses/{id}) when it is still at `version`.
 * @throws HttpError 404; 422 as {@link createExpense}; 409 when stale.
 */
export async function updateExpense(deps: AppDeps, audit: AuditContext, id: number, body: UpdateExpenseBody): Promise<Expense> {
  await getExpense(deps.db, id);
  const { version, ...fields } = body;
  await checkExpense(deps, fields);
  await deps.db.transaction().execute(async (trx) => {
    const before = await snapshot(trx, id);
    const updated = await trx
      .updateTable('expenses')
      .set({ ...fields, updated_at: deps.clock.now().toISOString(), version: nextVersion() })
      .where('id', '=', id)
      .where('version', '=', version)
      .executeTakeFirst();
    await assertVersionedUpdate(trx, 'expenses', id, updated, notFound);
    await recordChange(trx, audit, { entity: 'expenses', recordId: id, action: 'UPDATE', before, after: await snapshot(trx, id) });
  });
  return getExpense(deps.db, id);
}

/**
 * Deletes an expense (DELETE /api/expenses/{id}?version=N) when it is still at `version`.
 * @throws HttpError 404; 409 when stale.
 */
export async function deleteExpense(deps: AppDeps, audit: AuditContext, id: number, version: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const before = await snapshot(trx, id);
    if (!before) throw notFound();
    const deleted = await trx.deleteFrom('expenses').where('id', '=', id).where('version', '=', version).executeTakeFirst();
    if (deleted.numDeletedRows === 0n) throw staleRecord();
    await recordChange(trx, audit, { entity: 'expenses', recordId: id, action: 'DELETE', before });
  });
}
