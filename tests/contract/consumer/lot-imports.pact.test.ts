/**
 * Consumer contract of the lot import (issue "Proyectos" → Import): POST
 * /api/subdivisions/{key}/imports/preview and POST /api/subdivisions/{key}/imports, multipart part
 * `file` (a table of block A's 16 lots in stage 1, two of which — — exist in
 * PROJECT_STATES.subdivisionWithLots, so the preview has both actions).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { createLotImportsApi } from '../../../src/api/proyectos/lot-imports';
import { LAND_USES } from '../../../src/schemas/proyectos/projects';
import { bearer, httpPact, mockClient, withTextBody } from './pact-helpers';
import { PROJECT_STATES, SUBDIVISION_KEY } from '../projects-states';
import { STAFF_TOKEN } from '../states';

const { like, eachLike, integer, boolean, regex, number } = MatchersV3;

const pact = httpPact();
const client = (url: string) => mockClient(url, STAFF_TOKEN);
const LAND_USE = new RegExp(`^(${LAND_USES.join('|')})$`);
// Pact's mock server compares a part's declared type (from the file name) with the type it sniffs
// from the bytes, and it reads DXF bytes as image/vnd.dxf but .dxf names as application/x-dxf: a
// DXF part can never match. The contract therefore pins the multipart shape with the CSV of the
// same block (fixtures/lotizacion-16.dxf's lots A-1…A-16 with prices); the DXF path is covered by
// tests/server/modules/proyectos/lot-import/.test.ts.
const CSV = [
  'manzana,lote,area,precio_m2,etapa,uso',
  // Lot A-16 is the block's park (issue 13 item 4: a use not for sale).
  ...Array.from({ length: 16 }, (_, i) => `A,${i + 1},${(150.5 + i).toFixed(2)},250.00,1,${i === 15 ? 'Parque' : 'Vivienda'}`),
].join('\n');
const CSV_PATH = path.join(mkdtempSync(path.join(tmpdir(), 'parcela-pact-')), 'lotes.txt');
writeFileSync(CSV_PATH, CSV + '\n');
const csvFile = () => new File([readFileSync(CSV_PATH)], 'lotes.txt', { type: 'text/plain' });
/** Fixed multipart boundary, so the regenerated pact is byte-identical run after run (drift check). */
const PACT_BOUNDARY = 'parcelaPactBoundary';

/** A table that repeats lot A-20 (issue 13 item 5): two candidates of the same code. */
const DUPLICATED_CSV = 'manzana,lote,area,precio_m2\nA,20,150.50,250.00\nA,20,151.00,250.00\nA,21,152.00,250.00\n';
const DUPLICATED_PATH = path.join(mkdtempSync(path.join(tmpdir(), 'parcela-pact-')), 'repetidos.txt');
writeFileSync(DUPLICATED_PATH, DUPLICATED_CSV);
const duplicatedFile = () => new File([DUPLICATED_CSV], 'repetidos.txt', { type: 'text/plain' });
/** The user's choice on it: the second A-20 becomes A-20A. */
const RESOLUTIONS = [{ position: 2, code: 'MZ A - LT 20', action: 'RENAME' as const, number: '20A' }];
/**
 * The multipart body with the `resolutions` text field and the `file` part, as the app sends it.
 * Pact's multipartBody builder takes one file part only, so this body is written out, and the
 * Content-Type header matched by type (any boundary), as multipartBody does.
 */
const resolvedBody =
  `--${PACT_BOUNDARY}\r\nContent-Disposition: form-data; name="resolutions"\r\n\r\n${JSON.stringify(RESOLUTIONS)}\r\n` +
  `--${PACT_BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="repetidos.txt"\r\nContent-Type: text/plain\r\n\r\n` +
  `${DUPLICATED_CSV}\r\n--${PACT_BOUNDARY}--\r\n`;
/**
 * A table whose `uso` column names a reserved zone and a well as engineers write them (docs/import.md
 * "Land use"): "Zona reservada" has no use yet, "Pozo" is a synonym of Otros usos, "Vivienda" a use's own name.
 */
const USES_CSV =
  'manzana,lote,area,precio_m2,uso\nA,30,150.50,250.00,Zona reservada\nA,31,151.00,250.00,Pozo\nA,32,152.00,250.00,Vivienda\n';
const USES_PATH = path.join(mkdtempSync(path.join(tmpdir(), 'parcela-pact-')), 'usos.txt');
writeFileSync(USES_PATH, USES_CSV);
const usesFile = () => new File([USES_CSV], 'usos.txt', { type: 'text/plain' });
/** The user's use for the reserved zone, sent as the multipart text field `land_uses`. */
const LAND_USE_CHOICES = [{ label: 'Zona reservada', use: 'OTROS_USOS' as const }];
const mappedBody =
  `--${PACT_BOUNDARY}\r\nContent-Disposition: form-data; name="land_uses"\r\n\r\n${JSON.stringify(LAND_USE_CHOICES)}\r\n` +
  `--${PACT_BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="usos.txt"\r\nContent-Type: text/plain\r\n\r\n` +
  `${USES_CSV}\r\n--${PACT_BOUNDARY}--\r\n`;
