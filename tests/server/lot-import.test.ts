import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import {
  IMPORT_MAX_BYTES,
  importPreviewResponseSchema,
  importResultResponseSchema,
  importIssueSchema,
} from '../../src/schemas/proyectos/projects';
// @ts-expect-error -- plain ESM script without types (scripts/generate-plan-fixtures.mjs)
import { buildPlan, planToDxf } from '../../scripts/generate-plan-fixtures.mjs';
import type { DB } from '../../server/db/database';
import { createOpaqueIds } from '../../server/ids';
import { createSession, createStaff } from '../../server/testing/fixtures';
import { testConfig } from '../../server/config';
import { bearer, dialects, useTestApp, useTestDatabase, multipartBody } from './harness';

/** Lot import: POST /api/subdivisions/{key}/imports/preview and POST /api/subdivisions/{key}/imports. */

const FIXTURES = join(import.meta.dirname, '..', '..', 'fixtures');
const fixture = (name: string) => readFileSync(join(FIXTURES, name));

/** A multipart body with the `file` part and optional `layer` and `resolutions` fields. */
function multipart(filename: string, content: Buffer, layer?: string, resolutions?: string) {
  return multipartBody(
    { filename, content },
    { ...(layer === undefined ? {} : { layer }), ...(resolutions === undefined ? {} : { resolutions }) },
  );
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
    ctx().app.inject({
      method: 'POST',
      url: path,
      ...multipart(filename, content, layer),
      headers: { ...multipart(filename, content, layer).headers, ...bearer(token) },
    });

  const lotsOf = (subdivisionId: number) =>
    db().selectFrom('lots').selectAll().where('subdivision_id', '=', subdivisionId).orderBy('code').execute();

  it('previews the 200-lot DXF: layers, default layer LOTES, 200 creations, nothing stored', async () => {
    const { token } = await staff();
    const id = await insertSubdivision(db());
    const res = await post(
      `/api/subdivisions/${ids.encode(id)}/imports/preview`,
      token,
      'lotizacion-200.dxf',
      fixture('lotizacion-200.dxf'),
    );
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
    const res = await post(
      `/api/subdivisions/${ids.encode(id)}/imports/preview`,
      token,
      'plano.dxf',
      fixture('lotizacion-200.dxf'),
      'MANZANAS',
    );
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
    const audit = await db()
      .selectFrom('change_history')
      .select(['entity', 'action'])
      .where('record_id', '=', String(a1.id))
      .where('entity', '=', 'lots')
      .execute();
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
    expect(after).toMatchObject({
      price_per_m2: 45000,
      list_price: 193 * 45000,
      front_m: 10,
      front_neighbour: 'Calle Los Olivos',
      is_corner: 1,
    });
    expect(after.polygon).toBe(a1.polygon); // CSV has no polygon: kept
    expect(await lotsOf(id)).toHaveLength(200);
  });

  it('refuses a file with one bad lot with 422 and stores nothing (all or nothing)', async () => {
    const { token } = await staff();
    const id = await insertSubdivision(db());
    for (const name of [
      'bad-open-polylines.dxf',
      'bad-overlapping.dxf',
      'bad-duplicated-codes.dxf',
      'bad-missing-label.dxf',
      'bad-not-a-dxf.dxf',
      'bad-lotes.csv',
    ]) {
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
    expect(overlap.issues.find((i) => /superpone/.test(i.message))).toMatchObject({
      severity: 'ERROR',
      location: expect.stringMatching(/^capa LOTES, polilínea cerca de \(/),
    });
    const csv = importPreviewResponseSchema.parse(
      (await post(`/api/subdivisions/${ids.encode(id)}/imports/preview`, token, 'x.csv', fixture('bad-lotes.csv'))).json(),
    ).data;
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

  /**
   * A GeoJSON as an ArcGIS export of a Peruvian plan writes it (issue 13): UTM 18S metres named by
   * its `crs`, properties MZ / LT / Etapa / Shape_Area and CAD leftovers; lot A-3 has a zero-area
   * spike 0.66 m into has a T-junction vertex on the edge it shares with A-3. With
   * `overlap`, B-1 is drawn 1 m into B-2 (20 m² in common). `uses` gives lots a `uso` property
   * by "A-4"-style key.
   */
  function arcgisExport({ overlap = false, uses = {} as Record<string, string> } = {}): Buffer {
    const [x0, y0] = [280_000, 8_680_000];
    const features = [];
    for (const [row, block, etapa] of [
      [0, 'A', 1],
      [1, 'B', 2],
    ] as const) {
      for (let i = 0; i < 5; i++) {
        const x = x0 + i * 10,
          y = y0 + row * 20;
        let ring: number[][] = [
          [x, y],
          [x + 10, y],
          [x + 10, y + 20],
          [x, y + 20],
        ];
        if (block === 'A' && i === 2)
          ring = [
            [x, y],
            [x + 10, y],
            [x + 10, y + 5],
            [x + 10.66, y + 5],
            [x + 10, y + 5],
            [x + 10, y + 20],
            [x, y + 20],
          ];
        if (block === 'A' && i === 1)
          ring = [
            [x, y],
            [x + 10, y],
            [x + 10, y + 7],
            [x + 10, y + 20],
            [x, y + 20],
          ];
        if (overlap && block === 'B' && i === 0)
          ring = [
            [x, y],
            [x + 11, y],
            [x + 11, y + 20],
            [x, y + 20],
          ];
        features.push({
          type: 'Feature',
          properties: {
            MZ: block,
            LT: String(i + 1),
            Etapa: etapa,
            Shape_Area: 200,
            Layer: 'LOTES',
            RefName: `${block}${i + 1}`,
            ...(uses[`${block}-${i + 1}`] ? { uso: uses[`${block}-${i + 1}`] } : {}),
          },
          geometry: { type: 'Polygon', coordinates: [[...ring, ring[0]]] },
        });
      }
    }
    return Buffer.from(
      JSON.stringify({ type: 'FeatureCollection', crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::32718' } }, features }),
    );
  }

  it('imports an ArcGIS export: UTM converted to lon/lat, the spike cleaned with a warning, T-junctions fine, stages created', async () => {
    const { token } = await staff();
    const id = await insertSubdivision(db());
    const key = ids.encode(id);
    const preview = importPreviewResponseSchema.parse(
      (await post(`/api/subdivisions/${key}/imports/preview`, token, 'arcgis.geojson', arcgisExport())).json(),
    ).data;
    expect(preview.issues.filter((i) => i.severity === 'ERROR')).toEqual([]);
    expect(preview.issues).toContainEqual(
      expect.objectContaining({
        severity: 'WARNING',
        lot_code: 'MZ A - LT 3',
        message: expect.stringMatching(/^Se eliminó una punta de 0\.66 m en MZ A - LT 3/),
      }),
    );
    expect(preview.stages).toEqual([
      { name: 'Etapa 1', lots: 5, action: 'CREATE' },
      { name: 'Etapa 2', lots: 5, action: 'CREATE' },
    ]);
    expect(preview.lots.find((l) => l.code === 'MZ B - LT 1')).toMatchObject({ stage: 'Etapa 2', area_m2: 200 });
    // The preview map's data (issue 13 item 6): lon/lat outlines after cleaning (A-3 without its spike).
    expect(preview.coordinate_system).toBe('GEO');
    expect(preview.lots.find((l) => l.code === 'MZ A - LT 3')!.polygon).toHaveLength(5);
    expect(preview.can_import).toBe(true);

    const res = await post(`/api/subdivisions/${key}/imports`, token, 'arcgis.geojson', arcgisExport());
    expect(res.statusCode).toBe(200);
    expect(importResultResponseSchema.parse(res.json()).data).toEqual({ created: 10, updated: 0 });
    const stages = await db()
      .selectFrom('stages')
      .select(['id', 'name', 'position'])
      .where('subdivision_id', '=', id)
      .orderBy('position')
      .execute();
    expect(stages.map((s) => [s.name, s.position])).toEqual([
      ['Etapa 1', 1],
      ['Etapa 2', 2],
    ]);
    const blocks = await db().selectFrom('blocks').select(['name', 'stage_id']).where('subdivision_id', '=', id).orderBy('name').execute();
    expect(blocks).toEqual([
      { name: 'A', stage_id: stages[0]!.id },
      { name: 'B', stage_id: stages[1]!.id },
    ]);
    const sub = await db().selectFrom('subdivisions').select('coordinate_system').where('id', '=', id).executeTakeFirstOrThrow();
    expect(sub.coordinate_system).toBe('GEO');
    const a3 = (await lotsOf(id)).find((l) => l.code === 'MZ A - LT 3')!;
    const polygon = JSON.parse(a3.polygon!) as [number, number][];
    expect(polygon).toHaveLength(5); // the spike's tip and its repeated base are gone (the base stays as a straight-edge vertex)
    // Lon/lat of Lima's UTM 18S grid (≈ 77° W, 12° S).
    expect(polygon[0]![0]).toBeGreaterThan(-78);
    expect(polygon[0]![0]).toBeLessThan(-76);
    expect(polygon[0]![1]).toBeGreaterThan(-13);
    expect(polygon[0]![1]).toBeLessThan(-11);
    // The drawn area survives the projection (UTM scale error well under 1 %).
    expect(a3.area_m2).toBe(200);
  });

  it('reads land uses: counts per use, lots not for sale created NO_VENDIBLE, unknown uses and unsellable sold lots refused', async () => {
    const { token } = await staff();
    const id = await insertSubdivision(db());
    const key = ids.encode(id);
    const uses = {
      'A-1': 'VIVIENDA',
      'A-4': 'CLUB HOUSE',
      'A-5': 'EDUCACIÓN',
      'B-1': 'Comercio',
      'B-2': 'Vivienda Multifamiliar',
      'B-5': 'Área verde',
    };
    const preview = importPreviewResponseSchema.parse(
      (await post(`/api/subdivisions/${key}/imports/preview`, token, 'usos.geojson', arcgisExport({ uses }))).json(),
    ).data;
    expect(preview.uses).toEqual([
      { use: 'VIVIENDA', lots: 1 },
      { use: 'MULTIFAMILIAR', lots: 1 },
      { use: 'COMERCIO', lots: 1 },
      { use: 'EQUIPAMIENTO', lots: 1 },
      { use: 'RECREACION', lots: 1 },
      { use: 'CLUB_HOUSE', lots: 1 },
    ]);
    expect(preview.lots.find((l) => l.code === 'MZ A - LT 4')).toMatchObject({ land_use: 'CLUB_HOUSE' });
    expect(preview.lots.find((l) => l.code === 'MZ A - LT 2')).toMatchObject({ land_use: null });
    expect(preview.can_import).toBe(true);
    expect((await post(`/api/subdivisions/${key}/imports`, token, 'usos.geojson', arcgisExport({ uses }))).statusCode).toBe(200);
    const rows = new Map((await lotsOf(id)).map((l) => [l.code, l]));
    expect(
      ['MZ A - LT 2', 'MZ A - LT 4', 'MZ A - LT 5', 'MZ B - LT 1', 'MZ B - LT 5'].map((c) => [rows.get(c)!.land_use, rows.get(c)!.status]),
    ).toEqual([
      ['VIVIENDA', 'DISPONIBLE'],
      ['CLUB_HOUSE', 'NO_VENDIBLE'],
      ['EQUIPAMIENTO', 'NO_VENDIBLE'],
      ['COMERCIO', 'DISPONIBLE'],
      ['RECREACION', 'NO_VENDIBLE'],
    ]);
    const created = await db()
      .selectFrom('lot_status_changes')
      .select(['to_status'])
      .where('lot_id', '=', rows.get('MZ A - LT 4')!.id)
      .execute();
    expect(created).toEqual([{ to_status: 'NO_VENDIBLE' }]);

    // Re-import: the club house becomes housing again (back to DISPONIBLE); a sold lot cannot become a park; an unknown use is an error.
    await db().updateTable('lots').set({ status: 'VENDIDO' }).where('id', '=', rows.get('MZ B - LT 1')!.id).execute();
    const second = { ...uses, 'A-4': 'Vivienda', 'B-1': 'Parque', 'B-3': 'Cementerio' };
    const refused = await post(`/api/subdivisions/${key}/imports`, token, 'usos.geojson', arcgisExport({ uses: second }));
    expect(refused.statusCode).toBe(422);
    const issues = refused.json().issues as Array<{ lot_code: string; message: string; kind?: string }>;
    // An unknown use is no longer refused by the preview, but it must be given a use before storing (docs/import.md "Land use").
    expect(issues.filter((i) => i.kind === 'USE').map((i) => [i.lot_code, i.message])).toEqual([
      [null, 'Elija el uso de "Cementerio" (1 lote): no es un uso conocido'],
      ['MZ B - LT 1', 'El lote MZ B - LT 1 está vendido y no puede pasar al uso Recreación / parque, que no se vende'],
    ]);
    expect((await lotsOf(id)).find((l) => l.code === 'MZ A - LT 4')).toMatchObject({ land_use: 'CLUB_HOUSE', status: 'NO_VENDIBLE' });
    const third = { ...uses, 'A-4': 'Vivienda' };
    expect((await post(`/api/subdivisions/${key}/imports`, token, 'usos.geojson', arcgisExport({ uses: third }))).json()).toMatchObject({
      data: { created: 0, updated: 1 },
    });
    const a4 = (await lotsOf(id)).find((l) => l.code === 'MZ A - LT 4')!;
    expect(a4).toMatchObject({ land_use: 'VIVIENDA', status: 'DISPONIBLE' });
    const history = await db()
      .selectFrom('lot_status_changes')
      .select(['from_status', 'to_status', 'reason'])
      .where('lot_id', '=', a4.id)
      .orderBy('id')
      .execute();
    expect(history.at(-1)).toEqual({
      from_status: 'NO_VENDIBLE',
      to_status: 'DISPONIBLE',
      reason: 'Cambio de uso por importación de archivo',
    });
  });

  it('lists duplicated codes with their candidates; the commit applies the choices (drop, rename), re-checked', async () => {
    const { token } = await staff();
    const id = await insertSubdivision(db());
    const key = ids.encode(id);
    const csv = Buffer.from(
      [
        'manzana,lote,area,precio_m2,etapa',
        'A,1,120,250,1',
        'A,2,130,250,1',
        'A,2,131,250,2',
        'A,3,140,250,1',
        'A,3,141,250,1',
        'A,4,150,250,1',
      ].join('\n'),
    );
    const send = (path: string, resolutions?: unknown) =>
      ctx().app.inject({
        method: 'POST',
        url: `/api/subdivisions/${key}/${path}`,
        ...multipart('lotes.csv', csv, undefined, resolutions === undefined ? undefined : JSON.stringify(resolutions)),
        headers: { ...multipart('lotes.csv', csv).headers, ...bearer(token) },
      });

    const first = importPreviewResponseSchema.parse((await send('imports/preview')).json()).data;
    expect(first.can_import).toBe(false);
    expect(first.duplicates).toEqual([
      {
        code: 'MZ A - LT 2',
        candidates: [
          { position: 2, location: 'fila 3', area_m2: 130, drawn_area_m2: null, stage: 'Etapa 1', land_use: null },
          { position: 3, location: 'fila 4', area_m2: 131, drawn_area_m2: null, stage: 'Etapa 2', land_use: null },
        ],
      },
      {
        code: 'MZ A - LT 3',
        candidates: [
          { position: 4, location: 'fila 5', area_m2: 140, drawn_area_m2: null, stage: 'Etapa 1', land_use: null },
          { position: 5, location: 'fila 6', area_m2: 141, drawn_area_m2: null, stage: 'Etapa 1', land_use: null },
        ],
      },
    ]);
    // Without choices the file is still refused.
    expect((await send('imports')).statusCode).toBe(422);
    // Renaming into a code the file already has is caught by the re-check.
    const clash = [
      { position: 3, code: 'MZ A - LT 2', action: 'DROP' },
      { position: 5, code: 'MZ A - LT 3', action: 'RENAME', number: '4' },
    ];
    const clashed = importPreviewResponseSchema.parse((await send('imports/preview', clash)).json()).data;
    expect(clashed.can_import).toBe(false);
    expect(clashed.issues.filter((i) => i.severity === 'ERROR').map((i) => i.message)).toEqual([
      'Código repetido: MZ A - LT 4 ya aparece en fila 6',
    ]);
    expect(clashed.duplicates).toHaveLength(2); // the file's repeats, as read, so the choices stay visible

    const choices = [
      { position: 3, code: 'MZ A - LT 2', action: 'DROP' },
      { position: 5, code: 'MZ A - LT 3', action: 'RENAME', number: '3A' },
    ];
    const resolved = importPreviewResponseSchema.parse((await send('imports/preview', choices)).json()).data;
    expect(resolved.can_import).toBe(true);
    expect(resolved.summary).toMatchObject({ create: 5, errors: 0 });
    expect(resolved.issues.map((i) => i.message)).toEqual(
      expect.arrayContaining(['Se descartó MZ A - LT 2 de fila 4 (código repetido)', 'Se renombró MZ A - LT 3 de fila 6 a MZ A - LT 3A']),
    );
    const stored = await send('imports', choices);
    expect(stored.statusCode, stored.body).toBe(200);
    expect(importResultResponseSchema.parse(stored.json()).data).toEqual({ created: 5, updated: 0 });
    expect((await lotsOf(id)).map((l) => [l.code, Number(l.area_m2)])).toEqual([
      ['MZ A - LT 1', 120],
      ['MZ A - LT 2', 130],
      ['MZ A - LT 3', 140],
      ['MZ A - LT 3A', 141],
      ['MZ A - LT 4', 150],
    ]);
  });

  it('refuses choices that do not match the file or do not read (422 on resolutions), storing nothing', async () => {
    const { token } = await staff();
    const id = await insertSubdivision(db());
    const key = ids.encode(id);
    const csv = Buffer.from('manzana,lote,area,precio_m2\nA,1,120,250\nA,1,121,250\n');
    const send = (resolutions: string) =>
      ctx().app.inject({
        method: 'POST',
        url: `/api/subdivisions/${key}/imports`,
        ...multipart('lotes.csv', csv, undefined, resolutions),
        headers: { ...multipart('lotes.csv', csv).headers, ...bearer(token) },
      });
    for (const bad of [
      'no es json',
      '{}',
      JSON.stringify([{ position: 0, code: 'x', action: 'DROP' }]),
      JSON.stringify([{ position: 2, code: 'MZ A - LT 1', action: 'RENAME' }]),
      // Over the field's 2 MB: cut by the multipart reader, refused rather than parsed half.
      JSON.stringify(Array.from({ length: 40_000 }, (_, i) => ({ position: (i % 20_000) + 1, code: 'MZ A - LT 1', action: 'DROP' }))),
    ]) {
      const res = await send(bad);
      expect(res.statusCode, bad.slice(0, 80)).toBe(422);
      expect(res.json().errors.resolutions).toEqual([
        'Las elecciones sobre los códigos repetidos no son válidas: vuelva a comprobar el archivo',
      ]);
    }
    const stale = await send(JSON.stringify([{ position: 2, code: 'MZ B - LT 9', action: 'DROP' }]));
    expect(stale.statusCode).toBe(422);
    expect(stale.json().issues).toContainEqual(
      expect.objectContaining({
        severity: 'ERROR',
        message: 'La elección para MZ B - LT 9 no corresponde a este archivo: vuelva a comprobarlo',
      }),
    );
    const twice = await send(
      JSON.stringify([
        { position: 2, code: 'MZ A - LT 1', action: 'DROP' },
        { position: 2, code: 'MZ A - LT 1', action: 'RENAME', number: '1A' },
      ]),
    );
    expect(twice.json().issues).toContainEqual(
      expect.objectContaining({ message: 'Hay dos elecciones para el mismo lote (MZ A - LT 1): elija una' }),
    );
    expect(await lotsOf(id)).toEqual([]);
  });

  it('issue 13 "Done when": the ArcGIS export with spikes, T-junctions, stages, uses and a repeated code imports once the user resolves it; a real overlap still fails', async () => {
    const { token } = await staff();
    const id = await insertSubdivision(db());
    const key = ids.encode(id);
    const file = fixture('arcgis-utm18s-96.geojson');
    const send = (path: string, content: Buffer, resolutions?: unknown) =>
      ctx().app.inject({
        method: 'POST',
        url: `/api/subdivisions/${key}/${path}`,
        ...multipart('arcgis.geojson', content, undefined, resolutions === undefined ? undefined : JSON.stringify(resolutions)),
        headers: { ...multipart('arcgis.geojson', content).headers, ...bearer(token) },
      });
    const first = importPreviewResponseSchema.parse((await send('imports/preview', file)).json()).data;
    // Only the repeated code is an error; the three spikes are warnings; the T-junctions say nothing.
    expect(first.issues.filter((i) => i.severity === 'ERROR').map((i) => i.kind)).toEqual(['DUPLICATE']);
    expect(first.issues.filter((i) => i.kind === 'SPIKE').map((i) => i.lot_code)).toEqual(['MZ A - LT 2', 'MZ B - LT 5', 'MZ D - LT 7']);
    expect(first.duplicates!.map((d) => [d.code, d.candidates.map((c) => c.position)])).toEqual([['MZ C - LT 4', [20, 21]]]);
    expect(first.stages!.map((st) => st.name)).toEqual(['Etapa 1', 'Etapa 2']);
    expect(first.uses!.find((u) => u.use === 'CLUB_HOUSE')).toEqual({ use: 'CLUB_HOUSE', lots: 1 });
    // Without a choice it is refused; the user renames the second C-4 to C-5 (its real number).
    expect((await send('imports', file)).statusCode).toBe(422);
    const choice = [{ position: 21, code: 'MZ C - LT 4', action: 'RENAME', number: '5' }];
    const stored = await send('imports', file, choice);
    expect(stored.statusCode, stored.body).toBe(200);
    expect(importResultResponseSchema.parse(stored.json()).data).toEqual({ created: 96, updated: 0 });
    const rows = await lotsOf(id);
    expect(rows.filter((l) => l.status === 'NO_VENDIBLE').map((l) => [l.code, l.land_use])).toEqual([
      ['MZ B - LT 1', 'CLUB_HOUSE'],
      ['MZ C - LT 2', 'EQUIPAMIENTO'],
      ['MZ D - LT 3', 'RECREACION'],
      ['MZ F - LT 1', 'OTROS_USOS'],
    ]);
    expect(await db().selectFrom('stages').select('name').where('subdivision_id', '=', id).orderBy('position').execute()).toEqual([
      { name: 'Etapa 1' },
      { name: 'Etapa 2' },
    ]);

    // The same file with lot E-2 drawn 1 m into E-3: resolving the repeat is not enough.
    const other = ids.encode(await insertSubdivision(db()));
    const bad = await ctx().app.inject({
      method: 'POST',
      url: `/api/subdivisions/${other}/imports`,
      ...multipart('arcgis.geojson', fixture('bad-arcgis-overlap.geojson'), undefined, JSON.stringify(choice)),
      headers: { ...multipart('arcgis.geojson', fixture('bad-arcgis-overlap.geojson')).headers, ...bearer(token) },
    });
    expect(bad.statusCode).toBe(422);
    const errors = (bad.json().issues as Array<{ severity: string; kind?: string; message: string }>).filter((i) => i.severity === 'ERROR');
    expect(errors).toEqual([
      expect.objectContaining({
        kind: 'OVERLAP',
        message: expect.stringMatching(/^El lote MZ E - LT 3 se superpone con MZ E - LT 2 \(19\.\d\d m² en común\)$/),
      }),
    ]);
  });

  it('refuses a real overlap above 0.05 m², naming the shared area', async () => {
    const { token } = await staff();
    const id = await insertSubdivision(db());
    const preview = importPreviewResponseSchema.parse(
      (await post(`/api/subdivisions/${ids.encode(id)}/imports/preview`, token, 'arcgis.geojson', arcgisExport({ overlap: true }))).json(),
    ).data;
    const errors = preview.issues.filter((i) => i.severity === 'ERROR');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/^El lote MZ B - LT 2 se superpone con MZ B - LT 1 \(20\.0\d m² en común\)$/);
    expect(preview.can_import).toBe(false);
  });

  it("takes the subdivision's own overlap limit (issue 13 item 2): 20 m² in common is a warning under a 25 m² limit", async () => {
    const { token } = await staff();
    const id = await insertSubdivision(db());
    const key = ids.encode(id);
    const patch = (overlap_limit_m2: unknown) =>
      ctx().app.inject({ method: 'PATCH', url: `/api/subdivisions/${key}`, headers: bearer(token), payload: { overlap_limit_m2 } });
    const tooMuch = await patch(11);
    expect(tooMuch.statusCode).toBe(422);
    expect(tooMuch.json().errors.overlap_limit_m2).toEqual(['El área admitida es de hasta 10 m²']);
    expect((await patch(-1)).json().errors.overlap_limit_m2).toEqual(['El área no puede ser negativa']);
    expect((await patch('mucho')).json().errors.overlap_limit_m2).toEqual(['Ingrese el área en m²']);
    // The limit is an area in m²; 10 m² is the most, so this file's 20 m² stays an error…
    expect((await patch(10)).json().data.overlap_limit_m2).toBe(10);
    const refused = importPreviewResponseSchema.parse(
      (await post(`/api/subdivisions/${key}/imports/preview`, token, 'arcgis.geojson', arcgisExport({ overlap: true }))).json(),
    ).data;
    expect(refused.can_import).toBe(false);
    // …while in a lot drawn 0.01 m into its neighbour (0.2 m² in common) it decides: an error at 0.05, a warning at 0.5.
    const sliver = (() => {
      const json = JSON.parse(arcgisExport().toString()) as {
        features: Array<{ properties: Record<string, unknown>; geometry: { coordinates: number[][][] } }>;
      };
      const b1 = json.features.find((f) => f.properties.MZ === 'B' && f.properties.LT === '1')!;
      b1.geometry.coordinates[0] = b1.geometry.coordinates[0]!.map(([x, y]) => [x! > 280_005 ? x! + 0.01 : x!, y!]);
      return Buffer.from(JSON.stringify(json));
    })();
    expect((await patch(0.05)).statusCode).toBe(200);
    const strict = importPreviewResponseSchema.parse(
      (await post(`/api/subdivisions/${key}/imports/preview`, token, 'sliver.geojson', sliver)).json(),
    ).data;
    expect(strict.issues.filter((i) => i.severity === 'ERROR').map((i) => i.message)).toEqual([
      expect.stringMatching(/^El lote MZ B - LT 2 se superpone con MZ B - LT 1 \(0\.2\d m² en común\)$/),
    ]);
    expect((await patch(0.5)).statusCode).toBe(200);
    const lenient = importPreviewResponseSchema.parse(
      (await post(`/api/subdivisions/${key}/imports/preview`, token, 'sliver.geojson', sliver)).json(),
    ).data;
    expect(lenient.can_import).toBe(true);
    expect(lenient.issues).toContainEqual(
      expect.objectContaining({
        severity: 'WARNING',
        kind: 'SLIVER',
        message: expect.stringMatching(/comparte 0\.2\d m² con MZ B - LT 1 \(hasta 0\.50 m²: se acepta\)$/),
      }),
    );
  });

  it('refuses a CRS it cannot convert, instead of reading it as plan metres', async () => {
    const { token } = await staff();
    const id = await insertSubdivision(db());
    const body = JSON.parse(arcgisExport().toString()) as Record<string, unknown>;
    body.crs = { type: 'name', properties: { name: 'EPSG:3857' } };
    const preview = importPreviewResponseSchema.parse(
      (await post(`/api/subdivisions/${ids.encode(id)}/imports/preview`, token, 'x.geojson', Buffer.from(JSON.stringify(body)))).json(),
    ).data;
    expect(preview.issues).toEqual([
      expect.objectContaining({ severity: 'ERROR', location: 'archivo', message: expect.stringContaining('EPSG:3857 no está admitido') }),
    ]);
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
    const anonymous = await ctx().app.inject({
      method: 'POST',
      url: `/api/subdivisions/${ids.encode(id)}/imports/preview`,
      ...multipart('a.dxf', file),
    });
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
    const huge = await post(
      `/api/subdivisions/${ids.encode(id)}/imports/preview`,
      token,
      'enorme.csv',
      Buffer.alloc(IMPORT_MAX_BYTES + 10, 0x41),
    );
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
