import type { Kysely } from 'kysely';
import { commissionTotal, trancheAmounts, withholdingFor } from '../../../src/lib/administracion/commission-amounts';
import type { CommissionBase, CommissionRole, CommissionTrigger, TrancheMoment } from '../../../src/schemas/administracion/commissions';
import type { DB } from '../../db/database';

/**
 * The commissions' lifecycle hooks (docs/domain.md "Commissions"), each run inside the caller's
 * transaction so a commission changes with the sale or payment that moves it, or not at all:
 * - {@link projectSaleCommissions} — sale registered (server/modules/comercio/sales.service.ts
 *   `createSale`): one PROYECTADA row per active policy of the subdivision, beneficiary and tranche;
 * - {@link accrueSaleCommissions} — after approved money lands on the sale (payment approval,
 *   server/modules/finanzas/payments.service.ts `applyToSale`), at registration (a reservation's
 *   credit) and by the daily job (./commission-accrual-job.ts): PROYECTADA → DEVENGADA when the
 *   tranche's moment is met;
 * - {@link accrueContractSignedCommissions} — the contract of the sale became FIRMADO (to be called
 *   by the contracts' service): the CONTRATO_FIRMADO tranches are earned;
 * - {@link revertSaleCommissions} — the sale is ANULADA (sales.service.ts `annulSale`) or RESUELTA
 *   (the rescission): unpaid commissions become ANULADA, paid (or approved for payment) ones get a
 *   negative REVERTIDA line for the agent's next settlement.
 */

type Db = Kysely<DB>;

/** A stored date as `YYYY-MM-DD` (PostgreSQL may hand a date back as a Date or with a time). */
export const isoDay = (value: unknown): string | null =>
  value === null || value === undefined ? null : value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10);

/** A policy's tranche as stored in `commission_policies.tranches`. */
export interface StoredTranche {
  share_bp: number;
  at: TrancheMoment;
}

/** The tranches JSON of a policy, or the single tranche at the trigger when unreadable. */
export function parseTranches(text: string): StoredTranche[] {
  try {
    const value = JSON.parse(text) as unknown;
    if (
      Array.isArray(value) &&
      value.length > 0 &&
      value.every(
        (t) => typeof t === 'object' && t !== null && Number.isInteger(t.share_bp) && (t.at === 'TRIGGER' || t.at === 'CANCELADA'),
      )
    )
      return value as StoredTranche[];
  } catch {
    // fall through
  }
  return [{ share_bp: 10_000, at: 'TRIGGER' }];
}

/**
 * Who a policy of `role` pays on sale `saleId`, or null when nobody: ASESOR the selling agent
 * (`sales.agent_id`, docs/domain.md "Who is the selling agent"); JEFE_VENTAS that agent's sales head
 * (`users.sales_head_id`), when active; CAPTADOR the agent of the earliest lead converted into the
 * sale's titular (who captured the buyer), when active.
 */
export async function commissionBeneficiary(trx: Db, saleId: number, role: CommissionRole, agentId: number | null): Promise<number | null> {
  if (role === 'ASESOR') return agentId;
  if (role === 'JEFE_VENTAS') {
    if (agentId === null) return null;
    const head = await trx
      .selectFrom('users as agent')
      .innerJoin('users as head', 'head.id', 'agent.sales_head_id')
      .select('head.id')
      .where('agent.id', '=', agentId)
      .where('head.status', '=', 'ACTIVO')
      .executeTakeFirst();
    return head?.id ?? null;
  }
  const lead = await trx
    .selectFrom('sale_holders')
    .innerJoin('leads', 'leads.customer_id', 'sale_holders.customer_id')
    .innerJoin('users', 'users.id', 'leads.agent_id')
    .select('users.id')
    .where('sale_holders.sale_id', '=', saleId)
    .where('sale_holders.role', '=', 'TITULAR')
    .where('users.status', '=', 'ACTIVO')
    .orderBy('leads.received_at')
    .orderBy('leads.id')
    .executeTakeFirst();
  return lead?.id ?? null;
}

