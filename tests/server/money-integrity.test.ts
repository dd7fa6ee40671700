import { describe, expect, it } from 'vitest';
import { purchaseDetailResponseSchema } from '../../src/schemas/comercio/purchases';
import { PORTAL_SALES_MESSAGES } from '../../src/schemas/comercio/portal-sales';
import { PAYMENT_MESSAGES, paymentResponseSchema } from '../../src/schemas/finanzas/payments';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { systemAuditContext } from '../../server/audit/audit';
import { createManualClock } from '../../server/clock';
import { toFlag } from '../../server/db/portable';
import { createSale } from '../../server/modules/comercio/sales.service';
import { LateFeeJob } from '../../server/modules/finanzas/late-fee-job';
import {
  createCustomer,
  createLot,
  createRole,
  createSession,
  createStaff,
  createSubdivision,
  createWallet,
  type CustomerFixture,
} from '../../server/testing/fixtures';
import { bearer, dialects, recordingBroadcaster, useTestApp, useTestDatabase } from './harness';
import { png } from './images';

/**
 * Money integrity as a late payer and an attacker try it (docs/domain.md "Instalments, days late and
 * late fees", "Payments"; docs/security.md 30.1–30.4): a payment clearing an overdue instalment
 * leaves its fee exactly as paid; a back-dated payment shows and applies the fees it lowers, and may
 * not take back a fee already paid; one pending portal payment per purchase however many are sent at
 * once; daily caps on portal payments and reservation requests. The app's today in Lima is 2026-03-02.
 */

