import type { Kysely } from 'kysely';
import type { LateFeePolicy } from '../../../src/lib/finanzas/late-fees';
import { figuresOn, type LedgerRow, type RowFigures } from '../../../src/lib/finanzas/sale-ledger';
import type { DB } from '../../db/database';
import { isEndedSale } from '../../../src/schemas/comercio/sales';

/**
 * Late fees and instalment states as stored (docs/domain.md "Instalments, days late and late fees";
 * rules in src/lib/finanzas/late-fees.ts and src/lib/finanzas/sale-ledger.ts). What is stored is a
 * pure function of the subdivision's policy, the schedule, the approved payments (each dated by its
 * operation date) and the date it is figured for, so the daily job (late-fee-job.ts) and every
 * approval or annulment store the same figures however often they run. All amounts in céntimos.
 */

/** A sale's stored schedule row as the figures need it (amounts in céntimos). */
export interface ScheduleRow {
  id: number;
  kind: string;
  number: number;
  due_date: string;
  amount: number;
  paid: number;
  status: string;
  late_fee_accrued: number;
  late_fee_paid: number;
  late_fee_waived: number;
  late_fee_as_of: string | null;
}

/** The late-fee policy of the subdivision of sale `saleId`, or undefined when there is no such sale. */
export async function salePolicy(
  db: Kysely<DB>,
  saleId: number,
): Promise<{ policy: LateFeePolicy; saleDate: string; status: string } | undefined> {
  const row = await db
    .selectFrom('sales')
    .innerJoin('subdivisions', 'subdivisions.id', 'sales.subdivision_id')
    .select([
      'sales.sale_date',
      'sales.status',
      'subdivisions.late_fee_grace_days',
      'subdivisions.late_fee_kind',
      'subdivisions.late_fee_daily_amount',
      'subdivisions.late_fee_monthly_percent',
      'subdivisions.late_fee_cap',
    ])
    .where('sales.id', '=', saleId)
    .executeTakeFirst();
  if (!row) return undefined;
  return {
    saleDate: row.sale_date,
    status: row.status,
    policy: {
      graceDays: Number(row.late_fee_grace_days),
      kind: row.late_fee_kind,
      dailyAmountCents: Number(row.late_fee_daily_amount),
      monthlyPercent: row.late_fee_monthly_percent,
      capCents: row.late_fee_cap === null ? null : Number(row.late_fee_cap),
    },
  };
}

/** A sale's schedule rows in schedule order (down payment parts first). */
async function scheduleOf(db: Kysely<DB>, saleId: number): Promise<ScheduleRow[]> {
  const rows = await db
    .selectFrom('sale_instalments')
    .select([
      'id',
      'kind',
      'number',
      'due_date',
      'amount',
      'paid',
      'status',
      'late_fee_accrued',
      'late_fee_paid',
      'late_fee_waived',
      'late_fee_as_of',
    ])
    .where('sale_id', '=', saleId)
    .execute();
  return rows
    .map((r) => ({
      ...r,
      amount: Number(r.amount),
      paid: Number(r.paid),
      late_fee_accrued: Number(r.late_fee_accrued),
      late_fee_paid: Number(r.late_fee_paid),
      late_fee_waived: Number(r.late_fee_waived),
    }))
    .sort((a, b) => scheduleOrder(a) - scheduleOrder(b));
}

/** Down payment parts (INICIAL) before instalments (CUOTA), each by number. */
const scheduleOrder = (row: { kind: string; number: number }) => (row.kind === 'INICIAL' ? 0 : 1_000_000) + row.number;

/**
 * A sale's rows as the money rules read them (src/lib/finanzas/sale-ledger.ts `LedgerRow`): each
 * with the approved payments to its amount, dated by their operation date — the allocations of
 * APROBADO payments (a reservation's payments credited at the sale included) — and, for what was
 * paid without an allocation (a reservation credited before its payments were allocated to the sale), the sale's date.
 */
