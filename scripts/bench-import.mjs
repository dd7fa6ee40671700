#!/usr/bin/env node
/**
 * Lot-import benchmark (issue "Proyectos" → Performance: "DXF of 5 000 lots imports in ≤ 5 s").
 * Generates a 5 000-lot DXF in a temp dir (never committed; scripts/generate-plan-fixtures.mjs),
 * then times parse + check + store into a fresh SQLite database through the server code
 * (server/modules/proyectos/lot-import/ + lot-imports.service, one transaction), and the committed 200-lot fixture
 * in the same run, then the same 5 000 lots as a lon/lat GeoJSON (issue 13 item 2). Prints the
 * figures in ms and their ratios.
 *
 * Usage: `node scripts/bench-import.mjs` (re-runs itself under `node --import tsx`).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

if (!process.env.PARCELA_BENCH_TSX) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, PARCELA_BENCH_TSX: '1' },
  });
  process.exit(run.status ?? 1);
}

const { buildPlan, planToDxf, planToGeoJson } = await import('./generate-plan-fixtures.mjs');
const { openDatabase } = await import('../server/db/connection.ts');
const { migrateToLatest } = await import('../server/db/migrate.ts');
const { readImportFile } = await import('../server/modules/proyectos/lot-import/index.ts');
const { commitImport } = await import('../server/modules/proyectos/lot-imports.service.ts');
const { systemAuditContext } = await import('../server/audit/audit.ts');
const { systemClock } = await import('../server/clock.ts');

const LIMIT_MS = 5000;
const dir = mkdtempSync(join(tmpdir(), 'parcela-bench-import-'));
try {
  const handle = openDatabase({ databasePath: join(dir, 'bench.db'), databaseUrl: null });
  await migrateToLatest(handle);
  const db = handle.db;
  const now = new Date().toISOString();
  const subdivision = async (code) =>
    await db
      .insertInto('subdivisions')
      .values({
        code,
        name: code,
        department: 'Lima',
        province: 'Lima',
        district: 'Carabayllo',
        currency: 'PEN',
        total_area_m2: 1_000_000,
        status: 'EN_VENTA',
        created_at: now,
        updated_at: now,
      })
      .returning(['id', 'coordinate_system', 'overlap_limit_m2'])
      .executeTakeFirstOrThrow();

  const plan5000 = buildPlan({ lots: 5000, seed: 5000, blocksPerRow: 12 });
  const bigPath = join(dir, 'lotizacion-5000.dxf');
  writeFileSync(bigPath, planToDxf(plan5000));
  // The same plan as a GeoJSON in lon/lat (issue 13 item 2): geographic areas and overlap areas on the sphere.
  const geoPath = join(dir, 'lotizacion-5000.geojson');
  writeFileSync(geoPath, JSON.stringify(planToGeoJson(plan5000)));

  /** Parse + check + store of one file into a new subdivision. @returns { ms, created, parseMs }. */
  const measure = async (path, code) => {
    const target = await subdivision(code);
    const started = performance.now();
    const bytes = readFileSync(path);
    const parsed = await readImportFile(bytes, path);
    const parseMs = performance.now() - started;
    const errors = parsed.issues.filter((i) => i.severity === 'ERROR');
    if (errors.length) throw new Error(`${path}: ${errors.length} errors, first: ${errors[0].location}: ${errors[0].message}`);
    const result = await commitImport(db, systemAuditContext(systemClock), target, parsed);
    return { ms: performance.now() - started, parseMs, created: result.created, bytes: bytes.length };
  };

  const small = await measure(join(here, '..', 'fixtures', 'lotizacion-200.dxf'), 'BENCH-200');
  const large = await measure(bigPath, 'BENCH-5000');
  const geo = await measure(geoPath, 'BENCH-5000-GEO');
  const ratio = large.ms / small.ms;
  console.log(
    `Importación DXF ${small.created} lotes (${(small.bytes / 1024).toFixed(0)} KB): ${small.ms.toFixed(0)} ms (lectura + comprobaciones ${small.parseMs.toFixed(0)} ms)`,
  );
  console.log(
    `Importación DXF ${large.created} lotes (${(large.bytes / 1024 / 1024).toFixed(1)} MB): ${large.ms.toFixed(0)} ms (lectura + comprobaciones ${large.parseMs.toFixed(0)} ms)`,
  );
  console.log(
    `Relación 5 000 / 200: ${ratio.toFixed(1)}× para ${(large.created / small.created).toFixed(0)}× lotes · límite ${LIMIT_MS} ms: ${large.ms <= LIMIT_MS ? 'OK' : 'EXCEDIDO'}`,
  );
  console.log(
    `Importación GeoJSON ${geo.created} lotes (${(geo.bytes / 1024 / 1024).toFixed(1)} MB): ${geo.ms.toFixed(0)} ms (lectura + comprobaciones ${geo.parseMs.toFixed(0)} ms) · relación con el DXF ${(geo.ms / large.ms).toFixed(2)}× · límite ${LIMIT_MS} ms: ${geo.ms <= LIMIT_MS ? 'OK' : 'EXCEDIDO'}`,
  );
  await db.destroy();
  if (large.ms > LIMIT_MS || geo.ms > LIMIT_MS) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
