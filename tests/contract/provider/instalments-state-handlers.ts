import type { Kysely } from 'kysely';
import { systemClock, todayInLimaBy } from '../../../server/clock';
import type { DB } from '../../../server/db/database';
import { refreshSaleLateFees } from '../../../server/modules/finanzas/late-fees.service';
import { STATES } from '../states';

/** What the Registro de Cuotas handlers need from the verification harness. */
export interface InstalmentsStateDeps {
  db: () => Kysely<DB>;
  /** The handler of STATES.saleOfMarch2026Exists (comercio-state-handlers.ts): STAFF signed in, sale 1 dated 2026-03-15. */
  saleOfMarch2026Exists: (params?: unknown) => Promise<void>;
}

/**
 * The provider states of Finanzas → Registro de Cuotas (tests/contract/states.ts): the sale's late
 * fees figured for today as the daily job does (server/modules/finanzas/late-fee-job.ts).
 */
export function instalmentsStateHandlers(deps: InstalmentsStateDeps): Record<string, (params?: unknown) => Promise<void>> {
  return {
    [STATES.overdueInstalmentExists]: async (params) => {
      await deps.saleOfMarch2026Exists(params);
      await deps
        .db()
        .transaction()
        .execute((trx) => refreshSaleLateFees(trx, 1, todayInLimaBy(systemClock)));
    },
  };
}
