import { describe, expect, it } from 'vitest';
import { proposedAgentResponseSchema, SALE_MESSAGES, saleResponseSchema } from '../../src/schemas/comercio/sales';
import { quoteResponseSchema } from '../../src/schemas/comercio/quotes';
import { salesReportResponseSchema } from '../../src/schemas/comercio/sales-report';
import { ACTION, MODULE, SUBMODULE, type Permission } from '../../src/schemas/permissions';
import { createCrmCustomer, createLot, createRole, createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/**
 * The selling agent and the quote a sale comes from (docs/domain.md "Sales"): the sale is credited to
 * the reservation's agent, else the customer's asesor, else the lead's, else whoever registers it;
 * another agent needs 'Supervisar leads'; the quote turns ACEPTADA with the sale. The test clock's
 * today in Lima is 2026-03-02.
 */
describe.each(dialects)('sale agent and quote (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);
  let n = 0;

  async function staffWith(permissions: readonly Permission[]) {
    const role = `Agente venta ${dialect} ${++n}`;
    await createRole(db(), role, permissions);
    const staff = await createStaff(db(), { roleNames: [role], clock: ctx().clock });
    return { staff, token: await createSession(db(), staff) };
  }
  const seller = () => staffWith([MODULE.comercial, SUBMODULE.ventas]);
  /** A sales manager: sells and assigns agents ('Supervisar leads'), and reads the report. */
  const manager = () =>
    staffWith([MODULE.comercial, SUBMODULE.ventas, SUBMODULE.reporteVentas, MODULE.crm, SUBMODULE.leads, ACTION.supervisarLeads]);
  async function freshLot() {
    const subdivision = await createSubdivision(db());
    return createLot(db(), subdivision.id, { block: 'Q', number: String(++n) });
  }
  const send = (method: 'POST' | 'GET', url: string, token: string, payload?: unknown) =>
    ctx().app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const cash = (lotId: number, customerId: number, extra: object = {}) => ({
    lot_id: lotId,
    holders: [{ customer_id: customerId, role: 'TITULAR', share_percent: '100' }],
    instalments: 0,
    ...extra,
  });
  /** The report of March 2026 for the lot's subdivision. */
  const reportOf = async (lotId: number, token: string) => {
    const { subdivision_id } = await db().selectFrom('lots').select('subdivision_id').where('id', '=', lotId).executeTakeFirstOrThrow();
    const res = await send('GET', `/api/sales/report?from=2026-03-01&to=2026-03-02&subdivision_id=${subdivision_id}`, token);
    expect(res.statusCode, res.body).toBe(200);
    return salesReportResponseSchema.parse(res.json()).data;
  };
  const lotStatus = async (id: number) =>
    (await db().selectFrom('lots').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;
  async function lead(customerId: number, agentId: number, channel = 'TIKTOK') {
    const stamp = '2026-02-01T15:00:00.000Z';
    await db()
      .insertInto('leads')
      .values({
        name: 'Lead',
        phone: `98${String(++n).padStart(7, '0')}`,
        email: null,
        id_document_type: null,
        document_number: null,
        channel,
        campaign: null,
        notes: null,
        agent_id: agentId,
        status: 'EN_ATENCION',
        lost_reason: null,
        next_follow_up_at: null,
        customer_id: customerId,
        last_activity_at: null,
        received_at: stamp,
        created_by: null,
        created_at: stamp,
        updated_at: stamp,
      })
      .execute();
  }

  it("an administrator confirming a reserved lot credits the reservation's agent; the report's 'Por asesor' says so", async () => {
    const agent = await seller();
    const boss = await manager();
    const lotId = await freshLot();
    const customer = await createCrmCustomer(db());
    const reserved = await send('POST', '/api/reservations', agent.token, {
      customer_id: customer,
      lot_id: lotId,
      amount: 100_00,
      conditions_accepted: true,
    });
    expect(reserved.statusCode, reserved.body).toBe(201);
    // The payment was approved: the reservation is VIGENTE (its money is not what this test is about).
    await db().updateTable('reservations').set({ status: 'VIGENTE' }).where('lot_id', '=', lotId).execute();
    const proposal = await send('GET', `/api/sales/proposed-agent?lot_id=${lotId}&customer_ids=${customer}`, boss.token);
    expect(proposedAgentResponseSchema.parse(proposal.json()).data).toEqual({
      agent: expect.objectContaining({ id: agent.staff.id }),
      source: 'RESERVA',
    });
    const sold = await send('POST', '/api/sales', boss.token, cash(lotId, customer));
    expect(sold.statusCode, sold.body).toBe(201);
    expect(saleResponseSchema.parse(sold.json()).data.agent?.id).toBe(agent.staff.id);
    const report = await reportOf(lotId, boss.token);
    expect(report.by_agent.map((a) => a.id)).toEqual([agent.staff.id]);
  });

  it("without a reservation: the customer's asesor, else the lead's agent, else whoever registers it", async () => {
    const registrar = await seller();
    const [asesor, leadAgent] = [await seller(), await seller()];
    const served = await createCrmCustomer(db(), { agent_id: asesor.staff.id });
    await lead(served, leadAgent.staff.id);
    const fromLead = await createCrmCustomer(db());
    await lead(fromLead, leadAgent.staff.id);
    const walkIn = await createCrmCustomer(db());
    const cases: [number, number, string][] = [
      [served, asesor.staff.id, 'CLIENTE'],
      [fromLead, leadAgent.staff.id, 'LEAD'],
      [walkIn, registrar.staff.id, 'USUARIO'],
    ];
    for (const [customer, agentId, source] of cases) {
      const lotId = await freshLot();
      const proposal = proposedAgentResponseSchema.parse(
        (await send('GET', `/api/sales/proposed-agent?lot_id=${lotId}&customer_ids=${customer}`, registrar.token)).json(),
      ).data;
      expect([proposal.agent?.id, proposal.source]).toEqual([agentId, source]);
      const res = await send('POST', '/api/sales', registrar.token, cash(lotId, customer));
      expect(res.statusCode, res.body).toBe(201);
      expect(saleResponseSchema.parse(res.json()).data.agent?.id).toBe(agentId);
    }
    // An agent who left is skipped: the lead's agent comes next.
    await db().updateTable('users').set({ status: 'INACTIVO' }).where('id', '=', asesor.staff.id).execute();
    const lotId = await freshLot();
    const res = await send('POST', '/api/sales', registrar.token, cash(lotId, served));
    expect(saleResponseSchema.parse(res.json()).data.agent?.id).toBe(leadAgent.staff.id);
  });

  it("another agent: 403 without 'Supervisar leads' (nothing stored); the proposed one is fine; a manager may, but only an active staff user (422)", async () => {
    const plain = await seller();
    const other = await seller();
    const boss = await manager();
    const customer = await createCrmCustomer(db());
    const lotId = await freshLot();
    const refused = await send('POST', '/api/sales', plain.token, cash(lotId, customer, { agent_id: other.staff.id }));
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(SALE_MESSAGES.agentNotAllowed);
    expect(await lotStatus(lotId)).toBe('DISPONIBLE');
    const own = await send('POST', '/api/sales', plain.token, cash(lotId, customer, { agent_id: plain.staff.id }));
    expect(own.statusCode, own.body).toBe(201);

    await db().updateTable('users').set({ status: 'INACTIVO' }).where('id', '=', other.staff.id).execute();
    const secondLot = await freshLot();
    const inactive = await send('POST', '/api/sales', boss.token, cash(secondLot, customer, { agent_id: other.staff.id }));
    expect(inactive.statusCode).toBe(422);
    expect(inactive.json().errors.agent_id).toEqual([SALE_MESSAGES.unknownAgent]);
    expect((await send('POST', '/api/sales', boss.token, cash(secondLot, customer, { agent_id: 999_999 }))).statusCode).toBe(422);
    const assigned = await send('POST', '/api/sales', boss.token, cash(secondLot, customer, { agent_id: plain.staff.id }));
    expect(assigned.statusCode, assigned.body).toBe(201);
    expect(saleResponseSchema.parse(assigned.json()).data.agent?.id).toBe(plain.staff.id);
  });

  it('a sale from a quote marks it ACEPTADA with the sale; an annulled quote is refused (422)', async () => {
    const { token } = await seller();
    const customer = await createCrmCustomer(db());
    const lotId = await freshLot();
    const quoted = await send('POST', '/api/quotes', token, {
      lot_id: lotId,
      customer_id: customer,
      discount_percent: '5',
      down_payment_percent: '20',
      instalments: 36,
      monthly_rate_percent: '1.5',
      method: 'FRANCES',
      first_due_date: '2026-04-01',
    });
    expect(quoted.statusCode, quoted.body).toBe(201);
    const quote = quoteResponseSchema.parse(quoted.json()).data;
    expect(quote).toMatchObject({
      status: 'BORRADOR',
      discount_percent: '5',
      down_payment_percent: '20',
      quote_date: '2026-03-02',
      sale: null,
    });

    const annulled = await send('POST', '/api/quotes', token, { lot_id: lotId, customer_id: customer, instalments: 0 });
    const annulledId = quoteResponseSchema.parse(annulled.json()).data.id;
    expect((await send('POST', `/api/quotes/${annulledId}/status`, token, { status: 'ANULADA' })).statusCode).toBe(200);
    const refused = await send('POST', '/api/sales', token, cash(lotId, customer, { quote_id: annulledId }));
    expect(refused.statusCode).toBe(422);
    expect(refused.json().errors.quote_id).toEqual([SALE_MESSAGES.quoteAnnulled]);

    const res = await send('POST', '/api/sales', token, {
      lot_id: lotId,
      holders: [{ customer_id: customer, role: 'TITULAR', share_percent: '100' }],
      quote_id: quote.id,
      discount_percent: '5',
      down_payment_percent: '20',
      instalments: 36,
      monthly_rate_percent: '1.5',
      method: 'FRANCES',
      first_due_date: '2026-04-01',
    });
    expect(res.statusCode, res.body).toBe(201);
    const sale = saleResponseSchema.parse(res.json()).data;
    expect(sale).toMatchObject({ quote_id: quote.id, discount: quote.discount, instalments: 36 });
    const after = quoteResponseSchema.parse((await send('GET', `/api/quotes/${quote.id}`, token)).json()).data;
    expect(after).toMatchObject({ status: 'ACEPTADA', sale: { id: sale.id, number: sale.number } });
    const history = await db()
      .selectFrom('change_history')
      .select('action')
      .where('entity', '=', 'quotes')
      .where('record_id', '=', String(quote.id))
      .execute();
    expect(history.map((h) => h.action)).toEqual(['CREATE', 'UPDATE']);
  });

  it("a converted lead's customer buys: the sale is its agent's and its channel's in the report", async () => {
    const agent = await staffWith([MODULE.crm, SUBMODULE.leads, MODULE.comercial, SUBMODULE.ventas]);
    const boss = await manager();
    const created = await send('POST', '/api/leads', agent.token, { name: 'Rosa Quispe Mamani', phone: '987123456', channel: 'INSTAGRAM' });
    expect(created.statusCode, created.body).toBe(201);
    const leadId = created.json().data.id as number;
    const converted = await send('POST', `/api/leads/${leadId}/convert`, agent.token, {
      customer: {
        person_type: 'NATURAL',
        id_document_type: '1',
        document_number: '46666666',
        name: 'Rosa',
        surname: 'Quispe Mamani',
        phone: '987123456',
      },
    });
    expect(converted.statusCode, converted.body).toBe(200);
    const customerId = converted.json().data.customer.id as number;
    // The administrator registers the sale for the agent's customer.
    const lotId = await freshLot();
    const sold = await send('POST', '/api/sales', boss.token, cash(lotId, customerId));
    expect(sold.statusCode, sold.body).toBe(201);
    expect(saleResponseSchema.parse(sold.json()).data.agent?.id).toBe(agent.staff.id);
    const report = await reportOf(lotId, boss.token);
    expect(report.by_agent.map((a) => a.id)).toEqual([agent.staff.id]);
    expect(report.by_channel.map((c) => c.channel)).toEqual(['INSTAGRAM']);
  });
});
