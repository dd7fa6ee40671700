import type { Kysely } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { HOUR_MS, systemClock, todayInLimaBy } from '../../../server/clock';
import type { DB } from '../../../server/db/database';
import { refreshSaleLateFees } from '../../../server/modules/finanzas/late-fees.service';
import { commissionRow, createLot, createPayment } from '../../../server/testing/fixtures';
import { INICIO_QUEUE_STATES } from '../inicio-queues-states';
import { SALE_DATE } from '../states';

/** What Inicio's queue handlers need from the verification harness. */
export interface InicioQueuesStateDeps {
  db: () => Kysely<DB>;
  /** STATES.saleExists's handler (sale 1 of lot 1 to the CRM customer by STAFF, STAFF signed in). */
  saleExists: (params?: unknown) => Promise<void>;
}

/** The provider states of Inicio's agent and collector cards (tests/contract/inicio-queues-states.ts). */
export function inicioQueuesStateHandlers(d: InicioQueuesStateDeps): Record<string, (params?: unknown) => Promise<void>> {
  return {
    [INICIO_QUEUE_STATES.queuesHaveRows]: async (params) => {
      await d.saleExists(params);
      const db = d.db();
      const now = systemClock.now();
      const stamp = now.toISOString();
      const today = todayInLimaBy(systemClock);
      const staffId = (await db.selectFrom('users').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
      // Due soon: a CUOTA in 3 days; the down payment (due SALE_DATE) is VENCIDA once figured for today.
      await db
        .insertInto('sale_instalments')
        .values({
          sale_id: 1,
          kind: 'CUOTA',
          number: 1,
          due_date: Temporal.PlainDate.from(today).add({ days: 3 }).toString(),
          amount: 10_000,
          capital: 10_000,
          interest: 0,
        })
        .execute();
      await db.transaction().execute((trx) => refreshSaleLateFees(trx, 1, today));
      await createPayment(db, { saleId: 1 });
      const subdivision = (await db.selectFrom('lots').select('subdivision_id').where('id', '=', 1).executeTakeFirstOrThrow())
        .subdivision_id;
      const lotId = await createLot(db, subdivision, { block: 'Q', number: '1' });
      await db
        .insertInto('reservations')
        .values({
          customer_id: 1,
          lot_id: lotId,
          agent_id: staffId,
          amount: 50_000,
          currency: 'PEN',
          hold_days: 3,
          expires_at: new Date(now.getTime() + 24 * HOUR_MS).toISOString(),
          status: 'VIGENTE',
          conditions_accepted_at: stamp,
          created_by: staffId,
          created_at: stamp,
          updated_at: stamp,
        })
        .execute();
      await db
        .insertInto('leads')
        .values({
          name: 'Jorge Quispe',
          phone: '987444555',
          email: null,
          id_document_type: null,
          document_number: null,
          channel: 'FACEBOOK',
          campaign: null,
          notes: null,
          agent_id: staffId,
          status: 'POR_ATENDER',
          lost_reason: null,
          next_follow_up_at: new Date(now.getTime() - 2 * HOUR_MS).toISOString(),
          customer_id: null,
          last_activity_at: null,
          received_at: stamp,
          created_by: staffId,
          created_at: stamp,
          updated_at: stamp,
        })
        .execute();
      const sale = await db.selectFrom('sales').select('final_price').where('id', '=', 1).executeTakeFirstOrThrow();
      await db
        .insertInto('commissions')
        .values(
          commissionRow({
            sale_id: 1,
            user_id: staffId,
            amount: 90_000,
            net_price: Number(sale.final_price),
            projected_on: SALE_DATE,
            created_at: stamp,
            updated_at: stamp,
          }),
        )
        .execute();
    },
  };
}
