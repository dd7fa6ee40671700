/**
 * Consumer contract of Comercial → separaciones between `parcela-web` and `parcela-api`, through
 * the real src/api module. Every interaction starts from an empty database (docs/contracts.md).
 */
import { describe, expect, it } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { createReservationsApi } from '../../../src/api/comercio/reservations';
import { createQuotesApi } from '../../../src/api/comercio/quotes';
import { createSalesApi } from '../../../src/api/comercio/sales';
import { createSalesReportApi } from '../../../src/api/comercio/sales-report';
import { createPortalSalesApi } from '../../../src/api/comercio/portal-sales';
import { createLotOptionsApi } from '../../../src/api/comercio/lot-options';
import { PORTAL_SALES_MESSAGES } from '../../../src/schemas/comercio/portal-sales';
import { SALES_REPORT_MESSAGES } from '../../../src/schemas/comercio/sales-report';
import { RESERVATION_MESSAGES } from '../../../src/schemas/comercio/reservations';
import { SALE_MESSAGES } from '../../../src/schemas/comercio/sales';
import { RESCHEDULE_MESSAGES, RESCISSION_MESSAGES, SALE_DOCUMENT_MESSAGES } from '../../../src/schemas/comercio/rescissions';
import { bearer, caught, httpPact, mockClient } from './pact-helpers';
import { CRM_CUSTOMER, CUSTOMER_TOKEN, STAFF_TOKEN, STATES } from '../states';
import { LOTS, SUBDIVISION } from '../projects-states';

const { like, integer, regex, eachLike } = MatchersV3;

