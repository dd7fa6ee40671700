import { sql, type Kysely } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { systemAuditContext, type AuditContext } from '../../audit/audit';
import { todayInLimaBy, type Clock } from '../../clock';
import type { DB } from '../../db/database';
import type { WorkerPool } from '../../platform/worker-pool';
import { generateSaleDocument } from '../administracion/sale-documents';
import { rescindSaleIn } from './sale-rescission';
import { rescheduleSaleIn } from './sale-reschedule';

/**
 * The sales one of whose holders has a portal account (the demo customer's purchases), as a
 * subquery of `sale_id`: the demo keeps them for the customer screens (their overdue rows, their
 * signed contract).
 */
export function portalCustomerSales(db: Kysely<DB>) {
  return db
    .selectFrom('sale_holders')
    .innerJoin('customers', 'customers.id', 'sale_holders.customer_id')
    .select('sale_holders.sale_id')
    .where('customers.password_hash', 'is not', null);
}

/**
 * The demo's rescission and adenda targets (docs/domain.md "Rescission", "Rescheduling (adenda)"):
 * the first financed sale with at least its subdivision's number of overdue instalments (due before
 * today, unpaid) to resolve, and the first other financed sale EN_CUOTAS with an overdue instalment
 * to reschedule — never a sale of a customer with a portal account. Read-only, so the steps before the rescission (commissions, contracts) can prepare
 * them: the seed changes no instalment between them.
 * @returns the two sales (id, status, version), either undefined when no sale fits.
 */
export async function demoRescissionTargets(trx: Kysely<DB>, clock: Clock) {
  const today = todayInLimaBy(clock);
  /** Financed live sales with their overdue (due before today, unpaid) rows, first ids first. */
  const overdue = await trx
    .selectFrom('sales')
    .innerJoin('subdivisions', 'subdivisions.id', 'sales.subdivision_id')
    .innerJoin('sale_instalments as i', 'i.sale_id', 'sales.id')
    .select(['sales.id', 'sales.status', 'sales.version', 'subdivisions.rescission_overdue_instalments as required'])
    .select(sql<number>`count(*)`.as('overdue'))
    .where('sales.type', '=', 'FINANCIADO')
    .where('sales.status', 'in', ['INICIAL_PENDIENTE', 'EN_CUOTAS'])
    .where('i.due_date', '<', today)
    .whereRef('i.paid', '<', 'i.amount')
    // Not a sale of a customer with a portal account (the demo customer's purchase keeps its overdue
    // instalments for the customer screens: Detalle de Compra, PagoYape).
    .where('sales.id', 'not in', portalCustomerSales(trx))
    .groupBy(['sales.id', 'sales.status', 'sales.version', 'subdivisions.rescission_overdue_instalments'])
    .orderBy('sales.id')
    .limit(200)
    .execute();
  const toResolve = overdue.find((s) => Number(s.overdue) >= Number(s.required));
  const toReschedule = overdue.find((s) => s.id !== toResolve?.id && s.status === 'EN_CUOTAS');
  return { toResolve, toReschedule };
}

/**
 * Demo rescission and adenda (docs/domain.md "Rescission", "Rescheduling (adenda)"), through the
 * services themselves so every invariant holds: the first financed sale with at least its
 * subdivision's number of overdue instalments is resolved (RESUELTA, its lot DISPONIBLE again, its
 * money settled), and the first other financed sale EN_CUOTAS with an overdue instalment gets an
 * adenda (24 French instalments at 1.25 % from next month, late fees carried); never a sale of a
 * customer with a portal account. Two sales: the seed stays fast. Run after the demo payments, in the seed's transaction.
 * With `documents`, each event's document follows as the services make it after their commit
 * (docs/domain.md "Rescission and rescheduling: their documents"): the notarial letter of
 * resolution and the adenda, issued from the subdivision's published templates (the demo's, when
 * the seed made them: demo-contracts.ts), here inside the seed's transaction.
 * @param actorId the staff user who resolves and reschedules (the demo administrator), or null.
 * @param documents the documents' pool the letter's and the adenda's PDFs are rendered on; none → no documents.
 * @returns the ids touched (null when no sale fits).
 */
export async function seedDemoRescissions(
  trx: Kysely<DB>,
  clock: Clock,
  actorId: number | null,
  documents?: WorkerPool,
): Promise<{ resolved: number | null; rescheduled: number | null }> {
  const audit: AuditContext = {
    ...systemAuditContext(clock),
    actor: actorId === null ? null : { userType: 'COLLABORATOR', accountId: actorId },
  };
  const today = todayInLimaBy(clock);
  const { toResolve, toReschedule } = await demoRescissionTargets(trx, clock);
  if (toResolve) {
    await rescindSaleIn(trx, { clock }, audit, toResolve.id, {
      reason: 'Incumplimiento de pago: cuotas vencidas e impagas pese a los requerimientos (demo)',
    });
    if (documents) await generateSaleDocument({ db: trx, clock, documents }, audit, toResolve.id, 'CARTA_RESOLUCION');
  }
  if (toReschedule) {
    const rescheduleId = await rescheduleSaleIn(trx, { clock }, audit, toReschedule.id, {
      method: 'FRANCES',
      instalments: 24,
      monthly_rate_percent: '1.25',
      first_due_date: Temporal.PlainDate.from(today).add({ months: 1 }).toString(),
      late_fees: 'CARRY',
      reason: 'Adenda: el titular pidió ampliar el plazo por reducción de ingresos (demo)',
      version: toReschedule.version,
    });
    if (documents) await generateSaleDocument({ db: trx, clock, documents }, audit, toReschedule.id, 'ADENDA', rescheduleId);
  }
  return { resolved: toResolve?.id ?? null, rescheduled: toReschedule?.id ?? null };
}
