import type { Kysely } from 'kysely';
import type { DB } from '../../../server/db/database';
import { createCrmCustomer, createSession, type StaffFixture } from '../../../server/testing/fixtures';
import { CRM_CUSTOMER, STATES } from '../states';

/** What the CRM handlers need from the verification harness. */
export interface CrmStateDeps {
  /** The fresh database of the interaction. */
  db: () => Kysely<DB>;
  /** Creates STAFF (Administrador, with the company) and returns it. */
  staff: () => Promise<StaffFixture>;
  /** The state's `token` parameter (throws when missing). */
  tokenParam: (params: unknown) => string;
}

/** The provider states of CRM → Clientes (tests/contract/states.ts). */
export function crmStateHandlers(deps: CrmStateDeps): Record<string, (params?: unknown) => Promise<void>> {
  return {
    [STATES.crmCustomerExists]: async (params) => {
      await createSession(deps.db(), await deps.staff(), { token: deps.tokenParam(params) });
      await createCrmCustomer(deps.db(), { ...CRM_CUSTOMER });
    },
  };
}