describe.each(dialects)('money integrity (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db, { portalLimits: { paymentsPerDay: 3, reservationRequestsPerDay: 2 } });
  let n = 0;

  const send = (method: 'GET' | 'POST', url: string, token: string, payload?: object) =>
    ctx().app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const reviewer = async () => createSession(db(), await createStaff(db(), { permissions: [MODULE.finanzas, SUBMODULE.pagos] }));

  /**
   * A sale registered on 2026-01-15 (S/ 30 000.00: 20 % down in one part due that day, 6 instalments
   * from 2026-02-01) held by `customer`. On 2026-03-02 the down payment is 46 days late (fee from
   * 2026-01-19: 43 days × S/ 5.00) and the first instalment 29 (fee from 2026-02-05: 26 days).
   */
  async function lateSale(customer: CustomerFixture) {
    const subdivision = await createSubdivision(db());
    const lotId = await createLot(db(), subdivision.id, { block: 'M', number: String(++n) });
    const onSaleDay = createManualClock('2026-01-15T17:00:00.000Z');
    const sale = await createSale({ db: db(), clock: onSaleDay }, systemAuditContext(onSaleDay), {
      lot_id: lotId,
      holders: [{ customer_id: customer.id, role: 'TITULAR', share_percent: '100' }],
      sale_date: '2026-01-15',
      down_payment_percent: '20',
      down_payment_parts: 1,
      instalments: 6,
      monthly_rate_percent: '0',
      method: 'SIN_INTERES',
      first_due_date: '2026-02-01',
    });
    return sale.id;
  }
  const rows = (saleId: number) =>
    db()
      .selectFrom('sale_instalments')
      .select(['id', 'kind', 'number', 'amount', 'paid', 'status', 'late_fee_accrued', 'late_fee_paid', 'late_fee_waived'])
      .where('sale_id', '=', saleId)
      .orderBy('due_date')
      .orderBy('id')
      .execute()
      .then((list) =>
        list.map((r) => ({
          ...r,
          amount: Number(r.amount),
          paid: Number(r.paid),
          late_fee_accrued: Number(r.late_fee_accrued),
          late_fee_paid: Number(r.late_fee_paid),
          late_fee_waived: Number(r.late_fee_waived),
        })),
      );
  const statement = async (saleId: number, token: string) =>
    purchaseDetailResponseSchema.parse((await send('GET', `/api/customer/purchases/${saleId}`, token)).json()).data;

  it('a PagoYape payment clearing an overdue instalment leaves its fee exactly as paid: asked = applied = accrued after', async () => {
    const customer = await createCustomer(db());
    const token = await createSession(db(), customer);
    const saleId = await lateSale(customer);
    const wallet = await createWallet(db(), { clock: ctx().clock });
    const before = await statement(saleId, token);
    const [downPayment, first] = before.schedule;
    expect([downPayment!.days_late, downPayment!.late_fee_due, first!.days_late, first!.late_fee_due]).toEqual([46, 21_500, 29, 13_000]);
    const amount = 21_500 + 13_000 + downPayment!.balance;
    const sent = await send('POST', `/api/customer/purchases/${saleId}/payments`, token, {
      wallet_id: wallet,
      instalment_ids: [downPayment!.id],
      amount,
      operation_number: 'YP-1',
      operation_date: '2026-03-02',
    });
    expect(sent.statusCode, sent.body).toBe(201);
    const paymentId = sent.json().data.payment.id as number;
    await ctx().app.inject({
      method: 'POST',
      url: `/api/customer/payments/${paymentId}/vouchers`,
      ...voucherUpload(token),
    });
    const approved = await send('POST', `/api/payments/${paymentId}/approve`, await reviewer(), {});
    expect(approved.statusCode, approved.body).toBe(200);
    // Every fee paid is accrued, none owed; the down payment's fee stays S/ 215.00 (was figured S/ 210.00 after approval: S/ 5.00 never credited).
    const after = await rows(saleId);
    expect(after.slice(0, 2).map((r) => [r.kind, r.status, r.late_fee_accrued, r.late_fee_paid])).toEqual([
      ['INICIAL', 'PAGADA', 21_500, 21_500],
      ['CUOTA', 'VENCIDA', 13_000, 13_000],
    ]);
    for (const r of after) expect(r.late_fee_paid).toBeLessThanOrEqual(r.late_fee_accrued + r.late_fee_waived);
    // The daily job the next day: the paid-off down payment accrues nothing more; the first instalment accrues one more day.
    const tomorrow = createManualClock('2026-03-03T17:00:00.000Z');
    await new LateFeeJob({
      db: db(),
      clock: tomorrow,
      broadcaster: recordingBroadcaster(),
      log: { error: () => undefined },
    }).runUntilDone();
    const next = await rows(saleId);
    expect(next.slice(0, 2).map((r) => r.late_fee_accrued)).toEqual([21_500, 13_500]);
  });

  it('the statement is figured for a chosen day (PagoYape of an earlier payment): bounded by the sale and today', async () => {
    const customer = await createCustomer(db());
    const token = await createSession(db(), customer);
    const saleId = await lateSale(customer);
    const on = async (day: string) => send('GET', `/api/customer/purchases/${saleId}?as_of=${day}`, token);
    const earlier = purchaseDetailResponseSchema.parse((await on('2026-02-10')).json()).data;
    // On 2026-02-10 the down payment's fee ran 23 days and the first instalment's 6.
    expect(earlier.schedule.slice(0, 2).map((r) => [r.days_late, r.late_fee_due])).toEqual([
      [26, 11_500],
      [9, 3_000],
    ]);
    for (const [day, status] of [
      ['2026-03-03', 422],
      ['2026-01-14', 422],
      ['2026-02-30', 422],
      ['2026-13-45', 422],
      ['hoy', 422],
    ] as const) {
      const res = await on(day);
      expect(res.statusCode, day).toBe(status);
    }
    expect((await on('2026-03-03')).json().errors.as_of).toEqual([PAYMENT_MESSAGES.futureDate]);
  });

  it('a back-dated office payment shows the fees it lowers, applies exactly what was previewed, and may not take back a fee already paid', async () => {
    const customer = await createCustomer(db());
    const saleId = await lateSale(customer);
    const token = await reviewer();
    // Another reviewer approves: who registered a payment does not (docs/domain.md "Payments: segregation of duties").
    const checker = await reviewer();
    const [downPayment] = await rows(saleId);
    // Paid at the bank on 2026-02-10: the down payment and the fees up to that day — its own (2026-01-19 … 02-10:
    // 23 days, S/ 115.00) and the first instalment's (02-05 … 02-10: 6 days, S/ 30.00), fees first.
    const register = (body: object) =>
      send('POST', '/api/payments', token, { sale_id: saleId, method: 'EFECTIVO', operation_date: '2026-02-10', ...body });
    const created = await register({ amount: downPayment!.amount + 11_500 + 3_000 });
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().data.id as number;
    const preview = paymentResponseSchema.parse((await send('GET', `/api/payments/${id}`, token)).json()).data;
    expect(preview.allocation_preview?.map((a) => [a.kind, a.number, a.to_late_fee, a.to_capital])).toEqual([
      ['INICIAL', 1, 11_500, downPayment!.amount],
      ['CUOTA', 1, 3_000, 0],
    ]);
    // Today the down payment's fee is S/ 215.00; paid on 02-10 it is S/ 115.00.
    expect(preview.late_fee_changes).toEqual([
      { instalment_id: downPayment!.id, kind: 'INICIAL', number: 1, before: 21_500, after: 11_500 },
    ]);
    const approved = paymentResponseSchema.parse((await send('POST', `/api/payments/${id}/approve`, checker, {})).json()).data;
    expect(approved.allocations.map((a) => [a.kind, a.number, a.to_late_fee, a.to_capital])).toEqual(
      preview.allocation_preview!.map((a) => [a.kind, a.number, a.to_late_fee, a.to_capital]),
    );
    expect((await rows(saleId))[0]).toMatchObject({ status: 'PAGADA', late_fee_accrued: 11_500, late_fee_paid: 11_500 });

    // The rest of the first instalment's fee (S/ 130.00 today, S/ 30.00 paid) paid today; then a payment dated
    // 2026-02-10 of its whole amount, which would have stopped its fee at S/ 30.00.
    const feeToday = await register({ amount: 10_000, operation_date: '2026-03-02' });
    expect(feeToday.statusCode, feeToday.body).toBe(201);
    const instalment = (await rows(saleId))[1]!.amount;
    const older = await register({ amount: instalment }); // registered before the fee payment is approved: accepted for now
    expect(older.statusCode, older.body).toBe(201);
    expect((await send('POST', `/api/payments/${feeToday.json().data.id}/approve`, checker, {})).statusCode).toBe(200);
    const refusedPreview = paymentResponseSchema.parse((await send('GET', `/api/payments/${older.json().data.id}`, token)).json()).data;
    expect(refusedPreview.allocation_preview).toBeNull();
    expect(refusedPreview.preview_error).toContain(PAYMENT_MESSAGES.takesBackPaidFee);
    const refused = await send('POST', `/api/payments/${older.json().data.id}/approve`, checker, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain(PAYMENT_MESSAGES.takesBackPaidFee);
    const again = await register({ amount: instalment });
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.operation_date[0]).toContain(PAYMENT_MESSAGES.takesBackPaidFee);
    // Nothing was applied by the refusals: the fee paid is still the fee accrued.
    const first = (await rows(saleId))[1]!;
    expect([first.late_fee_accrued, first.late_fee_paid, first.paid]).toEqual([13_000, 13_000, 0]);
  });

  it('twenty PagoYape sends at once for one purchase store one pending payment; the others get a 409 naming it', async () => {
    const customer = await createCustomer(db());
    const token = await createSession(db(), customer);
    const saleId = await lateSale(customer);
    const wallet = await createWallet(db(), { clock: ctx().clock });
    const [downPayment] = (await statement(saleId, token)).schedule;
    const owed = (await statement(saleId, token)).late_fee_due + downPayment!.balance;
    const notices = () => db().selectFrom('notifications').select('id').where('title', '=', 'Pago por revisar').execute();
    const noticesBefore = (await notices()).length;
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, k) =>
        send('POST', `/api/customer/purchases/${saleId}/payments`, token, {
          wallet_id: wallet,
          instalment_ids: [downPayment!.id],
          amount: owed,
          operation_number: `FLOOD-${k}`,
          operation_date: '2026-03-02',
        }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([201, ...Array<number>(19).fill(409)]);
    for (const r of results.filter((res) => res.statusCode === 409))
      expect(r.json().message).toContain(PAYMENT_MESSAGES.pendingPortalPayment);
    const pending = await db()
      .selectFrom('payments')
      .select('id')
      .where('sale_id', '=', saleId)
      .where('status', '=', 'PENDIENTE')
      .execute();
    expect(pending).toHaveLength(1);
    // The reviewers were told once, of the one payment stored.
    expect((await notices()).length - noticesBefore).toBeLessThanOrEqual(await reviewersCount());
  });

  it('caps what one customer sends from the portal in a day: payments and reservation requests (429, in Spanish)', async () => {
    const customer = await createCustomer(db());
    const token = await createSession(db(), customer);
    const saleId = await lateSale(customer);
    const wallet = await createWallet(db(), { clock: ctx().clock });
    const finance = await reviewer();
    const pay = async (k: number, day = '2026-03-02') => {
      const detail = await statement(saleId, token);
      return send('POST', `/api/customer/purchases/${saleId}/payments`, token, {
        wallet_id: wallet,
        instalment_ids: [detail.schedule[0]!.id],
        amount: detail.late_fee_due + detail.schedule[0]!.balance,
        operation_number: `DAY-${k}`,
        operation_date: day,
      });
    };
    // Three a day (this app's setting): each rejected so the next may be sent.
    for (let k = 1; k <= 3; k++) {
      const sent = await pay(k);
      expect(sent.statusCode, sent.body).toBe(201);
      expect(
        (await send('POST', `/api/payments/${sent.json().data.payment.id}/reject`, finance, { reason: 'Captura ilegible' })).statusCode,
      ).toBe(200);
    }
    const fourth = await pay(4);
    expect(fourth.statusCode).toBe(429);
    expect(fourth.json().message).toBe(PAYMENT_MESSAGES.portalDailyLimit);
    // The next day in Lima the count starts again.
    ctx().clock.set('2026-03-03T05:00:00.000Z');
    const nextDay = await pay(5, '2026-03-03');
    expect(nextDay.statusCode, nextDay.body).toBe(201);
    ctx().clock.set('2026-03-02T15:00:00.000Z');

    // Reservation requests: two a day.
    await createRole(db(), `Asesor web ${dialect}`, [MODULE.crm, SUBMODULE.leads]);
    await createStaff(db(), { roleNames: [`Asesor web ${dialect}`] });
    const subdivision = await createSubdivision(db());
    await db()
      .updateTable('subdivisions')
      .set({ published: toFlag(true) })
      .where('id', '=', subdivision.id)
      .execute();
    const codes: string[] = [];
    for (let k = 1; k <= 3; k++) {
      const lot = await createLot(db(), subdivision.id, { block: 'W', number: String(k) });
      codes.push((await db().selectFrom('lots').select('code').where('id', '=', lot).executeTakeFirstOrThrow()).code);
    }
    const ask = (code: string) =>
      send('POST', '/api/customer/reservation-requests', token, { subdivision_key: subdivision.key, lot_code: code });
    expect((await ask(codes[0]!)).statusCode).toBe(201);
    expect((await ask(codes[1]!)).statusCode).toBe(201);
    const third = await ask(codes[2]!);
    expect(third.statusCode).toBe(429);
    expect(third.json().message).toBe(PORTAL_SALES_MESSAGES.dailyLimit);
  });

  /** Active staff who review payments (each gets one "Pago por revisar" per stored payment). */
  async function reviewersCount() {
    return (await db().selectFrom('users').select('id').where('status', '=', 'ACTIVO').execute()).length;
  }
});

/** The multipart upload of one PNG capture, for a customer's voucher route. */
function voucherUpload(token: string) {
  const boundary = '----parcelaIntegrityBoundary';
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="voucher"; filename="captura.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    png(12, 12),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { headers: { ...bearer(token), 'content-type': `multipart/form-data; boundary=${boundary}` }, payload };
}
