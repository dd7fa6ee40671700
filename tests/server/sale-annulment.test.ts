import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SALE_MESSAGES, saleAnnulmentResponseSchema, saleResponseSchema, type Sale } from '../../src/schemas/comercio/sales';
import { paymentResponseSchema, type Payment } from '../../src/schemas/finanzas/payments';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { createCrmCustomer, createLot, createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/**
 * Annulling a sale with money on it (docs/domain.md "Annulling a sale"): the settlement the request
 * must carry (refund or credit to another sale, less a penalty), its Spanish 422s, its effects in
 * one transaction, the money kept whole, and two annulments at once. Test clock: 2026-03-02 (Lima).
 */
describe.each(dialects)('sale annulment with money paid (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);
  let n = 0;

  const send = (method: 'POST' | 'GET', url: string, token: string, payload?: unknown) =>
    ctx().app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const staff = async () =>
    createSession(db(), await createStaff(db(), { permissions: [MODULE.comercial, SUBMODULE.ventas, MODULE.finanzas, SUBMODULE.pagos] }));

  /** A S/ 30 000.00 sale to `buyer`: S/ 6 000.00 down, 3 interest-free instalments of S/ 8 000.00 from 2026-04-01. */
  async function sale(token: string, buyer: number, currency: 'PEN' | 'USD' = 'PEN'): Promise<Sale> {
    const subdivision = await createSubdivision(db(), { currency });
    const lotId = await createLot(db(), subdivision.id, { block: 'Z', number: String(++n) });
    const res = await send('POST', '/api/sales', token, {
      lot_id: lotId,
      holders: [{ customer_id: buyer, role: 'TITULAR', share_percent: '100' }],
      down_payment_percent: '20',
      instalments: 3,
      monthly_rate_percent: '0',
      method: 'SIN_INTERES',
      first_due_date: '2026-04-01',
    });
    expect(res.statusCode, res.body).toBe(201);
    return saleResponseSchema.parse(res.json()).data;
  }

  /** Registers and approves a cash payment of `amount` céntimos on `saleId`. */
  async function pay(token: string, saleId: number, amount: number): Promise<Payment> {
    const registered = await send('POST', '/api/payments', token, {
      sale_id: saleId,
      amount,
      method: 'EFECTIVO',
      operation_date: '2026-03-02',
    });
    expect(registered.statusCode, registered.body).toBe(201);
    const id = paymentResponseSchema.parse(registered.json()).data.id;
    // Another staff member approves: who registered a payment does not (docs/domain.md "Payments: segregation of duties").
    const approved = await send('POST', `/api/payments/${id}/approve`, await staff(), {});
    expect(approved.statusCode, approved.body).toBe(200);
    return paymentResponseSchema.parse(approved.json()).data;
  }

  /** Σ (to_capital + to_late_fee) of APROBADO payments' allocations on the sale's instalments. */
  async function approvedOn(saleId: number): Promise<number> {
    const rows = await db()
      .selectFrom('payment_allocations')
      .innerJoin('sale_instalments', 'sale_instalments.id', 'payment_allocations.instalment_id')
      .innerJoin('payments', 'payments.id', 'payment_allocations.payment_id')
      .select(['payment_allocations.to_capital', 'payment_allocations.to_late_fee'])
      .where('sale_instalments.sale_id', '=', saleId)
      .where('payments.status', '=', 'APROBADO')
      .execute();
    return rows.reduce((sum, r) => sum + Number(r.to_capital) + Number(r.to_late_fee), 0);
  }
  const paidOnInstalments = async (saleId: number) =>
    (await db().selectFrom('sale_instalments').select('paid').where('sale_id', '=', saleId).execute()).reduce(
      (s, r) => s + Number(r.paid),
      0,
    );
  const settlementOf = async (saleId: number) => {
    const row = await db().selectFrom('sale_settlements').selectAll().where('sale_id', '=', saleId).executeTakeFirst();
    return (
      row && { ...row, paid: Number(row.paid), penalty: Number(row.penalty), refund: Number(row.refund), credited: Number(row.credited) }
    );
  };
  const annul = (token: string, id: number, body: object) =>
    send('POST', `/api/sales/${id}/annul`, token, { reason: 'Desistimiento', ...body });
  const refused = (res: { statusCode: number; json: () => unknown }, field: string, message: string) => {
    expect(res.statusCode).toBe(422);
    const body = res.json() as { message: string; errors: Record<string, string[]> };
    expect(body.errors[field]?.[0]).toContain(message);
  };

  it('GET annulment: what is paid and the titular’s other live sales in the same currency', async () => {
    const token = await staff();
    const buyer = await createCrmCustomer(db());
    const a = await sale(token, buyer);
    const b = await sale(token, buyer);
    await sale(token, buyer, 'USD');
    await sale(token, await createCrmCustomer(db()));
    await pay(token, a.id, 700_000);
    const res = await send('GET', `/api/sales/${a.id}/annulment`, token);
    expect(res.statusCode, res.body).toBe(200);
    const data = saleAnnulmentResponseSchema.parse(res.json()).data;
    expect(data).toMatchObject({ sale_id: a.id, currency: 'PEN', paid: 700_000 });
    expect(data.credit_targets.map((t) => [t.id, t.number, t.debt])).toEqual([[b.id, b.number, 3_000_000]]);
    expect((await send('GET', '/api/sales/999999/annulment', token)).statusCode).toBe(404);
  });

  it('a sale with nothing paid annuls with its reason alone; a settlement then is refused', async () => {
    const token = await staff();
    const s = await sale(token, await createCrmCustomer(db()));
    refused(
      await annul(token, s.id, { settlement: { mode: 'REEMBOLSO', penalty: 0, refund: 0 } }),
      'settlement',
      SALE_MESSAGES.nothingPaid,
    );
    const res = await annul(token, s.id, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(saleResponseSchema.parse(res.json()).data.status).toBe('ANULADA');
    expect(await settlementOf(s.id)).toBeUndefined();
  });

  it('refuses in Spanish: no decision, a penalty above what was paid, a wrong refund, a bad target, unknown keys', async () => {
    const token = await staff();
    const buyer = await createCrmCustomer(db());
    const s = await sale(token, buyer);
    await pay(token, s.id, 700_000);
    const stranger = await sale(token, await createCrmCustomer(db()));
    const dollars = await sale(token, buyer, 'USD');
    const gone = await sale(token, buyer);
    expect((await annul(token, gone.id, {})).statusCode).toBe(200);

    refused(await annul(token, s.id, {}), 'settlement', SALE_MESSAGES.settlementRequired);
    refused(
      await annul(token, s.id, { settlement: { mode: 'REEMBOLSO', penalty: 700_001, refund: 0 } }),
      'settlement.penalty',
      SALE_MESSAGES.penaltyTooHigh,
    );
    refused(
      await annul(token, s.id, { settlement: { mode: 'REEMBOLSO', penalty: 100_000, refund: 700_000 } }),
      'settlement.refund',
      SALE_MESSAGES.refundMismatch,
    );
    const target = (id: number) => ({ settlement: { mode: 'CREDITO', penalty: 0, target_sale_id: id } });
    refused(await annul(token, s.id, target(stranger.id)), 'settlement.target_sale_id', SALE_MESSAGES.targetOtherCustomer);
    refused(await annul(token, s.id, target(dollars.id)), 'settlement.target_sale_id', SALE_MESSAGES.targetCurrency);
    refused(await annul(token, s.id, target(gone.id)), 'settlement.target_sale_id', SALE_MESSAGES.targetNotLive);
    refused(await annul(token, s.id, target(s.id)), 'settlement.target_sale_id', SALE_MESSAGES.targetSelf);
    refused(await annul(token, s.id, target(999_999)), 'settlement.target_sale_id', SALE_MESSAGES.targetNotLive);
    for (const settlement of [
      { mode: 'REEMBOLSO', penalty: -1, refund: 700_001 },
      { mode: 'REEMBOLSO', penalty: 0.5, refund: 700_000 },
      { mode: 'CREDITO', penalty: 0 },
      { mode: 'REGALO', penalty: 0 },
      { mode: 'REEMBOLSO', penalty: 0, refund: 700_000, target_sale_id: stranger.id },
    ]) {
      const res = await annul(token, s.id, { settlement });
      expect(res.statusCode, JSON.stringify(settlement)).toBe(422);
      expect((res.json() as { message: string }).message).toMatch(/[a-záéíóúñ]/i);
    }
    // Nothing moved.
    expect((await db().selectFrom('sales').select('status').where('id', '=', s.id).executeTakeFirstOrThrow()).status).not.toBe('ANULADA');
    expect(await approvedOn(s.id)).toBe(700_000);
  });

  it('REEMBOLSO: the payments are ANULADO, the instalments released, the refund and penalty recorded — paid = refund + penalty', async () => {
    const token = await staff();
    const s = await sale(token, await createCrmCustomer(db()));
    const first = await pay(token, s.id, 400_000);
    const second = await pay(token, s.id, 300_000);
    const before = await approvedOn(s.id);
    const res = await annul(token, s.id, { settlement: { mode: 'REEMBOLSO', penalty: 70_000, refund: 630_000 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(saleResponseSchema.parse(res.json()).data).toMatchObject({
      status: 'ANULADA',
      annul_reason: 'Desistimiento',
      settlement: { mode: 'REEMBOLSO', paid: 700_000, penalty: 70_000, refund: 630_000, credited: 0, target_sale: null },
    });
    const settlement = await settlementOf(s.id);
    expect(settlement).toMatchObject({
      mode: 'REEMBOLSO',
      currency: 'PEN',
      paid: 700_000,
      penalty: 70_000,
      refund: 630_000,
      credited: 0,
      target_sale_id: null,
    });
    expect(before).toBe(settlement!.refund + settlement!.penalty + settlement!.credited);
    expect(await approvedOn(s.id)).toBe(0);
    expect(await paidOnInstalments(s.id)).toBe(0);
    const payments = await db()
      .selectFrom('payments')
      .select(['id', 'status', 'annul_reason'])
      .where('id', 'in', [first.id, second.id])
      .execute();
    expect(payments.every((p) => p.status === 'ANULADO' && p.annul_reason?.includes(`Venta ${s.number} anulada (reembolso`))).toBe(true);
    const trace = await db().selectFrom('sale_settlement_payments').select(['payment_id', 'amount']).orderBy('payment_id').execute();
    expect(trace.filter((t) => t.payment_id === first.id || t.payment_id === second.id).map((t) => Number(t.amount))).toEqual([
      400_000, 300_000,
    ]);
    const lot = await db().selectFrom('lots').select('status').where('id', '=', s.lot.id).executeTakeFirstOrThrow();
    expect(lot.status).toBe('DISPONIBLE');
  });

  it('CREDITO: paid − penalty is applied to the other sale oldest first by a new approved payment tracing the original ones', async () => {
    const token = await staff();
    const buyer = await createCrmCustomer(db());
    const s = await sale(token, buyer);
    const target = await sale(token, buyer);
    const original = await pay(token, s.id, 700_000);
    const before = await approvedOn(s.id);
    const res = await annul(token, s.id, { settlement: { mode: 'CREDITO', penalty: 50_000, target_sale_id: target.id } });
    expect(res.statusCode, res.body).toBe(200);
    expect(saleResponseSchema.parse(res.json()).data.settlement).toEqual({
      mode: 'CREDITO',
      paid: 700_000,
      penalty: 50_000,
      refund: 0,
      credited: 650_000,
      target_sale: { id: target.id, number: target.number },
    });
    const settlement = await settlementOf(s.id);
    expect(settlement).toMatchObject({
      mode: 'CREDITO',
      paid: 700_000,
      penalty: 50_000,
      refund: 0,
      credited: 650_000,
      target_sale_id: target.id,
    });
    expect(before).toBe(settlement!.refund + settlement!.penalty + settlement!.credited);
    expect(await approvedOn(s.id)).toBe(0);
    expect(await approvedOn(target.id)).toBe(650_000);
    const credit = paymentResponseSchema.parse((await send('GET', `/api/payments/${settlement!.credit_payment_id}`, token)).json()).data;
    expect(credit).toMatchObject({ status: 'APROBADO', amount: 650_000, currency: 'PEN', operation_date: '2026-03-02' });
    expect(credit.receipt_number).toMatch(/^R001-\d{8}$/);
    expect(credit.note).toContain(`Crédito de la venta ${s.number} anulada`);
    expect(credit.note).toContain(original.receipt_number!);
    expect(credit.allocations.map((a) => [a.kind, a.number, a.to_capital])).toEqual([
      ['INICIAL', 1, 600_000],
      ['CUOTA', 1, 50_000],
    ]);
    const targetNow = saleResponseSchema.parse((await send('GET', `/api/sales/${target.id}`, token)).json()).data;
    expect(targetNow).toMatchObject({ status: 'EN_CUOTAS', paid: 650_000 });
    const old = await db()
      .selectFrom('payments')
      .select(['status', 'annul_reason'])
      .where('id', '=', original.id)
      .executeTakeFirstOrThrow();
    expect(old.status).toBe('ANULADO');
    expect(old.annul_reason).toContain(`acreditado a la venta ${target.number}`);
  });

  it('CREDITO above the target’s debt is a 422 and nothing moves', async () => {
    const token = await staff();
    const buyer = await createCrmCustomer(db());
    const s = await sale(token, buyer);
    const target = await sale(token, buyer);
    await pay(token, s.id, 700_000);
    await pay(token, target.id, 2_500_000);
    refused(
      await annul(token, s.id, { settlement: { mode: 'CREDITO', penalty: 0, target_sale_id: target.id } }),
      'settlement.target_sale_id',
      SALE_MESSAGES.creditExceedsDebt,
    );
    expect(await approvedOn(s.id)).toBe(700_000);
    expect(await settlementOf(s.id)).toBeUndefined();
  });

  it('two annulments at once: one wins, the money is settled once', async () => {
    const token = await staff();
    const s = await sale(token, await createCrmCustomer(db()));
    await pay(token, s.id, 700_000);
    const body = { settlement: { mode: 'REEMBOLSO', penalty: 0, refund: 700_000 } };
    const results = await Promise.all([annul(token, s.id, body), annul(token, s.id, body), annul(token, s.id, body)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    const settlements = await db().selectFrom('sale_settlements').select('id').where('sale_id', '=', s.id).execute();
    expect(settlements).toHaveLength(1);
    expect(await paidOnInstalments(s.id)).toBe(0);
  });

  it('an annulment and an approval at once: either the money is settled and the approval refused, or the approval lands and the annulment is refused', async () => {
    const token = await staff();
    const s = await sale(token, await createCrmCustomer(db()));
    await pay(token, s.id, 400_000);
    const registered = await send('POST', '/api/payments', token, {
      sale_id: s.id,
      amount: 100_000,
      method: 'EFECTIVO',
      operation_date: '2026-03-02',
    });
    const pending = paymentResponseSchema.parse(registered.json()).data;
    const checker = await staff();
    const [annulled, approved] = await Promise.all([
      annul(token, s.id, { settlement: { mode: 'REEMBOLSO', penalty: 0, refund: 400_000 } }),
      send('POST', `/api/payments/${pending.id}/approve`, checker, {}),
    ]);
    if (annulled.statusCode === 200) {
      expect(approved.statusCode).toBe(409);
      expect((await settlementOf(s.id))?.refund).toBe(400_000);
      expect(await approvedOn(s.id)).toBe(0);
    } else {
      expect([409, 422]).toContain(annulled.statusCode);
      expect(approved.statusCode).toBe(200);
      expect(await settlementOf(s.id)).toBeUndefined();
      expect(await approvedOn(s.id)).toBe(500_000);
    }
  });

  it('property: whatever the payments, penalty and mode, no money disappears — paid = refund + penalty + credited, and the credit is on the target', async () => {
    const token = await staff();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 900_000 }), { minLength: 1, maxLength: 3 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.constantFrom('REEMBOLSO' as const, 'CREDITO' as const),
        async (amounts, share, mode) => {
          const buyer = await createCrmCustomer(db());
          const s = await sale(token, buyer);
          const target = await sale(token, buyer);
          for (const amount of amounts) await pay(token, s.id, amount);
          const before = await approvedOn(s.id);
          const onTargetBefore = await approvedOn(target.id);
          const penalty = Math.floor(before * share);
          const settlement =
            mode === 'REEMBOLSO' ? { mode, penalty, refund: before - penalty } : { mode, penalty, target_sale_id: target.id };
          const res = await annul(token, s.id, { settlement });
          expect(res.statusCode, res.body).toBe(200);
          const stored = (await settlementOf(s.id))!;
          expect(stored.paid).toBe(before);
          expect(stored.refund + stored.penalty + stored.credited).toBe(before);
          expect(await approvedOn(s.id)).toBe(0);
          expect(await paidOnInstalments(s.id)).toBe(0);
          expect((await approvedOn(target.id)) - onTargetBefore).toBe(stored.credited);
        },
      ),
      { numRuns: 4 },
    );
  }, 120_000);
});
