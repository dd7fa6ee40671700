/**
 * Consumer contract of Comercial → separaciones between `parcela-web` and `parcela-api`, through
 * the real src/api module. Every interaction starts from an empty database (docs/contracts.md).
 */
import { describe, expect, it } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { createReservationsApi } from '../../../src/api/comercio/reservations';
import { RESERVATION_MESSAGES } from '../../../src/schemas/comercio/reservations';
import { bearer, caught, httpPact, mockClient } from './pact-helpers';
import { CRM_CUSTOMER, STAFF_TOKEN, STATES } from '../states';
import { LOTS } from '../projects-states';

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
