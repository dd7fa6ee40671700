/**
 * `npm run check:demo`: the demo's money invariants (server/db/demo-invariants.ts) — on a fresh
 * temp SQLite database seeded with the demo, or, when DATABASE_PATH or DATABASE_URL is set, on
 * that database as it is (nothing seeded, nothing written). Prints each broken rule with up to five
 * rows; exit code 1 when any rule is broken. tests/server/demo-invariants.test.ts runs the same
 * check in the server suite, on both dialects.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TEST_SCRYPT_LOG_N } from '../server/config';
import { openDatabase } from '../server/db/connection';
import { checkDemoInvariants, type DemoViolation } from '../server/db/demo-invariants';
import { openMigratedDatabase } from '../server/start';

async function violations(): Promise<{ where: string; found: DemoViolation[] }> {
  const databasePath = process.env.DATABASE_PATH;
  const databaseUrl = process.env.DATABASE_URL || null;
  if (databasePath || databaseUrl) {
    const { db } = openDatabase({ databasePath: databasePath ?? ':memory:', databaseUrl });
    try {
      return { where: databaseUrl ? 'DATABASE_URL' : databasePath!, found: await checkDemoInvariants(db) };
    } finally {
      await db.destroy();
    }
  }
  const dir = mkdtempSync(path.join(tmpdir(), 'parcela-check-demo-'));
  try {
    const started = performance.now();
    const { db } = await openMigratedDatabase({
      databasePath: path.join(dir, 'demo.db'),
      databaseUrl: null,
      seed: 'demo',
      scryptLogN: TEST_SCRYPT_LOG_N,
    });
    console.log(`demo seeded on a fresh SQLite database in ${((performance.now() - started) / 1000).toFixed(1)} s (with the migrations)`);
    try {
      return { where: 'a fresh demo database', found: await checkDemoInvariants(db) };
    } finally {
      await db.destroy();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const { where, found } = await violations();
if (found.length === 0) {
  console.log(`check:demo: every money invariant holds on ${where}`);
} else {
  const byRule = new Map<string, DemoViolation[]>();
  for (const v of found) byRule.set(v.rule, [...(byRule.get(v.rule) ?? []), v]);
  for (const [rule, list] of byRule) {
    console.log(`${rule}: ${list.length}`);
    for (const v of list.slice(0, 5)) console.log(`  ${v.subject}: ${v.detail}`);
  }
  console.log(`check:demo: ${found.length} violations on ${where}`);
  process.exitCode = 1;
}
