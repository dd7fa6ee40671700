/**
 * Consumer contract of Finanzas → Pagos between `parcela-web` and `parcela-api`, through the real
 * src/api/finanzas/payments.ts: the queue with a filter, one payment with its allocation preview,
 * "Registrar pago" (201, and 422 with `errors.amount` when it is more than the debt), a voucher
 * upload (multipart `voucher`) and read, approve (200, and 409 once reviewed), reject and annul with
 * their reasons, a payment the caller registered (segregation of duties: `self_approval`, approved
 * with `override_reason`), and the receipt PDF. Every interaction starts from an empty database (docs/contracts.md).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { createPaymentsApi } from '../../../src/api/finanzas/payments';
import { PAYMENT_MESSAGES } from '../../../src/schemas/finanzas/payments';
import { bearer, caught, httpPact, mockClient } from './pact-helpers';
import { BACK_DATED_PAYMENT_DATE, PAYMENT, SALE_DATE, STAFF_TOKEN, STATES } from '../states';

const { like, eachLike, integer, regex, nullValue, string, boolean } = MatchersV3;

const pact = httpPact();
const payments = (url: string) => createPaymentsApi(mockClient(url, STAFF_TOKEN));
const json = { ...bearer(STAFF_TOKEN), 'Content-Type': 'application/json' };
/** Fixed multipart boundary, so the regenerated pact is byte-identical run after run. */
const PACT_BOUNDARY = 'parcelaPactBoundary';
const VOUCHER_PATH = path.join(mkdtempSync(path.join(tmpdir(), 'parcela-pact-')), 'voucher.png');
writeFileSync(
  VOUCHER_PATH,
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'),
);

const STATUS = /^(PENDIENTE|APROBADO|RECHAZADO|ANULADO)$/;
const allocation = {
  instalment_id: integer(1),
  kind: regex(/^(INICIAL|CUOTA)$/, 'INICIAL'),
  number: integer(1),
  due_date: regex(/^\d{4}-\d{2}-\d{2}$/, '2026-11-20'),
  to_late_fee: integer(0),
  to_capital: integer(PAYMENT.amount),
};
/** A payment as the screen reads it: what the queue and the drawer show (the rest is tolerated). */
const payment = (status: string, extra: Record<string, unknown> = {}) => ({
  id: integer(1),
  status: regex(STATUS, status),
  source: regex(/^(OFICINA|PORTAL)$/, 'OFICINA'),
  sale: { id: integer(1), number: like('V-000001'), lot_code: like('MZ A - LT 1'), subdivision_name: like('Los Viñedos') },
  reservation: nullValue(),
  customer: { id: integer(1), display_name: like('Carlos Mendoza'), document_number: like('45454545') },
  amount: integer(PAYMENT.amount),
  currency: regex(/^(PEN|USD)$/, 'PEN'),
  method: like(PAYMENT.method),
  operation_date: regex(/^\d{4}-\d{2}-\d{2}$/, PAYMENT.operation_date),
  vouchers: eachLike({
    id: integer(1),
    content_type: regex(/^image\/(png|jpeg|webp)$/, 'image/png'),
    size: integer(70),
    url: regex(/^\/api\/payments\/\d+\/vouchers\/\d+$/, '/api/payments/1/vouchers/1'),
  }),
  created_at: string('2026-11-20T15:00:00.000Z'),
  version: integer(1),
  ...extra,
});

