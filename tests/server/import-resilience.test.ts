import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { importPreviewResponseSchema } from '../../src/schemas/proyectos/projects';
// @ts-expect-error -- plain ESM script without types (scripts/generate-plan-fixtures.mjs)
import { buildPlan, planToDxf } from '../../scripts/generate-plan-fixtures.mjs';
import { createOpaqueIds } from '../../server/ids';
import { CHECK_MESSAGES, ImportCheckPool } from '../../server/modules/proyectos/lot-import/check-pool';
import { MAX_IMPORT_LOTS, MAX_ISSUES_PER_KIND } from '../../server/modules/proyectos/lot-import';
import { createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { testConfig } from '../../server/config';
import { bearer, buildTestApp, dialects, useTestApp, useTestDatabase, multipartBody } from './harness';
import { lotWorkbook } from './xlsx-builder';

/**
 * Issue 11 item 1: the lot-import preview must not take the server down. Bounded issue lists,
 * the parse + check on a worker thread with a time budget, /api/health answering meanwhile.
 */

/** A multipart body with the `file` part. */
function multipart(filename: string, content: Buffer) {
  return multipartBody({ filename, content });
}

/** A GeoJSON of `n` 10 × 10 m plan squares, labelled A0-1 …; all in the same place when `identical`. */
function squares(n: number, identical: boolean): Buffer {
  const features = Array.from({ length: n }, (_, i) => {
    // Plan (UTM-like) metres: at the origin a 10 × 10 square would read as 10° × 10° of lon/lat.
    const x = 500_000 + (identical ? 0 : (i % 100) * 10);
    const y = 8_600_000 + (identical ? 0 : Math.floor(i / 100) * 10);
    return {
      type: 'Feature',
      properties: { manzana: `A${Math.floor(i / 500)}`, lote: String((i % 500) + 1) },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [x, y],
            [x + 10, y],
            [x + 10, y + 10],
            [x, y + 10],
            [x, y],
          ],
        ],
      },
    };
  });
  return Buffer.from(JSON.stringify({ type: 'FeatureCollection', features }));
}

const ids = createOpaqueIds(testConfig().idAlphabet);

