import type { Kysely } from 'kysely';
import type { DB } from '../../../server/db/database';
import { newTitleProcessRow } from '../../../server/modules/administracion/titles.service';
import { SALE_DATE, STATES } from '../states';

/** What the Administración handlers need from the verification harness. */
export interface AdministracionStateDeps {
  db: () => Kysely<DB>;
  /** STATES.saleExists's handler (sale 1 of lot 1 to the CRM customer, STAFF signed in). */
  saleExists: (params?: unknown) => Promise<void>;
}

/** The provider states of Administración → Registros de partidas y títulos (tests/contract/states.ts). */
export function administracionStateHandlers(d: AdministracionStateDeps): Record<string, (params?: unknown) => Promise<void>> {
  return {
    [STATES.titleProcessExists]: async (params) => {
      await d.saleExists(params);
      await d.db().updateTable('sales').set({ status: 'CANCELADA' }).where('id', '=', 1).execute();
      const stamp = `${SALE_DATE}T17:00:00.000Z`;
      await d
        .db()
        .insertInto('title_processes')
        .values(newTitleProcessRow({ saleId: 1, stateSince: SALE_DATE, stamp, createdBy: null }))
        .execute();
      await d
        .db()
        .insertInto('title_events')
        .values({
          process_id: 1,
          from_state: null,
          to_state: 'PENDIENTE',
          date: SALE_DATE,
          details: '{}',
          note: null,
          user_id: null,
          created_at: stamp,
        })
        .execute();
    },
  };
}
