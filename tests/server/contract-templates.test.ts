import { describe, expect, it } from 'vitest';
import {
  CONTRACT_TEMPLATE_MESSAGES,
  contractTemplatesPageSchema,
  contractTemplateSchema,
  type TemplateNode,
} from '../../src/schemas/administracion/contract-templates';
import { MODULE, SUBMODULE, type Permission } from '../../src/schemas/permissions';
import { STALE_RECORD_MESSAGE } from '../../src/schemas/versions';
import { TEMPLATE_SERVICE_MESSAGES } from '../../server/modules/administracion/contract-templates.service';
import { createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/**
 * Contract templates (docs/domain.md "Contract templates"): a family per subdivision and kind,
 * version 1 as BORRADOR, only a BORRADOR edited, publish → PUBLICADA read-only, a new version as a
 * BORRADOR copy (one per family), the catalogue's variables only, and a body past the size cap
 * refused with a Spanish 413 — never a 500.
 */

const TEMPLATES: readonly Permission[] = [MODULE.administracion, SUBMODULE.generarContrato];

/** A small document: a heading, a clause with the buyer's name and the price. */
export function sampleDoc(extra: TemplateNode[] = []): TemplateNode {
  return {
    type: 'doc',
    content: [
      { type: 'heading', attrs: { level: 1, textAlign: 'center' }, content: [{ type: 'text', text: 'CONTRATO DE COMPRAVENTA' }] },
      {
        type: 'paragraph',
        content: [
          { type: 'text', text: 'Conste por el presente que ' },
          { type: 'variable', attrs: { key: 'comprador.nombre' }, marks: [{ type: 'bold' }] },
          { type: 'text', text: ' compra por ' },
          { type: 'variable', attrs: { key: 'venta.precio' } },
          { type: 'text', text: '.' },
        ],
      },
      ...extra,
    ],
  };
}

describe.each(dialects)('contract templates (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  const session = async (permissions: readonly Permission[] = TEMPLATES) => {
    const staff = await createStaff(db(), { permissions, clock: ctx().clock });
    return createSession(db(), staff);
  };
  const send = (
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    token: string,
    payload?: object | string,
    headers: Record<string, string> = {},
  ) => ctx().app.inject({ method, url, headers: { ...bearer(token), ...headers }, ...(payload !== undefined ? { payload } : {}) });
  const template = (res: { json: () => unknown }) => contractTemplateSchema.parse((res.json() as { data: unknown }).data);

  it('creates v1 as BORRADOR, edits it, publishes it read-only, opens v2 as a copy, and lists the latest of each family', async () => {
    const token = await session();
    const subdivision = await createSubdivision(db());
    let res = await send('POST', '/api/contract-templates', token, {
      subdivision_id: subdivision.id,
      kind: 'COMPRAVENTA_PLAZOS',
      name: 'Compraventa a plazos',
      content: sampleDoc(),
    });
    expect(res.statusCode, res.body).toBe(201);
    let v1 = template(res);
    expect(v1).toMatchObject({ state: 'BORRADOR', version_number: 1, kind: 'COMPRAVENTA_PLAZOS', subdivision: { id: subdivision.id } });
    expect(v1.content).toEqual(sampleDoc());

    res = await send('PATCH', `/api/contract-templates/${v1.id}`, token, { version: v1.version, name: 'Compraventa a plazos (2026)' });
    expect(res.statusCode, res.body).toBe(200);
    v1 = template(res);
    // A stale edit is refused.
    res = await send('PATCH', `/api/contract-templates/${v1.id}`, token, { version: 1, name: 'Otro' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ message: STALE_RECORD_MESSAGE });

    res = await send('POST', `/api/contract-templates/${v1.id}/publish`, token, { version: v1.version });
    expect(res.statusCode, res.body).toBe(200);
    v1 = template(res);
    expect(v1).toMatchObject({ state: 'PUBLICADA', version_number: 1 });
    expect(v1.published_at).not.toBeNull();
    expect(v1.published_by).not.toBeNull();

    // Published: read-only, and not published twice.
    res = await send('PATCH', `/api/contract-templates/${v1.id}`, token, { version: v1.version, name: 'Cambio' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: CONTRACT_TEMPLATE_MESSAGES.publishedReadOnly });
    res = await send('POST', `/api/contract-templates/${v1.id}/publish`, token, { version: v1.version });
    expect(res.json()).toEqual({ message: CONTRACT_TEMPLATE_MESSAGES.onlyDraftPublishes });

    res = await send('POST', `/api/contract-templates/${v1.id}/new-version`, token, { version: v1.version });
    expect(res.statusCode, res.body).toBe(201);
    const v2 = template(res);
    expect(v2).toMatchObject({ state: 'BORRADOR', version_number: 2, name: 'Compraventa a plazos (2026)' });
    expect(v2.content).toEqual(sampleDoc());
    // One BORRADOR per family.
    res = await send('POST', `/api/contract-templates/${v1.id}/new-version`, token, { version: v1.version });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: CONTRACT_TEMPLATE_MESSAGES.draftExists });
    // A second family of the same kind is refused: versions are the way.
    res = await send('POST', '/api/contract-templates', token, {
      subdivision_id: subdivision.id,
      kind: 'COMPRAVENTA_PLAZOS',
      name: 'Otra',
      content: sampleDoc(),
    });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: TEMPLATE_SERVICE_MESSAGES.familyExists });

    res = await send('GET', `/api/contract-templates?subdivision_id=${subdivision.id}`, token);
    const all = contractTemplatesPageSchema.parse(res.json());
    expect(all.data.map((t) => t.version_number)).toEqual([2, 1]);
    expect(all.data.every((t) => t.content === null)).toBe(true);
    res = await send('GET', `/api/contract-templates?subdivision_id=${subdivision.id}&latest=true`, token);
    expect(contractTemplatesPageSchema.parse(res.json()).data.map((t) => t.id)).toEqual([v2.id]);
    res = await send('GET', `/api/contract-templates?state=PUBLICADA&kind=COMPRAVENTA_PLAZOS&q=plazos`, token);
    expect(contractTemplatesPageSchema.parse(res.json()).data.map((t) => t.id)).toEqual([v1.id]);

    // Every write left its change-history row.
    const history = await db()
      .selectFrom('change_history')
      .select(['action', 'record_id'])
      .where('entity', '=', 'contract_templates')
      .where('record_id', 'in', [String(v1.id), String(v2.id)])
      .execute();
    // v1: create, rename, publish; v2: create.
    expect(history.length).toBe(4);
  });

  it('refuses unknown variables and variables of another kind with 422 on content, storing nothing', async () => {
    const token = await session();
    const subdivision = await createSubdivision(db());
    const unknown = sampleDoc([{ type: 'paragraph', content: [{ type: 'variable', attrs: { key: 'comprador.color_favorito' } }] }]);
    let res = await send('POST', '/api/contract-templates', token, {
      subdivision_id: subdivision.id,
      kind: 'COMPRAVENTA_CONTADO',
      name: 'X',
      content: unknown,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.content).toEqual([CONTRACT_TEMPLATE_MESSAGES.unknownVariable('comprador.color_favorito')]);
    const otherKind = sampleDoc([{ type: 'paragraph', content: [{ type: 'variable', attrs: { key: 'separacion.monto' } }] }]);
    res = await send('POST', '/api/contract-templates', token, {
      subdivision_id: subdivision.id,
      kind: 'COMPRAVENTA_CONTADO',
      name: 'X',
      content: otherKind,
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.content).toEqual([CONTRACT_TEMPLATE_MESSAGES.variableNotForKind('separacion.monto')]);
    // A node type outside the editor's set.
    res = await send('POST', '/api/contract-templates', token, {
      subdivision_id: subdivision.id,
      kind: 'COMPRAVENTA_CONTADO',
      name: 'X',
      content: { type: 'doc', content: [{ type: 'image', attrs: { src: 'http://x' } }] },
    });
    expect(res.statusCode).toBe(422);
    expect(await db().selectFrom('contract_templates').select('id').where('subdivision_id', '=', subdivision.id).execute()).toEqual([]);

    // The same check on PATCH of a draft.
    res = await send('POST', '/api/contract-templates', token, {
      subdivision_id: subdivision.id,
      kind: 'COMPRAVENTA_CONTADO',
      name: 'X',
      content: sampleDoc(),
    });
    const draft = template(res);
    res = await send('PATCH', `/api/contract-templates/${draft.id}`, token, { version: draft.version, content: unknown });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.content).toEqual([CONTRACT_TEMPLATE_MESSAGES.unknownVariable('comprador.color_favorito')]);
  });

  it('a 5 MB template body is a Spanish 413, a document over 1 MB a 422 on content — never a 500, nothing stored', async () => {
    const token = await session();
    const subdivision = await createSubdivision(db());
    const paragraphs = (count: number, size: number): TemplateNode[] =>
      Array.from({ length: count }, () => ({ type: 'paragraph' as const, content: [{ type: 'text' as const, text: 'x'.repeat(size) }] }));
    const huge = JSON.stringify({
      subdivision_id: subdivision.id,
      kind: 'COMPRAVENTA_CONTADO',
      name: 'Enorme',
      content: sampleDoc(paragraphs(300, 17_000)),
    });
    expect(huge.length).toBeGreaterThan(5_000_000);
    let res = await send('POST', '/api/contract-templates', token, huge, { 'content-type': 'application/json' });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: CONTRACT_TEMPLATE_MESSAGES.tooLarge });
    // Just over the document's 1 MB, within the body limit.
    res = await send('POST', '/api/contract-templates', token, {
      subdivision_id: subdivision.id,
      kind: 'COMPRAVENTA_CONTADO',
      name: 'Grande',
      content: sampleDoc(paragraphs(60, 17_000)),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.content).toEqual([CONTRACT_TEMPLATE_MESSAGES.tooLarge]);
    // The PATCH of a draft too.
    res = await send('POST', '/api/contract-templates', token, {
      subdivision_id: subdivision.id,
      kind: 'COMPRAVENTA_CONTADO',
      name: 'X',
      content: sampleDoc(),
    });
    const draft = template(res);
    res = await send(
      'PATCH',
      `/api/contract-templates/${draft.id}`,
      token,
      huge.replace(/"subdivision_id":\d+,"kind":"COMPRAVENTA_CONTADO",/, `"version":${draft.version},`),
      {
        'content-type': 'application/json',
      },
    );
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: CONTRACT_TEMPLATE_MESSAGES.tooLarge });
    expect((await db().selectFrom('contract_templates').select('id').where('subdivision_id', '=', subdivision.id).execute()).length).toBe(
      1,
    );
  });

  it('needs the generar contrato submodule', async () => {
    const token = await session([MODULE.administracion, SUBMODULE.registroContratos]);
    const res = await send('GET', '/api/contract-templates', token);
    expect(res.statusCode).toBe(403);
  });
});
