/**
 * Times each step of the demo seed (server/db/seed.ts `seedDemo`) on a fresh, migrated temp SQLite
 * file, and on PostgreSQL too when DATABASE_URL is set (a throwaway database, dropped afterwards).
 * docs/testing.md "The demo seed" holds the figures.
 *
 *   npx tsx scripts/seed-profile.ts [runs=1]
 *
 * The password hash cost is the tests' (TEST_SCRYPT_LOG_N), as in the server suite.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { TEST_SCRYPT_LOG_N } from '../server/config';
import { seedDemo } from '../server/db/seed';
import { openMigratedDatabase } from '../server/start';

/** Seeds once on an open, migrated database. @returns the steps' durations (ms) and the total. */
async function profileOnce(open: () => Promise<{ db: Parameters<typeof seedDemo>[0]; close: () => Promise<void> }>) {
  const { db, close } = await open();
  const steps: [string, number][] = [];
  const start = performance.now();
  try {
    await seedDemo(db, { scryptLogN: TEST_SCRYPT_LOG_N, onStep: (step, ms) => steps.push([step, ms]) });
  } finally {
    await close();
  }
  return { steps, total: performance.now() - start };
}

function print(label: string, result: { steps: [string, number][]; total: number }) {
  console.log(`${label}: ${(result.total / 1000).toFixed(2)} s`);
  for (const [step, ms] of result.steps) console.log(`  ${step.padEnd(34)} ${(ms / 1000).toFixed(2)} s`);
}

const runs = Number(process.argv[2] ?? 1);
for (let run = 1; run <= runs; run++) {
  print(
    `sqlite run ${run}`,
    await profileOnce(async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'parcela-seed-'));
      const { db } = await openMigratedDatabase({ databasePath: path.join(dir, 'seed.db'), databaseUrl: null });
      return { db, close: async () => (await db.destroy(), rmSync(dir, { recursive: true, force: true })) };
    }),
  );
  const adminUrl = process.env.DATABASE_URL;
  if (adminUrl) {
    print(
      `postgres run ${run}`,
      await profileOnce(async () => {
        const name = `parcela_seed_${randomBytes(6).toString('hex')}`;
        const admin = new pg.Client({ connectionString: adminUrl });
        await admin.connect();
        await admin.query(`CREATE DATABASE ${name}`);
        await admin.end();
        const url = new URL(adminUrl);
        url.pathname = `/${name}`;
        const { db } = await openMigratedDatabase({ databasePath: ':memory:', databaseUrl: url.toString() });
        return {
          db,
          close: async () => {
            await db.destroy();
            const cleanup = new pg.Client({ connectionString: adminUrl });
            await cleanup.connect();
            await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
            await cleanup.end();
          },
        };
      }),
    );
  }
}
