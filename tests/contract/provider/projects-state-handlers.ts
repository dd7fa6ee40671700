import type { Kysely } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { todayInLima } from '../../../src/lib/dates';
import type { DB } from '../../../server/db/database';
import { createBlock, createLot, createStage, createSubdivision } from '../../../server/testing/fixtures';
import { LOTS, PROJECT_STATES, SUBDIVISION } from '../projects-states';

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
 * Creates SUBDIVISION (id 1 in the fresh database, so its key is SUBDIVISION_KEY), stage "Etapa 1"
 * (id 1), blocks A (id 1) and B (id 2) in that stage, and LOTS (ids 1–3, in order) with their
 * polygons and statuses. LOTS[0] keeps only its creation history row; the others also get the row
 * of their change from DISPONIBLE.
 * @throws Error when the ids do not come out as promised (the database was not fresh).
 */
export async function createSubdivisionWithLots(db: Kysely<DB>): Promise<void> {
  const { id: _id, key: _key, ...fields } = SUBDIVISION;
  const subdivision = await createSubdivision(db, fields);
  if (subdivision.id !== SUBDIVISION.id || subdivision.key !== SUBDIVISION.key)
    throw new Error(`subdivision id ${subdivision.id}, expected ${SUBDIVISION.id}`);
  const stageId = await createStage(db, subdivision.id, 'Etapa 1');
  for (const block of ['A', 'B']) await createBlock(db, subdivision.id, block, { stageId });
  for (const lot of LOTS) {
    const id = await createLot(db, subdivision.id, {
      block: lot.block,
      number: lot.number,
      area_m2: lot.area_m2,
      price_per_m2: lot.price_per_m2,
      list_price: lot.list_price,
      status: lot.status,
      polygon: lot.polygon,
    });
    if (id !== lot.id) throw new Error(`lot id ${id}, expected ${lot.id}`);
  }
}

/** One handler per PROJECT_STATES entry (tests/contract/projects-states.ts). */
export function projectStateHandlers(deps: ProjectStateDeps): Record<string, (params?: unknown) => Promise<void>> {
  return {
    [PROJECT_STATES.noSubdivisions]: async (params) => {
      await deps.signIn(deps.tokenParam(params));
    },
    [PROJECT_STATES.subdivisionWithLots]: async (params) => {
      await deps.signIn(deps.tokenParam(params));
      await createSubdivisionWithLots(deps.db());
    },
    [PROJECT_STATES.pendingLotHold]: async (params) => {
      await deps.signIn(deps.tokenParam(params));
      await createSubdivisionWithLots(deps.db());
      const until = Temporal.PlainDate.from(todayInLima(new Date())).add({ days: 30 }).toString();
      await deps
        .db()
        .insertInto('lot_holds')
        .values({
          lot_id: LOTS[0]!.id,
          status: 'RESERVA_COMERCIAL',
          state: 'PENDIENTE',
          reason: 'Cliente corporativo',
          until,
          requested_by: null,
          requested_at: new Date().toISOString(),
          decided_by: null,
          decided_at: null,
          decision_reason: null,
        })
        .execute();
    },
    [PROJECT_STATES.publishedSubdivision]: async () => {
      await createSubdivisionWithLots(deps.db());
    },
  };
}
