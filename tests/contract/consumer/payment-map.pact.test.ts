/**
 * Consumer contract of Mapa de Pagos (issue 16, src/api/mapas/payment-map.ts and the subdivision
 * select's src/api/proyectos/subdivision-options.ts) between `parcela-web` and `parcela-api`: the
 * payment facts of each sold lot and the summary per bucket, a 404 for a key that names no
 * subdivision, and the subdivision options with their keys. States reused: STATES.overdueInstalmentExists
 * (sale 1 of lot 1 of SUBDIVISION, dated 2026-03-15, its INICIAL unpaid: more than 90 days late on any
 * later day of the verification), PROJECT_STATES.subdivisionWithLots and PROJECT_STATES.noSubdivisions.
 */
import { describe, expect, it } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { createPaymentMapApi } from '../../../src/api/mapas/payment-map';
import { createSubdivisionOptionsApi } from '../../../src/api/proyectos/subdivision-options';
import { PAYMENT_BUCKETS } from '../../../src/schemas/comercio/payment-map';
import { bearer, caught, httpPact, mockClient } from './pact-helpers';
import { STAFF_TOKEN, STATES } from '../states';
import { PROJECT_STATES, SUBDIVISION, SUBDIVISION_KEY } from '../projects-states';

const { like, eachLike, integer, regex } = MatchersV3;

const pact = httpPact();
const api = (url: string) => createPaymentMapApi(mockClient(url, STAFF_TOKEN));
const BUCKET = new RegExp(`^(${PAYMENT_BUCKETS.join('|')})$`);
const DATE = /^\d{4}-\d{2}-\d{2}$/;

describe('Mapa de Pagos (consumer)', () => {
  it('reads the payment facts of each sold lot and the summary per bucket', async () => {
    await pact
      .addInteraction()
      .given(STATES.overdueInstalmentExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the payment map of a subdivision with an overdue sale')
      .withRequest('GET', `/api/subdivisions/${SUBDIVISION_KEY}/payment-map`, (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            subdivision: {
              key: like(SUBDIVISION_KEY),
              name: like(SUBDIVISION.name),
              currency: regex(/^(PEN|USD)$/, 'PEN'),
              grace_days: integer(3),
            },
            today: regex(DATE, '2026-11-27'),
            lots: eachLike({
              lot_id: integer(1),
              sale_id: integer(1),
              sale_number: like('V-000001'),
              buyer: like('Rosa Quispe'),
              bucket: regex(BUCKET, 'MAS_90'),
              days_late: integer(254),
              overdue: integer(3_000_000),
              balance: integer(3_000_000),
              next_due_date: regex(DATE, '2026-03-15'),
            }),
            summary: eachLike({ bucket: regex(BUCKET, 'AL_DIA'), lots: integer(0), overdue: integer(0), balance: integer(0) }, 7),
          },
        }),
      )
      .executeTest(async (mock) => {
        const map = await api(mock.url).get(SUBDIVISION_KEY);
        expect(map.lots[0]).toMatchObject({ lot_id: 1, sale_id: 1, bucket: 'MAS_90' });
        expect(map.summary).toHaveLength(7);
      });
  });

  it('answers 404 for a key that names no subdivision', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.noSubdivisions, { token: STAFF_TOKEN })
      .uponReceiving('a request for the payment map of a subdivision that does not exist')
      .withRequest('GET', `/api/subdivisions/${SUBDIVISION_KEY}/payment-map`, (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(404, (b) => b.jsonBody({ message: like('Lotización no encontrada') }))
      .executeTest(async (mock) => {
        const error = await caught(api(mock.url).get(SUBDIVISION_KEY));
        expect(error.status).toBe(404);
      });
  });

  it('lists the subdivisions for the select, each with its key', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request for the subdivision options with their keys')
      .withRequest('GET', '/api/subdivision-options', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: eachLike({ id: integer(1), key: like(SUBDIVISION_KEY), name: like(SUBDIVISION.name), status: like('EN_VENTA') }),
        }),
      )
      .executeTest(async (mock) => {
        const options = await createSubdivisionOptionsApi(mockClient(mock.url, STAFF_TOKEN)).list();
        expect(options[0]).toMatchObject({ id: 1, key: SUBDIVISION_KEY });
      });
  });
});
