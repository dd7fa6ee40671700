/**
 * Consumer contract of CRM → LEADS between `parcela-web` and `parcela-api`, through the real
 * src/api module. Every interaction starts from an empty database (docs/contracts.md).
 */
import { describe, expect, it } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { createLeadsApi } from '../../../src/api/crm/leads';
import { createSubdivisionOptionsApi } from '../../../src/api/proyectos/subdivision-options';
import { LEAD_MESSAGES } from '../../../src/schemas/crm/leads';
import { bearer, caught, httpPact, mockClient, withTextBody } from './pact-helpers';
import { CRM_LEAD, STAFF_TOKEN, STATES } from '../states';

const { like, eachLike, integer, regex, string } = MatchersV3;

const pact = httpPact();
const api = (url: string) => createLeadsApi(mockClient(url, STAFF_TOKEN));
const json = { ...bearer(STAFF_TOKEN), 'Content-Type': 'application/json' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const instant = regex(ISO, '2026-11-20T15:00:00.000Z');

/** A lead as the server answers it: the fields the screen needs; `l` those the interaction fixes. */
const lead = (l: { name: string; channel: string; status?: string; phone?: string }, version = 1) => ({
  id: integer(1),
  name: like(l.name),
  ...(l.phone ? { phone: like(l.phone) } : {}),
  channel: like(l.channel),
  status: like(l.status ?? 'POR_ATENDER'),
  received_at: instant,
  created_at: instant,
  updated_at: instant,
  version: integer(version),
});

/** A two-row Meta-style lead file (a .txt of CSV text: Pact's mock sniffs parts by their name). */
const LEAD_CSV = 'full_name,phone_number,campaign_name,platform\nLucía Ramos,p:+51955100200,Verano,ig\nMarco Díaz,955100201,Verano,fb\n';
const BOUNDARY = 'parcelaLeadsBoundary';
const MULTIPART = regex(/^multipart\/form-data;\s*boundary=.+$/, `multipart/form-data; boundary=${BOUNDARY}`);
/** The multipart body as the app sends it: the options as text fields, then `file`. */
const leadImportBody =
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="channel"\r\n\r\nFACEBOOK\r\n` +
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="duplicates"\r\n\r\nMERGE\r\n` +
  `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="leads.txt"\r\nContent-Type: text/plain\r\n\r\n` +
  `${LEAD_CSV}\r\n--${BOUNDARY}--\r\n`;
const leadFile = () => new File([LEAD_CSV], 'leads.txt', { type: 'text/plain' });

describe('Leads', () => {
  it('lists the open leads matching a search', async () => {
    await pact
      .addInteraction()
      .given(STATES.leadExists, { token: STAFF_TOKEN })
      .uponReceiving('a search of the leads to attend')
      .withRequest('GET', '/api/leads', (b) =>
        b.headers(bearer(STAFF_TOKEN)).query({ per_page: '20', q: 'gabriela', status: 'POR_ATENDER' }),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: eachLike({ ...lead(CRM_LEAD), agent: like({ id: 1, name: 'Rosa', surname: 'Pérez' }), overdue: MatchersV3.boolean(false) }),
          meta: { page: integer(1), per_page: integer(20), total: integer(1) },
        }),
      )
      .executeTest(async (mock) => {
        const page = await api(mock.url).list({ page: 1, per_page: 20, q: 'gabriela', filters: { status: 'POR_ATENDER' } });
        expect(page.data[0]?.name).toBe(CRM_LEAD.name);
      });
  });

  it('counts the leads per status', async () => {
    await pact
      .addInteraction()
      .given(STATES.leadExists, { token: STAFF_TOKEN })
      .uponReceiving('the count of leads per status')
      .withRequest('GET', '/api/leads/summary', (b) => b.headers(bearer(STAFF_TOKEN)).query({ channel: 'FACEBOOK' }))
      .willRespondWith(200, (b) => b.jsonBody({ data: { counts: { POR_ATENDER: integer(1) }, overdue: integer(0) } }))
      .executeTest(async (mock) => {
        const summary = await api(mock.url).summary({ channel: 'FACEBOOK', status: 'EN_ATENCION' });
        expect(summary.counts.POR_ATENDER).toBe(1);
      });
  });

  it('finds the leads with a phone', async () => {
    await pact
      .addInteraction()
      .given(STATES.leadExists, { token: STAFF_TOKEN })
      .uponReceiving('a search of leads with the same phone')
      .withRequest('GET', '/api/leads/duplicates', (b) => b.headers(bearer(STAFF_TOKEN)).query({ phone: '+51 987 000 111' }))
      .willRespondWith(200, (b) => b.jsonBody({ data: eachLike(lead(CRM_LEAD)) }))
      .executeTest(async (mock) => {
        const found = await api(mock.url).duplicates({ phone: '+51 987 000 111' });
        expect(found[0]?.name).toBe(CRM_LEAD.name);
      });
  });

  it('creates a lead (201)', async () => {
    const body = { name: 'Mario Díaz', phone: '912345678', channel: 'WHATSAPP' as const, subdivision_ids: [] };
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a request to create a lead')
      .withRequest('POST', '/api/leads', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(201, (b) => b.jsonBody({ data: lead({ ...body, phone: body.phone }) }))
      .executeTest(async (mock) => {
        const created = await api(mock.url).create(body);
        expect(created.name).toBe('Mario Díaz');
      });
  });

  it('refuses a lead whose phone is another lead’s (409)', async () => {
    const body = { name: 'Gaby T.', phone: '987000111', channel: 'INSTAGRAM' as const };
    await pact
      .addInteraction()
      .given(STATES.leadExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to create a lead with a phone already registered')
      .withRequest('POST', '/api/leads', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(409, (b) => b.jsonBody({ message: string(LEAD_MESSAGES.duplicate) }))
      .executeTest(async (mock) => {
        const error = await caught(api(mock.url).create(body));
        expect(error.status).toBe(409);
        expect(error.message).toBe(LEAD_MESSAGES.duplicate);
      });
  });

  it('marks a lead NO_CONCRETADO with its reason and the version read', async () => {
    const body = { status: 'NO_CONCRETADO' as const, lost_reason: 'Sin presupuesto', version: 1 };
    await pact
      .addInteraction()
      .given(STATES.leadExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to mark a lead as not concluded')
      .withRequest('PATCH', '/api/leads/1', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) =>
        b.jsonBody({ data: { ...lead({ ...CRM_LEAD, status: 'NO_CONCRETADO' }, 2), lost_reason: like(body.lost_reason) } }),
      )
      .executeTest(async (mock) => {
        const updated = await api(mock.url).update(1, body);
        expect(updated.status).toBe('NO_CONCRETADO');
      });
  });

  it('reads the activity log', async () => {
    await pact
      .addInteraction()
      .given(STATES.leadExists, { token: STAFF_TOKEN })
      .uponReceiving('the activity log of a lead')
      .withRequest('GET', '/api/leads/1/activities', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: eachLike({
            id: integer(1),
            kind: like(CRM_LEAD.activity.kind),
            outcome: like(CRM_LEAD.activity.outcome),
            occurred_at: instant,
          }),
        }),
      )
      .executeTest(async (mock) => {
        const log = await api(mock.url).activities(1);
        expect(log[0]?.outcome).toBe(CRM_LEAD.activity.outcome);
      });
  });

  it('logs an activity (201)', async () => {
    const body = { kind: 'WHATSAPP' as const, outcome: 'Se envió el plano', next_follow_up_at: '2030-01-15T15:00:00Z' };
    await pact
      .addInteraction()
      .given(STATES.leadExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to log an activity of a lead')
      .withRequest('POST', '/api/leads/1/activities', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(201, (b) =>
        b.jsonBody({ data: { id: integer(2), kind: like(body.kind), outcome: like(body.outcome), occurred_at: instant } }),
      )
      .executeTest(async (mock) => {
        const activity = await api(mock.url).addActivity(1, body);
        expect(activity.kind).toBe('WHATSAPP');
      });
  });

  it('merges a new contact into a lead', async () => {
    const body = { name: 'Gaby Torres', phone: '987000111', channel: 'TIKTOK' as const, campaign: 'Navidad' };
    await pact
      .addInteraction()
      .given(STATES.leadExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to merge a contact into a lead')
      .withRequest('POST', '/api/leads/1/merge', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) => b.jsonBody({ data: lead(CRM_LEAD, 2) }))
      .executeTest(async (mock) => {
        const merged = await api(mock.url).merge(1, body);
        expect(merged.name).toBe(CRM_LEAD.name);
      });
  });

  it('converts a lead into a new customer', async () => {
    const body = {
      customer: {
        person_type: 'NATURAL' as const,
        id_document_type: '1' as const,
        document_number: '47111222',
        name: 'Gabriela',
        surname: 'Torres Ríos',
        phone: '987000111',
      },
      version: 1,
    };
    await pact
      .addInteraction()
      .given(STATES.leadExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to convert a lead into a customer')
      .withRequest('POST', '/api/leads/1/convert', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            ...lead({ ...CRM_LEAD, status: 'EN_ATENCION' }, 2),
            customer: { id: integer(1), display_name: like('Gabriela Torres Ríos') },
          },
        }),
      )
      .executeTest(async (mock) => {
        const converted = await api(mock.url).convert(1, body);
        expect(converted.customer?.display_name).toBe('Gabriela Torres Ríos');
      });
  });

  it('lists the subdivisions for the pickers', async () => {
    await pact
      .addInteraction()
      .given(STATES.customerAndLotsExist, { token: STAFF_TOKEN })
      .uponReceiving('the subdivision options')
      .withRequest('GET', '/api/subdivision-options', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) => b.jsonBody({ data: eachLike({ id: integer(1), name: like('Los Viñedos de Carabayllo') }) }))
      .executeTest(async (mock) => {
        const options = await createSubdivisionOptionsApi(mockClient(mock.url, STAFF_TOKEN)).list();
        expect(options.length).toBeGreaterThan(0);
      });
  });

  it('previews a lead file (nothing stored)', async () => {
    await pact
      .addInteraction()
      .given(STATES.leadExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to preview a lead file')
      .withRequest('POST', '/api/leads/imports/preview', (b) =>
        withTextBody(
          b.headers({ ...bearer(STAFF_TOKEN), 'Content-Type': MULTIPART }),
          `multipart/form-data; boundary=${BOUNDARY}`,
          leadImportBody,
        ),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            total: integer(2),
            create: integer(2),
            merge: integer(0),
            skip: integer(0),
            errors: 0,
            rows: eachLike({
              row: integer(2),
              name: like('Lucía Ramos'),
              phone: like('955100200'),
              channel: like('INSTAGRAM'),
              action: like('NUEVO'),
            }),
            issues: [],
          },
        }),
      )
      .executeTest(async (mock) => {
        const preview = await api(mock.url).previewImport(leadFile(), 'leads.txt', { channel: 'FACEBOOK', duplicates: 'MERGE' });
        expect(preview.create).toBe(2);
        expect(preview.rows[0]?.action).toBe('NUEVO');
      });
  });

  it('imports a lead file (all or nothing)', async () => {
    await pact
      .addInteraction()
      .given(STATES.leadExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to import a lead file')
      .withRequest('POST', '/api/leads/imports', (b) =>
        withTextBody(
          b.headers({ ...bearer(STAFF_TOKEN), 'Content-Type': MULTIPART }),
          `multipart/form-data; boundary=${BOUNDARY}`,
          leadImportBody,
        ),
      )
      .willRespondWith(200, (b) => b.jsonBody({ data: { created: integer(2), merged: integer(0), skipped: integer(0) } }))
      .executeTest(async (mock) => {
        const result = await api(mock.url).commitImport(leadFile(), 'leads.txt', { channel: 'FACEBOOK', duplicates: 'MERGE' });
        expect(result.created).toBe(2);
      });
  });
});
