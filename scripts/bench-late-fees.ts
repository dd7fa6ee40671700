/**
 * Late-fee job bench (issue 16 "Performance": the late-fee job over 2 000 000 instalments ≤ 30 s).
 * On a copy of the large database (scripts/generate-large-db.ts: 100 000 sales, 2 000 000 schedule
 * rows; generated here into a temporary file unless LARGE_DB names one): the daily job
 * (server/modules/finanzas/late-fee-job.ts, `runUntilDone` as the server runs it) for today — late
 * fees and states figured for every sale with something due, reminders raised — then a second run
 * the same day (idempotent: nothing to do) and a run the next day (the daily work after the first).
 *
 *   LARGE_DB=<sqlite file> npx tsx scripts/bench-late-fees.ts      (also part of `npm run bench`)
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createManualClock, DAY_MS } from '../server/clock';
import { openMigratedDatabase } from '../server/start';
import { LateFeeJob } from '../server/modules/finanzas/late-fee-job';

const TARGET_S = 30;
const root = path.resolve(import.meta.dirname, '..');
const dir = mkdtempSync(path.join(tmpdir(), 'parcela-bench-late-fees-'));
const databasePath = path.join(dir, 'large.db');
try {
  const source = process.env.LARGE_DB;
  if (source && existsSync(source)) copyFileSync(source, databasePath);
  else {
    console.log('Generating the large database (100 000 sales, 2 000 000 instalments)…');
    const made = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/generate-large-db.ts', databasePath], {
      cwd: root,
      stdio: 'inherit',
    });
    if (made.status !== 0) process.exit(made.status ?? 1);
  }
  const { db } = await openMigratedDatabase({ databasePath, databaseUrl: null, seed: 'none' });
  const instalments = Number(
    (
      await db
        .selectFrom('sale_instalments')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
  const clock = createManualClock(new Date());
  const job = new LateFeeJob({ db, clock, broadcaster: { publish: () => undefined, settled: async () => undefined }, log: console });
  const timed = async () => {
    const start = performance.now();
    const pass = await job.runUntilDone();
    return { ...pass, seconds: (performance.now() - start) / 1000 };
  };
  const first = await timed();
  const again = await timed();
  clock.advance(DAY_MS);
  const nextDay = await timed();
  await db.destroy();
  const line = (label: string, r: typeof first) =>
    `  ${label.padEnd(22)} ${r.seconds.toFixed(1).padStart(6)} s  ${String(r.sales).padStart(6)} sales figured, ${String(r.changed).padStart(7)} rows changed, ${String(r.reminded).padStart(6)} reminders`;
  console.log(`Late-fee job over ${instalments.toLocaleString('en')} instalments (SQLite file, in-process)`);
  console.log(line('first run today', first) + `  (target ≤ ${TARGET_S} s)`);
  console.log(line('second run, same day', again));
  console.log(line('the next day', nextDay));
  if (first.seconds > TARGET_S) console.log(`  OVER the ${TARGET_S} s target`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
