import type { Kysely } from 'kysely';
import type { DB } from '../../../server/db/database';
import { createLocal, createRole, createSession, createStaff, type StaffFixture } from '../../../server/testing/fixtures';
import type { Permission } from '../../../src/schemas/permissions';
import { OTHER_ROLE, OTHER_STAFF, STATES } from '../states';

/** What the Configuración handlers need from the verification harness. */
export interface ConfiguracionStateDeps {
  /** The fresh database of the interaction. */
  db: () => Kysely<DB>;
  /** Creates STAFF (Administrador, with the company) and returns it. */
  staff: () => Promise<StaffFixture>;
  /** The state's `token` parameter (throws when missing). */
  tokenParam: (params: unknown) => string;
}

/**
 * The provider states of Configuración (tests/contract/states.ts): the active locals of call 9
 * and a second staff user holding a second role (Usuarios, Roles y permisos).
 */
export function configuracionStateHandlers(deps: ConfiguracionStateDeps): Record<string, (params?: unknown) => Promise<void>> {
  return {
    [STATES.activeLocalsExist]: async () => {
      await createLocal(deps.db(), { name: 'Sede Central - Lima', address: 'Av. Javier Prado Este 1234, San Isidro' });
    },
    [STATES.staffAndHeldRole]: async (params) => {
      await createSession(deps.db(), await deps.staff(), { token: deps.tokenParam(params) });
      await createRole(deps.db(), OTHER_ROLE.name, OTHER_ROLE.permissions as readonly Permission[]);
      await createStaff(deps.db(), { ...OTHER_STAFF, roleNames: [OTHER_ROLE.name] });
    },
  };
}
