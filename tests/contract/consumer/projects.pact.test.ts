/**
 * Consumer contract of the Proyectos staff calls (issue "Proyectos"): subdivisions (list with a
 * filter and a sort, get, create 201 / 422, update, delete 409, plan upload), stages and blocks
 * (list, create), lots (list, create, update, delete 204 / 409), status change (200, 409, 422),
 * status history and bulk prices (preview, update), through the real src/api modules. Provider
 * states and fixed data: tests/contract/projects-states.ts (handlers in
 * tests/contract/provider/projects-state-handlers.ts). Imports and maps have their own files.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { createSubdivisionsApi } from '../../../src/api/proyectos/subdivisions';
import { createLotsApi } from '../../../src/api/proyectos/lots';
import { bearer, caught, httpPact, mockClient } from './pact-helpers';
import { LOTS, PROJECT_STATES, SUBDIVISION, SUBDIVISION_KEY } from '../projects-states';
import { STAFF_TOKEN, STATES } from '../states';
import { STALE_RECORD_MESSAGE } from '../../../src/schemas/versions';

const { like, eachLike, integer, regex, boolean, number, nullValue } = MatchersV3;

const pact = httpPact();
const client = (url: string) => mockClient(url, STAFF_TOKEN);
const json = { ...bearer(STAFF_TOKEN), 'Content-Type': 'application/json' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const instant = () => regex(ISO, '2026-11-20T15:00:00.000Z');
const meta = (total: number, perPage = 20) => ({ page: integer(1), per_page: integer(perPage), total: integer(total) });
const STATUS = /^(DISPONIBLE|SEPARADO|VENDIDO|BLOQUEADO|RESERVA_COMERCIAL|CANJE|NO_VENDIBLE)$/;
/** Fixed multipart boundary, so the regenerated pact is byte-identical run after run (drift check). */
const PACT_BOUNDARY = 'parcelaPactBoundary';

/** A subdivision answer: the promised fields exactly, the computed ones by type. */
const subdivision = (s: Record<string, unknown> = SUBDIVISION) => ({
  id: integer(1),
  key: like(String(s.key ?? SUBDIVISION_KEY)),
  code: like(String(s.code)),
  name: like(String(s.name)),
  department: like(String(s.department)),
  province: like(String(s.province)),
  district: like(String(s.district)),
  ubigeo: s.ubigeo == null ? null : like(String(s.ubigeo)),
  address: s.address == null ? null : like(String(s.address)),
  currency: regex(/^(PEN|USD)$/, String(s.currency ?? 'PEN')),
  total_area_m2: number(Number(s.total_area_m2)),
  registry_entry: s.registry_entry == null ? null : like(String(s.registry_entry)),
  licence_number: s.licence_number == null ? null : like(String(s.licence_number)),
  licence_date: s.licence_date == null ? null : regex(/^\d{4}-\d{2}-\d{2}$/, String(s.licence_date)),
  status: regex(/^(EN_PREVENTA|EN_VENTA|AGOTADO|CERRADO)$/, String(s.status ?? 'EN_PREVENTA')),
  published: boolean(Boolean(s.published)),
  public_prices: boolean(Boolean(s.public_prices)),
  coordinate_system: regex(/^(PLAN|GEO)$/, 'PLAN'),
  plan_url: nullValue(),
  lot_counts: {
    DISPONIBLE: integer(1),
    SEPARADO: integer(1),
    VENDIDO: integer(0),
    BLOQUEADO: integer(1),
    RESERVA_COMERCIAL: integer(0),
    CANJE: integer(0),
  },
  lots_total: integer(3),
  sold_area_m2: number(0),
  created_at: instant(),
  updated_at: instant(),
  version: integer(1),
});

