/**
 * Consumer contract of the customer's purchases (issue 16 "Customer screens": Mis Compras, Detalle
 * de Compra, PagoYape) between `parcela-web` and `parcela-api`, through the real src/api module on
 * the customer base: the list, the statement (and 404 for a sale that is not the customer's), the
 * payment options and a wallet's QR, PagoYape (201; 409 when the amount is not the debt's; 422 when
 * the instalments are not the oldest), the capture upload (multipart `voucher`) and read, and the
 * receipt PDF. Every interaction starts from an empty database (docs/contracts.md).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { createPurchasesApi } from '../../../src/api/comercio/purchases';
import { PURCHASE_MESSAGES } from '../../../src/schemas/comercio/purchases';
import { bearer, caught, httpPact, mockClient } from './pact-helpers';
import { BANK_ACCOUNT, CUSTOMER_TOKEN, PURCHASE, SALE_DATE, STATES, WALLET } from '../states';
import { PAYMENT_MESSAGES } from '../../../src/schemas/finanzas/payments';

const { like, eachLike, integer, regex, nullValue, string } = MatchersV3;

const pact = httpPact();
const purchases = (url: string) => createPurchasesApi(mockClient(url, CUSTOMER_TOKEN));
const json = { ...bearer(CUSTOMER_TOKEN), 'Content-Type': 'application/json' };
const isoDate = (example: string) => regex(/^\d{4}-\d{2}-\d{2}$/, example);
/** Fixed multipart boundary, so the regenerated pact is byte-identical run after run. */
const PACT_BOUNDARY = 'parcelaPactBoundary';
const VOUCHER_PATH = path.join(mkdtempSync(path.join(tmpdir(), 'parcela-pact-')), 'captura.png');
writeFileSync(
  VOUCHER_PATH,
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'),
);

/** What Mis Compras reads of a purchase. */
const purchase = {
  id: integer(1),
  number: regex(/^V-\d{6}$/, 'V-000001'),
  sale_date: isoDate('2026-11-27'),
  lot_code: like('MZ A - LT 1'),
  subdivision_name: like('Los Viñedos de Carabayllo'),
  currency: regex(/^(PEN|USD)$/, 'PEN'),
  final_price: integer(3_000_000),
  total_interest: integer(0),
  total: integer(3_000_000),
  paid: integer(PURCHASE.part),
  balance: integer(3_000_000 - PURCHASE.part),
  late_fee_due: integer(0),
  overdue_instalments: integer(0),
  overdue_amount: integer(0),
  next_instalment: {
    id: integer(2),
    kind: like('INICIAL'),
    number: integer(2),
    due_date: isoDate('2026-12-27'),
    amount_due: integer(PURCHASE.part),
  },
  status: like('REGISTRADA'),
  contract_pdf_url: nullValue(),
};
/** A statement row. */
const instalment = {
  id: integer(1),
  kind: like('INICIAL'),
  number: integer(1),
  due_date: isoDate('2026-11-27'),
  amount: integer(PURCHASE.part),
  paid: integer(PURCHASE.part),
  balance: integer(0),
  status: regex(/^(PENDIENTE|PARCIAL|PAGADA|VENCIDA)$/, 'PAGADA'),
  days_late: integer(0),
  late_fee_accrued: integer(0),
  late_fee_paid: integer(0),
  late_fee_waived: integer(0),
  late_fee_due: integer(0),
};
/** A payment as its customer sees it. */
const customerPayment = (status: string, extra: object = {}) => ({
  id: integer(1),
  status: regex(/^(PENDIENTE|APROBADO|RECHAZADO|ANULADO)$/, status),
  amount: integer(PURCHASE.part),
  currency: regex(/^(PEN|USD)$/, 'PEN'),
  method: regex(/^(YAPE|PLIN)$/, 'YAPE'),
  operation_number: like(PURCHASE.paidOperation),
  operation_date: isoDate('2026-11-27'),
  receipt_number: nullValue(),
  receipt_url: nullValue(),
  reject_reason: nullValue(),
  vouchers: [],
  created_at: string('2026-11-27T15:00:00.000Z'),
  ...extra,
});

