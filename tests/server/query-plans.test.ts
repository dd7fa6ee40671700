import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import { testConfig } from '../../server/config';
import type { DB } from '../../server/db/database';
import { openMigratedDatabase } from '../../server/start';
import { createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { ALL_PERMISSIONS } from '../../src/schemas/permissions';
import { bearer } from './harness';

/**
 * Every list call's SQL uses an index on the big tables (issue "API throughput" item 3): the test
 * calls each list with its filters and sorts through the real app, records every SELECT the app
 * runs (Kysely's `log`), and asks SQLite for each one's plan (`EXPLAIN QUERY PLAN`). A plan that
 * reads a big table from end to end (`SCAN <table>` without an index) fails the test.
 */
// Staff users, roles and locals are hundreds of rows at most: a scan of them is cheaper than an index per sort.
const BIG_TABLES = ['lots', 'change_history', 'lot_status_changes', 'notifications', 'access_tokens', 'customers'];

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
      const calls = [
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
      for (const url of calls) {
        statements.length = 0;
        const res = await app.inject({ method: 'GET', url, headers: bearer(token) });
        expect(res.statusCode, url).toBe(200);
        for (const { sql, parameters } of statements) {
          const plan = sqlite
            .prepare(`EXPLAIN QUERY PLAN ${sql}`)
            .all(...(parameters as unknown[]))
            .map((row) => (row as { detail: string }).detail);
          const fullScans = plan.filter((step) =>
            BIG_TABLES.some((table) => new RegExp(`^SCAN ${table}\\b(?! USING (COVERING )?INDEX)`).test(step)),
          );
          expect(fullScans, `${url}\n${sql}\n${plan.join('\n')}`).toEqual([]);
        }
      }
    } finally {
      await app.close();
    }
  });
});