const pact = httpPact();
const api = (url: string) => createReservationsApi(mockClient(url, STAFF_TOKEN));
const json = { ...bearer(STAFF_TOKEN), 'Content-Type': 'application/json' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** A reservation as the server answers it. */
const reservation = (status: string, version = 1) => ({
  id: integer(1),
  number: like('SEP-000001'),
  customer: { id: integer(1), display_name: like(`${CRM_CUSTOMER.name} ${CRM_CUSTOMER.surname}`) },
  lot: { id: integer(1), code: like(LOTS[0].code) },
  amount: integer(50_000),
  currency: like('PEN'),
  hold_days: integer(7),
  expires_at: regex(ISO, '2026-11-27T15:00:00.000Z'),
  status: like(status),
  created_at: regex(ISO, '2026-11-20T15:00:00.000Z'),
  updated_at: regex(ISO, '2026-11-20T15:00:00.000Z'),
  version: integer(version),
});

describe('Separaciones', () => {
  it('reserves an available lot (201)', async () => {
    const body = { customer_id: 1, lot_id: 1, amount: 50_000, hold_days: 7, conditions_accepted: true as const };
    await pact
      .addInteraction()
      .given(STATES.customerAndLotsExist, { token: STAFF_TOKEN })
      .uponReceiving('a request to reserve an available lot')
      .withRequest('POST', '/api/reservations', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(201, (b) => b.jsonBody({ data: reservation('PENDIENTE_PAGO') }))
      .executeTest(async (mock) => {
        const created = await api(mock.url).create(body);
        expect(created.status).toBe('PENDIENTE_PAGO');
        expect(created.lot.id).toBe(1);
      });
  });

  it('refuses a lot that is no longer available (409)', async () => {
    const body = { customer_id: 1, lot_id: 2, amount: 50_000, hold_days: 7, conditions_accepted: true as const };
    await pact
      .addInteraction()
      .given(STATES.customerAndLotsExist, { token: STAFF_TOKEN })
      .uponReceiving('a request to reserve a lot that is already separated')
      .withRequest('POST', '/api/reservations', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(409, (b) => b.jsonBody({ message: like(RESERVATION_MESSAGES.lotUnavailable) }))
      .executeTest(async (mock) => {
        const error = await caught(api(mock.url).create(body));
        expect(error.status).toBe(409);
        expect(error.message).toBe(RESERVATION_MESSAGES.lotUnavailable);
      });
  });

  it('lists the live reservations of a lot', async () => {
    await pact
      .addInteraction()
      .given(STATES.liveReservationExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the pending reservations of a lot')
      .withRequest('GET', '/api/reservations', (b) =>
        b.headers(bearer(STAFF_TOKEN)).query({ per_page: '20', lot_id: '1', status: 'PENDIENTE_PAGO' }),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({ data: eachLike(reservation('PENDIENTE_PAGO')), meta: { page: integer(1), per_page: integer(20), total: integer(1) } }),
      )
      .executeTest(async (mock) => {
        const page = await api(mock.url).list({ page: 1, per_page: 20, filters: { lot_id: '1', status: 'PENDIENTE_PAGO' } });
        expect(page.data[0]?.number).toBe('SEP-000001');
      });
  });

  it('annuls a reservation with a reason, sending the version it read', async () => {
    const body = { reason: 'El cliente desistió', version: 1 };
    await pact
      .addInteraction()
      .given(STATES.liveReservationExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to annul a reservation')
      .withRequest('POST', '/api/reservations/1/cancel', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) => b.jsonBody({ data: { ...reservation('ANULADA', 2), cancel_reason: like(body.reason) } }))
      .executeTest(async (mock) => {
        const cancelled = await api(mock.url).cancel(1, body);
        expect(cancelled.status).toBe('ANULADA');
        expect(cancelled.cancel_reason).toBe(body.reason);
      });
  });
});

const quotesApi = (url: string) => createQuotesApi(mockClient(url, STAFF_TOKEN));
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A quote as the server answers it; `q` the amounts the interaction fixes. */
const quote = (q: { status: string; financed: number; instalments: number }, version = 1) => ({
  id: integer(1),
  number: like('COT-000001'),
  lot: { id: integer(1), code: like(LOTS[0].code) },
  customer: { id: integer(1), display_name: like(`${CRM_CUSTOMER.name} ${CRM_CUSTOMER.surname}`) },
  currency: like('PEN'),
  list_price: integer(3_000_000),
  final_price: integer(2_700_000),
  down_payment: integer(500_000),
  financed: integer(q.financed),
  instalments: integer(q.instalments),
  method: like('FRANCES'),
  valid_until: regex(DATE, '2026-12-04'),
  status: like(q.status),
  created_at: regex(ISO, '2026-11-20T15:00:00.000Z'),
  updated_at: regex(ISO, '2026-11-20T15:00:00.000Z'),
  version: integer(version),
});

describe('Cotizaciones', () => {
  it('quotes a lot with a financed balance (201, with its schedule)', async () => {
    const body = {
      lot_id: 1,
      customer_id: 1,
      discount_percent: '10',
      down_payment_cents: 500_000,
      instalments: 24,
      monthly_rate_percent: '1.5',
      method: 'FRANCES' as const,
      first_due_date: '2030-01-31',
    };
    await pact
      .addInteraction()
      .given(STATES.customerAndLotsExist, { token: STAFF_TOKEN })
      .uponReceiving('a request to quote a lot in instalments')
      .withRequest('POST', '/api/quotes', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(201, (b) =>
        b.jsonBody({
          data: {
            ...quote({ status: 'BORRADOR', financed: 2_200_000, instalments: 24 }),
            schedule: eachLike({
              number: integer(1),
              due_date: regex(DATE, '2030-01-31'),
              amount: integer(109_830),
              capital: integer(76_830),
              interest: integer(33_000),
              balance: integer(2_123_170),
            }),
          },
        }),
      )
      .executeTest(async (mock) => {
        const created = await quotesApi(mock.url).create(body);
        expect(created.schedule.length).toBeGreaterThan(0);
        expect(created.financed).toBe(2_200_000);
      });
  });

  it('marks a quote as sent, with the version read', async () => {
    await pact
      .addInteraction()
      .given(STATES.quoteExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to mark a quote as sent')
      .withRequest('POST', '/api/quotes/1/status', (b) => b.headers(json).jsonBody({ status: 'ENVIADA', version: 1 }))
      .willRespondWith(200, (b) =>
        b.jsonBody({ data: { ...quote({ status: 'ENVIADA', financed: 0, instalments: 0 }, 2), method: like('SIN_INTERES') } }),
      )
      .executeTest(async (mock) => {
        const sent = await quotesApi(mock.url).changeStatus(1, { status: 'ENVIADA', version: 1 });
        expect(sent.status).toBe('ENVIADA');
      });
  });

  it('lists the quotes of a lot', async () => {
    await pact
      .addInteraction()
      .given(STATES.quoteExists, { token: STAFF_TOKEN })
      .uponReceiving('the quotes of a lot')
      .withRequest('GET', '/api/quotes', (b) => b.headers(bearer(STAFF_TOKEN)).query({ per_page: '20', lot_id: '1' }))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: eachLike({ ...quote({ status: 'BORRADOR', financed: 0, instalments: 0 }), method: like('SIN_INTERES') }),
          meta: { page: integer(1), per_page: integer(20), total: integer(1) },
        }),
      )
      .executeTest(async (mock) => {
        const page = await quotesApi(mock.url).list({ page: 1, per_page: 20, filters: { lot_id: '1' } });
        expect(page.data[0]?.number).toMatch(/^COT-/);
      });
  });

  it("lists the newest quotes of a lot for the contract stepper (the plan starts from the buyer's valid one)", async () => {
    await pact
      .addInteraction()
      .given(STATES.quoteExists, { token: STAFF_TOKEN })
      .uponReceiving('the newest quotes of a lot, with their terms as typed')
      .withRequest('GET', '/api/quotes', (b) => b.headers(bearer(STAFF_TOKEN)).query({ per_page: '100', sort: '-created_at', lot_id: '1' }))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: eachLike({
            ...quote({ status: 'BORRADOR', financed: 0, instalments: 0 }),
            method: like('SIN_INTERES'),
            down_payment_parts: integer(1),
            monthly_rate_percent: like('0'),
            quote_date: regex(DATE, '2026-11-20'),
          }),
          meta: { page: integer(1), per_page: integer(100), total: integer(1) },
        }),
      )
      .executeTest(async (mock) => {
        const page = await quotesApi(mock.url).list({ page: 1, per_page: 100, sort: '-created_at', filters: { lot_id: '1' } });
        expect(page.data[0]?.quote_date).toMatch(DATE);
      });
  });

  it('downloads a quote as a PDF', async () => {
    await pact
      .addInteraction()
      .given(STATES.quoteExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the PDF of a quote')
      .withRequest('GET', '/api/quotes/1/pdf', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) => b.headers({ 'Content-Type': 'application/pdf' }))
      .executeTest(async (mock) => {
        const blob = await quotesApi(mock.url).pdf(1);
        expect(blob).toBeInstanceOf(Blob);
      });
  });
});

