import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock';
import { MINUTE_MS, todayInLimaBy } from '../../clock';
import type { DB } from '../../db/database';
import { PollingJob } from '../../platform/polling-job';
import { accrueSaleCommissions } from './commission-lifecycle';

/**
 * The commissions' daily job (docs/domain.md "Commissions"): the payment approval earns a sale's
 * commissions at once, but a trigger can also be met without a new approval (a sale registered
 * before its policy's trigger was changed, data loaded by hand, a failed pass). Once a day (Lima)
 * it walks every sale not ANULADA with PROYECTADA commissions, in id order, a batch per
 * transaction, and earns what each meets ({@link accrueSaleCommissions}, idempotent). Its queue is
 * the database (modelled on server/modules/finanzas/late-fee-job.ts), so a restart loses nothing.
 */

/** Timing and bounds. */
export const COMMISSION_ACCRUAL_JOB = {
  /** How often a pass is considered (ms); the walk runs once per Lima day. */
  pollMs: 15 * MINUTE_MS,
  /** Sales per transaction. */
  salesPerTransaction: 50,
} as const;

export class CommissionAccrualJob extends PollingJob {
  private lastDay: string | null = null;

  constructor(private readonly deps: { db: Kysely<DB>; clock: Clock; log: Pick<FastifyBaseLogger, 'error'> }) {
    super(COMMISSION_ACCRUAL_JOB.pollMs, 'commission accrual job pass failed', deps.log);
  }

  /** Walks today's candidates once per day. */
  async runUntilDone(): Promise<number> {
    const today = todayInLimaBy(this.deps.clock);
    if (this.lastDay === today) return 0;
    const earned = await this.runPass();
    this.lastDay = today;
    return earned;
  }

  /** One walk over every sale with PROYECTADA commissions. @returns how many commissions became DEVENGADA. */
  async runPass(): Promise<number> {
    const { db, clock } = this.deps;
    const today = todayInLimaBy(clock);
    let after = 0;
    let earned = 0;
    for (;;) {
      if (this.stopped) break;
      const sales = await db
        .selectFrom('commissions')
        .innerJoin('sales', 'sales.id', 'commissions.sale_id')
        .select('commissions.sale_id')
        .distinct()
        .where('commissions.state', '=', 'PROYECTADA')
        .where('sales.status', 'not in', ['ANULADA', 'RESUELTA'])
        .where('commissions.sale_id', '>', after)
        .orderBy('commissions.sale_id')
        .limit(COMMISSION_ACCRUAL_JOB.salesPerTransaction)
        .execute();
      if (sales.length === 0) break;
      earned += await db.transaction().execute(async (trx) => {
        let n = 0;
        for (const s of sales) n += await accrueSaleCommissions(trx, s.sale_id, today);
        return n;
      });
      after = sales[sales.length - 1]!.sale_id;
    }
    return earned;
  }
}
