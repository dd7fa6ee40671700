import type { Kysely } from 'kysely';
import { recordChange } from '../../../server/audit/audit';
import type { DB } from '../../../server/db/database';
import { createSession, type StaffFixture } from '../../../server/testing/fixtures';
import { HISTORY_ENTRY, STATES } from '../states';

/** What the Historial de cambios handler needs from the verification harness. */
export interface HistorialStateDeps {
  /** The fresh database of the interaction. */
  db: () => Kysely<DB>;
  /** Creates STAFF (Administrador, with the company) and returns it. */
  staff: () => Promise<StaffFixture>;
  /** The state's `token` parameter (throws when missing). */
  tokenParam: (params: unknown) => string;
}

/** The provider state of Historial de cambios: STAFF signed in and HISTORY_ENTRY recorded by them. */
export function historialStateHandlers(deps: HistorialStateDeps): Record<string, (params?: unknown) => Promise<void>> {
  return {
    [STATES.changeHistoryExists]: async (params) => {
      const owner = await deps.staff();
      await createSession(deps.db(), owner, { token: deps.tokenParam(params) });
      const clock = { now: () => new Date(HISTORY_ENTRY.occurred_at) };
      await deps
        .db()
        .transaction()
        .execute((trx) =>
          recordChange(
            trx,
            { actor: { userType: 'COLLABORATOR', accountId: owner.accountId }, ip: '127.0.0.1', clock },
            {
              entity: HISTORY_ENTRY.entity,
              recordId: HISTORY_ENTRY.record_id,
              action: HISTORY_ENTRY.action,
              before: { ...HISTORY_ENTRY.before },
              after: { ...HISTORY_ENTRY.after },
            },
          ),
        );
    },
  };
}