const salesApi = (url: string) => createSalesApi(mockClient(url, STAFF_TOKEN));
/** A sale as the server answers it. */
const sale = (s: { status: string; type: string; financed: number }, version = 1) => ({
  id: integer(1),
  number: like('V-000001'),
  sale_date: regex(DATE, '2026-11-27'),
  type: like(s.type),
  lot: { id: integer(1), code: like(LOTS[0].code) },
  holders: eachLike({
    id: integer(1),
    display_name: like(`${CRM_CUSTOMER.name} ${CRM_CUSTOMER.surname}`),
    role: like('TITULAR'),
    share_percent: like('100.00'),
  }),
  currency: like('PEN'),
  list_price: integer(3_000_000),
  final_price: integer(3_000_000),
  down_payment: integer(600_000),
  financed: integer(s.financed),
  instalments: integer(24),
  method: like('FRANCES'),
  balance: integer(3_000_000),
  status: like(s.status),
  created_at: regex(ISO, '2026-11-20T15:00:00.000Z'),
  updated_at: regex(ISO, '2026-11-20T15:00:00.000Z'),
  version: integer(version),
});

describe('Ventas', () => {
  it('sells an available lot in instalments (201, with its schedule)', async () => {
    const body = {
      lot_id: 1,
      holders: [{ customer_id: 1, role: 'TITULAR' as const, share_percent: '100' }],
      down_payment_percent: '20',
      instalments: 24,
      monthly_rate_percent: '1.5',
      method: 'FRANCES' as const,
      first_due_date: '2030-01-31',
    };
    await pact
      .addInteraction()
      .given(STATES.customerAndLotsExist, { token: STAFF_TOKEN })
      .uponReceiving('a request to sell a lot in instalments')
      .withRequest('POST', '/api/sales', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(201, (b) =>
        b.jsonBody({
          data: {
            ...sale({ status: 'REGISTRADA', type: 'FINANCIADO', financed: 2_400_000 }),
            schedule: eachLike({ kind: like('CUOTA'), number: integer(1), due_date: regex(DATE, '2030-01-31'), amount: integer(119_818) }),
          },
        }),
      )
      .executeTest(async (mock) => {
        const created = await salesApi(mock.url).create(body);
        expect(created.type).toBe('FINANCIADO');
        expect(created.schedule.length).toBeGreaterThan(0);
      });
  });

  it('sells a lot with its schedule edited row by row in the contract stepper (201)', async () => {
    const body = {
      lot_id: 1,
      holders: [{ customer_id: 1, role: 'TITULAR' as const, share_percent: '100' }],
      down_payment_percent: '20',
      instalments: 2,
      method: 'SIN_INTERES' as const,
      first_due_date: '2030-02-01',
      schedule: [
        { kind: 'INICIAL' as const, number: 1, due_date: '2030-01-15', amount: 600_000 },
        { kind: 'CUOTA' as const, number: 1, due_date: '2030-02-01', amount: 1_300_000 },
        { kind: 'CUOTA' as const, number: 2, due_date: '2030-03-15', amount: 1_100_000 },
      ],
    };
    await pact
      .addInteraction()
      .given(STATES.customerAndLotsExist, { token: STAFF_TOKEN })
      .uponReceiving('a request to sell a lot with an edited schedule')
      .withRequest('POST', '/api/sales', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(201, (b) =>
        b.jsonBody({
          data: {
            ...sale({ status: 'REGISTRADA', type: 'FINANCIADO', financed: 2_400_000 }),
            instalments: integer(2),
            method: like('SIN_INTERES'),
            schedule: [
              { kind: 'INICIAL', number: 1, due_date: '2030-01-15', amount: 600_000 },
              { kind: 'CUOTA', number: 1, due_date: '2030-02-01', amount: 1_300_000 },
              { kind: 'CUOTA', number: 2, due_date: '2030-03-15', amount: 1_100_000 },
            ],
          },
        }),
      )
      .executeTest(async (mock) => {
        const created = await salesApi(mock.url).create(body);
        expect(created.schedule.map((r) => r.amount)).toEqual([600_000, 1_300_000, 1_100_000]);
      });
  });

  it('refuses an edited schedule whose instalments do not add up (422 on `schedule`, saying by how much)', async () => {
    const body = {
      lot_id: 1,
      holders: [{ customer_id: 1, role: 'TITULAR' as const, share_percent: '100' }],
      down_payment_percent: '20',
      instalments: 2,
      method: 'SIN_INTERES' as const,
      first_due_date: '2030-02-01',
      schedule: [
        { kind: 'INICIAL' as const, number: 1, due_date: '2030-01-15', amount: 600_000 },
        { kind: 'CUOTA' as const, number: 1, due_date: '2030-02-01', amount: 1_300_000 },
        { kind: 'CUOTA' as const, number: 2, due_date: '2030-03-01', amount: 1_000_000 },
      ],
    };
    const message = 'La suma de las cuotas es menor en S/ 1,000.00 al total de S/ 24,000.00';
    await pact
      .addInteraction()
      .given(STATES.customerAndLotsExist, { token: STAFF_TOKEN })
      .uponReceiving('a request to sell a lot with an edited schedule that does not add up')
      .withRequest('POST', '/api/sales', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(422, (b) =>
        b.jsonBody({ message: like('Los datos enviados no son válidos'), errors: { schedule: eachLike(like(message)) } }),
      )
      .executeTest(async (mock) => {
        const error = await caught(salesApi(mock.url).create(body));
        expect(error.status).toBe(422);
        expect(error.issues['schedule']).toEqual([message]);
      });
  });

  it('proposes the selling agent of a reserved lot: the reservation\'s (docs/domain.md "Sales")', async () => {
    await pact
      .addInteraction()
      .given(STATES.liveReservationExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the proposed agent of a sale of a reserved lot')
      .withRequest('GET', '/api/sales/proposed-agent', (b) => b.headers(bearer(STAFF_TOKEN)).query({ lot_id: '1', customer_ids: '1' }))
      .willRespondWith(200, (b) =>
        b.jsonBody({ data: { agent: { id: integer(1), name: like('Ana'), surname: like('Torres') }, source: 'RESERVA' } }),
      )
      .executeTest(async (mock) => {
        const proposal = await salesApi(mock.url).proposedAgent(1, [1]);
        expect(proposal.source).toBe('RESERVA');
        expect(proposal.agent?.id).toBe(1);
      });
  });

  it('sells a lot from its quote, naming the selling agent (201; the quote turns ACEPTADA)', async () => {
    const body = {
      lot_id: 1,
      holders: [{ customer_id: 1, role: 'TITULAR' as const, share_percent: '100' }],
      quote_id: 1,
      agent_id: 1,
      instalments: 0,
    };
    await pact
      .addInteraction()
      .given(STATES.quoteExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to sell a lot from its quote with the selling agent')
      .withRequest('POST', '/api/sales', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(201, (b) =>
        b.jsonBody({
          data: {
            ...sale({ status: 'REGISTRADA', type: 'CONTADO', financed: 0 }),
            instalments: integer(0),
            method: like('SIN_INTERES'),
            down_payment: integer(3_000_000),
            quote_id: integer(1),
            agent: { id: integer(1), name: like('Ana'), surname: like('Torres') },
          },
        }),
      )
      .executeTest(async (mock) => {
        const created = await salesApi(mock.url).create(body);
        expect(created.quote_id).toBe(1);
        expect(created.agent?.id).toBe(1);
      });
  });

  it('refuses to sell a lot already sold (409)', async () => {
    const body = { lot_id: 1, holders: [{ customer_id: 1, role: 'TITULAR' as const, share_percent: '100' }], instalments: 0 };
    await pact
      .addInteraction()
      .given(STATES.saleExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to sell a lot already sold')
      .withRequest('POST', '/api/sales', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(409, (b) => b.jsonBody({ message: like('El lote ya no está disponible') }))
      .executeTest(async (mock) => {
        const error = await caught(salesApi(mock.url).create(body));
        expect(error.status).toBe(409);
      });
  });

  it('refuses to sell a lot whose reservation still awaits its payment (409): only approved money is credited', async () => {
    const body = { lot_id: 1, holders: [{ customer_id: 1, role: 'TITULAR' as const, share_percent: '100' }], instalments: 0 };
    await pact
      .addInteraction()
      .given(STATES.liveReservationExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to sell a lot whose reservation awaits its payment')
      .withRequest('POST', '/api/sales', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(409, (b) => b.jsonBody({ message: like(SALE_MESSAGES.reservationUnpaid) }))
      .executeTest(async (mock) => {
        const error = await caught(salesApi(mock.url).create(body));
        expect(error.status).toBe(409);
      });
  });

  it('annuls a sale with its reason', async () => {
    await pact
      .addInteraction()
      .given(STATES.saleExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to annul a sale')
      .withRequest('POST', '/api/sales/1/annul', (b) => b.headers(json).jsonBody({ reason: 'Desistimiento del cliente', version: 1 }))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: { ...sale({ status: 'ANULADA', type: 'CONTADO', financed: 0 }, 2), annul_reason: like('Desistimiento del cliente') },
        }),
      )
      .executeTest(async (mock) => {
        const annulled = await salesApi(mock.url).annul(1, { reason: 'Desistimiento del cliente', version: 1 });
        expect(annulled.status).toBe('ANULADA');
      });
  });

  // docs/domain.md "Annulling a sale": sale 1 with PAYMENT (S/ 500.00) approved on it.
  it('reads what annulling a sale with money paid settles', async () => {
    await pact
      .addInteraction()
      .given(STATES.paymentApprovedExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for what annulling a sale with an approved payment involves')
      .withRequest('GET', '/api/sales/1/annulment', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) =>
        b.jsonBody({ data: { sale_id: integer(1), currency: like('PEN'), paid: integer(50_000), credit_targets: [] } }),
      )
      .executeTest(async (mock) => {
        const annulment = await salesApi(mock.url).annulment(1);
        expect(annulment).toMatchObject({ paid: 50_000, currency: 'PEN', credit_targets: [] });
      });
  });

  it('refuses to annul a sale with money paid without the refund decision', async () => {
    await pact
      .addInteraction()
      .given(STATES.paymentApprovedExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to annul a sale with an approved payment and no settlement')
      .withRequest('POST', '/api/sales/1/annul', (b) => b.headers(json).jsonBody({ reason: 'Desistimiento del cliente' }))
      .willRespondWith(422, (b) =>
        b.jsonBody({
          message: like(SALE_MESSAGES.settlementRequired),
          errors: { settlement: eachLike(like(SALE_MESSAGES.settlementRequired)) },
        }),
      )
      .executeTest(async (mock) => {
        const error = await caught(salesApi(mock.url).annul(1, { reason: 'Desistimiento del cliente' }));
        expect(error.status).toBe(422);
      });
  });

  it('annuls a sale with money paid, refunding it less a penalty', async () => {
    const body = {
      reason: 'Desistimiento del cliente',
      settlement: { mode: 'REEMBOLSO' as const, penalty: 5_000, refund: 45_000 },
    };
    await pact
      .addInteraction()
      .given(STATES.paymentApprovedExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to annul a sale with an approved payment, refunding it less a penalty')
      .withRequest('POST', '/api/sales/1/annul', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: { ...sale({ status: 'ANULADA', type: 'CONTADO', financed: 0 }, 3), annul_reason: like('Desistimiento del cliente') },
        }),
      )
      .executeTest(async (mock) => {
        const annulled = await salesApi(mock.url).annul(1, body);
        expect(annulled.status).toBe('ANULADA');
      });
  });
});

// docs/domain.md "Rescission", "Rescheduling (adenda)": sale 1 of STATES.overdueSaleExists has its six
// instalments of S/ 5 000.00 overdue and unpaid (nothing paid: no penalty, no refund).
describe('Ventas: resolución y reprogramación', () => {
  it('reads whether a sale may be resolved and with what money', async () => {
    await pact
      .addInteraction()
      .given(STATES.overdueSaleExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the rescission preview of a sale with its instalments overdue')
      .withRequest('GET', '/api/sales/1/rescission', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            sale_id: integer(1),
            number: like('V-000001'),
            status: like('EN_CUOTAS'),
            currency: like('PEN'),
            allowed: true,
            reasons: [],
            as_of: regex(DATE, '2026-11-27'),
            required_overdue: integer(3),
            overdue_instalments: integer(6),
            instalments: eachLike({
              kind: like('CUOTA'),
              number: integer(1),
              due_date: regex(DATE, '2025-02-01'),
              amount: integer(500_000),
              paid: integer(0),
              unpaid: integer(500_000),
              days_late: integer(30),
              overdue: like(true),
            }),
            unpaid_amount: integer(3_000_000),
            final_price: integer(3_000_000),
            paid: integer(0),
            paid_to_price: integer(0),
            paid_share_percent: like('0.00'),
            paid_share_limit_pct: null,
            penalty_pct: integer(10),
            penalty: integer(0),
            refund: integer(0),
            version: integer(1),
          },
        }),
      )
      .executeTest(async (mock) => {
        const preview = await salesApi(mock.url).rescission(1);
        expect(preview.allowed).toBe(true);
        expect(preview.overdue_instalments).toBeGreaterThanOrEqual(preview.required_overdue);
      });
  });

  it('resolves a sale with its instalments overdue (the lot is freed)', async () => {
    const body = { reason: 'Incumplimiento de pago', version: 1 };
    await pact
      .addInteraction()
      .given(STATES.overdueSaleExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to resolve a sale with its instalments overdue')
      .withRequest('POST', '/api/sales/1/rescind', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            ...sale({ status: 'RESUELTA', type: 'FINANCIADO', financed: 3_000_000 }, 2),
            balance: integer(0),
            rescission: {
              overdue_instalments: integer(6),
              required_overdue: integer(3),
              paid: integer(0),
              penalty_pct: integer(10),
              penalty: integer(0),
              refund: integer(0),
              reason: like('Incumplimiento de pago'),
              created_at: regex(ISO, '2026-11-20T15:00:00.000Z'),
              // The subdivision has no published CARTA_RESOLUCION template: resolved all the same, the letter pending.
              letter: null,
              letter_pending: like(SALE_DOCUMENT_MESSAGES.letterPending),
            },
          },
        }),
      )
      .executeTest(async (mock) => {
        const resolved = await salesApi(mock.url).rescind(1, body);
        expect(resolved.status).toBe('RESUELTA');
        expect(resolved.rescission?.overdue_instalments).toBe(6);
        expect(resolved.rescission?.letter).toBeNull();
        expect(resolved.rescission?.letter_pending).toBe(SALE_DOCUMENT_MESSAGES.letterPending);
      });
  });

  it('answers 404 in Spanish for the letter of resolution of a sale that has none issued', async () => {
    await pact
      .addInteraction()
      .given(STATES.overdueSaleExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the letter of resolution of a sale not resolved')
      .withRequest('GET', '/api/sales/1/rescission/letter', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(404, (b) => b.jsonBody({ message: like(SALE_DOCUMENT_MESSAGES.letterNotIssued) }))
      .executeTest(async (mock) => {
        const error = await caught(salesApi(mock.url).document('/api/sales/1/rescission/letter'));
        expect(error.status).toBe(404);
      });
  });

  it('refuses to resolve a sale without enough overdue instalments (409)', async () => {
    await pact
      .addInteraction()
      .given(STATES.saleExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to resolve a sale with no overdue instalments')
      .withRequest('POST', '/api/sales/1/rescind', (b) => b.headers(json).jsonBody({ reason: 'Incumplimiento de pago' }))
      .willRespondWith(409, (b) => b.jsonBody({ message: like(`${RESCISSION_MESSAGES.tooFewOverdue} (0 de 3, art. 1561)`) }))
      .executeTest(async (mock) => {
        const error = await caught(salesApi(mock.url).rescind(1, { reason: 'Incumplimiento de pago' }));
        expect(error.status).toBe(409);
      });
  });

  it('reads the open balance and late fees a rescheduling would take', async () => {
    await pact
      .addInteraction()
      .given(STATES.overdueSaleExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the rescheduling preview of a sale without terms')
      .withRequest('GET', '/api/sales/1/reschedule', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            sale_id: integer(1),
            currency: like('PEN'),
            allowed: true,
            reasons: [],
            as_of: regex(DATE, '2026-11-27'),
            balance: integer(3_000_000),
            late_fees: integer(100_000),
            financed: null,
            total_interest: null,
            total: null,
            rows: [],
            open_rows: eachLike({
              kind: like('CUOTA'),
              number: integer(1),
              due_date: regex(DATE, '2025-02-01'),
              amount: integer(500_000),
              capital: integer(500_000),
              interest: integer(0),
              paid: integer(0),
              status: like('VENCIDA'),
              late_fee_accrued: integer(50_000),
              late_fee_paid: integer(0),
              late_fee_waived: integer(0),
            }),
            version: integer(1),
          },
        }),
      )
      .executeTest(async (mock) => {
        const preview = await salesApi(mock.url).reschedulePreview(1);
        expect(preview.balance).toBe(3_000_000);
        expect(preview.rows).toEqual([]);
      });
  });

  it('refuses to reschedule a sale that is not in instalments (409)', async () => {
    const body = {
      method: 'SIN_INTERES' as const,
      instalments: 12,
      monthly_rate_percent: '0',
      first_due_date: '2030-01-31',
      late_fees: 'WAIVE' as const,
      reason: 'Acuerdo con el cliente',
      version: 1,
    };
    await pact
      .addInteraction()
      .given(STATES.saleExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to reschedule a cash sale')
      .withRequest('POST', '/api/sales/1/reschedule', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(409, (b) => b.jsonBody({ message: like(RESCHEDULE_MESSAGES.notReschedulable) }))
      .executeTest(async (mock) => {
        const error = await caught(salesApi(mock.url).reschedule(1, body));
        expect(error.status).toBe(409);
        expect(error.message).toBe(RESCHEDULE_MESSAGES.notReschedulable);
      });
  });

  it('lists a sale’s schedules (the current one first)', async () => {
    await pact
      .addInteraction()
      .given(STATES.overdueSaleExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the schedules of a sale')
      .withRequest('GET', '/api/sales/1/schedules', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: eachLike({
            number: integer(1),
            current: like(true),
            superseded_at: null,
            replaced_by: null,
            rows: eachLike({
              kind: like('CUOTA'),
              number: integer(1),
              due_date: regex(DATE, '2025-02-01'),
              amount: integer(500_000),
              capital: integer(500_000),
              interest: integer(0),
              paid: integer(0),
              status: like('VENCIDA'),
            }),
          }),
        }),
      )
      .executeTest(async (mock) => {
        const schedules = await salesApi(mock.url).schedules(1);
        expect(schedules[0]?.current).toBe(true);
      });
  });
});

const reportApi = (url: string) => createSalesReportApi(mockClient(url, STAFF_TOKEN));
/** The figures of a group of sales as the report answers them (céntimos, m², céntimos per m²). */
const figures = {
  currency: like('PEN'),
  count: integer(1),
  total: integer(3_000_000),
  area_m2: like(120),
  price_per_m2: integer(25_000),
};

describe('Reporte de ventas', () => {
  it('reads the sales of a period by month, subdivision, agent and channel', async () => {
    const query = { from: '2026-01-01', to: '2026-12-31', channel: 'DIRECTO' as const };
    await pact
      .addInteraction()
      .given(STATES.saleOfMarch2026Exists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the sales report of 2026, direct sales only')
      .withRequest('GET', '/api/sales/report', (b) => b.headers(bearer(STAFF_TOKEN)).query(query))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            from: like('2026-01-01'),
            to: like('2026-12-31'),
            months: eachLike(regex(/^\d{4}-\d{2}$/, '2026-01')),
            totals: eachLike(figures),
            by_month: eachLike({ month: regex(/^\d{4}-\d{2}$/, '2026-03'), ...figures }),
            by_subdivision: eachLike({ id: integer(1), name: like('Lotización de prueba'), ...figures }),
            by_agent: eachLike({ id: integer(1), name: like('Staff Contrato'), ...figures }),
            by_channel: eachLike({ channel: like('DIRECTO'), ...figures }),
          },
        }),
      )
      .executeTest(async (mock) => {
        const report = await reportApi(mock.url).report(query);
        expect(report.totals[0]?.count).toBe(1);
        expect(report.by_month[0]?.month).toBe('2026-03');
      });
  });

  it('refuses a period that ends before it starts (422 on `to`)', async () => {
    const query = { from: '2026-12-31', to: '2026-01-01' };
    await pact
      .addInteraction()
      .given(STATES.saleOfMarch2026Exists, { token: STAFF_TOKEN })
      .uponReceiving('a request for a sales report whose period ends before it starts')
      .withRequest('GET', '/api/sales/report', (b) => b.headers(bearer(STAFF_TOKEN)).query(query))
      .willRespondWith(422, (b) =>
        b.jsonBody({ message: like('Los datos enviados no son válidos'), errors: { to: eachLike(like(SALES_REPORT_MESSAGES.order)) } }),
      )
      .executeTest(async (mock) => {
        const error = await caught(reportApi(mock.url).report(query));
        expect(error.status).toBe(422);
        expect(error.issues['to']).toEqual([SALES_REPORT_MESSAGES.order]);
      });
  });

  it('reads the choices of the filters', async () => {
    await pact
      .addInteraction()
      .given(STATES.saleOfMarch2026Exists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the sales report filter options')
      .withRequest('GET', '/api/sales/report/options', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            subdivisions: eachLike({ id: integer(1), name: like('Lotización de prueba') }),
            agents: eachLike({ id: integer(1), name: like('Staff Contrato') }),
          },
        }),
      )
      .executeTest(async (mock) => {
        const options = await reportApi(mock.url).options();
        expect(options.subdivisions.length).toBeGreaterThan(0);
        expect(options.agents.length).toBeGreaterThan(0);
      });
  });

  it('downloads the report as an Excel workbook', async () => {
    const query = { from: '2026-01-01', to: '2026-12-31' };
    await pact
      .addInteraction()
      .given(STATES.saleOfMarch2026Exists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the sales report of 2026 as Excel')
      .withRequest('GET', '/api/sales/report.xlsx', (b) => b.headers(bearer(STAFF_TOKEN)).query(query))
      .willRespondWith(200, (b) => b.headers({ 'Content-Type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }))
      .executeTest(async (mock) => {
        const blob = await reportApi(mock.url).file(query, 'xlsx');
        expect(blob).toBeInstanceOf(Blob);
      });
  });
});

describe('Ventas (clientes)', () => {
  const portalApi = (url: string) => createPortalSalesApi(mockClient(url, CUSTOMER_TOKEN));
  it('lists the published subdivisions on sale', async () => {
    await pact
      .addInteraction()
      .given(STATES.customerAndPublishedLotsExist, { token: CUSTOMER_TOKEN })
      .uponReceiving('a customer request for the subdivisions on sale')
      .withRequest('GET', '/api/customer/subdivisions', (b) => b.headers(bearer(CUSTOMER_TOKEN)))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: eachLike({ key: like(SUBDIVISION.key), name: like(SUBDIVISION.name), currency: like('PEN'), available_lots: integer(1) }),
        }),
      )
      .executeTest(async (mock) => {
        const list = await portalApi(mock.url).subdivisions();
        expect(list[0]!.name).toBe(SUBDIVISION.name);
      });
  });

  it('asks to reserve an available lot (201, only a message back)', async () => {
    const body = { subdivision_key: SUBDIVISION.key, lot_code: LOTS[0].code, instalments: 24, down_payment_percent: 20 };
    await pact
      .addInteraction()
      .given(STATES.customerAndPublishedLotsExist, { token: CUSTOMER_TOKEN })
      .uponReceiving('a customer request to reserve an available lot')
      .withRequest('POST', '/api/customer/reservation-requests', (b) =>
        b.headers({ ...bearer(CUSTOMER_TOKEN), 'Content-Type': 'application/json' }).jsonBody(body),
      )
      .willRespondWith(201, (b) => b.jsonBody({ data: { message: like(PORTAL_SALES_MESSAGES.requested) } }))
      .executeTest(async (mock) => {
        expect(await portalApi(mock.url).requestReservation(body)).toBe(PORTAL_SALES_MESSAGES.requested);
      });
  });
});

describe('Lotes para cotizar', () => {
  it('finds the lots that can be quoted by code', async () => {
    await pact
      .addInteraction()
      .given(STATES.customerAndLotsExist, { token: STAFF_TOKEN })
      .uponReceiving('a request for the lots that can be quoted matching a code')
      .withRequest('GET', '/api/lot-options', (b) => b.headers(bearer(STAFF_TOKEN)).query({ q: LOTS[0].code }))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: eachLike({ id: integer(1), code: like(LOTS[0].code), currency: like('PEN'), list_price: integer(3_000_000) }),
        }),
      )
      .executeTest(async (mock) => {
        const lots = await createLotOptionsApi(mockClient(mock.url, STAFF_TOKEN)).search(LOTS[0].code);
        expect(lots[0]!.code).toBe(LOTS[0].code);
      });
  });
});
