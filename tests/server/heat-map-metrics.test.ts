import { describe, expect, it } from 'vitest';
import { saleResponseSchema } from '../../src/schemas/comercio/sales';
import { lotMapResponseSchema } from '../../src/schemas/proyectos/projects';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { createCrmCustomer, createLot, createRole, createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/**
 * The heat map's sales metrics on GET /api/subdivisions/{key}/map (docs/decisions.md "Heat map
 * metrics", "Mapa de Pagos"): a lot with a live sale carries its sale date and days late (after the
 * subdivision's grace, 3 days by default); other lots null. The test clock starts on 2026-03-02 (Lima);
 * the answer kept per revision must follow the day and the payments.
 */
describe.each(dialects)('heat map metrics (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db, { keepAnswers: true });
  let n = 0;

  async function seller() {
    const role = `Calor ${dialect} ${++n}`;
    await createRole(db(), role, [MODULE.comercial, SUBMODULE.ventas]);
    const staff = await createStaff(db(), { roleNames: [role], clock: ctx().clock });
    return createSession(db(), staff);
  }
  const send = (method: 'POST' | 'GET', url: string, token: string, payload?: object) =>
    ctx().app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  async function sell(token: string, lotId: number, extra: object) {
    const res = await send('POST', '/api/sales', token, {
      lot_id: lotId,
      holders: [{ customer_id: await createCrmCustomer(db()), role: 'TITULAR', share_percent: '100' }],
      ...extra,
    });
    expect(res.statusCode, res.body).toBe(201);
    return saleResponseSchema.parse(res.json()).data;
  }
  async function mapOf(token: string, key: string) {
    const res = await send('GET', `/api/subdivisions/${key}/map`, token);
    expect(res.statusCode, res.body).toBe(200);
    const lots = lotMapResponseSchema.parse(res.json()).data.lots;
    return new Map(lots.map((l) => [l.id, { sale_date: l.sale_date, days_late: l.days_late }]));
  }

  it('gives sold lots their sale date and days late from the due date of the oldest owed instalment; others null', async () => {
    const token = await seller();
    const s = await createSubdivision(db());
    const [financed, cash, annulled, free] = [
      await createLot(db(), s.id, { block: 'H', number: '1' }),
      await createLot(db(), s.id, { block: 'H', number: '2' }),
      await createLot(db(), s.id, { block: 'H', number: '3' }),
      await createLot(db(), s.id, { block: 'H', number: '4' }),
    ];
    const sale = await sell(token, financed, {
      down_payment_percent: '20',
      instalments: 12,
      monthly_rate_percent: '0',
      method: 'SIN_INTERES',
      first_due_date: '2026-04-01',
    });
    await sell(token, cash, { instalments: 0 });
    const gone = await sell(token, annulled, { instalments: 0 });
    expect((await send('POST', `/api/sales/${gone.id}/annul`, token, { reason: 'Desistimiento' })).statusCode).toBe(200);
    // Everything paid but the 2nd instalment (due 2026-05-01), paid in part, and the 3rd (2026-06-01).
    await db()
      .updateTable('sale_instalments')
      .set((eb) => ({ paid: eb.ref('amount') }))
      .where('sale_id', '=', sale.id)
      .execute();
    await db()
      .updateTable('sale_instalments')
      .set({ paid: 100 })
      .where('sale_id', '=', sale.id)
      .where('kind', '=', 'CUOTA')
      .where('number', 'in', [2, 3])
      .execute();

    // On the sale's day nothing owed is due yet.
    let map = await mapOf(token, s.key);
    expect(map.get(financed)).toEqual({ sale_date: '2026-03-02', days_late: 0 });
    expect(map.get(cash)).toEqual({ sale_date: '2026-03-02', days_late: 0 });
    expect(map.get(annulled)).toEqual({ sale_date: null, days_late: null });
    expect(map.get(free)).toEqual({ sale_date: null, days_late: null });

    // 2026-05-01 in Lima: the 2nd instalment is due today, not before it → still 0.
    ctx().clock.set('2026-05-01T15:00:00Z');
    expect((await mapOf(token, s.key)).get(financed)?.days_late).toBe(0);
    // Days late count from the due date (docs/domain.md; the grace only delays the late fee): 2026-05-02 is
    // the first late day, within the grace or not.
    ctx().clock.set('2026-05-02T15:00:00Z');
    expect((await mapOf(token, s.key)).get(financed)?.days_late).toBe(1);
    ctx().clock.set('2026-05-04T15:00:00Z');
    expect((await mapOf(token, s.key)).get(financed)?.days_late).toBe(3);
    // 04:00Z on 2026-06-10 is still 2026-06-09 in Lima: owed since 2026-05-01 → 39 days.
    ctx().clock.set('2026-06-10T04:00:00Z');
    map = await mapOf(token, s.key);
    expect(map.get(financed)).toEqual({ sale_date: '2026-03-02', days_late: 39 });
    // The cash sale's single INICIAL row (due on the sale's day) was never paid: 2026-03-02 → 2026-06-09.
    expect(map.get(cash)?.days_late).toBe(99);

    // The 2nd paid in full: the oldest owed is now the 3rd (due 2026-06-01) → 8 days at once (the kept
    // answer follows the sales revision, which the instalments' `paid` moves), 9 the next day.
    await db()
      .updateTable('sale_instalments')
      .set((eb) => ({ paid: eb.ref('amount') }))
      .where('sale_id', '=', sale.id)
      .where('kind', '=', 'CUOTA')
      .where('number', '=', 2)
      .execute();
    expect((await mapOf(token, s.key)).get(financed)?.days_late).toBe(8);
    ctx().clock.set('2026-06-10T15:00:00Z');
    expect((await mapOf(token, s.key)).get(financed)?.days_late).toBe(9);
  });

  it('answers a subdivision without sales with null metrics and does not mix in another subdivision’s sales', async () => {
    const token = await seller();
    const [a, b] = [await createSubdivision(db()), await createSubdivision(db())];
    const sold = await createLot(db(), a.id, { block: 'A', number: '1' });
    const other = await createLot(db(), b.id, { block: 'A', number: '1' });
    await sell(token, sold, { instalments: 0 });
    expect((await mapOf(token, b.key)).get(other)).toEqual({ sale_date: null, days_late: null });
    expect((await mapOf(token, a.key)).get(sold)).toEqual({ sale_date: '2026-03-02', days_late: 0 });
  });
});
