import type { Kysely } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { HOUR_MS, systemClock, todayInLimaBy } from '../../../server/clock';
import type { DB } from '../../../server/db/database';
import {
  createCrmCustomer,
  createLot,
  createPayment,
  createSession,
  createSubdivision,
  insertCashSale,
  type StaffFixture,
} from '../../../server/testing/fixtures';
import { INICIO_STATES } from '../inicio-states';

/** What the Inicio handlers need from the verification harness. */
export interface InicioStateDeps {
  /** The fresh database of the interaction. */
  db: () => Kysely<DB>;
  /** Creates STAFF (Administrador, with the company) and returns it. */
  staff: () => Promise<StaffFixture>;
  /** The state's `token` parameter (throws when missing). */
  tokenParam: (params: unknown) => string;
}

/** The provider states of Inicio's manager cards (tests/contract/inicio-states.ts), dated on the provider's clock. */
export function inicioStateHandlers(deps: InicioStateDeps): Record<string, (params?: unknown) => Promise<void>> {
  return {
    [INICIO_STATES.managerFigures]: async (params) => {
      const db = deps.db();
      const staff = await deps.staff();
      await createSession(db, staff, { token: deps.tokenParam(params) });
      const today = Temporal.PlainDate.from(todayInLimaBy(systemClock));
      const now = systemClock.now();
      const subdivisionId = (await createSubdivision(db, { currency: 'PEN' })).id;
      await createLot(db, subdivisionId, { block: 'A', number: '1' });
      const soldLot = await createLot(db, subdivisionId, { block: 'A', number: '2' });
      await db.updateTable('lots').set({ status: 'VENDIDO' }).where('id', '=', soldLot).execute();
      const saleId = await insertCashSale(db, {
        lotId: soldLot,
        subdivisionId,
        agentId: staff.id,
        saleDate: today.toString(),
        createdAt: now.toISOString(),
        titularId: await createCrmCustomer(db),
      });
      const instalment = { sale_id: saleId, kind: 'CUOTA', amount: 100_000, capital: 100_000, interest: 0 };
      await db
        .insertInto('sale_instalments')
        .values([
          { ...instalment, number: 1, due_date: today.subtract({ days: 45 }).toString(), status: 'VENCIDA' },
          { ...instalment, number: 2, due_date: today.with({ day: today.daysInMonth }).toString(), status: 'PENDIENTE' },
        ])
        .execute();
      await createPayment(db, { saleId, approved: true });
      await db
        .insertInto('leads')
        .values({
          name: 'Lead del tablero',
          phone: '987000222',
          email: null,
          id_document_type: null,
          document_number: null,
          channel: 'WEB',
          campaign: null,
          notes: null,
          agent_id: staff.id,
          lost_reason: null,
          next_follow_up_at: new Date(now.getTime() - HOUR_MS).toISOString(),
          customer_id: null,
          last_activity_at: null,
          received_at: now.toISOString(),
          created_by: staff.id,
          created_at: now.toISOString(),
          updated_at: now.toISOString(),
        })
        .execute();
    },
  };
}
