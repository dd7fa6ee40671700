/**
 * Consumer contract of Administración → Generar Contrato, tab "Plantillas" (contract templates,
 * docs/domain.md "Contract templates") between `parcela-web` and `parcela-api`, through the real
 * src/api module: the latest version of each family filtered by subdivision and kind, one version
 * with its content, create (201 BORRADOR v1), edit with the version read (200, 422 on `content`
 * for a variable unknown to the catalogue, 409 stale, 409 on a PUBLICADA), publish, and a new
 * version (201, 409 when the family already has a draft). Every interaction starts from an empty
 * database (docs/contracts.md).
 */
import { describe, expect, it } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { createContractTemplatesApi } from '../../../src/api/administracion/contract-templates';
import {
  CONTRACT_TEMPLATE_MESSAGES,
  templateContentIssues,
  type TemplateDoc,
} from '../../../src/schemas/administracion/contract-templates';
import { STALE_RECORD_MESSAGE } from '../../../src/schemas/versions';
import { bearer, caught, httpPact, mockClient } from './pact-helpers';
import { STAFF_TOKEN, STATES } from '../states';
import { PROJECT_STATES, SUBDIVISION } from '../projects-states';
import { TEMPLATE, TEMPLATE_STATES } from '../contract-templates-states';

const { like, integer, regex, eachLike, nullValue } = MatchersV3;

