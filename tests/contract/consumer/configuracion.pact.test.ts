/**
 * Consumer contract of the Configuración calls (Usuarios, Roles y permisos, Empresas with its
 * locals) and of the Historial de cambios list, between `parcela-web` and `parcela-api`, through
 * the real src/api modules. Every interaction starts from an empty database (docs/contracts.md).
 */
import { describe, expect, it } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { createChangeHistoryApi } from '../../../src/api/historial/change-history';
import { createCompanyApi } from '../../../src/api/configuracion/company';
import { createRolesApi } from '../../../src/api/configuracion/roles';
import { createUsersApi } from '../../../src/api/configuracion/users';
import { bearer, caught, httpPact, mockClient } from './pact-helpers';
import { HISTORY_ENTRY, OTHER_ROLE, OTHER_STAFF, STAFF, STAFF_TOKEN, STATES } from '../states';
import { STALE_RECORD_MESSAGE } from '../../../src/schemas/versions';

const { like, eachLike, integer, regex, boolean } = MatchersV3;

const pact = httpPact();
const client = (url: string) => mockClient(url, STAFF_TOKEN);
const json = { ...bearer(STAFF_TOKEN), 'Content-Type': 'application/json' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const meta = (total: number) => ({ page: integer(1), per_page: integer(20), total: integer(total) });
/** The 409 of an edit sent with a version the record no longer has (src/schemas/versions.ts). */
const stale409 = { message: like(STALE_RECORD_MESSAGE), errors: { version: eachLike(like(STALE_RECORD_MESSAGE)) } };

const user = (u: { dni: string; email: string; name: string; surname: string }, status = 'ACTIVO') => ({
  id: integer(2),
  dni: like(u.dni),
  email: like(u.email),
  name: like(u.name),
  surname: like(u.surname),
  phone: like('987111222'),
  status: like(status),
  roles: eachLike({ id: integer(1), name: like('Administrador') }),
  locals: [],
  created_at: regex(ISO, '2026-11-20T15:00:00.000Z'),
  updated_at: regex(ISO, '2026-11-20T15:00:00.000Z'),
  version: integer(1),
});
const role = (name: string, holders = 0) => ({
  id: integer(2),
  name: like(name),
  permissions: eachLike(like('Acceso módulo CRM')),
  holders: integer(holders),
  version: integer(1),
});
const local = (name: string, address: string) => ({
  id: integer(1),
  name: like(name),
  address: like(address),
  active: boolean(true),
  version: integer(1),
});

describe('Usuarios', () => {
  it('lists the active users sorted by surname', async () => {
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a request for the active staff users sorted by surname')
      .withRequest('GET', '/api/users', (b) => b.headers(bearer(STAFF_TOKEN)).query({ per_page: '20', sort: 'surname', status: 'ACTIVO' }))
      .willRespondWith(200, (b) => b.jsonBody({ data: eachLike(user(STAFF)), meta: meta(1) }))
      .executeTest(async (mock) => {
        const page = await createUsersApi(client(mock.url)).list({ page: 1, per_page: 20, sort: 'surname', filters: { status: 'ACTIVO' } });
        expect(page.data[0]?.dni).toBe(STAFF.dni);
      });
  });

  it('creates a user (201)', async () => {
    const body = { dni: '71000009', email: 'nuevo.usuario@parcela.test', name: 'Carla', surname: 'Ríos', role_ids: [1], local_ids: [] };
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a request to create a staff user')
      .withRequest('POST', '/api/users', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(201, (b) => b.jsonBody({ data: { ...user(body), phone: null } }))
      .executeTest(async (mock) => {
        const created = await createUsersApi(client(mock.url)).create(body);
        expect(created.dni).toBe(body.dni);
      });
  });

  it('refuses a user whose DNI is taken (422 errors.dni)', async () => {
    const body = { dni: STAFF.dni, email: 'otro.correo@parcela.test', name: 'Carla', surname: 'Ríos', role_ids: [1], local_ids: [] };
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a request to create a staff user with a DNI already used')
      .withRequest('POST', '/api/users', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(422, (b) =>
        b.jsonBody({ message: like('Los datos no son válidos'), errors: { dni: eachLike(like('Ya existe un usuario con ese DNI')) } }),
      )
      .executeTest(async (mock) => {
        const error = await caught(createUsersApi(client(mock.url)).create(body));
        expect(error.status).toBe(422);
        expect(error.issues.dni?.length).toBeGreaterThan(0);
      });
  });

  it('updates a user, sending the version it read', async () => {
    const body = { phone: '912000111', version: 1 };
    await pact
      .addInteraction()
      .given(STATES.staffAndHeldRole, { token: STAFF_TOKEN })
      .uponReceiving('a request to update a staff user')
      .withRequest('PATCH', '/api/users/2', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            ...user(OTHER_STAFF),
            phone: like(body.phone),
            roles: eachLike({ id: integer(2), name: like(OTHER_ROLE.name) }),
            version: integer(2),
          },
        }),
      )
      .executeTest(async (mock) => {
        const updated = await createUsersApi(client(mock.url)).update(2, body);
        expect(updated.phone).toBe(body.phone);
        expect(updated.version).toBe(2);
      });
  });

  it('refuses an edit of a user another user changed since (409)', async () => {
    const body = { phone: '912000111', version: 1 };
    await pact
      .addInteraction()
      .given(STATES.staffAndHeldRole, { token: STAFF_TOKEN })
      .given(STATES.recordChangedByAnother, { entity: 'users', id: 2 })
      .uponReceiving('a request to update a staff user with a stale version')
      .withRequest('PATCH', '/api/users/2', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(409, (b) => b.jsonBody(stale409))
      .executeTest(async (mock) => {
        const error = await caught(createUsersApi(client(mock.url)).update(2, body));
        expect(error.status).toBe(409);
        expect(error.issues.version?.[0]).toBe(STALE_RECORD_MESSAGE);
      });
  });

  it('deactivates a user', async () => {
    await pact
      .addInteraction()
      .given(STATES.staffAndHeldRole, { token: STAFF_TOKEN })
      .uponReceiving('a request to deactivate a staff user')
      .withRequest('POST', '/api/users/2/deactivate', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            ...user(OTHER_STAFF, 'INACTIVO'),
            status: 'INACTIVO',
            phone: null,
            roles: eachLike({ id: integer(2), name: like(OTHER_ROLE.name) }),
          },
        }),
      )
      .executeTest(async (mock) => {
        const updated = await createUsersApi(client(mock.url)).deactivate(2);
        expect(updated.status).toBe('INACTIVO');
      });
  });
});

