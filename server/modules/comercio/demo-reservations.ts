import type { Kysely } from 'kysely';
import { DAY_MS, type Clock } from '../../clock';
import type { DB } from '../../db/database';

/**
 * Demo reservations (issue "CRM and sales", demo seed): every SEPARADO lot of the demo
 * subdivisions gets a live reservation (PENDIENTE_PAGO) of a customer entered by staff, made 0–6
 * days before the seed with the default 7-day hold, so the demo's reservations expire over its
 * first week (and the expiry job frees those lots, as it would in production). Amount: S/ 500 or
 * US$ 200 in céntimos. Deterministic (customers in order, days by position). No change history:
 * seed data.
 * @param agentId the demo agent, or null.
 */
export async function seedDemoReservations(db: Kysely<DB>, clock: Clock, agentId: number | null): Promise<number> {
  const lots = await db
    .selectFrom('lots')
    .innerJoin('subdivisions', 'subdivisions.id', 'lots.subdivision_id')
    .select(['lots.id', 'subdivisions.currency'])
    .where('lots.status', '=', 'SEPARADO')
    .orderBy('lots.id')
    .execute();
  const customers = await db
    .selectFrom('customers')
    .select('id')
    .where('password_hash', 'is', null)
    .where('status', '=', 'ACTIVO')
    .orderBy('id')
    .execute();
  if (customers.length === 0 || lots.length === 0) return 0;
  const now = clock.now().getTime();
  for (const [i, lot] of lots.entries()) {
    const created = new Date(now - (i % 7) * DAY_MS - (i % 5) * 3_600_000);
    await db
      .insertInto('reservations')
      .values({
        customer_id: customers[i % customers.length]!.id,
        lot_id: lot.id,
        agent_id: agentId,
        amount: lot.currency === 'USD' ? 20_000 : 50_000,
        currency: lot.currency,
        hold_days: 7,
        expires_at: new Date(created.getTime() + 7 * DAY_MS).toISOString(),
        status: 'PENDIENTE_PAGO',
        conditions_accepted_at: created.toISOString(),
        created_by: agentId,
        created_at: created.toISOString(),
        updated_at: created.toISOString(),
      })
      .execute();
  }
  return lots.length;
}
