import { describe, expect, it } from 'vitest';
import {
  LEAD_MESSAGES,
  leadActivitiesResponseSchema,
  leadDuplicatesResponseSchema,
  leadResponseSchema,
  leadsPageSchema,
  leadsSummaryResponseSchema,
  normalizePhone,
} from '../../src/schemas/crm/leads';
import { CUSTOMER_MESSAGES } from '../../src/schemas/crm/customers';
import { ACTION, MODULE, SUBMODULE, type Permission } from '../../src/schemas/permissions';
import { STALE_RECORD_MESSAGE } from '../../src/schemas/versions';
import { DAY_MS, HOUR_MS } from '../../server/clock';
import { createCrmCustomer, createLot, createRole, createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, recordingBroadcaster, useTestApp, useTestDatabase } from './harness';

/** CRM → LEADS: /api/leads and its sub-resources (issue "CRM and sales"). */

describe('normalizePhone', () => {
  it.each([
    ['987654321', '987654321'],
    ['+51 987 654 321', '987654321'],
    ['p:+51987654321', '987654321'],
    ['51987654321', '987654321'],
    ['(01) 440-5566', '014405566'],
    ['+34 612 345 678', '+34612345678'],
  ])('%s → %s', (raw, normalized) => expect(normalizePhone(raw)).toBe(normalized));

  it.each(['12345', 'abc', '+1', '98765432a'])('refuses %s', (raw) => expect(normalizePhone(raw)).toBeNull());
});

