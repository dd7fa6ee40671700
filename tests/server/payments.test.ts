import { describe, expect, it } from 'vitest';
import { saleResponseSchema, type Sale } from '../../src/schemas/comercio/sales';
import { BANK_ACCOUNT_MESSAGES } from '../../src/schemas/finanzas/bank-accounts';
import { WALLET_MESSAGES } from '../../src/schemas/finanzas/wallets';
import { PAYMENT_MESSAGES, paymentResponseSchema, paymentsPageSchema, type Payment } from '../../src/schemas/finanzas/payments';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { STALE_RECORD_MESSAGE } from '../../src/schemas/versions';
import { DAY_MS } from '../../server/clock';
import { formatMoney } from '../../src/lib/money';
import {
  createBankAccount,
  createCrmCustomer,
  createCustomer,
  createLot,
  createSession,
  createStaff,
  createSubdivision,
  createWallet,
  ensureCompany,
} from '../../server/testing/fixtures';
import { addPaymentVoucher, registerPayment } from '../../server/modules/finanzas/payments.service';
import { systemAuditContext } from '../../server/audit/audit';
import { bearer, dialects, silentBroadcaster, useTestApp, useTestDatabase, multipartBody } from './harness';
import { png } from './images';
import { pdfText } from './pdf-text';

/**
 * Finanzas → Pagos (issue 16): registration, review (approve / reject / annul), the allocation and
 * late fees as approval stores them, receipts without gaps, vouchers, and the race of two reviewers.
 * The test clock starts on 2026-03-02 (Lima) and is moved by hand.
 */

/** A multipart/form-data body with one file part. */
function multipart(field: string, content: Buffer, contentType = 'image/png') {
  return multipartBody({ field, filename: 'voucher', contentType, content });
}

