import { commissionRow } from '../../../server/testing/fixtures';
import type { Kysely } from 'kysely';
import type { DB } from '../../../server/db/database';
import { SALE_DATE, STATES } from '../states';

/** What the commissions' handlers need from the verification harness. */
export interface CommissionsStateDeps {
  db: () => Kysely<DB>;
  /** STATES.saleExists's handler (sale 1 of lot 1 to the CRM customer by STAFF, STAFF signed in). */
  saleExists: (params?: unknown) => Promise<void>;
}

/** A minimal PDF: the approved settlement's voucher. */
const VOUCHER = Buffer.from('%PDF-1.4\n%%EOF\n');

/** The provider states of Administración → Comisiones y Pagos (tests/contract/states.ts). */
export function commissionsStateHandlers(d: CommissionsStateDeps): Record<string, (params?: unknown) => Promise<void>> {
  const stamp = `${SALE_DATE}T17:00:00.000Z`;
  const earned = async (params?: unknown) => {
    await d.saleExists(params);
    const sale = await d
      .db()
      .selectFrom('sales')
      .select(['subdivision_id', 'agent_id', 'final_price'])
      .where('id', '=', 1)
      .executeTakeFirstOrThrow();
    const agent = sale.agent_id ?? (await d.db().selectFrom('users').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    await d
      .db()
      .insertInto('commission_policies')
      .values({
        subdivision_id: sale.subdivision_id,
        role: 'ASESOR',
        base: 'PORCENTAJE',
        percent_bp: 300,
        amount: null,
        trigger_kind: 'INICIAL_APROBADA',
        trigger_percent_bp: null,
        tranches: JSON.stringify([{ share_bp: 10_000, at: 'TRIGGER' }]),
        created_by: null,
        created_at: stamp,
        updated_at: stamp,
      })
      .execute();
    await d
      .db()
      .insertInto('commissions')
      .values(
        commissionRow({
          sale_id: 1,
          user_id: agent,
          amount: 90_000,
          policy_id: 1,
          base: 'PORCENTAJE',
          percent_bp: 300,
          net_price: Number(sale.final_price),
          projected_on: SALE_DATE,
          created_at: stamp,
          updated_at: stamp,
        }),
      )
      .execute();
    return agent;
  };
  const settlement = async (params: unknown, state: 'BORRADOR' | 'APROBADA') => {
    const agent = await earned(params);
    const company = (await d.db().selectFrom('companies').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
    await d
      .db()
      .insertInto('commission_settlements')
      .values({
        company_id: company,
        currency: 'PEN',
        period_from: SALE_DATE,
        period_to: SALE_DATE,
        state,
        total: 90_000,
        note: null,
        approved_at: state === 'APROBADA' ? stamp : null,
        voucher_content_type: state === 'APROBADA' ? 'application/pdf' : null,
        voucher_size: state === 'APROBADA' ? VOUCHER.length : null,
        voucher_data: state === 'APROBADA' ? VOUCHER : null,
        created_by: null,
        created_at: stamp,
        updated_at: stamp,
      })
      .execute();
    await d
      .db()
      .insertInto('commission_settlement_agents')
      .values({ settlement_id: 1, user_id: agent, issues_fee_receipts: 0, lines: 1, gross: 90_000, withholding: 0, net: 90_000 })
      .execute();
    await d
      .db()
      .insertInto('commission_settlement_lines')
      .values({ settlement_id: 1, commission_id: 1, user_id: agent, amount: 90_000 })
      .execute();
    await d
      .db()
      .updateTable('commissions')
      .set({ settlement_id: 1, state: state === 'APROBADA' ? 'LIQUIDADA' : 'DEVENGADA' })
      .where('id', '=', 1)
      .execute();
  };
  return {
    [STATES.commissionEarned]: async (params) => {
      await earned(params);
    },
    [STATES.settlementDraftExists]: (params) => settlement(params, 'BORRADOR'),
    [STATES.settlementApprovedExists]: (params) => settlement(params, 'APROBADA'),
  };
}
