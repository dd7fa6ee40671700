import type { Kysely, Updateable } from 'kysely';
import type { z } from 'zod';
import {
  CONTRACT_TEMPLATE_MESSAGES,
  TEMPLATE_LIMITS,
  templateContentIssues,
  type ContractKind,
  type ContractTemplate,
  type ContractTemplatesQuery,
  type TemplateNode,
  type TemplateVersionActionRequest,
  type createContractTemplateRequestSchema,
  type updateContractTemplateRequestSchema,
} from '../../../src/schemas/administracion/contract-templates';
import { recordChange, staffActorId, type AuditContext } from '../../audit/audit';
import type { Clock } from '../../clock';
import type { ContractTemplatesTable, DB } from '../../db/database';
import { paginate, type Page } from '../../db/paging';
import { inTransaction, isUniqueViolation } from '../../db/portable';
import { searchPatternSql, searchTextOf } from '../../db/text-search';
import { assertVersionedUpdate, nextVersion, staleRecord } from '../../db/versions';
import { conflict, fieldError, notFound, validationError } from '../../errors';
import {
  findTemplate,
  isLatestVersion,
  selectTemplate,
  templateSnapshot,
  templatesQuery,
  toTemplate,
} from './contract-templates.repository';

/**
 * Contract templates (docs/domain.md "Contract templates"; src/schemas/administracion/
 * contract-templates.ts): one row per version of a family (subdivision, kind). A family starts
 * with version 1 as BORRADOR; only a BORRADOR is edited; publishing makes it PUBLICADA, numbered
 * and read-only; a new version is a BORRADOR copy numbered after the family's last (one BORRADOR
 * per family at a time). Every write is one transaction with its change-history row.
 */

type Deps = { db: Kysely<DB>; clock: Clock };
/** Parsed POST and PATCH bodies. */
type CreateContractTemplateBody = z.output<typeof createContractTemplateRequestSchema>;
type UpdateContractTemplateBody = z.output<typeof updateContractTemplateRequestSchema>;

/** Messages of this module beyond the schema's. */
export const TEMPLATE_SERVICE_MESSAGES = {
  familyExists: 'La lotización ya tiene una plantilla de este tipo: cree una nueva versión de ella',
  subdivisionNotFound: 'La lotización no existe',
} as const;

/**
 * The 422 of a document that cannot be stored for `kind`: more than {@link TEMPLATE_LIMITS}
 * (nodes, depth, 1 MB of JSON), an unknown variable or one of another kind — every message on
 * `content`. @returns the JSON text to store.
 */
export function checkedContent(content: TemplateNode, kind: ContractKind): string {
  const text = JSON.stringify(content);
  if (Buffer.byteLength(text) > TEMPLATE_LIMITS.maxJsonBytes) throw fieldError('content', CONTRACT_TEMPLATE_MESSAGES.tooLarge);
  const issues = templateContentIssues(content, kind);
  if (issues.length > 0) throw validationError({ content: issues }, issues[0]);
  return text;
}

/** GET /api/contract-templates: a page of versions (without `content`), filtered; `latest=true` keeps each family's last version. */
export async function listContractTemplates(deps: Deps, query: ContractTemplatesQuery): Promise<Page<ContractTemplate>> {
  let filtered = templatesQuery(deps.db);
  if (query.subdivision_id !== undefined) filtered = filtered.where('t.subdivision_id', '=', query.subdivision_id);
  if (query.kind !== undefined) filtered = filtered.where('t.kind', '=', query.kind);
  if (query.state !== undefined) filtered = filtered.where('t.state', '=', query.state);
  if (query.latest === 'true') filtered = filtered.where(isLatestVersion);
  if (query.q) filtered = filtered.where(searchTextOf(deps.db, 't.name'), 'like', searchPatternSql(query.q));
  const sort = query.sort ?? 'name';
  const descending = sort.startsWith('-');
  const field = sort.replace(/^-/, '');
  const column = field === 'updated_at' ? 't.updated_at' : field === 'kind' ? 't.kind' : 't.name';
  const page = await paginate(filtered, query, (q) =>
    selectTemplate(q, false)
      .orderBy(column, descending ? 'desc' : 'asc')
      .orderBy('t.subdivision_id')
      .orderBy('t.kind')
      .orderBy('t.version_number', 'desc')
      .orderBy('t.id'),
  );
  return { data: page.data.map(toTemplate), meta: page.meta };
}

