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
import { bearer, httpPact, mockClient } from './pact-helpers';
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
            lots: eachLike({
              block: like('A'),
              number: like('1'),
              code: like('MZ A - LT 1'),
              area_m2: number(150.5),
              drawn_area_m2: null,
              perimeter_m: null,
              price_per_m2: integer(25000),
              has_polygon: boolean(false),
              action: regex(/^(CREATE|UPDATE)$/, 'UPDATE'),
              stage: like('Etapa 1'),
              land_use: regex(LAND_USE, 'VIVIENDA'),
            }),
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
});