type LotFixture = (typeof LOTS)[number];
/** A lot answer (LOTS' promised fields, the others by type). */
const lot = (l: LotFixture, status: string = l.status) => ({
  id: integer(l.id),
  subdivision_id: integer(1),
  block_id: integer(1),
  block: like(l.block),
  stage: like('Etapa 1'),
  number: like(l.number),
  code: like(l.code),
  area_m2: number(l.area_m2),
  perimeter_m: nullValue(),
  front_m: nullValue(),
  front_neighbour: nullValue(),
  back_m: nullValue(),
  back_neighbour: nullValue(),
  right_m: nullValue(),
  right_neighbour: nullValue(),
  left_m: nullValue(),
  left_neighbour: nullValue(),
  currency: regex(/^(PEN|USD)$/, 'PEN'),
  price_per_m2: integer(l.price_per_m2),
  list_price: integer(l.list_price),
  list_price_reason: nullValue(),
  is_corner: boolean(false),
  facing_park: boolean(false),
  status: regex(STATUS, status),
  has_polygon: boolean(true),
  registry_entry: nullValue(),
  notes: nullValue(),
  updated_at: instant(),
  version: integer(1),
});
const error422 = (field: string, message: string) => ({
  message: like('Los datos no son válidos'),
  errors: { [field]: eachLike(like(message)) },
});
const error409 = (message: string) => ({ message: like(message) });
/** The 409 of an edit sent with a version the record no longer has (src/schemas/versions.ts). */
const stale409 = { message: like(STALE_RECORD_MESSAGE), errors: { version: eachLike(like(STALE_RECORD_MESSAGE)) } };

/** A 1×1 PNG for the plan upload. */
const PNG_PATH = path.join(mkdtempSync(path.join(tmpdir(), 'parcela-pact-')), 'plano.png');
writeFileSync(
  PNG_PATH,
  Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64'),
);