describe('Pagos (consumer)', () => {
  it('lists the pending payments', async () => {
    await pact
      .addInteraction()
      .given(STATES.paymentPendingExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the pending payments')
      .withRequest('GET', '/api/payments', (b) => b.headers(bearer(STAFF_TOKEN)).query({ per_page: '20', status: 'PENDIENTE' }))
      .willRespondWith(200, (b) =>
        b.jsonBody({ data: eachLike(payment('PENDIENTE')), meta: { page: integer(1), per_page: integer(20), total: integer(1) } }),
      )
      .executeTest(async (mock) => {
        const page = await payments(mock.url).list({ page: 1, per_page: 20, filters: { status: 'PENDIENTE' } });
        expect(page.data[0]?.status).toBe('PENDIENTE');
      });
  });

  it('reads one pending payment with the allocation approving it would apply', async () => {
    await pact
      .addInteraction()
      .given(STATES.paymentPendingExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for one pending payment')
      .withRequest('GET', '/api/payments/1', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) => b.jsonBody({ data: payment('PENDIENTE', { allocation_preview: eachLike(allocation) }) }))
      .executeTest(async (mock) => {
        const read = await payments(mock.url).get(1);
        expect(read.allocation_preview?.[0]?.to_capital).toBe(PAYMENT.amount);
      });
  });

  it('reads a back-dated pending payment with the late fees approving it would lower', async () => {
    await pact
      .addInteraction()
      .given(STATES.backDatedPaymentPendingExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for a pending payment dated before today that lowers a late fee')
      .withRequest('GET', '/api/payments/1', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            ...payment('PENDIENTE', { amount: integer(3_001_000), operation_date: regex(/^\d{4}-\d{2}-\d{2}$/, BACK_DATED_PAYMENT_DATE) }),
            vouchers: [],
            allocation_preview: eachLike({ ...allocation, to_late_fee: integer(1_000), to_capital: integer(3_000_000) }),
            late_fee_changes: eachLike({
              instalment_id: integer(1),
              kind: regex(/^(INICIAL|CUOTA)$/, 'INICIAL'),
              number: integer(1),
              before: integer(3_000),
              after: integer(1_000),
            }),
          },
        }),
      )
      .executeTest(async (mock) => {
        const read = await payments(mock.url).get(1);
        expect(read.late_fee_changes[0]!.after).toBeLessThan(read.late_fee_changes[0]!.before);
      });
  });

  it('refuses an operation date before the sale (422 errors.operation_date)', async () => {
    const body = { sale_id: 1, amount: 25_000, method: 'EFECTIVO' as const, operation_date: '2026-11-19' };
    await pact
      .addInteraction()
      .given(STATES.saleExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to register a payment dated before its sale')
      .withRequest('POST', '/api/payments', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(422, (b) =>
        b.jsonBody({
          message: like('Los datos no son válidos'),
          errors: { operation_date: eachLike(like(`${PAYMENT_MESSAGES.beforeTarget} (${SALE_DATE})`)) },
        }),
      )
      .executeTest(async (mock) => {
        const error = await caught(payments(mock.url).create(body));
        expect(error.status).toBe(422);
        expect(error.issues.operation_date?.[0]).toContain(PAYMENT_MESSAGES.beforeTarget);
      });
  });

  it('registers a payment received at the office (201, PENDIENTE)', async () => {
    const body = { sale_id: 1, amount: 25_000, method: 'EFECTIVO' as const, operation_date: '2026-11-20' };
    await pact
      .addInteraction()
      .given(STATES.saleExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to register a cash payment of a sale')
      .withRequest('POST', '/api/payments', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(201, (b) =>
        b.jsonBody({ data: { ...payment('PENDIENTE', { amount: integer(25_000) }), vouchers: [], destination: nullValue() } }),
      )
      .executeTest(async (mock) => {
        const created = await payments(mock.url).create(body);
        expect(created.status).toBe('PENDIENTE');
        expect(created.amount).toBe(25_000);
      });
  });

  it('refuses more than the debt (422 errors.amount)', async () => {
    const body = { sale_id: 1, amount: 1_000_000_000_000, method: 'EFECTIVO' as const, operation_date: '2026-11-20' };
    await pact
      .addInteraction()
      .given(STATES.saleExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to register a payment over the debt of the sale')
      .withRequest('POST', '/api/payments', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(422, (b) =>
        b.jsonBody({ message: like('Los datos no son válidos'), errors: { amount: eachLike(like(PAYMENT_MESSAGES.exceedsDebt)) } }),
      )
      .executeTest(async (mock) => {
        const error = await caught(payments(mock.url).create(body));
        expect(error.status).toBe(422);
        expect(error.issues.amount?.length).toBeGreaterThan(0);
      });
  });

  it('adds a voucher image (multipart voucher)', async () => {
    await pact
      .addInteraction()
      .given(STATES.paymentPendingExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to add a voucher image to a pending payment')
      .withRequest('POST', '/api/payments/1/vouchers', (b) =>
        b.headers(bearer(STAFF_TOKEN)).multipartBody('image/png', VOUCHER_PATH, 'voucher', PACT_BOUNDARY),
      )
      .willRespondWith(200, (b) => b.jsonBody({ data: payment('PENDIENTE') }))
      .executeTest(async (mock) => {
        const file = new File([readFileSync(VOUCHER_PATH)], 'voucher.png', { type: 'image/png' });
        expect((await payments(mock.url).uploadVoucher(1, file, 'voucher.png')).vouchers.length).toBeGreaterThan(0);
      });
  });

  it('reads a voucher image (authenticated)', async () => {
    await pact
      .addInteraction()
      .given(STATES.paymentPendingExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for a voucher image of a payment')
      .withRequest('GET', '/api/payments/1/vouchers/1', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) => b.headers({ 'Content-Type': regex(/^image\/(png|jpeg|webp)$/, 'image/png') }))
      .executeTest(async (mock) => {
        const blob = await payments(mock.url).voucherBlob('/api/payments/1/vouchers/1');
        expect(blob.type).toMatch(/^image\//);
      });
  });

  it('approves a pending payment with the version read: its allocation and receipt number', async () => {
    await pact
      .addInteraction()
      .given(STATES.paymentPendingExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to approve a pending payment')
      .withRequest('POST', '/api/payments/1/approve', (b) => b.headers(json).jsonBody({ version: 1 }))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: payment('APROBADO', {
            receipt_number: regex(/^R001-\d{8}$/, 'R001-00000001'),
            allocations: eachLike(allocation),
            version: integer(2),
          }),
        }),
      )
      .executeTest(async (mock) => {
        const approved = await payments(mock.url).approve(1, { version: 1 });
        expect(approved.status).toBe('APROBADO');
        expect(approved.receipt_number).toMatch(/^R001-/);
      });
  });

  it('reads a pending payment the signed-in administrator registered: segregation of duties bars it, with the exception offered', async () => {
    await pact
      .addInteraction()
      .given(STATES.paymentRegisteredBySignedInStaffExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for a pending payment the caller registered')
      .withRequest('GET', '/api/payments/1', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            ...payment('PENDIENTE'),
            vouchers: [],
            self_approval: { message: like(PAYMENT_MESSAGES.selfApproval), may_override: boolean(true) },
          },
        }),
      )
      .executeTest(async (mock) => {
        const read = await payments(mock.url).get(1);
        expect(read.self_approval?.may_override).toBe(true);
      });
  });

  it('approves a payment the administrator registered, as an exception with its reason', async () => {
    const body = { version: 1, override_reason: 'Caja sin otro revisor hoy' };
    await pact
      .addInteraction()
      .given(STATES.paymentRegisteredBySignedInStaffExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to approve a payment the caller registered, with the reason of the exception')
      .withRequest('POST', '/api/payments/1/approve', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            ...payment('APROBADO', { receipt_number: regex(/^R001-\d{8}$/, 'R001-00000001'), version: integer(2) }),
            vouchers: [],
          },
        }),
      )
      .executeTest(async (mock) => {
        const approved = await payments(mock.url).approve(1, body);
        expect(approved.status).toBe('APROBADO');
      });
  });

  it('refuses to approve a payment already reviewed (409 with its message)', async () => {
    await pact
      .addInteraction()
      .given(STATES.paymentApprovedExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to approve a payment already approved')
      .withRequest('POST', '/api/payments/1/approve', (b) => b.headers(json).jsonBody({ version: 1 }))
      .willRespondWith(409, (b) => b.jsonBody({ message: like(PAYMENT_MESSAGES.alreadyReviewed) }))
      .executeTest(async (mock) => {
        const error = await caught(payments(mock.url).approve(1, { version: 1 }));
        expect(error.status).toBe(409);
        expect(error.message.length).toBeGreaterThan(0);
      });
  });

  it('rejects a pending payment with its reason', async () => {
    const body = { reason: 'El voucher no se lee', version: 1 };
    await pact
      .addInteraction()
      .given(STATES.paymentPendingExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to reject a pending payment')
      .withRequest('POST', '/api/payments/1/reject', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) => b.jsonBody({ data: payment('RECHAZADO', { reject_reason: like(body.reason), version: integer(2) }) }))
      .executeTest(async (mock) => {
        const rejected = await payments(mock.url).reject(1, body);
        expect(rejected.status).toBe('RECHAZADO');
        expect(rejected.reject_reason).toBe(body.reason);
      });
  });

  it('annuls an approved payment with its reason', async () => {
    const body = { reason: 'Aprobado por error', version: 2 };
    await pact
      .addInteraction()
      .given(STATES.paymentApprovedExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to annul an approved payment')
      .withRequest('POST', '/api/payments/1/annul', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) => b.jsonBody({ data: payment('ANULADO', { annul_reason: like(body.reason), version: integer(3) }) }))
      .executeTest(async (mock) => {
        const annulled = await payments(mock.url).annul(1, body);
        expect(annulled.status).toBe('ANULADO');
      });
  });

  it('downloads the receipt of an approved payment (PDF)', async () => {
    await pact
      .addInteraction()
      .given(STATES.paymentApprovedExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the receipt of an approved payment')
      .withRequest('GET', '/api/payments/1/receipt', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) => b.headers({ 'Content-Type': regex(/^application\/pdf/, 'application/pdf') }))
      .executeTest(async (mock) => {
        const pdf = await payments(mock.url).receipt(1);
        expect(pdf.type).toMatch(/pdf/);
      });
  });
});