/** A preview row of a table's lot of block A (no polygon; 250.00 per m²), as the pacts promise it. */
const tableLot = (lotNumber: string, action: 'CREATE' | 'UPDATE') => ({
  block: like('A'),
  number: like(lotNumber),
  code: like(`MZ A - LT ${lotNumber}`),
  area_m2: number(150.5),
  drawn_area_m2: null,
  perimeter_m: null,
  price_per_m2: integer(25000),
  has_polygon: boolean(false),
  action: regex(/^(CREATE|UPDATE)$/, action),
});
const MULTIPART = regex(/^multipart\/form-data;\s*boundary=.+$/, `multipart/form-data; boundary=${PACT_BOUNDARY}`);

describe('lot imports (consumer)', () => {
  it('previews a lots table: lots to create and update, no issues', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request to preview the import of a table of lots')
      .withRequest('POST', `/api/subdivisions/${SUBDIVISION_KEY}/imports/preview`, (b) =>
        b.headers(bearer(STAFF_TOKEN)).multipartBody('text/plain', CSV_PATH, 'file', PACT_BOUNDARY),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            format: 'CSV',
            layers: null,
            layer: null,
            lots: eachLike({ ...tableLot('1', 'UPDATE'), stage: like('Etapa 1'), land_use: regex(LAND_USE, 'VIVIENDA') }),
            issues: [],
            summary: { create: integer(14), update: integer(2), errors: 0, warnings: 0 },
            can_import: true,
            // The stages the file names (issue 13 item 3): column `etapa` "1" → "Etapa 1".
            stages: eachLike({ name: like('Etapa 1'), lots: integer(16), action: regex(/^(CREATE|EXISTING)$/, 'CREATE') }),
            // Lots per land use (issue 13 item 4): column `uso` "Vivienda" / "Parque".
            uses: [
              { use: 'VIVIENDA', lots: integer(15) },
              { use: 'RECREACION', lots: integer(1) },
            ],
          },
        }),
      )
      .executeTest(async (mock) => {
        const preview = await createLotImportsApi(client(mock.url)).preview(SUBDIVISION_KEY, csvFile());
        expect(preview.can_import).toBe(true);
        expect(preview.format).toBe('CSV');
        expect(preview.lots[0]!.code).toMatch(/^MZ A - LT \d+$/);
        expect(preview.stages?.[0]?.name).toBe('Etapa 1');
        expect(preview.uses).toEqual([
          { use: 'VIVIENDA', lots: 15 },
          { use: 'RECREACION', lots: 1 },
        ]);
      });
  });

  it('imports a table of lots (all or nothing)', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request to import a table of lots')
      .withRequest('POST', `/api/subdivisions/${SUBDIVISION_KEY}/imports`, (b) =>
        b.headers(bearer(STAFF_TOKEN)).multipartBody('text/plain', CSV_PATH, 'file', PACT_BOUNDARY),
      )
      .willRespondWith(200, (b) => b.jsonBody({ data: { created: integer(14), updated: integer(2) } }))
      .executeTest(async (mock) => {
        const result = await createLotImportsApi(client(mock.url)).commit(SUBDIVISION_KEY, csvFile());
        expect(result.created + result.updated).toBe(16);
      });
  });

  it('previews a table with a repeated code: its candidates side by side, refused until resolved', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request to preview a table with a repeated lot code')
      .withRequest('POST', `/api/subdivisions/${SUBDIVISION_KEY}/imports/preview`, (b) =>
        b.headers(bearer(STAFF_TOKEN)).multipartBody('text/plain', DUPLICATED_PATH, 'file', PACT_BOUNDARY),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            format: 'CSV',
            layers: null,
            layer: null,
            lots: eachLike(tableLot('20', 'CREATE')),
            issues: eachLike({
              severity: regex(/^(ERROR|WARNING)$/, 'ERROR'),
              location: like('fila 3'),
              lot_code: like('MZ A - LT 20'),
              field: null,
              message: like('Código repetido: MZ A - LT 20 ya aparece en fila 2'),
            }),
            summary: { create: integer(3), update: integer(0), errors: integer(1), warnings: integer(0) },
            can_import: false,
            duplicates: [
              {
                code: 'MZ A - LT 20',
                candidates: [
                  { position: 1, location: like('fila 2'), area_m2: number(150.5), drawn_area_m2: null },
                  { position: 2, location: like('fila 3'), area_m2: number(151), drawn_area_m2: null },
                ],
              },
            ],
          },
        }),
      )
      .executeTest(async (mock) => {
        const preview = await createLotImportsApi(client(mock.url)).preview(SUBDIVISION_KEY, duplicatedFile());
        expect(preview.can_import).toBe(false);
        expect(preview.duplicates?.[0]?.candidates.map((c) => c.position)).toEqual([1, 2]);
      });
  });

  it('imports the table with the choice on the repeated code (field `resolutions`)', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request to import a table with a choice on its repeated code')
      .withRequest('POST', `/api/subdivisions/${SUBDIVISION_KEY}/imports`, (b) =>
        withTextBody(
          b.headers({ ...bearer(STAFF_TOKEN), 'Content-Type': MULTIPART }),
          `multipart/form-data; boundary=${PACT_BOUNDARY}`,
          resolvedBody,
        ),
      )
      .willRespondWith(200, (b) => b.jsonBody({ data: { created: 3, updated: 0 } }))
      .executeTest(async (mock) => {
        const result = await createLotImportsApi(client(mock.url)).commit(
          SUBDIVISION_KEY,
          duplicatedFile(),
          null,
          {},
          { resolutions: RESOLUTIONS },
        );
        expect(result).toEqual({ created: 3, updated: 0 });
      });
  });
  it("previews a table with land-use values in the engineers' words: each listed with its lots, the unknown one without a use", async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request to preview a table of lots with land uses the importer does not know')
      .withRequest('POST', `/api/subdivisions/${SUBDIVISION_KEY}/imports/preview`, (b) =>
        b.headers(bearer(STAFF_TOKEN)).multipartBody('text/plain', USES_PATH, 'file', PACT_BOUNDARY),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            format: 'CSV',
            layers: null,
            layer: null,
            lots: eachLike(tableLot('30', 'CREATE')),
            issues: [],
            summary: { create: integer(3), update: integer(0), errors: 0, warnings: 0 },
            // Not refused for a label: the user chooses the reserved zone's use before importing.
            can_import: true,
            use_values: [
              { label: 'Zona reservada', lots: integer(1), use: null, source: 'UNMAPPED' },
              { label: 'Pozo', lots: integer(1), use: 'OTROS_USOS', source: 'SYNONYM' },
            ],
            use_values_more: 0,
            use_values_unmapped: 1,
          },
        }),
      )
      .executeTest(async (mock) => {
        const preview = await createLotImportsApi(client(mock.url)).preview(SUBDIVISION_KEY, usesFile());
        expect(preview.can_import).toBe(true);
        expect(preview.use_values?.map((v) => [v.label, v.use])).toEqual([
          ['Zona reservada', null],
          ['Pozo', 'OTROS_USOS'],
        ]);
        expect(preview.use_values_unmapped).toBe(1);
      });
  });

  it('refuses to import the table while a land-use value has no use (422 naming it)', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request to import a table of lots with a land use nobody chose')
      .withRequest('POST', `/api/subdivisions/${SUBDIVISION_KEY}/imports`, (b) =>
        b.headers(bearer(STAFF_TOKEN)).multipartBody('text/plain', USES_PATH, 'file', PACT_BOUNDARY),
      )
      .willRespondWith(422, (b) =>
        b.jsonBody({
          message: 'Falta elegir el uso de "Zona reservada" (1 lote); no se importó ningún lote',
          errors: { land_uses: ['Elija el uso de "Zona reservada" (1 lote): no es un uso conocido'] },
          issues: eachLike({
            severity: 'ERROR',
            location: like('archivo'),
            lot_code: null,
            field: 'land_uses',
            message: like('Elija el uso de "Zona reservada" (1 lote): no es un uso conocido'),
          }),
        }),
      )
      .executeTest(async (mock) => {
        const refused = await createLotImportsApi(client(mock.url))
          .commit(SUBDIVISION_KEY, usesFile())
          .catch((e: unknown) => e);
        expect(refused).toMatchObject({ status: 422, message: expect.stringContaining('"Zona reservada"') });
      });
  });

  it('imports the table with the use chosen for each land-use value (field `land_uses`)', async () => {
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request to import a table of lots with the uses chosen for its land-use values')
      .withRequest('POST', `/api/subdivisions/${SUBDIVISION_KEY}/imports`, (b) =>
        withTextBody(
          b.headers({ ...bearer(STAFF_TOKEN), 'Content-Type': MULTIPART }),
          `multipart/form-data; boundary=${PACT_BOUNDARY}`,
          mappedBody,
        ),
      )
      .willRespondWith(200, (b) => b.jsonBody({ data: { created: 3, updated: 0 } }))
      .executeTest(async (mock) => {
        const result = await createLotImportsApi(client(mock.url)).commit(
          SUBDIVISION_KEY,
          usesFile(),
          null,
          {},
          {
            landUses: LAND_USE_CHOICES,
          },
        );
        expect(result).toEqual({ created: 3, updated: 0 });
      });
  });
});
