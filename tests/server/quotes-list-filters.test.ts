import { describe, expect, it } from 'vitest';
import { quotesPageSchema } from '../../src/schemas/comercio/quotes';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { createCrmCustomer, createLot, createRole, createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/**
 * The Cotizaciones tab of /COMERCIO/ventas filters GET /api/quotes by the lot's subdivision
 * (`subdivision_id`), alone or with the status; a bad id is a 422 in Spanish, never a 500.
 */
describe.each(dialects)('quotes by subdivision (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);
  let n = 0;

  async function seller() {
    const role = `Cotiza ${dialect} ${++n}`;
    await createRole(db(), role, [MODULE.comercial, SUBMODULE.ventas]);
    return createSession(db(), await createStaff(db(), { roleNames: [role], clock: ctx().clock }));
  }
  const send = (method: 'POST' | 'GET', url: string, token: string, payload?: object) =>
    ctx().app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

  it('lists only the quotes of lots of that subdivision, and with a status only those', async () => {
    const token = await seller();
    const [a, b] = [await createSubdivision(db()), await createSubdivision(db())];
    const customer = await createCrmCustomer(db());
    const quote = async (subdivisionId: number) => {
      const lot = await createLot(db(), subdivisionId, { block: 'Q', number: String(++n) });
      const res = await send('POST', '/api/quotes', token, { lot_id: lot, customer_id: customer, instalments: 0 });
      expect(res.statusCode, res.body).toBe(201);
      return quotesPageSchema.shape.data.element.parse(res.json().data);
    };
    const [a1, a2] = [await quote(a.id), await quote(a.id)];
    await quote(b.id);
    expect((await send('POST', `/api/quotes/${a2.id}/status`, token, { status: 'ENVIADA' })).statusCode).toBe(200);

    const all = quotesPageSchema.parse((await send('GET', `/api/quotes?subdivision_id=${a.id}&sort=created_at`, token)).json());
    expect(all.data.map((q) => q.id)).toEqual([a1.id, a2.id]);
    const sent = quotesPageSchema.parse((await send('GET', `/api/quotes?subdivision_id=${a.id}&status=ENVIADA`, token)).json());
    expect(sent.data.map((q) => q.id)).toEqual([a2.id]);
    const none = quotesPageSchema.parse((await send('GET', '/api/quotes?subdivision_id=999999', token)).json());
    expect(none.meta.total).toBe(0);
  });

  it('refuses a subdivision_id that is not a positive integer (422 in Spanish)', async () => {
    const token = await seller();
    for (const bad of ['x', '0', '-1']) {
      const res = await send('GET', `/api/quotes?subdivision_id=${bad}`, token);
      expect(res.statusCode, bad).toBe(422);
      expect(typeof res.json().message).toBe('string');
    }
  });
});
