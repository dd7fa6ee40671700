/**
 * Consumer contract of CRM → Clientes (customers and the staff picker) between `parcela-web` and
 * `parcela-api`, through the real src/api module. Every interaction starts from an empty database
 * (docs/contracts.md).
 */
import { describe, expect, it } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { createCustomersApi } from '../../../src/api/crm/customers';
import { STALE_RECORD_MESSAGE } from '../../../src/schemas/versions';
import { bearer, caught, httpPact, mockClient } from './pact-helpers';
import { CRM_CUSTOMER, STAFF, STAFF_TOKEN, STATES } from '../states';

const { like, eachLike, integer, regex, boolean } = MatchersV3;

const pact = httpPact();
const api = (url: string) => createCustomersApi(mockClient(url, STAFF_TOKEN));
const json = { ...bearer(STAFF_TOKEN), 'Content-Type': 'application/json' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const meta = (total: number) => ({ page: integer(1), per_page: integer(20), total: integer(total) });

/** A customer as the server answers it; `c` the fields the interaction fixes. */
const customer = (c: { document_number: string; name: string; surname: string }, version = 1) => ({
  id: integer(1),
  person_type: like('NATURAL'),
  id_document_type: like('1'),
  document_number: like(c.document_number),
  name: like(c.name),
  surname: like(c.surname),
  display_name: like(`${c.name} ${c.surname}`),
  status: like('ACTIVO'),
  portal_user: boolean(false),
  created_at: regex(ISO, '2026-11-20T15:00:00.000Z'),
  updated_at: regex(ISO, '2026-11-20T15:00:00.000Z'),
  version: integer(version),
});

describe('Clientes', () => {
  it('lists the natural-person customers matching a search, sorted by name', async () => {
    await pact
      .addInteraction()
      .given(STATES.crmCustomerExists, { token: STAFF_TOKEN })
      .uponReceiving('a search of the natural-person customers sorted by name')
      .withRequest('GET', '/api/customers', (b) =>
        b.headers(bearer(STAFF_TOKEN)).query({ per_page: '20', sort: 'name', q: 'condori', person_type: 'NATURAL' }),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({ data: eachLike({ ...customer(CRM_CUSTOMER), ubigeo: like(CRM_CUSTOMER.ubigeo) }), meta: meta(1) }),
      )
      .executeTest(async (mock) => {
        const page = await api(mock.url).list({ page: 1, per_page: 20, sort: 'name', q: 'condori', filters: { person_type: 'NATURAL' } });
        expect(page.data[0]?.document_number).toBe(CRM_CUSTOMER.document_number);
        expect(page.data[0]?.portal_user).toBe(false);
      });
  });

  it('creates a customer (201)', async () => {
    const body = {
      person_type: 'NATURAL' as const,
      id_document_type: '1' as const,
      document_number: '47000002',
      name: 'Pedro',
      surname: 'Ramos Díaz',
      phone: '912000333',
      marital_status: 'SOLTERO' as const,
      ubigeo: '150106',
    };
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a request to create a CRM customer')
      .withRequest('POST', '/api/customers', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(201, (b) => b.jsonBody({ data: { ...customer(body), phone: like(body.phone), ubigeo: like(body.ubigeo) } }))
      .executeTest(async (mock) => {
        const created = await api(mock.url).create(body);
        expect(created.display_name).toBe('Pedro Ramos Díaz');
      });
  });

  it('creates a married customer with the property regime the contracts name (201)', async () => {
    const body = {
      person_type: 'NATURAL' as const,
      id_document_type: '1' as const,
      document_number: '47000005',
      name: 'Lucía',
      surname: 'Mendoza Paz',
      phone: '912000555',
      marital_status: 'CASADO' as const,
      property_regime: 'SOCIEDAD_GANANCIALES' as const,
    };
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a request to create a married CRM customer with the property regime')
      .withRequest('POST', '/api/customers', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(201, (b) =>
        b.jsonBody({
          data: {
            ...customer(body),
            marital_status: like(body.marital_status),
            property_regime: regex(/^(SOCIEDAD_GANANCIALES|SEPARACION_PATRIMONIOS)$/, body.property_regime),
          },
        }),
      )
      .executeTest(async (mock) => {
        const created = await api(mock.url).create(body);
        expect(created.property_regime).toBe('SOCIEDAD_GANANCIALES');
      });
  });

  it('refuses a customer whose document is taken (422 errors.document_number)', async () => {
    const body = {
      person_type: 'NATURAL' as const,
      id_document_type: '1' as const,
      document_number: CRM_CUSTOMER.document_number,
      name: 'Otra',
      surname: 'Persona',
      phone: '912000444',
    };
    await pact
      .addInteraction()
      .given(STATES.crmCustomerExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to create a CRM customer with a document already registered')
      .withRequest('POST', '/api/customers', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(422, (b) =>
        b.jsonBody({
          message: like('Los datos no son válidos'),
          errors: { document_number: eachLike(like('El documento ya está registrado')) },
        }),
      )
      .executeTest(async (mock) => {
        const error = await caught(api(mock.url).create(body));
        expect(error.status).toBe(422);
        expect(error.issues.document_number?.length).toBeGreaterThan(0);
      });
  });

  it('updates a customer, sending the version it read', async () => {
    const body = { address: 'Jr. Las Begonias 450', version: 1 };
    await pact
      .addInteraction()
      .given(STATES.crmCustomerExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to update a CRM customer')
      .withRequest('PATCH', '/api/customers/1', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) => b.jsonBody({ data: { ...customer(CRM_CUSTOMER, 2), address: like(body.address) } }))
      .executeTest(async (mock) => {
        const updated = await api(mock.url).update(1, body);
        expect(updated.address).toBe(body.address);
        expect(updated.version).toBe(2);
      });
  });

  it('refuses an edit of a customer another user changed since (409)', async () => {
    const body = { address: 'Jr. Las Begonias 450', version: 1 };
    await pact
      .addInteraction()
      .given(STATES.crmCustomerExists, { token: STAFF_TOKEN })
      .given(STATES.recordChangedByAnother, { entity: 'customers', id: 1 })
      .uponReceiving('a request to update a CRM customer with a stale version')
      .withRequest('PATCH', '/api/customers/1', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(409, (b) =>
        b.jsonBody({ message: like(STALE_RECORD_MESSAGE), errors: { version: eachLike(like(STALE_RECORD_MESSAGE)) } }),
      )
      .executeTest(async (mock) => {
        const error = await caught(api(mock.url).update(1, body));
        expect(error.status).toBe(409);
        expect(error.issues.version?.[0]).toBe(STALE_RECORD_MESSAGE);
      });
  });

  it('deletes a customer without portal login (204)', async () => {
    await pact
      .addInteraction()
      .given(STATES.crmCustomerExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to delete a CRM customer')
      .withRequest('DELETE', '/api/customers/1', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(204)
      .executeTest(async (mock) => {
        await expect(api(mock.url).remove(1)).resolves.toBeUndefined();
      });
  });

  it('e-mails a customer the link to create their portal password', async () => {
    await pact
      .addInteraction()
      .given(STATES.crmCustomerExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to send a CRM customer the portal link')
      .withRequest('POST', '/api/customers/1/send-password-reset', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) => b.jsonBody({ message: like('Se envió al cliente el enlace para crear su contraseña') }))
      .executeTest(async (mock) => {
        const answer = await api(mock.url).sendPasswordReset(1);
        expect(answer.message.length).toBeGreaterThan(0);
      });
  });

  it('lists the active staff for the agent and collector pickers', async () => {
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a request for the active staff to assign')
      .withRequest('GET', '/api/staff-options', (b) => b.headers(bearer(STAFF_TOKEN)).query({ per_page: '100' }))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: eachLike({ id: integer(1), name: like(STAFF.name), surname: like(STAFF.surname) }),
          meta: { page: integer(1), per_page: integer(100), total: integer(1) },
        }),
      )
      .executeTest(async (mock) => {
        const page = await api(mock.url).staffOptions('');
        expect(page.data[0]?.name).toBe(STAFF.name);
      });
  });
});
