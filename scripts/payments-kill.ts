/**
 * kill -9 during a run of approvals (issue 16 "Reliability"): after a restart every approval the
 * server acknowledged is there, every approved payment's allocations add up to its amount, no
 * instalment is over-paid, each sale's `paid` is the sum of its instalments', and the receipt
 * numbers run 1…n without gaps or duplicates.
 *
 *   npx tsx scripts/payments-kill.ts [payments=1000] [killAfter=random 20–80 %]
 *
 * How: a fresh SQLite database with the demo seed and `payments` PENDIENTE payments of S/ 1.00
 * spread over the open sales; server/main.ts started as its own process; approvals sent 8 at a time
 * over HTTP; SIGKILL once `killAfter` were acknowledged (others are in flight); the server started
 * again on the same file; the invariants checked in the database, and again after the rest are
 * approved. Exit code 1 when an invariant fails. tests/server/payments-kill.test.ts runs it with 200.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import { freePort } from './lib/server-process.mjs';
import { TEST_SCRYPT_LOG_N } from '../server/config';
import { openDatabase } from '../server/db/connection';
import { openMigratedDatabase } from '../server/start';
import { createPayment, createSession, createStaff } from '../server/testing/fixtures';
import { ENDED_SALE_STATUSES } from '../src/schemas/comercio/sales';
import { MODULE, SUBMODULE } from '../src/schemas/permissions';

const ROOT = path.resolve(import.meta.dirname, '..');

/** What one run found. */
export interface KillRunResult {
  payments: number;
  acknowledgedBeforeKill: number;
  approvedAfterRestart: number;
  problems: string[];
}

/** Starts server/main.ts on `databasePath` and resolves once /api/health answers. */
async function startServer(databasePath: string): Promise<{ child: ChildProcess; baseUrl: string }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_PATH: databasePath,
      DATABASE_URL: '',
      SEED: 'none',
      EXIT_ON_STDIN_CLOSE: '1',
    },
    stdio: ['pipe', 'ignore', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) return { child, baseUrl };
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error('server did not answer /api/health within 60 s');
    await new Promise((r) => setTimeout(r, 200)); // poll interval, not a synchronisation
  }
}

/** The invariants of the payments in the database at `databasePath`. @returns the problems found (empty: all hold). */
export async function checkInvariants(databasePath: string, acknowledged: readonly number[]): Promise<string[]> {
  const { db } = openDatabase({ databasePath, databaseUrl: null });
  const problems: string[] = [];
  try {
    const approved = new Set((await db.selectFrom('payments').select('id').where('status', '=', 'APROBADO').execute()).map((r) => r.id));
    const lost = acknowledged.filter((id) => !approved.has(id));
    if (lost.length > 0) problems.push(`${lost.length} acknowledged approvals missing: ${lost.slice(0, 10).join(', ')}`);
    const unbalanced = await sql<{ id: number }>`
      select p.id from payments p
      left join payment_allocations a on a.payment_id = p.id
      where p.status = 'APROBADO' and p.sale_id is not null
      group by p.id, p.amount
      having coalesce(sum(a.to_capital + a.to_late_fee), 0) <> p.amount`.execute(db);
    if (unbalanced.rows.length > 0) problems.push(`${unbalanced.rows.length} approved payments whose allocations do not add up`);
    const overPaid = await sql<{ n: number }>`select count(*) as n from sale_instalments where paid > amount or paid < 0`.execute(db);
    if (Number(overPaid.rows[0]?.n ?? 0) > 0) problems.push(`${overPaid.rows[0]?.n} instalments over-paid`);
    const salePaid = await sql<{ n: number }>`
      select count(*) as n from sales s
      where s.paid <> coalesce((select sum(i.paid) from sale_instalments i where i.sale_id = s.id), 0)`.execute(db);
    if (Number(salePaid.rows[0]?.n ?? 0) > 0) problems.push(`${salePaid.rows[0]?.n} sales whose paid is not the sum of their instalments`);
    const numbers = (
      await db.selectFrom('payments').select('receipt_number').where('receipt_number', 'is not', null).orderBy('receipt_number').execute()
    ).map((r) => Number(r.receipt_number));
    const counter = Number((await db.selectFrom('receipt_counters').select('last_number').executeTakeFirstOrThrow()).last_number);
    const gapless = numbers.every((n, i) => n === i + 1) && numbers.length === counter;
    if (!gapless)
      problems.push(
        `receipt numbers are not 1…${counter}: ${numbers.length} numbers, first gap near ${numbers.findIndex((n, i) => n !== i + 1) + 1}`,
      );
  } finally {
    await db.destroy();
  }
  return problems;
}