describe.each(dialects)('import preview resilience (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  async function token(): Promise<string> {
    const user = await createStaff(db(), { permissions: [MODULE.proyectos, SUBMODULE.lotizaciones], clock: ctx().clock });
    return createSession(db(), user);
  }
  const preview = (key: string, auth: string, filename: string, content: Buffer, app = ctx().app) => {
    const body = multipart(filename, content);
    return app.inject({
      method: 'POST',
      url: `/api/subdivisions/${key}/imports/preview`,
      payload: body.payload,
      headers: { ...body.headers, ...bearer(auth) },
    });
  };

  it('4 000 identical squares: a bounded list of overlaps ("más de 100") instead of a frozen server', async () => {
    const key = (await createSubdivision(db(), { total_area_m2: 50000, ids })).key;
    const started = Date.now();
    const res = await preview(key, await token(), 'cuadrados.geojson', squares(4000, true));
    expect(res.statusCode, res.body).toBe(200);
    expect(Date.now() - started).toBeLessThan(10_000);
    const data = importPreviewResponseSchema.parse(res.json()).data;
    const overlaps = data.issues.filter((i) => i.message.includes('se superpone'));
    expect(overlaps).toHaveLength(MAX_ISSUES_PER_KIND);
    expect(data.issues.map((i) => i.message)).toContain(
      `Hay más de ${MAX_ISSUES_PER_KIND} superposiciones; se dejó de buscar: corrija estas y vuelva a comprobar el archivo`,
    );
    expect(data.can_import).toBe(false);
  });

  it('a CSV with an error on each of 3 000 rows: 100 of that kind, then "y 2 900 errores más"', async () => {
    const key = (await createSubdivision(db(), { total_area_m2: 50000, ids })).key;
    const rows = Array.from({ length: 3000 }, (_, i) => `A,${i + 1},abc,10`);
    const res = await preview(key, await token(), 'malo.csv', Buffer.from(['manzana,lote,area,precio_m2', ...rows].join('\n')));
    expect(res.statusCode, res.body).toBe(200);
    const { issues } = importPreviewResponseSchema.parse(res.json()).data;
    const areaErrors = issues.filter((i) => i.severity === 'ERROR' && i.field === 'area_m2');
    expect(areaErrors).toHaveLength(MAX_ISSUES_PER_KIND + 1);
    expect(areaErrors.at(-1)).toMatchObject({
      location: 'archivo',
      message: `y ${(2900).toLocaleString('es-PE')} errores más de este tipo`,
    });
  });

  // Read only up to the limit: a file 15 times as long as the limit costs about what a file one row
  // over it does, a ratio measured in the same run (an absolute bound failed on a loaded machine).
  it('an XLSX of 300 000 rows is read only up to the 20 000-lot limit: one ERROR, no lots previewed, about as fast as 20 001 rows', async () => {
    const key = (await createSubdivision(db(), { total_area_m2: 50000, ids })).key;
    const auth = await token();
    const justOver = lotWorkbook(MAX_IMPORT_LOTS + 1);
    const overStarted = performance.now();
    expect((await preview(key, auth, 'limite.xlsx', justOver)).statusCode).toBe(200);
    const overMs = performance.now() - overStarted;
    const workbook = lotWorkbook(300_000);
    const started = performance.now();
    const res = await preview(key, auth, 'enorme.xlsx', workbook);
    expect(res.statusCode, res.body.slice(0, 500)).toBe(200);
    expect(performance.now() - started).toBeLessThan(5 * overMs);
    const data = importPreviewResponseSchema.parse(res.json()).data;
    expect(data.lots).toEqual([]);
    expect(data.issues).toEqual([
      expect.objectContaining({
        severity: 'ERROR',
        location: 'archivo',
        field: 'file',
        message: `El archivo tiene más de ${MAX_IMPORT_LOTS.toLocaleString('es-PE')} lotes`,
      }),
    ]);
    expect(data.can_import).toBe(false);
  });

  // The issue's figure is < 100 ms (about 20 ms on an idle machine); the assertion is a ratio measured
  // in the same run, so a loaded 2-core machine does not fail it: each answer within a quarter of the
  // check's own duration. A check on the event loop (before the worker) froze it for the whole check.
  it('/api/health keeps answering while a 20 000-lot file is being checked (each answer < 1/4 of the check)', async () => {
    const key = (await createSubdivision(db(), { total_area_m2: 50000, ids })).key;
    const auth = await token();
    // Warm the worker up, so what runs below is the check itself.
    expect((await preview(key, auth, 'uno.geojson', squares(1, false))).statusCode).toBe(200);
    let done = false;
    const checkStarted = performance.now();
    const pending = preview(key, auth, 'grande.geojson', squares(20_000, false)).then((res) => {
      done = true;
      return res;
    });
    const latencies: number[] = [];
    while (!done) {
      const started = performance.now();
      const health = await ctx().app.inject({ method: 'GET', url: '/api/health' });
      latencies.push(performance.now() - started);
      expect(health.statusCode).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    const res = await pending;
    const checkMs = performance.now() - checkStarted;
    expect(res.statusCode, res.body).toBe(200);
    expect(importPreviewResponseSchema.parse(res.json()).data.summary.create).toBe(20_000);
    expect(latencies.length).toBeGreaterThanOrEqual(5);
    expect(
      Math.max(...latencies),
      `health answers ${latencies.map(Math.round).join(', ')} ms; check ${Math.round(checkMs)} ms`,
    ).toBeLessThan(checkMs / 4);
  });

  it('a check over the time budget is a 422 on `file`, and the next file is checked by a fresh worker', async () => {
    const { app } = await buildTestApp(db(), { importCheckTimeoutMs: 50 });
    try {
      const key = (await createSubdivision(db(), { total_area_m2: 50000, ids })).key;
      const auth = await token();
      const big = Buffer.from(planToDxf(buildPlan({ lots: 2000, seed: 3, blocksPerRow: 10 })));
      const res = await preview(key, auth, 'lento.dxf', big, app);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toEqual({ message: CHECK_MESSAGES.timeout(50), errors: { file: [CHECK_MESSAGES.timeout(50)] } });
      const small = await preview(key, auth, 'uno.geojson', squares(1, false), app);
      expect(small.statusCode, small.body).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('ImportCheckPool', () => {
  it('refuses with a fast 503 when every worker is busy and the queue is full', async () => {
    const pool = new ImportCheckPool({ workers: 1, queueLimit: 0, timeoutMs: 20_000, maxMemoryMb: 256 });
    try {
      const first = pool.check(squares(5000, false), 'a.geojson', null);
      let firstDone = false;
      void first.then(() => (firstDone = true));
      // Refused at once: before the busy worker's check comes back (no clock involved).
      await expect(pool.check(squares(1, false), 'b.geojson', null)).rejects.toMatchObject({
        statusCode: 503,
        message: CHECK_MESSAGES.busy,
      });
      expect(firstDone).toBe(false);
      expect((await first).lots).toHaveLength(5000);
    } finally {
      await pool.close();
    }
  });

  it('also runs under `node --import tsx` (how the server runs), not only under vitest', async () => {
    const root = join(import.meta.dirname, '..', '..');
    const script = `
      const { ImportCheckPool } = await import('./server/modules/proyectos/lot-import/check-pool.ts');
      const pool = new ImportCheckPool({ workers: 1, queueLimit: 1, timeoutMs: 20000, maxMemoryMb: 256 });
      const result = await pool.check(Buffer.from('manzana,lote,area,precio_m2\\nA,1,100,250\\n'), 'a.csv', null);
      console.log(JSON.stringify({ lots: result.lots.length, code: result.lots[0].code }));
      await pool.close();`;
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: root,
      timeout: 20_000,
    });
    expect(JSON.parse(stdout.trim())).toEqual({ lots: 1, code: 'MZ A - LT 1' });
  });
});
