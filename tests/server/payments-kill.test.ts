import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkInvariants, runKillTest } from '../../scripts/payments-kill';
import { TEST_SCRYPT_LOG_N } from '../../server/config';
import { openMigratedDatabase } from '../../server/start';

/**
 * Issue 16 "Reliability": kill -9 of the server during a run of approvals (scripts/payments-kill.ts,
 * here with 200 payments; `npx tsx scripts/payments-kill.ts 1000` for the 1 000), and the
 * invariant checks themselves shown to catch what they look for. SQLite, the default database.
 */
describe('payments under kill -9', { timeout: 300_000 }, () => {
  it('after a restart every acknowledged approval is there, allocations balance, receipts have no gaps', async () => {
    const result = await runKillTest({ payments: 200, killAfter: 80 });
    expect(result.problems).toEqual([]);
    expect(result.acknowledgedBeforeKill).toBeGreaterThanOrEqual(80);
    expect(result.acknowledgedBeforeKill + result.approvedAfterRestart).toBe(200);
  });

  it('the checks report a lost approval, an unbalanced allocation and a gap in the receipts', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'parcela-kill-check-'));
    const databasePath = path.join(dir, 'parcela.db');
    try {
      const { db } = await openMigratedDatabase({ databasePath, databaseUrl: null, seed: 'demo', scryptLogN: TEST_SCRYPT_LOG_N });
      const approved = await db.selectFrom('payments').select(['id']).where('status', '=', 'APROBADO').executeTakeFirstOrThrow();
      await db.destroy();
      expect(await checkInvariants(databasePath, [approved.id])).toEqual([]);
      const problems = await checkInvariants(databasePath, [approved.id, 999_999]);
      expect(problems).toEqual([expect.stringContaining('1 acknowledged approvals missing')]);

      const again = await openMigratedDatabase({ databasePath, databaseUrl: null, seed: 'none' });
      await again.db.updateTable('payment_allocations').set({ to_capital: 1 }).where('payment_id', '=', approved.id).execute();
      await again.db.updateTable('receipt_counters').set({ last_number: 3 }).execute();
      await again.db.destroy();
      const broken = await checkInvariants(databasePath, [approved.id]);
      expect(broken).toEqual([
        expect.stringContaining('allocations do not add up'),
        expect.stringContaining('receipt numbers are not 1…3'),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
