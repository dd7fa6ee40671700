/**
 * Consumer contract of Inicio's agent and collector cards (docs/dashboard.md "Agent and collector
 * cards") between `parcela-web` and `parcela-api`, through the real src/api module
 * (src/api/inicio/dashboard-queues.ts): one interaction per card, from the state
 * INICIO_QUEUE_STATES.queuesHaveRows (tests/contract/inicio-queues-states.ts).
 */
import { describe, expect, it } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { createDashboardApi } from '../../../src/api/inicio/dashboard';
import { bearer, httpPact, mockClient } from './pact-helpers';
import { STAFF_TOKEN } from '../states';
import { INICIO_QUEUE_STATES } from '../inicio-queues-states';

const { like, integer, regex, eachLike } = MatchersV3;

const pact = httpPact();
const api = (url: string) => createDashboardApi(mockClient(url, STAFF_TOKEN));
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const CURRENCY = /^(PEN|USD)$/;
const money = { currency: regex(CURRENCY, 'PEN'), amount: integer(10_000) };

/** Declares GET /api/dashboard/{card} from the queues' state answering `{ data: body }`. */
const card = (path: string, description: string, body: object) =>
  pact
    .addInteraction()
    .given(INICIO_QUEUE_STATES.queuesHaveRows, { token: STAFF_TOKEN })
    .uponReceiving(description)
    .withRequest('GET', `/api/dashboard/${path}`, (b) => b.headers(bearer(STAFF_TOKEN)))
    .willRespondWith(200, (b) => b.jsonBody({ data: body }));

describe('Inicio: agent and collector cards', () => {
  it('reads the payments to review', async () => {
    await card('payments-review', 'a request for the payments-review card', {
      count: integer(1),
      by_currency: eachLike({ currency: regex(CURRENCY, 'PEN'), amount: integer(100) }),
      oldest: eachLike({
        id: integer(1),
        customer_name: like('María Condori Flores'),
        reference: like('V-000001'),
        method: like('EFECTIVO'),
        currency: regex(CURRENCY, 'PEN'),
        amount: integer(100),
        created_at: regex(ISO, '2026-11-29T15:00:00.000Z'),
      }),
    }).executeTest(async (mock) => {
      const got = await api(mock.url)['payments-review']();
      expect(got.count).toBe(1);
      expect(got.by_currency).toEqual([{ currency: 'PEN', amount: 100 }]);
      expect(got.oldest[0]).toMatchObject({ id: 1, reference: 'V-000001', method: 'EFECTIVO' });
    });
  });

  it('reads the reservations about to expire', async () => {
    await card('expiring-reservations', 'a request for the expiring-reservations card', {
      count: integer(1),
      reservations: eachLike({
        id: integer(1),
        lot_code: like('MZ Q - LT 1'),
        subdivision_name: like('Lotización'),
        customer_name: like('María Condori Flores'),
        agent_name: like('Rosa Díaz'),
        expires_at: regex(ISO, '2026-11-30T15:00:00.000Z'),
      }),
    }).executeTest(async (mock) => {
      const got = await api(mock.url)['expiring-reservations']();
      expect(got.count).toBe(1);
      expect(got.reservations[0]?.expires_at).toBe('2026-11-30T15:00:00.000Z');
    });
  });

  it('reads my follow-ups', async () => {
    await card('follow-ups', 'a request for the follow-ups card', {
      count: integer(1),
      leads: eachLike({
        id: integer(1),
        name: like('Jorge Quispe'),
        phone: like('987444555'),
        next_follow_up_at: regex(ISO, '2026-11-29T13:00:00.000Z'),
      }),
    }).executeTest(async (mock) => {
      const got = await api(mock.url)['follow-ups']();
      expect(got.count).toBe(1);
      expect(got.leads[0]).toMatchObject({ id: 1, name: 'Jorge Quispe', phone: '987444555' });
    });
  });

  it('reads my commissions', async () => {
    await card('commissions', 'a request for the commissions card', {
      by_currency: eachLike({ currency: regex(CURRENCY, 'PEN'), earned: integer(90_000), to_pay: integer(0) }),
    }).executeTest(async (mock) => {
      const got = await api(mock.url).commissions();
      expect(got.by_currency).toEqual([{ currency: 'PEN', earned: 90_000, to_pay: 0 }]);
    });
  });

  it('reads the instalments due in the next 7 days', async () => {
    await card('due-soon', 'a request for the due-soon card', {
      from: regex(DATE, '2026-11-29'),
      to: regex(DATE, '2026-12-06'),
      count: integer(1),
      by_currency: eachLike(money),
    }).executeTest(async (mock) => {
      const got = await api(mock.url)['due-soon']();
      expect(got).toMatchObject({ from: '2026-11-29', to: '2026-12-06', count: 1 });
      expect(got.by_currency[0]).toEqual({ currency: 'PEN', amount: 10_000 });
    });
  });

  it('reads the customers most days late with their WhatsApp reminder', async () => {
    await card('late-customers', 'a request for the late-customers card', {
      customers: eachLike({
        id: integer(1),
        name: like('María Condori Flores'),
        phone: like('987222333'),
        days_late: integer(9),
        by_currency: eachLike(money),
        whatsapp_url: regex(/^https:\/\/wa\.me\/\d{8,15}\?text=.+$/, 'https://wa.me/51987222333?text=Hola%20Mar%C3%ADa'),
      }),
    }).executeTest(async (mock) => {
      const got = await api(mock.url)['late-customers']();
      expect(got.customers[0]).toMatchObject({ id: 1, days_late: 9, phone: '987222333' });
      expect(got.customers[0]?.whatsapp_url).toMatch(/^https:\/\/wa\.me\/51987222333\?text=/);
    });
  });
});