/**
 * Projects the commissions of a sale just registered (in `createSale`'s transaction): for each
 * active policy of the sale's subdivision with a beneficiary, the whole commission
 * (src/lib/administracion/commission-amounts.ts `commissionTotal`: percent of the net price
 * `final_price`, or the fixed amount) cut into the policy's tranches, one PROYECTADA row each. The
 * policy is copied onto the rows, so a later edit of the policy changes no sale already registered.
 * Then earns at once what the sale already meets ({@link accrueSaleCommissions}: a reservation's
 * credit may have paid the down payment).
 * @returns the rows inserted.
 */
export async function projectSaleCommissions(trx: Db, saleId: number, today: string): Promise<number> {
  const sale = await trx
    .selectFrom('sales')
    .select(['id', 'subdivision_id', 'agent_id', 'final_price', 'currency', 'status'])
    .where('id', '=', saleId)
    .executeTakeFirst();
  if (!sale || sale.status === 'ANULADA') return 0;
  const existing = await trx.selectFrom('commissions').select('id').where('sale_id', '=', saleId).executeTakeFirst();
  if (existing) return 0;
  const policies = await trx
    .selectFrom('commission_policies')
    .selectAll()
    .where('subdivision_id', '=', sale.subdivision_id)
    .where('active', '=', 1)
    .orderBy('id')
    .execute();
  const stamp = new Date().toISOString();
  const netPrice = Number(sale.final_price);
  let inserted = 0;
  for (const policy of policies) {
    const role = policy.role as CommissionRole;
    const userId = await commissionBeneficiary(trx, saleId, role, sale.agent_id);
    if (userId === null) continue;
    const base = policy.base as CommissionBase;
    const total = commissionTotal(base, Number(base === 'PORCENTAJE' ? policy.percent_bp : policy.amount), netPrice);
    const tranches = parseTranches(policy.tranches);
    const amounts = trancheAmounts(
      total,
      tranches.map((t) => t.share_bp),
    );
    await trx
      .insertInto('commissions')
      .values(
        tranches.map((t, i) => ({
          sale_id: saleId,
          policy_id: policy.id,
          user_id: userId,
          role,
          tranche: i + 1,
          tranche_count: tranches.length,
          tranche_share_bp: t.share_bp,
          tranche_at: t.at,
          trigger_kind: policy.trigger_kind,
          trigger_percent_bp: policy.trigger_percent_bp,
          base,
          percent_bp: policy.percent_bp,
          net_price: netPrice,
          amount: amounts[i]!,
          currency: sale.currency,
          state: 'PROYECTADA',
          reverses_id: null,
          settlement_id: null,
          projected_on: today,
          accrued_on: null,
          paid_on: null,
          annulled_on: null,
          reason: null,
          created_at: stamp,
          updated_at: stamp,
        })),
      )
      .execute();
    inserted += tranches.length;
  }
  if (inserted > 0) await accrueSaleCommissions(trx, saleId, today);
  return inserted;
}

/** What a sale has met, as its stored figures say (approved money only). */
interface SaleProgress {
  status: string;
  /** Every INICIAL row fully paid (true when the sale has none). */
  downPaymentPaid: boolean;
  /** Σ paid on its rows (approved payments' `to_capital`), céntimos. */
  paid: number;
  /** The price after discount, céntimos. */
  netPrice: number;
}

async function saleProgress(trx: Db, saleId: number): Promise<SaleProgress | null> {
  const sale = await trx.selectFrom('sales').select(['status', 'final_price']).where('id', '=', saleId).executeTakeFirst();
  if (!sale) return null;
  const rows = await trx.selectFrom('sale_instalments').select(['kind', 'amount', 'paid']).where('sale_id', '=', saleId).execute();
  return {
    status: sale.status,
    downPaymentPaid: rows.filter((r) => r.kind === 'INICIAL').every((r) => Number(r.paid) >= Number(r.amount)),
    paid: rows.reduce((sum, r) => sum + Number(r.paid), 0),
    netPrice: Number(sale.final_price),
  };
}

/**
 * Whether a tranche is earned: one at CANCELADA when the sale is CANCELADA (fully paid); one at the
 * trigger when INICIAL_APROBADA — the down payment's rows fully paid by approved money (or the sale
 * CANCELADA) —, PORCENTAJE_COBRADO — Σ approved money on the rows ≥ the percent of the net price —,
 * or CONTRATO_FIRMADO — only when `contractSigned` (the contracts' hook says so).
 */
