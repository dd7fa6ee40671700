import type { Kysely } from 'kysely';
import type { DB } from '../../../server/db/database';
import { createCrmCustomer, createSession, type StaffFixture } from '../../../server/testing/fixtures';
import { CRM_CUSTOMER, CRM_LEAD, STATES } from '../states';

/** What the CRM handlers need from the verification harness. */
export interface CrmStateDeps {
  /** The fresh database of the interaction. */
  db: () => Kysely<DB>;
  /** Creates STAFF (Administrador, with the company) and returns it. */
  staff: () => Promise<StaffFixture>;
  /** The state's `token` parameter (throws when missing). */
  tokenParam: (params: unknown) => string;
}

/** The provider states of CRM → Clientes and LEADS (tests/contract/states.ts). */
export function crmStateHandlers(deps: CrmStateDeps): Record<string, (params?: unknown) => Promise<void>> {
  return {
    [STATES.crmCustomerExists]: async (params) => {
      await createSession(deps.db(), await deps.staff(), { token: deps.tokenParam(params) });
      await createCrmCustomer(deps.db(), { ...CRM_CUSTOMER });
    },
    [STATES.leadExists]: async (params) => {
      const staff = await deps.staff();
      await createSession(deps.db(), staff, { token: deps.tokenParam(params) });
      const stamp = '2026-11-20T15:00:00.000Z';
      const { activity, ...lead } = CRM_LEAD;
      const { id } = await deps
        .db()
        .insertInto('leads')
        .values({
          ...lead,
          id_document_type: null,
          document_number: null,
          notes: null,
          agent_id: staff.id,
          lost_reason: null,
          next_follow_up_at: null,
          customer_id: null,
          last_activity_at: stamp,
          received_at: stamp,
          created_by: staff.id,
          created_at: stamp,
          updated_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await deps
        .db()
        .insertInto('lead_activities')
        .values({ lead_id: id, ...activity, occurred_at: stamp, user_id: staff.id, created_at: stamp })
        .execute();
    },
    [STATES.customerLeadExists]: async (params) => {
      const staff = await deps.staff();
      await createSession(deps.db(), staff, { token: deps.tokenParam(params) });
      const customerId = await createCrmCustomer(deps.db(), { ...CRM_CUSTOMER });
      const stamp = '2026-11-20T15:00:00.000Z';
      const { activity: _activity, ...lead } = CRM_LEAD;
      await deps
        .db()
        .insertInto('leads')
        .values({
          ...lead,
          status: 'CONCRETADO',
          id_document_type: null,
          document_number: null,
          notes: null,
          agent_id: staff.id,
          lost_reason: null,
          next_follow_up_at: null,
          customer_id: customerId,
          last_activity_at: stamp,
          received_at: stamp,
          created_by: staff.id,
          created_at: stamp,
          updated_at: stamp,
        })
        .execute();
    },
  };
}
