import { describe, expect, it } from 'vitest';
import { lotOptionsResponseSchema } from '../../src/schemas/comercio/lot-options';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { createLot, createRole, createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/** GET /api/lot-options: the lot picker of a quote made from a customer (issue "CRM and sales"). */

describe.each(dialects)('lot options (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  it('offers the Disponible and Separado lots whose code or subdivision matches, at most 20; a blank search is a 422', async () => {
    await createRole(db(), 'Vende opciones', [MODULE.comercial, SUBMODULE.ventas]);
    const staff = await createStaff(db(), { roleNames: ['Vende opciones'], clock: ctx().clock });
    const token = await createSession(db(), staff, { clock: ctx().clock });
    const subdivision = await createSubdivision(db(), { name: 'Brisas del Sur' });
    const ids: number[] = [];
    for (let k = 1; k <= 25; k++) ids.push(await createLot(db(), subdivision.id, { block: 'Q', number: String(k) }));
    await db().updateTable('lots').set({ status: 'VENDIDO' }).where('id', '=', ids[0]!).execute();
    await db().updateTable('lots').set({ status: 'SEPARADO' }).where('id', '=', ids[1]!).execute();
    const get = (q: string) =>
      ctx().app.inject({ method: 'GET', url: `/api/lot-options?q=${encodeURIComponent(q)}`, headers: bearer(token) });

    const byName = lotOptionsResponseSchema.parse((await get('brisas del')).json()).data;
    expect(byName).toHaveLength(20);
    expect(byName.every((l) => l.subdivision_name === 'Brisas del Sur' && l.list_price > 0)).toBe(true);
    expect(byName.map((l) => l.id)).not.toContain(ids[0]);
    const code = await db().selectFrom('lots').select('code').where('id', '=', ids[1]!).executeTakeFirstOrThrow();
    const byCode = lotOptionsResponseSchema.parse((await get(code.code)).json()).data;
    expect(byCode.map((l) => [l.id, l.status])).toContainEqual([ids[1], 'SEPARADO']);
    const sold = await db().selectFrom('lots').select('code').where('id', '=', ids[0]!).executeTakeFirstOrThrow();
    expect(lotOptionsResponseSchema.parse((await get(sold.code)).json()).data.map((l) => l.id)).not.toContain(ids[0]);
    expect((await get('%_')).statusCode).toBe(200);
    expect((await get('')).statusCode).toBe(422);
    const long = await get('x'.repeat(61));
    expect(long.statusCode).toBe(422);
    expect(long.json().message).toBe('Los datos enviados no son válidos');
    expect((await ctx().app.inject({ method: 'GET', url: '/api/lot-options?q=a&extra=1', headers: bearer(token) })).statusCode).toBe(422);
  });
});