export function trancheEarned(
  tranche: { tranche_at: string; trigger_kind: string; trigger_percent_bp: number | null },
  progress: SaleProgress,
  contractSigned: boolean,
): boolean {
  if (progress.status === 'ANULADA' || progress.status === 'RESUELTA') return false;
  const cancelled = progress.status === 'CANCELADA';
  if (tranche.tranche_at === 'CANCELADA') return cancelled;
  switch (tranche.trigger_kind as CommissionTrigger) {
    case 'INICIAL_APROBADA':
      return cancelled || progress.downPaymentPaid;
    case 'PORCENTAJE_COBRADO':
      // paid × 10 000 ≥ net × bp, in integers.
      return cancelled || progress.paid * 10_000 >= progress.netPrice * Number(tranche.trigger_percent_bp ?? 10_000);
    case 'CONTRATO_FIRMADO':
      return contractSigned;
    default:
      return false;
  }
}

/**
 * Earns the PROYECTADA commissions of sale `saleId` whose moment is met ({@link trancheEarned}):
 * DEVENGADA with `accrued_on` = `today`. Idempotent; an ANULADA or RESUELTA sale earns nothing.
 * Call it in the transaction that put approved money on the sale (the payment approval).
 * @param options.contractSigned the sale's contract is FIRMADO (CONTRATO_FIRMADO tranches earn).
 * @returns how many became DEVENGADA.
 */
