import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import { testConfig } from '../../server/config';
import type { DB } from '../../server/db/database';
import { openMigratedDatabase } from '../../server/start';
import { iterateChangeHistory } from '../../server/modules/historial/change-history.repository';
import { createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { ALL_PERMISSIONS } from '../../src/schemas/permissions';
import { pgTypes } from '../../server/db/connection';
import { bearer, createTestDatabase, type TestDatabase } from './harness';

/**
 * Every list call's SQL uses an index on the big tables (issue "API throughput" item 3): the test
 * calls each list with its filters and sorts through the real app, records every SELECT the app
 * runs (Kysely's `log`), and asks SQLite for each one's plan (`EXPLAIN QUERY PLAN`). A plan that
 * reads a big table from end to end (`SCAN <table>` without an index) fails the test. On
 * PostgreSQL (when DATABASE_URL is set) the same calls are planned with `EXPLAIN` in a session with
 * `enable_seqscan = off` — the test tables are small, so the planner would otherwise scan them
 * anyway; with it off, a `Seq Scan` on a big table means no index can serve the query.
 */
// Staff users, roles and locals are hundreds of rows at most: a scan of them is cheaper than an index per sort.
const BIG_TABLES = ['lots', 'change_history', 'lot_status_changes', 'notifications', 'access_tokens', 'customers'];

/** Every list call with its filters and sorts, on subdivision `key`. */
function listCalls(key: string): string[] {
  return [
    '/api/subdivisions?per_page=20',
    '/api/subdivisions?status=EN_VENTA&sort=-name&q=lot',
    `/api/subdivisions/${key}/lots?per_page=50&sort=code&status=DISPONIBLE`,
    `/api/subdivisions/${key}/lots?sort=-list_price&block=A&q=12`,
    `/api/subdivisions/${key}/lots?sort=area_m2&stage_id=1`,
    `/api/subdivisions/${key}/map`,
    '/api/users?per_page=20&sort=-created_at',
    '/api/users?status=ACTIVO&q=ana',
    '/api/roles?per_page=20',
    '/api/locals?per_page=20',
    '/api/change-history?per_page=20',
    '/api/change-history?entity=lots&sort=occurred_at',
    '/api/change-history?actor_type=COLLABORATOR&actor_id=1&from=2026-01-01&to=2026-12-31',
    '/api/change-history?entity=lots&record_id=1&action=UPDATE',
    '/api/get_notifications_by_user',
  ];
}

const dir = mkdtempSync(join(tmpdir(), 'parcela-plans-'));
const path = join(dir, 'plans.db');
const statements: Array<{ sql: string; parameters: readonly unknown[] }> = [];
let sqlite: SQLite.Database;
let db: Kysely<DB>;

beforeAll(async () => {
  const opened = await openMigratedDatabase({ databasePath: path, databaseUrl: null });
  await opened.db.destroy();
  sqlite = new SQLite(path);
  db = new Kysely<DB>({
    dialect: new SqliteDialect({ database: sqlite }),
    log: (event) => {
      if (event.level === 'query' && /^\s*select/i.test(event.query.sql))
        statements.push({ sql: event.query.sql, parameters: event.query.parameters });
    },
  });
});
afterAll(async () => {
  await db.destroy();
  rmSync(dir, { recursive: true, force: true });
});

describe('query plans of the list calls (sqlite)', () => {
  it('no list reads a big table from end to end', async () => {
    const staff = await createStaff(db, { permissions: ALL_PERMISSIONS });
    const token = await createSession(db, staff);
    const { key } = await createSubdivision(db);
    const app = await createApp({ db, config: testConfig() });
    try {
      const calls = listCalls(key);
      for (const url of calls) {
        statements.length = 0;
        const res = await app.inject({ method: 'GET', url, headers: bearer(token) });
        expect(res.statusCode, url).toBe(200);
        expectNoFullScan(url);
      }
    } finally {
      await app.close();
    }
  });

  it('the change-history export reads its batches after the last row (keyset) through an index', async () => {
    const { key } = await createSubdivision(db); // writes history rows
    await createSubdivision(db);
    expect(key).toBeTruthy();
    statements.length = 0;
    let read = 0;
    for await (const _entry of iterateChangeHistory(db, {}, 1)) read++;
    expect(read).toBeGreaterThan(1);
    expect(statements.some((s) => /\(.*occurred_at.*,.*id.*\) [<>] \(/.test(s.sql))).toBe(true);
    expectNoFullScan('iterateChangeHistory');
  });
});

/** Fails when one of the statements recorded since the last reset reads a big table from end to end (SQLite's plan). */
function expectNoFullScan(label: string): void {
  for (const { sql, parameters } of statements) {
    const plan = sqlite
      .prepare(`EXPLAIN QUERY PLAN ${sql}`)
      .all(...(parameters as unknown[]))
      .map((row) => (row as { detail: string }).detail);
    const fullScans = plan.filter((step) =>
      BIG_TABLES.some((table) => new RegExp(`^SCAN ${table}\\b(?! USING (COVERING )?INDEX)`).test(step)),
    );
    expect(fullScans, `${label}\n${sql}\n${plan.join('\n')}`).toEqual([]);
  }
}

describe.skipIf(!process.env.DATABASE_URL)('query plans of the list calls (postgres)', () => {
  let database: TestDatabase;
  let pool: pg.Pool;
  let logged: Kysely<DB>;
  const seen: Array<{ sql: string; parameters: readonly unknown[] }> = [];
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    pool = new pg.Pool({ connectionString: database.url!, types: pgTypes, max: 4 });
    // An idle connection the server drops (a loaded CI machine) must not become an unhandled
    // 'error' event that fails the whole run: the next query gets a fresh connection.
    pool.on('error', (error) => console.warn('query-plans: idle PostgreSQL connection dropped:', error.message));
    logged = new Kysely<DB>({
      dialect: new PostgresDialect({ pool }),
      log: (event) => {
        if (event.level === 'query' && /^\s*select/i.test(event.query.sql))
          seen.push({ sql: event.query.sql, parameters: event.query.parameters });
      },
    });
  });
  afterAll(async () => {
    await logged.destroy();
    await database.destroy();
  });

  it('no list reads a big table from end to end', async () => {
    const staff = await createStaff(logged, { permissions: ALL_PERMISSIONS });
    const token = await createSession(logged, staff);
    const { key } = await createSubdivision(logged);
    const app = await createApp({ db: logged, config: testConfig() });
    const explain = new pg.Client({ connectionString: database.url! });
    // A dropped connection fails the query awaited below (a located test failure), not the run.
    explain.on('error', (error) => console.warn('query-plans: EXPLAIN connection error:', error.message));
    await explain.connect();
    try {
      await explain.query('SET enable_seqscan = off');
      for (const url of listCalls(key)) {
        seen.length = 0;
        const res = await app.inject({ method: 'GET', url, headers: bearer(token) });
        expect(res.statusCode, url).toBe(200);
        for (const { sql, parameters } of seen) {
          const plan = (await explain.query(`EXPLAIN ${sql}`, parameters as unknown[])).rows.map(
            (row: Record<string, string>) => row['QUERY PLAN']!,
          );
          const fullScans = plan.filter((step) => BIG_TABLES.some((table) => new RegExp(`Seq Scan on ${table}\\b`).test(step)));
          expect(fullScans, `${url}\n${sql}\n${plan.join('\n')}`).toEqual([]);
        }
      }
    } finally {
      await explain.end();
      await app.close();
    }
  });
});
