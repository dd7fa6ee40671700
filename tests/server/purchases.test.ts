import { describe, expect, it } from 'vitest';
import {
  PURCHASE_MESSAGES,
  paymentOptionsResponseSchema,
  purchaseDetailResponseSchema,
  purchasesPageSchema,
} from '../../src/schemas/comercio/purchases';
import { PAYMENT_MESSAGES } from '../../src/schemas/finanzas/payments';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { customerPaymentCreatedResponseSchema, customerPaymentResponseSchema } from '../../src/schemas/comercio/purchases';
import { systemAuditContext } from '../../server/audit/audit';
import { toFlag } from '../../server/db/portable';
import { createManualClock } from '../../server/clock';
import { annulSale, createSale } from '../../server/modules/comercio/sales.service';
import {
  createBankAccount,
  createCustomer,
  createLot,
  createSession,
  createStaff,
  createSubdivision,
  createWallet,
  type CustomerFixture,
} from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase, multipartBody } from './harness';
import { png } from './images';

/**
 * The customer's purchases: GET /api/customer/purchases, /purchases/{id}, /payment-options,
 * /wallets/{id}/qr (issue 16 "Customer screens"), with the IDOR rule: another customer's sale is a
 * 404, never a 403. The test clock's today in Lima is 2026-03-02.
 */

/** A multipart/form-data body with one file part. */
function multipart(field: string, filename: string, contentType: string, content: Buffer) {
  return multipartBody({ field, filename, contentType, content });
}

