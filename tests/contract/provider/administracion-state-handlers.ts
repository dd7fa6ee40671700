import type { Kysely } from 'kysely';
import type { DB } from '../../../server/db/database';
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
        .values({
          sale_id: 1,
          state: 'PENDIENTE',
          state_since: SALE_DATE,
          retention_pact_note: null,
          notes: null,
          minuta_signed_on: null,
          notary: null,
          escritura_number: null,
          escritura_date: null,
          titulo_number: null,
          presented_on: null,
          observation: null,
          reentry_on: null,
          mayor_derecho_amount: null,
          mayor_derecho_currency: null,
          mayor_derecho_paid_on: null,
          partida: null,
          asiento: null,
          inscribed_on: null,
          delivery_reference: null,
          delivered_on: null,
          created_by: null,
          created_at: stamp,
          updated_at: stamp,
        })
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