describe('subdivisions (consumer)', () => {
  it('lists the subdivisions on sale sorted by name', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request for the subdivisions on sale sorted by name')
      .withRequest('GET', '/api/subdivisions', (b) =>
        b.headers(bearer(STAFF_TOKEN)).query({ per_page: '20', sort: 'name', status: 'EN_VENTA' }),
      )
      .willRespondWith(200, (b) => b.jsonBody({ data: eachLike(subdivision()), meta: meta(1) }))
      .executeTest(async (mock) => {
        const page = await createSubdivisionsApi(client(mock.url)).list({
          page: 1,
          per_page: 20,
          sort: 'name',
          filters: { status: 'EN_VENTA' },
        });
        expect(page.data[0]?.code).toBe(SUBDIVISION.code);
        expect(page.data[0]?.lot_counts.DISPONIBLE).toBe(1);
      });
  });

  it('gets one subdivision by key', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request for one subdivision')
      .withRequest('GET', `/api/subdivisions/${SUBDIVISION_KEY}`, (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) => b.jsonBody({ data: subdivision() }))
      .executeTest(async (mock) => {
        const s = await createSubdivisionsApi(client(mock.url)).get(SUBDIVISION_KEY);
        expect(s.key).toBe(SUBDIVISION_KEY);
      });
  });

  const newSubdivision = {
    code: 'LA-02',
    name: 'Los Álamos de Lurín',
    department: 'Lima',
    province: 'Lima',
    district: 'Lurín',
    ubigeo: null,
    address: null,
    currency: 'PEN' as const,
    total_area_m2: 18000,
    registry_entry: null,
    licence_number: null,
    licence_date: null,
    status: 'EN_PREVENTA' as const,
    published: false,
    public_prices: false,
  };

  it('creates a subdivision (201)', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.noSubdivisions, { token: STAFF_TOKEN })
      .uponReceiving('a request to create a subdivision')
      .withRequest('POST', '/api/subdivisions', (b) => b.headers(json).jsonBody(newSubdivision))
      .willRespondWith(201, (b) =>
        b.jsonBody({
          data: {
            ...subdivision({ ...newSubdivision, key: SUBDIVISION_KEY }),
            lot_counts: { DISPONIBLE: 0, SEPARADO: 0, VENDIDO: 0, BLOQUEADO: 0, RESERVA_COMERCIAL: 0, CANJE: 0 },
            lots_total: 0,
            sold_area_m2: 0,
          },
        }),
      )
      .executeTest(async (mock) => {
        const s = await createSubdivisionsApi(client(mock.url)).create(newSubdivision);
        expect(s.code).toBe('LA-02');
        expect(s.lots_total).toBe(0);
      });
  });

  it('refuses a subdivision whose code is taken (422 errors.code)', async () => {
    const body = { ...newSubdivision, code: SUBDIVISION.code };
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request to create a subdivision with a code already used')
      .withRequest('POST', '/api/subdivisions', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(422, (b) => b.jsonBody(error422('code', 'Ya existe una lotización con ese código')))
      .executeTest(async (mock) => {
        const error = await caught(createSubdivisionsApi(client(mock.url)).create(body));
        expect(error.status).toBe(422);
        expect(error.issues.code?.[0]).toBeTruthy();
      });
  });

  it('updates a subdivision, sending the version it read', async () => {
    const body = { name: 'Los Viñedos de Carabayllo II', published: false, version: 1 };
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request to rename and unpublish a subdivision')
      .withRequest('PATCH', `/api/subdivisions/${SUBDIVISION_KEY}`, (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) => b.jsonBody({ data: { ...subdivision({ ...SUBDIVISION, ...body }), version: integer(2) } }))
      .executeTest(async (mock) => {
        const s = await createSubdivisionsApi(client(mock.url)).update(SUBDIVISION_KEY, body);
        expect(s.name).toBe(body.name);
        expect(s.published).toBe(false);
      });
  });

  it("sets a subdivision's rescission policy (overdue instalments, paid share limit, penalty)", async () => {
    const body = { rescission_overdue_instalments: 4, rescission_paid_share_limit_pct: 50, rescission_penalty_pct: 8, version: 1 };
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving("a request to set a subdivision's rescission policy")
      .withRequest('PATCH', `/api/subdivisions/${SUBDIVISION_KEY}`, (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            ...subdivision(),
            rescission_overdue_instalments: integer(4),
            rescission_paid_share_limit_pct: integer(50),
            rescission_penalty_pct: integer(8),
            version: integer(2),
          },
        }),
      )
      .executeTest(async (mock) => {
        const s = await createSubdivisionsApi(client(mock.url)).update(SUBDIVISION_KEY, body);
        expect(s).toMatchObject({ rescission_overdue_instalments: 4, rescission_paid_share_limit_pct: 50, rescission_penalty_pct: 8 });
      });
  });

  it('refuses an edit of a subdivision another user changed since (409)', async () => {
    const body = { name: 'Los Viñedos de Carabayllo II', version: 1 };
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .given(STATES.recordChangedByAnother, { entity: 'subdivisions', id: SUBDIVISION.id })
      .uponReceiving('a request to rename a subdivision with a stale version')
      .withRequest('PATCH', `/api/subdivisions/${SUBDIVISION_KEY}`, (b) => b.headers(json).jsonBody(body))
      .willRespondWith(409, (b) => b.jsonBody(stale409))
      .executeTest(async (mock) => {
        const error = await caught(createSubdivisionsApi(client(mock.url)).update(SUBDIVISION_KEY, body));
        expect(error.status).toBe(409);
        expect(error.issues.version?.[0]).toBe(STALE_RECORD_MESSAGE);
      });
  });

  it('refuses to delete a subdivision with separated or sold lots (409)', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request to delete a subdivision with a separated lot')
      .withRequest('DELETE', `/api/subdivisions/${SUBDIVISION_KEY}`, (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(409, (b) => b.jsonBody(error409('La lotización tiene lotes separados o vendidos')))
      .executeTest(async (mock) => {
        const error = await caught(createSubdivisionsApi(client(mock.url)).remove(SUBDIVISION_KEY));
        expect(error.status).toBe(409);
      });
  });

  it('uploads the plan image (multipart file)', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request to upload the plan image of a subdivision')
      .withRequest('POST', `/api/subdivisions/${SUBDIVISION_KEY}/plan`, (b) =>
        b.headers(bearer(STAFF_TOKEN)).multipartBody('image/png', PNG_PATH, 'file', PACT_BOUNDARY),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            ...subdivision(),
            plan_url: regex(/^\/api\/subdivisions\/[^/]+\/plan(\?.*)?$/, `/api/subdivisions/${SUBDIVISION_KEY}/plan?v=1`),
          },
        }),
      )
      .executeTest(async (mock) => {
        const file = new File([readFileSync(PNG_PATH)], 'plano.png', { type: 'image/png' });
        const s = await createSubdivisionsApi(client(mock.url)).uploadPlan(SUBDIVISION_KEY, file, 'plano.png');
        expect(s.plan_url).toContain('/plan');
      });
  });
});

