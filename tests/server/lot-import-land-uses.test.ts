import { describe, expect, it } from 'vitest';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { importPreviewResponseSchema, type ImportUseChoice } from '../../src/schemas/proyectos/projects';
import { createOpaqueIds } from '../../server/ids';
import { createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { testConfig } from '../../server/config';
import { bearer, dialects, useTestApp, useTestDatabase, multipartBody } from './harness';

/**
 * Land uses in the engineers' own words (docs/import.md "Land use"): a real ArcGIS export names
 * services and reserved areas the importer has no use for. The preview lists every value that is
 * not a use's own name with its lot count (synonyms mapped already), the file is never refused for a
 * label, the commit carries the user's `land_uses` and refuses (Spanish 422 naming the value) while
 * one has no use, and the choice is remembered for the subdivision's next files.
 */

/** Block A: the services plot row of a plan; block B: equipment, commerce and housing; C: housing. */
const USES: Record<string, string> = {
  'A-1': 'POZO',
  'A-2': 'Cisterna',
  'A-3': 'PLANTA DE TRATAMIENTO',
  'A-4': 'ZONA RESERVADA',
  'A-5': 'Zona Reservada ',
  'A-6': 'STRIP MALL',
  'B-1': 'EDUCACIÓN',
  'B-2': 'Comercio Zonal',
};
const CODES = ['A', 'B', 'C'].flatMap((block) => Array.from({ length: 6 }, (_, i) => `${block}-${i + 1}`));
const useOf = (code: string) => USES[code] ?? 'VIVIENDA';

/**
 * A GeoJSON as ArcGIS exports a Peruvian plan: UTM 18S metres named by `crs`, properties
 * OBJECTID / MZ / LT / USO / Shape_Area / Shape_Length, 10 × 20 m lots in rows of six.
 */
function arcgisGeoJson(): Buffer {
  const [x0, y0] = [281_000, 8_681_000];
  const features = CODES.map((code, n) => {
    const [block, lot] = code.split('-') as [string, string];
    const x = x0 + (Number(lot) - 1) * 10;
    const y = y0 + (block.charCodeAt(0) - 65) * 30;
    const ring = [
      [x, y],
      [x + 10, y],
      [x + 10, y + 20],
      [x, y + 20],
      [x, y],
    ];
    return {
      type: 'Feature',
      properties: { OBJECTID: n + 1, MZ: block, LT: lot, USO: useOf(code), Shape_Area: 200, Shape_Length: 60 },
      geometry: { type: 'Polygon', coordinates: [ring] },
    };
  });
  return Buffer.from(
    JSON.stringify({ type: 'FeatureCollection', crs: { type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::32718' } }, features }),
  );
}

/** The same plan's attribute table saved as CSV, with prices and the uses spelled as another engineer writes them. */
function attributeTable(uses: Record<string, string> = {}): Buffer {
  const rows = CODES.map((code) => {
    const [block, lot] = code.split('-');
    return `${block};${lot};200,00;250,00;${uses[code] ?? useOf(code)}`;
  });
  return Buffer.from(['MZ;LT;AREA;PRECIO_M2;USO', ...rows].join('\r\n'));
}

/** A multipart body with the `file` part and any text fields before it. */
function multipart(filename: string, content: Buffer, fields: Record<string, string> = {}) {
  return multipartBody({ filename, content }, fields);
}

describe.each(dialects)('lot import: land uses in the engineers’ words (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);
  const ids = createOpaqueIds(testConfig().idAlphabet);

  async function setup() {
    const user = await createStaff(db(), { permissions: [MODULE.proyectos, SUBMODULE.lotizaciones], clock: ctx().clock });
    const token = await createSession(db(), user);
    const subdivision = await createSubdivision(db(), { ids });
    const send = (tail: string, filename: string, content: Buffer, landUses?: ImportUseChoice[] | string) => {
      const body = multipart(
        filename,
        content,
        landUses === undefined ? {} : { land_uses: typeof landUses === 'string' ? landUses : JSON.stringify(landUses) },
      );
      return ctx().app.inject({
        method: 'POST',
        url: `/api/subdivisions/${subdivision.key}/${tail}`,
        payload: body.payload,
        headers: { ...body.headers, ...bearer(token) },
      });
    };
    const preview = async (filename: string, content: Buffer, landUses?: ImportUseChoice[]) => {
      const res = await send('imports/preview', filename, content, landUses);
      expect(res.statusCode, res.body).toBe(200);
      return importPreviewResponseSchema.parse(res.json()).data;
    };
    return { user, subdivision, send, preview };
  }

  const lotsOf = (subdivisionId: number) =>
    db().selectFrom('lots').select(['code', 'land_use', 'status']).where('subdivision_id', '=', subdivisionId).orderBy('code').execute();
  const remembered = (subdivisionId: number) =>
    db()
      .selectFrom('lot_import_land_uses')
      .select(['label', 'land_use'])
      .where('subdivision_id', '=', subdivisionId)
      .orderBy('label')
      .execute();
  /** The change history of remembered uses after row `since` (the database is shared by the file's tests). */
  const history = (since: number) =>
    db()
      .selectFrom('change_history')
      .select(['action', 'before', 'after', 'actor_id'])
      .where('entity', '=', 'lot_import_land_uses')
      .where('id', '>', since)
      .orderBy('id')
      .execute();
  const lastHistoryId = async () =>
    (
      await db()
        .selectFrom('change_history')
        .select((eb) => eb.fn.max('id').as('id'))
        .executeTakeFirst()
    )?.id ?? 0;

  it('previews a real ArcGIS export: unknown values listed with their counts, synonyms mapped already, nothing refused or stored', async () => {
    const { subdivision, preview } = await setup();
    const data = await preview('lotes.geojson', arcgisGeoJson());
    expect(data.issues.filter((i) => i.severity === 'ERROR')).toEqual([]);
    expect(data.can_import).toBe(true);
    expect(data.use_values).toEqual([
      { label: 'ZONA RESERVADA', lots: 2, use: null, source: 'UNMAPPED' },
      { label: 'Cisterna', lots: 1, use: 'OTROS_USOS', source: 'SYNONYM' },
      { label: 'Comercio Zonal', lots: 1, use: 'COMERCIO', source: 'SYNONYM' },
      { label: 'EDUCACIÓN', lots: 1, use: 'EQUIPAMIENTO', source: 'SYNONYM' },
      { label: 'PLANTA DE TRATAMIENTO', lots: 1, use: 'OTROS_USOS', source: 'SYNONYM' },
      { label: 'POZO', lots: 1, use: 'OTROS_USOS', source: 'SYNONYM' },
      { label: 'STRIP MALL', lots: 1, use: 'COMERCIO', source: 'SYNONYM' },
    ]);
    expect(data).toMatchObject({ use_values_more: 0, use_values_unmapped: 1 });
    // "VIVIENDA" is a use's own name: counted, not listed. The reserved zone's lots have no use yet.
    expect(data.uses).toEqual([
      { use: 'VIVIENDA', lots: 10 },
      { use: 'COMERCIO', lots: 2 },
      { use: 'EQUIPAMIENTO', lots: 1 },
      { use: 'OTROS_USOS', lots: 3 },
    ]);
    expect(data.lots.find((l) => l.code === 'MZ A - LT 4')).toMatchObject({ land_use: null });
    expect(await lotsOf(subdivision.id)).toEqual([]);
    expect(await remembered(subdivision.id)).toEqual([]);
  });

  it('refuses to commit while a value has no use (Spanish 422 naming it), imports everything with the mapping and remembers it', async () => {
    const { user, subdivision, send } = await setup();
    const since = Number(await lastHistoryId());
    const refused = await send('imports', 'lotes.geojson', arcgisGeoJson());
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      message: 'Falta elegir el uso de "ZONA RESERVADA" (2 lotes); no se importó ningún lote',
      errors: { land_uses: ['Elija el uso de "ZONA RESERVADA" (2 lotes): no es un uso conocido'] },
      issues: expect.arrayContaining([expect.objectContaining({ severity: 'ERROR', field: 'land_uses', kind: 'USE' })]),
    });
    expect(await lotsOf(subdivision.id)).toEqual([]);

    // The label as the user saw it, in any spelling: accents, case and spaces do not matter.
    const done = await send('imports', 'lotes.geojson', arcgisGeoJson(), [{ label: ' zona reservada', use: 'OTROS_USOS' }]);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json()).toEqual({ data: { created: 18, updated: 0 } });
    const lots = new Map((await lotsOf(subdivision.id)).map((l) => [l.code, [l.land_use, l.status]]));
    expect(
      [
        'MZ A - LT 1',
        'MZ A - LT 2',
        'MZ A - LT 3',
        'MZ A - LT 4',
        'MZ A - LT 5',
        'MZ A - LT 6',
        'MZ B - LT 1',
        'MZ B - LT 2',
        'MZ C - LT 1',
      ].map((c) => lots.get(c)),
    ).toEqual([
      ['OTROS_USOS', 'NO_VENDIBLE'],
      ['OTROS_USOS', 'NO_VENDIBLE'],
      ['OTROS_USOS', 'NO_VENDIBLE'],
      ['OTROS_USOS', 'NO_VENDIBLE'],
      ['OTROS_USOS', 'NO_VENDIBLE'],
      ['COMERCIO', 'DISPONIBLE'],
      ['EQUIPAMIENTO', 'NO_VENDIBLE'],
      ['COMERCIO', 'DISPONIBLE'],
      ['VIVIENDA', 'DISPONIBLE'],
    ]);
    expect(await remembered(subdivision.id)).toEqual([{ label: 'ZONA RESERVADA', land_use: 'OTROS_USOS' }]);
    const rows = await history(since);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ action: 'CREATE', actor_id: user.id, before: null });
    expect(JSON.parse(String(rows[0]!.after))).toMatchObject({
      subdivision_id: subdivision.id,
      label: 'ZONA RESERVADA',
      land_use: 'OTROS_USOS',
    });
  });

  it("applies the remembered use to the subdivision's next file (shown as remembered, editable); a changed choice is remembered, a choice back to the synonym forgotten", async () => {
    const { subdivision, send, preview } = await setup();
    const since = Number(await lastHistoryId());
    expect((await send('imports', 'lotes.geojson', arcgisGeoJson(), [{ label: 'ZONA RESERVADA', use: 'OTROS_USOS' }])).statusCode).toBe(
      200,
    );

    // Another engineer's CSV of the same plan: "zona reservada" in lower case is the same value.
    const table = attributeTable({ 'A-4': 'zona reservada', 'A-5': 'Zona reservada' });
    const second = await preview('atributos.csv', table);
    expect(second.use_values?.[0]).toEqual({ label: 'zona reservada', lots: 2, use: 'OTROS_USOS', source: 'REMEMBERED' });
    expect(second.use_values_unmapped).toBe(0);
    expect((await send('imports', 'atributos.csv', table)).json()).toEqual({ data: { created: 0, updated: 18 } });

    // Editable: the reserved zone becomes a park, and the well is not a service but a park too.
    const edits: ImportUseChoice[] = [
      { label: 'zona reservada', use: 'RECREACION' },
      { label: 'Pozo', use: 'RECREACION' },
    ];
    const edited = await preview('atributos.csv', table, edits);
    expect(edited.use_values).toEqual(
      expect.arrayContaining([
        { label: 'zona reservada', lots: 2, use: 'RECREACION', source: 'CHOSEN' },
        { label: 'POZO', lots: 1, use: 'RECREACION', source: 'CHOSEN' },
      ]),
    );
    expect((await send('imports', 'atributos.csv', table, edits)).statusCode).toBe(200);
    expect(await remembered(subdivision.id)).toEqual([
      { label: 'POZO', land_use: 'RECREACION' },
      { label: 'ZONA RESERVADA', land_use: 'RECREACION' },
    ]);
    expect((await lotsOf(subdivision.id)).find((l) => l.code === 'MZ A - LT 4')).toEqual({
      code: 'MZ A - LT 4',
      land_use: 'RECREACION',
      status: 'NO_VENDIBLE',
    });

    // The well chosen back to what the synonyms say: nothing left to remember.
    expect((await send('imports', 'atributos.csv', table, [{ label: 'POZO', use: 'OTROS_USOS' }])).statusCode).toBe(200);
    expect(await remembered(subdivision.id)).toEqual([{ label: 'ZONA RESERVADA', land_use: 'RECREACION' }]);
    expect((await history(since)).map((r) => r.action)).toEqual(['CREATE', 'UPDATE', 'CREATE', 'DELETE']);

    // Remembered per subdivision: another one still asks.
    const other = await createSubdivision(db(), { ids });
    const user = await createStaff(db(), { permissions: [MODULE.proyectos, SUBMODULE.lotizaciones], clock: ctx().clock });
    const res = await ctx().app.inject({
      method: 'POST',
      url: `/api/subdivisions/${other.key}/imports/preview`,
      ...multipart('lotes.geojson', arcgisGeoJson()),
      headers: { ...multipart('lotes.geojson', arcgisGeoJson()).headers, ...bearer(await createSession(db(), user)) },
    });
    expect(importPreviewResponseSchema.parse(res.json()).data.use_values?.[0]).toMatchObject({ label: 'ZONA RESERVADA', use: null });
  });

  it('refuses a bad `land_uses` field with a Spanish 422 on it, never a 500', async () => {
    const { send } = await setup();
    const bad = 'Los usos elegidos para los valores del archivo no son válidos: vuelva a comprobar el archivo';
    for (const field of [
      'no es json',
      JSON.stringify({ label: 'Zona reservada', use: 'OTROS_USOS' }),
      JSON.stringify([{ label: 'Zona reservada', use: 'CEMENTERIO' }]),
      JSON.stringify([{ label: 'Zona reservada', use: 'OTROS_USOS', extra: true }]),
      JSON.stringify([{ label: '', use: 'OTROS_USOS' }]),
      JSON.stringify([{ label: '---', use: 'OTROS_USOS' }]),
      JSON.stringify([{ label: 'x'.repeat(81), use: 'OTROS_USOS' }]),
      JSON.stringify(Array.from({ length: 2001 }, (_, i) => ({ label: `Uso ${i}`, use: 'VIVIENDA' }))),
    ]) {
      for (const tail of ['imports/preview', 'imports']) {
        const res = await send(tail, 'lotes.geojson', arcgisGeoJson(), field);
        expect(res.statusCode, field.slice(0, 60)).toBe(422);
        expect(res.json()).toEqual({ message: bad, errors: { land_uses: [bad] } });
      }
    }
    const twice = await send('imports', 'lotes.geojson', arcgisGeoJson(), [
      { label: 'ZONA RESERVADA', use: 'OTROS_USOS' },
      { label: 'zona reservada', use: 'VIVIENDA' },
    ]);
    expect(twice.statusCode).toBe(422);
    expect(twice.json().errors).toEqual({ land_uses: ['El valor "zona reservada" tiene dos usos elegidos: deje uno'] });
  });
});