describe.each(dialects)('payments (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);
  let n = 0;

  const send = (method: 'POST' | 'GET' | 'PATCH', url: string, token: string, payload?: unknown) =>
    ctx().app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const reviewer = async () => createSession(db(), await createStaff(db(), { permissions: [MODULE.finanzas, SUBMODULE.pagos] }));
  const seller = async () => createSession(db(), await createStaff(db(), { permissions: [MODULE.comercial, SUBMODULE.ventas] }));

  /**
   * A sale of a S/ 30 000.00 lot to `buyer` (a new CRM customer by default): down payment S/ 6 000.00
   * due on the sale date, then 3 interest-free instalments of S/ 8 000.00 from `firstDue`.
   */
  async function sale(options: { buyer?: number; firstDue?: string; saleDate?: string } = {}): Promise<Sale> {
    const subdivision = await createSubdivision(db());
    const lotId = await createLot(db(), subdivision.id, { block: 'P', number: String(++n) });
    const buyer = options.buyer ?? (await createCrmCustomer(db()));
    const res = await send('POST', '/api/sales', await seller(), {
      lot_id: lotId,
      holders: [{ customer_id: buyer, role: 'TITULAR', share_percent: '100' }],
      down_payment_percent: '20',
      instalments: 3,
      monthly_rate_percent: '0',
      method: 'SIN_INTERES',
      first_due_date: options.firstDue ?? '2026-04-01',
      ...(options.saleDate ? { sale_date: options.saleDate } : {}),
    });
    expect(res.statusCode, res.body).toBe(201);
    return saleResponseSchema.parse(res.json()).data;
  }

  async function register(token: string, body: Record<string, unknown>): Promise<Payment> {
    const res = await send('POST', '/api/payments', token, { method: 'EFECTIVO', operation_date: '2026-03-02', ...body });
    expect(res.statusCode, res.body).toBe(201);
    return paymentResponseSchema.parse(res.json()).data;
  }
  const approve = (token: string, id: number, body: object = {}) => send('POST', `/api/payments/${id}/approve`, token, body);
  const instalments = (saleId: number) =>
    db()
      .selectFrom('sale_instalments')
      .select(['kind', 'number', 'paid', 'status', 'late_fee_accrued', 'late_fee_paid'])
      .where('sale_id', '=', saleId)
      .orderBy('kind')
      .orderBy('number')
      .execute()
      .then((rows) =>
        rows.map((r) => ({
          ...r,
          paid: Number(r.paid),
          late_fee_accrued: Number(r.late_fee_accrued),
          late_fee_paid: Number(r.late_fee_paid),
        })),
      );
  const saleStatus = async (id: number) =>
    (await db().selectFrom('sales').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  it('registers a transfer PENDIENTE, previews and approves it: down payment first, receipt numbered, sale EN_CUOTAS, payer notified', async () => {
    const token = await reviewer();
    // Another reviewer approves: who registered a payment does not (docs/domain.md "Payments: segregation of duties").
    const checker = await reviewer();
    const s = await sale();
    const account = await createBankAccount(db());
    const payment = await register(token, {
      sale_id: s.id,
      amount: 700_000,
      method: 'TRANSFERENCIA',
      bank_account_id: account,
      operation_number: ' op 123-45 ',
    });
    expect(payment).toMatchObject({
      status: 'PENDIENTE',
      source: 'OFICINA',
      operation_number: 'OP123-45',
      receipt_number: null,
      amount: 700_000,
    });
    expect(payment.destination?.kind).toBe('BANK_ACCOUNT');
    const reviewers = await db().selectFrom('notifications').select(['title', 'route']).where('title', '=', 'Pago por revisar').execute();
    expect(reviewers.length).toBeGreaterThan(0);

    const one = paymentResponseSchema.parse((await send('GET', `/api/payments/${payment.id}`, token)).json()).data;
    expect(one.allocation_preview?.map((a) => [a.kind, a.number, a.to_late_fee, a.to_capital])).toEqual([
      ['INICIAL', 1, 0, 600_000],
      ['CUOTA', 1, 0, 100_000],
    ]);

    const res = await approve(checker, payment.id, { version: one.version });
    expect(res.statusCode, res.body).toBe(200);
    const approved = paymentResponseSchema.parse(res.json()).data;
    expect(approved.status).toBe('APROBADO');
    expect(approved.receipt_number).toMatch(/^R001-\d{8}$/);
    expect(approved.allocations.reduce((sum, a) => sum + a.to_capital + a.to_late_fee, 0)).toBe(700_000);
    expect((await instalments(s.id)).map((r) => [r.kind, r.number, r.paid, r.status])).toEqual([
      ['CUOTA', 1, 100_000, 'PARCIAL'],
      ['CUOTA', 2, 0, 'PENDIENTE'],
      ['CUOTA', 3, 0, 'PENDIENTE'],
      ['INICIAL', 1, 600_000, 'PAGADA'],
    ]);
    expect(await saleStatus(s.id)).toBe('EN_CUOTAS');
    const sold = saleResponseSchema.parse((await send('GET', `/api/sales/${s.id}`, await seller())).json()).data;
    expect(sold.paid).toBe(700_000);
    const payer = await db()
      .selectFrom('notifications')
      .select(['title', 'route'])
      .where('recipient_type', '=', 'CUSTOMER')
      .where('recipient_id', '=', s.holders[0]!.id)
      .execute();
    expect(payer).toEqual([{ title: 'Pago aprobado', route: `/COMERCIO/DetalleCompra?venta=${s.id}` }]);

    const pdf = await send('GET', `/api/payments/${payment.id}/receipt`, token);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    // The amount in words and what the sale still owes after this payment (docs/domain.md "Receipts").
    const text = pdfText(pdf.rawPayload);
    expect(text).toContain('SON: SIETE MIL CON 00/100 SOLES');
    expect(text).toContain('Saldo después de este pago:');
    expect(text).toContain(formatMoney(sold.balance, 'PEN'));
    // A later payment lowers the balance on its own receipt; the first one reprints as it was issued.
    const second = await register(token, {
      sale_id: s.id,
      amount: 100_000,
      method: 'TRANSFERENCIA',
      bank_account_id: account,
      operation_number: 'OP-2',
    });
    expect((await approve(checker, second.id)).statusCode).toBe(200);
    const secondText = pdfText((await send('GET', `/api/payments/${second.id}/receipt`, token)).rawPayload);
    expect(secondText).toContain('SON: MIL CON 00/100 SOLES');
    expect(secondText).toContain(`Saldo después de este pago: ${formatMoney(sold.balance - 100_000, 'PEN')}`);
    expect(pdfText((await send('GET', `/api/payments/${payment.id}/receipt`, token)).rawPayload)).toContain(
      `Saldo después de este pago: ${formatMoney(sold.balance, 'PEN')}`,
    );
    // Approving twice is a 409 (already reviewed), and changes nothing.
    const again = await approve(checker, payment.id);
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(PAYMENT_MESSAGES.alreadyReviewed);
  });

  it('charges the late fee first: S/ 5.00 a day after 3 grace days, stored by approval, and the last céntimo makes the sale CANCELADA', async () => {
    const token = await reviewer();
    // Another reviewer approves: who registered a payment does not (docs/domain.md "Payments: segregation of duties").
    const checker = await reviewer();
    const s = await sale({ firstDue: '2026-03-05' });
    // Down payment and instalment 1 unpaid; instalment 1 is due 05/03, late from 09/03.
    ctx().clock.advance(10 * DAY_MS); // 2026-03-12: 4 late days on instalment 1 → S/ 20.00
    const debt = 3_000_000 + 5_500; // fees: the down payment (due 02/03, late from 06/03: 7 days) S/ 35.00 and instalment 1 S/ 20.00
    const over = await send('POST', '/api/payments', token, {
      sale_id: s.id,
      amount: debt + 1,
      method: 'EFECTIVO',
      operation_date: '2026-03-12',
    });
    expect(over.statusCode).toBe(422);
    expect(over.json().errors.amount[0]).toContain(PAYMENT_MESSAGES.exceedsDebt);
    const first = await register(token, { sale_id: s.id, amount: 602_000, operation_date: '2026-03-12' });
    expect((await approve(checker, first.id)).statusCode).toBe(200);
    const afterFirst = await instalments(s.id);
    // Down payment (due on the sale date 02/03, late from 06/03: 7 days → S/ 35.00) and instalment 1 (S/ 20.00): 5 500 of fees first.
    expect(afterFirst.find((r) => r.kind === 'INICIAL')).toMatchObject({ late_fee_accrued: 3_500, late_fee_paid: 3_500 });
    expect(afterFirst.find((r) => r.kind === 'CUOTA' && r.number === 1)).toMatchObject({
      late_fee_accrued: 2_000,
      late_fee_paid: 2_000,
      status: 'VENCIDA',
    });
    expect(afterFirst.find((r) => r.kind === 'INICIAL')?.paid).toBe(596_500);
    // The sale's statement for staff (GET /api/sales/{id}) carries the late fees too.
    const statement = saleResponseSchema.parse((await send('GET', `/api/sales/${s.id}`, await seller())).json()).data.schedule;
    expect(statement.find((r) => r.kind === 'CUOTA' && r.number === 1)).toMatchObject({
      status: 'VENCIDA',
      late_fee_accrued: 2_000,
      late_fee_paid: 2_000,
    });

    const rest = await send('GET', `/api/payments?sale_id=${s.id}`, token);
    expect(paymentsPageSchema.parse(rest.json()).data).toHaveLength(1);
    const remaining = 3_000_000 - 596_500;
    const last = await register(token, { sale_id: s.id, amount: remaining, operation_date: '2026-03-12' });
    const res = await approve(checker, last.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(await saleStatus(s.id)).toBe('CANCELADA');
    expect((await instalments(s.id)).every((r) => r.status === 'PAGADA')).toBe(true);
    // A CANCELADA sale takes no more payments.
    const more = await send('POST', '/api/payments', token, { sale_id: s.id, amount: 1, method: 'EFECTIVO', operation_date: '2026-03-12' });
    expect(more.statusCode).toBe(409);
    ctx().clock.set('2026-03-02T15:00:00.000Z');
  });

  it('refuses the same operation number on the same account while it counts, a wrong destination, a date outside [the sale, today] — in Spanish', async () => {
    const token = await reviewer();
    const s = await sale();
    const account = await createBankAccount(db());
    const other = await createBankAccount(db());
    const usd = await createBankAccount(db(), { currency: 'USD' });
    const wallet = await createWallet(db(), { kind: 'PLIN' });
    const base = {
      sale_id: s.id,
      amount: 1_000,
      method: 'DEPOSITO',
      bank_account_id: account,
      operation_number: 'A1',
      operation_date: '2026-03-02',
    };
    const first = await register(token, base);
    const dup = await send('POST', '/api/payments', token, base);
    expect(dup.statusCode).toBe(422);
    expect(dup.json().errors.operation_number).toEqual([PAYMENT_MESSAGES.duplicateOperation]);
    expect((await send('POST', '/api/payments', token, { ...base, bank_account_id: other })).statusCode).toBe(201);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ bank_account_id: usd }, 'bank_account_id', PAYMENT_MESSAGES.currency],
      [{ bank_account_id: undefined }, 'bank_account_id', PAYMENT_MESSAGES.bankAccount],
      [{ method: 'YAPE', bank_account_id: undefined, wallet_id: wallet }, 'wallet_id', PAYMENT_MESSAGES.walletKind],
      [{ operation_number: undefined }, 'operation_number', PAYMENT_MESSAGES.operationNumber],
      [{ operation_number: 'no válido!' }, 'operation_number', PAYMENT_MESSAGES.operationNumberFormat],
      [{ operation_date: '2026-03-03' }, 'operation_date', PAYMENT_MESSAGES.futureDate],
      [{ operation_date: '2026-03-01' }, 'operation_date', `${PAYMENT_MESSAGES.beforeTarget} (02/03/2026)`],
      [{ operation_date: '2000-01-01' }, 'operation_date', `${PAYMENT_MESSAGES.beforeTarget} (02/03/2026)`],
      [{ operation_date: '2026-02-30' }, 'operation_date', PAYMENT_MESSAGES.operationDate],
      [{ amount: 0 }, 'amount', PAYMENT_MESSAGES.amount],
    ];
    for (const [change, field, message] of cases) {
      const res = await send('POST', '/api/payments', token, { ...base, operation_number: `X${++n}`, ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(422);
      expect(res.json().errors[field], JSON.stringify(change)).toEqual([message]);
    }
    const both = await send('POST', '/api/payments', token, { ...base, reservation_id: 1 });
    expect(both.statusCode).toBe(422);
    // Rejected, the operation number may be sent again.
    const rejected = await send('POST', `/api/payments/${first.id}/reject`, token, { reason: 'Voucher ilegible' });
    expect(rejected.statusCode).toBe(200);
    expect(paymentResponseSchema.parse(rejected.json()).data).toMatchObject({ status: 'RECHAZADO', reject_reason: 'Voucher ilegible' });
    expect((await send('POST', '/api/payments', token, base)).statusCode).toBe(201);
    expect((await approve(token, first.id)).statusCode).toBe(409);
  });

  it('two reviewers approving the same payment at once: one allocation, one receipt number, the other a 409', async () => {
    const token = await reviewer();
    // Another reviewer approves: who registered a payment does not (docs/domain.md "Payments: segregation of duties").
    const checker = await reviewer();
    const other = await reviewer();
    const s = await sale();
    const payment = await register(token, { sale_id: s.id, amount: 600_000 });
    const before = Number((await db().selectFrom('receipt_counters').select('last_number').executeTakeFirstOrThrow()).last_number);
    const results = await Promise.all([approve(checker, payment.id), approve(other, payment.id), approve(checker, payment.id)]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    const allocations = await db().selectFrom('payment_allocations').selectAll().where('payment_id', '=', payment.id).execute();
    expect(allocations.reduce((sum, a) => sum + Number(a.to_capital) + Number(a.to_late_fee), 0)).toBe(600_000);
    expect((await instalments(s.id)).find((r) => r.kind === 'INICIAL')?.paid).toBe(600_000);
    const after = Number((await db().selectFrom('receipt_counters').select('last_number').executeTakeFirstOrThrow()).last_number);
    expect(after).toBe(before + 1);
  });

  it('annuls an approved payment with a reason: the instalments and the sale go back, the receipt stays; a stale version is a 409', async () => {
    const token = await reviewer();
    // Another reviewer approves: who registered a payment does not (docs/domain.md "Payments: segregation of duties").
    const checker = await reviewer();
    const s = await sale();
    const payment = await register(token, { sale_id: s.id, amount: 3_000_000 });
    const approved = paymentResponseSchema.parse((await approve(checker, payment.id)).json()).data;
    expect(await saleStatus(s.id)).toBe('CANCELADA');
    const stale = await send('POST', `/api/payments/${payment.id}/annul`, token, {
      reason: 'Aprobado por error',
      version: approved.version! - 1,
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(STALE_RECORD_MESSAGE);
    const res = await send('POST', `/api/payments/${payment.id}/annul`, token, { reason: 'Aprobado por error', version: approved.version });
    expect(res.statusCode, res.body).toBe(200);
    expect(paymentResponseSchema.parse(res.json()).data).toMatchObject({ status: 'ANULADO', receipt_number: approved.receipt_number });
    expect(await saleStatus(s.id)).toBe('REGISTRADA');
    expect((await instalments(s.id)).every((r) => r.paid === 0)).toBe(true);
    expect((await send('POST', `/api/payments/${payment.id}/annul`, token, { reason: 'Otra vez' })).statusCode).toBe(409);
    expect((await send('POST', `/api/payments/${payment.id}/annul`, token, { reason: 'x' })).statusCode).toBe(422);
    expect((await send('GET', `/api/payments/${payment.id}/receipt`, token)).statusCode).toBe(200);
    const history = await db()
      .selectFrom('change_history')
      .select('action')
      .where('entity', '=', 'payments')
      .where('record_id', '=', String(payment.id))
      .execute();
    expect(history.map((h) => h.action)).toEqual(['CREATE', 'UPDATE', 'UPDATE']);
  });

  it('a reservation is paid by its exact amount; approval makes it VIGENTE', async () => {
    const token = await reviewer();
    // Another reviewer approves: who registered a payment does not (docs/domain.md "Payments: segregation of duties").
    const checker = await reviewer();
    const subdivision = await createSubdivision(db());
    const lotId = await createLot(db(), subdivision.id, { block: 'R', number: String(++n) });
    const customer = await createCrmCustomer(db());
    const reserved = await send('POST', '/api/reservations', await seller(), {
      customer_id: customer,
      lot_id: lotId,
      amount: 50_000,
      conditions_accepted: true,
    });
    expect(reserved.statusCode, reserved.body).toBe(201);
    const reservationId = (reserved.json() as { data: { id: number } }).data.id;
    const wrong = await send('POST', '/api/payments', token, {
      reservation_id: reservationId,
      amount: 40_000,
      method: 'EFECTIVO',
      operation_date: '2026-03-02',
    });
    expect(wrong.statusCode).toBe(422);
    const payment = await register(token, { reservation_id: reservationId, amount: 50_000 });
    expect(payment.reservation?.id).toBe(reservationId);
    expect((await approve(checker, payment.id)).statusCode).toBe(200);
    expect((await db().selectFrom('reservations').select('status').where('id', '=', reservationId).executeTakeFirstOrThrow()).status).toBe(
      'VIGENTE',
    );
  });

  it('vouchers: images only (sniffed), served back with their type; a portal payment needs one before approval; a customer reaches only their own', async () => {
    const token = await reviewer();
    const portal = await createCustomer(db());
    const stranger = await createCustomer(db());
    const s = await sale({ buyer: portal.id });
    const wallet = await createWallet(db(), { kind: 'YAPE' });
    const actor = {
      kind: 'CUSTOMER' as const,
      customerId: portal.id,
      audit: { ...systemAuditContext(ctx().clock), actor: { userType: 'CUSTOMER' as const, accountId: portal.id } },
    };
    const body = {
      sale_id: s.id,
      amount: 600_000,
      method: 'YAPE' as const,
      wallet_id: wallet,
      operation_number: 'Y1',
      operation_date: '2026-03-02',
    };
    const deps = { db: db(), clock: ctx().clock, broadcaster: silentBroadcaster };
    await expect(registerPayment(deps, { ...actor, customerId: stranger.id }, body)).rejects.toMatchObject({ statusCode: 404 });
    const payment = await registerPayment(deps, actor, body);
    expect(payment.source).toBe('PORTAL');
    const noVoucher = await approve(token, payment.id);
    expect(noVoucher.statusCode).toBe(409);
    expect(noVoucher.json().message).toBe(PAYMENT_MESSAGES.noVoucher);

    const text = await ctx().app.inject({
      method: 'POST',
      url: `/api/payments/${payment.id}/vouchers`,
      headers: { ...bearer(token), ...multipart('voucher', Buffer.from('<svg onload=alert(1)>')).headers },
      payload: multipart('voucher', Buffer.from('<svg onload=alert(1)>')).payload,
    });
    expect(text.statusCode).toBe(422);
    expect(text.json().errors.voucher).toEqual([PAYMENT_MESSAGES.voucherNotImage]);
    await expect(addPaymentVoucher(deps, { ...actor, customerId: stranger.id }, payment.id, png(10, 10))).rejects.toMatchObject({
      statusCode: 404,
    });
    const withVoucher = await addPaymentVoucher(deps, actor, payment.id, png(10, 10));
    expect(withVoucher.vouchers).toHaveLength(1);
    const image = await send('GET', withVoucher.vouchers[0]!.url, token);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['x-content-type-options']).toBe('nosniff');
    expect((await send('GET', `/api/payments/${payment.id + 1000}/vouchers/${withVoucher.vouchers[0]!.id}`, token)).statusCode).toBe(404);
    expect((await approve(token, payment.id)).statusCode).toBe(200);
    // Once reviewed, no more vouchers.
    await expect(addPaymentVoucher(deps, actor, payment.id, png(10, 10))).rejects.toMatchObject({ statusCode: 409 });
  });

  it('lists PENDIENTE first, oldest first; filters by status and q; staff without Pagos get 403', async () => {
    const token = await reviewer();
    // Another reviewer approves: who registered a payment does not (docs/domain.md "Payments: segregation of duties").
    const checker = await reviewer();
    const s = await sale();
    const a = await register(token, { sale_id: s.id, amount: 1_000 });
    ctx().clock.advance(60_000);
    const b = await register(token, { sale_id: s.id, amount: 2_000 });
    ctx().clock.advance(60_000);
    const c = await register(token, { sale_id: s.id, amount: 3_000 });
    await approve(checker, b.id);
    const page = paymentsPageSchema.parse((await send('GET', `/api/payments?sale_id=${s.id}`, token)).json());
    expect(page.data.map((p) => p.id)).toEqual([a.id, c.id, b.id]);
    const pending = paymentsPageSchema.parse((await send('GET', `/api/payments?sale_id=${s.id}&status=PENDIENTE`, token)).json());
    expect(pending.meta.total).toBe(2);
    const byLot = paymentsPageSchema.parse((await send('GET', `/api/payments?q=${encodeURIComponent(s.lot.code)}`, token)).json());
    expect(byLot.data.map((p) => p.id).sort()).toEqual([a.id, b.id, c.id].sort());
    const outsider = await seller();
    for (const url of ['/api/payments', `/api/payments/${a.id}`, `/api/payments/${a.id}/receipt`])
      expect((await send('GET', url, outsider)).statusCode).toBe(403);
    expect((await approve(outsider, a.id)).statusCode).toBe(403);
  });

  it('segregation of duties: who registered a payment cannot approve it (403) unless an administrator gives a reason, kept in its history; off in the company, anyone may', async () => {
    await ensureCompany(db());
    const clerk = await reviewer();
    const checker = await reviewer();
    const admin = await createSession(
      db(),
      await createStaff(db(), { permissions: [MODULE.finanzas, SUBMODULE.pagos, MODULE.configuracion, SUBMODULE.empresas] }),
    );
    const s = await sale();
    const own = await register(clerk, { sale_id: s.id, amount: 1_000 });
    const read = async (token: string, id: number) =>
      paymentResponseSchema.parse((await send('GET', `/api/payments/${id}`, token)).json()).data;
    expect((await read(clerk, own.id)).self_approval).toEqual({ message: PAYMENT_MESSAGES.selfApproval, may_override: false });
    expect((await read(checker, own.id)).self_approval).toBeNull();
    const refused = await approve(clerk, own.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(PAYMENT_MESSAGES.selfApproval);
    // A reason does not help someone who is not an administrator.
    expect((await approve(clerk, own.id, { override_reason: 'Urgente' })).statusCode).toBe(403);
    expect((await read(clerk, own.id)).status).toBe('PENDIENTE');

    // An administrator who registered it: the exception needs a reason (3 … 500 characters).
    const adminOwn = await register(admin, { sale_id: s.id, amount: 1_000 });
    expect((await read(admin, adminOwn.id)).self_approval).toEqual({ message: PAYMENT_MESSAGES.selfApproval, may_override: true });
    const noReason = await approve(admin, adminOwn.id);
    expect(noReason.statusCode).toBe(422);
    expect(noReason.json().errors.override_reason).toEqual([PAYMENT_MESSAGES.overrideReason]);
    expect((await approve(admin, adminOwn.id, { override_reason: '  ab ' })).statusCode).toBe(422);
    expect((await approve(admin, adminOwn.id, { override_reason: 'x'.repeat(501) })).statusCode).toBe(422);
    const overridden = await approve(admin, adminOwn.id, { override_reason: ' Caja sin otro revisor hoy ' });
    expect(overridden.statusCode, overridden.body).toBe(200);
    const history = await db()
      .selectFrom('change_history')
      .select(['action', 'after'])
      .where('entity', '=', 'payments')
      .where('record_id', '=', String(adminOwn.id))
      .orderBy('id')
      .execute();
    expect(history.map((h) => h.action)).toEqual(['CREATE', 'UPDATE']);
    expect(JSON.parse(history[1]!.after!)).toMatchObject({ status: 'APROBADO', approval_override_reason: 'Caja sin otro revisor hoy' });
    // Another reviewer approves the clerk's payment with no exception recorded.
    expect((await approve(checker, own.id, { override_reason: 'No hace falta' })).statusCode).toBe(200);
    const checked = await db()
      .selectFrom('change_history')
      .select('after')
      .where('entity', '=', 'payments')
      .where('record_id', '=', String(own.id))
      .where('action', '=', 'UPDATE')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(checked.after!)).not.toHaveProperty('approval_override_reason');

    // Turned off in Configuración → Empresas: whoever registered it may approve it.
    const off = await send('PATCH', '/api/company', admin, { payment_approval_segregation: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().data.payment_approval_segregation).toBe(false);
    const later = await register(clerk, { sale_id: s.id, amount: 1_000 });
    expect((await read(clerk, later.id)).self_approval).toBeNull();
    expect((await approve(clerk, later.id)).statusCode).toBe(200);
    expect((await send('PATCH', '/api/company', admin, { payment_approval_segregation: 'no' })).statusCode).toBe(422);
  });

  it('tells the reviewers who registered a payment: the staff member at the office, the customer from the portal', async () => {
    const clerk = await reviewer();
    const s = await sale();
    const payment = await register(clerk, { sale_id: s.id, amount: 1_000 });
    expect(payment.registered_by).toMatch(/^Prueba Colaborador \d+$/);
    const notice = await db()
      .selectFrom('notifications')
      .select('detail')
      .where('title', '=', 'Pago por revisar')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(notice.detail).toBe(
      `<p><b>${payment.registered_by}</b> registró un pago de ${formatMoney(1_000, 'PEN')} de <b>${payment.customer.display_name}</b> para la venta ${payment.sale!.number} (lote ${payment.sale!.lot_code}).</p>`,
    );
  });

  it('a bank account or wallet that payments name cannot be deleted (409), only deactivated', async () => {
    const token = await reviewer();
    const s = await sale();
    const account = await createBankAccount(db());
    const wallet = await createWallet(db(), { kind: 'PLIN' });
    await register(token, { sale_id: s.id, amount: 1_000, method: 'DEPOSITO', bank_account_id: account, operation_number: `D${++n}` });
    await register(token, { sale_id: s.id, amount: 1_000, method: 'PLIN', wallet_id: wallet, operation_number: `P${++n}` });
    const admin = await createSession(
      db(),
      await createStaff(db(), { permissions: [MODULE.finanzas, SUBMODULE.bancos, SUBMODULE.billeteras] }),
    );
    const delAccount = await ctx().app.inject({ method: 'DELETE', url: `/api/bank-accounts/${account}`, headers: bearer(admin) });
    expect(delAccount.statusCode).toBe(409);
    expect(delAccount.json().message).toBe(BANK_ACCOUNT_MESSAGES.inUse);
    const delWallet = await ctx().app.inject({ method: 'DELETE', url: `/api/wallets/${wallet}`, headers: bearer(admin) });
    expect(delWallet.statusCode).toBe(409);
    expect(delWallet.json().message).toBe(WALLET_MESSAGES.inUse);
  });

  it('Registro de Cuotas follows an approval and a rename at once (its answers are kept per revision and day)', async () => {
    const token = await reviewer();
    // Another reviewer approves: who registered a payment does not (docs/domain.md "Payments: segregation of duties").
    const checker = await reviewer();
    const s = await sale();
    const url = `/api/instalments?sale_id=${s.id}&per_page=100`;
    const rows = async () =>
      ((await send('GET', url, token)).json() as { data: Array<{ kind: string; paid: number; customer: { display_name: string } | null }> })
        .data;
    const revision = async () =>
      Number(
        (await db().selectFrom('list_revisions').select('revision').where('name', '=', 'instalments').executeTakeFirstOrThrow()).revision,
      );
    expect((await rows()).find((r) => r.kind === 'INICIAL')?.paid).toBe(0);
    const before = await revision();
    const payment = await register(token, { sale_id: s.id, amount: 600_000 });
    expect(await revision()).toBe(before); // registering changes no instalment
    expect((await approve(checker, payment.id)).statusCode).toBe(200);
    expect(await revision()).toBeGreaterThan(before);
    expect((await rows()).find((r) => r.kind === 'INICIAL')?.paid).toBe(600_000);
    await db().updateTable('customers').set({ name: 'Renombrada' }).where('id', '=', s.holders[0]!.id).execute();
    expect((await rows())[0]?.customer?.display_name).toMatch(/^Renombrada/);
    const totals = async () =>
      ((await send('GET', `/api/instalments/totals?sale_id=${s.id}`, token)).json() as { data: Array<{ paid: number }> }).data;
    expect((await totals())[0]?.paid).toBe(600_000);
  });

  it('bad input on every payments route is a Spanish 4xx, never a 500: query, body, ids, oversized and malformed uploads', async () => {
    const token = await reviewer();
    const s = await sale();
    const payment = await register(token, { sale_id: s.id, amount: 1_000 });
    const spanish = (res: { statusCode: number; json: () => unknown }, status: number) => {
      expect(res.statusCode).toBe(status);
      expect((res.json() as { message: string }).message).toMatch(/[a-záéíóúñ]/i);
    };
    for (const query of ['status=PAGADO', 'method=BITCOIN', 'per_page=1000', 'page=0', 'from=27-11-2026', 'sort=-customer', 'sale_id=abc'])
      spanish(await send('GET', `/api/payments?${query}`, token), 422);
    for (const id of ['abc', '0', '-1', '99999999999999999999']) spanish(await send('GET', `/api/payments/${id}`, token), 404);
    spanish(await send('GET', `/api/payments/${payment.id}/vouchers/abc`, token), 404);
    spanish(
      await send('POST', '/api/payments', token, {
        sale_id: s.id,
        amount: 1_000,
        method: 'EFECTIVO',
        operation_date: '2026-03-02',
        extra: 1,
      }),
      422,
    );
    spanish(
      await send('POST', '/api/payments', token, { sale_id: s.id, amount: 1e15, method: 'EFECTIVO', operation_date: '2026-03-02' }),
      422,
    );
    spanish(
      await send('POST', '/api/payments', token, { sale_id: s.id, amount: 10.5, method: 'EFECTIVO', operation_date: '2026-03-02' }),
      422,
    );
    spanish(
      await send('POST', '/api/payments', token, { sale_id: 999_999, amount: 100, method: 'EFECTIVO', operation_date: '2026-03-02' }),
      422,
    );
    spanish(await send('POST', `/api/payments/${payment.id}/reject`, token, { reason: 'x'.repeat(501) }), 422);
    spanish(await send('POST', `/api/payments/${payment.id}/approve`, token, { version: 0 }), 422);
    // Over 5 MB, a body cut short, no file part: 422 on `voucher`, nothing stored.
    const big = multipart('voucher', Buffer.concat([png(10, 10), Buffer.alloc(5 * 1024 * 1024)]));
    const tooLarge = await ctx().app.inject({
      method: 'POST',
      url: `/api/payments/${payment.id}/vouchers`,
      headers: { ...bearer(token), ...big.headers },
      payload: big.payload,
    });
    expect(tooLarge.statusCode).toBe(422);
    expect(tooLarge.json().errors.voucher).toEqual([PAYMENT_MESSAGES.voucherTooLarge]);
    const whole = multipart('voucher', png(10, 10));
    const cut = await ctx().app.inject({
      method: 'POST',
      url: `/api/payments/${payment.id}/vouchers`,
      headers: { ...bearer(token), ...whole.headers },
      payload: whole.payload.subarray(0, whole.payload.length - 20),
    });
    expect(cut.statusCode).toBe(422);
    const other = multipart('file', png(10, 10));
    const wrongField = await ctx().app.inject({
      method: 'POST',
      url: `/api/payments/${payment.id}/vouchers`,
      headers: { ...bearer(token), ...other.headers },
      payload: other.payload,
    });
    expect(wrongField.statusCode).toBe(422);
    expect(wrongField.json().errors.voucher).toEqual([PAYMENT_MESSAGES.voucherMissing]);
    expect(await db().selectFrom('payment_vouchers').select('id').where('payment_id', '=', payment.id).execute()).toEqual([]);
  });
});