describe('stages and blocks (consumer)', () => {
  it('lists the stages', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request for the stages of a subdivision')
      .withRequest('GET', `/api/subdivisions/${SUBDIVISION_KEY}/stages`, (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) => b.jsonBody({ data: eachLike({ id: integer(1), name: like('Etapa 1'), position: integer(0) }) }))
      .executeTest(async (mock) => {
        const stages = await createSubdivisionsApi(client(mock.url)).stages(SUBDIVISION_KEY);
        expect(stages[0]?.name).toBe('Etapa 1');
      });
  });

  it('creates a stage (201)', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request to create a stage')
      .withRequest('POST', `/api/subdivisions/${SUBDIVISION_KEY}/stages`, (b) => b.headers(json).jsonBody({ name: 'Etapa 2' }))
      .willRespondWith(201, (b) => b.jsonBody({ data: { id: integer(2), name: like('Etapa 2'), position: integer(1) } }))
      .executeTest(async (mock) => {
        const stage = await createSubdivisionsApi(client(mock.url)).createStage(SUBDIVISION_KEY, { name: 'Etapa 2' });
        expect(stage.name).toBe('Etapa 2');
      });
  });

  it('lists the blocks with their lot counts', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request for the blocks of a subdivision')
      .withRequest('GET', `/api/subdivisions/${SUBDIVISION_KEY}/blocks`, (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) =>
        b.jsonBody({ data: eachLike({ id: integer(1), name: like('A'), stage_id: integer(1), lots_count: integer(2) }) }),
      )
      .executeTest(async (mock) => {
        const blocks = await createSubdivisionsApi(client(mock.url)).blocks(SUBDIVISION_KEY);
        expect(blocks[0]?.name).toBe('A');
      });
  });

  it('creates a block in a stage (201)', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request to create a block')
      .withRequest('POST', `/api/subdivisions/${SUBDIVISION_KEY}/blocks`, (b) => b.headers(json).jsonBody({ name: 'C', stage_id: 1 }))
      .willRespondWith(201, (b) => b.jsonBody({ data: { id: integer(3), name: like('C'), stage_id: integer(1), lots_count: integer(0) } }))
      .executeTest(async (mock) => {
        const block = await createSubdivisionsApi(client(mock.url)).createBlock(SUBDIVISION_KEY, { name: 'C', stage_id: 1 });
        expect(block.lots_count).toBe(0);
      });
  });
});

