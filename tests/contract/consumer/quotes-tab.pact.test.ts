/**
 * Consumer contract of the Cotizaciones tab of Comercial → Ventas between `parcela-web` and
 * `parcela-api`, through the real src/api module: the quotes of a subdivision with a status (the
 * tab's filters) and "Anular" with the version read. Every interaction starts from an empty
 * database (docs/contracts.md); in STATES.quoteExists the subdivision is id 1.
 */
import { describe, expect, it } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { createQuotesApi } from '../../../src/api/comercio/quotes';
import { bearer, httpPact, mockClient } from './pact-helpers';
import { CRM_CUSTOMER, STAFF_TOKEN, STATES } from '../states';
import { LOTS } from '../projects-states';

const { like, integer, regex, eachLike } = MatchersV3;

const pact = httpPact();
const api = (url: string) => createQuotesApi(mockClient(url, STAFF_TOKEN));
const json = { ...bearer(STAFF_TOKEN), 'Content-Type': 'application/json' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The cash quote of STATES.quoteExists as the server answers it (the columns the tab shows). */
const quote = (status: string, version: number) => ({
  id: integer(1),
  number: like('COT-000001'),
  lot: { id: integer(1), code: like(LOTS[0].code), subdivision_name: like('Los Viñedos') },
  customer: { id: integer(1), display_name: like(`${CRM_CUSTOMER.name} ${CRM_CUSTOMER.surname}`) },
  currency: like('PEN'),
  list_price: integer(3_000_000),
  final_price: integer(3_000_000),
  down_payment: integer(3_000_000),
  financed: integer(0),
  instalments: integer(0),
  method: like('SIN_INTERES'),
  valid_until: regex(DATE, '2026-12-20'),
  status: like(status),
  created_at: regex(ISO, '2026-11-20T15:00:00.000Z'),
  updated_at: regex(ISO, '2026-11-20T15:00:00.000Z'),
  version: integer(version),
});

describe('Cotizaciones tab', () => {
  it('lists the draft quotes of a subdivision, newest first', async () => {
    await pact
      .addInteraction()
      .given(STATES.quoteExists, { token: STAFF_TOKEN })
      .uponReceiving('the draft quotes of a subdivision, newest first')
      .withRequest('GET', '/api/quotes', (b) =>
        b.headers(bearer(STAFF_TOKEN)).query({ per_page: '20', sort: '-created_at', status: 'BORRADOR', subdivision_id: '1' }),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({ data: eachLike(quote('BORRADOR', 1)), meta: { page: integer(1), per_page: integer(20), total: integer(1) } }),
      )
      .executeTest(async (mock) => {
        const page = await api(mock.url).list({
          page: 1,
          per_page: 20,
          sort: '-created_at',
          filters: { status: 'BORRADOR', subdivision_id: '1' },
        });
        expect(page.data[0]?.status).toBe('BORRADOR');
      });
  });

  it('annuls a quote, with the version read', async () => {
    await pact
      .addInteraction()
      .given(STATES.quoteExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to annul a quote')
      .withRequest('POST', '/api/quotes/1/status', (b) => b.headers(json).jsonBody({ status: 'ANULADA', version: 1 }))
      .willRespondWith(200, (b) => b.jsonBody({ data: quote('ANULADA', 2) }))
      .executeTest(async (mock) => {
        const annulled = await api(mock.url).changeStatus(1, { status: 'ANULADA', version: 1 });
        expect(annulled.status).toBe('ANULADA');
      });
  });
});
