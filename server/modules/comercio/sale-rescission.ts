import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import { LIVE_SALE_STATUSES, type Sale } from '../../../src/schemas/comercio/sales';
import { RESCISSION_MESSAGES, type rescindSaleRequestSchema, type SaleRescission } from '../../../src/schemas/comercio/rescissions';
import { paidShareBlocks, paidSharePercent, splitPaid, unpaidRows } from '../../../src/lib/comercio/rescission';
import { recordChange, staffActorId, type AuditContext } from '../../audit/audit';
import { todayInLimaBy } from '../../clock';
import type { AppDeps } from '../../context';
import { DASHBOARD_CARDS_MOVED, publishDashboardChanged } from '../inicio/dashboard-events';
import type { DB } from '../../db/database';
import { assertVersionedUpdate, nextVersion } from '../../db/versions';
import { conflict, fieldError, notFound } from '../../errors';
import { moveLot } from './lot-moves';
import { applySettlement, approvedPaidOn } from './sale-settlement';
import { resolveSaleContract } from '../administracion/contract-lifecycle';
import { revertSaleCommissions } from '../administracion/commission-lifecycle';
import { generateSaleDocument } from '../administracion/sale-documents';
import { getSale, saleNumber } from './sales.service';

/**
 * Rescission of a sale for unpaid instalments — resolución por incumplimiento (Código Civil arts.
 * 1561–1563; docs/domain.md "Rescission"; the pure rules: src/lib/comercio/rescission.ts).
 */

/** Parsed POST /api/sales/{id}/rescind body. */
export type RescindSaleBody = z.output<typeof rescindSaleRequestSchema>;

/** What a rescission reads of a sale, figured on `asOf`. */
interface RescissionFacts {
  preview: SaleRescission;
  lotId: number;
}

/**
 * The rescission figures of sale `saleId` on today (Lima), read through `db` (the caller's
 * transaction when confirming): the unpaid rows with their days late, the overdue count against
 * the subdivision's threshold (art. 1561), the approved money paid and its share of the price
 * against the paid-share limit (art. 1562), the penalty at the subdivision's percent, half-up, and
 * the refund (art. 1563); `allowed` and the Spanish `reasons` when not.
 * @returns undefined for an unknown sale.
 */
async function rescissionFacts(db: Kysely<DB>, deps: Pick<AppDeps, 'clock'>, saleId: number): Promise<RescissionFacts | undefined> {
  const sale = await db
    .selectFrom('sales')
    .innerJoin('subdivisions', 'subdivisions.id', 'sales.subdivision_id')
    .select([
      'sales.id',
      'sales.lot_id',
      'sales.status',
      'sales.currency',
      'sales.final_price',
      'sales.version',
      'subdivisions.rescission_overdue_instalments',
      'subdivisions.rescission_paid_share_limit_pct',
      'subdivisions.rescission_penalty_pct',
    ])
    .where('sales.id', '=', saleId)
    .executeTakeFirst();
  if (!sale) return undefined;
  const today = todayInLimaBy(deps.clock);
  const rows = await db
    .selectFrom('sale_instalments')
    .select(['kind', 'number', 'due_date', 'amount', 'paid'])
    .where('sale_id', '=', saleId)
    .execute();
  const ordered = rows
    .map((r) => ({ kind: r.kind, number: r.number, dueDate: r.due_date, amountCents: Number(r.amount), paidCents: Number(r.paid) }))
    .sort((a, b) => (a.kind === b.kind ? a.number - b.number : a.kind === 'INICIAL' ? -1 : 1));
  const unpaid = unpaidRows(ordered, today);
  const overdue = unpaid.filter((r) => r.overdue).length;
  const required = Number(sale.rescission_overdue_instalments);
  const limit = sale.rescission_paid_share_limit_pct === null ? null : Number(sale.rescission_paid_share_limit_pct);
  const percent = Number(sale.rescission_penalty_pct);
  const paid = (await approvedPaidOn(db, saleId)).total;
  const paidToPrice = ordered.reduce((sum, r) => sum + r.paidCents, 0);
  const finalPrice = Number(sale.final_price);
  const { penaltyCents, refundCents } = splitPaid(paid, percent);
  const reasons: string[] = [];
  if (!(LIVE_SALE_STATUSES as readonly string[]).includes(sale.status)) reasons.push(RESCISSION_MESSAGES.notLive);
  else {
    if (overdue < required) reasons.push(`${RESCISSION_MESSAGES.tooFewOverdue} (${overdue} de ${required}, art. 1561)`);
    if (paidShareBlocks(paidToPrice, finalPrice, limit))
      reasons.push(`${RESCISSION_MESSAGES.paidShareLimit}: pagado ${paidSharePercent(paidToPrice, finalPrice)} %, límite ${limit} %`);
  }
  return {
    lotId: sale.lot_id,
    preview: {
      sale_id: sale.id,
      number: saleNumber(sale.id),
      status: sale.status,
      currency: sale.currency,
      allowed: reasons.length === 0,
      reasons,
      as_of: today,
      required_overdue: required,
      overdue_instalments: overdue,
      instalments: unpaid.map((r) => ({
        kind: r.kind,
        number: r.number,
        due_date: r.dueDate,
        amount: r.amountCents,
        paid: r.paidCents,
        unpaid: r.unpaidCents,
        days_late: r.daysLate,
        overdue: r.overdue,
      })),
      unpaid_amount: unpaid.reduce((sum, r) => sum + r.unpaidCents, 0),
      final_price: finalPrice,
      paid,
      paid_to_price: paidToPrice,
      paid_share_percent: paidSharePercent(paidToPrice, finalPrice),
      paid_share_limit_pct: limit,
      penalty_pct: percent,
      penalty: penaltyCents,
      refund: refundCents,
      version: sale.version,
    },
  };
}