describe('lots (consumer)', () => {
  it('lists the available lots of block A sorted by code', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request for the available lots of block A sorted by code')
      .withRequest('GET', `/api/subdivisions/${SUBDIVISION_KEY}/lots`, (b) =>
        b.headers(bearer(STAFF_TOKEN)).query({ per_page: '50', sort: 'code', status: 'DISPONIBLE', block: 'A' }),
      )
      .willRespondWith(200, (b) => b.jsonBody({ data: eachLike(lot(LOTS[0])), meta: meta(1, 50) }))
      .executeTest(async (mock) => {
        const page = await createLotsApi(client(mock.url)).list(SUBDIVISION_KEY, {
          page: 1,
          per_page: 50,
          sort: 'code',
          filters: { status: 'DISPONIBLE', block: 'A' },
        });
        expect(page.data[0]?.code).toBe(LOTS[0].code);
      });
  });

  const newLot = { block: 'B', number: '2', area_m2: 160, price_per_m2: 30000, is_corner: true, facing_park: false };

  it('creates a lot (201) with the computed list price', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request to create a lot')
      .withRequest('POST', `/api/subdivisions/${SUBDIVISION_KEY}/lots`, (b) => b.headers(json).jsonBody(newLot))
      .willRespondWith(201, (b) =>
        b.jsonBody({
          data: {
            ...lot({
              ...LOTS[2],
              id: 4,
              number: '2',
              code: 'MZ B - LT 2',
              area_m2: 160,
              list_price: 4_800_000,
              status: 'DISPONIBLE',
            } as unknown as LotFixture),
            block_id: integer(2),
            is_corner: boolean(true),
            has_polygon: boolean(false),
          },
        }),
      )
      .executeTest(async (mock) => {
        const created = await createLotsApi(client(mock.url)).create(SUBDIVISION_KEY, newLot);
        expect(created.code).toBe('MZ B - LT 2');
        expect(created.list_price).toBe(4_800_000);
        expect(created.status).toBe('DISPONIBLE');
      });
  });

  it('creates a lot of a use not for sale (a club house) as No vendible', async () => {
    const clubHouse = { block: 'B', number: '3', area_m2: 900, price_per_m2: 0, land_use: 'CLUB_HOUSE' as const };
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request to create a club house lot')
      .withRequest('POST', `/api/subdivisions/${SUBDIVISION_KEY}/lots`, (b) => b.headers(json).jsonBody(clubHouse))
      .willRespondWith(201, (b) =>
        b.jsonBody({
          data: {
            ...lot(
              {
                ...LOTS[2],
                id: 4,
                number: '3',
                code: 'MZ B - LT 3',
                area_m2: 900,
                price_per_m2: 0,
                list_price: 0,
              } as unknown as LotFixture,
              'NO_VENDIBLE',
            ),
            block_id: integer(2),
            has_polygon: boolean(false),
            land_use: 'CLUB_HOUSE',
          },
        }),
      )
      .executeTest(async (mock) => {
        const created = await createLotsApi(client(mock.url)).create(SUBDIVISION_KEY, clubHouse);
        expect(created).toMatchObject({ code: 'MZ B - LT 3', status: 'NO_VENDIBLE', land_use: 'CLUB_HOUSE' });
      });
  });

  it('updates a lot with a list price and its reason, sending the version it read', async () => {
    const body = { list_price: 2_900_000, list_price_reason: 'Descuento por frente reducido', version: 1 };
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request to change the list price of a lot with a reason')
      .withRequest('PATCH', `/api/lots/${LOTS[0].id}`, (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: { ...lot(LOTS[0]), list_price: integer(2_900_000), list_price_reason: like(body.list_price_reason), version: integer(2) },
        }),
      )
      .executeTest(async (mock) => {
        const updated = await createLotsApi(client(mock.url)).update(LOTS[0].id, body);
        expect(updated.list_price).toBe(2_900_000);
      });
  });

  it('refuses an edit of a lot another user changed since (409)', async () => {
    const body = { notes: 'Frente al parque', version: 1 };
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .given(STATES.recordChangedByAnother, { entity: 'lots', id: LOTS[0].id })
      .uponReceiving('a request to update a lot with a stale version')
      .withRequest('PATCH', `/api/lots/${LOTS[0].id}`, (b) => b.headers(json).jsonBody(body))
      .willRespondWith(409, (b) => b.jsonBody(stale409))
      .executeTest(async (mock) => {
        const error = await caught(createLotsApi(client(mock.url)).update(LOTS[0].id, body));
        expect(error.status).toBe(409);
        expect(error.issues.version?.[0]).toBe(STALE_RECORD_MESSAGE);
      });
  });

  it('deletes an available lot (204)', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request to delete an available lot')
      .withRequest('DELETE', `/api/lots/${LOTS[0].id}`, (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(204)
      .executeTest(async (mock) => {
        await expect(createLotsApi(client(mock.url)).remove(LOTS[0].id)).resolves.toBeUndefined();
      });
  });

  it('refuses to delete a separated lot (409)', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request to delete a separated lot')
      .withRequest('DELETE', `/api/lots/${LOTS[1].id}`, (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(409, (b) => b.jsonBody(error409('Solo se pueden eliminar lotes disponibles')))
      .executeTest(async (mock) => {
        const error = await caught(createLotsApi(client(mock.url)).remove(LOTS[1].id));
        expect(error.status).toBe(409);
      });
  });
});

