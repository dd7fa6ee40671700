import { describe, expect, it } from 'vitest';
import {
  lotMapResponseSchema,
  lotStatusHistoryPageSchema,
  publicLotMapResponseSchema,
  subdivisionResponseSchema,
} from '../../src/schemas/proyectos/projects';
import { createSession, createStaff } from '../../server/testing/fixtures';
import { LOTS, PROJECT_STATES, SUBDIVISION, SUBDIVISION_KEY } from '../contract/projects-states';
import { projectStateHandlers } from '../contract/provider/projects-state-handlers';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { bearer, buildTestApp, createTestDatabase, dialects, useTestApp, useTestDatabase } from './harness';

/**
 * The Pact provider states of Proyectos (tests/contract/provider/projects-state-handlers.ts) create
 * exactly the data tests/contract/projects-states.ts promises, on a fresh database per state.
 */

const TOKEN = 'a'.repeat(64);

describe.each(dialects)('Proyectos provider states (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  const handlers = (getDb: () => ReturnType<typeof db>) =>
    projectStateHandlers({
      db: getDb,
      tokenParam: (params) => (params as { token: string }).token,
      signIn: async (token) => {
        await createSession(getDb(), await createStaff(getDb(), { permissions: [MODULE.proyectos, SUBMODULE.lotizaciones] }), { token });
      },
    });

  it('subdivisionWithLots: SUBDIVISION (id 1, SUBDIVISION_KEY) with blocks A/B, stage, LOTS and the creation history of LOTS[0]', async () => {
    await handlers(db)[PROJECT_STATES.subdivisionWithLots]!({ token: TOKEN });
    const headers = bearer(TOKEN);
    const res = await ctx().app.inject({ method: 'GET', url: `/api/subdivisions/${SUBDIVISION_KEY}`, headers });
    expect(res.statusCode, res.body).toBe(200);
    const { data } = subdivisionResponseSchema.parse(res.json());
    expect(data).toMatchObject(SUBDIVISION);
    expect(data.lot_counts).toMatchObject({ DISPONIBLE: 1, SEPARADO: 1, BLOQUEADO: 1 });

    const map = lotMapResponseSchema.parse(
      (await ctx().app.inject({ method: 'GET', url: `/api/subdivisions/${SUBDIVISION_KEY}/map`, headers })).json(),
    );
    expect(map.data.lots).toEqual(
      LOTS.map((l) => ({ ...l, land_use: 'VIVIENDA', polygon: l.polygon.map((p) => [...p]), sale_date: null, days_late: null })),
    );
    const blocks = (await ctx().app.inject({ method: 'GET', url: `/api/subdivisions/${SUBDIVISION_KEY}/blocks`, headers })).json();
    expect(blocks.data.map((b: { name: string; stage_id: number | null }) => [b.name, b.stage_id])).toEqual([
      ['A', 1],
      ['B', 1],
    ]);
    const stages = (await ctx().app.inject({ method: 'GET', url: `/api/subdivisions/${SUBDIVISION_KEY}/stages`, headers })).json();
    expect(stages.data).toEqual([{ id: 1, name: 'Etapa 1', position: 0, version: 1 }]);
    const historyPage = lotStatusHistoryPageSchema.parse(
      (await ctx().app.inject({ method: 'GET', url: '/api/lots/1/status-history', headers })).json(),
    );
    expect(historyPage.data).toEqual([expect.objectContaining({ from_status: null, to_status: 'DISPONIBLE' })]);
  });

  it('publishedSubdivision: the public map answers without a session; noSubdivisions: an empty list', async () => {
    const fresh = await createTestDatabase(dialect);
    try {
      await handlers(() => fresh.db)[PROJECT_STATES.publishedSubdivision]!();
      const { app } = await buildTestApp(fresh.db);
      try {
        const res = await app.inject({ method: 'GET', url: `/public/subdivisions/${SUBDIVISION_KEY}/map` });
        expect(res.statusCode, res.body).toBe(200);
        const { data } = publicLotMapResponseSchema.parse(res.json());
        expect(data.lots.map((l) => [l.code, l.status, l.list_price])).toEqual([
          ['MZ A - LT 1', 'DISPONIBLE', 3000000],
          ['MZ A - LT 2', 'SEPARADO', 3000000],
          ['MZ B - LT 1', 'VENDIDO', 4500000],
        ]);
      } finally {
        await app.close();
      }
    } finally {
      await fresh.destroy();
    }
    const empty = await createTestDatabase(dialect);
    try {
      await handlers(() => empty.db)[PROJECT_STATES.noSubdivisions]!({ token: TOKEN });
      const { app } = await buildTestApp(empty.db);
      try {
        const res = await app.inject({ method: 'GET', url: '/api/subdivisions', headers: bearer(TOKEN) });
        expect(res.json()).toMatchObject({ data: [], meta: { total: 0 } });
      } finally {
        await app.close();
      }
    } finally {
      await empty.destroy();
    }
  });
});
