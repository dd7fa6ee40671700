/**
 * Payments bench (issue 16 "Performance": approving a payment that touches 12 instalments ≤ 20 ms
 * server time). On a fresh SQLite file: sales of 24 monthly instalments whose down payment and first
 * 11 are overdue (each with its late fee), one PENDIENTE payment per sale of exactly the late fees
 * owed plus those 12 instalments; then each approval timed in-process through the service — the transaction
 * with the receipt number, the allocation over 12 instalments, the late-fee refigure of the 24 and
 * the sale's state — and, in the same run, approvals that touch a single instalment of an
 * up-to-date sale: the ratio compares across machines, the absolute median is the target's.
 *
 *   npx tsx scripts/bench-payments.ts [sales=60]      (also part of `npm run bench`)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Temporal } from 'temporal-polyfill';
import { systemAuditContext } from '../server/audit/audit';
import { systemClock, todayInLimaBy } from '../server/clock';
import { TEST_SCRYPT_LOG_N } from '../server/config';
import type { DB } from '../server/db/database';
import { createSale } from '../server/modules/comercio/sales.service';
import { approvePayment, openInstalmentsOn, registerPayment } from '../server/modules/finanzas/payments.service';
import { openMigratedDatabase } from '../server/start';
import { createCrmCustomer, createLot, createSubdivision } from '../server/testing/fixtures';
import { createSaleRequestSchema } from '../src/schemas/comercio/sales';
import type { Kysely } from 'kysely';

const SALES = Number(process.argv[2]) || 60;
const TARGET_MS = 20;

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

/** A sale of 24 instalments with its first due date `firstDue` (the sale made a month before). */
async function sale(db: Kysely<DB>, subdivisionId: number, n: number, firstDue: Temporal.PlainDate): Promise<number> {
  const lotId = await createLot(db, subdivisionId, { block: 'B', number: String(n) });
  const customer = await createCrmCustomer(db);
  const created = await createSale(
    { db, clock: systemClock },
    systemAuditContext(systemClock),
    createSaleRequestSchema.parse({
      lot_id: lotId,
      holders: [{ customer_id: customer, role: 'TITULAR', share_percent: '100' }],
      down_payment_percent: '10',
      instalments: 24,
      monthly_rate_percent: '1.5',
      method: 'FRANCES',
      sale_date: firstDue.subtract({ months: 1 }).toString(),
      first_due_date: firstDue.toString(),
    }),
  );
  return created.id;
}

const dir = mkdtempSync(path.join(tmpdir(), 'parcela-bench-payments-'));
try {
  const { db } = await openMigratedDatabase({
    databasePath: path.join(dir, 'bench.db'),
    databaseUrl: null,
    seed: 'none',
    scryptLogN: TEST_SCRYPT_LOG_N,
  });
  const deps = { db, clock: systemClock, broadcaster: { publish: () => undefined, settled: async () => undefined } };
  const audit = systemAuditContext(systemClock);
  const today = Temporal.PlainDate.from(todayInLimaBy(systemClock));
  const subdivision = await createSubdivision(db);

  /** Registers and approves one payment per sale; @returns the approvals' times in ms, and the instalments each touched. */
  async function approvals(saleIds: number[], amountOf: (open: Awaited<ReturnType<typeof openInstalmentsOn>>) => number) {
    const times: number[] = [];
    const touched: number[] = [];
    for (const [i, saleId] of saleIds.entries()) {
      const open = await openInstalmentsOn(db, saleId, today.toString());
      const payment = await registerPayment(
        deps,
        { kind: 'STAFF', audit },
        {
          sale_id: saleId,
          amount: amountOf(open),
          method: 'EFECTIVO',
          operation_date: today.toString(),
        },
      );
      const start = performance.now();
      const approved = await approvePayment(deps, audit, payment.id, {});
      if (i > 2) times.push(performance.now() - start); // the first few warm the statements up
      touched.push(approved.allocations.length);
    }
    return { times: times.sort((a, b) => a - b), touched };
  }

  // Overdue sales: the down payment and 11 instalments past their grace (each with a late fee), a 12th due 2 days ago (within its grace).
  const late: number[] = [];
  for (let i = 0; i < SALES; i++) late.push(await sale(db, subdivision.id, i, today.subtract({ months: 11, days: 2 })));
  // Up-to-date sales: nothing due yet; the payment covers the down payment only.
  const current: number[] = [];
  for (let i = 0; i < SALES; i++) current.push(await sale(db, subdivision.id, SALES + i, today.add({ days: 10 })));

  const twelve = await approvals(late, (open) => {
    const fees = open.reduce((sum, r) => sum + r.lateFeeDueCents, 0);
    return fees + open.slice(0, 12).reduce((sum, r) => sum + r.amountDueCents, 0);
  });
  const one = await approvals(current, (open) => open[0]!.amountDueCents);
  await db.destroy();

  const median12 = percentile(twelve.times, 50);
  const median1 = percentile(one.times, 50);
  console.log(`Payment approval (${SALES} sales each; server time in-process, SQLite file)`);
  console.log(
    `  touching ${Math.min(...twelve.touched)}–${Math.max(...twelve.touched)} instalments: median ${median12.toFixed(2)} ms, p95 ${percentile(twelve.times, 95).toFixed(2)} ms  (target ≤ ${TARGET_MS} ms)`,
  );
  console.log(
    `  touching ${Math.min(...one.touched)} instalment:      median ${median1.toFixed(2)} ms, p95 ${percentile(one.times, 95).toFixed(2)} ms`,
  );
  console.log(`  ratio 12 / 1: ${(median12 / median1).toFixed(2)}×`);
  if (median12 > TARGET_MS) console.log(`  OVER the ${TARGET_MS} ms target`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
