import type { Kysely } from 'kysely';
import type { z } from 'zod';
import { Temporal } from 'temporal-polyfill';
import type { Sale } from '../../../src/schemas/comercio/sales';
import {
  RESCHEDULE_MESSAGES,
  type ReschedulePreview,
  type ReschedulePreviewQuery,
  type rescheduleSaleRequestSchema,
  type SaleSchedule,
  type ScheduleRowWire,
} from '../../../src/schemas/comercio/rescissions';
import { planReschedule, type RescheduleRow, type RescheduleTerms } from '../../../src/lib/comercio/reschedule';
import { owedOn } from '../../../src/lib/finanzas/sale-ledger';
import { recordChange, staffActorId, type AuditContext } from '../../audit/audit';
import { todayInLimaBy } from '../../clock';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import { assertVersionedUpdate, nextVersion } from '../../db/versions';
import { conflict, fieldError, notFound } from '../../errors';
import { saleAccount } from '../finanzas/late-fees.service';
import { settleSale } from '../finanzas/payments.service';
import { getSale } from './sales.service';
import { generateSaleDocument } from '../administracion/sale-documents';
import { adendaPending, saleAdendas } from '../administracion/sale-document-links';

/**
 * Rescheduling a live financed sale's open balance in a new schedule — the adenda (Código Civil
 * art. 1351: the parties' agreement modifies the contract; docs/domain.md "Rescheduling
 * (adenda)"; the pure plan: src/lib/comercio/reschedule.ts). Every superseded schedule is kept
 * read-only (`sale_schedules`, `sale_schedule_rows`), the adenda recorded (`sale_reschedules`).
 */

/** Parsed POST /api/sales/{id}/reschedule body. */
export type RescheduleSaleBody = z.output<typeof rescheduleSaleRequestSchema>;

/** Why an adenda's first due date is refused on `today`, or null: after today, at most a year ahead. */
export function firstDueDateError(firstDueDate: string, today: string): string | null {
  const day = Temporal.PlainDate.from(today);
  const first = Temporal.PlainDate.from(firstDueDate);
  if (Temporal.PlainDate.compare(first, day) <= 0) return RESCHEDULE_MESSAGES.firstDueNotFuture;
  if (Temporal.PlainDate.compare(first, day.add({ years: 1 })) > 0) return RESCHEDULE_MESSAGES.firstDueTooFar;
  return null;
}

/** The sale as an adenda reads it: its state, the current rows with capital, interest and fees owed today. */
interface RescheduleFacts {
  currency: 'PEN' | 'USD';
  version: number;
  reasons: string[];
  rows: RescheduleRow[];
  wire: ScheduleRowWire[];
}

async function rescheduleFacts(db: Kysely<DB>, saleId: number, today: string): Promise<RescheduleFacts | undefined> {
  const sale = await db.selectFrom('sales').select(['status', 'type', 'currency', 'version']).where('id', '=', saleId).executeTakeFirst();
  if (!sale) return undefined;
  const account = await saleAccount(db, saleId);
  const stored = await db.selectFrom('sale_instalments').selectAll().where('sale_id', '=', saleId).execute();
  const ids = stored.map((r) => r.id);
  const allocated = new Set(
    ids.length === 0
      ? []
      : (await db.selectFrom('payment_allocations').select('instalment_id').distinct().where('instalment_id', 'in', ids).execute()).map(
          (a) => a.instalment_id,
        ),
  );
  const fees = new Map<number, number>();
  if (account && sale.status === 'EN_CUOTAS')
    for (const owed of owedOn(account.policy, account.ledger, today)) fees.set(owed.id, owed.lateFeeDueCents);
  const ordered = [...stored].sort((a, b) => (a.kind === b.kind ? a.number - b.number : a.kind === 'INICIAL' ? -1 : 1));
  const reasons = sale.status === 'EN_CUOTAS' && sale.type === 'FINANCIADO' ? [] : [RESCHEDULE_MESSAGES.notReschedulable];
  return {
    currency: sale.currency,
    version: sale.version,
    reasons,
    rows: ordered.map((r) => ({
      id: r.id,
      kind: r.kind,
      number: r.number,
      amountCents: Number(r.amount),
      capitalCents: Number(r.capital),
      interestCents: Number(r.interest),
      paidCents: Number(r.paid),
      lateFeeOwedCents: fees.get(r.id) ?? 0,
      hasAllocations: allocated.has(r.id),
    })),
    wire: ordered.map(wireRow),
  };
}

