/**
 * Consumer contract of Inicio's manager cards between `parcela-web` and `parcela-api`, through the
 * real src/api module (src/api/inicio/dashboard-manager.ts): one interaction per card, matchers as
 * loose as the tolerant response schemas (src/schemas/inicio/dashboard.ts) — lists may be empty on
 * the provider (a month without sales), figures are integers, dates yyyy-mm-dd. The figures
 * themselves (each the total of its list) are pinned by tests/server/dashboard-manager.test.ts.
 * Every interaction starts from an empty database with INICIO_STATES.managerFigures
 * (docs/contracts.md).
 */
import { describe, expect, it } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { createDashboardApi } from '../../../src/api/inicio/dashboard';
import { bearer, httpPact, mockClient } from './pact-helpers';
import { STAFF_TOKEN } from '../states';
import { INICIO_STATES } from '../inicio-states';

const { like, integer, regex, eachLike, atLeastLike } = MatchersV3;

const pact = httpPact();
const api = (url: string) => createDashboardApi(mockClient(url, STAFF_TOKEN));
const date = (example: string) => regex(/^\d{4}-\d{2}-\d{2}$/, example);
const currency = regex(/^(PEN|USD)$/, 'PEN');
/** A list that may be empty on the provider (one example here). */
const anyOf = <T>(template: T) => atLeastLike(template, 0, 1);
const money = (amount: number) => ({ currency, amount: integer(amount) });

/** Declares GET /api/dashboard/{card} answering `data`. */
function card(name: string, data: Record<string, unknown>) {
  return pact
    .addInteraction()
    .given(INICIO_STATES.managerFigures, { token: STAFF_TOKEN })
    .uponReceiving(`a request for the ${name} card of Inicio`)
    .withRequest('GET', `/api/dashboard/${name}`, (b) => b.headers(bearer(STAFF_TOKEN)))
    .willRespondWith(200, (b) => b.jsonBody({ data }));
}

describe('Inicio manager cards (consumer)', () => {
  it('reads the sales card: three periods, per currency', async () => {
    await card('sales', {
      as_of: date('2026-11-29'),
      periods: eachLike({
        period: regex(/^(THIS_MONTH|LAST_MONTH|SAME_MONTH_LAST_YEAR)$/, 'THIS_MONTH'),
        from: date('2026-11-01'),
        to: date('2026-11-29'),
        count: integer(1),
        by_currency: anyOf({ ...money(3_000_000), area_m2: like(120.5), price_per_m2: integer(24_896) }),
      }),
    }).executeTest(async (mock) => {
      const sales = await api(mock.url).sales();
      expect(sales.as_of).toBe('2026-11-29');
      expect(sales.periods[0]).toEqual({
        period: 'THIS_MONTH',
        from: '2026-11-01',
        to: '2026-11-29',
        count: 1,
        by_currency: [{ currency: 'PEN', amount: 3_000_000, area_m2: 120.5, price_per_m2: 24_896 }],
      });
    });
  });

  it('reads the collections card: collected, expected and today per currency', async () => {
    await card('collections', {
      as_of: date('2026-11-29'),
      from: date('2026-11-01'),
      to: date('2026-11-30'),
      by_currency: eachLike({ currency, collected: integer(100), expected: integer(100_000), collected_today: integer(100) }),
    }).executeTest(async (mock) => {
      const collections = await api(mock.url).collections();
      expect([collections.from, collections.to]).toEqual(['2026-11-01', '2026-11-30']);
      expect(collections.by_currency[0]).toEqual({ currency: 'PEN', collected: 100, expected: 100_000, collected_today: 100 });
    });
  });

  it('reads the overdue card: one row per days-late bucket', async () => {
    await card('overdue', {
      as_of: date('2026-11-29'),
      buckets: eachLike({
        bucket: regex(/^(AL_DIA|1_30|31_60|61_90|MAS_90)$/, '31_60'),
        count: integer(1),
        by_currency: anyOf(money(100_000)),
      }),
    }).executeTest(async (mock) => {
      const overdue = await api(mock.url).overdue();
      expect(overdue.buckets[0]).toEqual({ bucket: '31_60', count: 1, by_currency: [{ currency: 'PEN', amount: 100_000 }] });
    });
  });

  it('reads the lots card: lots per status of each active subdivision', async () => {
    await card('lots', {
      subdivisions: eachLike({
        id: integer(1),
        id_encrypted: like('Xk2mQ9vT'),
        name: like('Lotización de prueba'),
        counts: like({ DISPONIBLE: 1 }),
      }),
    }).executeTest(async (mock) => {
      const lots = await api(mock.url).lots();
      expect(lots.subdivisions[0]).toEqual({ id: 1, id_encrypted: 'Xk2mQ9vT', name: 'Lotización de prueba', counts: { DISPONIBLE: 1 } });
    });
  });

  it('reads the leads card: per status, this month and follow-ups due', async () => {
    await card('leads', {
      as_of: date('2026-11-29'),
      by_status: eachLike({ status: like('POR_ATENDER'), count: integer(1) }),
      month: { arrived: integer(1), converted: integer(0), rate_bp: integer(0) },
      follow_ups_due: integer(1),
    }).executeTest(async (mock) => {
      const leads = await api(mock.url).leads();
      expect(leads.by_status).toEqual([{ status: 'POR_ATENDER', count: 1 }]);
      expect(leads.month).toEqual({ arrived: 1, converted: 0, rate_bp: 0 });
      expect(leads.follow_ups_due).toBe(1);
    });
  });

  it('reads the top agents card: this month’s agents with their sales per currency', async () => {
    await card('top-agents', {
      from: date('2026-11-01'),
      to: date('2026-11-29'),
      agents: eachLike({ id: integer(1), name: like('Prueba Colaborador'), count: integer(1), by_currency: eachLike(money(3_000_000)) }),
    }).executeTest(async (mock) => {
      const top = await api(mock.url)['top-agents']();
      expect(top.agents[0]).toEqual({ id: 1, name: 'Prueba Colaborador', count: 1, by_currency: [{ currency: 'PEN', amount: 3_000_000 }] });
    });
  });
});