describe('lot status (consumer)', () => {
  it('swaps an available lot (200; Canje is no hold, it needs no end date)', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request to swap an available lot')
      .withRequest('POST', `/api/lots/${LOTS[0].id}/status`, (b) =>
        b.headers(json).jsonBody({ status: 'CANJE', reason: 'Permuta con el vendedor' }),
      )
      .willRespondWith(200, (b) => b.jsonBody({ data: lot(LOTS[0], 'CANJE') }))
      .executeTest(async (mock) => {
        const changed = await createLotsApi(client(mock.url)).changeStatus(LOTS[0].id, {
          status: 'CANJE',
          reason: 'Permuta con el vendedor',
        });
        expect(changed).toMatchObject({ lot: { status: 'CANJE' }, pending: null });
      });
  });

  it('requires an end date to separate a lot by hand (422 errors.until; docs/domain.md "Lot holds")', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request to separate an available lot without an end date')
      .withRequest('POST', `/api/lots/${LOTS[0].id}/status`, (b) => b.headers(json).jsonBody({ status: 'SEPARADO', reason: null }))
      .willRespondWith(422, (b) => b.jsonBody(error422('until', 'Indique hasta qué fecha se mantiene el lote')))
      .executeTest(async (mock) => {
        const error = await caught(createLotsApi(client(mock.url)).changeStatus(LOTS[0].id, { status: 'SEPARADO', reason: null }));
        expect(error.status).toBe(422);
        expect(error.issues.until?.[0]).toBeTruthy();
      });
  });

  it('refuses a transition outside the state chart (409)', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request to swap a blocked lot')
      .withRequest('POST', `/api/lots/${LOTS[2].id}/status`, (b) => b.headers(json).jsonBody({ status: 'CANJE', reason: 'Permuta' }))
      .willRespondWith(409, (b) => b.jsonBody(error409('No se puede cambiar el lote de Bloqueado a Canje')))
      .executeTest(async (mock) => {
        const error = await caught(createLotsApi(client(mock.url)).changeStatus(LOTS[2].id, { status: 'CANJE', reason: 'Permuta' }));
        expect(error.status).toBe(409);
      });
  });

  it('requires a reason to block a lot (422 errors.reason)', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request to block a lot without a reason')
      .withRequest('POST', `/api/lots/${LOTS[0].id}/status`, (b) => b.headers(json).jsonBody({ status: 'BLOQUEADO', reason: null }))
      .willRespondWith(422, (b) => b.jsonBody(error422('reason', 'Indique el motivo del cambio de estado')))
      .executeTest(async (mock) => {
        const error = await caught(createLotsApi(client(mock.url)).changeStatus(LOTS[0].id, { status: 'BLOQUEADO', reason: null }));
        expect(error.status).toBe(422);
        expect(error.issues.reason?.[0]).toBeTruthy();
      });
  });

  it('lists the pending hold requests and approves one (docs/domain.md "Lot holds")', async () => {
    const DATE = /^\d{4}-\d{2}-\d{2}$/;
    const hold = (state: string) => ({
      id: integer(1),
      lot: { id: integer(LOTS[0].id), code: like(LOTS[0].code), subdivision_id: integer(SUBDIVISION.id) },
      status: 'RESERVA_COMERCIAL',
      state,
      reason: like('Cliente corporativo'),
      until: regex(DATE, '2026-12-29'),
      requested_at: instant(),
    });
    await pact
      .addInteraction()
      .given(PROJECT_STATES.pendingLotHold, { token: STAFF_TOKEN })
      .uponReceiving('a request for the pending hold requests')
      .withRequest('GET', '/api/lot-holds', (b) => b.headers(bearer(STAFF_TOKEN)).query({ state: 'PENDIENTE', page: '1', per_page: '50' }))
      .willRespondWith(200, (b) => b.jsonBody({ data: eachLike(hold('PENDIENTE')), meta: meta(1, 50) }))
      .executeTest(async (mock) => {
        const page = await createLotsApi(client(mock.url)).holds();
        expect(page.data[0]).toMatchObject({ state: 'PENDIENTE', status: 'RESERVA_COMERCIAL' });
      });
    await pact
      .addInteraction()
      .given(PROJECT_STATES.pendingLotHold, { token: STAFF_TOKEN })
      .uponReceiving('a request to approve a pending hold request')
      .withRequest('POST', '/api/lot-holds/1/approve', (b) => b.headers(json).jsonBody({ reason: null }))
      .willRespondWith(200, (b) => b.jsonBody({ data: { ...hold('APROBADA'), decided_at: instant() } }))
      .executeTest(async (mock) => {
        const approved = await createLotsApi(client(mock.url)).decideHold(1, true);
        expect(approved.state).toBe('APROBADA');
      });
  });

  it('lists the status history of a lot, newest first', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request for the status history of a lot')
      .withRequest('GET', `/api/lots/${LOTS[0].id}/status-history`, (b) =>
        b.headers(bearer(STAFF_TOKEN)).query({ page: '1', per_page: '50' }),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: eachLike({
            id: integer(1),
            from_status: nullValue(),
            to_status: regex(STATUS, 'DISPONIBLE'),
            reason: nullValue(),
            user_name: nullValue(),
            changed_at: instant(),
          }),
          meta: meta(1, 50),
        }),
      )
      .executeTest(async (mock) => {
        const history = await createLotsApi(client(mock.url)).statusHistory(LOTS[0].id);
        expect(history.data[0]?.to_status).toBe('DISPONIBLE');
      });
  });
});