/** A stored schedule row (live or archived) on the wire. */
function wireRow(r: {
  kind: string;
  number: number;
  due_date: string;
  amount: number | string;
  capital: number | string;
  interest: number | string;
  paid: number | string;
  status: string;
  late_fee_accrued: number | string;
  late_fee_paid: number | string;
  late_fee_waived: number | string;
}): ScheduleRowWire {
  return {
    kind: r.kind,
    number: r.number,
    due_date: r.due_date,
    amount: Number(r.amount),
    capital: Number(r.capital),
    interest: Number(r.interest),
    paid: Number(r.paid),
    status: r.status,
    late_fee_accrued: Number(r.late_fee_accrued),
    late_fee_paid: Number(r.late_fee_paid),
    late_fee_waived: Number(r.late_fee_waived),
  };
}

/** The terms of a preview query when complete, else null. */
function termsOf(query: ReschedulePreviewQuery): RescheduleTerms | null {
  const { method, instalments, monthly_rate_percent, first_due_date, late_fees } = query;
  if (!method || instalments === undefined || first_due_date === undefined || !late_fees) return null;
  return {
    method,
    instalments,
    monthlyRatePercent: monthly_rate_percent ?? '0',
    firstDueDate: Temporal.PlainDate.from(first_due_date),
    lateFees: late_fees,
  };
}

/**
 * GET /api/sales/{id}/reschedule: the open balance (capital not yet paid of the open instalments)
 * and the late fees owed today; with the terms in the query, the new schedule (rows, interest,
 * total = balance + carried fees + interest). `allowed` false with Spanish `reasons` for a sale
 * that is not EN_CUOTAS and FINANCIADO, with nothing open, or a first due date out of range.
 * @throws HttpError 404 unknown sale.
 */
export async function reschedulePreview(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  saleId: number,
  query: ReschedulePreviewQuery,
): Promise<ReschedulePreview> {
  const today = todayInLimaBy(deps.clock);
  const facts = await rescheduleFacts(deps.db, saleId, today);
  if (!facts) throw notFound();
  const reasons = [...facts.reasons];
  const open = facts.rows.filter((r) => r.kind === 'CUOTA' && r.paidCents < r.amountCents);
  const balance = open.reduce((sum, r) => sum + r.capitalCents - Math.max(0, r.paidCents - r.interestCents), 0);
  const lateFees = facts.rows.reduce((sum, r) => sum + r.lateFeeOwedCents, 0);
  if (reasons.length === 0 && balance <= 0) reasons.push(RESCHEDULE_MESSAGES.nothingOpen);
  const terms = termsOf(query);
  const dateError = query.first_due_date ? firstDueDateError(query.first_due_date, today) : null;
  if (dateError) reasons.push(dateError);
  const planned = terms && reasons.length === 0 ? planReschedule(facts.rows, terms) : null;
  const plan = planned?.ok ? planned.plan : null;
  return {
    sale_id: saleId,
    currency: facts.currency,
    allowed: reasons.length === 0,
    reasons,
    as_of: today,
    balance,
    late_fees: lateFees,
    financed: plan?.financedCents ?? null,
    total_interest: plan?.totalInterestCents ?? null,
    total: plan?.totalCents ?? null,
    rows: (plan?.rows ?? []).map((r) => ({
      kind: 'CUOTA',
      number: r.number,
      due_date: r.dueDate.toString(),
      amount: r.amountCents,
      capital: r.capitalCents,
      interest: r.interestCents,
      paid: 0,
      status: 'PENDIENTE',
      late_fee_accrued: 0,
      late_fee_paid: 0,
      late_fee_waived: 0,
    })),
    open_rows: facts.wire.filter((r) => r.kind === 'CUOTA' && r.paid < r.amount),
    version: facts.version,
  };
}

/**
 * Reschedules a live financed sale (POST /api/sales/{id}/reschedule; an adenda: Código Civil art.
 * 1351, the parties modify the contract they made). In one transaction: claims the sale's row with
 * a conditional UPDATE (EN_CUOTAS, FINANCIADO, the `version` read: else 409), reads the schedule
 * after the claim, plans the adenda (src/lib/comercio/reschedule.ts), keeps the current schedule
 * as it stands in `sale_schedules`/`sale_schedule_rows` (read-only), closes the open instalments at
 * what was paid on them (or removes those nothing was applied to), takes the late fees owed off
 * their rows — carried into what the new schedule finances, or waived — inserts the new rows
 * (`schedule_number` + 1), records `sale_reschedules`, moves the sale's terms (method, rate,
 * instalments, total interest = Σ amounts − final price), refigures its fees and state, and
 * writes the change history. A payment approved at the same moment waits for the claim (PostgreSQL)
 * or runs before or after it (SQLite) and is applied to whichever schedule it finds.
 * @throws HttpError 404; 409 not reschedulable, stale, nothing open; 422 a first due date not after
 *   today or more than a year ahead.
 */