/** Sends the approvals of `ids`, `parallel` at a time; calls `onAck` after each 200; stops early when `shouldStop`. */
async function approveAll(baseUrl: string, token: string, ids: readonly number[], onAck: (id: number) => void, shouldStop: () => boolean) {
  let next = 0;
  const worker = async () => {
    while (next < ids.length && !shouldStop()) {
      const id = ids[next++]!;
      try {
        const res = await fetch(`${baseUrl}/api/payments/${id}/approve`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: '{}',
        });
        if (res.status === 200) onAck(id);
        await res.arrayBuffer();
      } catch {
        /* the server was killed: this approval was not acknowledged */
      }
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/** One run (see the file's comment). */
export async function runKillTest(options: { payments?: number; killAfter?: number } = {}): Promise<KillRunResult> {
  const total = options.payments ?? 1000;
  const killAfter = options.killAfter ?? Math.round(total * (0.2 + Math.random() * 0.6));
  const dir = mkdtempSync(path.join(tmpdir(), 'parcela-kill-'));
  const databasePath = path.join(dir, 'parcela.db');
  try {
    // A fresh database: the demo seed, a reviewer and the payments to approve.
    const opened = await openMigratedDatabase({ databasePath, databaseUrl: null, seed: 'demo', scryptLogN: TEST_SCRYPT_LOG_N });
    const reviewer = await createStaff(opened.db, { permissions: [MODULE.finanzas, SUBMODULE.pagos], scryptLogN: TEST_SCRYPT_LOG_N });
    const token = await createSession(opened.db, reviewer);
    const sales = (
      await opened.db
        .selectFrom('sales')
        .select('id')
        .where('status', 'not in', [...ENDED_SALE_STATUSES, 'CANCELADA'])
        .where((eb) => eb('paid', '<', eb('final_price', '+', eb.ref('total_interest'))))
        .orderBy('id')
        .limit(100)
        .execute()
    ).map((s) => s.id);
    const ids: number[] = [];
    for (let i = 0; i < total; i += 1) ids.push(await createPayment(opened.db, { saleId: sales[i % sales.length], amount: 100 }));
    await opened.db.destroy();

    // Approvals until `killAfter` were acknowledged, then kill -9.
    const acknowledged: number[] = [];
    let server = await startServer(databasePath);
    let killed = false;
    await approveAll(
      server.baseUrl,
      token,
      ids,
      (id) => {
        acknowledged.push(id);
        if (!killed && acknowledged.length >= killAfter) {
          killed = true;
          server.child.kill('SIGKILL');
        }
      },
      () => killed,
    );
    await new Promise((resolve) =>
      server.child.exitCode !== null || server.child.signalCode !== null ? resolve(null) : server.child.once('exit', resolve),
    );
    const beforeKill = [...acknowledged];

    // Restart on the same file; check; approve the rest; check again.
    server = await startServer(databasePath);
    const problems = await checkInvariants(databasePath, beforeKill);
    const pending = await (async () => {
      const { db } = openDatabase({ databasePath, databaseUrl: null });
      try {
        return (await db.selectFrom('payments').select('id').where('status', '=', 'PENDIENTE').where('id', 'in', ids).execute()).map(
          (r) => r.id,
        );
      } finally {
        await db.destroy();
      }
    })();
    await approveAll(
      server.baseUrl,
      token,
      pending,
      (id) => acknowledged.push(id),
      () => false,
    );
    server.child.stdin?.end();
    server.child.kill('SIGTERM');
    await new Promise((resolve) => (server.child.exitCode !== null ? resolve(null) : server.child.once('exit', resolve)));
    problems.push(...(await checkInvariants(databasePath, acknowledged)).map((p) => `after the rest: ${p}`));
    if (acknowledged.length !== total) problems.push(`${total - acknowledged.length} payments were never approved`);
    return {
      payments: total,
      acknowledgedBeforeKill: beforeKill.length,
      approvedAfterRestart: acknowledged.length - beforeKill.length,
      problems,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [payments, killAfter] = process.argv.slice(2).map(Number);
  const result = await runKillTest({ payments: payments || undefined, killAfter: killAfter || undefined });
  console.log(JSON.stringify(result, null, 2));
  process.exit(result.problems.length > 0 ? 1 : 0);
}
