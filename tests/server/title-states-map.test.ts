import { describe, expect, it } from 'vitest';
import { lotTitleStatesResponseSchema, TITLE_STATES, type LotTitleState, type TitleState } from '../../src/schemas/administracion/titles';
import { saleResponseSchema, type Sale } from '../../src/schemas/comercio/sales';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { newTitleProcessRow } from '../../server/modules/administracion/titles.service';
import { createCrmCustomer, createLot, createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/**
 * The heat map's "Estado del título" (docs/decisions.md "Heat map: title state"): GET
 * /api/subdivisions/{key}/title-states answers, for each lot of the subdivision whose live sale has
 * a title process, that process's state; lots unsold, sold without a process, or whose sale with a
 * process was annulled are absent; only for who may see the titles.
 */
describe.each(dialects)('title states of the heat map (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);
  let n = 0;

  const get = (url: string, token: string) => ctx().app.inject({ method: 'GET', url, headers: bearer(token) });
  const seller = async () => createSession(db(), await createStaff(db(), { permissions: [MODULE.comercial, SUBMODULE.ventas] }));
  const titles = async () =>
    createSession(db(), await createStaff(db(), { permissions: [MODULE.administracion, SUBMODULE.partidasTitulos] }));

  async function sell(token: string, subdivisionId: number): Promise<{ lot: number; sale: Sale }> {
    const lot = await createLot(db(), subdivisionId, { block: 'TS', number: String(++n) });
    const res = await ctx().app.inject({
      method: 'POST',
      url: '/api/sales',
      headers: bearer(token),
      payload: {
        lot_id: lot,
        holders: [{ customer_id: await createCrmCustomer(db()), role: 'TITULAR', share_percent: '100' }],
        instalments: 0,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    return { lot, sale: saleResponseSchema.parse(res.json()).data };
  }
  /** A title process of `saleId` in `state` since `since`. */
  async function process(saleId: number, state: TitleState, since: string) {
    const stamp = new Date().toISOString();
    const { id } = await db()
      .insertInto('title_processes')
      .values(newTitleProcessRow({ saleId, stateSince: since, stamp, createdBy: null }))
      .returning('id')
      .executeTakeFirstOrThrow();
    await db().updateTable('title_processes').set({ state }).where('id', '=', id).execute();
  }
  async function states(token: string, key: string): Promise<LotTitleState[]> {
    const res = await get(`/api/subdivisions/${key}/title-states`, token);
    expect(res.statusCode, res.body).toBe(200);
    return lotTitleStatesResponseSchema.parse(res.json()).data;
  }

  it("answers each sold lot's process state, by lot, and leaves out lots without a live sale's process", async () => {
    const token = await seller();
    const s = await createSubdivision(db());
    // One sold lot per state, each process since a different day.
    const withProcess: Array<{ lot: number; state: TitleState; since: string }> = [];
    for (const [i, state] of TITLE_STATES.entries()) {
      const { lot, sale } = await sell(token, s.id);
      const since = `2026-03-${String(i + 1).padStart(2, '0')}`;
      await process(sale.id, state, since);
      withProcess.push({ lot, state, since });
    }
    // Sold without a process; a sale with a process, annulled; an unsold lot; another subdivision's sold lot with a process.
    const noProcess = await sell(token, s.id);
    const annulled = await sell(token, s.id);
    await process(annulled.sale.id, 'INSCRITO', '2026-03-20');
    const annul = await ctx().app.inject({
      method: 'POST',
      url: `/api/sales/${annulled.sale.id}/annul`,
      headers: bearer(token),
      payload: { reason: 'Desistimiento' },
    });
    expect(annul.statusCode, annul.body).toBe(200);
    const unsold = await createLot(db(), s.id, { block: 'TS', number: String(++n) });
    const other = await createSubdivision(db());
    const elsewhere = await sell(token, other.id);
    await process(elsewhere.sale.id, 'ENTREGADO', '2026-03-21');

    const answer = await states(await titles(), s.key);
    expect(answer).toEqual(
      withProcess.map((p) => ({ lot_id: p.lot, state: p.state, state_since: p.since })).sort((a, b) => a.lot_id - b.lot_id),
    );
    const lots = new Set(answer.map((r) => r.lot_id));
    for (const absent of [noProcess.lot, annulled.lot, unsold, elsewhere.lot]) expect(lots.has(absent)).toBe(false);
    // The other subdivision answers its own lot only.
    expect(await states(await titles(), other.key)).toEqual([{ lot_id: elsewhere.lot, state: 'ENTREGADO', state_since: '2026-03-21' }]);
  });

  it('is for who may see the titles (403 for the sales maps alone) and 404 for an unknown subdivision', async () => {
    const s = await createSubdivision(db());
    expect((await get(`/api/subdivisions/${s.key}/title-states`, await seller())).statusCode).toBe(403);
    const token = await titles();
    expect(await states(token, s.key)).toEqual([]);
    expect((await get('/api/subdivisions/no-such-key/title-states', token)).statusCode).toBe(404);
    await db().deleteFrom('subdivisions').where('id', '=', s.id).execute();
    expect((await get(`/api/subdivisions/${s.key}/title-states`, token)).statusCode).toBe(404);
  });
});
