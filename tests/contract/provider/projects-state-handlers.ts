import type { Kysely } from 'kysely';
import type { DB } from '../../../server/db/database';
import { PROJECT_STATES } from '../projects-states';

/** What the Proyectos handlers need from the verification harness. */
export interface ProjectStateDeps {
  /** The fresh database of the interaction. */
  db: () => Kysely<DB>;
  /** Creates STAFF (Administrador) and returns what createSession needs. */
  signIn: (token: string) => Promise<void>;
  /** The state's `token` parameter (throws when missing). */
  tokenParam: (params: unknown) => string;
}

/**
 * One handler per PROJECT_STATES entry (tests/contract/projects-states.ts).
 * TODO(projects): create SUBDIVISION, its stage/blocks and LOTS through the server's repositories.
 */
export function projectStateHandlers(deps: ProjectStateDeps): Record<string, (params?: unknown) => Promise<void>> {
  return {
    [PROJECT_STATES.noSubdivisions]: async (params) => {
      await deps.signIn(deps.tokenParam(params));
    },
  };
}
