import { describe, expect, it } from 'vitest';
import { saleResponseSchema, type Sale } from '../../src/schemas/comercio/sales';
import {
  RESCHEDULE_MESSAGES,
  RESCISSION_MESSAGES,
  reschedulePreviewResponseSchema,
  saleRescissionResponseSchema,
  saleSchedulesResponseSchema,
} from '../../src/schemas/comercio/rescissions';
import { paymentResponseSchema } from '../../src/schemas/finanzas/payments';
import { ACTION, MODULE, SUBMODULE } from '../../src/schemas/permissions';
import {
  createCrmCustomer,
  createLot,
  createSession,
  createStaff,
  createSubdivision,
  setSaleBackdateDays,
} from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/**
 * Rescission (Código Civil arts. 1561–1563) and rescheduling (adenda) of a sale (docs/domain.md
 * "Rescission", "Rescheduling (adenda)"). Test clock: 2026-03-02 (Lima). The sales are back-dated
 * to 2025-11-02: S/ 30 000.00, 20 % down (S/ 6 000.00 due that day), 6 interest-free instalments of
 * S/ 4 000.00 due on the 1st from 2025-12-01 — so on 2026-03-02 the instalments of 12-01, 01-01,
 * 02-01 and 03-01 are overdue (91, 60, 29 and 1 days late) when unpaid.
 */