export async function rescheduleSale(
  deps: Pick<AppDeps, 'db' | 'clock' | 'documents'>,
  audit: AuditContext,
  id: number,
  body: RescheduleSaleBody,
): Promise<Sale> {
  const rescheduleId = await deps.db.transaction().execute((trx) => rescheduleSaleIn(trx, deps, audit, id, body));
  // After the commit (docs/domain.md "Rescission and rescheduling: their documents"): the ADENDA from
  // the subdivision's published template with this rescheduling's figures; the PDF is made off the
  // event loop, outside the transaction. Without a template the answer says the adenda is pending.
  await generateSaleDocument(deps, audit, id, 'ADENDA', rescheduleId);
  return getSale(deps, id);
}

/**
 * {@link rescheduleSale}'s work inside the caller's transaction `trx` (the demo seed runs it in its own).
 * @returns the `sale_reschedules` row's id.
 */
export async function rescheduleSaleIn(
  trx: Kysely<DB>,
  deps: Pick<AppDeps, 'clock'>,
  audit: AuditContext,
  id: number,
  body: RescheduleSaleBody,
): Promise<number> {
  const today = todayInLimaBy(deps.clock);
  {
    const before = await trx.selectFrom('sales').selectAll().where('id', '=', id).executeTakeFirst();
    if (!before) throw notFound();
    const stamp = deps.clock.now().toISOString();
    const claimed = await trx
      .updateTable('sales')
      .set({ updated_at: stamp, version: nextVersion() })
      .where('id', '=', id)
      .where('status', '=', 'EN_CUOTAS')
      .where('type', '=', 'FINANCIADO')
      .where('version', '=', body.version)
      .executeTakeFirstOrThrow();
    if (claimed.numUpdatedRows === 0n) {
      const row = await trx.selectFrom('sales').select(['status', 'type']).where('id', '=', id).executeTakeFirst();
      if (row && (row.status !== 'EN_CUOTAS' || row.type !== 'FINANCIADO')) throw conflict(RESCHEDULE_MESSAGES.notReschedulable);
      await assertVersionedUpdate(trx, 'sales', id, claimed, notFound);
    }
    // The sale's state first (a sale that cannot be rescheduled says so whatever the terms), then the date.
    const dateError = firstDueDateError(body.first_due_date, today);
    if (dateError) throw fieldError('first_due_date', dateError);
    const facts = (await rescheduleFacts(trx, id, today))!;
    const planned = planReschedule(facts.rows, {
      method: body.method,
      instalments: body.instalments,
      monthlyRatePercent: body.monthly_rate_percent,
      firstDueDate: Temporal.PlainDate.from(body.first_due_date),
      lateFees: body.late_fees,
    });
    if (!planned.ok) throw conflict(RESCHEDULE_MESSAGES.nothingOpen);
    const { plan } = planned;

    // The schedule as it stands, kept read-only.
    const previous = await trx
      .selectFrom('sale_reschedules')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('sale_id', '=', id)
      .executeTakeFirstOrThrow();
    const current = Number(previous.n) + 1;
    const archived = await trx
      .insertInto('sale_schedules')
      .values({ sale_id: id, number: current, superseded_at: stamp })
      .returning('id')
      .executeTakeFirstOrThrow();
    const live = await trx.selectFrom('sale_instalments').selectAll().where('sale_id', '=', id).execute();
    await trx
      .insertInto('sale_schedule_rows')
      .values(
        live.map((r) => ({
          schedule_id: archived.id,
          kind: r.kind,
          number: r.number,
          due_date: r.due_date,
          amount: Number(r.amount),
          capital: Number(r.capital),
          interest: Number(r.interest),
          paid: Number(r.paid),
          status: r.status,
          late_fee_accrued: Number(r.late_fee_accrued),
          late_fee_paid: Number(r.late_fee_paid),
          late_fee_waived: Number(r.late_fee_waived),
        })),
      )
      .execute();

    for (const fee of plan.feesTaken)
      await trx
        .updateTable('sale_instalments')
        .set((eb) => ({ late_fee_waived: eb('late_fee_waived', '+', fee.cents) }))
        .where('id', '=', fee.id)
        .execute();
    for (const c of plan.closed)
      await trx
        .updateTable('sale_instalments')
        .set({ amount: c.amountCents, capital: c.capitalCents, interest: c.interestCents })
        .where('id', '=', c.id)
        .execute();
    if (plan.removed.length > 0) await trx.deleteFrom('sale_instalments').where('id', 'in', plan.removed).execute();
    await trx
      .insertInto('sale_instalments')
      .values(
        plan.rows.map((r) => ({
          sale_id: id,
          kind: 'CUOTA',
          number: r.number,
          due_date: r.dueDate.toString(),
          amount: r.amountCents,
          capital: r.capitalCents,
          interest: r.interestCents,
          paid: 0,
          status: 'PENDIENTE',
          schedule_number: current + 1,
        })),
      )
      .execute();

    const stored = await trx
      .insertInto('sale_reschedules')
      .values({
        sale_id: id,
        schedule_number: current + 1,
        previous_schedule_id: archived.id,
        currency: before.currency,
        balance: plan.balanceCents,
        late_fee_mode: body.late_fees,
        late_fee_amount: plan.lateFeeCents,
        financed: plan.financedCents,
        method: body.method,
        instalments: body.instalments,
        monthly_rate_percent: body.monthly_rate_percent,
        first_due_date: body.first_due_date,
        total_interest: plan.totalInterestCents,
        total: plan.totalCents,
        reason: body.reason,
        created_by: staffActorId(audit),
        created_at: stamp,
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    const rows = await trx.selectFrom('sale_instalments').select(['kind', 'amount']).where('sale_id', '=', id).execute();
    const scheduled = rows.reduce((sum, r) => sum + Number(r.amount), 0);
    await trx
      .updateTable('sales')
      .set({
        method: body.method,
        monthly_rate_percent: body.monthly_rate_percent,
        instalments: rows.filter((r) => r.kind === 'CUOTA').length,
        total_interest: scheduled - Number(before.final_price),
      })
      .where('id', '=', id)
      .execute();
    await settleSale(trx, audit, deps, id);
    await recordChange(trx, audit, {
      entity: 'sale_reschedules',
      recordId: stored.id,
      action: 'CREATE',
      after: await trx.selectFrom('sale_reschedules').selectAll().where('id', '=', stored.id).executeTakeFirst(),
    });
    await recordChange(trx, audit, {
      entity: 'sales',
      recordId: id,
      action: 'UPDATE',
      before,
      after: await trx.selectFrom('sales').selectAll().where('id', '=', id).executeTakeFirst(),
    });
    return stored.id;
  }
}

/**
 * GET /api/sales/{id}/schedules: the sale's current schedule (its live rows) first, then every
 * superseded schedule, newest first, each read-only as it stood when the adenda in `replaced_by`
 * replaced it.
 * @throws HttpError 404 unknown sale.
 */
export async function saleSchedules(db: Kysely<DB>, saleId: number): Promise<SaleSchedule[]> {
  const sale = await db.selectFrom('sales').select('id').where('id', '=', saleId).executeTakeFirst();
  if (!sale) throw notFound();
  const order = (a: { kind: string; number: number }, b: { kind: string; number: number }) =>
    a.kind === b.kind ? a.number - b.number : a.kind === 'INICIAL' ? -1 : 1;
  const live = (await db.selectFrom('sale_instalments').selectAll().where('sale_id', '=', saleId).execute()).sort(order);
  const archived = await db.selectFrom('sale_schedules').selectAll().where('sale_id', '=', saleId).orderBy('number', 'desc').execute();
  const archivedRows =
    archived.length === 0
      ? []
      : await db
          .selectFrom('sale_schedule_rows')
          .selectAll()
          .where(
            'schedule_id',
            'in',
            archived.map((s) => s.id),
          )
          .execute();
  const adendas = await db
    .selectFrom('sale_reschedules')
    .leftJoin('users', 'users.id', 'sale_reschedules.created_by')
    .selectAll('sale_reschedules')
    .select(['users.name as user_name', 'users.surname as user_surname'])
    .where('sale_reschedules.sale_id', '=', saleId)
    .execute();
  const documents = await saleAdendas(db, saleId);
  return [
    { number: archived.length + 1, current: true, superseded_at: null, replaced_by: null, rows: live.map(wireRow) },
    ...archived.map((s) => {
      const adenda = adendas.find((a) => a.previous_schedule_id === s.id);
      return {
        number: s.number,
        current: false,
        superseded_at: String(s.superseded_at),
        replaced_by: adenda
          ? {
              id: adenda.id,
              schedule_number: adenda.schedule_number,
              balance: Number(adenda.balance),
              late_fee_mode: adenda.late_fee_mode === 'CARRY' ? ('CARRY' as const) : ('WAIVE' as const),
              late_fee_amount: Number(adenda.late_fee_amount),
              financed: Number(adenda.financed),
              method: adenda.method,
              instalments: adenda.instalments,
              monthly_rate_percent: adenda.monthly_rate_percent,
              first_due_date: adenda.first_due_date,
              total_interest: Number(adenda.total_interest),
              total: Number(adenda.total),
              reason: adenda.reason,
              created_by: adenda.user_name !== null ? `${adenda.user_name} ${adenda.user_surname ?? ''}`.trim() : null,
              created_at: String(adenda.created_at),
              document: documents.get(adenda.id) ?? null,
              document_pending: adendaPending(documents.get(adenda.id)),
            }
          : null,
        rows: archivedRows
          .filter((r) => r.schedule_id === s.id)
          .sort(order)
          .map(wireRow),
      };
    }),
  ];
}