describe('Mis Compras and Detalle de Compra (consumer)', () => {
  it("lists the customer's purchases", async () => {
    await pact
      .addInteraction()
      .given(STATES.customerPurchaseExists, { token: CUSTOMER_TOKEN })
      .uponReceiving("a request for the signed-in customer's purchases")
      .withRequest('GET', '/api/customer/purchases', (b) => b.headers(bearer(CUSTOMER_TOKEN)).query({ page: '1', per_page: '20' }))
      .willRespondWith(200, (b) =>
        b.jsonBody({ data: eachLike(purchase), meta: { page: integer(1), per_page: integer(20), total: integer(1) } }),
      )
      .executeTest(async (mock) => {
        const page = await purchases(mock.url).list({ page: 1, per_page: 20 });
        expect(page.data[0]?.next_instalment?.amount_due).toBe(PURCHASE.part);
      });
  });

  it('reads the statement of a purchase: schedule, payments with their receipt, map, contract', async () => {
    await pact
      .addInteraction()
      .given(STATES.customerPurchaseExists, { token: CUSTOMER_TOKEN })
      .uponReceiving('a request for the statement of one of the customer’s purchases')
      .withRequest('GET', '/api/customer/purchases/1', (b) => b.headers(bearer(CUSTOMER_TOKEN)))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            ...purchase,
            down_payment: integer(PURCHASE.downPayment),
            instalments: integer(12),
            schedule: eachLike(instalment),
            payments: eachLike(
              customerPayment('APROBADO', {
                receipt_number: regex(/^R001-\d{8}$/, 'R001-00000001'),
                receipt_url: regex(/^\/api\/customer\/payments\/\d+\/receipt$/, '/api/customer/payments/1/receipt'),
                vouchers: eachLike({
                  id: integer(1),
                  content_type: like('image/png'),
                  url: regex(/^\/api\/customer\/payments\/\d+\/vouchers\/\d+$/, '/api/customer/payments/1/vouchers/1'),
                }),
              }),
            ),
            contract_pdf_url: nullValue(),
          },
        }),
      )
      .executeTest(async (mock) => {
        const detail = await purchases(mock.url).get(1);
        expect(detail.schedule[0]?.status).toBe('PAGADA');
        expect(detail.payments[0]?.receipt_url).toContain('/receipt');
      });
  });

  it('reads the statement figured for an earlier day (the operation date of a PagoYape)', async () => {
    await pact
      .addInteraction()
      .given(STATES.customerPurchaseExists, { token: CUSTOMER_TOKEN })
      .uponReceiving('a request for the statement of one of the customer’s purchases as of an earlier day')
      .withRequest('GET', '/api/customer/purchases/1', (b) => b.headers(bearer(CUSTOMER_TOKEN)).query({ as_of: SALE_DATE }))
      .willRespondWith(200, (b) => b.jsonBody({ data: { ...purchase, schedule: eachLike(instalment) } }))
      .executeTest(async (mock) => {
        const detail = await purchases(mock.url).get(1, SALE_DATE);
        expect(detail.schedule.length).toBeGreaterThan(0);
      });
  });

  it("answers 404 for a sale that is not the customer's", async () => {
    await pact
      .addInteraction()
      .given(STATES.customerPurchaseExists, { token: CUSTOMER_TOKEN })
      .uponReceiving('a request for the statement of a sale the customer does not hold')
      .withRequest('GET', '/api/customer/purchases/99', (b) => b.headers(bearer(CUSTOMER_TOKEN)))
      .willRespondWith(404, (b) => b.jsonBody({ message: like(PURCHASE_MESSAGES.notFound) }))
      .executeTest(async (mock) => {
        expect((await caught(purchases(mock.url).get(99))).status).toBe(404);
      });
  });

  it("lists the company's active wallets and the bank accounts in the purchase's currency", async () => {
    await pact
      .addInteraction()
      .given(STATES.customerPurchaseExists, { token: CUSTOMER_TOKEN })
      .uponReceiving("a request for the payment options in the purchase's currency")
      .withRequest('GET', '/api/customer/payment-options', (b) => b.headers(bearer(CUSTOMER_TOKEN)).query({ currency: 'PEN' }))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            wallets: eachLike({
              id: integer(1),
              kind: regex(/^(YAPE|PLIN)$/, WALLET.kind),
              phone: regex(/^9\d{8}$/, WALLET.phone),
              holder: like(WALLET.holder),
              qr_url: regex(/^\/api\/customer\/wallets\/\d+\/qr(\?.*)?$/, '/api/customer/wallets/1/qr?v=1'),
            }),
            bank_accounts: eachLike({
              id: integer(1),
              bank: like(BANK_ACCOUNT.bank),
              bank_name: like('Banco de Crédito del Perú (BCP)'),
              kind: regex(/^(AHORROS|CORRIENTE)$/, BANK_ACCOUNT.kind),
              currency: 'PEN',
              number: like(BANK_ACCOUNT.number),
              cci: regex(/^\d{20}$/, BANK_ACCOUNT.cci),
              holder: like(BANK_ACCOUNT.holder),
            }),
          },
        }),
      )
      .executeTest(async (mock) => {
        const options = await purchases(mock.url).paymentOptions('PEN');
        expect(options.bank_accounts[0]?.cci).toBe(BANK_ACCOUNT.cci);
      });
  });

  it("reads an active wallet's QR image", async () => {
    await pact
      .addInteraction()
      .given(STATES.customerPurchaseExists, { token: CUSTOMER_TOKEN })
      .uponReceiving('a request for the QR image of an active wallet on the customer base')
      .withRequest('GET', '/api/customer/wallets/1/qr', (b) => b.headers(bearer(CUSTOMER_TOKEN)))
      .willRespondWith(200, (b) => b.headers({ 'Content-Type': regex(/^image\/(png|jpeg)$/, 'image/png') }))
      .executeTest(async (mock) => {
        expect((await purchases(mock.url).file('/api/customer/wallets/1/qr')).type).toMatch(/^image\//);
      });
  });
});