describe.each(dialects)('sale rescission and rescheduling (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);
  let n = 0;

  const send = (method: 'POST' | 'GET', url: string, token: string, payload?: unknown) =>
    ctx().app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const staff = async (extra: string[] = [ACTION.resolverContratos, ACTION.reprogramarVentas]) =>
    createSession(
      db(),
      await createStaff(db(), {
        permissions: [MODULE.comercial, SUBMODULE.ventas, MODULE.finanzas, SUBMODULE.pagos, ...(extra as never[])],
      }),
    );

  async function sale(token: string, options: { instalments?: number; method?: string; rate?: string } = {}): Promise<Sale> {
    await setSaleBackdateDays(db(), 366);
    const subdivision = await createSubdivision(db());
    const lotId = await createLot(db(), subdivision.id, { block: 'R', number: String(++n) });
    const res = await send('POST', '/api/sales', token, {
      lot_id: lotId,
      holders: [{ customer_id: await createCrmCustomer(db()), role: 'TITULAR', share_percent: '100' }],
      sale_date: '2025-11-02',
      down_payment_percent: '20',
      instalments: options.instalments ?? 6,
      monthly_rate_percent: options.rate ?? '0',
      method: options.method ?? 'SIN_INTERES',
      first_due_date: '2025-12-01',
    });
    expect(res.statusCode, res.body).toBe(201);
    return saleResponseSchema.parse(res.json()).data;
  }

  /** Registers and approves (another staff member) a cash payment dated `date`. */
  async function pay(token: string, saleId: number, amount: number, date: string): Promise<number> {
    const registered = await send('POST', '/api/payments', token, { sale_id: saleId, amount, method: 'EFECTIVO', operation_date: date });
    expect(registered.statusCode, registered.body).toBe(201);
    const id = paymentResponseSchema.parse(registered.json()).data.id;
    const approved = await send('POST', `/api/payments/${id}/approve`, await staff([]), {});
    expect(approved.statusCode, approved.body).toBe(200);
    return id;
  }
  const preview = async (token: string, id: number) => {
    const res = await send('GET', `/api/sales/${id}/rescission`, token);
    expect(res.statusCode, res.body).toBe(200);
    return saleRescissionResponseSchema.parse(res.json()).data;
  };
  const saleState = async (id: number) =>
    db()
      .selectFrom('sales')
      .innerJoin('lots', 'lots.id', 'sales.lot_id')
      .select(['sales.status', 'lots.status as lot'])
      .where('sales.id', '=', id)
      .executeTakeFirstOrThrow();
  const rescissionsOf = (id: number) => db().selectFrom('sale_rescissions').selectAll().where('sale_id', '=', id).execute();

  it('preview: unpaid rows with days late from the due date, the count against 3, paid, penalty 10 % and refund', async () => {
    const token = await staff();
    const s = await sale(token);
    await pay(token, s.id, 600_000, '2025-11-02');
    await pay(token, s.id, 400_000, '2025-12-01');
    const data = await preview(token, s.id);
    expect(data).toMatchObject({
      allowed: true,
      reasons: [],
      as_of: '2026-03-02',
      required_overdue: 3,
      overdue_instalments: 3,
      paid: 1_000_000,
      paid_to_price: 1_000_000,
      paid_share_percent: '33.33',
      paid_share_limit_pct: null,
      penalty_pct: 10,
      penalty: 100_000,
      refund: 900_000,
      unpaid_amount: 2_000_000,
    });
    expect(data.instalments.map((r) => [r.number, r.due_date, r.unpaid, r.days_late, r.overdue])).toEqual([
      [2, '2026-01-01', 400_000, 60, true],
      [3, '2026-02-01', 400_000, 29, true],
      [4, '2026-03-01', 400_000, 1, true],
      [5, '2026-04-01', 400_000, 0, false],
      [6, '2026-05-01', 400_000, 0, false],
    ]);
    expect((await send('GET', '/api/sales/999999/rescission', token)).statusCode).toBe(404);
  });

  it('2 overdue of 3: refused in Spanish (409), nothing written', async () => {
    const token = await staff();
    const s = await sale(token);
    await pay(token, s.id, 600_000, '2025-11-02');
    await pay(token, s.id, 400_000, '2025-12-01');
    await pay(token, s.id, 400_000, '2026-01-01');
    const data = await preview(token, s.id);
    expect(data.allowed).toBe(false);
    expect(data.reasons[0]).toContain('(2 de 3, art. 1561)');
    const res = await send('POST', `/api/sales/${s.id}/rescind`, token, { reason: 'Incumplimiento de pago' });
    expect(res.statusCode).toBe(409);
    expect((res.json() as { message: string }).message).toContain(RESCISSION_MESSAGES.tooFewOverdue);
    expect(await saleState(s.id)).toEqual({ status: 'EN_CUOTAS', lot: 'VENDIDO' });
    expect(await rescissionsOf(s.id)).toEqual([]);
    expect(await db().selectFrom('sale_settlements').select('id').where('sale_id', '=', s.id).execute()).toEqual([]);
  });

  it('3 overdue: RESUELTA, lot DISPONIBLE with its history, money settled paid = penalty + refund, a rescission row', async () => {
    const token = await staff();
    const s = await sale(token);
    const first = await pay(token, s.id, 600_000, '2025-11-02');
    await pay(token, s.id, 400_000, '2025-12-01');
    const seen = await preview(token, s.id);
    const res = await send('POST', `/api/sales/${s.id}/rescind`, token, {
      reason: 'Incumplimiento de pago de tres cuotas',
      version: seen.version,
      penalty: 100_000,
      refund: 900_000,
    });
    expect(res.statusCode, res.body).toBe(200);
    const resolved = saleResponseSchema.parse(res.json()).data;
    expect(resolved).toMatchObject({
      status: 'RESUELTA',
      balance: 0,
      rescission: { overdue_instalments: 3, required_overdue: 3, paid: 1_000_000, penalty: 100_000, refund: 900_000 },
      settlement: { mode: 'REEMBOLSO', paid: 1_000_000, penalty: 100_000, refund: 900_000, credited: 0 },
    });
    expect(await saleState(s.id)).toEqual({ status: 'RESUELTA', lot: 'DISPONIBLE' });
    const [row] = await rescissionsOf(s.id);
    expect(Number(row!.paid)).toBe(Number(row!.penalty) + Number(row!.refund));
    expect(JSON.parse(row!.detail)).toHaveLength(3);
    const history = await db()
      .selectFrom('lot_status_changes')
      .select(['from_status', 'to_status', 'reason'])
      .where('lot_id', '=', s.lot.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(history).toMatchObject({ from_status: 'VENDIDO', to_status: 'DISPONIBLE' });
    expect(history.reason).toContain(`Venta ${s.number} resuelta`);
    const payment = await db().selectFrom('payments').select(['status', 'annul_reason']).where('id', '=', first).executeTakeFirstOrThrow();
    expect(payment.status).toBe('ANULADO');
    expect(payment.annul_reason).toContain(`Venta ${s.number} resuelta (reembolso`);
    // The lot may be sold again; a second rescission is refused.
    const again = await send('POST', `/api/sales/${s.id}/rescind`, token, { reason: 'Otra vez' });
    expect(again.statusCode).toBe(409);
    const lot = await db().selectFrom('lots').select('status').where('id', '=', s.lot.id).executeTakeFirstOrThrow();
    expect(lot.status).toBe('DISPONIBLE');
  });

  it('refuses in Spanish: a penalty above the policy, a wrong refund, a short reason, unknown keys, no permission', async () => {
    const token = await staff();
    const s = await sale(token);
    await pay(token, s.id, 600_000, '2025-11-02');
    const rescind = (body: object, who = token) => send('POST', `/api/sales/${s.id}/rescind`, who, { reason: 'Incumplimiento', ...body });
    const penalty = await rescind({ penalty: 60_001 });
    expect(penalty.statusCode).toBe(422);
    expect((penalty.json() as { errors: Record<string, string[]> }).errors.penalty?.[0]).toContain(RESCISSION_MESSAGES.penaltyTooHigh);
    const refund = await rescind({ penalty: 10_000, refund: 600_000 });
    expect(refund.statusCode).toBe(422);
    expect((refund.json() as { errors: Record<string, string[]> }).errors.refund?.[0]).toBe(RESCISSION_MESSAGES.refundMismatch);
    for (const body of [{ reason: 'x' }, { extra: 1 }, { penalty: -1 }, { penalty: 1.5 }, { version: 0 }]) {
      const res = await rescind(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(422);
      expect((res.json() as { message: string }).message).toMatch(/[a-záéíóúñ]/i);
    }
    expect((await rescind({}, await staff([]))).statusCode).toBe(403);
    expect(await saleState(s.id)).toEqual({ status: 'EN_CUOTAS', lot: 'VENDIDO' });
    // A lower penalty is the seller's to keep (art. 1563 is a ceiling).
    const ok = await rescind({ penalty: 0, refund: 600_000 });
    expect(ok.statusCode, ok.body).toBe(200);
  });

  it('art. 1562: a subdivision limit on the paid share blocks the rescission', async () => {
    const token = await staff();
    const s = await sale(token);
    const sub = await db().selectFrom('sales').select('subdivision_id').where('id', '=', s.id).executeTakeFirstOrThrow();
    await db().updateTable('subdivisions').set({ rescission_paid_share_limit_pct: 20 }).where('id', '=', sub.subdivision_id).execute();
    await pay(token, s.id, 600_000, '2025-11-02');
    const data = await preview(token, s.id);
    expect(data.allowed).toBe(false);
    expect(data.reasons.join()).toContain('art. 1562');
    expect((await send('POST', `/api/sales/${s.id}/rescind`, token, { reason: 'Incumplimiento' })).statusCode).toBe(409);
  });

  it('a rescission and an approval at once: either the approval lands and the rescission is refused, or the rescission wins and the approval is refused', async () => {
    const token = await staff();
    const s = await sale(token);
    await pay(token, s.id, 600_000, '2025-11-02');
    await pay(token, s.id, 400_000, '2025-12-01');
    const registered = await send('POST', '/api/payments', token, {
      sale_id: s.id,
      amount: 400_000,
      method: 'EFECTIVO',
      operation_date: '2026-01-01',
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const pending = paymentResponseSchema.parse(registered.json()).data;
    const checker = await staff([]);
    const [rescinded, approved] = await Promise.all([
      send('POST', `/api/sales/${s.id}/rescind`, token, { reason: 'Incumplimiento', penalty: 100_000, refund: 900_000 }),
      send('POST', `/api/payments/${pending.id}/approve`, checker, {}),
    ]);
    const status = (await saleState(s.id)).status;
    if (rescinded.statusCode === 200) {
      expect(approved.statusCode).toBe(409);
      expect(status).toBe('RESUELTA');
      expect(await rescissionsOf(s.id)).toHaveLength(1);
      const p = await db().selectFrom('payments').select('status').where('id', '=', pending.id).executeTakeFirstOrThrow();
      expect(p.status).toBe('PENDIENTE');
    } else {
      expect(rescinded.statusCode).toBe(409);
      expect(approved.statusCode).toBe(200);
      expect(status).toBe('EN_CUOTAS');
      expect(await rescissionsOf(s.id)).toEqual([]);
    }
  });

  it('reschedule: the open balance in a new schedule, the old one kept read-only, late fees carried; waive recorded', async () => {
    const token = await staff();
    const s = await sale(token);
    await pay(token, s.id, 600_000, '2025-11-02');
    await pay(token, s.id, 400_000, '2025-12-01');
    // Part of instalment 2 paid late: its late fees are paid first (S/ 5.00 a day after 3 days of grace).
    await pay(token, s.id, 150_000, '2026-01-10');
    const query = 'method=FRANCES&instalments=12&monthly_rate_percent=1.5&first_due_date=2026-04-01&late_fees=CARRY';
    const res = await send('GET', `/api/sales/${s.id}/reschedule?${query}`, token);
    expect(res.statusCode, res.body).toBe(200);
    const p = reschedulePreviewResponseSchema.parse(res.json()).data;
    expect(p.allowed).toBe(true);
    const paidToCuota2 = (
      await db()
        .selectFrom('sale_instalments')
        .select('paid')
        .where('sale_id', '=', s.id)
        .where('kind', '=', 'CUOTA')
        .where('number', '=', 2)
        .executeTakeFirstOrThrow()
    ).paid;
    expect(p.balance).toBe(2_000_000 - Number(paidToCuota2));
    expect(p.late_fees).toBeGreaterThan(0);
    expect(p.financed).toBe(p.balance + p.late_fees);
    expect(p.rows).toHaveLength(12);
    expect(p.rows.reduce((sum, r) => sum + r.capital, 0)).toBe(p.financed);
    expect(p.rows.reduce((sum, r) => sum + r.amount, 0)).toBe(p.total);

    const current = saleResponseSchema.parse((await send('GET', `/api/sales/${s.id}`, token)).json()).data;
    const done = await send('POST', `/api/sales/${s.id}/reschedule`, token, {
      method: 'FRANCES',
      instalments: 12,
      monthly_rate_percent: '1.5',
      first_due_date: '2026-04-01',
      late_fees: 'CARRY',
      reason: 'Pérdida de empleo del titular',
      version: current.version,
    });
    expect(done.statusCode, done.body).toBe(200);
    const after = saleResponseSchema.parse(done.json()).data;
    expect(after.status).toBe('EN_CUOTAS');
    const fresh = after.schedule.filter((r) => r.schedule_number === 2);
    expect(fresh).toHaveLength(12);
    expect(fresh.reduce((sum, r) => sum + r.capital, 0)).toBe(p.financed);
    expect(after.schedule.filter((r) => r.status === 'VENCIDA')).toEqual([]);
    // Σ of the live schedule − paid = the new schedule's total (nothing owed on the closed rows).
    expect(after.balance).toBe(p.total);
    const schedules = saleSchedulesResponseSchema.parse((await send('GET', `/api/sales/${s.id}/schedules`, token)).json()).data;
    expect(schedules.map((x) => [x.number, x.current])).toEqual([
      [2, true],
      [1, false],
    ]);
    expect(schedules[1]!.rows.filter((r) => r.kind === 'CUOTA')).toHaveLength(6);
    expect(schedules[1]!.replaced_by).toMatchObject({ late_fee_mode: 'CARRY', late_fee_amount: p.late_fees, balance: p.balance });
    // A stale version is a 409.
    const stale = await send('POST', `/api/sales/${s.id}/reschedule`, token, {
      method: 'SIN_INTERES',
      instalments: 3,
      monthly_rate_percent: '0',
      first_due_date: '2026-04-01',
      late_fees: 'WAIVE',
      reason: 'Otra',
      version: current.version,
    });
    expect(stale.statusCode).toBe(409);
    // WAIVE: the fees are recorded as waived; the new schedule finances the balance alone.
    const waived = await send('POST', `/api/sales/${s.id}/reschedule`, token, {
      method: 'SIN_INTERES',
      instalments: 5,
      monthly_rate_percent: '0',
      first_due_date: '2026-05-15',
      late_fees: 'WAIVE',
      reason: 'Segunda adenda',
      version: after.version,
    });
    expect(waived.statusCode, waived.body).toBe(200);
    const record = await db()
      .selectFrom('sale_reschedules')
      .selectAll()
      .where('sale_id', '=', s.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(record).toMatchObject({ late_fee_mode: 'WAIVE', schedule_number: 3, reason: 'Segunda adenda' });
    expect(Number(record.financed)).toBe(Number(record.balance));
    expect(Number(record.total)).toBe(Number(record.balance));
  });

  it('reschedule refusals: bad dates, a sale not in instalments, no permission — Spanish 4xx, nothing written', async () => {
    const token = await staff();
    const s = await sale(token);
    const body = (extra: object) => ({
      method: 'SIN_INTERES',
      instalments: 3,
      monthly_rate_percent: '0',
      first_due_date: '2026-04-01',
      late_fees: 'WAIVE',
      reason: 'Acuerdo',
      version: s.version,
      ...extra,
    });
    const post = (extra: object, who = token) => send('POST', `/api/sales/${s.id}/reschedule`, who, body(extra));
    // Down payment unpaid: not EN_CUOTAS.
    const early = await post({});
    expect(early.statusCode).toBe(409);
    expect((early.json() as { message: string }).message).toBe(RESCHEDULE_MESSAGES.notReschedulable);
    // With the down payment paid the sale is EN_CUOTAS: the terms are checked.
    await pay(token, s.id, 600_000, '2025-11-02');
    s.version = saleResponseSchema.parse((await send('GET', `/api/sales/${s.id}`, token)).json()).data.version;
    for (const extra of [
      { first_due_date: '2026-03-02' },
      { first_due_date: '2027-03-03' },
      { first_due_date: '2026-02-30' },
      { instalments: 0 },
      { instalments: 361 },
      { method: 'ALEMAN' },
      { late_fees: 'MAYBE' },
      { monthly_rate_percent: '6' },
      { unknown: true },
    ]) {
      const res = await post(extra);
      expect(res.statusCode, JSON.stringify(extra)).toBe(422);
      expect((res.json() as { message: string }).message).toMatch(/[a-záéíóúñ]/i);
    }
    expect((await post({}, await staff([ACTION.resolverContratos]))).statusCode).toBe(403);
    expect(await db().selectFrom('sale_reschedules').select('id').where('sale_id', '=', s.id).execute()).toEqual([]);
  });
});