describe.each(dialects)('customer purchases (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);
  let n = 0;

  const send = (url: string, token?: string) => ctx().app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });

  /**
   * A financed sale (S/ 30 000.00 lot: 20 % down in 2 parts, 6 instalments without interest from
   * 2025-11-01) of `holders` in a fresh subdivision. @returns the sale id.
   */
  async function sale(
    holders: { customer: CustomerFixture; role: 'TITULAR' | 'CONYUGE' | 'COPROPIETARIO'; share: string }[],
    published = true,
  ) {
    const subdivision = await createSubdivision(db());
    if (published)
      await db()
        .updateTable('subdivisions')
        .set({ published: toFlag(true) })
        .where('id', '=', subdivision.id)
        .execute();
    const lotId = await createLot(db(), subdivision.id, { block: 'D', number: String(++n) });
    // Registered on its date (a sale is dated within the company's window before the day it is registered).
    const onSaleDate = createManualClock('2025-10-01T17:00:00.000Z');
    const created = await createSale({ db: db(), clock: onSaleDate }, systemAuditContext(onSaleDate), {
      lot_id: lotId,
      holders: holders.map((h) => ({ customer_id: h.customer.id, role: h.role, share_percent: h.share })),
      sale_date: '2025-10-01',
      down_payment_percent: '20',
      down_payment_parts: 2,
      instalments: 6,
      monthly_rate_percent: '0',
      method: 'SIN_INTERES',
      first_due_date: '2025-11-01',
    });
    return created.id;
  }
  const rowsOf = (saleId: number) =>
    db()
      .selectFrom('sale_instalments')
      .select(['id', 'kind', 'number', 'due_date', 'amount'])
      .where('sale_id', '=', saleId)
      .orderBy('due_date')
      .orderBy('id')
      .execute();

  it('lists the sales the customer holds or co-holds (not ANULADA, not others), with balance and next instalment', async () => {
    const [me, spouse, other] = [await createCustomer(db()), await createCustomer(db()), await createCustomer(db())];
    const token = await createSession(db(), me);
    const mine = await sale([{ customer: me, role: 'TITULAR', share: '100' }]);
    const coHeld = await sale([
      { customer: spouse, role: 'TITULAR', share: '50' },
      { customer: me, role: 'CONYUGE', share: '50' },
    ]);
    const annulled = await sale([{ customer: me, role: 'TITULAR', share: '100' }]);
    await annulSale({ db: db(), clock: ctx().clock }, systemAuditContext(ctx().clock), annulled, { reason: 'Prueba de anulación' });
    await sale([{ customer: other, role: 'TITULAR', share: '100' }]);

    // Pay the two down-payment parts and half of the first instalment.
    const rows = await rowsOf(mine);
    for (const row of rows.slice(0, 2))
      await db().updateTable('sale_instalments').set({ paid: row.amount, status: 'PAGADA' }).where('id', '=', row.id).execute();
    const half = Math.floor(Number(rows[2]!.amount) / 2);
    await db().updateTable('sale_instalments').set({ paid: half, status: 'PARCIAL' }).where('id', '=', rows[2]!.id).execute();

    const res = await send('/api/customer/purchases', token);
    expect(res.statusCode, res.body).toBe(200);
    const page = purchasesPageSchema.parse(res.json());
    expect(page.meta.total).toBe(2);
    expect(page.data.map((p) => p.id).sort()).toEqual([mine, coHeld].sort());
    const first = page.data.find((p) => p.id === mine)!;
    const paid = Number(rows[0]!.amount) + Number(rows[1]!.amount) + half;
    expect(first).toMatchObject({ currency: 'PEN', final_price: 3_000_000, total: 3_000_000, paid, balance: 3_000_000 - paid });
    expect(first.number).toMatch(/^V-0+\d+$/);
    // The oldest instalment with something owed: the half-paid first one (due 2025-11-01: overdue).
    expect(first.next_instalment).toEqual({
      id: rows[2]!.id,
      kind: 'CUOTA',
      number: 1,
      due_date: '2025-11-01',
      amount_due: Number(rows[2]!.amount) - half,
    });
    // Instalments 1–5 are past due (overdue from the day after the due date, grace or not: docs/domain.md).
    expect(first.overdue_instalments).toBe(5);
    // What is still owed on them (the portal's Inicio shows it): instalments 1–5 less the half paid.
    expect(first.overdue_amount).toBe(rows.slice(2, 7).reduce((sum, r) => sum + Number(r.amount), 0) - half);
    expect(first.contract_pdf_url).toBeNull();

    // Paging is bounded and strict.
    expect((await send('/api/customer/purchases?per_page=101', token)).statusCode).toBe(422);
    expect((await send('/api/customer/purchases?status=ANULADA', token)).statusCode).toBe(422);
    const one = purchasesPageSchema.parse((await send('/api/customer/purchases?per_page=1&page=2', token)).json());
    expect(one.data).toHaveLength(1);
  });

  it('answers the statement: schedule states, days late and late fees, payments with vouchers, the lot on the plan, no contract', async () => {
    const me = await createCustomer(db());
    const token = await createSession(db(), me);
    const saleId = await sale([{ customer: me, role: 'TITULAR', share: '100' }]);
    const rows = await rowsOf(saleId);
    for (const row of rows.slice(0, 3))
      await db().updateTable('sale_instalments').set({ paid: row.amount, status: 'PAGADA' }).where('id', '=', row.id).execute();
    // Instalment 2 (due 2025-12-01) is overdue, partly paid, with S/ 5.00 of its late fee paid and S/ 2.00 waived; the
    // stored figure (S/ 25.00, an older run of the daily job) is refigured for today.
    await db()
      .updateTable('sale_instalments')
      .set({ paid: 10_000, late_fee_accrued: 2_500, late_fee_paid: 500, late_fee_waived: 200, late_fee_as_of: '2026-03-02' })
      .where('id', '=', rows[3]!.id)
      .execute();
    const walletId = await createWallet(db(), { clock: ctx().clock });
    const now = ctx().clock.now().toISOString();
    const { id: paymentId } = await db()
      .insertInto('payments')
      .values({
        sale_id: saleId,
        reservation_id: null,
        customer_id: me.id,
        currency: 'PEN',
        amount: 50_000,
        method: 'YAPE',
        bank_account_id: null,
        wallet_id: walletId,
        operation_number: 'OP-1',
        operation_date: '2026-03-01',
        note: null,
        source: 'PORTAL',
        registered_by_user_id: null,
        status: 'RECHAZADO',
        reject_reason: 'La imagen no se lee',
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const { id: voucherId } = await db()
      .insertInto('payment_vouchers')
      .values({ payment_id: paymentId, content_type: 'image/png', size: 64, created_at: now, data: png(10, 10) })
      .returning('id')
      .executeTakeFirstOrThrow();

    const res = await send(`/api/customer/purchases/${saleId}`, token);
    expect(res.statusCode, res.body).toBe(200);
    const detail = purchaseDetailResponseSchema.parse(res.json()).data;
    expect(detail).toMatchObject({ id: saleId, type: 'FINANCIADO', instalments: 6, method: 'SIN_INTERES', contract_pdf_url: null });
    expect(detail.map).toMatchObject({ subdivision_key: expect.any(String), lot_code: expect.any(String) });
    expect(detail.schedule.map((r) => [r.kind, r.number, r.status])).toEqual([
      ['INICIAL', 1, 'PAGADA'],
      ['INICIAL', 2, 'PAGADA'],
      ['CUOTA', 1, 'PAGADA'],
      ['CUOTA', 2, 'VENCIDA'],
      ['CUOTA', 3, 'VENCIDA'],
      ['CUOTA', 4, 'VENCIDA'],
      ['CUOTA', 5, 'VENCIDA'],
      ['CUOTA', 6, 'PENDIENTE'],
    ]);
    const second = detail.schedule[3]!;
    // Due 2025-12-01: 91 days late on 2026-03-02 (counted from the due date). 3 grace days and S/ 5.00 a day (the
    // default policy): the fee runs from 2025-12-05, 88 days (the amount paid was credited at the sale date: no
    // payment dates it later) → S/ 440.00.
    expect(second).toMatchObject({
      id: rows[3]!.id,
      due_date: '2025-12-01',
      paid: 10_000,
      balance: Number(rows[3]!.amount) - 10_000,
      days_late: 91,
      late_fee_accrued: 44_000,
      late_fee_paid: 500,
      late_fee_waived: 200,
      late_fee_due: 43_300,
    });
    // Instalments 3 (60 days late, 57 of fee), 4 (29 days, 26 of fee) and 5 (1 day, within its grace: no fee) are late too.
    expect(detail.schedule.slice(4, 7).map((r) => [r.days_late, r.late_fee_due])).toEqual([
      [60, 28_500],
      [29, 13_000],
      [1, 0],
    ]);
    expect(detail.schedule[0]!.days_late).toBe(0);
    expect(detail.late_fee_due).toBe(43_300 + 28_500 + 13_000);
    expect(detail.payments).toEqual([
      {
        id: paymentId,
        status: 'RECHAZADO',
        amount: 50_000,
        currency: 'PEN',
        method: 'YAPE',
        operation_number: 'OP-1',
        operation_date: '2026-03-01',
        receipt_number: null,
        receipt_url: null,
        reject_reason: 'La imagen no se lee',
        vouchers: [{ id: voucherId, content_type: 'image/png', url: `/api/customer/payments/${paymentId}/vouchers/${voucherId}` }],
        created_at: now,
      },
    ]);
    // No personal data of the staff, no internal notes.
    expect(JSON.stringify(detail)).not.toMatch(/agent|registered_by|reviewed_by|note/);

    // An unpublished subdivision has no public map: no map link.
    const hidden = await sale([{ customer: me, role: 'TITULAR', share: '100' }], false);
    expect(purchaseDetailResponseSchema.parse((await send(`/api/customer/purchases/${hidden}`, token)).json()).data.map).toBeNull();
  });

  it('never reveals another customer’s sale (404), refuses staff (403) and anonymous callers (401)', async () => {
    const [me, other] = [await createCustomer(db()), await createCustomer(db())];
    const token = await createSession(db(), me);
    const theirs = await sale([{ customer: other, role: 'TITULAR', share: '100' }]);
    const mine = await sale([{ customer: me, role: 'TITULAR', share: '100' }]);
    const annulled = await sale([{ customer: me, role: 'TITULAR', share: '100' }]);
    await annulSale({ db: db(), clock: ctx().clock }, systemAuditContext(ctx().clock), annulled, { reason: 'Prueba de anulación' });

    for (const url of [
      `/api/customer/purchases/${theirs}`,
      `/api/customer/purchases/${annulled}`,
      '/api/customer/purchases/999999',
      '/api/customer/purchases/abc',
    ]) {
      const res = await send(url, token);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().message).not.toMatch(/permiso/i);
    }
    expect((await send(`/api/customer/purchases/${theirs}`, token)).json()).toEqual({ message: PURCHASE_MESSAGES.notFound });
    expect((await send(`/api/customer/purchases/${mine}`, token)).statusCode).toBe(200);

    const staff = await createStaff(db(), { permissions: [MODULE.comercial, SUBMODULE.ventas] });
    const staffToken = await createSession(db(), staff);
    for (const url of ['/api/customer/purchases', `/api/customer/purchases/${mine}`, '/api/customer/payment-options'])
      expect((await send(url, staffToken)).statusCode, url).toBe(403);
    expect((await send('/api/customer/purchases')).statusCode).toBe(401);
  });

  it('lists the active wallets and bank accounts, and serves only an active wallet’s QR', async () => {
    await db().deleteFrom('payments').execute();
    await db().deleteFrom('wallets').execute();
    await db().deleteFrom('bank_accounts').execute();
    const me = await createCustomer(db());
    const token = await createSession(db(), me);
    const qr = png(40, 40);
    const yape = await createWallet(db(), {
      kind: 'YAPE',
      phone: '987654321',
      qr: { contentType: 'image/png', data: qr },
      clock: ctx().clock,
    });
    const plin = await createWallet(db(), { kind: 'PLIN', phone: '912345678' });
    const retired = await createWallet(db(), {
      kind: 'YAPE',
      phone: '955555555',
      active: false,
      qr: { contentType: 'image/png', data: qr },
    });
    const account = await createBankAccount(db(), { bank: 'BCP', currency: 'PEN' });
    await createBankAccount(db(), { bank: 'BBVA', active: false });

    const res = await send('/api/customer/payment-options', token);
    expect(res.statusCode, res.body).toBe(200);
    const options = paymentOptionsResponseSchema.parse(res.json()).data;
    expect(options.wallets.map((w) => [w.id, w.kind, w.phone, w.qr_url === null])).toEqual([
      [yape, 'YAPE', '987654321', false],
      [plin, 'PLIN', '912345678', true],
    ]);
    expect(options.wallets[0]!.qr_url).toMatch(new RegExp(`^/api/customer/wallets/${yape}/qr\\?v=\\d+$`));
    expect(options.bank_accounts).toHaveLength(1);
    expect(options.bank_accounts[0]).toMatchObject({
      id: account,
      bank: 'BCP',
      bank_name: expect.stringContaining('BCP'),
      currency: 'PEN',
    });
    expect(options.bank_accounts[0]!.cci).toMatch(/^\d{20}$/);
    expect(JSON.stringify(options)).not.toMatch(/version|active/);

    const image = await send(options.wallets[0]!.qr_url!, token);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(qr)).toBe(true);
    expect((await send(`/api/customer/wallets/${retired}/qr`, token)).statusCode).toBe(404);
    expect((await send(`/api/customer/wallets/${plin}/qr`, token)).statusCode).toBe(404);
    expect((await send('/api/customer/wallets/0/qr', token)).statusCode).toBe(404);
  });

  it('lists only the bank accounts in the purchase’s currency when asked (docs/decisions.md "Customer journey details (accessibility)")', async () => {
    await db().deleteFrom('payments').execute();
    await db().deleteFrom('bank_accounts').execute();
    const me = await createCustomer(db());
    const token = await createSession(db(), me);
    const soles = await createBankAccount(db(), { bank: 'BCP', currency: 'PEN' });
    const dollars = await createBankAccount(db(), { bank: 'BBVA', currency: 'USD' });
    await createBankAccount(db(), { bank: 'IBK', currency: 'PEN', active: false });
    const ids = async (url: string) => {
      const res = await send(url, token);
      expect(res.statusCode, res.body).toBe(200);
      return paymentOptionsResponseSchema.parse(res.json()).data.bank_accounts.map((a) => [a.id, a.currency]);
    };
    expect(await ids('/api/customer/payment-options?currency=PEN')).toEqual([[soles, 'PEN']]);
    expect(await ids('/api/customer/payment-options?currency=USD')).toEqual([[dollars, 'USD']]);
    expect(await ids('/api/customer/payment-options')).toEqual([
      [soles, 'PEN'],
      [dollars, 'USD'],
    ]);
    for (const bad of ['?currency=EUR', '?currency=', '?moneda=PEN']) {
      expect((await send(`/api/customer/payment-options${bad}`, token)).statusCode, bad).toBe(422);
    }
  });

  describe('PagoYape', () => {
    const post = (url: string, token: string, payload: object) =>
      ctx().app.inject({ method: 'POST', url, headers: bearer(token), payload });

    it('pays the oldest instalments with every late fee owed: 422 out of order, 409 on another amount, then PENDIENTE with its capture, approved, receipt', async () => {
      await db().deleteFrom('payments').execute();
      const [me, other] = [await createCustomer(db()), await createCustomer(db())];
      const [token, otherToken] = [await createSession(db(), me), await createSession(db(), other)];
      const saleId = await sale([{ customer: me, role: 'TITULAR', share: '100' }]);
      const wallet = await createWallet(db(), { kind: 'PLIN', clock: ctx().clock });
      const retired = await createWallet(db(), { active: false });
      const statement = async () =>
        purchaseDetailResponseSchema.parse((await send(`/api/customer/purchases/${saleId}`, token)).json()).data;
      const before = await statement();
      const [first, second, third] = before.schedule;
      // Fees are owed on the overdue rows (down payment parts due 2025-10-01 and 2025-11-01 … as of 2026-03-02).
      const fees = before.schedule.reduce((sum, r) => sum + r.late_fee_due, 0);
      expect(fees).toBeGreaterThan(0);
      const two = fees + first!.balance + second!.balance;
      const body = {
        wallet_id: wallet,
        instalment_ids: [first!.id, second!.id],
        amount: two,
        operation_number: ' op 123 ',
        operation_date: '2026-03-02',
      };
      const url = `/api/customer/purchases/${saleId}/payments`;

      const skipped = await post(url, token, { ...body, instalment_ids: [second!.id] });
      expect(skipped.statusCode).toBe(422);
      expect(skipped.json()).toMatchObject({
        message: PURCHASE_MESSAGES.oldestFirst,
        errors: { instalment_ids: [PURCHASE_MESSAGES.oldestFirst] },
      });
      expect((await post(url, token, { ...body, instalment_ids: [first!.id, third!.id] })).statusCode).toBe(422);
      expect((await post(url, token, { ...body, instalment_ids: [first!.id, 999_999] })).json().message).toBe(
        PURCHASE_MESSAGES.unknownInstalment,
      );
      expect((await post(url, token, { ...body, instalment_ids: [] })).statusCode).toBe(422);
      const changed = await post(url, token, { ...body, amount: two - 1 });
      expect(changed.statusCode).toBe(409);
      expect(changed.json().message).toContain(PURCHASE_MESSAGES.amountChanged);
      expect((await post(url, token, { ...body, wallet_id: retired })).json()).toMatchObject({
        errors: { wallet_id: [PURCHASE_MESSAGES.inactiveWallet] },
      });
      expect((await post(url, token, { ...body, operation_date: '2026-03-03' })).statusCode).toBe(422);
      expect((await post(url, token, { ...body, bank_account_id: 1 })).statusCode).toBe(422);
      // Another customer's sale: 404, as if it did not exist.
      expect((await post(url, otherToken, body)).statusCode).toBe(404);
      expect(await db().selectFrom('payments').select('id').execute()).toEqual([]);

      const created = await post(url, token, body);
      expect(created.statusCode, created.body).toBe(201);
      const { payment, message } = customerPaymentCreatedResponseSchema.parse(created.json()).data;
      expect(message).toBe(PURCHASE_MESSAGES.sent);
      expect(payment).toMatchObject({
        status: 'PENDIENTE',
        amount: two,
        method: 'PLIN',
        operation_number: 'OP123',
        receipt_url: null,
        vouchers: [],
      });
      const stored = await db().selectFrom('payments').selectAll().where('id', '=', payment.id).executeTakeFirstOrThrow();
      expect(stored).toMatchObject({
        customer_id: me.id,
        sale_id: saleId,
        wallet_id: wallet,
        source: 'PORTAL',
        registered_by_user_id: null,
      });
      // Sent again while the first waits for review: one pending portal payment per purchase (409 naming it).
      const again = await post(url, token, body);
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toContain(PAYMENT_MESSAGES.pendingPortalPayment);
      expect(again.json().message).toContain('OP123');

      // The capture: only the payer (another customer: 404), only images.
      const voucherUrl = `/api/customer/payments/${payment.id}/vouchers`;
      const image = png(20, 20);
      const upload = (who: string, part = multipart('voucher', 'captura.png', 'image/png', image)) =>
        ctx().app.inject({ method: 'POST', url: voucherUrl, headers: { ...bearer(who), ...part.headers }, payload: part.payload });
      expect((await upload(otherToken)).statusCode).toBe(404);
      expect((await upload(token, multipart('voucher', 'x.png', 'image/png', Buffer.from('no soy una imagen')))).statusCode).toBe(422);
      const uploaded = await upload(token);
      expect(uploaded.statusCode, uploaded.body).toBe(201);
      const withVoucher = customerPaymentResponseSchema.parse(uploaded.json()).data;
      expect(withVoucher.vouchers).toHaveLength(1);
      const voucher = await send(withVoucher.vouchers[0]!.url, token);
      expect(voucher.statusCode).toBe(200);
      expect(voucher.headers['content-type']).toBe('image/png');
      expect(voucher.rawPayload.equals(image)).toBe(true);
      expect((await send(withVoucher.vouchers[0]!.url, otherToken)).statusCode).toBe(404);
      expect((await send(`/api/customer/payments/${payment.id}/vouchers/999999`, token)).statusCode).toBe(404);
      // No receipt before approval.
      expect((await send(`/api/customer/payments/${payment.id}/receipt`, token)).statusCode).toBe(409);

      // Staff approve it: the customer sees both instalments paid, the fees paid, and downloads the receipt.
      const reviewer = await createSession(db(), await createStaff(db(), { permissions: [MODULE.finanzas, SUBMODULE.pagos] }));
      const approved = await post(`/api/payments/${payment.id}/approve`, reviewer, {});
      expect(approved.statusCode, approved.body).toBe(200);
      const after = await statement();
      expect(after.schedule.slice(0, 2).map((r) => r.status)).toEqual(['PAGADA', 'PAGADA']);
      expect(after.late_fee_due).toBe(0);
      const paid = after.payments.find((p) => p.id === payment.id)!;
      expect(paid.status).toBe('APROBADO');
      expect(paid.receipt_number).toMatch(/^R001-\d+$/);
      const receipt = await send(paid.receipt_url!, token);
      expect(receipt.statusCode).toBe(200);
      expect(receipt.headers['content-type']).toBe('application/pdf');
      expect(receipt.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
      expect((await send(paid.receipt_url!, otherToken)).statusCode).toBe(404);
      // A capture after the review is refused.
      expect((await upload(token)).statusCode).toBe(409);
    });

    it('refuses staff tokens on every customer payment route and bad ids as 404', async () => {
      const staffToken = await createSession(db(), await createStaff(db(), { permissions: [MODULE.finanzas, SUBMODULE.pagos] }));
      expect((await post('/api/customer/purchases/1/payments', staffToken, {})).statusCode).toBe(403);
      expect((await send('/api/customer/payments/1/vouchers/1', staffToken)).statusCode).toBe(403);
      expect((await send('/api/customer/payments/1/receipt', staffToken)).statusCode).toBe(403);
      const token = await createSession(db(), await createCustomer(db()));
      expect((await send('/api/customer/payments/abc/receipt', token)).statusCode).toBe(404);
      expect((await send('/api/customer/payments/999999/receipt', token)).statusCode).toBe(404);
      expect((await send('/api/customer/payments/1/vouchers/x', token)).statusCode).toBe(404);
    });
  });
});
