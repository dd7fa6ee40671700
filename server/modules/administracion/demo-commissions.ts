import type { Kysely } from 'kysely';
import type { Clock } from '../../clock';
import { todayInLimaBy } from '../../clock';
import type { DB } from '../../db/database';
import { findMainCompanyId } from '../configuracion/companies.repository';
import { demoRescissionTargets } from '../comercio/demo-rescissions';
import { projectSaleCommissions, refreshSettlementTotals } from './commission-lifecycle';

/**
 * Demo commissions (docs/domain.md "Commissions"): policies for every demo subdivision — ASESOR 3 %
 * of the net price, half at the down payment and half when the sale is paid off; JEFE_VENTAS a fixed
 * S/ 150.00 (US$ 50.00) at the down payment —; the demo agent reports to the administrator (their
 * sales head) and issues recibos por honorarios. Every demo sale gets its commissions as the sales
 * service would give them (PROYECTADA, DEVENGADA when its money already meets the trigger); then the
 * agent's oldest earned commissions are settled and paid (settlement PAGADA, with a PDF voucher) and
 * the next ones settled and approved (LIQUIDADA), so the screen shows every live state. The paid
 * settlement also pays an earned commission of the sale the demo rescission resolves later
 * (demo-rescissions.ts): the rescission then voids that sale's unpaid commissions (ANULADA) and
 * puts a negative REVERTIDA line for the one paid — every state of docs/domain.md "Commissions".
 */

/** A minimal PDF: the paid demo settlement's voucher. */
const DEMO_VOUCHER = Buffer.from('%PDF-1.4\n% Comprobante de transferencia (demo)\n%%EOF\n');

/**
 * Seeds the demo commissions (inside the seed's transaction).
 * @param agentId the demo agent; @param adminId the administrator (the agent's sales head).
 */
export async function seedDemoCommissions(db: Kysely<DB>, clock: Clock, agentId: number | null, adminId: number | null): Promise<void> {
  const stamp = clock.now().toISOString();
  const today = todayInLimaBy(clock);
  if (agentId !== null)
    await db.updateTable('users').set({ sales_head_id: adminId, issues_fee_receipts: 1 }).where('id', '=', agentId).execute();
  const subdivisions = await db.selectFrom('subdivisions').select(['id', 'currency']).orderBy('id').execute();
  for (const s of subdivisions)
    await db
      .insertInto('commission_policies')
      .values([
        {
          subdivision_id: s.id,
          role: 'ASESOR',
          base: 'PORCENTAJE',
          percent_bp: 300,
          amount: null,
          trigger_kind: 'INICIAL_APROBADA',
          trigger_percent_bp: null,
          tranches: JSON.stringify([
            { share_bp: 5_000, at: 'TRIGGER' },
            { share_bp: 5_000, at: 'CANCELADA' },
          ]),
          created_by: adminId,
          created_at: stamp,
          updated_at: stamp,
        },
        {
          subdivision_id: s.id,
          role: 'JEFE_VENTAS',
          base: 'MONTO_FIJO',
          percent_bp: null,
          amount: s.currency === 'USD' ? 5_000 : 15_000,
          trigger_kind: 'INICIAL_APROBADA',
          trigger_percent_bp: null,
          tranches: JSON.stringify([{ share_bp: 10_000, at: 'TRIGGER' }]),
          created_by: adminId,
          created_at: stamp,
          updated_at: stamp,
        },
      ])
      .execute();
  const sales = await db.selectFrom('sales').select('id').where('status', '!=', 'ANULADA').orderBy('id').execute();
  for (const sale of sales) await projectSaleCommissions(db, sale.id, today);

  // The agent's earned PEN commissions, oldest first: four paid in one settlement, the next three approved.
  if (agentId === null) return;
  const company = await findMainCompanyId(db);
  if (company === undefined) return;
  const earned = await db
    .selectFrom('commissions')
    .select(['id', 'amount', 'user_id'])
    .where('user_id', '=', agentId)
    .where('state', '=', 'DEVENGADA')
    .where('currency', '=', 'PEN')
    .orderBy('id')
    .limit(7)
    .execute();
  const settle = async (rows: { id: number; amount: number; user_id: number }[], state: 'APROBADA' | 'PAGADA') => {
    if (rows.length === 0) return;
    const { id } = await db
      .insertInto('commission_settlements')
      .values({
        company_id: company,
        currency: 'PEN',
        period_from: `${today.slice(0, 7)}-01`,
        period_to: today,
        state,
        note: state === 'PAGADA' ? 'Liquidación de demostración' : null,
        approved_by: adminId,
        approved_at: stamp,
        operation_number: state === 'PAGADA' ? 'OP-DEMO-0001' : null,
        paid_on: state === 'PAGADA' ? today : null,
        paid_by: state === 'PAGADA' ? adminId : null,
        voucher_content_type: state === 'PAGADA' ? 'application/pdf' : null,
        voucher_size: state === 'PAGADA' ? DEMO_VOUCHER.length : null,
        voucher_data: state === 'PAGADA' ? DEMO_VOUCHER : null,
        created_by: adminId,
        created_at: stamp,
        updated_at: stamp,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const users = await db
      .selectFrom('users')
      .select(['id', 'issues_fee_receipts'])
      .where(
        'id',
        'in',
        rows.map((r) => r.user_id),
      )
      .execute();
    await db
      .insertInto('commission_settlement_agents')
      .values(
        users.map((u) => ({
          settlement_id: id,
          user_id: u.id,
          issues_fee_receipts: u.issues_fee_receipts,
          lines: 0,
          gross: 0,
          withholding: 0,
          net: 0,
        })),
      )
      .execute();
    await db
      .insertInto('commission_settlement_lines')
      .values(rows.map((r) => ({ settlement_id: id, commission_id: r.id, user_id: r.user_id, amount: Number(r.amount) })))
      .execute();
    await db
      .updateTable('commissions')
      .set({ settlement_id: id, state: state === 'PAGADA' ? 'PAGADA' : 'LIQUIDADA', paid_on: state === 'PAGADA' ? today : null })
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    await refreshSettlementTotals(db, id);
  };
  // One earned PEN commission of the sale the rescission resolves, paid with them (REVERTIDA later).
  const { toResolve } = await demoRescissionTargets(db, clock);
  const resolved =
    toResolve === undefined
      ? []
      : await db
          .selectFrom('commissions')
          .select(['id', 'amount', 'user_id'])
          .where('sale_id', '=', toResolve.id)
          .where('state', '=', 'DEVENGADA')
          .where('currency', '=', 'PEN')
          .where('id', 'not in', [0, ...earned.map((r) => r.id)])
          .orderBy('id')
          .limit(1)
          .execute();
  await settle([...earned.slice(0, 4), ...resolved], 'PAGADA');
  await settle(earned.slice(4, 7), 'APROBADA');
}
