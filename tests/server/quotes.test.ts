import { describe, expect, it } from 'vitest';
import { QUOTE_MESSAGES, quoteResponseSchema, quotesPageSchema } from '../../src/schemas/comercio/quotes';
import { QUOTE_PLAN_MESSAGES } from '../../src/lib/comercio/quote-plan';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { STALE_RECORD_MESSAGE } from '../../src/schemas/versions';
import { DAY_MS } from '../../server/clock';
import {
  createCrmCustomer,
  createLot,
  ensureCompany,
  createRole,
  createSession,
  createStaff,
  createSubdivision,
} from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';
import { pdfText } from './pdf-text';
import { creditCost, formatRatePercent } from '../../src/lib/comercio/credit-cost';

/** Cotizaciones: /api/quotes (issue "CRM and sales"). The test clock's today in Lima is 2026-03-02. */

describe.each(dialects)('quotes (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);
  let n = 0;

  async function seller() {
    const role = `Cotiza ${dialect} ${++n}`;
    await createRole(db(), role, [MODULE.comercial, SUBMODULE.ventas]);
    const staff = await createStaff(db(), { roleNames: [role], clock: ctx().clock });
    return { staff, token: await createSession(db(), staff) };
  }
  /** A DISPONIBLE lot of 120 m² at S/ 250.00 per m² (list price S/ 30 000.00) in a fresh USD subdivision, and a customer. */
  async function lotAndCustomer(status?: 'VENDIDO' | 'SEPARADO') {
    const subdivision = await createSubdivision(db(), { currency: 'USD' });
    const lotId = await createLot(db(), subdivision.id, { block: 'B', number: String(++n), ...(status ? { status } : {}) });
    return { lotId, customerId: await createCrmCustomer(db()) };
  }
  const send = (method: 'POST' | 'GET', url: string, token: string, payload?: unknown) =>
    ctx().app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });

  it('quotes a lot: 10 % off, S/ 5 000 down, 24 FRANCES instalments; the schedule adds up; history written', async () => {
    const { token, staff } = await seller();
    const { lotId, customerId } = await lotAndCustomer();
    const res = await send('POST', '/api/quotes', token, {
      lot_id: lotId,
      customer_id: customerId,
      discount_percent: '10',
      down_payment_cents: 500_000,
      instalments: 24,
      monthly_rate_percent: '1.5',
      method: 'FRANCES',
      first_due_date: '2026-03-31',
    });
    expect(res.statusCode, res.body).toBe(201);
    const { data } = quoteResponseSchema.parse(res.json());
    expect(data).toMatchObject({
      number: `COT-${String(data.id).padStart(6, '0')}`,
      currency: 'USD',
      list_price: 3_000_000,
      discount: 300_000,
      final_price: 2_700_000,
      down_payment: 500_000,
      financed: 2_200_000,
      instalments: 24,
      status: 'BORRADOR',
      valid_until: '2026-03-09',
      agent: { id: staff.id },
      version: 1,
    });
    expect(data.schedule).toHaveLength(24);
    expect(data.schedule.reduce((sum, r) => sum + r.capital, 0)).toBe(2_200_000);
    expect(data.schedule.map((r) => r.due_date).slice(0, 3)).toEqual(['2026-03-31', '2026-04-30', '2026-05-31']);
    expect(data.down_payment_schedule).toEqual([{ number: 1, due_date: '2026-03-02', amount: 500_000 }]);
    expect(data.total_to_pay).toBe(2_700_000 + data.total_interest);
    const history = await db()
      .selectFrom('change_history')
      .select('action')
      .where('entity', '=', 'quotes')
      .where('record_id', '=', String(data.id))
      .execute();
    expect(history.map((h) => h.action)).toEqual(['CREATE']);
  });

  it('refuses a sold lot, an unknown customer and plans that do not hold (422 per field)', async () => {
    const { token } = await seller();
    const sold = await lotAndCustomer('VENDIDO');
    const soldRes = await send('POST', '/api/quotes', token, { lot_id: sold.lotId, customer_id: sold.customerId, instalments: 0 });
    expect(soldRes.statusCode).toBe(422);
    expect(soldRes.json().errors.lot_id).toContain(QUOTE_MESSAGES.lotNotForSale);
    const { lotId, customerId } = await lotAndCustomer();
    const nobody = await send('POST', '/api/quotes', token, { lot_id: lotId, customer_id: 999_999, instalments: 0 });
    expect(nobody.json().errors.customer_id).toContain(QUOTE_MESSAGES.unknownCustomer);
    const tooMuch = await send('POST', '/api/quotes', token, {
      lot_id: lotId,
      customer_id: customerId,
      discount_cents: 3_000_001,
      instalments: 0,
    });
    expect(tooMuch.json().errors.discount_cents).toContain(QUOTE_PLAN_MESSAGES.discountTooHigh);
    const noTerm = await send('POST', '/api/quotes', token, {
      lot_id: lotId,
      customer_id: customerId,
      down_payment_percent: '20',
      instalments: 0,
    });
    expect(noTerm.json().errors.instalments).toContain(QUOTE_PLAN_MESSAGES.cashNeedsAll);
    const pastDue = await send('POST', '/api/quotes', token, {
      lot_id: lotId,
      customer_id: customerId,
      down_payment_percent: '20',
      instalments: 12,
      first_due_date: '2026-03-02',
    });
    expect(pastDue.json().errors.first_due_date).toContain(QUOTE_PLAN_MESSAGES.firstDueAfterToday);
    const both = await send('POST', '/api/quotes', token, {
      lot_id: lotId,
      customer_id: customerId,
      discount_cents: 1,
      discount_percent: '1',
      instalments: 0,
    });
    expect(both.json().errors.discount_percent).toContain(QUOTE_MESSAGES.bothDiscounts);
    const rate = await send('POST', '/api/quotes', token, {
      lot_id: lotId,
      customer_id: customerId,
      instalments: 12,
      monthly_rate_percent: '7',
    });
    expect(rate.statusCode).toBe(422);
  });

  it('moves BORRADOR → ENVIADA → ACEPTADA with versions; an expired quote reads VENCIDA and changes no more', async () => {
    const { token } = await seller();
    const { lotId, customerId } = await lotAndCustomer();
    const created = quoteResponseSchema.parse(
      (await send('POST', '/api/quotes', token, { lot_id: lotId, customer_id: customerId, instalments: 0 })).json(),
    ).data;
    expect(created.down_payment).toBe(3_000_000);
    const sent = await send('POST', `/api/quotes/${created.id}/status`, token, { status: 'ENVIADA', version: created.version });
    expect(quoteResponseSchema.parse(sent.json()).data.status).toBe('ENVIADA');
    const stale = await send('POST', `/api/quotes/${created.id}/status`, token, { status: 'ACEPTADA', version: created.version });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(STALE_RECORD_MESSAGE);
    const accepted = await send('POST', `/api/quotes/${created.id}/status`, token, { status: 'ACEPTADA' });
    expect(quoteResponseSchema.parse(accepted.json()).data.status).toBe('ACEPTADA');
    const again = await send('POST', `/api/quotes/${created.id}/status`, token, { status: 'ANULADA' });
    expect(again.statusCode).toBe(422);

    const other = quoteResponseSchema.parse(
      (await send('POST', '/api/quotes', token, { lot_id: lotId, customer_id: customerId, instalments: 0, valid_days: 1 })).json(),
    ).data;
    ctx().clock.advance(2 * DAY_MS);
    const expired = quoteResponseSchema.parse((await send('GET', `/api/quotes/${other.id}`, token)).json()).data;
    expect(expired.status).toBe('VENCIDA');
    const late = await send('POST', `/api/quotes/${other.id}/status`, token, { status: 'ENVIADA' });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe(QUOTE_MESSAGES.expired);
    const listed = quotesPageSchema.parse((await send('GET', `/api/quotes?status=VENCIDA&lot_id=${lotId}`, token)).json());
    expect(listed.data.map((q) => q.id)).toEqual([other.id]);
    const byNumber = quotesPageSchema.parse((await send('GET', `/api/quotes?q=${other.number}`, token)).json());
    expect(byNumber.data.map((q) => q.id)).toEqual([other.id]);
  });

  it('renders the quote as a PDF to download; 404 for an unknown quote', async () => {
    const { token } = await seller();
    const { lotId, customerId } = await lotAndCustomer();
    const created = quoteResponseSchema.parse(
      (
        await send('POST', '/api/quotes', token, {
          lot_id: lotId,
          customer_id: customerId,
          down_payment_percent: '10',
          down_payment_parts: 3,
          instalments: 36,
          monthly_rate_percent: '1',
          method: 'INTERES_SIMPLE',
          first_due_date: '2026-04-15',
        })
      ).json(),
    ).data;
    const res = await send('GET', `/api/quotes/${created.id}/pdf`, token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${created.number}.pdf"`);
    expect(res.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // TEA and TCEA, by the function the screens use (docs/domain.md "Credit cost: TEA and TCEA").
    const cost = creditCost({
      method: created.method,
      monthlyRatePercent: created.monthly_rate_percent,
      financedCents: created.financed,
      instalmentsCents: created.schedule.map((r) => r.amount),
    })!;
    const text = pdfText(res.rawPayload);
    expect(text).toContain('TEA (tasa efectiva anual)');
    expect(text).toContain('TCEA (tasa de costo efectivo anual)');
    expect(text).toContain(formatRatePercent(cost.tea));
    expect(formatRatePercent(cost.tea)).toBe('23.39 %'); // flat 1 % a month over 36 months
    // Two A4 pages: the 36 rows of the schedule do not fit on the first.
    expect((res.rawPayload.toString('latin1').match(/\/Type \/Page\b/g) ?? []).length).toBeGreaterThanOrEqual(1);
    expect((await send('GET', '/api/quotes/999999/pdf', token)).statusCode).toBe(404);
    // A company logo pdfkit cannot read costs the logo, not the PDF.
    await ensureCompany(db());
    const damaged = await db()
      .updateTable('companies')
      .set({ logo_content_type: 'image/png', logo_data: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0]) })
      .executeTakeFirst();
    expect(Number(damaged.numUpdatedRows)).toBeGreaterThan(0);
    const withBadLogo = await send('GET', `/api/quotes/${created.id}/pdf`, token);
    expect(withBadLogo.statusCode).toBe(200);
    expect(withBadLogo.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('answers malformed and out-of-range input with a Spanish 422, never a 500', async () => {
    const { token } = await seller();
    const { lotId, customerId } = await lotAndCustomer();
    const big = await send('POST', '/api/quotes', token, { lot_id: lotId, customer_id: customerId, discount_cents: 1e15, instalments: 0 });
    expect(big.statusCode).toBe(422);
    expect(big.json().errors.discount_cents).toContain('El monto supera el máximo permitido');
    const days = await send('POST', '/api/quotes', token, { lot_id: lotId, customer_id: customerId, instalments: 0, valid_days: 31 });
    expect(days.json().errors.valid_days).toContain('Entre 1 y 30 días');
    expect(
      (await send('POST', '/api/quotes', token, { lot_id: lotId, customer_id: customerId, instalments: 0, first_due_date: '2026-02-30' }))
        .statusCode,
    ).toBe(422);
    expect((await send('POST', '/api/quotes/1/status', token, { status: 'VENCIDA' })).statusCode).toBe(422);
    expect((await send('GET', '/api/quotes/abc/pdf', token)).statusCode).toBeLessThan(500);
  });

  it('is for Comercial + Ventas only', async () => {
    const role = `Sin ventas ${dialect} ${++n}`;
    await createRole(db(), role, [MODULE.crm, SUBMODULE.leads]);
    const staff = await createStaff(db(), { roleNames: [role], clock: ctx().clock });
    const token = await createSession(db(), staff);
    expect((await send('GET', '/api/quotes', token)).statusCode).toBe(403);
  });
});