const pact = httpPact();
const api = (url: string) => createContractTemplatesApi(mockClient(url, STAFF_TOKEN));
const json = { ...bearer(STAFF_TOKEN), 'Content-Type': 'application/json' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const STAMP = '2026-11-20T17:00:00.000Z';
const stale409 = { message: like(STALE_RECORD_MESSAGE), errors: { version: eachLike(like(STALE_RECORD_MESSAGE)) } };

/** A template version as the server answers it; `content` null in lists. */
function template(
  options: {
    id?: number;
    state?: 'BORRADOR' | 'PUBLICADA';
    versionNumber?: number;
    version?: number;
    content?: unknown;
    name?: string;
  } = {},
) {
  const state = options.state ?? 'BORRADOR';
  return {
    id: integer(options.id ?? 1),
    subdivision: { id: integer(1), name: like(SUBDIVISION.name) },
    kind: regex(/^(COMPRAVENTA_CONTADO|COMPRAVENTA_PLAZOS|SEPARACION|ADENDA|CARTA_RESOLUCION)$/, TEMPLATE.kind),
    name: like(options.name ?? TEMPLATE.name),
    state: regex(/^(BORRADOR|PUBLICADA)$/, state),
    version_number: integer(options.versionNumber ?? 1),
    content: options.content === undefined ? like(TEMPLATE.content) : options.content,
    published_at: state === 'PUBLICADA' ? regex(ISO, STAMP) : nullValue(),
    published_by: state === 'PUBLICADA' ? { id: integer(1), name: like('Carlos Ramos') } : nullValue(),
    created_at: regex(ISO, STAMP),
    updated_at: regex(ISO, STAMP),
    version: integer(options.version ?? 1),
  };
}

/** A new template's first text: a title and one clause with a variable. */
const NEW_CONTENT: TemplateDoc = {
  type: 'doc',
  content: [
    { type: 'heading', attrs: { level: 1 }, content: [{ type: 'text', text: 'CONTRATO DE SEPARACIÓN' }] },
    {
      type: 'paragraph',
      content: [
        { type: 'text', text: 'Monto de las arras: ' },
        { type: 'variable', attrs: { key: 'separacion.monto' } },
      ],
    },
  ],
};

describe('Plantillas de contrato (consumer)', () => {
  it('lists the latest version of each family of a subdivision and kind, by name', async () => {
    await pact
      .addInteraction()
      .given(TEMPLATE_STATES.draftTemplateExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the latest contract templates of a subdivision and kind')
      .withRequest('GET', '/api/contract-templates', (b) =>
        b.headers(bearer(STAFF_TOKEN)).query({ per_page: '20', sort: 'name', kind: TEMPLATE.kind, latest: 'true', subdivision_id: '1' }),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: eachLike(template({ content: nullValue() })),
          meta: { page: integer(1), per_page: integer(20), total: integer(1) },
        }),
      )
      .executeTest(async (mock) => {
        const page = await api(mock.url).list({
          page: 1,
          per_page: 20,
          sort: 'name',
          filters: { subdivision_id: '1', kind: TEMPLATE.kind, latest: 'true' },
        });
        expect(page.data[0]).toMatchObject({ id: 1, state: 'BORRADOR', version_number: 1, content: null });
      });
  });

  it('reads one version with its content', async () => {
    await pact
      .addInteraction()
      .given(TEMPLATE_STATES.draftTemplateExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for one contract template with its content')
      .withRequest('GET', '/api/contract-templates/1', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) => b.jsonBody({ data: template() }))
      .executeTest(async (mock) => {
        const read = await api(mock.url).get(1);
        expect(read.content).toEqual(TEMPLATE.content);
        expect(templateContentIssues(read.content as TemplateDoc, 'COMPRAVENTA_CONTADO')).toEqual([]);
      });
  });

  it('creates the first version of a family (201, BORRADOR v1)', async () => {
    const body = { subdivision_id: 1, kind: 'SEPARACION' as const, name: 'Separación — arras confirmatorias', content: NEW_CONTENT };
    await pact
      .addInteraction()
      .given(PROJECT_STATES.subdivisionWithLots, { token: STAFF_TOKEN })
      .uponReceiving('a request to create a contract template')
      .withRequest('POST', '/api/contract-templates', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(201, (b) =>
        b.jsonBody({
          data: {
            ...template({ content: like(NEW_CONTENT), name: body.name }),
            kind: regex(/^SEPARACION$/, 'SEPARACION'),
            state: regex(/^BORRADOR$/, 'BORRADOR'),
          },
        }),
      )
      .executeTest(async (mock) => {
        const created = await api(mock.url).create(body);
        expect(created).toMatchObject({ kind: 'SEPARACION', state: 'BORRADOR', version_number: 1 });
      });
  });

  it('saves a draft with the version read', async () => {
    const content: TemplateDoc = {
      ...TEMPLATE.content,
      content: [...TEMPLATE.content.content, { type: 'paragraph', content: [{ type: 'text', text: 'Cláusula adicional.' }] }],
    };
    const body = { version: 1, name: 'Compraventa al contado (2026)', content };
    await pact
      .addInteraction()
      .given(TEMPLATE_STATES.draftTemplateExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to save a draft contract template')
      .withRequest('PATCH', '/api/contract-templates/1', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) => b.jsonBody({ data: template({ name: body.name, content: like(content), version: 2 }) }))
      .executeTest(async (mock) => {
        const saved = await api(mock.url).update(1, body);
        expect(saved.version).toBe(2);
        expect(saved.name).toBe(body.name);
      });
  });

  it('refuses a variable unknown to the catalogue (422 on content)', async () => {
    const content: TemplateDoc = {
      type: 'doc',
      content: [{ type: 'paragraph', content: [{ type: 'variable', attrs: { key: 'empresa.inventada' } }] }],
    };
    const message = CONTRACT_TEMPLATE_MESSAGES.unknownVariable('empresa.inventada');
    await pact
      .addInteraction()
      .given(TEMPLATE_STATES.draftTemplateExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to save a contract template with an unknown variable')
      .withRequest('PATCH', '/api/contract-templates/1', (b) => b.headers(json).jsonBody({ version: 1, content }))
      .willRespondWith(422, (b) => b.jsonBody({ message: like('Los datos no son válidos'), errors: { content: eachLike(like(message)) } }))
      .executeTest(async (mock) => {
        const error = await caught(api(mock.url).update(1, { version: 1, content }));
        expect(error.status).toBe(422);
        expect(error.issues.content?.[0]).toBe(message);
      });
  });

  it('refuses a stale version (409)', async () => {
    const body = { version: 1, name: 'Otro nombre' };
    await pact
      .addInteraction()
      .given(TEMPLATE_STATES.draftTemplateExists, { token: STAFF_TOKEN })
      .given(STATES.recordChangedByAnother, { entity: 'contract_templates', id: 1 })
      .uponReceiving('a request to save a contract template with a stale version')
      .withRequest('PATCH', '/api/contract-templates/1', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(409, (b) => b.jsonBody(stale409))
      .executeTest(async (mock) => {
        const error = await caught(api(mock.url).update(1, body));
        expect(error.status).toBe(409);
        expect(error.issues.version?.[0]).toBe(STALE_RECORD_MESSAGE);
      });
  });

  it('refuses an edit of a published version (409)', async () => {
    const body = { version: 1, name: 'Otro nombre' };
    await pact
      .addInteraction()
      .given(TEMPLATE_STATES.publishedTemplateExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to edit a published contract template')
      .withRequest('PATCH', '/api/contract-templates/1', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(409, (b) => b.jsonBody({ message: like(CONTRACT_TEMPLATE_MESSAGES.publishedReadOnly) }))
      .executeTest(async (mock) => {
        const error = await caught(api(mock.url).update(1, body));
        expect(error.status).toBe(409);
        expect(error.message).toBe(CONTRACT_TEMPLATE_MESSAGES.publishedReadOnly);
      });
  });

  it('publishes a draft', async () => {
    await pact
      .addInteraction()
      .given(TEMPLATE_STATES.draftTemplateExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to publish a draft contract template')
      .withRequest('POST', '/api/contract-templates/1/publish', (b) => b.headers(json).jsonBody({ version: 1 }))
      .willRespondWith(200, (b) =>
        b.jsonBody({ data: { ...template({ state: 'PUBLICADA', version: 2 }), state: regex(/^PUBLICADA$/, 'PUBLICADA') } }),
      )
      .executeTest(async (mock) => {
        const published = await api(mock.url).publish(1, { version: 1 });
        expect(published.state).toBe('PUBLICADA');
        expect(published.published_at).not.toBeNull();
      });
  });

  it('starts a new version of a published template (201, BORRADOR version_number + 1)', async () => {
    await pact
      .addInteraction()
      .given(TEMPLATE_STATES.publishedTemplateExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for a new version of a published contract template')
      .withRequest('POST', '/api/contract-templates/1/new-version', (b) => b.headers(json).jsonBody({ version: 1 }))
      .willRespondWith(201, (b) =>
        b.jsonBody({
          data: {
            ...template({ id: 2, versionNumber: 2 }),
            state: regex(/^BORRADOR$/, 'BORRADOR'),
          },
        }),
      )
      .executeTest(async (mock) => {
        const draft = await api(mock.url).newVersion(1, { version: 1 });
        expect(draft).toMatchObject({ id: 2, state: 'BORRADOR', version_number: 2 });
        expect(draft.content).toEqual(TEMPLATE.content);
      });
  });

  it('refuses a new version when the family already has a draft (409)', async () => {
    await pact
      .addInteraction()
      .given(TEMPLATE_STATES.publishedTemplateWithDraftExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for a new version of a contract template whose family has a draft')
      .withRequest('POST', '/api/contract-templates/1/new-version', (b) => b.headers(json).jsonBody({ version: 1 }))
      .willRespondWith(409, (b) => b.jsonBody({ message: like(CONTRACT_TEMPLATE_MESSAGES.draftExists) }))
      .executeTest(async (mock) => {
        const error = await caught(api(mock.url).newVersion(1, { version: 1 }));
        expect(error.status).toBe(409);
        expect(error.message).toBe(CONTRACT_TEMPLATE_MESSAGES.draftExists);
      });
  });
});
