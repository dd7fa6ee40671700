import { describe, expect, it } from 'vitest';
import { PORTAL_SALES_MESSAGES, portalSubdivisionsResponseSchema } from '../../src/schemas/comercio/portal-sales';
import { ACTION, MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { toFlag } from '../../server/db/portable';
import { createCustomer, createLot, createRole, createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { PORTAL_CAMPAIGN } from '../../server/modules/comercio/portal-sales.service';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/** Ventas for customers: /api/customer/subdivisions and /api/customer/reservation-requests (issue "CRM and sales"). */

describe.each(dialects)('portal sales (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  it('lists the published subdivisions on sale, and turns a request into a lead for the agent whose turn it is', async () => {
    await createRole(db(), 'Asesor portal', [MODULE.crm, SUBMODULE.leads]);
    await createRole(db(), 'Jefe portal', [MODULE.crm, SUBMODULE.leads, ACTION.supervisarLeads]);
    const first = await createStaff(db(), { roleNames: ['Asesor portal'], clock: ctx().clock });
    const second = await createStaff(db(), { roleNames: ['Asesor portal'], clock: ctx().clock });
    await createStaff(db(), { roleNames: ['Jefe portal'], clock: ctx().clock });
    const customer = await createCustomer(db(), { clock: ctx().clock });
    const token = await createSession(db(), customer, { clock: ctx().clock });
    const staffToken = await createSession(db(), first, { clock: ctx().clock });

    const subdivision = await createSubdivision(db());
    const hidden = await createSubdivision(db());
    const lots = [];
    for (let k = 1; k <= 4; k++) lots.push(await createLot(db(), subdivision.id, { block: 'A', number: String(k) }));
    await createLot(db(), hidden.id, { block: 'A', number: '1' });
    await db().updateTable('lots').set({ status: 'VENDIDO' }).where('id', '=', lots[3]!).execute();
    await db()
      .updateTable('subdivisions')
      .set({ published: toFlag(true), public_prices: toFlag(true) })
      .where('id', '=', subdivision.id)
      .execute();
    const codes = await db().selectFrom('lots').select(['id', 'code']).where('subdivision_id', '=', subdivision.id).orderBy('id').execute();

    const send = (method: 'GET' | 'POST', url: string, auth: string, payload?: object) =>
      ctx().app.inject({ method, url, headers: bearer(auth), ...(payload ? { payload } : {}) });
    const list = await send('GET', '/api/customer/subdivisions', token);
    expect(list.statusCode, list.body).toBe(200);
    const rows = portalSubdivisionsResponseSchema.parse(list.json()).data;
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ name: expect.any(String), available_lots: 3, currency: 'PEN' });
    expect(rows[0]!.price_from).toBeGreaterThan(0);
    expect(JSON.stringify(list.json())).not.toMatch(/"id"|agent/);
    expect((await send('GET', '/api/customer/subdivisions', staffToken)).statusCode).toBe(403);

    const key = rows[0]!.key;
    const ask = (code: string, extra: object = {}) =>
      send('POST', '/api/customer/reservation-requests', token, { subdivision_key: key, lot_code: code, ...extra });
    const res = await ask(codes[0]!.code, { instalments: 24, down_payment_percent: 20, message: 'Llamar en la tarde' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ data: { message: PORTAL_SALES_MESSAGES.requested } });
    expect((await ask(codes[0]!.code)).json()).toMatchObject({ message: PORTAL_SALES_MESSAGES.alreadyRequested });
    expect((await ask(codes[1]!.code)).statusCode).toBe(201);
    expect((await ask(codes[2]!.code)).statusCode).toBe(201);

    const leads = await db()
      .selectFrom('leads')
      .select(['agent_id', 'customer_id', 'channel', 'campaign', 'notes', 'status'])
      .where('campaign', '=', PORTAL_CAMPAIGN)
      .orderBy('id')
      .execute();
    // In turn among the plain agents (the supervisor is not one), the first again on the third.
    expect(leads.map((l) => l.agent_id)).toEqual([first.id, second.id, first.id]);
    expect(leads[0]).toMatchObject({ customer_id: customer.id, channel: 'WEB', status: 'POR_ATENDER' });
    expect(leads[0]!.notes).toContain(`Solicita separar el lote ${codes[0]!.code}`);
    expect(leads[0]!.notes).toContain('inicial 20 % y 24 cuotas');
    expect(leads[0]!.notes).toContain('Llamar en la tarde');
    const notified = await db().selectFrom('notifications').select('recipient_id').where('route', 'like', '/CRM/LEADS?lead=%').execute();
    expect(notified.map((n) => n.recipient_id).sort()).toEqual([first.id, first.id, second.id].sort());

    // Sold, unknown, unpublished or malformed: 4xx, nothing created.
    expect((await ask(codes[3]!.code)).json()).toMatchObject({ message: PORTAL_SALES_MESSAGES.unavailable });
    expect((await ask('ZZ-99')).statusCode).toBe(404);
    expect((await send('POST', '/api/customer/reservation-requests', token, { subdivision_key: 'x', lot_code: 'A-1' })).statusCode).toBe(
      404,
    );
    expect((await ask(codes[1]!.code, { agent_id: 1 })).statusCode).toBe(422);
    expect((await ask('', {})).statusCode).toBe(422);
    const oversized = await ask(codes[1]!.code, { message: 'x'.repeat(501), instalments: 361 });
    expect(oversized.statusCode).toBe(422);
    expect(oversized.json().errors.message).toEqual(['Máximo 500 caracteres']);
    expect((await ask('L'.repeat(41))).statusCode).toBe(422);
    expect((await send('POST', '/api/customer/reservation-requests', token, { subdivision_key: key, lot_code: 5 })).statusCode).toBe(422);
    expect((await send('POST', '/api/customer/reservation-requests', staffToken, { subdivision_key: key, lot_code: 'x' })).statusCode).toBe(
      403,
    );
    expect(await db().selectFrom('leads').select('id').where('campaign', '=', PORTAL_CAMPAIGN).execute()).toHaveLength(3);
  });
});