describe('Roles y permisos', () => {
  it('lists the roles sorted by name', async () => {
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a request for the roles sorted by name')
      .withRequest('GET', '/api/roles', (b) => b.headers(bearer(STAFF_TOKEN)).query({ per_page: '20', sort: 'name' }))
      .willRespondWith(200, (b) => b.jsonBody({ data: eachLike(role('Administrador', 1)), meta: meta(1) }))
      .executeTest(async (mock) => {
        const page = await createRolesApi(client(mock.url)).list({ page: 1, per_page: 20, sort: 'name', filters: {} });
        expect(page.data.length).toBeGreaterThan(0);
      });
  });

  it('creates a role', async () => {
    const body = { name: 'Cobranzas', permissions: ['Acceso módulo finanzas'] };
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a request to create a role')
      .withRequest('POST', '/api/roles', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(201, (b) => b.jsonBody({ data: { ...role(body.name), permissions: body.permissions } }))
      .executeTest(async (mock) => {
        const created = await createRolesApi(client(mock.url)).create(body);
        expect(created.name).toBe(body.name);
      });
  });

  it("replaces a role's permissions, sending the version it read", async () => {
    const body = { permissions: ['Acceso módulo CRM', 'Acceso submódulo clientes'], version: 1 };
    await pact
      .addInteraction()
      .given(STATES.staffAndHeldRole, { token: STAFF_TOKEN })
      .uponReceiving("a request to replace a role's permissions")
      .withRequest('PATCH', '/api/roles/2', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) =>
        b.jsonBody({ data: { ...role(OTHER_ROLE.name, 1), permissions: body.permissions, version: integer(2) } }),
      )
      .executeTest(async (mock) => {
        const updated = await createRolesApi(client(mock.url)).update(2, body);
        expect(updated.permissions).toEqual(body.permissions);
      });
  });

  it('refuses an edit of a role another user changed since (409)', async () => {
    const body = { permissions: ['Acceso módulo CRM'], version: 1 };
    await pact
      .addInteraction()
      .given(STATES.staffAndHeldRole, { token: STAFF_TOKEN })
      .given(STATES.recordChangedByAnother, { entity: 'roles', id: 2 })
      .uponReceiving('a request to replace the permissions of a role with a stale version')
      .withRequest('PATCH', '/api/roles/2', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(409, (b) => b.jsonBody(stale409))
      .executeTest(async (mock) => {
        const error = await caught(createRolesApi(client(mock.url)).update(2, body));
        expect(error.status).toBe(409);
        expect(error.issues.version?.[0]).toBe(STALE_RECORD_MESSAGE);
      });
  });

  it('refuses to delete a role somebody holds (409)', async () => {
    await pact
      .addInteraction()
      .given(STATES.staffAndHeldRole, { token: STAFF_TOKEN })
      .uponReceiving('a request to delete a role held by a user')
      .withRequest('DELETE', '/api/roles/2', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(409, (b) => b.jsonBody({ message: like('El rol está asignado a usuarios') }))
      .executeTest(async (mock) => {
        const error = await caught(createRolesApi(client(mock.url)).remove(2));
        expect(error.status).toBe(409);
      });
  });
});

describe('Empresas', () => {
  const company = {
    id: integer(1),
    business_name: like('Empresa de Prueba S.A.C.'),
    ruc: regex(/^\d{11}$/, '20100000009'),
    address: like('Av. Prueba 100, Lima'),
    phone: null,
    email: null,
    legal_representative: null,
    logo_url: null,
    version: integer(1),
  };

  it('reads the company', async () => {
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a request for the company')
      .withRequest('GET', '/api/company', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) => b.jsonBody({ data: company }))
      .executeTest(async (mock) => {
        const read = await createCompanyApi(client(mock.url)).get();
        expect(read.ruc).toMatch(/^\d{11}$/);
      });
  });

  it('updates the company, sending the version it read', async () => {
    const body = { phone: '014445555', legal_representative: 'Rosa Huamán', version: 1 };
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a request to update the company')
      .withRequest('PATCH', '/api/company', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: { ...company, phone: like(body.phone), legal_representative: like(body.legal_representative), version: integer(2) },
        }),
      )
      .executeTest(async (mock) => {
        const updated = await createCompanyApi(client(mock.url)).update(body);
        expect(updated.phone).toBe(body.phone);
      });
  });

  it('sets how many days back a sale may be dated', async () => {
    const body = { sale_backdate_days: 30, version: 1 };
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a request to set the back-dating window of sales')
      .withRequest('PATCH', '/api/company', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) => b.jsonBody({ data: { ...company, sale_backdate_days: integer(30), version: integer(2) } }))
      .executeTest(async (mock) => {
        const updated = await createCompanyApi(client(mock.url)).update(body);
        expect(updated.sale_backdate_days).toBe(30);
      });
  });

  it('sets the contract settings of the company: representative DNI and power, place, days to receive the signed copy', async () => {
    const body = {
      legal_representative_dni: '40404040',
      legal_representative_power_entry: 'Partida 11223344, asiento C00002',
      contract_place: 'Lima',
      contract_signature_days: 20,
      version: 1,
    };
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a request to set the contract settings of the company')
      .withRequest('PATCH', '/api/company', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            ...company,
            legal_representative_dni: regex(/^\d{8}$/, body.legal_representative_dni),
            legal_representative_power_entry: like(body.legal_representative_power_entry),
            contract_place: like(body.contract_place),
            contract_signature_days: integer(body.contract_signature_days),
            version: integer(2),
          },
        }),
      )
      .executeTest(async (mock) => {
        const updated = await createCompanyApi(client(mock.url)).update(body);
        expect(updated.contract_signature_days).toBe(20);
        expect(updated.legal_representative_dni).toBe('40404040');
      });
  });

  it('refuses an edit of the company another user changed since (409)', async () => {
    const body = { legal_representative: 'Rosa Huamán', version: 1 };
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .given(STATES.recordChangedByAnother, { entity: 'companies', id: 1 })
      .uponReceiving('a request to update the company with a stale version')
      .withRequest('PATCH', '/api/company', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(409, (b) => b.jsonBody(stale409))
      .executeTest(async (mock) => {
        const error = await caught(createCompanyApi(client(mock.url)).update(body));
        expect(error.status).toBe(409);
        expect(error.issues.version?.[0]).toBe(STALE_RECORD_MESSAGE);
      });
  });

  it('refuses an invalid RUC (422 errors.ruc)', async () => {
    const body = { ruc: '20100000000' };
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a request to update the company with an invalid RUC')
      .withRequest('PATCH', '/api/company', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(422, (b) =>
        b.jsonBody({ message: like('Los datos no son válidos'), errors: { ruc: eachLike(like('El RUC no es válido')) } }),
      )
      .executeTest(async (mock) => {
        const error = await caught(createCompanyApi(client(mock.url)).update(body));
        expect(error.status).toBe(422);
        expect(error.issues.ruc?.length).toBeGreaterThan(0);
      });
  });

  it('lists the active locals sorted by name', async () => {
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .given(STATES.activeLocalsExist)
      .uponReceiving('a request for the active locals sorted by name')
      .withRequest('GET', '/api/locals', (b) => b.headers(bearer(STAFF_TOKEN)).query({ active: 'true', per_page: '20', sort: 'name' }))
      .willRespondWith(200, (b) =>
        b.jsonBody({ data: eachLike(local('Sede Central - Lima', 'Av. Javier Prado Este 1234, San Isidro')), meta: meta(1) }),
      )
      .executeTest(async (mock) => {
        const page = await createCompanyApi(client(mock.url)).listLocals({
          page: 1,
          per_page: 20,
          sort: 'name',
          filters: { active: 'true' },
        });
        expect(page.data[0]?.active).toBe(true);
      });
  });

  it('creates a local', async () => {
    const body = { name: 'Sede Arequipa', address: 'Calle Mercaderes 210, Arequipa' };
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a request to create a local')
      .withRequest('POST', '/api/locals', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(201, (b) => b.jsonBody({ data: local(body.name, body.address) }))
      .executeTest(async (mock) => {
        const created = await createCompanyApi(client(mock.url)).createLocal(body);
        expect(created.name).toBe(body.name);
      });
  });
});

describe('Locales: a stale edit', () => {
  it('refuses an edit of a local another user changed since (409)', async () => {
    const body = { address: 'Av. Javier Prado Este 1250, San Isidro', version: 1 };
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .given(STATES.activeLocalsExist)
      .given(STATES.recordChangedByAnother, { entity: 'locals', id: 1 })
      .uponReceiving('a request to update a local with a stale version')
      .withRequest('PATCH', '/api/locals/1', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(409, (b) => b.jsonBody(stale409))
      .executeTest(async (mock) => {
        const error = await caught(createCompanyApi(client(mock.url)).updateLocal(1, body));
        expect(error.status).toBe(409);
        expect(error.issues.version?.[0]).toBe(STALE_RECORD_MESSAGE);
      });
  });
});

describe('Historial de cambios', () => {
  it('lists the changes of one entity, action and date range', async () => {
    await pact
      .addInteraction()
      .given(STATES.changeHistoryExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the change history filtered by entity, action and dates')
      .withRequest('GET', '/api/change-history', (b) =>
        b.headers(bearer(STAFF_TOKEN)).query({ action: 'UPDATE', entity: 'locals', from: '2026-11-01', per_page: '20', to: '2026-11-30' }),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: eachLike({
            id: integer(1),
            occurred_at: regex(ISO, HISTORY_ENTRY.occurred_at),
            actor: { type: 'COLLABORATOR', id: integer(1), name: like(`${STAFF.name} ${STAFF.surname}`) },
            ip: like('127.0.0.1'),
            entity: HISTORY_ENTRY.entity,
            record_id: like(HISTORY_ENTRY.record_id),
            // The record's business label: a local by its name (here from the entry's snapshot).
            record_label: like(HISTORY_ENTRY.after.name),
            action: HISTORY_ENTRY.action,
            before: like(HISTORY_ENTRY.before),
            after: like(HISTORY_ENTRY.after),
            changed_fields: eachLike(like('name')),
          }),
          meta: meta(1),
        }),
      )
      .executeTest(async (mock) => {
        const page = await createChangeHistoryApi(client(mock.url)).list({
          page: 1,
          per_page: 20,
          filters: { entity: 'locals', action: 'UPDATE', from: '2026-11-01', to: '2026-11-30' },
        });
        expect(page.data[0]?.changed_fields).toContain('name');
        expect(page.data[0]?.record_label).toBe(HISTORY_ENTRY.after.name);
      });
  });
});