/** GET /api/contract-templates/{id}: one version with its document. @throws HttpError 404. */
export async function getContractTemplate(deps: Deps, id: number): Promise<ContractTemplate> {
  const template = await findTemplate(deps.db, id);
  if (!template) throw notFound();
  return template;
}

/**
 * POST /api/contract-templates: a family's version 1, BORRADOR.
 * @throws HttpError 422 on `subdivision_id` (no such subdivision) or `content` (see
 *   {@link checkedContent}); 409 when the family already exists (nothing stored).
 */
export async function createContractTemplate(deps: Deps, audit: AuditContext, body: CreateContractTemplateBody): Promise<ContractTemplate> {
  const kind = body.kind as ContractKind;
  const content = checkedContent(body.content, kind);
  const stamp = deps.clock.now().toISOString();
  let id: number;
  try {
    id = await inTransaction(deps.db, async (trx) => {
      const subdivision = await trx.selectFrom('subdivisions').select('id').where('id', '=', body.subdivision_id).executeTakeFirst();
      if (!subdivision) throw fieldError('subdivision_id', TEMPLATE_SERVICE_MESSAGES.subdivisionNotFound);
      const existing = await trx
        .selectFrom('contract_templates')
        .select('id')
        .where('subdivision_id', '=', body.subdivision_id)
        .where('kind', '=', kind)
        .executeTakeFirst();
      if (existing) throw conflict(TEMPLATE_SERVICE_MESSAGES.familyExists);
      const { id: created } = await trx
        .insertInto('contract_templates')
        .values({
          subdivision_id: body.subdivision_id,
          kind,
          name: body.name.trim(),
          version_number: 1,
          state: 'BORRADOR',
          content,
          published_at: null,
          published_by: null,
          created_by: staffActorId(audit),
          created_at: stamp,
          updated_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordChange(trx, audit, {
        entity: 'contract_templates',
        recordId: created,
        action: 'CREATE',
        after: await templateSnapshot(trx, created),
      });
      return created;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(TEMPLATE_SERVICE_MESSAGES.familyExists);
    throw error;
  }
  return getContractTemplate(deps, id);
}

/** The row's state, kind and version, or a 404. */
async function currentRow(db: Kysely<DB>, id: number) {
  const row = await db
    .selectFrom('contract_templates')
    .select(['id', 'subdivision_id', 'kind', 'name', 'state', 'version_number', 'content', 'version'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/**
 * The one write of a BORRADOR (PATCH and publish), in one transaction: a 409 `notDraft` for another
 * state or a stale `version`; then `changes` (which may throw its 422) says what to set on the row,
 * stored with a new version and its change-history row (before and after).
 */
async function writeDraft(
  deps: Deps,
  audit: AuditContext,
  id: number,
  version: number,
  notDraft: string,
  changes: (current: Awaited<ReturnType<typeof currentRow>>, stamp: string) => Updateable<ContractTemplatesTable>,
): Promise<ContractTemplate> {
  const stamp = deps.clock.now().toISOString();
  await inTransaction(deps.db, async (trx) => {
    const current = await currentRow(trx, id);
    if (current.state !== 'BORRADOR') throw conflict(notDraft);
    if (current.version !== version) throw staleRecord();
    const set = changes(current, stamp);
    const before = await templateSnapshot(trx, id);
    const result = await trx
      .updateTable('contract_templates')
      .set({ ...set, version: nextVersion() })
      .where('id', '=', id)
      .where('version', '=', version)
      .where('state', '=', 'BORRADOR')
      .executeTakeFirst();
    await assertVersionedUpdate(trx, 'contract_templates', id, result, notFound);
    await recordChange(trx, audit, {
      entity: 'contract_templates',
      recordId: id,
      action: 'UPDATE',
      before,
      after: await templateSnapshot(trx, id),
    });
  });
  return getContractTemplate(deps, id);
}

/**
 * PATCH /api/contract-templates/{id}: a BORRADOR's name and/or document.
 * @throws HttpError 404; 409 for a PUBLICADA version or a stale `version`; 422 on `content`.
 */
export async function updateContractTemplate(
  deps: Deps,
  audit: AuditContext,
  id: number,
  body: UpdateContractTemplateBody,
): Promise<ContractTemplate> {
  return writeDraft(deps, audit, id, body.version, CONTRACT_TEMPLATE_MESSAGES.publishedReadOnly, (current, stamp) => {
    const content = body.content !== undefined ? checkedContent(body.content, current.kind as ContractKind) : undefined;
    return {
      ...(body.name !== undefined ? { name: body.name.trim() } : {}),
      ...(content !== undefined ? { content } : {}),
      updated_at: stamp,
    };
  });
}

/**
 * POST /api/contract-templates/{id}/publish: BORRADOR → PUBLICADA (read-only from then, usable to
 * generate contracts), stamped with the instant and the user.
 * @throws HttpError 404; 409 when not a BORRADOR or stale; 422 when its document no longer passes
 *   the catalogue (a variable removed since it was saved).
 */
export async function publishContractTemplate(
  deps: Deps,
  audit: AuditContext,
  id: number,
  body: TemplateVersionActionRequest,
): Promise<ContractTemplate> {
  return writeDraft(deps, audit, id, body.version, CONTRACT_TEMPLATE_MESSAGES.onlyDraftPublishes, (current, stamp) => {
    checkedContent(JSON.parse(current.content) as TemplateNode, current.kind as ContractKind);
    return { state: 'PUBLICADA', published_at: stamp, published_by: staffActorId(audit), updated_at: stamp };
  });
}

/**
 * POST /api/contract-templates/{id}/new-version: a BORRADOR copy of version `id` (name and
 * document) numbered after the family's last version.
 * @throws HttpError 404; 409 when the family already has a BORRADOR (also when two requests race:
 *   the partial unique index refuses the second) or `version` is stale.
 */
export async function newContractTemplateVersion(
  deps: Deps,
  audit: AuditContext,
  id: number,
  body: TemplateVersionActionRequest,
): Promise<ContractTemplate> {
  const stamp = deps.clock.now().toISOString();
  let created: number;
  try {
    created = await inTransaction(deps.db, async (trx) => {
      const source = await currentRow(trx, id);
      if (source.version !== body.version) throw staleRecord();
      const family = await trx
        .selectFrom('contract_templates')
        .select(['state', 'version_number'])
        .where('subdivision_id', '=', source.subdivision_id)
        .where('kind', '=', source.kind)
        .execute();
      if (family.some((r) => r.state === 'BORRADOR')) throw conflict(CONTRACT_TEMPLATE_MESSAGES.draftExists);
      const next = Math.max(...family.map((r) => r.version_number)) + 1;
      const { id: inserted } = await trx
        .insertInto('contract_templates')
        .values({
          subdivision_id: source.subdivision_id,
          kind: source.kind,
          name: source.name,
          version_number: next,
          state: 'BORRADOR',
          content: source.content,
          published_at: null,
          published_by: null,
          created_by: staffActorId(audit),
          created_at: stamp,
          updated_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordChange(trx, audit, {
        entity: 'contract_templates',
        recordId: inserted,
        action: 'CREATE',
        after: { ...(await templateSnapshot(trx, inserted)), copied_from: id },
      });
      return inserted;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw conflict(CONTRACT_TEMPLATE_MESSAGES.draftExists);
    throw error;
  }
  return getContractTemplate(deps, created);
}