/**
 * GET /api/sales/{id}/rescission: whether the sale may be resolved today (Código Civil art. 1561:
 * at least the subdivision's number of instalments overdue and unpaid, default 3; art. 1562: not
 * once the buyer paid the subdivision's share of the price, when it sets one) and with what money
 * (art. 1563: the penalty, the subdivision's percent of the approved money paid, and the refund).
 * @throws HttpError 404 unknown sale.
 */
export async function saleRescission(deps: Pick<AppDeps, 'db' | 'clock'>, saleId: number): Promise<SaleRescission> {
  const facts = await rescissionFacts(deps.db, deps, saleId);
  if (!facts) throw notFound();
  return facts.preview;
}

/**
 * Resolves a defaulting buyer's sale (POST /api/sales/{id}/rescind; Código Civil arts. 1561–1563,
 * the resolution clause of the contract; docs/domain.md "Rescission"). In one transaction:
 * checks the preview's rules ({@link saleRescission}: 409 with its Spanish reason when not allowed,
 * nothing written), the penalty (at most the subdivision's percent of what was paid; 422 on
 * `penalty`) and the refund (paid − penalty; 422 on `refund`); claims the sale's row with a
 * conditional UPDATE to RESUELTA (of two rescissions, or a rescission and an annulment, one wins:
 * 409; a stale `version` is the usual 409); **counts again after the claim** — a payment approved
 * meanwhile either landed before the claim (then the count or the money changed: 409, all rolled
 * back) or finds the sale RESUELTA and is refused (payments.service.ts `applyToSale`); frees the
 * lot VENDIDO → DISPONIBLE with its history row; takes the approved money off the sale as an
 * annulment's REEMBOLSO settlement does (./sale-settlement.ts `applySettlement`: the payments
 * ANULADO with a reason naming the rescission, the instalments released, `sale_settlements` with
 * the penalty kept as income and the refund owed); stores `sale_rescissions` (counts, money, the
 * overdue rows as JSON for the letter of art. 1429, reason, the approver = the caller holding
 * 'Resolver contratos'); writes the change history. Then, committed, the letter of resolution
 * (../administracion/sale-documents.ts `generateSaleDocument`).
 * @throws HttpError 404; 409 not allowed, lost race, stale, or changed meanwhile; 422 penalty/refund.
 */
export async function rescindSale(
  deps: Pick<AppDeps, 'db' | 'clock' | 'documents'> & Partial<Pick<AppDeps, 'broadcaster'>>,
  audit: AuditContext,
  id: number,
  body: RescindSaleBody,
): Promise<Sale> {
  await deps.db.transaction().execute((trx) => rescindSaleIn(trx, deps, audit, id, body));
  // Committed: Inicio's cards reload (docs/dashboard.md "Realtime: DashboardChanged").
  await publishDashboardChanged(deps, DASHBOARD_CARDS_MOVED.saleEnded);
  // After the commit (docs/domain.md "Rescission and rescheduling: their documents"): the letter of
  // art. 1429 from the subdivision's published CARTA_RESOLUCION template, with the figures just
  // stored; the PDF is made off the event loop, outside the rescission's transaction. Without a
  // template (or with data missing) the rescission stands and the answer says the letter is pending.
  await generateSaleDocument(deps, audit, id, 'CARTA_RESOLUCION');
  return getSale(deps, id);
}

