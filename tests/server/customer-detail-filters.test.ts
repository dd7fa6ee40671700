import { describe, expect, it } from 'vitest';
import { leadsPageSchema } from '../../src/schemas/crm/leads';
import { quotesPageSchema } from '../../src/schemas/comercio/quotes';
import { reservationsPageSchema } from '../../src/schemas/comercio/reservations';
import { salesPageSchema } from '../../src/schemas/comercio/sales';
import { ACTION, MODULE, SUBMODULE, type Permission } from '../../src/schemas/permissions';
import { createCrmCustomer, createLot, createRole, createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/**
 * The lists a customer's detail in Clientes reads (issue "CRM and sales": "the customer's detail
 * shows their leads, quotes, reservations, sales and balances"): `customer_id` on GET /api/leads,
 * /api/quotes, /api/reservations and /api/sales gives that customer's rows only; a bad id is a 422
 * with a Spanish message, never a 500; leads keep the caller's scope (an agent sees only theirs).
 */
describe.each(dialects)('customer_id filters (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);
  let n = 0;

  async function staffWith(permissions: readonly Permission[]) {
    const role = `Detalle ${dialect} ${++n}`;
    await createRole(db(), role, permissions);
    const staff = await createStaff(db(), { roleNames: [role], clock: ctx().clock });
    return { staff, token: await createSession(db(), staff) };
  }
  const send = (method: 'POST' | 'GET', url: string, token: string, payload?: object) =>
    ctx().app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  async function insertLead(customerId: number | null, agentId: number) {
    const stamp = ctx().clock.now().toISOString();
    const { id } = await db()
      .insertInto('leads')
      .values({
        name: `Lead ${++n}`,
        phone: `98700${String(n).padStart(4, '0')}`,
        email: null,
        id_document_type: null,
        document_number: null,
        channel: 'WEB',
        campaign: null,
        notes: null,
        agent_id: agentId,
        status: customerId === null ? 'POR_ATENDER' : 'CONCRETADO',
        lost_reason: null,
        next_follow_up_at: null,
        customer_id: customerId,
        last_activity_at: null,
        received_at: stamp,
        created_by: null,
        created_at: stamp,
        updated_at: stamp,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return id;
  }

  it("lists only the customer's leads, quotes, reservations and sales", async () => {
    const { staff, token } = await staffWith([MODULE.crm, SUBMODULE.leads, ACTION.supervisarLeads, MODULE.comercial, SUBMODULE.ventas]);
    const s = await createSubdivision(db());
    const lot = async () => createLot(db(), s.id, { block: 'D', number: String(++n) });
    const [rosa, other] = [await createCrmCustomer(db()), await createCrmCustomer(db())];
    const rosaLead = await insertLead(rosa, staff.id);
    await insertLead(other, staff.id);
    await insertLead(null, staff.id);
    for (const customer of [rosa, other]) {
      expect((await send('POST', '/api/quotes', token, { lot_id: await lot(), customer_id: customer, instalments: 0 })).statusCode).toBe(
        201,
      );
      const body = { customer_id: customer, lot_id: await lot(), amount: 50_000, conditions_accepted: true };
      expect((await send('POST', '/api/reservations', token, body)).statusCode).toBe(201);
      const sale = { lot_id: await lot(), holders: [{ customer_id: customer, role: 'TITULAR', share_percent: '100' }], instalments: 0 };
      expect((await send('POST', '/api/sales', token, sale)).statusCode).toBe(201);
    }

    const leads = leadsPageSchema.parse((await send('GET', `/api/leads?customer_id=${rosa}`, token)).json());
    expect(leads.data.map((l) => l.id)).toEqual([rosaLead]);
    expect(leads.meta.total).toBe(1);
    const quotes = quotesPageSchema.parse((await send('GET', `/api/quotes?customer_id=${rosa}`, token)).json());
    expect(quotes.data.map((q) => q.customer.id)).toEqual([rosa]);
    const reservations = reservationsPageSchema.parse((await send('GET', `/api/reservations?customer_id=${rosa}`, token)).json());
    expect(reservations.data.map((r) => r.customer.id)).toEqual([rosa]);
    const sales = salesPageSchema.parse((await send('GET', `/api/sales?customer_id=${rosa}`, token)).json());
    expect(sales.data.flatMap((x) => x.holders.map((h) => h.id))).toEqual([rosa]);

    // Nobody's id: empty pages, not errors.
    for (const path of ['leads', 'quotes', 'reservations', 'sales']) {
      const res = await send('GET', `/api/${path}?customer_id=999999`, token);
      expect(res.statusCode, path).toBe(200);
      expect(res.json().meta.total, path).toBe(0);
    }
  });

  it('refuses a customer_id that is not a positive integer with a 422 in Spanish, on every list', async () => {
    const { token } = await staffWith([MODULE.crm, SUBMODULE.leads, MODULE.comercial, SUBMODULE.ventas]);
    for (const path of ['leads', 'quotes', 'reservations', 'sales']) {
      for (const bad of ['abc', '0', '-3', '1.5']) {
        const res = await send('GET', `/api/${path}?customer_id=${bad}`, token);
        expect(res.statusCode, `${path} ${bad}`).toBe(422);
        expect(typeof res.json().message).toBe('string');
      }
    }
  });

  it("keeps an agent's scope: the customer's leads of another agent are not listed to a non-supervisor", async () => {
    const agent = await staffWith([MODULE.crm, SUBMODULE.leads]);
    const colleague = await staffWith([MODULE.crm, SUBMODULE.leads]);
    const customer = await createCrmCustomer(db());
    const mine = await insertLead(customer, agent.staff.id);
    await insertLead(customer, colleague.staff.id);
    const page = leadsPageSchema.parse((await send('GET', `/api/leads?customer_id=${customer}`, agent.token)).json());
    expect(page.data.map((l) => l.id)).toEqual([mine]);
  });
});