async function ledgerRowsOf(db: Kysely<DB>, saleDate: string, rows: readonly ScheduleRow[]): Promise<LedgerRow[]> {
  const ids = rows.map((r) => r.id);
  const allocations =
    ids.length === 0
      ? []
      : await db
          .selectFrom('payment_allocations')
          // CROSS JOIN: SQLite keeps the left table as the outer loop, so the ~20 allocations of the
          // sale's rows are read by their index and each payment by its key. With an inner join and
          // no statistics it scanned every APROBADO payment instead (~21 ms a sale on the
          // large database). PostgreSQL plans a CROSS JOIN with its WHERE as an inner join.
          .crossJoin('payments')
          .whereRef('payments.id', '=', 'payment_allocations.payment_id')
          .select(['payment_allocations.instalment_id', 'payment_allocations.to_capital', 'payments.operation_date'])
          .where('payment_allocations.instalment_id', 'in', ids)
          .where('payments.status', '=', 'APROBADO')
          .execute();
  const byInstalment = new Map<number, Array<{ date: string; amountCents: number }>>();
  for (const row of rows) byInstalment.set(row.id, []);
  for (const a of allocations) {
    const toCapital = Number(a.to_capital);
    if (toCapital > 0) byInstalment.get(a.instalment_id)?.push({ date: a.operation_date, amountCents: toCapital });
  }
  return rows.map((row) => {
    const payments = byInstalment.get(row.id) ?? [];
    const credited = row.paid - payments.reduce((sum, p) => sum + p.amountCents, 0);
    if (credited > 0) payments.push({ date: saleDate, amountCents: credited });
    return {
      id: row.id,
      kind: row.kind,
      number: row.number,
      dueDate: row.due_date,
      amountCents: row.amount,
      paidCents: row.paid,
      lateFeePaidCents: row.late_fee_paid,
      lateFeeWaivedCents: row.late_fee_waived,
      payments,
    };
  });
}

/** The figures of one instalment on a date (src/lib/finanzas/sale-ledger.ts `RowFigures`). */
export type InstalmentFigures = RowFigures;

/** A sale's account: its policy, its stored schedule rows and the same rows as the money rules read them. */
export interface SaleAccount {
  policy: LateFeePolicy;
  saleDate: string;
  status: string;
  rows: ScheduleRow[];
  ledger: LedgerRow[];
}

/** The account of sale `saleId` (rows in schedule order), or undefined when there is no such sale. */
export async function saleAccount(db: Kysely<DB>, saleId: number): Promise<SaleAccount | undefined> {
  const sale = await salePolicy(db, saleId);
  if (!sale) return undefined;
  const rows = await scheduleOf(db, saleId);
  return { ...sale, rows, ledger: await ledgerRowsOf(db, sale.saleDate, rows) };
}

/**
 * A sale's stored schedule rows (in schedule order) with their figures on `asOf` — one read of the
 * schedule for both. An ANULADA sale has its rows and no figures (nothing is owed on it); an unknown
 * sale has neither.
 * @param asOf ISO `YYYY-MM-DD` (Lima).
 */
export async function saleScheduleOn(
  db: Kysely<DB>,
  saleId: number,
  asOf: string,
): Promise<{ rows: ScheduleRow[]; figures: InstalmentFigures[] }> {
  const account = await saleAccount(db, saleId);
  if (!account) return { rows: [], figures: [] };
  if (isEndedSale(account.status)) return { rows: account.rows, figures: [] };
  return { rows: account.rows, figures: figuresOn(account.policy, account.ledger, asOf) };
}

/**
 * Figures every instalment of sale `saleId` on `asOf`: its accrued late fee and its state. A sale
 * that is ANULADA keeps its stored figures (nothing is owed on it).
 * @param asOf ISO `YYYY-MM-DD` (Lima).
 */
export async function figureSaleLateFees(db: Kysely<DB>, saleId: number, asOf: string): Promise<InstalmentFigures[]> {
  return (await saleScheduleOn(db, saleId, asOf)).figures;
}

/**
 * Stores the figures of every instalment of sale `saleId` on `asOf` — `late_fee_accrued` and
 * `status`, with `late_fee_as_of` = `asOf` — on the rows whose figures changed and on the rows due
 * and unpaid not yet marked for `asOf`; rows not yet due or paid are left alone when nothing changed
 * (a sale with nothing due writes nothing, day after day). Run it in the caller's transaction after
 * any change to the sale's payments, and daily for the sales with something due (late-fee-job.ts).
 * Idempotent: a second run on the same date writes nothing.
 * @param asOf ISO `YYYY-MM-DD` (Lima).
 * @returns how many rows changed.
 */
export async function refreshSaleLateFees(db: Kysely<DB>, saleId: number, asOf: string): Promise<{ changed: number }> {
  const { rows, figures: figured } = await saleScheduleOn(db, saleId, asOf);
  const stored = new Map(rows.map((r) => [r.id, r]));
  let changed = 0;
  for (const f of figured) {
    const row = stored.get(f.id);
    if (!row) continue;
    const unchanged = row.late_fee_accrued === f.accruedCents && row.status === f.status;
    // A row already due and unpaid is marked as figured today even when nothing changed, so the
    // daily job (which looks for such rows not figured today) does not read its sale again today.
    const dueAndOpen = row.due_date < asOf && f.status !== 'PAGADA';
    if (unchanged && (!dueAndOpen || row.late_fee_as_of === asOf)) continue;
    await db
      .updateTable('sale_instalments')
      .set({ late_fee_accrued: f.accruedCents, status: f.status, late_fee_as_of: asOf })
      .where('id', '=', f.id)
      .execute();
    changed += 1;
  }
  return { changed };
}
