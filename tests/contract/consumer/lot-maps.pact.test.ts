/**
 * Consumer contract of the lot maps' calls (issue "Proyectos", src/api/mapas/lot-maps.ts) between
 * `parcela-web` and `parcela-api`: the staff map (every lot with its internal status and polygon)
 * and the public map (public statuses only, prices when the company allows them, 404 for a key
 * that names no published subdivision). States and data: tests/contract/projects-states.ts; the
 * heat map's title states (docs/decisions.md "Heat map: title state") reuse STATES.titleProcessInscribed
 * (sale 1 of lot 1 of SUBDIVISION, its title process INSCRITO since SALE_DATE).
 */
import { describe, expect, it } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { createLotMapsApi } from '../../../src/api/mapas/lot-maps';
import { bearer, caught, httpPact, mockClient } from './pact-helpers';
import { SALE_DATE, STAFF_TOKEN, STATES } from '../states';
import { TITLE_STATES } from '../../../src/schemas/administracion/titles';
import { LOTS, PROJECT_STATES, SUBDIVISION, SUBDIVISION_KEY } from '../projects-states';

const { like, eachLike, integer, number, regex, nullValue } = MatchersV3;

const pact = httpPact();
// Coordinates and areas are any JSON number (the fixture's are whole numbers).
const point = (x: number, y: number) => [number(x) as unknown as number, number(y) as unknown as number];
const polygon = eachLike(point(0, 0), 3);
const subdivision = {
  key: like(SUBDIVISION_KEY),
  code: like(SUBDIVISION.code),
  name: like(SUBDIVISION.name),
  currency: regex(/^(PEN|USD)$/, 'PEN'),
  coordinate_system: regex(/^(PLAN|GEO)$/, 'PLAN'),
  plan_url: nullValue(),
  plan_width: nullValue(),
  plan_height: nullValue(),
  bounds: eachLike(number(0), 4),
};

describe('lot maps', () => {
  it('reads the staff map of a subdivision', async () => {
    const lot = LOTS[0];
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request for the staff lot map of a subdivision')
      .withRequest('GET', `/api/subdivisions/${SUBDIVISION_KEY}/map`, (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            subdivision,
            lots: eachLike(
              {
                id: integer(lot.id),
                code: like(lot.code),
                block: like(lot.block),
                number: like(lot.number),
                area_m2: number(120),
                price_per_m2: integer(lot.price_per_m2),
                list_price: integer(lot.list_price),
                status: regex(/^(DISPONIBLE|SEPARADO|VENDIDO|BLOQUEADO|RESERVA_COMERCIAL|CANJE)$/, 'DISPONIBLE'),
                polygon,
              },
              LOTS.length,
            ),
          },
        }),
      )
      .executeTest(async (mock) => {
        const map = await createLotMapsApi(mockClient(mock.url, STAFF_TOKEN)).staffMap(SUBDIVISION_KEY);
        expect(map.subdivision.key).toBe(SUBDIVISION_KEY);
        expect(map.lots).toHaveLength(LOTS.length);
        expect(map.lots[0]!.polygon!.length).toBeGreaterThanOrEqual(3);
      });
  });

  it('reads the public map of a published subdivision (no session)', async () => {
    const lot = LOTS[0];
    await pact
      .addInteraction()
      .given(PROJECT_STATES.publishedSubdivision)
      .uponReceiving('a request for the public lot map of a published subdivision')
      .withRequest('GET', `/public/subdivisions/${SUBDIVISION_KEY}/map`)
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            subdivision: { ...subdivision },
            lots: eachLike(
              {
                code: like(lot.code),
                block: like(lot.block),
                number: like(lot.number),
                area_m2: number(120),
                list_price: integer(lot.list_price),
                price_per_m2: integer(lot.price_per_m2),
                status: regex(/^(DISPONIBLE|SEPARADO|VENDIDO)$/, 'DISPONIBLE'),
                polygon,
              },
              LOTS.length,
            ),
          },
        }),
      )
      .executeTest(async (mock) => {
        const map = await createLotMapsApi(mockClient(mock.url)).publicMap(SUBDIVISION_KEY);
        expect(map.lots).toHaveLength(LOTS.length);
        expect(map.lots.every((l) => ['DISPONIBLE', 'SEPARADO', 'VENDIDO'].includes(l.status))).toBe(true);
        expect(map.lots[0]).not.toHaveProperty('id');
      });
  });

  it('answers 404 on the public map for a key that names no published subdivision', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.publishedSubdivision)
      .uponReceiving('a request for the public lot map with an unknown key')
      .withRequest('GET', '/public/subdivisions/NoExiste99/map')
      .willRespondWith(404, (b) => b.jsonBody({ message: like('Lotización no encontrada') }))
      .executeTest(async (mock) => {
        const error = await caught(createLotMapsApi(mockClient(mock.url)).publicMap('NoExiste99'));
        expect(error.status).toBe(404);
      });
  });

  it('reads the title state of each sold lot with a title process (the heat map\'s "Estado del título")', async () => {
    await pact
      .addInteraction()
      .given(STATES.titleProcessInscribed, { token: STAFF_TOKEN })
      .uponReceiving('a request for the title states of the lots of a subdivision')
      .withRequest('GET', `/api/subdivisions/${SUBDIVISION_KEY}/title-states`, (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: eachLike({
            lot_id: integer(1),
            state: regex(new RegExp(`^(${TITLE_STATES.join('|')})$`), 'INSCRITO'),
            state_since: regex(/^\d{4}-\d{2}-\d{2}$/, SALE_DATE),
          }),
        }),
      )
      .executeTest(async (mock) => {
        const states = await createLotMapsApi(mockClient(mock.url, STAFF_TOKEN)).titleStates(SUBDIVISION_KEY);
        expect(states[0]).toMatchObject({ lot_id: 1, state: 'INSCRITO' });
      });
  });
});
