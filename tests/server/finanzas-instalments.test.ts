import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import {
  INSTALMENT_MESSAGES,
  instalmentResponseSchema,
  instalmentsPageSchema,
  instalmentTotalsResponseSchema,
} from '../../src/schemas/finanzas/instalments';
import { MODULE, SUBMODULE, type Permission } from '../../src/schemas/permissions';
import { accruedLateFee, DEFAULT_LATE_FEE_POLICY } from '../../src/lib/finanzas/late-fees';
import { systemAuditContext } from '../../server/audit/audit';
import { createManualClock } from '../../server/clock';
import type { DB } from '../../server/db/database';
import { annulSale, createSale } from '../../server/modules/comercio/sales.service';
import { LATE_FEE_JOB, LateFeeJob } from '../../server/modules/finanzas/late-fee-job';
import { createCustomer, createLot, createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, recordingBroadcaster, useTestApp, useTestDatabase } from './harness';

/**
 * Finanzas → Registro de Cuotas (issue 16): the daily late-fee job and its reminders with an injected
 * clock, and /api/instalments (list, totals, export, waive-late-fee).
 */

/** Lima noon of `date` (YYYY-MM-DD) as an instant: the clock of a day. */
const noonInLima = (date: string) => `${date}T17:00:00.000Z`;

/** Policy of a fresh subdivision (DOMAIN.md defaults: 3 grace days, S/ 5.00 a day, no cap). */
const POLICY = DEFAULT_LATE_FEE_POLICY;

/**
 * A financed sale in a fresh subdivision, registered on its sale date (a sale is dated at most the
 * company's window before the day it is registered: docs/domain.md "Sales"): S/ 30 000.00 lot, 20 %
 * down in one part on the sale date, 6 instalments without interest from `firstDue`, the agent
 * `agentId`. @returns its id and holder.
 */
async function makeSale(db: Kysely<DB>, options: { saleDate: string; firstDue: string; agentId?: number; lotCode?: string }) {
  const clock = createManualClock(noonInLima(options.saleDate));
  const subdivision = await createSubdivision(db);
  const lotId = await createLot(db, subdivision.id, { block: 'K', number: options.lotCode ?? '7' });
  const customer = await createCustomer(db);
  const created = await createSale({ db, clock }, systemAuditContext(clock), {
    lot_id: lotId,
    holders: [{ customer_id: customer.id, role: 'TITULAR', share_percent: '100' }],
    sale_date: options.saleDate,
    down_payment_percent: '20',
    down_payment_parts: 1,
    instalments: 6,
    monthly_rate_percent: '0',
    method: 'SIN_INTERES',
    first_due_date: options.firstDue,
  });
  if (options.agentId !== undefined)
    await db.updateTable('sales').set({ agent_id: options.agentId }).where('id', '=', created.id).execute();
  return { saleId: created.id, customer, subdivisionId: subdivision.id };
}

/** The schedule's stored figures, in schedule order. */
const figures = (db: Kysely<DB>, saleId: number) =>
  db
    .selectFrom('sale_instalments')
    .select(['id', 'kind', 'number', 'due_date', 'amount', 'paid', 'status', 'late_fee_accrued', 'late_fee_as_of'])
    .where('sale_id', '=', saleId)
    .orderBy('due_date')
    .orderBy('id')
    .execute()
    .then((rows) =>
      rows.map((r) => ({ ...r, amount: Number(r.amount), paid: Number(r.paid), late_fee_accrued: Number(r.late_fee_accrued) })),
    );

const silentLog = { error: () => undefined };

