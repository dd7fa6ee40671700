/**
 * Consumer contract of a customer's detail in CRM → Clientes between `parcela-web` and
 * `parcela-api`: the four lists it reads filtered by `customer_id` (leads, quotes, reservations,
 * sales; 50 rows, newest first), through the real loader (src/machines/crm/customer-detail.machine.ts)
 * over the real src/api modules. Every interaction starts from an empty database (docs/contracts.md).
 */
import { describe, expect, it } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { createLeadsApi } from '../../../src/api/crm/leads';
import { createQuotesApi } from '../../../src/api/comercio/quotes';
import { createReservationsApi } from '../../../src/api/comercio/reservations';
import { createSalesApi } from '../../../src/api/comercio/sales';
import { loadCustomerDetail, type CustomerDetailApis } from '../../../src/machines/crm/customer-detail.machine';
import { bearer, httpPact, mockClient } from './pact-helpers';
import { CRM_CUSTOMER, CRM_LEAD, STAFF_TOKEN, STATES } from '../states';
import { LOTS } from '../projects-states';

const { like, integer, regex, eachLike } = MatchersV3;

const pact = httpPact();
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const instant = regex(ISO, '2026-11-20T15:00:00.000Z');
const customerName = like(`${CRM_CUSTOMER.name} ${CRM_CUSTOMER.surname}`);
const meta = { page: integer(1), per_page: integer(50), total: integer(1) };

/** The real list calls on the mock server. */
function apis(url: string): CustomerDetailApis {
  const client = mockClient(url, STAFF_TOKEN);
  return {
    leads: createLeadsApi(client).list,
    quotes: createQuotesApi(client).list,
    reservations: createReservationsApi(client).list,
    sales: createSalesApi(client).list,
  };
}
/** The query the detail sends: 50 rows, newest first, of customer 1. */
const byCustomer = (sort: string) => ({ per_page: '50', sort, customer_id: '1' });

describe("A customer's detail", () => {
  it("lists the customer's leads", async () => {
    await pact
      .addInteraction()
      .given(STATES.customerLeadExists, { token: STAFF_TOKEN })
      .uponReceiving('the leads of a customer, newest first')
      .withRequest('GET', '/api/leads', (b) => b.headers(bearer(STAFF_TOKEN)).query(byCustomer('-received_at')))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: eachLike({
            id: integer(1),
            name: like(CRM_LEAD.name),
            channel: like(CRM_LEAD.channel),
            status: like('CONCRETADO'),
            agent: like({ id: 1, name: 'Rosa', surname: 'Pérez' }),
            received_at: instant,
            created_at: instant,
            updated_at: instant,
            version: integer(1),
          }),
          meta,
        }),
      )
      .executeTest(async (mock) => {
        const lists = await loadCustomerDetail(apis(mock.url), 1, ['leads']);
        expect(lists.leads).toMatchObject({ ok: true, total: 1 });
      });
  });

  it("lists the customer's quotes", async () => {
    await pact
      .addInteraction()
      .given(STATES.quoteExists, { token: STAFF_TOKEN })
      .uponReceiving('the quotes of a customer, newest first')
      .withRequest('GET', '/api/quotes', (b) => b.headers(bearer(STAFF_TOKEN)).query(byCustomer('-created_at')))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: eachLike({
            id: integer(1),
            number: like('COT-000001'),
            lot: { id: integer(1), code: like(LOTS[0].code) },
            customer: { id: integer(1), display_name: customerName },
            currency: like('PEN'),
            list_price: integer(3_000_000),
            final_price: integer(3_000_000),
            down_payment: integer(3_000_000),
            financed: integer(0),
            instalments: integer(0),
            method: like('SIN_INTERES'),
            valid_until: regex(DATE, '2026-12-20'),
            status: like('BORRADOR'),
            created_at: instant,
            updated_at: instant,
            version: integer(1),
          }),
          meta,
        }),
      )
      .executeTest(async (mock) => {
        const lists = await loadCustomerDetail(apis(mock.url), 1, ['quotes']);
        expect(lists.quotes).toMatchObject({ ok: true, total: 1 });
      });
  });

  it("lists the customer's reservations", async () => {
    await pact
      .addInteraction()
      .given(STATES.liveReservationExists, { token: STAFF_TOKEN })
      .uponReceiving('the reservations of a customer, newest first')
      .withRequest('GET', '/api/reservations', (b) => b.headers(bearer(STAFF_TOKEN)).query(byCustomer('-created_at')))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: eachLike({
            id: integer(1),
            number: like('SEP-000001'),
            customer: { id: integer(1), display_name: customerName },
            lot: { id: integer(1), code: like(LOTS[0].code) },
            amount: integer(50_000),
            currency: like('PEN'),
            hold_days: integer(7),
            expires_at: instant,
            status: like('PENDIENTE_PAGO'),
            created_at: instant,
            updated_at: instant,
            version: integer(1),
          }),
          meta,
        }),
      )
      .executeTest(async (mock) => {
        const lists = await loadCustomerDetail(apis(mock.url), 1, ['reservations']);
        expect(lists.reservations).toMatchObject({ ok: true, total: 1 });
      });
  });

  it("lists the customer's sales with their balances", async () => {
    await pact
      .addInteraction()
      .given(STATES.saleExists, { token: STAFF_TOKEN })
      .uponReceiving('the sales of a customer, newest first')
      .withRequest('GET', '/api/sales', (b) => b.headers(bearer(STAFF_TOKEN)).query(byCustomer('-sale_date')))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: eachLike({
            id: integer(1),
            number: like('V-000001'),
            sale_date: regex(DATE, '2026-11-27'),
            type: like('CONTADO'),
            lot: { id: integer(1), code: like(LOTS[0].code) },
            holders: eachLike({ id: integer(1), display_name: customerName, role: like('TITULAR'), share_percent: like('100.00') }),
            currency: like('PEN'),
            list_price: integer(3_000_000),
            final_price: integer(3_000_000),
            down_payment: integer(3_000_000),
            financed: integer(0),
            instalments: integer(0),
            method: like('SIN_INTERES'),
            balance: integer(3_000_000),
            status: like('REGISTRADA'),
            created_at: instant,
            updated_at: instant,
            version: integer(1),
          }),
          meta,
        }),
      )
      .executeTest(async (mock) => {
        const lists = await loadCustomerDetail(apis(mock.url), 1, ['sales']);
        expect(lists.sales).toMatchObject({ ok: true, total: 1 });
      });
  });
});
