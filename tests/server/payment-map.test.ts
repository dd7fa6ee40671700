import { describe, expect, it } from 'vitest';
import { paymentMapResponseSchema, type PaymentMap } from '../../src/schemas/comercio/payment-map';
import { saleResponseSchema, type Sale } from '../../src/schemas/comercio/sales';
import { paymentResponseSchema } from '../../src/schemas/finanzas/payments';
import { lotMapResponseSchema } from '../../src/schemas/proyectos/projects';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { openInstalmentsOn } from '../../server/modules/finanzas/payments.service';
import { createCrmCustomer, createLot, createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/**
 * Mapa de Pagos (issue 16; docs/decisions.md "Mapa de Pagos"): GET /api/subdivisions/{key}/payment-map
 * buckets every sold lot by the days late of its oldest owed instalment after the grace, with an
 * injected clock; and the heat map's "días de atraso" reads the same days, after a real approval too.
 */
describe.each(dialects)('payment map (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db, { keepAnswers: true });
  let n = 0;

  const send = (method: 'POST' | 'GET', url: string, token: string, payload?: object) =>
    ctx().app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const seller = async () => createSession(db(), await createStaff(db(), { permissions: [MODULE.comercial, SUBMODULE.ventas] }));
  const reviewer = async () => createSession(db(), await createStaff(db(), { permissions: [MODULE.finanzas, SUBMODULE.pagos] }));

  /** A subdivision with `grace` days of grace. */
  async function subdivision(grace: number) {
    const s = await createSubdivision(db());
    await db().updateTable('subdivisions').set({ late_fee_grace_days: grace }).where('id', '=', s.id).execute();
    return s;
  }
  async function sell(token: string, subdivisionId: number, extra: object = { instalments: 0 }): Promise<{ lot: number; sale: Sale }> {
    const lot = await createLot(db(), subdivisionId, { block: 'PM', number: String(++n) });
    const res = await send('POST', '/api/sales', token, {
      lot_id: lot,
      holders: [{ customer_id: await createCrmCustomer(db()), role: 'TITULAR', share_percent: '100' }],
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(201);
    return { lot, sale: saleResponseSchema.parse(res.json()).data };
  }
  /** Moves every row of a cash sale (one INICIAL row) to `due`. */
  const dueOn = (saleId: number, due: string) =>
    db().updateTable('sale_instalments').set({ due_date: due }).where('sale_id', '=', saleId).execute();
  async function paymentMap(token: string, key: string): Promise<PaymentMap> {
    const res = await send('GET', `/api/subdivisions/${key}/payment-map`, token);
    expect(res.statusCode, res.body).toBe(200);
    return paymentMapResponseSchema.parse(res.json()).data;
  }
  const byLot = (map: PaymentMap) => new Map(map.lots.map((l) => [l.lot_id, l]));

  it('buckets each sold lot on every boundary (7 days, 30/31, 60/61, 90/91, paid off) with sums per bucket', async () => {
    const token = await seller();
    const s = await subdivision(0);
    // Today (Lima) will be 2026-06-15; each cash sale's single row is moved to a due date around it.
    const cases: Array<[string, string, string, number]> = [
      ['2026-06-23', 'AL_DIA', '8 days ahead', 0],
      ['2026-06-22', 'VENCE_7', '7 days ahead', 0],
      ['2026-06-15', 'VENCE_7', 'due today', 0],
      ['2026-06-14', 'D1_30', '1 day late', 1],
      ['2026-05-16', 'D1_30', '30 days late', 30],
      ['2026-05-15', 'D31_60', '31 days late', 31],
      ['2026-04-16', 'D31_60', '60 days late', 60],
      ['2026-04-15', 'D61_90', '61 days late', 61],
      ['2026-03-17', 'D61_90', '90 days late', 90],
      ['2026-03-16', 'MAS_90', '91 days late', 91],
    ];
    const sold: Array<{ lot: number; sale: Sale; bucket: string; what: string; days: number }> = [];
    for (const [due, bucket, what, days] of cases) {
      const { lot, sale } = await sell(token, s.id);
      await dueOn(sale.id, due);
      sold.push({ lot, sale, bucket, what, days });
    }
    // Paid off: every céntimo paid (the bucket reads the instalments, whatever the sale's state).
    const paidOff = await sell(token, s.id);
    await dueOn(paidOff.sale.id, '2026-03-01');
    await db()
      .updateTable('sale_instalments')
      .set((eb) => ({ paid: eb.ref('amount') }))
      .where('sale_id', '=', paidOff.sale.id)
      .execute();
    // Part paid and 45 days late: the overdue amount is what is left of it.
    const part = await sell(token, s.id);
    await dueOn(part.sale.id, '2026-05-01');
    await db().updateTable('sale_instalments').set({ paid: 100_00 }).where('sale_id', '=', part.sale.id).execute();
    // An annulled sale and an unsold lot are not on the map.
    const annulled = await sell(token, s.id);
    expect((await send('POST', `/api/sales/${annulled.sale.id}/annul`, token, { reason: 'Desistimiento' })).statusCode).toBe(200);
    const free = await createLot(db(), s.id, { block: 'PM', number: String(++n) });

    ctx().clock.set('2026-06-15T15:00:00Z');
    const map = await paymentMap(token, s.key);
    expect(map.today).toBe('2026-06-15');
    expect(map.subdivision).toMatchObject({ key: s.key, currency: 'PEN', grace_days: 0 });
    const lots = byLot(map);
    for (const c of sold) {
      const lot = lots.get(c.lot);
      expect([c.what, lot?.bucket, lot?.days_late]).toEqual([c.what, c.bucket, c.days]);
      expect(lot).toMatchObject({ sale_id: c.sale.id, sale_number: c.sale.number, balance: c.sale.final_price });
      expect(lot?.buyer).toBe(c.sale.holders[0]!.display_name);
      expect(lot?.overdue).toBe(c.days > 0 ? c.sale.final_price : 0);
    }
    expect(lots.get(paidOff.lot)).toMatchObject({ bucket: 'CANCELADO', days_late: 0, overdue: 0, balance: 0, next_due_date: null });
    expect(lots.get(part.lot)).toMatchObject({
      bucket: 'D31_60',
      days_late: 45,
      overdue: part.sale.final_price - 100_00,
      balance: part.sale.final_price - 100_00,
    });
    expect(lots.has(annulled.lot)).toBe(false);
    expect(lots.has(free)).toBe(false);

    // The summary lists every bucket in the legend's order with its lots and sums.
    expect(map.summary.map((b) => [b.bucket, b.lots])).toEqual([
      ['AL_DIA', 1],
      ['VENCE_7', 2],
      ['D1_30', 2],
      ['D31_60', 3],
      ['D61_90', 2],
      ['MAS_90', 1],
      ['CANCELADO', 1],
    ]);
    for (const b of map.summary) {
      const inIt = map.lots.filter((l) => l.bucket === b.bucket);
      expect(b.overdue).toBe(inIt.reduce((t, l) => t + l.overdue, 0));
      expect(b.balance).toBe(inIt.reduce((t, l) => t + l.balance, 0));
    }

    // The heat map's days late are the same days.
    const heat = lotMapResponseSchema.parse((await send('GET', `/api/subdivisions/${s.key}/map`, token)).json()).data.lots;
    for (const l of map.lots) expect(heat.find((h) => h.id === l.lot_id)?.days_late).toBe(l.days_late);
  });

  it('counts days late from the due date, grace days included (docs/domain.md): due today is VENCE_7, due yesterday is 1 day late', async () => {
    const token = await seller();
    const s = await subdivision(3);
    const dueToday = await sell(token, s.id);
    const inGrace = await sell(token, s.id);
    const lastGraceDay = await sell(token, s.id);
    await dueOn(dueToday.sale.id, '2026-06-15');
    await dueOn(inGrace.sale.id, '2026-06-14');
    await dueOn(lastGraceDay.sale.id, '2026-06-12');
    ctx().clock.set('2026-06-15T15:00:00Z');
    const lots = byLot(await paymentMap(token, s.key));
    expect(lots.get(dueToday.lot)).toMatchObject({ bucket: 'VENCE_7', days_late: 0, overdue: 0 });
    expect(lots.get(inGrace.lot)).toMatchObject({ bucket: 'D1_30', days_late: 1, overdue: inGrace.sale.final_price });
    expect(lots.get(lastGraceDay.lot)).toMatchObject({ bucket: 'D1_30', days_late: 3, overdue: lastGraceDay.sale.final_price });
  });

  it('follows an approved payment at once, on the payment map and on the heat map kept per revision', async () => {
    const token = await seller();
    const s = await subdivision(3);
    // Sold on 2026-03-02: down payment due that day, 3 instalments from 2026-04-01.
    const { lot, sale } = await sell(token, s.id, {
      down_payment_percent: '20',
      instalments: 3,
      monthly_rate_percent: '0',
      method: 'SIN_INTERES',
      first_due_date: '2026-04-01',
    });
    ctx().clock.set('2026-03-20T15:00:00Z');
    const heatDays = async () =>
      lotMapResponseSchema.parse((await send('GET', `/api/subdivisions/${s.key}/map`, token)).json()).data.lots.find((l) => l.id === lot)
        ?.days_late;
    // Due 2026-03-02 → 18 days late on 2026-03-20 (from the due date; the grace only delays the fee).
    expect(byLot(await paymentMap(token, s.key)).get(lot)).toMatchObject({ bucket: 'D1_30', days_late: 18 });
    expect(await heatDays()).toBe(18);

    // The down payment and its late fee, paid and approved today.
    const owed = (await openInstalmentsOn(db(), sale.id, '2026-03-20')).filter((i) => i.kind === 'INICIAL');
    const amount = owed.reduce((t, i) => t + i.amountDueCents + i.lateFeeDueCents, 0);
    const finance = await reviewer();
    const created = await send('POST', '/api/payments', finance, {
      sale_id: sale.id,
      amount,
      method: 'EFECTIVO',
      operation_date: '2026-03-20',
    });
    expect(created.statusCode, created.body).toBe(201);
    const payment = paymentResponseSchema.parse(created.json()).data;
    const approved = await send('POST', `/api/payments/${payment.id}/approve`, await reviewer(), { version: payment.version });
    expect(approved.statusCode, approved.body).toBe(200);

    // Next owed: the 1st instalment due 2026-04-01, 12 days ahead.
    expect(byLot(await paymentMap(token, s.key)).get(lot)).toMatchObject({
      bucket: 'AL_DIA',
      days_late: 0,
      overdue: 0,
      next_due_date: '2026-04-01',
    });
    expect(await heatDays()).toBe(0);
    ctx().clock.set('2026-03-25T15:00:00Z');
    expect(byLot(await paymentMap(token, s.key)).get(lot)?.bucket).toBe('VENCE_7');
  });

  it('answers 404 for an unknown key and 403 without Comercial + Ventas', async () => {
    const token = await seller();
    expect((await send('GET', '/api/subdivisions/nope/payment-map', token)).statusCode).toBe(404);
    const s = await subdivision(3);
    const other = await createSession(db(), await createStaff(db(), { permissions: [MODULE.finanzas, SUBMODULE.pagos] }));
    expect((await send('GET', `/api/subdivisions/${s.key}/payment-map`, other)).statusCode).toBe(403);
    const empty = await paymentMap(token, s.key);
    expect(empty.lots).toEqual([]);
    expect(empty.summary.every((b) => b.lots === 0 && b.balance === 0)).toBe(true);
  });
});