/** {@link rescindSale}'s work inside the caller's transaction `trx` (the demo seed runs it in its own). */
export async function rescindSaleIn(
  trx: Kysely<DB>,
  deps: Pick<AppDeps, 'clock'>,
  audit: AuditContext,
  id: number,
  body: RescindSaleBody,
): Promise<void> {
  {
    const checked = await rescissionFacts(trx, deps, id);
    if (!checked) throw notFound();
    const seen = checked.preview;
    if (!seen.allowed) throw conflict(seen.reasons.join('; '));
    const penalty = body.penalty ?? seen.penalty;
    if (penalty > seen.penalty) throw fieldError('penalty', `${RESCISSION_MESSAGES.penaltyTooHigh} (${seen.penalty_pct} %)`);
    if (body.refund !== undefined && body.refund !== seen.paid - penalty) throw fieldError('refund', RESCISSION_MESSAGES.refundMismatch);
    const before = await trx.selectFrom('sales').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const stamp = deps.clock.now().toISOString();
    const claimed = await trx
      .updateTable('sales')
      .set({ status: 'RESUELTA', updated_at: stamp, version: nextVersion() })
      .where('id', '=', id)
      .where('status', 'in', [...LIVE_SALE_STATUSES])
      .$if(body.version !== undefined, (q) => q.where('version', '=', body.version ?? 0))
      .executeTakeFirstOrThrow();
    if (claimed.numUpdatedRows === 0n) {
      const row = await trx.selectFrom('sales').select('status').where('id', '=', id).executeTakeFirst();
      if (row && !(LIVE_SALE_STATUSES as readonly string[]).includes(row.status)) throw conflict(RESCISSION_MESSAGES.notLive);
      await assertVersionedUpdate(trx, 'sales', id, claimed, notFound);
    }
    // After the claim: what a payment approved meanwhile changed is seen here (PostgreSQL: the
    // claim waited for its commit; SQLite: one writer at a time).
    const now = (await rescissionFacts(trx, deps, id))!.preview;
    if (now.overdue_instalments < now.required_overdue || now.overdue_instalments !== seen.overdue_instalments)
      throw conflict(RESCISSION_MESSAGES.countChanged);
    if (now.paid !== seen.paid) throw conflict(RESCISSION_MESSAGES.paidChanged);

    const number = saleNumber(id);
    await moveLot(trx, audit, checked.lotId, 'VENDIDO', 'DISPONIBLE', `Venta ${number} resuelta: ${body.reason}`);
    const refund = seen.paid - penalty;
    const settlementId =
      seen.paid > 0
        ? await applySettlement(
            trx,
            deps,
            audit,
            { id, number, currency: before.currency },
            { mode: 'REEMBOLSO', paid: seen.paid, penalty, refund, credited: 0, targetSaleId: null },
            body.reason,
            'resuelta',
          )
        : null;
    // The money released, the rows say what is unpaid again (an ended sale's figures are not refigured later).
    const today = todayInLimaBy(deps.clock);
    await trx
      .updateTable('sale_instalments')
      .set({
        status: sql<string>`case when paid >= amount then 'PAGADA' when due_date < ${today} then 'VENCIDA' when paid > 0 then 'PARCIAL' else 'PENDIENTE' end`,
      })
      .where('sale_id', '=', id)
      .execute();
    const actor = staffActorId(audit);
    const overdueDetail = seen.instalments
      .filter((r) => r.overdue)
      .map((r) => ({ kind: r.kind, number: r.number, due_date: r.due_date, amount: r.amount, unpaid: r.unpaid, days_late: r.days_late }));
    const stored = await trx
      .insertInto('sale_rescissions')
      .values({
        sale_id: id,
        currency: before.currency,
        overdue_instalments: seen.overdue_instalments,
        required_overdue: seen.required_overdue,
        unpaid_instalments: seen.instalments.length,
        unpaid_amount: seen.unpaid_amount,
        paid: seen.paid,
        penalty_pct: seen.penalty_pct,
        penalty,
        refund,
        detail: JSON.stringify(overdueDetail),
        settlement_id: settlementId,
        reason: body.reason,
        approved_by: actor,
        created_by: actor,
        created_at: stamp,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordChange(trx, audit, {
      entity: 'sale_rescissions',
      recordId: stored.id,
      action: 'CREATE',
      after: await trx.selectFrom('sale_rescissions').selectAll().where('id', '=', stored.id).executeTakeFirst(),
    });
    await recordChange(trx, audit, {
      entity: 'sales',
      recordId: id,
      action: 'UPDATE',
      before,
      after: await trx.selectFrom('sales').selectAll().where('id', '=', id).executeTakeFirst(),
    });
    // In this same transaction (docs/domain.md "Rescission"): the sale's contract RESUELTO (a draft
    // ANULADO) and its commissions ANULADA, or REVERTIDA lines for the paid ones.
    await resolveSaleContract(trx, id, actor, body.reason, audit);
    await revertSaleCommissions(trx, id, body.reason, today);
  }
}
