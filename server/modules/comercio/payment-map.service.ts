import { sql, type Kysely } from 'kysely';
import type { PaymentMap, PaymentMapLot } from '../../../src/schemas/comercio/payment-map';
import { paymentBucketOf, saleDaysLate, summariseBuckets } from '../../../src/lib/finanzas/payment-buckets';
import { todayInLimaBy } from '../../clock';
import type { DB } from '../../db/database';
import { displayName } from '../crm/customers.repository';
import { subdivisionNotFound, type ProjectsDeps } from '../proyectos/subdivisions.service';
import { saleNumber } from './sales.service';
import { ENDED_SALE_STATUSES } from '../../../src/schemas/comercio/sales';

/**
 * Mapa de Pagos (issue 16; docs/decisions.md "Mapa de Pagos"): the payment bucket of every sold
 * lot of a subdivision, read from `sale_instalments.paid` as it stands (every approval and
 * annulment writes it in its transaction), with today from the injected clock.
 *
 * Bounded: two queries per call whatever the number of lots — one grouped query over the
 * subdivision's live sales and their instalments (sales by `sales_subdivision_status_idx`, their
 * rows by `sale_instalments_sale_uq`), one for the holders' names — one row per live sale, so at
 * most one per lot of the subdivision. Never one query per lot.
 */

/** The facts of each live sale of a subdivision that a bucket is made of (one grouped query). */
export interface SalePaymentFacts {
  sale_id: number;
  lot_id: number;
  /** YYYY-MM-DD of the oldest instalment with paid < amount, null when none. */
  oldest_owed: string | null;
  /** Σ (amount − paid), céntimos. */
  balance: number;
  /** Σ (amount − paid) of the instalments due before `lateBefore`, céntimos. */
  overdue: number;
}

/**
 * Live sales (status not ANULADA) of subdivision `subdivisionId` with their oldest owed due date,
 * balance and overdue amount.
 * @param lateBefore YYYY-MM-DD: an instalment due before it is late (today: late from the day after the due date).
 */
export async function salePaymentFacts(db: Kysely<DB>, subdivisionId: number, lateBefore: string): Promise<SalePaymentFacts[]> {
  const owed = sql<number>`case when sale_instalments.paid < sale_instalments.amount then sale_instalments.amount - sale_instalments.paid else 0 end`;
  const rows = await db
    .selectFrom('sales')
    .leftJoin('sale_instalments', 'sale_instalments.sale_id', 'sales.id')
    .select([
      'sales.id as sale_id',
      'sales.lot_id',
      sql<string | null>`min(case when sale_instalments.paid < sale_instalments.amount then sale_instalments.due_date end)`.as(
        'oldest_owed',
      ),
      sql<number | string | null>`sum(${owed})`.as('balance'),
      sql<number | string | null>`sum(case when sale_instalments.due_date < ${lateBefore} then ${owed} else 0 end)`.as('overdue'),
    ])
    .where('sales.subdivision_id', '=', subdivisionId)
    .where('sales.status', 'not in', [...ENDED_SALE_STATUSES])
    .groupBy(['sales.id', 'sales.lot_id'])
    .orderBy('sales.lot_id')
    .execute();
  return rows.map((r) => ({
    sale_id: r.sale_id,
    lot_id: r.lot_id,
    oldest_owed: r.oldest_owed === null ? null : String(r.oldest_owed),
    balance: Number(r.balance ?? 0),
    overdue: Number(r.overdue ?? 0),
  }));
}

/** The holders' names of the subdivision's live sales, by sale, in the sale's order ("Ana Quispe, Luis Rojas"). */
async function buyersOf(db: Kysely<DB>, subdivisionId: number): Promise<Map<number, string>> {
  const rows = await db
    .selectFrom('sale_holders')
    .innerJoin('sales', 'sales.id', 'sale_holders.sale_id')
    .innerJoin('customers', 'customers.id', 'sale_holders.customer_id')
    .select(['sale_holders.sale_id', 'customers.name', 'customers.surname'])
    .where('sales.subdivision_id', '=', subdivisionId)
    .where('sales.status', 'not in', [...ENDED_SALE_STATUSES])
    .orderBy('sale_holders.sale_id')
    .orderBy('sale_holders.position')
    .execute();
  const names = new Map<number, string[]>();
  for (const r of rows) {
    const list = names.get(r.sale_id) ?? [];
    list.push(displayName(r));
    names.set(r.sale_id, list);
  }
  return new Map([...names].map(([id, list]) => [id, list.join(', ')]));
}

/**
 * The payment map of subdivision `id` (GET /api/subdivisions/{key}/payment-map) on today's date
 * in Lima by `deps.clock`.
 * @throws HttpError 404 when there is no such subdivision.
 */
export async function getPaymentMap(deps: ProjectsDeps, id: number): Promise<PaymentMap> {
  const head = await deps.db
    .selectFrom('subdivisions')
    .select(['name', 'currency', 'late_fee_grace_days'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!head) throw subdivisionNotFound();
  const today = todayInLimaBy(deps.clock);
  const grace = Number(head.late_fee_grace_days);
  // Days late count from the due date (docs/domain.md); the grace only delays the late fee.
  const [facts, buyers] = await Promise.all([salePaymentFacts(deps.db, id, today), buyersOf(deps.db, id)]);
  const lots = facts.map((f): PaymentMapLot => {
    const balance = Math.max(0, f.balance);
    return {
      lot_id: f.lot_id,
      sale_id: f.sale_id,
      sale_number: saleNumber(f.sale_id),
      buyer: buyers.get(f.sale_id) ?? '',
      bucket: paymentBucketOf({ oldestOwedDue: f.oldest_owed, balance }, today),
      days_late: saleDaysLate(f.oldest_owed, today),
      overdue: Math.max(0, f.overdue),
      balance,
      next_due_date: f.oldest_owed,
    };
  });
  return {
    subdivision: { key: deps.ids.encode(id), name: head.name, currency: head.currency, grace_days: grace },
    today,
    lots,
    summary: summariseBuckets(lots),
  };
}