describe.each(dialects)('late-fee job (%s)', (dialect) => {
  const db = useTestDatabase(dialect);

  const jobAt = (date: string) => {
    const clock = createManualClock(noonInLima(date));
    const broadcaster = recordingBroadcaster();
    return { job: new LateFeeJob({ db: db(), clock, broadcaster, log: silentLog }), clock, broadcaster };
  };

  it('figures every open instalment for today; a second run changes nothing; days of downtime give the daily figures', async () => {
    const { saleId } = await makeSale(db(), {
      saleDate: '2025-10-01',
      firstDue: '2025-11-01',
    });
    // Run once a day from 2026-01-10 to 2026-01-20.
    let day = Temporal.PlainDate.from('2026-01-10');
    for (; Temporal.PlainDate.compare(day, Temporal.PlainDate.from('2026-01-20')) <= 0; day = day.add({ days: 1 }))
      await jobAt(day.toString()).job.runUntilDone();
    const daily = await figures(db(), saleId);
    const first = daily.find((r) => r.kind === 'CUOTA' && r.number === 1)!;
    // Due 2025-11-01, 3 grace days: late from 2025-11-05 to 2026-01-20 inclusive, S/ 5.00 a day.
    const expected = accruedLateFee(
      POLICY,
      { dueDate: Temporal.PlainDate.from('2025-11-01'), amountCents: first.amount, payments: [] },
      day.subtract({ days: 1 }),
    );
    expect(expected).toBe(77 * 500);
    expect(first).toMatchObject({ status: 'VENCIDA', late_fee_accrued: expected, late_fee_as_of: '2026-01-20' });
    // Not yet due (2026-02-01 onwards): PENDIENTE, nothing accrued.
    expect(daily.filter((r) => r.due_date > '2026-01-20').every((r) => r.status === 'PENDIENTE' && r.late_fee_accrued === 0)).toBe(true);

    // The same day again: nothing to do.
    const again = await jobAt('2026-01-20').job.runUntilDone();
    expect(again).toMatchObject({ sales: 0, changed: 0 });
    expect(await figures(db(), saleId)).toEqual(daily);

    // Forget the figures, as if the job had been down since the sale: one run on 2026-01-20 stores the same.
    await db()
      .updateTable('sale_instalments')
      .set({ late_fee_accrued: 0, late_fee_as_of: null, status: 'PENDIENTE' })
      .where('sale_id', '=', saleId)
      .where('paid', '=', 0)
      .execute();
    const after = await jobAt('2026-01-20').job.runUntilDone();
    expect(after.sales).toBe(1);
    expect(await figures(db(), saleId)).toEqual(daily);
  });

  it('walks more sales than a batch in one run, and leaves ANULADA sales alone', async () => {
    const clock = createManualClock(noonInLima('2025-10-01'));
    const ids: number[] = [];
    for (let i = 0; i < LATE_FEE_JOB.batch + 3; i += 1)
      ids.push((await makeSale(db(), { saleDate: '2025-10-01', firstDue: '2025-11-01', lotCode: `B${i}` })).saleId);
    const annulled = ids.pop()!;
    await annulSale({ db: db(), clock }, systemAuditContext(clock), annulled, { reason: 'Prueba de anulación' });
    const run = await jobAt('2025-12-01').job.runUntilDone();
    expect(run.sales).toBeGreaterThanOrEqual(ids.length);
    const stale = await db()
      .selectFrom('sale_instalments')
      .select('sale_id')
      .where('sale_id', 'in', ids)
      .where('status', '<>', 'PAGADA')
      .where('due_date', '<', '2025-12-01') // rows not yet due are stored only when their figures change
      .where((eb) => eb.or([eb('late_fee_as_of', 'is', null), eb('late_fee_as_of', '<>', '2025-12-01')]))
      .execute();
    expect(stale).toEqual([]);
    const annulledRows = await figures(db(), annulled);
    expect(annulledRows.every((r) => r.late_fee_as_of === null && r.late_fee_accrued === 0)).toBe(true);
  });

  it('reminds the collector and the customer once per instalment: due in 3 days, then overdue', async () => {
    const agent = await createStaff(db(), { permissions: [MODULE.finanzas, SUBMODULE.pagos] });
    const { saleId, customer } = await makeSale(db(), {
      saleDate: '2025-12-01',
      firstDue: '2026-01-10',
      agentId: agent.id,
    });
    const notificationsOf = (userType: 'COLLABORATOR' | 'CUSTOMER', id: number) =>
      db()
        .selectFrom('notifications')
        .select(['type_code', 'title', 'detail', 'route'])
        .where('recipient_type', '=', userType)
        .where('recipient_id', '=', id)
        .orderBy('id')
        .execute();

    // 2026-01-06: the first instalment is due in 4 days: nothing yet.
    await jobAt('2026-01-06').job.runUntilDone();
    expect(await notificationsOf('COLLABORATOR', agent.id)).toEqual([]);

    // 2026-01-07: due in 3 days. Two runs that day: one reminder each.
    const first = jobAt('2026-01-07');
    await first.job.runUntilDone();
    await jobAt('2026-01-07').job.runUntilDone();
    const staffSoon = await notificationsOf('COLLABORATOR', agent.id);
    expect(staffSoon).toHaveLength(1);
    expect(staffSoon[0]).toMatchObject({ type_code: 'PAYMENT', route: `/FINANZAS/RegistroCuotas?sale_id=${saleId}` });
    expect(staffSoon[0]!.title).toContain('por vencer');
    expect(staffSoon[0]!.detail).toContain('Cuota 1');
    // Dates in the text are dd/mm/yyyy (docs/decisions.md "Customer journey details (accessibility)").
    expect(staffSoon[0]!.detail).toContain('Cuota 1: vence el 10/01/2026');
    expect(staffSoon[0]!.detail).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    const customerSoon = await notificationsOf('CUSTOMER', customer.id);
    expect(customerSoon).toHaveLength(1);
    expect(customerSoon[0]!.detail).toContain('Cuota 1: vence el 10/01/2026');
    expect(customerSoon[0]).toMatchObject({ type_code: 'PAYMENT', route: '/COMERCIO/MisCompras' });
    // Published after commit: one event per recipient.
    expect(first.broadcaster.events).toHaveLength(2);

    // 2026-01-14: past the 3 grace days (first late day 01-14): overdue, once, to both.
    await jobAt('2026-01-14').job.runUntilDone();
    await jobAt('2026-01-14').job.runUntilDone();
    await jobAt('2026-01-15').job.runUntilDone();
    const staffAll = await notificationsOf('COLLABORATOR', agent.id);
    expect(staffAll.map((n) => n.type_code)).toEqual(['PAYMENT', 'WARNING']);
    expect(staffAll[1]!.title).toContain('vencidas');
    expect((await notificationsOf('CUSTOMER', customer.id)).map((n) => n.type_code)).toEqual(['PAYMENT', 'WARNING']);
    const reminders = await db()
      .selectFrom('instalment_reminders')
      .innerJoin('sale_instalments', 'sale_instalments.id', 'instalment_reminders.instalment_id')
      .select(['instalment_reminders.kind', 'instalment_reminders.sent_on', 'sale_instalments.number'])
      .where('sale_instalments.sale_id', '=', saleId)
      .orderBy('instalment_reminders.sent_on')
      .execute();
    expect(reminders).toEqual([
      { kind: 'POR_VENCER', sent_on: '2026-01-07', number: 1 },
      { kind: 'VENCIDA', sent_on: '2026-01-14', number: 1 },
    ]);
  });

  it('does not announce instalments overdue for long when reminders start (after downtime), but figures them', async () => {
    const agent = await createStaff(db(), { permissions: [MODULE.finanzas, SUBMODULE.pagos] });
    const { saleId } = await makeSale(db(), {
      saleDate: '2025-06-01',
      firstDue: '2025-07-01',
      agentId: agent.id,
    });
    // Months later (instalments 1–6 due 2025-07-01 … 2025-12-01): only the one overdue within the last 7 days.
    await jobAt('2025-12-06').job.runUntilDone();
    const sent = await db()
      .selectFrom('instalment_reminders')
      .innerJoin('sale_instalments', 'sale_instalments.id', 'instalment_reminders.instalment_id')
      .select(['instalment_reminders.kind', 'sale_instalments.due_date'])
      .where('sale_instalments.sale_id', '=', saleId)
      .execute();
    expect(sent).toEqual([{ kind: 'VENCIDA', due_date: '2025-12-01' }]);
    // The down payment and the six instalments.
    expect((await figures(db(), saleId)).filter((r) => r.status === 'VENCIDA')).toHaveLength(7);
  });
});