describe('bulk prices (consumer)', () => {
  const body = { selection: { blocks: ['A'] }, change: { kind: 'PERCENT' as const, percent: 10 }, reason: 'Lista de precios 2027' };

  it('previews a 10 % rise of block A', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request to preview a price rise of block A')
      .withRequest('POST', `/api/subdivisions/${SUBDIVISION_KEY}/lots/price-preview`, (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            count: integer(2),
            currency: regex(/^(PEN|USD)$/, 'PEN'),
            total_before: integer(6_000_000),
            total_after: integer(6_600_000),
            rows: eachLike({
              id: integer(1),
              code: like('MZ A - LT 1'),
              status: regex(STATUS, 'DISPONIBLE'),
              area_m2: number(120),
              old_price_per_m2: integer(25000),
              new_price_per_m2: integer(27500),
              old_list_price: integer(3_000_000),
              new_list_price: integer(3_300_000),
            }),
          },
        }),
      )
      .executeTest(async (mock) => {
        const preview = await createLotsApi(client(mock.url)).pricePreview(SUBDIVISION_KEY, body);
        expect(preview.total_after).toBeGreaterThan(preview.total_before);
      });
  });

  it('applies a 10 % rise of block A', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request to apply a price rise of block A')
      .withRequest('POST', `/api/subdivisions/${SUBDIVISION_KEY}/lots/price-update`, (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) => b.jsonBody({ data: { updated: integer(2) } }))
      .executeTest(async (mock) => {
        const result = await createLotsApi(client(mock.url)).priceUpdate(SUBDIVISION_KEY, body);
        expect(result.updated).toBe(2);
      });
  });
});
