import { describe, expect, it } from 'vitest';
import { LIMIT_MESSAGES, LIMITS } from '../../src/schemas/limits';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { importPreviewResponseSchema, lotResponseSchema, lotsPageSchema } from '../../src/schemas/proyectos/projects';
import { LOT_MESSAGES } from '../../server/modules/proyectos/lots.service';
import { createLot, createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase, multipartBody } from './harness';

/**
 * Issue 11 items 2–3: one set of numeric limits (src/schemas/limits.ts) for the form, the import,
 * the bulk price update and the database; numbers that used to be stored and then broke every
 * reader (lots list, lot GET/PATCH → 500) are refused with a Spanish 422.
 */

/** A multipart body with the `file` part. */
function multipart(filename: string, content: string) {
  return multipartBody({ filename, content });
}

const square = (x: number, y: number, size: number) => [
  [
    [x, y],
    [x + size, y],
    [x + size, y + size],
    [x, y + size],
    [x, y],
  ],
];

describe.each(dialects)('numeric limits (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  async function token(): Promise<string> {
    return createSession(db(), await createStaff(db(), { permissions: [MODULE.proyectos, SUBMODULE.lotizaciones] }));
  }
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, auth: string, payload?: object) =>
    ctx().app.inject({ method, url, headers: bearer(auth), ...(payload ? { payload } : {}) });
  const upload = (url: string, auth: string, filename: string, content: string) => {
    const body = multipart(filename, content);
    return ctx().app.inject({ method: 'POST', url, payload: body.payload, headers: { ...body.headers, ...bearer(auth) } });
  };
  const lotsOf = (subdivisionId: number) => db().selectFrom('lots').selectAll().where('subdivision_id', '=', subdivisionId).execute();

  it('import: huge prices and areas, and coordinates of 1e308, are located errors; nothing stored; the lots list still answers', async () => {
    const auth = await token();
    const s = await createSubdivision(db());
    const csv = [
      'manzana,lote,area,precio_m2',
      'A,1,120,99999999999999',
      'A,2,100000000000000000000000000,250',
      'A,3,1000000,2000000',
      'A,4,120,250',
    ].join('\n');
    const preview = await upload(`/api/subdivisions/${s.key}/imports/preview`, auth, 'precios.csv', csv);
    expect(preview.statusCode, preview.body).toBe(200);
    const data = importPreviewResponseSchema.parse(preview.json()).data;
    expect(data.lots.map((l) => l.code)).toEqual(['MZ A - LT 4']);
    expect(data.issues.filter((i) => i.severity === 'ERROR').map((i) => [i.location, i.field, i.message])).toEqual([
      ['fila 2', 'price_per_m2', LIMIT_MESSAGES.priceTooLarge],
      ['fila 3', 'area_m2', LIMIT_MESSAGES.areaTooLarge],
      ['fila 4', 'price_per_m2', LIMIT_MESSAGES.listPriceTooLarge],
    ]);
    expect(data.can_import).toBe(false);
    const commit = await upload(`/api/subdivisions/${s.key}/imports`, auth, 'precios.csv', csv);
    expect(commit.statusCode, commit.body).toBe(422);

    const geojson = JSON.stringify({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: { manzana: 'B', lote: '1' }, geometry: { type: 'Polygon', coordinates: square(0, 0, 1e308) } },
        { type: 'Feature', properties: { manzana: 'B', lote: '2' }, geometry: { type: 'Polygon', coordinates: square(0, 0, 1e20) } },
      ],
    });
    const geo = await upload(`/api/subdivisions/${s.key}/imports`, auth, 'lejos.geojson', geojson);
    expect(geo.statusCode, geo.body).toBe(422);
    expect(geo.json().errors.file).toEqual([
      `elemento 1 (MZ B - LT 1): ${LIMIT_MESSAGES.coordinatesOutOfRange}`,
      `elemento 2 (MZ B - LT 2): ${LIMIT_MESSAGES.coordinatesOutOfRange}`,
    ]);
    expect(await lotsOf(s.id)).toHaveLength(0);
    const list = await call('GET', `/api/subdivisions/${s.key}/lots`, auth);
    expect(list.statusCode, list.body).toBe(200);
    lotsPageSchema.parse(list.json());
  });

  it('bulk +500 % repeated: refused with 422 on `change` before any price passes the limit', async () => {
    const auth = await token();
    const s = await createSubdivision(db());
    const id = await createLot(db(), s.id, { block: 'A', number: '1', area_m2: 100, price_per_m2: 20000 });
    const body = { selection: { lot_ids: [id] }, change: { kind: 'PERCENT', percent: 500 }, reason: 'Prueba' };
    const statuses: number[] = [];
    let refusal: { errors: Record<string, string[]> } | null = null;
    for (let i = 0; i < 9 && !refusal; i++) {
      const res = await call('POST', `/api/subdivisions/${s.key}/lots/price-update`, auth, body);
      statuses.push(res.statusCode);
      if (res.statusCode === 422) refusal = res.json();
    }
    expect(statuses.slice(0, -1).every((code) => code === 200)).toBe(true);
    expect(refusal?.errors.change).toEqual([LOT_MESSAGES.priceOverLimit('MZ A - LT 1')]);
    const row = await db().selectFrom('lots').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(Number(row.list_price)).toBeLessThanOrEqual(LIMITS.maxCents);
    const percent = await call('POST', `/api/subdivisions/${s.key}/lots/price-preview`, auth, {
      ...body,
      change: { kind: 'PERCENT', percent: 501 },
    });
    expect(percent.statusCode).toBe(422);
    expect((await call('GET', `/api/lots/${id}`, auth)).statusCode).toBe(200);
  });

  it('form: a list price (area × price per m²) past the limit is a 422 on price_per_m2, on create and on PATCH', async () => {
    const auth = await token();
    const s = await createSubdivision(db());
    const create = await call('POST', `/api/subdivisions/${s.key}/lots`, auth, {
      block: 'A',
      number: '1',
      area_m2: LIMITS.maxAreaM2,
      price_per_m2: LIMITS.maxCents,
    });
    expect(create.statusCode).toBe(422);
    expect(create.json().errors.price_per_m2).toEqual([LIMIT_MESSAGES.listPriceTooLarge]);
    const tooBig = await call('POST', `/api/subdivisions/${s.key}/lots`, auth, {
      block: 'A',
      number: '1',
      area_m2: 1e26,
      price_per_m2: 1e13,
    });
    expect(tooBig.statusCode).toBe(422);
    expect(tooBig.json().errors).toMatchObject({ area_m2: [LIMIT_MESSAGES.areaTooLarge], price_per_m2: [LIMIT_MESSAGES.priceTooLarge] });

    const id = await createLot(db(), s.id, { block: 'A', number: '2', area_m2: 100, price_per_m2: 20000 });
    const patch = await call('PATCH', `/api/lots/${id}`, auth, { price_per_m2: LIMITS.maxCents });
    expect(patch.statusCode).toBe(422);
    expect(patch.json().errors.price_per_m2).toEqual([LIMIT_MESSAGES.listPriceTooLarge]);
    // A price per m² past 2^31 céntimos is legitimate (it overflowed PostgreSQL's integer column).
    const dear = await call('PATCH', `/api/lots/${id}`, auth, { price_per_m2: 3_000_000_000 });
    expect(dear.statusCode, dear.body).toBe(200);
    expect(lotResponseSchema.parse(dear.json()).data).toMatchObject({ price_per_m2: 3_000_000_000, list_price: 300_000_000_000 });
  });

  it('areas and lengths that round to 0 at the stored 2 decimals (1e-300, 1e-308, 0.004) are the "mayor que cero" 422, never a 500 (docs/security.md 30.11)', async () => {
    const auth = await token();
    const s = await createSubdivision(db());
    const id = await createLot(db(), s.id, { block: 'T', number: '1', area_m2: 100, price_per_m2: 20000 });
    for (const tiny of [1e-300, 1e-308, 5e-324, 0.004]) {
      const create = await call('POST', `/api/subdivisions/${s.key}/lots`, auth, {
        block: 'T',
        number: '2',
        area_m2: tiny,
        price_per_m2: 100,
      });
      expect(create.statusCode, `${tiny}: ${create.body}`).toBe(422);
      expect(create.json().errors.area_m2, String(tiny)).toEqual(['El área debe ser mayor que cero']);
      const patch = await call('PATCH', `/api/lots/${id}`, auth, { area_m2: tiny, front_m: tiny });
      expect(patch.statusCode, `${tiny}: ${patch.body}`).toBe(422);
      expect(patch.json().errors, String(tiny)).toMatchObject({
        area_m2: ['El área debe ser mayor que cero'],
        front_m: ['La medida debe ser mayor que cero'],
      });
      const subdivision = await call('PATCH', `/api/subdivisions/${s.key}`, auth, { total_area_m2: tiny });
      expect(subdivision.statusCode, `${tiny}: ${subdivision.body}`).toBe(422);
      expect(subdivision.json().errors.total_area_m2, String(tiny)).toEqual(['El área total debe ser mayor que cero']);
    }
    expect((await db().selectFrom('lots').select('area_m2').where('id', '=', id).executeTakeFirstOrThrow()).area_m2).toBe(100);
    // The smallest stored value is still accepted.
    const smallest = await call('POST', `/api/subdivisions/${s.key}/lots`, auth, {
      block: 'T',
      number: '3',
      area_m2: 0.01,
      price_per_m2: 100,
      front_m: 0.01,
    });
    expect(smallest.statusCode, smallest.body).toBe(201);

    // The import: a declared area that rounds to 0 is a located ERROR (it was stored as 0 → 500).
    const csv = ['manzana,lote,area,precio_m2', 'U,1,0.004,250', 'U,2,120,250'].join('\n');
    const preview = await upload(`/api/subdivisions/${s.key}/imports/preview`, auth, 'diminuto.csv', csv);
    expect(preview.statusCode, preview.body).toBe(200);
    const data = importPreviewResponseSchema.parse(preview.json()).data;
    expect(data.lots.map((l) => l.code)).toEqual(['MZ U - LT 2']);
    expect(data.issues.filter((i) => i.severity === 'ERROR').map((i) => [i.location, i.field])).toEqual([['fila 2', 'area_m2']]);
    const commit = await upload(`/api/subdivisions/${s.key}/imports`, auth, 'diminuto.csv', csv);
    expect(commit.statusCode, commit.body).toBe(422);
  });

  it('the database refuses out-of-range rows itself (CHECK constraints / triggers), on insert and on update', async () => {
    const s = await createSubdivision(db());
    const id = await createLot(db(), s.id, { block: 'A', number: '1', area_m2: 100, price_per_m2: 20000 });
    const row = await db().selectFrom('lots').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const { id: _id, search_text: _searchText, ...values } = row;
    const insert = (patch: Record<string, unknown>) =>
      db()
        .insertInto('lots')
        .values({ ...values, number: `${Math.random()}`.slice(2, 8), code: `X-${Math.random()}`, ...patch })
        .execute();
    await expect(insert({ area_m2: 1e26 })).rejects.toThrow(/lots_limits_check/);
    await expect(insert({ list_price: LIMITS.maxCents + 1 })).rejects.toThrow(/lots_limits_check/);
    await expect(insert({ perimeter_m: Infinity })).rejects.toThrow(/lots_limits_check/);
    await expect(
      db()
        .updateTable('lots')
        .set({ price_per_m2: 2 ** 53 })
        .where('id', '=', id)
        .execute(),
    ).rejects.toThrow(/lots_limits_check/);
    await expect(db().updateTable('lots').set({ area_m2: Infinity }).where('id', '=', id).execute()).rejects.toThrow(/lots_limits_check/);
    await expect(db().updateTable('subdivisions').set({ total_area_m2: 1e9 }).where('id', '=', s.id).execute()).rejects.toThrow(
      /subdivisions_limits_check/,
    );
    await db().updateTable('lots').set({ price_per_m2: LIMITS.maxCents, list_price: LIMITS.maxCents }).where('id', '=', id).execute();
    expect(await db().selectFrom('lots').select(['price_per_m2', 'list_price']).where('id', '=', id).executeTakeFirstOrThrow()).toEqual({
      price_per_m2: LIMITS.maxCents,
      list_price: LIMITS.maxCents,
    });
  });
});
