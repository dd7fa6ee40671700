import { describe, expect, it } from 'vitest';
import { SALE_MESSAGES, saleResponseSchema, salesPageSchema } from '../../src/schemas/comercio/sales';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { STALE_RECORD_MESSAGE } from '../../src/schemas/versions';
import {
  createCrmCustomer,
  createLot,
  createRole,
  createSession,
  createStaff,
  createSubdivision,
  setSaleBackdateDays,
} from '../../server/testing/fixtures';
import { paymentResponseSchema } from '../../src/schemas/finanzas/payments';
import { CALENDAR_DATE_MESSAGES } from '../../src/schemas/common';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';
import { Temporal } from 'temporal-polyfill';
import { planTerms } from '../../src/lib/comercio/quote-plan';
import { planRows } from '../../src/lib/comercio/schedule-edit';

/** Ventas: /api/sales and the 50-request race (issue "CRM and sales"). The test clock's today in Lima is 2026-03-02. */

describe.each(dialects)('sales (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);
  let n = 0;

  async function seller() {
    const role = `Vende ${dialect} ${++n}`;
    await createRole(db(), role, [MODULE.comercial, SUBMODULE.ventas]);
    const staff = await createStaff(db(), { roleNames: [role], clock: ctx().clock });
    return { staff, token: await createSession(db(), staff) };
  }
  /** A DISPONIBLE lot of S/ 30 000.00 (120 m² × S/ 250.00) in a fresh subdivision. */
  async function freshLot() {
    const subdivision = await createSubdivision(db());
    return createLot(db(), subdivision.id, { block: 'C', number: String(++n) });
  }
  const send = (method: 'POST' | 'GET', url: string, token: string, payload?: unknown) =>
    ctx().app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const lotStatus = async (id: number) =>
    (await db().selectFrom('lots').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
  const financed = (lotId: number, holders: { customer_id: number; role: string; share_percent: string }[], extra: object = {}) => ({
    lot_id: lotId,
    holders,
    down_payment_percent: '20',
    instalments: 24,
    monthly_rate_percent: '1.5',
    method: 'FRANCES',
    first_due_date: '2026-04-01',
    ...extra,
  });

  it('sells a DISPONIBLE lot in 24 FRANCES instalments to a married couple: VENDIDO, the schedule stored row by row, the leads concluded', async () => {
    const { token, staff } = await seller();
    const lotId = await freshLot();
    const [husband, wife] = [await createCrmCustomer(db()), await createCrmCustomer(db())];
    const stamp = new Date().toISOString();
    await db()
      .insertInto('leads')
      .values({
        name: 'Lead',
        phone: '987000999',
        email: null,
        id_document_type: null,
        document_number: null,
        channel: 'WEB',
        campaign: null,
        notes: null,
        agent_id: staff.id,
        status: 'EN_ATENCION',
        lost_reason: null,
        next_follow_up_at: null,
        customer_id: wife,
        last_activity_at: null,
        received_at: stamp,
        created_by: null,
        created_at: stamp,
        updated_at: stamp,
      })
      .execute();
    const res = await send(
      'POST',
      '/api/sales',
      token,
      financed(lotId, [
        { customer_id: husband, role: 'TITULAR', share_percent: '50' },
        { customer_id: wife, role: 'CONYUGE', share_percent: '50.00' },
      ]),
    );
    expect(res.statusCode, res.body).toBe(201);
    const { data } = saleResponseSchema.parse(res.json());
    expect(data).toMatchObject({
      number: `V-${String(data.id).padStart(6, '0')}`,
      sale_date: '2026-03-02',
      type: 'FINANCIADO',
      final_price: 3_000_000,
      down_payment: 600_000,
      financed: 2_400_000,
      status: 'REGISTRADA',
      agent: { id: staff.id },
      reservation_credit: 0,
      paid: 0,
    });
    expect(data.holders.map((h) => [h.id, h.role, h.share_percent])).toEqual([
      [husband, 'TITULAR', '50.00'],
      [wife, 'CONYUGE', '50.00'],
    ]);
    const cuotas = data.schedule.filter((r) => r.kind === 'CUOTA');
    expect(cuotas).toHaveLength(24);
    expect(cuotas.reduce((sum, r) => sum + r.capital, 0)).toBe(2_400_000);
    expect(data.schedule.filter((r) => r.kind === 'INICIAL')).toEqual([
      expect.objectContaining({ number: 1, due_date: '2026-03-02', amount: 600_000 }),
    ]);
    expect(data.balance).toBe(3_000_000 + data.total_interest);
    expect(await lotStatus(lotId)).toBe('VENDIDO');
    const lead = await db().selectFrom('leads').select('status').where('customer_id', '=', wife).executeTakeFirstOrThrow();
    expect(lead.status).toBe('CONCRETADO');
    const list = salesPageSchema.parse((await send('GET', `/api/sales?customer_id=${wife}`, token)).json());
    expect(list.data.map((s) => s.id)).toEqual([data.id]);
  });

  it("credits only the reservation's approved payments: refused while its payment awaits review, then credited as that payment's allocations", async () => {
    const { token } = await seller();
    const finance = await createSession(db(), await createStaff(db(), { permissions: [MODULE.finanzas, SUBMODULE.pagos] }));
    // Another reviewer approves: who registered a payment does not (docs/domain.md "Payments: segregation of duties").
    const checker = await createSession(db(), await createStaff(db(), { permissions: [MODULE.finanzas, SUBMODULE.pagos] }));
    const lotId = await freshLot();
    const buyer = await createCrmCustomer(db());
    const reserved = await send('POST', '/api/reservations', token, {
      customer_id: buyer,
      lot_id: lotId,
      amount: 100_000,
      conditions_accepted: true,
    });
    expect(reserved.statusCode).toBe(201);
    const reservationId = reserved.json().data.id as number;
    const terms = financed(lotId, [{ customer_id: buyer, role: 'TITULAR', share_percent: '100' }], { down_payment_parts: 2 });

    // PENDIENTE_PAGO (no payment, then one registered but not yet approved): no money to credit, no sale.
    const unpaid = await send('POST', '/api/sales', token, terms);
    expect(unpaid.statusCode, unpaid.body).toBe(409);
    expect(unpaid.json().message).toBe(SALE_MESSAGES.reservationUnpaid);
    const payment = await send('POST', '/api/payments', finance, {
      reservation_id: reservationId,
      amount: 100_000,
      method: 'EFECTIVO',
      operation_date: '2026-03-02',
    });
    expect(payment.statusCode, payment.body).toBe(201);
    const paymentId = payment.json().data.id as number;
    expect((await send('POST', '/api/sales', token, terms)).statusCode).toBe(409);
    expect(await lotStatus(lotId)).toBe('SEPARADO');
    expect(await db().selectFrom('sales').select('id').where('lot_id', '=', lotId).execute()).toEqual([]);

    // Approved: the reservation is VIGENTE and the sale credits exactly that payment, as its allocation.
    expect((await send('POST', `/api/payments/${paymentId}/approve`, checker, {})).statusCode).toBe(200);
    const res = await send('POST', '/api/sales', token, terms);
    expect(res.statusCode, res.body).toBe(201);
    const { data } = saleResponseSchema.parse(res.json());
    expect(data).toMatchObject({ reservation_credit: 100_000, paid: 100_000, reservation_id: reservationId, status: 'INICIAL_PENDIENTE' });
    const inicial = data.schedule.filter((r) => r.kind === 'INICIAL');
    expect(inicial.map((r) => [r.amount, r.paid, r.status])).toEqual([
      [300_000, 100_000, 'PARCIAL'],
      [300_000, 0, 'PENDIENTE'],
    ]);
    const allocations = await db().selectFrom('payment_allocations').selectAll().where('payment_id', '=', paymentId).execute();
    expect(allocations.map((a) => [Number(a.to_capital), Number(a.to_late_fee)])).toEqual([[100_000, 0]]);
    // The payments screen and the receipt show where the money went.
    const shown = paymentResponseSchema.parse((await send('GET', `/api/payments/${paymentId}`, finance)).json()).data;
    expect(shown.credited_sale).toEqual({ id: data.id, number: data.number });
    expect(shown.allocations.map((a) => [a.kind, a.number, a.to_capital])).toEqual([['INICIAL', 1, 100_000]]);
    const reservation = await db().selectFrom('reservations').select('status').where('lot_id', '=', lotId).executeTakeFirstOrThrow();
    expect(reservation.status).toBe('CONVERTIDA');
    expect(await lotStatus(lotId)).toBe('VENDIDO');
  });

  it('bounds the sale date by the company window (default 60 days back, never future) and checks the quote against the lot and buyers', async () => {
    const { token } = await seller();
    const buyer = await createCrmCustomer(db());
    const holders = [{ customer_id: buyer, role: 'TITULAR', share_percent: '100' }];
    const cash = (lotId: number, extra: object = {}) => ({ lot_id: lotId, holders, instalments: 0, ...extra });
    const lotId = await freshLot();
    const refused: Array<[object, string, string]> = [
      [{ sale_date: '0001-01-01' }, 'sale_date', CALENDAR_DATE_MESSAGES.outOfRange],
      [{ sale_date: '1990-01-01' }, 'sale_date', `${SALE_MESSAGES.saleDateTooOld} 01/01/2026 (60 días antes de hoy)`],
      [{ sale_date: '2025-12-31' }, 'sale_date', `${SALE_MESSAGES.saleDateTooOld} 01/01/2026 (60 días antes de hoy)`],
      [{ sale_date: '2026-03-03' }, 'sale_date', SALE_MESSAGES.futureSaleDate],
      [{ quote_id: 999_999 }, 'quote_id', SALE_MESSAGES.unknownQuote],
    ];
    for (const [extra, field, message] of refused) {
      const res = await send('POST', '/api/sales', token, cash(lotId, extra));
      expect(res.statusCode, JSON.stringify(extra)).toBe(422);
      expect(res.json().errors[field], JSON.stringify(extra)).toEqual([message]);
    }
    // A quote of another lot, and one of a customer who is not buying.
    const other = await freshLot();
    const quote = async (lot: number, customer: number) =>
      (
        await db()
          .insertInto('quotes')
          .values({
            lot_id: lot,
            customer_id: customer,
            agent_id: null,
            currency: 'PEN',
            list_price: 3_000_000,
            discount: 0,
            discount_percent: null,
            final_price: 3_000_000,
            down_payment: 3_000_000,
            down_payment_percent: null,
            down_payment_parts: 1,
            financed: 0,
            instalments: 0,
            monthly_rate_percent: '0',
            method: 'SIN_INTERES',
            first_due_date: null,
            quote_date: '2026-03-02',
            valid_until: '2026-03-09',
            status: 'BORRADOR',
            created_by: null,
            created_at: '2026-03-02T15:00:00.000Z',
            updated_at: '2026-03-02T15:00:00.000Z',
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const otherLot = await send('POST', '/api/sales', token, cash(lotId, { quote_id: await quote(other, buyer) }));
    expect(otherLot.json().errors.quote_id).toEqual([SALE_MESSAGES.quoteOtherLot]);
    const otherBuyer = await send(
      'POST',
      '/api/sales',
      token,
      cash(lotId, { quote_id: await quote(lotId, await createCrmCustomer(db())) }),
    );
    expect(otherBuyer.json().errors.quote_id).toEqual([SALE_MESSAGES.quoteOtherCustomer]);
    expect(await lotStatus(lotId)).toBe('DISPONIBLE');
    // Within the window, with the buyer's quote of this lot: sold.
    const ok = await send('POST', '/api/sales', token, cash(lotId, { sale_date: '2026-01-01', quote_id: await quote(lotId, buyer) }));
    expect(ok.statusCode, ok.body).toBe(201);
    // A company that allows less: 10 days.
    await setSaleBackdateDays(db(), 10);
    const tight = await send('POST', '/api/sales', token, cash(other, { sale_date: '2026-02-19' }));
    expect(tight.json().errors.sale_date).toEqual([`${SALE_MESSAGES.saleDateTooOld} 20/02/2026 (10 días antes de hoy)`]);
    await setSaleBackdateDays(db(), 60);
  });

  it('stores a schedule edited row by row when it keeps the plan: exact sums, increasing dates; otherwise 422 saying by how much it is off', async () => {
    const { token } = await seller();
    const lotId = await freshLot();
    const buyer = await createCrmCustomer(db());
    const holders = [{ customer_id: buyer, role: 'TITULAR', share_percent: '100' }];
    // S/ 30 000.00, 20 % down in 2 parts, 3 interest-free instalments of S/ 8 000.00.
    const terms = {
      lot_id: lotId,
      holders,
      down_payment_percent: '20',
      down_payment_parts: 2,
      instalments: 3,
      first_due_date: '2026-04-01',
    };
    const rows = [
      { kind: 'INICIAL', number: 1, due_date: '2026-03-02', amount: 400_000 },
      { kind: 'INICIAL', number: 2, due_date: '2026-03-20', amount: 200_000 },
      { kind: 'CUOTA', number: 1, due_date: '2026-04-15', amount: 1_000_000 },
      { kind: 'CUOTA', number: 2, due_date: '2026-05-15', amount: 700_000 },
      { kind: 'CUOTA', number: 3, due_date: '2026-06-15', amount: 700_000 },
    ];
    const off = await send('POST', '/api/sales', token, {
      ...terms,
      schedule: rows.map((r, k) => (k === 4 ? { ...r, amount: 699_000 } : k === 3 ? { ...r, due_date: '2026-04-15' } : r)),
    });
    expect(off.statusCode).toBe(422);
    expect(off.json().errors.schedule).toEqual([
      'Cuota 2: debe vencer después de la anterior',
      'La suma de las cuotas es menor en S/ 10.00 al total de S/ 24,000.00',
    ]);
    const notPlan = await send('POST', '/api/sales', token, { ...terms, schedule: rows.slice(0, 4) });
    expect(notPlan.json().errors.schedule).toEqual(['El cronograma no corresponde al plan de pago: vuelva a calcularlo']);
    expect(await lotStatus(lotId)).toBe('DISPONIBLE');

    const res = await send('POST', '/api/sales', token, { ...terms, schedule: rows });
    expect(res.statusCode, res.body).toBe(201);
    const { data } = saleResponseSchema.parse(res.json());
    expect(data.schedule.map((r) => [r.kind, r.number, r.due_date, r.amount, r.capital, r.interest])).toEqual(
      rows.map((r) => [r.kind, r.number, r.due_date, r.amount, r.amount, 0]),
    );
    expect(data.balance).toBe(3_000_000);
  });

  it('an edited FRANCES instalment keeps its interest: the capital is amount − interest; an amount under it is refused', async () => {
    const { token } = await seller();
    const lotId = await freshLot();
    const buyer = await createCrmCustomer(db());
    const terms = financed(lotId, [{ customer_id: buyer, role: 'TITULAR', share_percent: '100' }], { instalments: 2 });
    const result = planTerms(
      { down_payment_parts: 1, ...terms } as Parameters<typeof planTerms>[0],
      3_000_000,
      Temporal.PlainDate.from('2026-03-02'),
    );
    if (!result.ok) throw new Error('plan');
    const rows = planRows(result.plan).map((r) => ({ kind: r.kind, number: r.number, due_date: r.dueDate, amount: r.amountCents }));
    const [first, second] = planRows(result.plan).filter((r) => r.kind === 'CUOTA');
    // Move S/ 1 000.00 from the second instalment to the first.
    const moved = rows.map((r) => (r.kind === 'CUOTA' ? { ...r, amount: r.amount + (r.number === 1 ? 100_000 : -100_000) } : r));
    const tooLow = rows.map((r) => (r.kind === 'CUOTA' ? { ...r, amount: r.number === 1 ? 1 : r.amount + first!.amountCents - 1 } : r));
    const refused = await send('POST', '/api/sales', token, { ...terms, schedule: tooLow });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.schedule[0]).toMatch(/^Cuota 1: el monto no cubre su interés \(S\/ /);
    const res = await send('POST', '/api/sales', token, { ...terms, schedule: moved });
    expect(res.statusCode, res.body).toBe(201);
    const cuotas = saleResponseSchema.parse(res.json()).data.schedule.filter((r) => r.kind === 'CUOTA');
    expect(cuotas.map((r) => [r.amount, r.interest, r.capital])).toEqual([
      [first!.amountCents + 100_000, first!.interestCents, first!.amountCents + 100_000 - first!.interestCents],
      [second!.amountCents - 100_000, second!.interestCents, second!.amountCents - 100_000 - second!.interestCents],
    ]);
    expect(cuotas.reduce((sum, r) => sum + r.capital, 0)).toBe(2_400_000);
  });

  it('refuses a lot held by another customer, a sold lot, shares not adding up, no titular, an unknown buyer', async () => {
    const { token } = await seller();
    const lotId = await freshLot();
    const [holder, other] = [await createCrmCustomer(db()), await createCrmCustomer(db())];
    await send('POST', '/api/reservations', token, { customer_id: holder, lot_id: lotId, amount: 10_000, conditions_accepted: true });
    const held = await send('POST', '/api/sales', token, financed(lotId, [{ customer_id: other, role: 'TITULAR', share_percent: '100' }]));
    expect(held.statusCode).toBe(409);
    expect(held.json().message).toBe(SALE_MESSAGES.heldByOther);
    const sold = await freshLot();
    await send('POST', '/api/sales', token, financed(sold, [{ customer_id: other, role: 'TITULAR', share_percent: '100' }]));
    const again = await send('POST', '/api/sales', token, financed(sold, [{ customer_id: holder, role: 'TITULAR', share_percent: '100' }]));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(SALE_MESSAGES.lotUnavailable);
    const lot = await freshLot();
    const shares = await send(
      'POST',
      '/api/sales',
      token,
      financed(lot, [
        { customer_id: holder, role: 'TITULAR', share_percent: '60' },
        { customer_id: other, role: 'COPROPIETARIO', share_percent: '30' },
      ]),
    );
    expect(shares.json().errors.holders).toContain(SALE_MESSAGES.sharesSum);
    const noTitular = await send(
      'POST',
      '/api/sales',
      token,
      financed(lot, [{ customer_id: holder, role: 'COPROPIETARIO', share_percent: '100' }]),
    );
    expect(noTitular.json().errors.holders).toContain(SALE_MESSAGES.oneTitular);
    const unknown = await send(
      'POST',
      '/api/sales',
      token,
      financed(lot, [{ customer_id: 999_999, role: 'TITULAR', share_percent: '100' }]),
    );
    expect(unknown.json().errors.holders).toContain(SALE_MESSAGES.unknownCustomer);
    expect(await lotStatus(lot)).toBe('DISPONIBLE');
  });

  it('answers malformed and out-of-range input with a Spanish 422, never a 500', async () => {
    const { token } = await seller();
    const lotId = await freshLot();
    const buyer = await createCrmCustomer(db());
    const holders = Array.from({ length: 7 }, (_, i) => ({
      customer_id: i + 1,
      role: i === 0 ? 'TITULAR' : 'COPROPIETARIO',
      share_percent: '10',
    }));
    const seven = await send('POST', '/api/sales', token, { lot_id: lotId, holders, instalments: 0 });
    expect(seven.statusCode).toBe(422);
    expect(seven.json().errors.holders).toContain('Máximo 6 compradores');
    const term = await send(
      'POST',
      '/api/sales',
      token,
      financed(lotId, [{ customer_id: buyer, role: 'TITULAR', share_percent: '100' }], { instalments: 361 }),
    );
    expect(term.json().errors.instalments).toContain('Entre 0 y 360 cuotas');
    const share = await send('POST', '/api/sales', token, {
      lot_id: lotId,
      holders: [{ customer_id: buyer, role: 'TITULAR', share_percent: 'cien' }],
      instalments: 0,
    });
    expect(share.statusCode).toBe(422);
    expect((await send('POST', '/api/sales', token, { lot_id: 'uno', holders: [], instalments: 0 })).statusCode).toBe(422);
    expect((await send('POST', '/api/sales/999999/annul', token, { reason: 'x'.repeat(501) })).statusCode).toBe(422);
    expect((await send('GET', '/api/sales?per_page=1000', token)).statusCode).toBe(422);
    expect(await lotStatus(lotId)).toBe('DISPONIBLE');
  });

  it('50 sellers selling one lot at the same moment: exactly one wins, 49 get 409', async () => {
    const { token } = await seller();
    const lotId = await freshLot();
    const customers = await Promise.all(Array.from({ length: 50 }, () => createCrmCustomer(db())));
    const answers = await Promise.all(
      customers.map((customerId) =>
        send('POST', '/api/sales', token, {
          lot_id: lotId,
          holders: [{ customer_id: customerId, role: 'TITULAR', share_percent: '100' }],
          instalments: 0,
        }),
      ),
    );
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(49);
    for (const a of answers.filter((x) => x.statusCode === 409)) expect(a.json().message).toBe(SALE_MESSAGES.lotUnavailable);
    expect(await db().selectFrom('sales').select('id').where('lot_id', '=', lotId).execute()).toHaveLength(1);
    const changes = await db()
      .selectFrom('lot_status_changes')
      .select('id')
      .where('lot_id', '=', lotId)
      .where('to_status', '=', 'VENDIDO')
      .execute();
    expect(changes).toHaveLength(1);
  });

  it('annuls with a reason: the lot is DISPONIBLE again and can be sold anew; again is 409, a stale version 409', async () => {
    const { token } = await seller();
    const lotId = await freshLot();
    const buyer = await createCrmCustomer(db());
    const created = saleResponseSchema.parse(
      (
        await send('POST', '/api/sales', token, {
          lot_id: lotId,
          holders: [{ customer_id: buyer, role: 'TITULAR', share_percent: '100' }],
          instalments: 0,
        })
      ).json(),
    ).data;
    expect(created).toMatchObject({ type: 'CONTADO', down_payment: 3_000_000, financed: 0 });
    const stale = await send('POST', `/api/sales/${created.id}/annul`, token, { reason: 'Desistimiento', version: 99 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(STALE_RECORD_MESSAGE);
    const annulled = await send('POST', `/api/sales/${created.id}/annul`, token, {
      reason: 'Desistimiento del cliente',
      version: created.version,
    });
    expect(saleResponseSchema.parse(annulled.json()).data).toMatchObject({
      status: 'ANULADA',
      annul_reason: 'Desistimiento del cliente',
      balance: 0,
    });
    expect(await lotStatus(lotId)).toBe('DISPONIBLE');
    expect((await send('POST', `/api/sales/${created.id}/annul`, token, { reason: 'Otra vez' })).statusCode).toBe(409);
    const resold = await send('POST', '/api/sales', token, {
      lot_id: lotId,
      holders: [{ customer_id: buyer, role: 'TITULAR', share_percent: '100' }],
      instalments: 0,
    });
    expect(resold.statusCode).toBe(201);
  });
});
