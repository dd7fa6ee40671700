import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { ContractTemplate, TemplateNode } from '../../../src/schemas/administracion/contract-templates';
import type { DB } from '../../db/database';

/**
 * Reads of `contract_templates` (migration 0043) as the routes answer them
 * (src/schemas/administracion/contract-templates.ts), shared by the templates' service and the
 * contracts' service (which resolves a sale's template).
 */

const instant = (value: unknown): string | null => (value === null || value === undefined ? null : new Date(value as string).toISOString());

/** Template versions joined to their subdivision and publisher. */
export function templatesQuery(db: Kysely<DB>) {
  return db
    .selectFrom('contract_templates as t')
    .innerJoin('subdivisions', 'subdivisions.id', 't.subdivision_id')
    .leftJoin('users as publisher', 'publisher.id', 't.published_by');
}

/** The columns of an answer; `withContent` adds the document text. */
export function selectTemplate(query: ReturnType<typeof templatesQuery>, withContent: boolean) {
  return query
    .select([
      't.id',
      't.subdivision_id',
      'subdivisions.name as subdivision_name',
      't.kind',
      't.name',
      't.state',
      't.version_number',
      't.published_at',
      't.published_by',
      'publisher.name as publisher_name',
      'publisher.surname as publisher_surname',
      't.created_at',
      't.updated_at',
      't.version',
    ])
    .$if(withContent, (q) => q.select('t.content'));
}
type TemplateRow = Awaited<ReturnType<ReturnType<typeof selectTemplate>['executeTakeFirstOrThrow']>> & { content?: string };

/** A row as the wire template (`content` parsed when read, else null). */
export function toTemplate(r: TemplateRow): ContractTemplate {
  return {
    id: r.id,
    subdivision: { id: r.subdivision_id, name: r.subdivision_name },
    kind: r.kind,
    name: r.name,
    state: r.state,
    version_number: r.version_number,
    content: r.content !== undefined ? (JSON.parse(r.content) as TemplateNode) : null,
    published_at: instant(r.published_at),
    published_by:
      r.published_by !== null && r.publisher_name !== null
        ? { id: r.published_by, name: `${r.publisher_name} ${r.publisher_surname ?? ''}`.trim() }
        : null,
    created_at: instant(r.created_at) ?? undefined,
    updated_at: instant(r.updated_at) ?? undefined,
    version: r.version,
  };
}

/** One version with its content, or undefined. */
export async function findTemplate(db: Kysely<DB>, id: number): Promise<ContractTemplate | undefined> {
  const row = await selectTemplate(templatesQuery(db), true).where('t.id', '=', id).executeTakeFirst();
  return row ? toTemplate(row) : undefined;
}

/** `where` of "the last version of its family" on alias `t`. */
export const isLatestVersion = sql<boolean>`not exists (select 1 from contract_templates newer where newer.subdivision_id = t.subdivision_id and newer.kind = t.kind and newer.version_number > t.version_number)`;

/**
 * The latest PUBLICADA version of (subdivision, kind), with its content, or undefined (docs/domain.md
 * "Contracts": the template a sale's contract takes by default).
 */
export async function latestPublishedTemplate(db: Kysely<DB>, subdivisionId: number, kind: string): Promise<ContractTemplate | undefined> {
  const row = await selectTemplate(templatesQuery(db), true)
    .where('t.subdivision_id', '=', subdivisionId)
    .where('t.kind', '=', kind)
    .where('t.state', '=', 'PUBLICADA')
    .orderBy('t.version_number', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? toTemplate(row) : undefined;
}

/** The row as the change history keeps it: the document as its SHA-256 and size, not its text (up to 1 MB per version). */
export async function templateSnapshot(db: Kysely<DB>, id: number): Promise<Record<string, unknown>> {
  const { content, ...rest } = await db.selectFrom('contract_templates').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  return { ...rest, content_sha256: createHash('sha256').update(content).digest('hex'), content_bytes: Buffer.byteLength(content) };
}
