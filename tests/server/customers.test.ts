import { describe, expect, it } from 'vitest';
import { CUSTOMER_MESSAGES, customerResponseSchema, customersPageSchema, staffOptionsPageSchema } from '../../src/schemas/crm/customers';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { STALE_RECORD_MESSAGE } from '../../src/schemas/versions';
import { createCrmCustomer, createCustomer, createRole, createSession, createStaff, FIXTURE_PASSWORD } from '../../server/testing/fixtures';
import { bearer, dialects, getWithToken, postLogin, useTestApp, useTestDatabase } from './harness';

/** CRM → Clientes: /api/customers and /api/staff-options (issue "CRM and sales"). */

let n = 0;
/** A valid POST /api/customers body for a NATURAL customer with a unique DNI. */
function naturalBody(overrides: Record<string, unknown> = {}) {
  n += 1;
  return {
    person_type: 'NATURAL',
    id_document_type: '1',
    document_number: `4${String(n).padStart(7, '0')}`,
    name: 'Rosa',
    surname: `Quispe ${n}`,
    phone: '987654321',
    ...overrides,
  };
}
/** A valid RUC of a company (20…, mod-11 check digit). */
const COMPANY_RUC = '20100070970';

describe.each(dialects)('customers (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  /** A staff user holding CRM + clientes, with a token. */
  async function crmStaff() {
    const role = `CRM ${dialect} ${++n}`;
    await createRole(db(), role, [MODULE.crm, SUBMODULE.clientes]);
    const staff = await createStaff(db(), { roleNames: [role], clock: ctx().clock });
    return { staff, token: await createSession(db(), staff) };
  }

  const send = (method: 'POST' | 'PATCH' | 'GET' | 'DELETE', url: string, token: string, payload?: unknown) =>
    ctx().app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });

  it('creates a NATURAL customer with agent, collector, ubigeo and spouse, and records it without secrets', async () => {
    const { token, staff } = await crmStaff();
    const spouse = await createCrmCustomer(db(), { name: 'Juan', surname: 'Pérez' });
    const body = naturalBody({
      marital_status: 'CASADO',
      spouse_id: spouse,
      email: 'Rosa.Q@Parcela.test',
      ubigeo: '150132',
      address: 'Jr. Los Olivos 123',
      agent_id: staff.id,
      collector_id: staff.id,
      birthday_date: '1985-06-30',
    });
    const res = await send('POST', '/api/customers', token, body);
    expect(res.statusCode).toBe(201);
    const { data } = customerResponseSchema.parse(res.json());
    expect(data).toMatchObject({
      person_type: 'NATURAL',
      display_name: `Rosa ${body.surname}`,
      email: 'rosa.q@parcela.test',
      spouse: { id: spouse, display_name: 'Juan Pérez' },
      agent: { id: staff.id },
      collector: { id: staff.id },
      ubigeo: '150132',
      portal_user: false,
      status: 'ACTIVO',
      version: 1,
    });
    const history = await db()
      .selectFrom('change_history')
      .selectAll()
      .where('entity', '=', 'customers')
      .where('record_id', '=', String(data.id))
      .execute();
    expect(history.map((h) => h.action)).toEqual(['CREATE']);
    expect(history[0]?.after).not.toMatch(/password/);
  });

  it('creates a JURIDICA customer: RUC 20…, business name, legal representative, no surname', async () => {
    const { token } = await crmStaff();
    const res = await send('POST', '/api/customers', token, {
      person_type: 'JURIDICA',
      id_document_type: '6',
      document_number: COMPANY_RUC,
      name: 'Inversiones Andinas S.A.C.',
      legal_representative: 'Carlos Rojas',
      phone: '912345678',
    });
    expect(res.statusCode).toBe(201);
    expect(customerResponseSchema.parse(res.json()).data).toMatchObject({
      display_name: 'Inversiones Andinas S.A.C.',
      surname: null,
      legal_representative: 'Carlos Rojas',
    });
  });

  it('answers 422 per field on the rules, storing nothing', async () => {
    const { token } = await crmStaff();
    const taken = naturalBody({ email: 'tomado@parcela.test' });
    expect((await send('POST', '/api/customers', token, taken)).statusCode).toBe(201);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ person_type: 'JURIDICA', surname: undefined, legal_representative: 'X' }, 'id_document_type', CUSTOMER_MESSAGES.juridicaNeedsRuc],
      [
        { person_type: 'JURIDICA', id_document_type: '6', document_number: COMPANY_RUC },
        'legal_representative',
        CUSTOMER_MESSAGES.representativeRequired,
      ],
      [{ surname: '' }, 'surname', CUSTOMER_MESSAGES.surnameRequired],
      [
        { id_document_type: '6', document_number: '20100070971' },
        'document_number',
        'El RUC no es válido (11 dígitos con dígito verificador)',
      ],
      [{ marital_status: 'SOLTERO', spouse_id: 1 }, 'spouse_id', CUSTOMER_MESSAGES.spouseOnlyWhenMarried],
      [{ ubigeo: '159999' }, 'ubigeo', CUSTOMER_MESSAGES.unknownUbigeo],
      [{ document_number: taken.document_number }, 'document_number', CUSTOMER_MESSAGES.duplicateDocument],
      [{ email: 'TOMADO@parcela.test' }, 'email', CUSTOMER_MESSAGES.duplicateEmail],
      [{ birthday_date: '2099-01-01' }, 'birthday_date', CUSTOMER_MESSAGES.futureBirthday],
      [{ marital_status: 'CASADO', spouse_id: 999_999 }, 'spouse_id', CUSTOMER_MESSAGES.unknownSpouse],
      [{ agent_id: (await createStaff(db(), { status: 'INACTIVO' })).id }, 'agent_id', CUSTOMER_MESSAGES.unknownStaff],
      [{ phone: '12345' }, 'phone', 'El celular debe tener 9 dígitos y empezar con 9'],
      [{ extra: 1 }, '', ''],
    ];
    const before = await db().selectFrom('customers').select('id').execute();
    for (const [overrides, field, message] of cases) {
      const res = await send('POST', '/api/customers', token, naturalBody(overrides));
      expect(res.statusCode, JSON.stringify(overrides)).toBe(422);
      if (field) expect(res.json().errors[field], field).toEqual([message]);
    }
    expect(await db().selectFrom('customers').select('id').execute()).toHaveLength(before.length);
  });

  it('lists with search, filters and sort; self-registered customers show as portal users', async () => {
    const { token, staff } = await crmStaff();
    const portal = await createCustomer(db(), { name: 'Portal', surname: 'Buscable' });
    const mine = await createCrmCustomer(db(), { name: 'Asignado', surname: 'Buscable', agent_id: staff.id });
    await createCrmCustomer(db(), { name: 'Otro', surname: 'Nombre' });
    const page = customersPageSchema.parse((await getWithToken(ctx().app, '/api/customers?q=buscable&sort=name', token)).json());
    expect(page.data.map((c) => c.display_name)).toEqual(['Asignado Buscable', 'Portal Buscable']);
    expect(page.data.map((c) => c.portal_user)).toEqual([false, true]);
    const byAgent = customersPageSchema.parse((await getWithToken(ctx().app, `/api/customers?agent_id=${staff.id}`, token)).json());
    expect(byAgent.data.map((c) => c.id)).toEqual([mine]);
    const portalOnly = customersPageSchema.parse(
      (await getWithToken(ctx().app, '/api/customers?portal_user=true&q=buscable', token)).json(),
    );
    expect(portalOnly.data.map((c) => c.id)).toEqual([portal.id]);
    expect((await getWithToken(ctx().app, '/api/customers?sort=password_hash', token)).statusCode).toBe(422);
  });

  it('updates with the version read; a stale edit is 409 and stores nothing', async () => {
    const { token } = await crmStaff();
    const id = await createCrmCustomer(db());
    const first = await send('PATCH', `/api/customers/${id}`, token, { address: 'Av. Uno 1', version: 1 });
    expect(first.statusCode).toBe(200);
    expect(customerResponseSchema.parse(first.json()).data).toMatchObject({ address: 'Av. Uno 1', version: 2 });
    const stale = await send('PATCH', `/api/customers/${id}`, token, { address: 'Av. Dos 2', version: 1 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().message).toBe(STALE_RECORD_MESSAGE);
    const row = await db().selectFrom('customers').select('address').where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.address).toBe('Av. Uno 1');
  });

  it('turning a customer JURIDICA needs a RUC; a spouse cannot be oneself', async () => {
    const { token } = await crmStaff();
    const id = await createCrmCustomer(db());
    const res = await send('PATCH', `/api/customers/${id}`, token, { person_type: 'JURIDICA', legal_representative: 'R' });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.id_document_type).toEqual([CUSTOMER_MESSAGES.juridicaNeedsRuc]);
    const self = await send('PATCH', `/api/customers/${id}`, token, { marital_status: 'CASADO', spouse_id: id });
    expect(self.json().errors.spouse_id).toEqual([CUSTOMER_MESSAGES.spouseIsSelf]);
  });

  it('deactivating a portal customer ends their sessions; they cannot be deleted, a staff-entered one can', async () => {
    const { token } = await crmStaff();
    const portal = await createCustomer(db());
    const portalToken = await createSession(db(), portal);
    expect((await getWithToken(ctx().app, '/api/customer/get_notifications_by_user', portalToken)).statusCode).not.toBe(401);
    expect((await send('PATCH', `/api/customers/${portal.id}`, token, { status: 'INACTIVO' })).statusCode).toBe(200);
    expect((await getWithToken(ctx().app, '/api/customer/get_notifications_by_user', portalToken)).statusCode).toBe(401);
    const refused = await send('DELETE', `/api/customers/${portal.id}`, token);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(CUSTOMER_MESSAGES.portalUserDelete);

    const spouse = await createCrmCustomer(db());
    const married = await createCrmCustomer(db(), { marital_status: 'CASADO', spouse_id: spouse });
    expect((await send('DELETE', `/api/customers/${spouse}`, token)).statusCode).toBe(204);
    expect((await send('GET', `/api/customers/${spouse}`, token)).statusCode).toBe(404);
    expect(customerResponseSchema.parse((await send('GET', `/api/customers/${married}`, token)).json()).data.spouse).toBeNull();
  });

  it('a staff-entered customer has no portal login until a link sets their password', async () => {
    const { token } = await crmStaff();
    const noMail = await createCrmCustomer(db());
    expect((await send('POST', `/api/customers/${noMail}/send-password-reset`, token)).json().message).toBe(
      CUSTOMER_MESSAGES.noEmailForReset,
    );
    const id = await createCrmCustomer(db(), { email: `enlace${dialect}@parcela.test` });
    const row = await db().selectFrom('customers').select('document_number').where('id', '=', id).executeTakeFirstOrThrow();
    const login = await postLogin(ctx().app, row.document_number, FIXTURE_PASSWORD, 'CUSTOMER');
    expect(login.statusCode).toBe(422);
    const res = await send('POST', `/api/customers/${id}/send-password-reset`, token);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(CUSTOMER_MESSAGES.resetSent);
    const mail = await db().selectFrom('outbox').selectAll().where('recipient', '=', `enlace${dialect}@parcela.test`).executeTakeFirst();
    expect(mail?.link).toMatch(/\/auth\/reset_password\/[0-9a-f]{64}\/customer$/);
  });

  it('lists active staff for the pickers, and refuses callers without the permission', async () => {
    const { token } = await crmStaff();
    const inactive = await createStaff(db(), { status: 'INACTIVO', name: 'Inactivo' });
    const page = staffOptionsPageSchema.parse((await getWithToken(ctx().app, '/api/staff-options?per_page=100', token)).json());
    expect(page.data.length).toBeGreaterThan(0);
    expect(page.data.map((s) => s.id)).not.toContain(inactive.id);
    expect(Object.keys(page.data[0] ?? {}).sort()).toEqual(['id', 'name', 'surname']);

    const plain = await createStaff(db());
    const plainToken = await createSession(db(), plain);
    expect((await getWithToken(ctx().app, '/api/customers', plainToken)).statusCode).toBe(403);
    const customer = await createCustomer(db());
    expect((await getWithToken(ctx().app, '/api/customers', await createSession(db(), customer))).statusCode).toBe(403);
  });
});
