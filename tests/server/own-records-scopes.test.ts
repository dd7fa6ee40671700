import { beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER_MESSAGES, customersPageSchema } from '../../src/schemas/crm/customers';
import { SALE_MESSAGES, salesPageSchema } from '../../src/schemas/comercio/sales';
import { salesReportOptionsResponseSchema, salesReportResponseSchema } from '../../src/schemas/comercio/sales-report';
import { MODULE, SCOPE, SUBMODULE } from '../../src/schemas/permissions';
import { systemAuditContext } from '../../server/audit/audit';
import { createManualClock } from '../../server/clock';
import { createSale } from '../../server/modules/comercio/sales.service';
import { createCrmCustomer, createLot, createRole, createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, useSharedTestApp, useTestDatabase } from './harness';

/**
 * "Own records only" scopes (docs/security.md 31.11; src/schemas/permissions.ts SCOPE): an agent
 * whose role holds 'Solo sus clientes', 'Solo sus ventas' and 'Solo sus exportaciones' lists, opens
 * and exports only their own customers and sales (403 on another's, as leads); a role without them
 * sees everything, and a second role granting the submodule without the scope widens again.
 */

const AGENT_PERMISSIONS = [
  MODULE.crm,
  SUBMODULE.clientes,
  SCOPE.soloSusClientes,
  MODULE.comercial,
  SUBMODULE.ventas,
  SCOPE.soloSusVentas,
  SCOPE.soloSusExportaciones,
  SUBMODULE.reporteVentas,
  MODULE.finanzas,
  SUBMODULE.pagos,
] as const;

const BOSS_PERMISSIONS = [
  MODULE.crm,
  SUBMODULE.clientes,
  MODULE.comercial,
  SUBMODULE.ventas,
  SUBMODULE.reporteVentas,
  MODULE.finanzas,
  SUBMODULE.pagos,
] as const;

