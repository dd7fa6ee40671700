import { beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { DB } from '../../server/db/database';
import { TEST_SCRYPT_LOG_N } from '../../server/config';
import { checkDemoInvariants } from '../../server/db/demo-invariants';
import { seedDemo } from '../../server/db/seed';
import { dialects, useTestDatabase } from './harness';
import { SEED_TIMEOUT_MS } from './slow-work';

/**
 * The demo seeds consistent money (docs/testing.md "The demo seed"): every rule of
 * server/db/demo-invariants.ts holds on a freshly seeded demo, on each dialect — and the check
 * reports a corrupted row of each kind (the corruption rolled back, so the tests share one seed).
 */

/** Runs `change` then the check in a transaction that is rolled back. @returns the rules broken. */
async function rulesBrokenBy(db: Kysely<DB>, change: (trx: Kysely<DB>) => Promise<void>): Promise<string[]> {
  const rollback = new Error('rollback');
  let rules: string[] = [];
  await db
    .transaction()
    .execute(async (trx) => {
      await change(trx);
      rules = [...new Set((await checkDemoInvariants(trx)).map((v) => v.rule))].sort();
      throw rollback;
    })
    .catch((error: unknown) => {
      if (error !== rollback) throw error;
    });
  return rules;
}

describe.each(dialects)('demo money invariants (%s)', { timeout: SEED_TIMEOUT_MS }, (dialect) => {
  const db = useTestDatabase(dialect);
  beforeAll(async () => {
    expect(await seedDemo(db(), { scryptLogN: TEST_SCRYPT_LOG_N })).toBe(true);
  }, SEED_TIMEOUT_MS);

  it('hold on the demo: fees, allocations, instalments, sale states and receipts agree', async () => {
    expect(await checkDemoInvariants(db())).toEqual([]);
    // The check looked at something: the demo has approved payments, late fees and open sales.
    const approved = await db().selectFrom('payments').select('id').where('status', '=', 'APROBADO').execute();
    expect(approved.length).toBeGreaterThan(4000);
    const withFee = await db().selectFrom('sale_instalments').select('id').where('late_fee_accrued', '>', 0).execute();
    expect(withFee.length).toBeGreaterThan(0);
  });

  it("leaves the demo customer's purchase as the customer screens show it: overdue instalments, no rescission, no adenda", async () => {
    const sales = await db()
      .selectFrom('sales')
      .innerJoin('sale_holders', 'sale_holders.sale_id', 'sales.id')
      .innerJoin('customers', 'customers.id', 'sale_holders.customer_id')
      .select(['sales.id', 'sales.status'])
      .where('customers.document_number', '=', '45454545')
      .execute();
    expect(sales.length).toBeGreaterThan(0);
    const ids = sales.map((s) => s.id);
    expect(sales.every((s) => s.status !== 'RESUELTA')).toBe(true);
    expect(await db().selectFrom('sale_reschedules').select('id').where('sale_id', 'in', ids).execute()).toEqual([]);
    const overdue = await db()
      .selectFrom('sale_instalments')
      .select('id')
      .where('sale_id', 'in', ids)
      .where('status', '=', 'VENCIDA')
      .execute();
    expect(overdue.length).toBeGreaterThan(0);
    // The demo still has one sale resolved and one rescheduled (docs/domain.md "Rescission").
    expect(await db().selectFrom('sales').select('id').where('status', '=', 'RESUELTA').execute()).toHaveLength(1);
    expect(await db().selectFrom('sale_reschedules').select('id').execute()).toHaveLength(1);
  });

  it('report a fee paid over what accrued, an unbalanced payment, an allocation of a pending payment and a receipt gap', async () => {
    const instalment = await db()
      .selectFrom('sale_instalments')
      .select(['id', 'late_fee_accrued', 'late_fee_waived'])
      .where('late_fee_accrued', '>', 0)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect(
      await rulesBrokenBy(db(), (trx) =>
        trx
          .updateTable('sale_instalments')
          .set({ late_fee_paid: Number(instalment.late_fee_accrued) + Number(instalment.late_fee_waived) + 1 })
          .where('id', '=', instalment.id)
          .execute()
          .then(() => undefined),
      ),
    ).toEqual(['fee-over-paid', 'instalment-allocations']);

    const approved = await db()
      .selectFrom('payments')
      .select(['id', 'receipt_number'])
      .where('status', '=', 'APROBADO')
      .where('sale_id', 'is not', null)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect(
      await rulesBrokenBy(db(), async (trx) => {
        await trx.updateTable('payment_allocations').set({ to_capital: 1 }).where('payment_id', '=', approved.id).execute();
      }),
    ).toEqual(['allocations-unbalanced', 'instalment-allocations']);

    const pending = await db()
      .selectFrom('payments')
      .select('id')
      .where('status', '=', 'PENDIENTE')
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect(
      await rulesBrokenBy(db(), async (trx) => {
        await trx.updateTable('payment_allocations').set({ payment_id: pending.id }).where('payment_id', '=', approved.id).execute();
      }),
    ).toEqual(['allocation-not-approved', 'allocations-unbalanced', 'instalment-allocations']);

    expect(
      await rulesBrokenBy(db(), async (trx) => {
        await trx
          .updateTable('receipt_counters')
          .set((eb) => ({ last_number: eb('last_number', '+', 1) }))
          .execute();
      }),
    ).toEqual(['receipts']);
  });

  it('report a sale state its instalments do not give, and an instalment paid without allocations or its state', async () => {
    const sale = await db().selectFrom('sales').select('id').where('status', '=', 'EN_CUOTAS').orderBy('id').executeTakeFirstOrThrow();
    expect(
      await rulesBrokenBy(db(), async (trx) => {
        await trx.updateTable('sales').set({ status: 'CANCELADA' }).where('id', '=', sale.id).execute();
      }),
    ).toEqual(['sale-status']);
    // (paid over the amount is refused by the table's CHECK constraint: the rule is a second guard.)
    const open = await db()
      .selectFrom('sale_instalments')
      .select(['id', 'amount'])
      .where('sale_id', '=', sale.id)
      .where('paid', '=', 0)
      .orderBy('id')
      .executeTakeFirstOrThrow();
    expect(
      await rulesBrokenBy(db(), async (trx) => {
        await trx
          .updateTable('sale_instalments')
          .set({ paid: Number(open.amount) })
          .where('id', '=', open.id)
          .execute();
      }),
    ).toEqual(['instalment-allocations', 'instalment-status']);
  });
});