export async function accrueSaleCommissions(
  trx: Db,
  saleId: number,
  today: string,
  options: { contractSigned?: boolean } = {},
): Promise<number> {
  const projected = await trx
    .selectFrom('commissions')
    .select(['id', 'tranche_at', 'trigger_kind', 'trigger_percent_bp'])
    .where('sale_id', '=', saleId)
    .where('state', '=', 'PROYECTADA')
    .execute();
  if (projected.length === 0) return 0;
  const progress = await saleProgress(trx, saleId);
  if (!progress) return 0;
  const earned = projected.filter((c) => trancheEarned(c, progress, options.contractSigned ?? false)).map((c) => c.id);
  if (earned.length === 0) return 0;
  const result = await trx
    .updateTable('commissions')
    .set((eb) => ({ state: 'DEVENGADA', accrued_on: today, updated_at: new Date().toISOString(), version: eb('version', '+', 1) }))
    .where('id', 'in', earned)
    .where('state', '=', 'PROYECTADA')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * The contract of sale `saleId` became FIRMADO (the contracts' service calls this in its
 * transaction): earns its CONTRATO_FIRMADO tranches, and whatever else it meets.
 * @returns how many became DEVENGADA.
 */
export function accrueContractSignedCommissions(trx: Db, saleId: number, today: string): Promise<number> {
  return accrueSaleCommissions(trx, saleId, today, { contractSigned: true });
}

/**
 * Figures a settlement's per-agent totals and its total again from its lines (withholding by
 * src/lib/administracion/commission-amounts.ts `withholdingFor`, with each agent's recibos por
 * honorarios flag as stored on the settlement's agent row); agents left without lines are removed.
 */
export async function refreshSettlementTotals(trx: Db, settlementId: number): Promise<void> {
  const settlement = await trx.selectFrom('commission_settlements').select(['currency']).where('id', '=', settlementId).executeTakeFirst();
  if (!settlement) return;
  const sums = await trx
    .selectFrom('commission_settlement_lines')
    .select(['user_id', (eb) => eb.fn.sum<number | string>('amount').as('gross'), (eb) => eb.fn.countAll<number | string>().as('lines')])
    .where('settlement_id', '=', settlementId)
    .groupBy('user_id')
    .execute();
  const agents = await trx
    .selectFrom('commission_settlement_agents')
    .select(['user_id', 'issues_fee_receipts'])
    .where('settlement_id', '=', settlementId)
    .execute();
  let total = 0;
  let withheld = 0;
  for (const agent of agents) {
    const sum = sums.find((s) => s.user_id === agent.user_id);
    if (!sum) {
      await trx
        .deleteFrom('commission_settlement_agents')
        .where('settlement_id', '=', settlementId)
        .where('user_id', '=', agent.user_id)
        .execute();
      continue;
    }
    const figures = withholdingFor(Number(sum.gross), agent.issues_fee_receipts === 1, settlement.currency);
    total += figures.gross;
    withheld += figures.withholding;
    await trx
      .updateTable('commission_settlement_agents')
      .set({ gross: figures.gross, withholding: figures.withholding, net: figures.net, lines: Number(sum.lines) })
      .where('settlement_id', '=', settlementId)
      .where('user_id', '=', agent.user_id)
      .execute();
  }
  await trx.updateTable('commission_settlements').set({ total, withholding: withheld }).where('id', '=', settlementId).execute();
}

/** Counts of {@link revertSaleCommissions}. */
export interface CommissionReversal {
  /** Commissions not yet paid that became ANULADA. */
  annulled: number;
  /** Negative REVERTIDA lines put for the agents' next settlement. */
  reversed: number;
}

/**
 * The sale `saleId` was annulled or resolved (in that transaction): its commissions not yet paid —
 * PROYECTADA, DEVENGADA (also one in a BORRADOR settlement, whose line is removed and totals
 * refigured) — become ANULADA with `reason`; the ones already paid, or LIQUIDADA in an APROBADA
 * settlement about to be paid, get a negative REVERTIDA line of the same amount for the
 * beneficiary's next settlement (unique `reverses_id`: never twice). Idempotent.
 * @returns how many were annulled and reversed.
 */
export async function revertSaleCommissions(trx: Db, saleId: number, reason: string, today: string): Promise<CommissionReversal> {
  const stamp = new Date().toISOString();
  const rows = await trx
    .selectFrom('commissions')
    .leftJoin('commission_settlements as s', 's.id', 'commissions.settlement_id')
    .select([
      'commissions.id',
      'commissions.state',
      'commissions.settlement_id',
      's.state as settlement_state',
      'commissions.amount',
      'commissions.user_id',
      'commissions.role',
      'commissions.tranche',
      'commissions.tranche_count',
      'commissions.tranche_share_bp',
      'commissions.tranche_at',
      'commissions.trigger_kind',
      'commissions.trigger_percent_bp',
      'commissions.base',
      'commissions.percent_bp',
      'commissions.net_price',
      'commissions.currency',
      'commissions.policy_id',
    ])
    .where('commissions.sale_id', '=', saleId)
    .where('commissions.state', 'in', ['PROYECTADA', 'DEVENGADA', 'LIQUIDADA', 'PAGADA'])
    .execute();
  const reversedAlready = new Set(
    (
      await trx.selectFrom('commissions').select('reverses_id').where('sale_id', '=', saleId).where('reverses_id', 'is not', null).execute()
    ).map((r) => r.reverses_id),
  );
  const drafts = new Set<number>();
  let annulled = 0;
  let reversed = 0;
  for (const c of rows) {
    const paidOrApproved = c.state === 'PAGADA' || c.state === 'LIQUIDADA';
    if (!paidOrApproved) {
      if (c.settlement_id !== null) {
        await trx.deleteFrom('commission_settlement_lines').where('commission_id', '=', c.id).execute();
        drafts.add(c.settlement_id);
      }
      await trx
        .updateTable('commissions')
        .set((eb) => ({
          state: 'ANULADA',
          annulled_on: today,
          reason,
          settlement_id: null,
          updated_at: stamp,
          version: eb('version', '+', 1),
        }))
        .where('id', '=', c.id)
        .execute();
      annulled += 1;
      continue;
    }
    if (reversedAlready.has(c.id) || Number(c.amount) === 0) continue;
    await trx
      .insertInto('commissions')
      .values({
        sale_id: saleId,
        policy_id: c.policy_id,
        user_id: c.user_id,
        role: c.role,
        tranche: c.tranche,
        tranche_count: c.tranche_count,
        tranche_share_bp: c.tranche_share_bp,
        tranche_at: c.tranche_at,
        trigger_kind: c.trigger_kind,
        trigger_percent_bp: c.trigger_percent_bp,
        base: c.base,
        percent_bp: c.percent_bp,
        net_price: Number(c.net_price),
        amount: -Number(c.amount),
        currency: c.currency,
        state: 'REVERTIDA',
        reverses_id: c.id,
        settlement_id: null,
        projected_on: today,
        accrued_on: today,
        paid_on: null,
        annulled_on: null,
        reason,
        created_at: stamp,
        updated_at: stamp,
      })
      .execute();
    reversed += 1;
  }
  for (const settlementId of drafts) await refreshSettlementTotals(trx, settlementId);
  return { annulled, reversed };
}