describe.each(dialects)('own records only scopes (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useSharedTestApp(db);
  let agentToken = '';
  let agentId = 0;
  let otherId = 0;
  let bossToken = '';
  let widenedToken = '';
  let subdivisionId = 0;
  let ownCustomer = 0;
  let otherCustomer = 0;
  let ownSale = 0;
  let otherSale = 0;

  const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
    ctx().app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });

  /** A financed sale of a fresh lot by `agent` on 2026-02-01 (6 instalments): its id. */
  async function sale(agent: number, customer: number): Promise<number> {
    const clock = createManualClock('2026-02-01T17:00:00.000Z');
    const lotId = await createLot(db(), subdivisionId);
    const created = await createSale({ db: db(), clock }, systemAuditContext(clock), {
      lot_id: lotId,
      holders: [{ customer_id: customer, role: 'TITULAR', share_percent: '100' }],
      sale_date: '2026-02-01',
      down_payment_percent: '20',
      down_payment_parts: 1,
      instalments: 6,
      monthly_rate_percent: '0',
      method: 'SIN_INTERES',
      first_due_date: '2026-03-01',
    });
    await db().updateTable('sales').set({ agent_id: agent }).where('id', '=', created.id).execute();
    return created.id;
  }

  beforeAll(async () => {
    await createRole(db(), `Asesor ${dialect}`, AGENT_PERMISSIONS);
    await createRole(db(), `Jefe ${dialect}`, BOSS_PERMISSIONS);
    const agent = await createStaff(db(), { roleNames: [`Asesor ${dialect}`], clock: ctx().clock });
    agentId = agent.id;
    agentToken = await createSession(db(), agent);
    const other = await createStaff(db(), { roleNames: [`Asesor ${dialect}`], clock: ctx().clock });
    otherId = other.id;
    const boss = await createStaff(db(), { roleNames: [`Jefe ${dialect}`], clock: ctx().clock });
    bossToken = await createSession(db(), boss);
    const widened = await createStaff(db(), { roleNames: [`Asesor ${dialect}`, `Jefe ${dialect}`], clock: ctx().clock });
    widenedToken = await createSession(db(), widened);

    subdivisionId = (await createSubdivision(db())).id;
    ownCustomer = await createCrmCustomer(db(), { agent_id: agentId });
    otherCustomer = await createCrmCustomer(db(), { agent_id: otherId });
    ownSale = await sale(agentId, ownCustomer);
    otherSale = await sale(otherId, otherCustomer);
  });

  it('the agent lists and opens only their own customers; another asesor’s is a 403; the boss sees both', async () => {
    const mine = customersPageSchema.parse((await send('GET', '/api/customers?per_page=100', agentToken)).json());
    expect(mine.data.map((c) => c.id)).toEqual([ownCustomer]);
    expect(mine.meta.total).toBe(1);
    expect((await send('GET', `/api/customers/${ownCustomer}`, agentToken)).statusCode).toBe(200);
    const foreign = await send('GET', `/api/customers/${otherCustomer}`, agentToken);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toMatchObject({ message: CUSTOMER_MESSAGES.notYours });
    expect((await send('PATCH', `/api/customers/${otherCustomer}`, agentToken, { phone: '912345678' })).statusCode).toBe(403);
    expect((await send('DELETE', `/api/customers/${otherCustomer}`, agentToken)).statusCode).toBe(403);
    expect((await send('GET', '/api/customers/999999', agentToken)).statusCode).toBe(404);

    for (const token of [bossToken, widenedToken]) {
      const all = customersPageSchema.parse((await send('GET', '/api/customers?per_page=100', token)).json());
      expect(all.data.map((c) => c.id)).toEqual(expect.arrayContaining([ownCustomer, otherCustomer]));
      expect((await send('GET', `/api/customers/${otherCustomer}`, token)).statusCode).toBe(200);
    }
  });

  it('a scoped agent registers customers as their own asesor, never another’s (Spanish 422)', async () => {
    const body = {
      person_type: 'NATURAL',
      id_document_type: '1',
      document_number: '71234598',
      name: 'Rosa',
      surname: 'Quispe',
      phone: '987650001',
    };
    const created = await send('POST', '/api/customers', agentToken, body);
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({ data: { agent: { id: agentId } } });
    const refused = await send('POST', '/api/customers', agentToken, {
      ...body,
      document_number: '71234599',
      phone: '987650002',
      agent_id: otherId,
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ errors: { agent_id: [CUSTOMER_MESSAGES.onlyOwnAgent] } });
  });

  it('the agent lists and opens only their own sales; another agent’s is a 403; the boss sees both', async () => {
    const mine = salesPageSchema.parse((await send('GET', '/api/sales?per_page=100', agentToken)).json());
    expect(mine.data.map((s) => s.id)).toEqual([ownSale]);
    expect(mine.meta.total).toBe(1);
    expect((await send('GET', `/api/sales/${ownSale}`, agentToken)).statusCode).toBe(200);
    const foreign = await send('GET', `/api/sales/${otherSale}`, agentToken);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toMatchObject({ message: SALE_MESSAGES.notYours });
    expect((await send('POST', `/api/sales/${otherSale}/annul`, agentToken, { reason: 'No es mía' })).statusCode).toBe(403);

    // The boss's page is not the agent's kept page (the kept pages are per scope), and the other way round.
    for (const token of [bossToken, widenedToken]) {
      const all = salesPageSchema.parse((await send('GET', '/api/sales?per_page=100', token)).json());
      expect(all.data.map((s) => s.id).sort()).toEqual([ownSale, otherSale].sort());
      expect((await send('GET', `/api/sales/${otherSale}`, token)).statusCode).toBe(200);
    }
    const again = salesPageSchema.parse((await send('GET', '/api/sales?per_page=100', agentToken)).json());
    expect(again.data.map((s) => s.id)).toEqual([ownSale]);
  });

  it('the sales report, its options and its file hold only the agent’s sales, whatever agent the query names', async () => {
    const mine = salesReportResponseSchema.parse(
      (await send('GET', `/api/sales/report?from=2026-01-01&to=2026-02-28&agent_id=${otherId}`, agentToken)).json(),
    ).data;
    expect(mine.by_agent.map((a) => [a.id, a.count])).toEqual([[agentId, 1]]);
    const options = salesReportOptionsResponseSchema.parse((await send('GET', '/api/sales/report/options', agentToken)).json()).data;
    expect(options.agents.map((a) => a.id)).toEqual([agentId]);
    const file = await send('GET', `/api/sales/report.xlsx?from=2026-01-01&to=2026-02-28`, agentToken);
    expect(file.statusCode).toBe(200);

    const all = salesReportResponseSchema.parse(
      (await send('GET', '/api/sales/report?from=2026-01-01&to=2026-02-28', bossToken)).json(),
    ).data;
    expect(all.by_agent.map((a) => a.id).sort()).toEqual([agentId, otherId].sort());
  });

  it('the instalments register export holds only the agent’s sales; the boss’s holds both', async () => {
    const rows = async (token: string) => {
      const res = await send('GET', `/api/instalments/export?format=csv&subdivision_id=${subdivisionId}`, token);
      expect(res.statusCode, res.body).toBe(200);
      return res.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n')
        .slice(1);
    };
    // A sale's schedule: the down payment and 6 instalments.
    expect(await rows(agentToken)).toHaveLength(7);
    expect(await rows(bossToken)).toHaveLength(14);
    expect(await rows(widenedToken)).toHaveLength(14);
  });
});