describe.each(dialects)('/api/instalments (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  const staffWith = async (permissions: Permission[]) => createSession(db(), await createStaff(db(), { permissions }));
  const collector = () => staffWith([MODULE.finanzas, SUBMODULE.pagos]);
  const get = (url: string, token: string) => ctx().app.inject({ method: 'GET', url, headers: bearer(token) });
  const post = (url: string, token: string, payload: object) => ctx().app.inject({ method: 'POST', url, headers: bearer(token), payload });
  /** Figures the sales for the app's today (2026-03-02). */
  const runJob = () => new LateFeeJob({ db: db(), clock: ctx().clock, broadcaster: recordingBroadcaster(), log: silentLog }).runUntilDone();

  it('lists instalments with their sale, lot, customer, late fees and days late; filters; totals for the whole set', async () => {
    const token = await collector();
    const late = await makeSale(db(), { saleDate: '2025-10-01', firstDue: '2025-11-01', lotCode: 'Z91' });
    const onTime = await makeSale(db(), { saleDate: '2026-03-02', firstDue: '2026-04-01', lotCode: 'Z92' });
    await runJob();

    const res = await get(`/api/instalments?sale_id=${late.saleId}&per_page=100`, token);
    expect(res.statusCode, res.body).toBe(200);
    const page = instalmentsPageSchema.parse(res.json());
    expect(page.meta.total).toBe(7);
    const cuota1 = page.data.find((r) => r.kind === 'CUOTA' && r.number === 1)!;
    // Due 2025-11-01, today 2026-03-02: late from 2025-11-02 (days late count from the due date, docs/domain.md);
    // the fee, after 3 grace days, from 2025-11-05.
    const days = Temporal.PlainDate.from('2025-11-01').until('2026-03-02').days;
    const feeDays = Temporal.PlainDate.from('2025-11-05').until('2026-03-02').days + 1;
    expect(cuota1).toMatchObject({
      sale: { id: late.saleId, number: expect.stringMatching(/^V-0+\d+$/) },
      lot_code: expect.stringContaining('Z91'),
      subdivision: { id: late.subdivisionId },
      customer: { id: late.customer.id, document_number: late.customer.documentNumber },
      due_date: '2025-11-01',
      status: 'VENCIDA',
      days_late: days,
      late_fee_accrued: feeDays * 500,
      late_fee_due: feeDays * 500,
      late_fee_waived: 0,
      balance: cuota1.amount,
      currency: 'PEN',
    });
    // The down payment was credited at the sale? It is either paid or owed: balance = amount − paid.
    expect(page.data.every((r) => r.balance === r.amount - r.paid)).toBe(true);

    // Filters: status, bucket, customer, subdivision, q by lot code and by sale number, due range.
    const ids = async (query: string) =>
      instalmentsPageSchema.parse((await get(`/api/instalments?per_page=100&${query}`, token)).json()).data.map((r) => r.sale.id);
    expect(new Set(await ids(`status=VENCIDA&subdivision_id=${late.subdivisionId}`))).toEqual(new Set([late.saleId]));
    expect(await ids(`status=VENCIDA&subdivision_id=${onTime.subdivisionId}`)).toEqual([]);
    expect(new Set(await ids(`customer_id=${onTime.customer.id}`))).toEqual(new Set([onTime.saleId]));
    // Days late from the due date: the down payment (2025-10-01) 152 days, 2025-11-01 121, 2025-12-01 91,
    // 2026-01-01 60, 2026-02-01 29, 2026-03-01 1.
    expect((await ids(`days_late=MAS_90&sale_id=${late.saleId}`)).length).toBe(3);
    expect((await ids(`days_late=61_90&sale_id=${late.saleId}`)).length).toBe(0);
    expect((await ids(`days_late=31_60&sale_id=${late.saleId}`)).length).toBe(1);
    expect((await ids(`days_late=1_30&sale_id=${late.saleId}`)).length).toBe(2);
    expect(new Set(await ids(`days_late=AL_DIA&subdivision_id=${onTime.subdivisionId}`))).toEqual(new Set([onTime.saleId]));
    expect(new Set(await ids('q=Z92'))).toEqual(new Set([onTime.saleId]));
    expect(new Set(await ids(`q=V-${String(late.saleId).padStart(6, '0')}`))).toEqual(new Set([late.saleId]));
    expect((await ids(`sale_id=${late.saleId}&due_from=2025-12-01&due_to=2026-01-31`)).length).toBe(2);

    // Totals of the filtered set, per currency.
    const totals = instalmentTotalsResponseSchema.parse((await get(`/api/instalments/totals?sale_id=${late.saleId}`, token)).json()).data;
    expect(totals).toHaveLength(1);
    const sum = (key: 'amount' | 'paid' | 'late_fee_accrued') => page.data.reduce((s, r) => s + r[key], 0);
    expect(totals[0]).toMatchObject({
      currency: 'PEN',
      count: 7,
      amount: sum('amount'),
      paid: sum('paid'),
      late_fee_accrued: sum('late_fee_accrued'),
    });
    expect(totals[0]!.balance).toBe(sum('amount') - sum('paid'));
  });

  it('counts days late into the right bucket', async () => {
    const token = await collector();
    // Due 2026-01-01: late days 2026-01-02 … 2026-03-02 = 60, counted from the due date (1–30 no, 31–60 yes).
    const sale = await makeSale(db(), { saleDate: '2025-12-01', firstDue: '2026-01-01', lotCode: 'Y1' });
    await runJob();
    const rows = async (bucket: string) =>
      instalmentsPageSchema
        .parse((await get(`/api/instalments?sale_id=${sale.saleId}&days_late=${bucket}`, token)).json())
        .data.map((r) => [r.due_date, r.days_late]);
    expect(await rows('31_60')).toEqual([['2026-01-01', 60]]);
    expect(await rows('1_30')).toEqual([
      ['2026-02-01', 29],
      ['2026-03-01', 1],
    ]);
    // The down payment, due on the sale date 2025-12-01: 91 days.
    expect(await rows('61_90')).toEqual([]);
    expect(await rows('MAS_90')).toEqual([['2025-12-01', 91]]);
  });

  it('waives a late fee up to what is owed, with its reason in the change history; refuses more; 403 and 404', async () => {
    const token = await collector();
    const sale = await makeSale(db(), { saleDate: '2025-10-01', firstDue: '2025-11-01', lotCode: 'W1' });
    await runJob();
    const [row] = instalmentsPageSchema.parse((await get(`/api/instalments?sale_id=${sale.saleId}&status=VENCIDA`, token)).json()).data;
    const owed = row!.late_fee_due;
    expect(owed).toBeGreaterThan(0);

    const tooMuch = await post(`/api/instalments/${row!.id}/waive-late-fee`, token, { amount: owed + 1, reason: 'Acuerdo con el cliente' });
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().errors.amount).toEqual([INSTALMENT_MESSAGES.exceedsOwed]);
    const noReason = await post(`/api/instalments/${row!.id}/waive-late-fee`, token, { amount: 100, reason: ' ' });
    expect(noReason.statusCode).toBe(422);
    expect(noReason.json().errors.reason).toEqual([INSTALMENT_MESSAGES.reason]);

    const ok = await post(`/api/instalments/${row!.id}/waive-late-fee`, token, { amount: 1500, reason: 'Acuerdo con el cliente' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(instalmentResponseSchema.parse(ok.json()).data).toMatchObject({ id: row!.id, late_fee_waived: 1500, late_fee_due: owed - 1500 });
    const history = await db()
      .selectFrom('change_history')
      .select(['action', 'after'])
      .where('entity', '=', 'sale_instalments')
      .where('record_id', '=', String(row!.id))
      .execute();
    expect(history).toHaveLength(1);
    expect(JSON.parse(history[0]!.after!)).toMatchObject({ late_fee_waived: 1500, late_fee_waiver_reason: 'Acuerdo con el cliente' });
    // The job runs again: the waiver stays (the job stores accrued, never waived).
    await runJob();
    const again = instalmentsPageSchema.parse((await get(`/api/instalments?sale_id=${sale.saleId}&status=VENCIDA`, token)).json()).data[0]!;
    expect(again).toMatchObject({ late_fee_waived: 1500, late_fee_due: owed - 1500 });

    const rest = await post(`/api/instalments/${row!.id}/waive-late-fee`, token, { amount: owed - 1500, reason: 'Resto condonado' });
    expect(instalmentResponseSchema.parse(rest.json()).data.late_fee_due).toBe(0);
    const nothing = await post(`/api/instalments/${row!.id}/waive-late-fee`, token, { amount: 1, reason: 'Nada que condonar' });
    expect(nothing.json().errors.amount).toEqual([INSTALMENT_MESSAGES.nothingOwed]);

    const other = await staffWith([MODULE.finanzas, SUBMODULE.bancos]);
    expect((await post(`/api/instalments/${row!.id}/waive-late-fee`, other, { amount: 1, reason: 'Sin permiso' })).statusCode).toBe(403);
    expect((await get('/api/instalments', other)).statusCode).toBe(403);
    expect((await post('/api/instalments/999999/waive-late-fee', token, { amount: 1, reason: 'No existe' })).statusCode).toBe(404);
  });

  it('keeps the counts per subdivision and status exact (migration 0026): sales, the job, payments, annulments, deletions', async () => {
    const token = await collector();
    /** instalment_counts as stored, and as counted from the rows (zero rows left out). */
    const kept = async () =>
      (await db().selectFrom('instalment_counts').selectAll().where('instalments', '<>', 0).execute())
        .map((r) => `${r.subdivision_id}:${r.status}:${Number(r.instalments)}`)
        .sort();
    const recount = async () =>
      (
        await db()
          .selectFrom('sale_instalments as i')
          .innerJoin('sales', 'sales.id', 'i.sale_id')
          .select(['sales.subdivision_id', 'i.status', (eb) => eb.fn.countAll<number | string>().as('n')])
          .where('sales.status', '<>', 'ANULADA')
          .groupBy(['sales.subdivision_id', 'i.status'])
          .execute()
      )
        .map((r) => `${r.subdivision_id}:${r.status}:${Number(r.n)}`)
        .sort();
    const a = await makeSale(db(), { saleDate: '2025-10-01', firstDue: '2025-11-01', lotCode: 'C1' });
    const b = await makeSale(db(), { saleDate: '2025-10-01', firstDue: '2025-11-01', lotCode: 'C2' });
    expect(await kept()).toEqual(await recount());
    await runJob();
    expect(await kept()).toEqual(await recount());
    // The list's total of a status within a subdivision comes from the counts.
    const vencidas = instalmentsPageSchema.parse(
      (await get(`/api/instalments?status=VENCIDA&subdivision_id=${a.subdivisionId}`, token)).json(),
    );
    // The down payment (2025-10-01) and instalments due 2025-11-01 … 2026-03-01 (overdue from the day after, grace or not).
    expect(vencidas.meta.total).toBe(6);
    // An instalment paid, a sale annulled, a sale deleted (its instalments by cascade).
    const [first] = await figures(db(), a.saleId);
    await db().updateTable('sale_instalments').set({ paid: first!.amount, status: 'PAGADA' }).where('id', '=', first!.id).execute();
    expect(await kept()).toEqual(await recount());
    await annulSale({ db: db(), clock: ctx().clock }, systemAuditContext(ctx().clock), b.saleId, { reason: 'Prueba de anulación' });
    expect(await kept()).toEqual(await recount());
    expect(instalmentsPageSchema.parse((await get(`/api/instalments?subdivision_id=${b.subdivisionId}`, token)).json()).meta.total).toBe(0);
    await db().deleteFrom('sale_holders').where('sale_id', '=', a.saleId).execute();
    await db().deleteFrom('sales').where('id', '=', a.saleId).execute();
    expect(await kept()).toEqual(await recount());
  });

  it('exports the filtered rows as CSV and XLSX; refuses bad filters with a Spanish 422', async () => {
    const token = await collector();
    const sale = await makeSale(db(), { saleDate: '2025-10-01', firstDue: '2025-11-01', lotCode: 'X1' });
    await runJob();
    const csv = await get(`/api/instalments/export?format=csv&sale_id=${sale.saleId}`, token);
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    expect(csv.headers['content-disposition']).toMatch(/attachment; filename="registro-cuotas-2026-03-02\.csv"/);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toContain('Mora pendiente');
    expect(lines).toHaveLength(8);
    const xlsx = await get(`/api/instalments/export?format=xlsx&sale_id=${sale.saleId}`, token);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');

    const bad = await get('/api/instalments?due_from=2026-13-01', token);
    expect(bad.statusCode).toBe(422);
    const reversed = await get('/api/instalments?due_from=2026-02-01&due_to=2026-01-01', token);
    expect(reversed.statusCode).toBe(422);
    expect(reversed.json().errors.due_from).toEqual([INSTALMENT_MESSAGES.dateRange]);
    expect((await get('/api/instalments?days_late=2_30', token)).statusCode).toBe(422);
    expect((await get('/api/instalments?per_page=101', token)).statusCode).toBe(422);
  });

  it('exports due dates as Excel dates, the customer’s phone, the agent and days late; open instalments first by due date, paid last (docs/domain.md)', async () => {
    const token = await collector();
    const agent = await createStaff(db(), { name: 'Marta', surname: 'Ríos Vega' });
    const sale = await makeSale(db(), { saleDate: '2025-10-01', firstDue: '2025-11-01', lotCode: 'W1', agentId: agent.id });
    await runJob();
    // The schedule in due-date order: the down payment (2025-10-01), then 2025-11-01 … 2026-04-01.
    // Mark the instalment due 2025-12-01 paid (as an approved payment leaves it).
    await db()
      .updateTable('sale_instalments')
      .set((eb) => ({ paid: eb.ref('amount'), status: 'PAGADA', late_fee_accrued: 0 }))
      .where('sale_id', '=', sale.saleId)
      .where('due_date', '=', '2025-12-01')
      .execute();
    const phone = (await db().selectFrom('customers').select('phone').where('id', '=', sale.customer.id).executeTakeFirstOrThrow()).phone;
    const openDues = ['2025-10-01', '2025-11-01', '2026-01-01', '2026-02-01', '2026-03-01', '2026-04-01'];

    // The list's default order (no sort chosen): open by due date, the paid one last; an explicit sort keeps the due dates alone.
    const dues = async (query: string) =>
      instalmentsPageSchema
        .parse((await get(`/api/instalments?sale_id=${sale.saleId}&per_page=100${query}`, token)).json())
        .data.map((r) => r.due_date);
    expect(await dues('')).toEqual([...openDues, '2025-12-01']);
    expect(await dues('&sort=due_date')).toEqual([...openDues.slice(0, 2), '2025-12-01', ...openDues.slice(2)]);
    expect(await dues('&sort=-due_date')).toEqual([...openDues.slice(0, 2), '2025-12-01', ...openDues.slice(2)].reverse());

    const xlsx = await get(`/api/instalments/export?format=xlsx&sale_id=${sale.saleId}`, token);
    expect(xlsx.statusCode).toBe(200);
    const { default: ExcelJS } = await import('exceljs');
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(xlsx.rawPayload as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0]!;
    const header = (sheet.getRow(1).values as unknown[]).slice(1) as string[];
    const column = (name: string) => header.indexOf(name) + 1;
    for (const name of ['Teléfono', 'Asesor', 'Vencimiento', 'Días de atraso']) expect(header).toContain(name);
    expect(sheet.rowCount).toBe(8);
    const rows = Array.from({ length: 7 }, (_, i) => sheet.getRow(i + 2));
    const due = rows.map((row) => row.getCell(column('Vencimiento')));
    expect(due.every((cell) => cell.type === ExcelJS.ValueType.Date && cell.numFmt === 'dd/mm/yyyy')).toBe(true);
    expect(due.map((cell) => (cell.value as Date).toISOString().slice(0, 10))).toEqual([...openDues, '2025-12-01']);
    expect(rows.map((row) => row.getCell(column('Teléfono')).value)).toEqual(Array(7).fill(phone));
    expect(rows.map((row) => row.getCell(column('Asesor')).value)).toEqual(Array(7).fill('Marta Ríos Vega'));
    // Days late from the due date to today (2026-03-02), a number; 0 for the paid one and those not yet late.
    expect(rows.map((row) => row.getCell(column('Días de atraso')).value)).toEqual([152, 121, 60, 29, 1, 0, 0]);

    // The CSV: the same columns and order, the due date as dd/mm/yyyy text.
    const csv = await get(`/api/instalments/export?format=csv&sale_id=${sale.saleId}`, token);
    const lines = csv.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    const dueIndex = lines[0]!.split(',').indexOf('Vencimiento');
    expect(lines.slice(1).map((line) => line.split(',')[dueIndex])).toEqual([
      '01/10/2025',
      '01/11/2025',
      '01/01/2026',
      '01/02/2026',
      '01/03/2026',
      '01/04/2026',
      '01/12/2025',
    ]);
  });
});