describe.each(dialects)('leads (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const broadcaster = recordingBroadcaster();
  const ctx = useTestApp(db, {}, { broadcaster });
  let n = 0;

  async function staffWith(permissions: readonly Permission[]) {
    const role = `Leads ${dialect} ${++n}`;
    await createRole(db(), role, permissions);
    const staff = await createStaff(db(), { roleNames: [role], clock: ctx().clock });
    return { staff, token: await createSession(db(), staff) };
  }
  const agent = () => staffWith([MODULE.crm, SUBMODULE.leads]);
  const supervisor = () => staffWith([MODULE.crm, SUBMODULE.leads, ACTION.supervisarLeads]);

  const send = (method: 'POST' | 'PATCH' | 'GET', url: string, token: string, payload?: unknown) =>
    ctx().app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });

  const phone = () => `9${String(10_000_000 + ++n).slice(-8)}`;
  const leadBody = (overrides: Record<string, unknown> = {}) => ({
    name: `Lead ${++n}`,
    phone: phone(),
    channel: 'FACEBOOK',
    ...overrides,
  });
  const create = async (token: string, overrides: Record<string, unknown> = {}) => {
    const res = await send('POST', '/api/leads', token, leadBody(overrides));
    expect(res.statusCode, res.body).toBe(201);
    return leadResponseSchema.parse(res.json()).data;
  };

  it('creates a lead for the caller with a normalised phone, subdivisions and its history; no notification to oneself', async () => {
    const { staff, token } = await agent();
    const subdivision = await createSubdivision(db());
    broadcaster.events.length = 0;
    const lead = await create(token, {
      phone: '+51 912 345 678',
      email: 'Ana@Mail.test',
      subdivision_ids: [subdivision.id],
      campaign: 'Verano',
    });
    expect(lead).toMatchObject({
      phone: '912345678',
      email: 'ana@mail.test',
      status: 'POR_ATENDER',
      agent: { id: staff.id },
      subdivisions: [{ id: subdivision.id }],
      campaign: 'Verano',
      overdue: false,
      version: 1,
    });
    expect(broadcaster.events).toEqual([]);
    const history = await db()
      .selectFrom('change_history')
      .select('action')
      .where('entity', '=', 'leads')
      .where('record_id', '=', String(lead.id))
      .execute();
    expect(history.map((h) => h.action)).toEqual(['CREATE']);
  });

  it('refuses a lead without phone or e-mail, a bad phone and a document without its type (422, Spanish)', async () => {
    const { token } = await agent();
    const noContact = await send('POST', '/api/leads', token, { name: 'X', channel: 'WEB' });
    expect(noContact.statusCode).toBe(422);
    expect(noContact.json().errors.phone).toContain(LEAD_MESSAGES.contactRequired);
    const badPhone = await send('POST', '/api/leads', token, leadBody({ phone: '12' }));
    expect(badPhone.json().errors.phone).toContain(LEAD_MESSAGES.invalidPhone);
    const noType = await send('POST', '/api/leads', token, leadBody({ document_number: '45454545' }));
    expect(noType.json().errors.id_document_type).toContain(LEAD_MESSAGES.documentTypeRequired);
    const unknown = await send('POST', '/api/leads', token, leadBody({ subdivision_ids: [999_999] }));
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.subdivision_ids).toContain(LEAD_MESSAGES.unknownSubdivision);
  });

  it('answers malformed, oversized and out-of-range input with a Spanish 4xx, never a 500', async () => {
    const { token } = await agent();
    const long = await send('POST', '/api/leads', token, leadBody({ name: 'x'.repeat(151), notes: 'y'.repeat(1001) }));
    expect(long.statusCode).toBe(422);
    expect(long.json().errors.name).toContain('Máximo 150 caracteres');
    expect(long.json().errors.notes).toContain('Máximo 1000 caracteres');
    const tooMany = await send('POST', '/api/leads', token, leadBody({ subdivision_ids: Array.from({ length: 21 }, (_, i) => i + 1) }));
    expect(tooMany.json().errors.subdivision_ids).toContain('Máximo 20 lotizaciones');
    expect((await send('POST', '/api/leads', token, leadBody({ extra: 1 }))).statusCode).toBe(422);
    expect((await send('GET', '/api/leads/abc', token)).statusCode).toBeLessThan(500);
    expect((await send('GET', '/api/leads?per_page=1000', token)).statusCode).toBe(422);
    expect((await send('GET', '/api/leads/duplicates', token)).statusCode).toBe(422);
    const lead = await create(token);
    const future = await send('POST', `/api/leads/${lead.id}/activities`, token, { kind: 'LLAMADA', outcome: 'x'.repeat(1001) });
    expect(future.statusCode).toBe(422);
    expect((await send('POST', `/api/leads/${lead.id}/convert`, token, { customer_id: 'uno' })).statusCode).toBe(422);
  });

  it('a supervisor assigns a lead: the agent is notified with a route to it', async () => {
    const boss = await supervisor();
    const { staff } = await agent();
    broadcaster.events.length = 0;
    const lead = await create(boss.token, { agent_id: staff.id });
    expect(lead.agent?.id).toBe(staff.id);
    expect(broadcaster.events).toHaveLength(1);
    expect(JSON.stringify(broadcaster.events[0])).toContain(`/CRM/LEADS?lead=${lead.id}`);
    expect(broadcaster.events[0]?.channel).toMatch(new RegExp(`\\.${staff.id}$`));
    // Reassigning notifies the new agent.
    const other = await agent();
    broadcaster.events.length = 0;
    const res = await send('PATCH', `/api/leads/${lead.id}`, boss.token, { agent_id: other.staff.id, version: lead.version });
    expect(res.statusCode).toBe(200);
    expect(broadcaster.events).toHaveLength(1);
    expect(broadcaster.events[0]?.channel).toMatch(new RegExp(`\\.${other.staff.id}$`));
  });

  it('an agent without the supervisor permission sees and edits only their own leads', async () => {
    const mine = await agent();
    const theirs = await agent();
    const boss = await supervisor();
    const own = await create(mine.token);
    const foreign = await create(theirs.token);
    const list = leadsPageSchema.parse((await send('GET', '/api/leads?per_page=100', mine.token)).json());
    expect(list.data.map((l) => l.id)).toContain(own.id);
    expect(list.data.map((l) => l.id)).not.toContain(foreign.id);
    const get = await send('GET', `/api/leads/${foreign.id}`, mine.token);
    expect(get.statusCode).toBe(403);
    expect(get.json().message).toBe(LEAD_MESSAGES.notYours);
    expect((await send('PATCH', `/api/leads/${foreign.id}`, mine.token, { notes: 'x' })).statusCode).toBe(403);
    expect((await send('POST', `/api/leads/${foreign.id}/activities`, mine.token, { kind: 'NOTA', outcome: 'x' })).statusCode).toBe(403);
    const assign = await send('POST', '/api/leads', mine.token, leadBody({ agent_id: theirs.staff.id }));
    expect(assign.statusCode).toBe(422);
    expect(assign.json().errors.agent_id).toContain(LEAD_MESSAGES.onlySupervisorAssigns);
    // The supervisor sees both, and "Mis leads" narrows to their own.
    const all = leadsPageSchema.parse((await send('GET', '/api/leads?per_page=100', boss.token)).json());
    expect(all.data.map((l) => l.id)).toEqual(expect.arrayContaining([own.id, foreign.id]));
    const bossMine = leadsPageSchema.parse((await send('GET', '/api/leads?mine=true&per_page=100', boss.token)).json());
    expect(bossMine.data.some((l) => l.id === own.id)).toBe(false);
    // Without the LEADS submodule: 403 from the guard.
    const outsider = await staffWith([MODULE.crm, SUBMODULE.clientes]);
    expect((await send('GET', '/api/leads', outsider.token)).statusCode).toBe(403);
  });

  it('finds duplicates by phone or document: 409 on create, "keep both" or merge', async () => {
    const boss = await supervisor();
    const first = await create(boss.token, { phone: '987 111 222', id_document_type: '1', document_number: '41234567', channel: 'WEB' });
    const again = await send('POST', '/api/leads', boss.token, leadBody({ phone: '+51987111222' }));
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(LEAD_MESSAGES.duplicate);
    const byDocument = await send('POST', '/api/leads', boss.token, leadBody({ id_document_type: '1', document_number: '41234567' }));
    expect(byDocument.statusCode).toBe(409);
    const found = leadDuplicatesResponseSchema.parse((await send('GET', '/api/leads/duplicates?phone=51987111222', boss.token)).json());
    expect(found.data.map((l) => l.id)).toEqual([first.id]);
    // Keep both.
    const kept = await send('POST', '/api/leads', boss.token, leadBody({ phone: '987111222', on_duplicate: 'KEEP' }));
    expect(kept.statusCode).toBe(201);
    // Merge: blanks filled, subdivisions joined, a note in the log, a lost lead reopened.
    const subdivision = await createSubdivision(db());
    await send('PATCH', `/api/leads/${first.id}`, boss.token, { status: 'NO_CONCRETADO', lost_reason: 'Sin presupuesto' });
    const merged = await send('POST', `/api/leads/${first.id}/merge`, boss.token, {
      name: 'Otro nombre',
      phone: '987111222',
      email: 'nuevo@mail.test',
      channel: 'INSTAGRAM',
      campaign: 'Navidad',
      subdivision_ids: [subdivision.id],
    });
    expect(merged.statusCode, merged.body).toBe(200);
    const lead = leadResponseSchema.parse(merged.json()).data;
    expect(lead).toMatchObject({
      name: first.name,
      email: 'nuevo@mail.test',
      campaign: 'Navidad',
      status: 'POR_ATENDER',
      lost_reason: null,
    });
    expect(lead.subdivisions.map((s) => s.id)).toEqual([subdivision.id]);
    const log = leadActivitiesResponseSchema.parse((await send('GET', `/api/leads/${first.id}/activities`, boss.token)).json());
    expect(log.data[0]).toMatchObject({ kind: 'NOTA' });
    expect(log.data[0]?.outcome).toContain('Instagram');
    // An agent sees another agent's duplicate only by name and status.
    const someone = await agent();
    const seen = leadDuplicatesResponseSchema.parse(
      (await send('GET', '/api/leads/duplicates?document_number=41234567', someone.token)).json(),
    );
    expect(seen.data[0]).toMatchObject({ id: first.id, phone: null, email: null, document_number: null });
  });

  it('follows the status rules: transitions, a reason for NO_CONCRETADO, a customer for CONCRETADO, versions', async () => {
    const { token } = await agent();
    const lead = await create(token);
    const concrete = await send('PATCH', `/api/leads/${lead.id}`, token, { status: 'CONCRETADO' });
    expect(concrete.statusCode).toBe(422);
    expect(concrete.json().errors.status).toContain(LEAD_MESSAGES.transition);
    const noReason = await send('PATCH', `/api/leads/${lead.id}`, token, { status: 'NO_CONCRETADO' });
    expect(noReason.json().errors.lost_reason).toContain(LEAD_MESSAGES.reasonRequired);
    const lost = await send('PATCH', `/api/leads/${lead.id}`, token, {
      status: 'NO_CONCRETADO',
      lost_reason: 'No contesta',
      version: lead.version,
    });
    expect(lost.statusCode).toBe(200);
    const stale = await send('PATCH', `/api/leads/${lead.id}`, token, { notes: 'tarde', version: lead.version });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(STALE_RECORD_MESSAGE);
    const reopened = leadResponseSchema.parse((await send('PATCH', `/api/leads/${lead.id}`, token, { status: 'EN_ATENCION' })).json()).data;
    expect(reopened).toMatchObject({ status: 'EN_ATENCION', lost_reason: null });
    const needsCustomer = await send('PATCH', `/api/leads/${lead.id}`, token, { status: 'CONCRETADO' });
    expect(needsCustomer.json().errors.status).toContain(LEAD_MESSAGES.needsCustomer);
  });

  it('logs activities: the lead is attended, its follow-up set; overdue follow-ups show in the list and the summary', async () => {
    const { token, staff } = await agent();
    const lead = await create(token);
    const clock = ctx().clock;
    const followUp = new Date(clock.now().getTime() + DAY_MS).toISOString();
    const res = await send('POST', `/api/leads/${lead.id}/activities`, token, {
      kind: 'LLAMADA',
      outcome: 'Interesado en lote esquina',
      next_follow_up_at: followUp,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(leadActivityOf(res.json())).toMatchObject({ kind: 'LLAMADA', user: { id: staff.id } });
    const after = leadResponseSchema.parse((await send('GET', `/api/leads/${lead.id}`, token)).json()).data;
    expect(after).toMatchObject({ status: 'EN_ATENCION', next_follow_up_at: followUp, overdue: false });
    expect(after.last_activity_at).not.toBeNull();
    const future = await send('POST', `/api/leads/${lead.id}/activities`, token, {
      kind: 'NOTA',
      outcome: 'x',
      occurred_at: new Date(clock.now().getTime() + HOUR_MS).toISOString(),
    });
    expect(future.statusCode).toBe(422);
    clock.advance(2 * DAY_MS);
    const overdue = leadsPageSchema.parse((await send('GET', '/api/leads?overdue=true', token)).json());
    expect(overdue.data.map((l) => l.id)).toEqual([lead.id]);
    expect(overdue.data[0]?.overdue).toBe(true);
    const summary = leadsSummaryResponseSchema.parse((await send('GET', '/api/leads/summary', token)).json()).data;
    expect(summary).toEqual({ counts: { EN_ATENCION: 1 }, overdue: 1 });
  });

  it('filters by text, channel and subdivision', async () => {
    const boss = await supervisor();
    const subdivision = await createSubdivision(db());
    const a = await create(boss.token, { name: 'Gabriela Torres', channel: 'TIKTOK', subdivision_ids: [subdivision.id] });
    await create(boss.token, { name: 'Mario Díaz', channel: 'WEB' });
    const ids = async (query: string) =>
      leadsPageSchema.parse((await send('GET', `/api/leads?${query}`, boss.token)).json()).data.map((l) => l.id);
    expect(await ids('q=gabriela')).toEqual([a.id]);
    expect(await ids('channel=TIKTOK')).toEqual([a.id]);
    expect(await ids(`subdivision_id=${subdivision.id}`)).toEqual([a.id]);
    expect((await send('GET', '/api/leads?channel=RADIO', boss.token)).statusCode).toBe(422);
  });

  it('converts a lead into a new customer in one step; a failed customer leaves the lead untouched; a reservation concludes it', async () => {
    const role = `Leads y ventas ${dialect} ${++n}`;
    await createRole(db(), role, [MODULE.crm, SUBMODULE.leads, MODULE.comercial, SUBMODULE.ventas]);
    const staff = await createStaff(db(), { roleNames: [role], clock: ctx().clock });
    const token = await createSession(db(), staff);
    const lead = await create(token, { name: 'Carmen Rojas Silva' });
    const customer = {
      person_type: 'NATURAL',
      id_document_type: '1',
      document_number: '47777777',
      name: 'Carmen',
      surname: 'Rojas Silva',
      phone: lead.phone,
    };
    // A taken document: 422 from the customer rules, and the lead is not linked.
    await createCrmCustomer(db(), { document_number: '48888888' });
    const taken = await send('POST', `/api/leads/${lead.id}/convert`, token, { customer: { ...customer, document_number: '48888888' } });
    expect(taken.statusCode).toBe(422);
    expect(taken.json().errors.document_number).toContain(CUSTOMER_MESSAGES.duplicateDocument);
    const converted = await send('POST', `/api/leads/${lead.id}/convert`, token, { customer, version: lead.version });
    expect(converted.statusCode, converted.body).toBe(200);
    const linked = leadResponseSchema.parse(converted.json()).data;
    expect(linked).toMatchObject({ status: 'EN_ATENCION', customer: { display_name: 'Carmen Rojas Silva' } });
    // The new customer keeps the lead's agent (docs/domain.md "Sales": who is the selling agent).
    const stored = await db().selectFrom('customers').select('agent_id').where('id', '=', linked.customer!.id).executeTakeFirstOrThrow();
    expect(stored.agent_id).toBe(staff.id);
    expect((await send('POST', `/api/leads/${lead.id}/convert`, token, { customer_id: linked.customer!.id })).statusCode).toBe(409);
    // The customer reserves a lot: the lead is CONCRETADO.
    const subdivision = await createSubdivision(db());
    const lotId = await createLot(db(), subdivision.id, { block: 'A', number: '1' });
    const reservation = await send('POST', '/api/reservations', token, {
      customer_id: linked.customer!.id,
      lot_id: lotId,
      amount: 100_00,
      conditions_accepted: true,
    });
    expect(reservation.statusCode).toBe(201);
    const concluded = leadResponseSchema.parse((await send('GET', `/api/leads/${lead.id}`, token)).json()).data;
    expect(concluded.status).toBe('CONCRETADO');
  });

  it("links an existing customer; one without an asesor takes the lead's, one with an asesor keeps theirs", async () => {
    const { staff, token } = await agent();
    const lead = await create(token);
    const customerId = await createCrmCustomer(db());
    const res = await send('POST', `/api/leads/${lead.id}/convert`, token, { customer_id: customerId });
    expect(res.statusCode).toBe(200);
    expect(leadResponseSchema.parse(res.json()).data.customer?.id).toBe(customerId);
    const agentOf = async (id: number) =>
      (await db().selectFrom('customers').select('agent_id').where('id', '=', id).executeTakeFirstOrThrow()).agent_id;
    expect(await agentOf(customerId)).toBe(staff.id);
    const other = await agent();
    const served = await createCrmCustomer(db(), { agent_id: other.staff.id });
    const second = await create(token);
    expect((await send('POST', `/api/leads/${second.id}/convert`, token, { customer_id: served })).statusCode).toBe(200);
    expect(await agentOf(served)).toBe(other.staff.id);
    expect((await send('POST', `/api/leads/${lead.id}/convert`, token, { customer_id: 999_999 })).statusCode).toBe(409);
  });
});

const leadActivityOf = (body: unknown) => (body as { data: unknown }).data;