describe('PagoYape (consumer)', () => {
  const body = {
    wallet_id: 1,
    instalment_ids: [2],
    amount: PURCHASE.part,
    operation_number: 'PACT-3',
    operation_date: '2026-11-20',
  };

  it('registers a payment of the oldest open instalment (201, PENDIENTE)', async () => {
    await pact
      .addInteraction()
      .given(STATES.customerPurchaseExists, { token: CUSTOMER_TOKEN })
      .uponReceiving('a PagoYape payment of the oldest open instalment')
      .withRequest('POST', '/api/customer/purchases/1/payments', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(201, (b) =>
        b.jsonBody({
          data: {
            payment: customerPayment('PENDIENTE', {
              id: integer(2),
              operation_number: like('PACT-3'),
              operation_date: isoDate('2026-11-20'),
            }),
            message: like(PURCHASE_MESSAGES.sent),
          },
        }),
      )
      .executeTest(async (mock) => {
        const created = await purchases(mock.url).pay(1, body);
        expect(created.payment.status).toBe('PENDIENTE');
        expect(created.message).toBe(PURCHASE_MESSAGES.sent);
      });
  });

  it('refuses an amount that is not the debt shown (409)', async () => {
    const wrong = { ...body, amount: PURCHASE.part - 1 };
    await pact
      .addInteraction()
      .given(STATES.customerPurchaseExists, { token: CUSTOMER_TOKEN })
      .uponReceiving('a PagoYape payment whose amount is not the debt')
      .withRequest('POST', '/api/customer/purchases/1/payments', (b) => b.headers(json).jsonBody(wrong))
      .willRespondWith(409, (b) => b.jsonBody({ message: like(PURCHASE_MESSAGES.amountChanged) }))
      .executeTest(async (mock) => {
        expect((await caught(purchases(mock.url).pay(1, wrong))).status).toBe(409);
      });
  });

  it('refuses a second payment while one waits for review (409)', async () => {
    const second = { ...body, operation_number: 'PACT-4' };
    await pact
      .addInteraction()
      .given(STATES.customerPendingPaymentExists, { token: CUSTOMER_TOKEN })
      .uponReceiving('a PagoYape payment while another of the purchase waits for review')
      .withRequest('POST', '/api/customer/purchases/1/payments', (b) => b.headers(json).jsonBody(second))
      .willRespondWith(409, (b) => b.jsonBody({ message: like(PAYMENT_MESSAGES.pendingPortalPayment) }))
      .executeTest(async (mock) => {
        const error = await caught(purchases(mock.url).pay(1, second));
        expect(error.status).toBe(409);
      });
  });

  it('refuses instalments that are not the oldest (422 errors.instalment_ids)', async () => {
    const skipping = { ...body, instalment_ids: [3] };
    await pact
      .addInteraction()
      .given(STATES.customerPurchaseExists, { token: CUSTOMER_TOKEN })
      .uponReceiving('a PagoYape payment that skips the oldest open instalment')
      .withRequest('POST', '/api/customer/purchases/1/payments', (b) => b.headers(json).jsonBody(skipping))
      .willRespondWith(422, (b) =>
        b.jsonBody({
          message: like(PURCHASE_MESSAGES.oldestFirst),
          errors: { instalment_ids: eachLike(like(PURCHASE_MESSAGES.oldestFirst)) },
        }),
      )
      .executeTest(async (mock) => {
        const error = await caught(purchases(mock.url).pay(1, skipping));
        expect(error.status).toBe(422);
        expect(error.issues.instalment_ids?.[0]).toBe(PURCHASE_MESSAGES.oldestFirst);
      });
  });

  it('uploads the capture of a pending payment (multipart voucher)', async () => {
    await pact
      .addInteraction()
      .given(STATES.customerPendingPaymentExists, { token: CUSTOMER_TOKEN })
      .uponReceiving("a request to add the capture to the customer's pending payment")
      .withRequest('POST', '/api/customer/payments/2/vouchers', (b) =>
        b.headers(bearer(CUSTOMER_TOKEN)).multipartBody('image/png', VOUCHER_PATH, 'voucher', PACT_BOUNDARY),
      )
      .willRespondWith(201, (b) =>
        b.jsonBody({
          data: customerPayment('PENDIENTE', {
            id: integer(2),
            amount: integer(10_000),
            operation_number: like('PACT-2'),
            vouchers: eachLike({
              id: integer(2),
              content_type: like('image/png'),
              url: regex(/^\/api\/customer\/payments\/\d+\/vouchers\/\d+$/, '/api/customer/payments/2/vouchers/2'),
            }),
          }),
        }),
      )
      .executeTest(async (mock) => {
        const file = new File([readFileSync(VOUCHER_PATH)], 'captura.png', { type: 'image/png' });
        expect((await purchases(mock.url).uploadVoucher(2, file, 'captura.png')).vouchers.length).toBeGreaterThan(0);
      });
  });

  it("reads a voucher image of the customer's payment", async () => {
    await pact
      .addInteraction()
      .given(STATES.customerPurchaseExists, { token: CUSTOMER_TOKEN })
      .uponReceiving("a request for a voucher image of the customer's payment")
      .withRequest('GET', '/api/customer/payments/1/vouchers/1', (b) => b.headers(bearer(CUSTOMER_TOKEN)))
      .willRespondWith(200, (b) => b.headers({ 'Content-Type': regex(/^image\/(png|jpeg|webp)$/, 'image/png') }))
      .executeTest(async (mock) => {
        expect((await purchases(mock.url).file('/api/customer/payments/1/vouchers/1')).type).toMatch(/^image\//);
      });
  });

  it("downloads the receipt of the customer's approved payment (PDF)", async () => {
    await pact
      .addInteraction()
      .given(STATES.customerPurchaseExists, { token: CUSTOMER_TOKEN })
      .uponReceiving("a request for the receipt of the customer's approved payment")
      .withRequest('GET', '/api/customer/payments/1/receipt', (b) => b.headers(bearer(CUSTOMER_TOKEN)))
      .willRespondWith(200, (b) => b.headers({ 'Content-Type': regex(/^application\/pdf/, 'application/pdf') }))
      .executeTest(async (mock) => {
        expect((await purchases(mock.url).file('/api/customer/payments/1/receipt')).type).toMatch(/pdf/);
      });
  });
});
