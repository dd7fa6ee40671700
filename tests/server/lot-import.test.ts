import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { IMPORT_MAX_BYTES, importPreviewResponseSchema, importResultResponseSchema, importIssueSchema } from '../../src/schemas/projects';
// @ts-expect-error -- plain ESM script without types (scripts/generate-plan-fixtures.mjs)
import { buildPlan, planToDxf } from '../../scripts/generate-plan-fixtures.mjs';
import type { DB } from '../../server/db/database';
import { createOpaqueIds } from '../../server/ids';
import { createSession, createStaff } from '../../server/testing/fixtures';
import { testConfig } from '../../server/config';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/** Lot import: POST /api/subdivisions/{key}/imports/preview and POST /api/subdivisions/{key}/imports. */

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));

/** A multipart body with the `file` part and optional `layer` field. */
function multipart(filename: string, content: Buffer, layer?: string) {
  const boundary = '----parcelaImportBoundary';
  const parts: Buffer[] = [];
  if (layer !== undefined) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="layer"\r\n\r\n${layer}\r\n`));
  parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
  parts.push(content, Buffer.from(`\r\n--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

let subdivisionSeq = 0;
/** Inserts a subdivision directly (the subdivisions routes are another engineer's). @returns its id. */
async function insertSubdivision(db: Kysely<DB>): Promise<number> {
  subdivisionSeq += 1;
  const now = '2026-01-15T12:00:00.000Z';
  const { id } = await db
    .insertInto('subdivisions')
    .values({
      code: `IMP-${subdivisionSeq}-${Math.random().toString(36).slice(2, 7)}`,
      name: `Lotización de prueba ${subdivisionSeq}`,
      department: 'Lima',
      province: 'Lima',
      district: 'Carabayllo',
      ubigeo: null,
      address: null,
      currency: 'PEN',
      total_area_m2: 50000,
      registry_entry: null,
      licence_number: null,
      licence_date: null,
      status: 'EN_VENTA',
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

describe.each(dialects)('lot import (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);
  const ids = createOpaqueIds(testConfig().idAlphabet);

  async function staff(permissions = [MODULE.proyectos, SUBMODULE.lotizaciones]) {
    const user = await createStaff(db(), { permissions, clock: ctx().clock });
    return { user, token: await createSession(db(), user) };
  }

  const post = (path: string, token: string, filename: string, content: Buffer, layer?: string) =>
    ctx().app.inject({ method: 'POST', url: path, ...multipart(filename, content, layer), headers: { ...multipart(filename, content, layer).headers, ...bearer(token) } });

  const lotsOf = (subdivisionId: number) =>
    db().selectFrom('lots').selectAll().where('subdivision_id', '=', subdivisionId).orderBy('code').execute();

  it('previews the 200-lot DXF: layers, default layer LOTES, 200 creations, nothing stored', async () => {
    const { token } = await staff();
    const id = await insertSubdivision(db());
    const res = await post(`/api/subdivisions/${ids.encode(id)}/imports/preview`, token, 'lotizacion-200.dxf', fixture('lotizacion-200.dxf'));
    expect(res.statusCode).toBe(200);
    const { data } = importPreviewResponseSchema.parse(res.json());
    expect(data.format).toBe('DXF');
    expect(data.layer).toBe('LOTES');
    expect(data.layers?.map((l) => l.name)).toEqual(expect.arrayContaining(['LOTES', 'MANZANAS', 'VIAS', 'COTAS']));
    expect(data.lots).toHaveLength(200);
    expect(data.summary).toMatchObject({ create: 200, update: 0, errors: 0 });
    expect(data.can_import).toBe(true);
    // DXF carries no price: one warning, not an error.
    expect(data.issues.filter((i) => i.severity === 'WARNING').map((i) => i.field)).toContain('price_per_m2');
    expect(await lotsOf(id)).toHaveLength(0);
    expect(await db().selectFrom('blocks').select('id').where('subdivision_id', '=', id).execute()).toHaveLength(0);
  });

  it('previews the MANZANAS layer when asked (12 block outlines, all unlabelled lots → errors)', async () => {
    const { token } = await staff();
    const id = await insertSubdivision(db());
    const res = await post(`/api/subdivisions/${ids.encode(id)}/imports/preview`, token, 'plano.dxf', fixture('lotizacion-200.dxf'), 'MANZANAS');
    const { data } = importPreviewResponseSchema.parse(res.json());
    expect(data.layer).toBe('MANZANAS');
    expect(data.can_import).toBe(false);
    expect(data.summary.errors).toBeGreaterThan(0);
  });

  it('imports the DXF in one go, then the CSV updates prices and boundaries of the same lots', async () => {
    const { token, user } = await staff();
    const id = await insertSubdivision(db());
    const key = ids.encode(id);
    const res = await post(`/api/subdivisions/${key}/imports`, token, 'lotizacion-200.dxf', fixture('lotizacion-200.dxf'));
    expect(res.statusCode).toBe(200);
    expect(importResultResponseSchema.parse(res.json()).data).toEqual({ created: 200, updated: 0 });
    const lots = await lotsOf(id);
    expect(lots).toHaveLength(200);
    const a1 = lots.find((l) => l.code === 'MZ A - LT 1')!;
    expect(a1).toMatchObject({ status: 'DISPONIBLE', price_per_m2: 0, list_price: 0, area_m2: 193 });
    expect(JSON.parse(a1.polygon!)).toHaveLength(5);
    const history = await db().selectFrom('lot_status_changes').selectAll().where('lot_id', '=', a1.id).orderBy('id').execute();
    expect(history).toMatchObject([{ from_status: null, to_status: 'DISPONIBLE', user_id: user.id }]);
    const audit = await db().selectFrom('change_history').select(['entity', 'action']).where('record_id', '=', String(a1.id)).where('entity', '=', 'lots').execute();
    expect(audit).toEqual([{ entity: 'lots', action: 'CREATE' }]);
    expect(await db().selectFrom('blocks').select('name').where('subdivision_id', '=', id).orderBy('name').execute()).toHaveLength(12);
    const sub = await db().selectFrom('subdivisions').select('coordinate_system').where('id', '=', id).executeTakeFirstOrThrow();
    expect(sub.coordinate_system).toBe('PLAN');

    const preview = importPreviewResponseSchema.parse(
      (await post(`/api/subdivisions/${key}/imports/preview`, token, 'lotes-200.csv', fixture('lotes-200.csv'))).json(),
    ).data;
    expect(preview.summary).toMatchObject({ create: 0, update: 200, errors: 0 });
    const csv = await post(`/api/subdivisions/${key}/imports`, token, 'lotes-200.csv', fixture('lotes-200.csv'));
    expect(csv.statusCode).toBe(200);
    expect(importResultResponseSchema.parse(csv.json()).data).toEqual({ created: 0, updated: 200 });
    const after = (await lotsOf(id)).find((l) => l.code === 'MZ A - LT 1')!;
    expect(after).toMatchObject({ price_per_m2: 45000, list_price: 193 * 45000, front_m: 10, front_neighbour: 'Calle Los Olivos', is_corner: 1 });
    expect(after.polygon).toBe(a1.polygon); // CSV has no polygon: kept
    expect(await lotsOf(id)).toHaveLength(200);
  });

  it('refuses a file with one bad lot with 422 and stores nothing (all or nothing)', async () => {
    const { token } = await staff();
    const id = await insertSubdivision(db());
    for (const name of ['bad-open-polylines.dxf', 'bad-overlapping.dxf', 'bad-duplicated-codes.dxf', 'bad-missing-label.dxf', 'bad-not-a-dxf.dxf', 'bad-lotes.csv']) {
      const res = await post(`/api/subdivisions/${ids.encode(id)}/imports`, token, name, fixture(name));
      expect(res.statusCode, name).toBe(422);
      const body = res.json() as { message: string; errors: { file: string[] }; issues: unknown[] };
      expect(body.message).toMatch(/no se importó ningún lote/);
      expect(body.errors.file.length).toBeGreaterThan(0);
      expect(body.issues.map((i) => importIssueSchema.parse(i)).some((i) => i.severity === 'ERROR')).toBe(true);
    }
    expect(await lotsOf(id)).toHaveLength(0);
    expect(await db().selectFrom('blocks').select('id').where('subdivision_id', '=', id).execute()).toHaveLength(0);
  });

  it('locates the overlapping lot and the unlabelled polyline for people', async () => {
    const { token } = await staff();
    const id = await insertSubdivision(db());
    const overlap = importPreviewResponseSchema.parse(
      (await post(`/api/subdivisions/${ids.encode(id)}/imports/preview`, token, 'x.dxf', fixture('bad-overlapping.dxf'))).json(),
    ).data;
    expect(overlap.issues.find((i) => /superpone/.test(i.message))).toMatchObject({ severity: 'ERROR', location: expect.stringMatching(/^capa LOTES, polilínea cerca de \(/) });
    const csv = importPreviewResponseSchema.parse((await post(`/api/subdivisions/${ids.encode(id)}/imports/preview`, token, 'x.csv', fixture('bad-lotes.csv'))).json()).data;
    expect(csv.issues.map((i) => i.location)).toEqual(expect.arrayContaining(['fila 4', 'fila 6', 'fila 9']));
  });

  it('GeoJSON: geographic areas, a > 1 % declared area is a warning, and GEO on a PLAN subdivision with lots is refused', async () => {
    const { token } = await staff();
    const id = await insertSubdivision(db());
    const key = ids.encode(id);
    const res = await post(`/api/subdivisions/${key}/imports/preview`, token, 'l.geojson', fixture('lotizacion-200.geojson'));
    const { data } = importPreviewResponseSchema.parse(res.json());
    expect(data.format).toBe('GEOJSON');
    expect(data.can_import).toBe(true);
    expect(data.issues.filter((i) => i.field === 'area_m2').map((i) => i.lot_code)).toEqual(['MZ A - LT 3', 'MZ C - LT 10']);
    const dxf = await post(`/api/subdivisions/${key}/imports`, token, 'l.dxf', fixture('lotizacion-200.dxf'));
    expect(dxf.statusCode).toBe(200);
    const geo = await post(`/api/subdivisions/${key}/imports`, token, 'l.geojson', fixture('lotizacion-200.geojson'));
    expect(geo.statusCode).toBe(422);
    expect(JSON.stringify(geo.json())).toMatch(/coordenadas geográficas/);
  });

  it('answers 404 for an unknown or malformed key, 403 without the permission, 401 without a token', async () => {
    const { token } = await staff();
    const file = fixture('lotizacion-16.dxf');
    const missing = await post(`/api/subdivisions/${ids.encode(999999)}/imports/preview`, token, 'a.dxf', file);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ message: 'Lotización no encontrada' });
    expect((await post('/api/subdivisions/not-a-key/imports', token, 'a.dxf', file)).statusCode).toBe(404);
    const id = await insertSubdivision(db());
    const other = await staff([MODULE.proyectos]);
    expect((await post(`/api/subdivisions/${ids.encode(id)}/imports`, other.token, 'a.dxf', file)).statusCode).toBe(403);
    const anonymous = await ctx().app.inject({ method: 'POST', url: `/api/subdivisions/${ids.encode(id)}/imports/preview`, ...multipart('a.dxf', file) });
    expect(anonymous.statusCode).toBe(401);
    expect(await lotsOf(id)).toHaveLength(0);
  });

  it('accepts files over the global 1 MB multipart limit and refuses those over IMPORT_MAX_BYTES', async () => {
    const { token } = await staff();
    const id = await insertSubdivision(db());
    const big = Buffer.from(planToDxf(buildPlan({ lots: 2000, seed: 3, blocksPerRow: 10 })));
    expect(big.length).toBeGreaterThan(1024 * 1024);
    const res = await post(`/api/subdivisions/${ids.encode(id)}/imports/preview`, token, 'grande.dxf', big);
    expect(res.statusCode, res.body).toBe(200);
    expect(importPreviewResponseSchema.parse(res.json()).data.summary).toMatchObject({ create: 2000, errors: 0 });
    const huge = await post(`/api/subdivisions/${ids.encode(id)}/imports/preview`, token, 'enorme.csv', Buffer.alloc(IMPORT_MAX_BYTES + 10, 0x41));
    expect(huge.statusCode).toBe(422);
    expect((huge.json() as { errors: Record<string, string[]> }).errors.file).toEqual(['El archivo supera el máximo de 20 MB']);
  });

  it('answers 422 on `file` when the file part is missing', async () => {
    const { token } = await staff();
    const id = await insertSubdivision(db());
    const boundary = 'b';
    const res = await ctx().app.inject({
      method: 'POST',
      url: `/api/subdivisions/${ids.encode(id)}/imports/preview`,
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="layer"\r\n\r\nLOTES\r\n--${boundary}--\r\n`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...bearer(token) },
    });
    expect(res.statusCode).toBe(422);
    expect((res.json() as { errors: Record<string, string[]> }).errors.file).toBeDefined();
  });
});
