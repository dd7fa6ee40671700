import type { Kysely } from 'kysely';
import type { DB } from '../../../server/db/database';
import { TEMPLATE, TEMPLATE_STATES } from '../contract-templates-states';
import { createSubdivisionWithLots } from './projects-state-handlers';

/** What the template states need from the verification: the database and STAFF signed in with the param's token (its user id). */
export interface ContractTemplateStateDeps {
  db: () => Kysely<DB>;
  /** Signs STAFF (Administrador) in with the state's `token` param; resolves STAFF's user id. */
  signIn: (params?: unknown) => Promise<number>;
}

/**
 * The provider states of Generar Contrato → Plantillas (tests/contract/contract-templates-states.ts):
 * subdivision 1 (PROJECT_STATES' SUBDIVISION) and template version 1 of its COMPRAVENTA_CONTADO
 * family (TEMPLATE), BORRADOR or PUBLICADA by STAFF; with a draft version 2 for the refused new version.
 */
export function contractTemplateStateHandlers(d: ContractTemplateStateDeps): Record<string, (params?: unknown) => Promise<void>> {
  const stamp = '2026-03-01T17:00:00.000Z';
  const family = async (params: unknown, state: 'BORRADOR' | 'PUBLICADA') => {
    const staffId = await d.signIn(params);
    await createSubdivisionWithLots(d.db());
    await d
      .db()
      .insertInto('contract_templates')
      .values({
        subdivision_id: 1,
        kind: TEMPLATE.kind,
        name: TEMPLATE.name,
        version_number: 1,
        state,
        content: JSON.stringify(TEMPLATE.content),
        published_at: state === 'PUBLICADA' ? stamp : null,
        published_by: state === 'PUBLICADA' ? staffId : null,
        created_by: staffId,
        created_at: stamp,
        updated_at: stamp,
      })
      .execute();
    return staffId;
  };
  return {
    [TEMPLATE_STATES.draftTemplateExists]: async (params) => {
      await family(params, 'BORRADOR');
    },
    [TEMPLATE_STATES.publishedTemplateExists]: async (params) => {
      await family(params, 'PUBLICADA');
    },
    [TEMPLATE_STATES.publishedTemplateWithDraftExists]: async (params) => {
      const staffId = await family(params, 'PUBLICADA');
      await d
        .db()
        .insertInto('contract_templates')
        .values({
          subdivision_id: 1,
          kind: TEMPLATE.kind,
          name: TEMPLATE.name,
          version_number: 2,
          state: 'BORRADOR',
          content: JSON.stringify(TEMPLATE.content),
          published_at: null,
          published_by: null,
          created_by: staffId,
          created_at: stamp,
          updated_at: stamp,
        })
        .execute();
    },
  };
}
