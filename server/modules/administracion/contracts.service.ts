import { Temporal } from 'temporal-polyfill';
import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { todayInLima } from '../../../src/lib/dates';
import {
  CONTRACT_KIND_LABELS,
  type ContractKind,
  type ContractValues,
  type TemplateNode,
} from '../../../src/schemas/administracion/contract-templates';
import {
  CONTRACT_MESSAGES,
  saleContractKind,
  type AnnulContractRequest,
  type Contract,
  type ContractDetail,
  type ContractEvent,
  type ContractPreview,
  type ContractsQuery,
  type CreateContractRequest,
  type IssueContractRequest,
  type UpdateContractRequest,
} from '../../../src/schemas/administracion/contracts';
import { recordChange, staffActorId, type AuditContext } from '../../audit/audit';
import { startOfLimaDay, todayInLimaBy } from '../../clock';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import { paginate, type Page } from '../../db/paging';
import { inTransaction, isSqlite, isUniqueViolation } from '../../db/portable';
import { foldSearch, searchPatternSql } from '../../db/text-search';
import { nextVersion, staleRecord } from '../../db/versions';
import { conflict, fieldError, HttpError, notFound, validationError } from '../../errors';
import { detectImageType, oversizedImage, tooManyPixelsMessage, VOUCHER_PIXEL_LIMITS } from '../../platform/image-type';
import { renderDocument } from '../../platform/documents';
import { saleNumber } from '../comercio/sales.service';
import { heldPurchaseHead } from '../comercio/purchases.service';
import { loadPdfIssuer } from '../configuracion/companies.service';
import { latestPublishedTemplate } from './contract-templates.repository';
import { contractSigned, contractSnapshot, issuedSaleContract, moveContract } from './contract-lifecycle';
import { documentVariableKeys, effectiveValues, resolveDocument, type MissingValue } from './contract-document';
import { resolveContractValues } from './contract-values';

/**
 * Contracts (docs/domain.md "Contracts"; src/schemas/administracion/contracts.ts): made from a
 * sale and a PUBLICADA template version; BORRADOR while the data it lacks is supplied (overrides);
 * issued with the company's next number of the year and its PDF stored as issued; FIRMADO with the
 * signed scan; ANULADO with a reason (or with its sale, server/modules/administracion/
 * contract-lifecycle.ts); RESUELTO by a rescission. The register lists them with the flag of a
 * signature overdue.
 */

type Deps = Pick<AppDeps, 'db' | 'clock' | 'documents'>;

/** Issue attempts when another contract took the predicted number meanwhile (each re-renders). */
const ISSUE_ATTEMPTS = 5;
/** Spanish 503 when every attempt lost its number to a concurrent issue. */
const ISSUE_BUSY = 'Se están emitiendo otros contratos en este momento: inténtelo nuevamente';

const instant = (value: unknown): string | null => (value === null || value === undefined ? null : new Date(value as string).toISOString());

/** "C-2026-000123": the contract number of correlative `n` of `year`. */
export const contractNumber = (year: number, n: number) => `C-${year}-${String(n).padStart(6, '0')}`;

/** The contracts alone (filters on their own columns go here, before {@link joinContracts}). */
const ownContracts = (db: Kysely<DB>) => db.selectFrom('contracts as c');

/** Contracts joined to their sale, lot, subdivision, template, titular, agent and issuer. */
function contractsQuery(db: Kysely<DB>) {
  return joinContracts(ownContracts(db));
}

/** {@link contractsQuery}'s joins over `own` (the contracts, possibly filtered). */
function joinContracts(own: ReturnType<typeof ownContracts>) {
  return own
    .innerJoin('sales', 'sales.id', 'c.sale_id')
    .innerJoin('lots', 'lots.id', 'sales.lot_id')
    .innerJoin('subdivisions', 'subdivisions.id', 'sales.subdivision_id')
    .innerJoin('contract_templates as t', 't.id', 'c.template_id')
    .innerJoin('companies as co', 'co.id', 'c.company_id')
    .leftJoin('sale_holders as th', (join) => join.onRef('th.sale_id', '=', 'sales.id').on('th.role', '=', 'TITULAR'))
    .leftJoin('customers', 'customers.id', 'th.customer_id')
    .leftJoin('users as agent', 'agent.id', 'sales.agent_id')
    .leftJoin('users as issuer', 'issuer.id', 'c.issued_by');
}

/** The columns of an answer. */
function selectContract(query: ReturnType<typeof contractsQuery>) {
  return query.select([
    'c.id',
    'c.number',
    'c.kind',
    'c.state',
    'c.sale_id',
    'c.template_id',
    'c.overrides',
    'c.issued_at',
    'c.issued_by',
    'c.signed_at',
    'c.annul_reason',
    'c.signed_scan_name',
    'c.signed_scan_content_type',
    'c.created_at',
    'c.updated_at',
    'c.version',
    'sales.status as sale_status',
    'sales.type as sale_type',
    'sales.currency',
    'sales.final_price',
    'sales.agent_id',
    'sales.lot_id',
    'sales.subdivision_id',
    'lots.code as lot_code',
    'subdivisions.name as subdivision_name',
    't.name as template_name',
    't.version_number as template_version_number',
    'co.contract_signature_days',
    'customers.name as titular_name',
    'customers.surname as titular_surname',
    'agent.name as agent_name',
    'agent.surname as agent_surname',
    'issuer.name as issuer_name',
    'issuer.surname as issuer_surname',
  ]);
}
type ContractRow = Awaited<ReturnType<ReturnType<typeof selectContract>['executeTakeFirstOrThrow']>>;

const fullName = (name: string | null, surname: string | null) => `${name ?? ''} ${surname ?? ''}`.trim();
const person = (id: number | null, name: string | null, surname: string | null) =>
  id !== null && name !== null ? { id, name: fullName(name, surname) } : null;

/** The last day (Lima) an issued contract may wait for its signed scan: its issue day + the company's signature days. */
export function signatureDueOn(issuedAt: string, days: number): string {
  return Temporal.PlainDate.from(todayInLima(new Date(issuedAt)))
    .add({ days })
    .toString();
}

/** A stored row as the wire contract (`today`: Lima, for the overdue flag). */
function toContract(r: ContractRow, today: string): Contract {
  const issuedAt = instant(r.issued_at);
  const dueOn = issuedAt !== null && r.state === 'EMITIDO' ? signatureDueOn(issuedAt, r.contract_signature_days) : null;
  return {
    id: r.id,
    number: r.number,
    kind: r.kind,
    state: r.state,
    sale: {
      id: r.sale_id,
      number: saleNumber(r.sale_id),
      status: r.sale_status,
      type: r.sale_type,
      currency: r.currency,
      final_price: Number(r.final_price),
      titular: fullName(r.titular_name, r.titular_surname),
      agent: person(r.agent_id, r.agent_name, r.agent_surname),
    },
    lot: { id: r.lot_id, code: r.lot_code, subdivision_id: r.subdivision_id, subdivision_name: r.subdivision_name },
    template: { id: r.template_id, name: r.template_name, version_number: r.template_version_number },
    overrides: JSON.parse(r.overrides) as Record<string, string>,
    issued_at: issuedAt,
    issued_by: person(r.issued_by, r.issuer_name, r.issuer_surname),
    signed_at: instant(r.signed_at),
    signature_due_on: dueOn,
    signature_overdue: dueOn !== null && today > dueOn,
    has_pdf: issuedAt !== null && r.number !== null,
    signed_scan:
      r.signed_scan_name !== null && r.signed_scan_content_type !== null
        ? { name: r.signed_scan_name, content_type: r.signed_scan_content_type }
        : null,
    annul_reason: r.annul_reason,
    created_at: instant(r.created_at) ?? undefined,
    updated_at: instant(r.updated_at) ?? undefined,
    version: r.version,
  };
}

/** A contract's events, oldest first. */
async function eventsOf(db: Kysely<DB>, contractId: number): Promise<ContractEvent[]> {
  const rows = await db
    .selectFrom('contract_events as e')
    .leftJoin('users', 'users.id', 'e.user_id')
    .select(['e.id', 'e.from_state', 'e.to_state', 'e.note', 'e.user_id', 'e.created_at', 'users.name', 'users.surname'])
    .where('e.contract_id', '=', contractId)
    .orderBy('e.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    from_state: r.from_state,
    to_state: r.to_state,
    note: r.note,
    user: person(r.user_id, r.name, r.surname),
    created_at: instant(r.created_at)!,
  }));
}

/** GET /api/contracts/{id}: the contract with its history. @throws HttpError 404. */
export async function getContract(deps: Pick<Deps, 'db' | 'clock'>, id: number): Promise<ContractDetail> {
  const row = await selectContract(contractsQuery(deps.db)).where('c.id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  return { ...toContract(row, todayInLimaBy(deps.clock)), events: await eventsOf(deps.db, id) };
}

/**
 * The revision of Registro de Contratos (`list_revisions` row `contracts`, migration 0048): it moves
 * on every write that changes what a page shows or which contracts a filter finds, so a page kept at
 * this revision (and Lima day: the signature-overdue flag) is current.
 */
export async function contractsListRevision(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom('list_revisions').select('revision').where('name', '=', 'contracts').executeTakeFirst();
  return Number(row?.revision ?? 0);
}

/** Every character a contract number can have (they are all `C-YYYY-NNNNNN`: {@link contractNumber}). */
const CONTRACT_NUMBER_CHARACTERS = /^[C0-9-]*$/;

/**
 * The register's text search (`q`, trimmed) as a filter of the contracts alone (docs/performance.md
 * "Registro de Contratos", the text search): the contracts whose number contains the text (upper
 * case, LIKE wildcards dropped), whose sale is the number typed ("V-000123", "v123", "123"), or
 * whose sale's lot code, or one of whose sale's buyers' display name or document number, contains
 * it as the sales list's `q` finds them (folded: accents and case ignored, ñ kept where typed;
 * docs/domain.md "Searching lists"). The sales come as `sale_id in (…)` lists, so the contracts are
 * read through migration 0048's `(sale_id, created_at, id)`: on SQLite a text of three characters
 * or more reads the trigram tables `lot_search` and `customer_search` (migrations 0021 and 0034),
 * shorter texts and PostgreSQL scan the `search_text` columns of lots and customers (never every
 * contract). The number is compared only when the text could be part of one.
 */
function contractTextMatch(db: Kysely<DB>, text: string): Expression<SqlBool> {
  const number = text.toUpperCase().replace(/[\\%_]/g, '');
  const folded = foldSearch(text);
  const indexed = isSqlite(db) && [...folded].length >= 3;
  const phrase = `"${folded.replace(/"/g, '""')}"`;
  const pattern = searchPatternSql(text);
  const saleId = /^v?-?0*(\d{1,9})$/i.exec(text)?.[1];
  const lots = indexed
    ? sql`select rowid from lot_search where lot_search match ${phrase}`
    : sql`select lots.id from lots where lots.search_text like ${pattern}`;
  const customers = indexed
    ? sql`select rowid from customer_search where customer_search match ${phrase}`
    : sql`select customers.id from customers where customers.search_text like ${pattern} or customers.document_number like ${pattern}`;
  return sql<SqlBool>`(${sql.join(
    [
      ...(CONTRACT_NUMBER_CHARACTERS.test(number) ? [sql`c.number like ${`%${number}%`}`] : []),
      sql`c.sale_id in (select sales.id from sales where sales.lot_id in (${lots}))`,
      sql`c.sale_id in (select sale_holders.sale_id from sale_holders where sale_holders.customer_id in (${customers}))`,
      ...(saleId !== undefined ? [sql`c.sale_id = ${Number(saleId)}`] : []),
    ],
    sql` or `,
  )})`;
}

/**
 * GET /api/contracts (Registro de Contratos): a page of contracts, filtered by state, kind,
 * subdivision, the sale's agent, the issue dates (Lima days, inclusive), `overdue`, and `q` over
 * the contract number, the sale number, the sale's buyers and its lot ({@link contractTextMatch});
 * newest first by default.
 */
export async function listContracts(deps: Pick<Deps, 'db' | 'clock'>, query: ContractsQuery): Promise<Page<Contract>> {
  const today = todayInLimaBy(deps.clock);
  // The contracts' own filters first, on the contracts alone: that query also counts them and finds
  // the page's ids when no filter needs a joined table (docs/performance.md "Registro de Contratos").
  let own = ownContracts(deps.db);
  if (query.state !== undefined) own = own.where('c.state', '=', query.state);
  if (query.kind !== undefined) own = own.where('c.kind', '=', query.kind);
  if (query.sale_id !== undefined) own = own.where('c.sale_id', '=', query.sale_id);
  if (query.issued_from !== undefined) own = own.where('c.issued_at', '>=', startOfLimaDay(query.issued_from));
  if (query.issued_to !== undefined)
    own = own.where('c.issued_at', '<', startOfLimaDay(Temporal.PlainDate.from(query.issued_to).add({ days: 1 }).toString()));
  if (query.overdue !== undefined) {
    // EMITIDO and issued before the start of (today − the company's signature days): per company (one row per installation).
    const companies = await deps.db.selectFrom('companies').select(['id', 'contract_signature_days']).execute();
    own = own.where((eb) => {
      const overdue = eb.and([
        eb('c.state', '=', 'EMITIDO'),
        eb.or([
          // (1 = 0: no company, no overdue contract; a bound boolean is not portable to SQLite.)
          eb(sql.lit(1), '=', sql.lit(0)),
          ...companies.map((co) =>
            eb.and([
              eb('c.company_id', '=', co.id),
              eb(
                'c.issued_at',
                '<',
                startOfLimaDay(Temporal.PlainDate.from(today).subtract({ days: co.contract_signature_days }).toString()),
              ),
            ]),
          ),
        ]),
      ]);
      return query.overdue === 'true' ? overdue : eb.not(overdue);
    });
  }
  // A subdivision's or an agent's contracts: those of its sales, on the contracts alone (migration
  // 0048's `(sale_id, created_at, id)` counts and pages them without reading a contract row).
  if (query.subdivision_id !== undefined)
    own = own.where(
      'c.sale_id',
      'in',
      deps.db.selectFrom('sales').select('sales.id').where('sales.subdivision_id', '=', query.subdivision_id),
    );
  if (query.agent_id !== undefined)
    own = own.where('c.sale_id', 'in', deps.db.selectFrom('sales').select('sales.id').where('sales.agent_id', '=', query.agent_id));
  if (query.q) own = own.where(contractTextMatch(deps.db, query.q.trim()));
  const sort = query.sort ?? '-created_at';
  const descending = sort.startsWith('-');
  const field = sort.replace(/^-/, '');
  const column = field === 'number' ? 'c.number' : field === 'issued_at' ? 'c.issued_at' : field === 'state' ? 'c.state' : 'c.created_at';
  const direction = descending ? 'desc' : 'asc';
  // The inner joins follow required keys and leave no contract out: every filter (`q` included) is
  // on the contracts alone, so they are counted and the page's ids are found on them before its rows
  // are joined (a deferred join; the count is of contracts, not of joined rows). The rows are read by
  // those ids alone: the filters (the text search's lookups) run twice per page, not three times.
  const page = await paginate(
    joinContracts(ownContracts(deps.db)),
    query,
    (q) => selectContract(q).orderBy(column, direction).orderBy('c.id', direction),
    {
      counted: own,
      keys: { query: own.select('c.id').orderBy(column, direction).orderBy('c.id', direction), column: 'c.id' },
    },
  );
  return { data: page.data.map((r) => toContract(r, today)), meta: page.meta };
}

/** The installation's company (contracts are numbered per company). @throws HttpError 409 when none is registered. */
async function companyId(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom('companies').select('id').orderBy('id').limit(1).executeTakeFirst();
  if (!row) throw conflict('Registre los datos de la empresa antes de generar contratos');
  return row.id;
}

/**
 * POST /api/contracts: the BORRADOR contract of a sale. The template: `template_id` (a PUBLICADA
 * version of the sale's subdivision, of the sale's compraventa kind — CONTADO → COMPRAVENTA_CONTADO,
 * FINANCIADO → COMPRAVENTA_PLAZOS — or an ADENDA / CARTA_RESOLUCION), else the subdivision's latest
 * PUBLICADA of the sale's kind.
 * @throws HttpError 422 on `sale_id` (no such sale) or `template_id` (no such template, not
 *   published, another subdivision, another kind); 409 for an annulled sale, a subdivision without
 *   a published template, or a sale that already has a live contract of that kind (nothing stored).
 */
export async function createContract(
  deps: Deps,
  audit: AuditContext,
  body: CreateContractRequest,
  options: { rescheduleId?: number } = {},
): Promise<ContractDetail> {
  const stamp = deps.clock.now().toISOString();
  const sale = await deps.db
    .selectFrom('sales')
    .select(['id', 'status', 'type', 'subdivision_id'])
    .where('id', '=', body.sale_id)
    .executeTakeFirst();
  if (!sale) throw fieldError('sale_id', CONTRACT_MESSAGES.saleNotFound);
  if (sale.status === 'ANULADA') throw conflict(CONTRACT_MESSAGES.saleAnnulled);
  const saleKind = saleContractKind(sale.type);
  let templateId: number;
  let kind: string;
  if (body.template_id !== undefined) {
    const template = await deps.db
      .selectFrom('contract_templates')
      .select(['id', 'state', 'kind', 'subdivision_id'])
      .where('id', '=', body.template_id)
      .executeTakeFirst();
    if (!template) throw fieldError('template_id', CONTRACT_MESSAGES.templateNotFound);
    if (template.state !== 'PUBLICADA') throw fieldError('template_id', CONTRACT_MESSAGES.templateNotPublished);
    if (template.subdivision_id !== sale.subdivision_id) throw fieldError('template_id', CONTRACT_MESSAGES.templateOtherSubdivision);
    if (![saleKind, 'ADENDA', 'CARTA_RESOLUCION'].includes(template.kind))
      throw fieldError('template_id', CONTRACT_MESSAGES.templateWrongKind);
    templateId = template.id;
    kind = template.kind;
  } else {
    const template = await latestPublishedTemplate(deps.db, sale.subdivision_id, saleKind);
    if (!template) throw conflict(CONTRACT_MESSAGES.noPublishedTemplate);
    templateId = template.id;
    kind = saleKind;
  }
  // An ADENDA writes down one rescheduling (docs/domain.md "Rescission and rescheduling: their
  // documents"): the one given, else the sale's latest (null while the sale has none).
  const rescheduleId =
    kind !== 'ADENDA'
      ? null
      : (options.rescheduleId ??
        (await deps.db.selectFrom('sale_reschedules').select('id').where('sale_id', '=', sale.id).orderBy('id', 'desc').executeTakeFirst())
          ?.id ??
        null);
  const company = await companyId(deps.db);
  let id: number;
  try {
    id = await inTransaction(deps.db, async (trx) => {
      const live = await trx
        .selectFrom('contracts')
        .select('id')
        .where('sale_id', '=', sale.id)
        .where('kind', '=', kind)
        .where('state', '<>', 'ANULADO')
        .$if(kind === 'ADENDA', (q) =>
          rescheduleId === null ? q.where('reschedule_id', 'is', null) : q.where('reschedule_id', '=', rescheduleId),
        )
        .executeTakeFirst();
      if (live) throw conflict(CONTRACT_MESSAGES.duplicate);
      const { id: created } = await trx
        .insertInto('contracts')
        .values({
          company_id: company,
          sale_id: sale.id,
          template_id: templateId,
          kind,
          reschedule_id: rescheduleId,
          state: 'BORRADOR',
          overrides: '{}',
          created_by: staffActorId(audit),
          created_at: stamp,
          updated_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('contract_events')
        .values({
          contract_id: created,
          from_state: null,
          to_state: 'BORRADOR',
          note: null,
          user_id: staffActorId(audit),
          created_at: stamp,
        })
        .execute();
      await recordChange(trx, audit, {
        entity: 'contracts',
        recordId: created,
        action: 'CREATE',
        after: await contractSnapshot(trx, created),
      });
      return created;
    });
  } catch (error) {
    // Two requests for one sale at once: the partial unique index refuses the second.
    if (isUniqueViolation(error)) throw conflict(CONTRACT_MESSAGES.duplicate);
    throw error;
  }
  return getContract(deps, id);
}

/** What a contract's document is made of. @throws HttpError 404. */
async function contractSource(db: Kysely<DB>, id: number) {
  const row = await db
    .selectFrom('contracts as c')
    .innerJoin('contract_templates as t', 't.id', 'c.template_id')
    .select([
      'c.id',
      'c.sale_id',
      'c.kind',
      'c.state',
      'c.number',
      'c.overrides',
      'c.rendered_doc',
      'c.rendered_values',
      'c.reschedule_id',
      'c.version',
      't.content',
    ])
    .where('c.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

/** Shown for the number in a draft's preview (the number is taken at issue). */
const NUMBER_AT_ISSUE = 'C-____-______ (se asigna al emitir)';

/**
 * The document of a contract resolved now: the template's document, the sale's values
 * (server/modules/administracion/contract-values.ts) with `contrato.numero` = `number`, and the
 * contract's overrides.
 */
async function resolveNow(
  deps: Pick<Deps, 'db' | 'clock'>,
  source: Awaited<ReturnType<typeof contractSource>>,
  number: string,
): Promise<{ doc: TemplateNode; values: ContractValues; missing: MissingValue[] }> {
  const template = JSON.parse(source.content) as TemplateNode;
  const resolved = await resolveContractValues(deps.db, source.sale_id, source.kind as ContractKind, {
    today: todayInLimaBy(deps.clock),
    rescheduleId: source.reschedule_id,
  });
  const values: ContractValues = { ...resolved, 'contrato.numero': { type: 'TEXT', text: number } };
  const overrides = JSON.parse(source.overrides) as Record<string, string>;
  const { doc, missing } = resolveDocument(template, values, overrides);
  return { doc, values: effectiveValues(documentVariableKeys(template), values, overrides), missing };
}

/**
 * GET /api/contracts/{id}/preview: an issued (or later) contract's stored document and values;
 * a BORRADOR's (or one annulled before issue) resolved now, with what is missing.
 * @throws HttpError 404.
 */
export async function previewContract(deps: Pick<Deps, 'db' | 'clock'>, id: number): Promise<ContractPreview> {
  const source = await contractSource(deps.db, id);
  if (source.rendered_doc !== null && source.rendered_values !== null)
    return { doc: JSON.parse(source.rendered_doc), values: JSON.parse(source.rendered_values) as ContractValues, missing: [] };
  return resolveNow(deps, source, source.number ?? NUMBER_AT_ISSUE);
}

/**
 * PATCH /api/contracts/{id}: a BORRADOR's supplied or corrected values (key → text; null or ''
 * removes the override).
 * @throws HttpError 404; 409 when not a BORRADOR or stale; 422 on an unknown key (by the schema).
 */
export async function updateContract(deps: Deps, audit: AuditContext, id: number, body: UpdateContractRequest): Promise<ContractDetail> {
  const stamp = deps.clock.now().toISOString();
  await inTransaction(deps.db, async (trx) => {
    const current = await trx.selectFrom('contracts').select(['state', 'overrides', 'version']).where('id', '=', id).executeTakeFirst();
    if (!current) throw notFound();
    if (current.version !== body.version) throw staleRecord();
    if (current.state !== 'BORRADOR') throw conflict(CONTRACT_MESSAGES.onlyDraftEditable);
    const overrides = JSON.parse(current.overrides) as Record<string, string>;
    for (const [key, text] of Object.entries(body.overrides)) {
      if (text === null || text.trim() === '') delete overrides[key];
      else overrides[key] = text.trim();
    }
    const before = await contractSnapshot(trx, id);
    const result = await trx
      .updateTable('contracts')
      .set({ overrides: JSON.stringify(overrides), updated_at: stamp, version: nextVersion() })
      .where('id', '=', id)
      .where('version', '=', body.version)
      .where('state', '=', 'BORRADOR')
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) throw staleRecord();
    await recordChange(trx, audit, { entity: 'contracts', recordId: id, action: 'UPDATE', before, after: await contractSnapshot(trx, id) });
  });
  return getContract(deps, id);
}

/** The 422 listing what a contract lacks (each key under `overrides.<key>`). */
function missingError(missing: readonly MissingValue[]): HttpError {
  const labels = missing.map((m) => m.label);
  return validationError(
    Object.fromEntries(missing.map((m) => [`overrides.${m.key}`, [`Falta: ${m.label}`]])),
    CONTRACT_MESSAGES.missingValues(labels),
  );
}

/** Thrown inside the issue's transaction when the predicted number was taken meanwhile. */
class NumberTaken extends Error {}

/**
 * POST /api/contracts/{id}/issue: BORRADOR → EMITIDO with the company's next number of the year
 * (Lima), the resolved document, its values and its PDF stored — served as stored from then on,
 * whatever later happens to the template or the sale.
 *
 * Numbering is gapless under concurrency without holding a transaction while the PDF is made (on
 * the documents' pool): the next number is predicted, the PDF rendered with it, and one short
 * transaction claims the contract (conditional on its version and BORRADOR), raises the counter
 * and checks it gave the predicted number — when another contract took it meanwhile, the
 * transaction rolls back and the PDF is made again with the next (up to {@link ISSUE_ATTEMPTS}).
 * Two issues of the same contract: the second's claim matches nothing → 409. Called inside a
 * caller's transaction (the demo seed, one issue at a time) the claim joins it: nothing else can
 * take the predicted number there.
 * @throws HttpError 404; 409 when not a BORRADOR or stale; 422 when values are missing (listed;
 *   nothing printed blank, nothing stored); 503 when the documents' pool is busy.
 */
export async function issueContract(deps: Deps, audit: AuditContext, id: number, body: IssueContractRequest): Promise<ContractDetail> {
  const issuer = await loadPdfIssuer(deps.db);
  for (let attempt = 0; attempt < ISSUE_ATTEMPTS; attempt += 1) {
    const source = await contractSource(deps.db, id);
    if (source.version !== body.version) throw staleRecord();
    if (source.state !== 'BORRADOR') throw conflict(CONTRACT_MESSAGES.onlyDraftIssues);
    const company = await deps.db.selectFrom('contracts').select('company_id').where('id', '=', id).executeTakeFirstOrThrow();
    const stamp = deps.clock.now().toISOString();
    const year = Number(todayInLimaBy(deps.clock).slice(0, 4));
    const counter = await deps.db
      .selectFrom('contract_counters')
      .select('last_number')
      .where('company_id', '=', company.company_id)
      .where('year', '=', year)
      .executeTakeFirst();
    const predicted = Number(counter?.last_number ?? 0) + 1;
    const number = contractNumber(year, predicted);
    const { doc, values, missing } = await resolveNow(deps, source, number);
    if (missing.length > 0) throw missingError(missing);
    const pdf = await renderDocument(deps.documents, 'pdf.contract', {
      doc,
      issuer,
      number,
      title: CONTRACT_KIND_LABELS[source.kind as ContractKind] ?? 'Contrato',
    });
    try {
      await inTransaction(deps.db, async (trx) => {
        const claimed = await trx
          .updateTable('contracts')
          .set({ version: nextVersion() })
          .where('id', '=', id)
          .where('state', '=', 'BORRADOR')
          .where('version', '=', body.version)
          .executeTakeFirst();
        if (claimed.numUpdatedRows === 0n) {
          const now = await trx.selectFrom('contracts').select('state').where('id', '=', id).executeTakeFirst();
          if (!now) throw notFound();
          throw now.state !== 'BORRADOR' ? conflict(CONTRACT_MESSAGES.onlyDraftIssues) : staleRecord();
        }
        await trx
          .insertInto('contract_counters')
          .values({ company_id: company.company_id, year, last_number: 0 })
          .onConflict((oc) => oc.columns(['company_id', 'year']).doNothing())
          .execute();
        const taken = await trx
          .updateTable('contract_counters')
          .set((eb) => ({ last_number: eb('last_number', '+', 1) }))
          .where('company_id', '=', company.company_id)
          .where('year', '=', year)
          .returning('last_number')
          .executeTakeFirstOrThrow();
        if (Number(taken.last_number) !== predicted) throw new NumberTaken();
        const before = await contractSnapshot(trx, id);
        await trx
          .updateTable('contracts')
          .set({
            state: 'EMITIDO',
            number,
            year,
            rendered_doc: JSON.stringify(doc),
            rendered_values: JSON.stringify(values),
            pdf_data: pdf,
            issued_at: stamp,
            issued_by: staffActorId(audit),
            updated_at: stamp,
          })
          .where('id', '=', id)
          .execute();
        await trx
          .insertInto('contract_events')
          .values({
            contract_id: id,
            from_state: 'BORRADOR',
            to_state: 'EMITIDO',
            note: number,
            user_id: staffActorId(audit),
            created_at: stamp,
          })
          .execute();
        await recordChange(trx, audit, {
          entity: 'contracts',
          recordId: id,
          action: 'UPDATE',
          before,
          after: await contractSnapshot(trx, id),
        });
      });
      return getContract(deps, id);
    } catch (error) {
      if (error instanceof NumberTaken) continue;
      throw error;
    }
  }
  throw new HttpError(503, ISSUE_BUSY);
}

/** An issued contract's stored PDF. @returns its file name ("C-2026-000123.pdf") and bytes. @throws HttpError 404; 409 before issue. */
export async function contractPdf(db: Kysely<DB>, id: number): Promise<{ fileName: string; bytes: Buffer }> {
  const row = await db.selectFrom('contracts').select(['number', 'pdf_data']).where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  if (!row.pdf_data || !row.number) throw conflict(CONTRACT_MESSAGES.noPdf);
  return { fileName: `${row.number}.pdf`, bytes: Buffer.from(row.pdf_data) };
}

/** The type of a signed scan read from its bytes: a PDF ("%PDF-" header), a JPEG or a PNG; null otherwise. */
export function signedScanType(bytes: Buffer): 'application/pdf' | 'image/jpeg' | 'image/png' | null {
  if (bytes.length >= 8 && bytes.toString('latin1', 0, 5) === '%PDF-' && /^[12]\.\d/.test(bytes.toString('latin1', 5, 8)))
    return 'application/pdf';
  return detectImageType(bytes, ['image/jpeg', 'image/png']);
}

/**
 * POST /api/contracts/{id}/signed-scan: stores the signed contract (PDF, JPEG or PNG, sniffed; ≤ 10
 * MB by the route) and moves EMITIDO → FIRMADO in one transaction, then runs
 * {@link contractSigned} inside it (the hook of what a signed contract triggers).
 * @throws HttpError 404; 409 when not EMITIDO; 422 on `file` for another type or an image over the
 *   pixel limits (nothing written).
 */
export async function uploadSignedScan(
  deps: Deps,
  audit: AuditContext,
  id: number,
  upload: { bytes: Buffer; filename: string },
): Promise<ContractDetail> {
  const type = signedScanType(upload.bytes);
  if (!type) throw fieldError('file', CONTRACT_MESSAGES.scanNotDocument);
  if (type !== 'application/pdf') {
    const oversized = oversizedImage(upload.bytes, type, VOUCHER_PIXEL_LIMITS);
    if (oversized) throw fieldError('file', tooManyPixelsMessage('La imagen', oversized, VOUCHER_PIXEL_LIMITS));
  }
  const extension = type === 'application/pdf' ? 'pdf' : type === 'image/png' ? 'png' : 'jpg';
  const stamp = deps.clock.now().toISOString();
  await inTransaction(deps.db, async (trx) => {
    const current = await trx.selectFrom('contracts').select(['state', 'number', 'sale_id']).where('id', '=', id).executeTakeFirst();
    if (!current) throw notFound();
    if (current.state !== 'EMITIDO') throw conflict(CONTRACT_MESSAGES.scanOnlyIssued);
    const moved = await moveContract(trx, audit, id, {
      from: 'EMITIDO',
      to: 'FIRMADO',
      note: upload.filename ? `Escaneo: ${upload.filename.slice(0, 200)}` : null,
      set: {
        signed_scan_data: upload.bytes,
        signed_scan_content_type: type,
        signed_scan_name: `${current.number ?? `contrato-${id}`}-firmado.${extension}`,
        signed_at: stamp,
      },
    });
    if (!moved) throw conflict(CONTRACT_MESSAGES.scanOnlyIssued);
    await contractSigned(trx, audit, id, current.sale_id);
  });
  return getContract(deps, id);
}

/** The signed scan. @throws HttpError 404 (no contract, or no scan yet). */
export async function signedScan(db: Kysely<DB>, id: number): Promise<{ fileName: string; contentType: string; bytes: Buffer }> {
  const row = await db
    .selectFrom('contracts')
    .select(['signed_scan_data', 'signed_scan_content_type', 'signed_scan_name'])
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound();
  if (!row.signed_scan_data || !row.signed_scan_content_type) throw new HttpError(404, CONTRACT_MESSAGES.noScan);
  return {
    fileName: row.signed_scan_name ?? `contrato-${id}`,
    contentType: row.signed_scan_content_type,
    bytes: Buffer.from(row.signed_scan_data),
  };
}

/**
 * POST /api/contracts/{id}/annul: BORRADOR or EMITIDO → ANULADO with the reason (a FIRMADO one is
 * resolved by rescission, not annulled). The sale's next contract of the kind may then be made.
 * @throws HttpError 404; 409 when FIRMADO/RESUELTO/ANULADO or stale.
 */
export async function annulContract(deps: Deps, audit: AuditContext, id: number, body: AnnulContractRequest): Promise<ContractDetail> {
  await inTransaction(deps.db, async (trx) => {
    const current = await trx.selectFrom('contracts').select(['state', 'version']).where('id', '=', id).executeTakeFirst();
    if (!current) throw notFound();
    if (current.version !== body.version) throw staleRecord();
    if (current.state !== 'BORRADOR' && current.state !== 'EMITIDO') throw conflict(CONTRACT_MESSAGES.notAnnullable);
    const moved = await moveContract(trx, audit, id, {
      from: current.state,
      to: 'ANULADO',
      note: body.reason,
      version: body.version,
      set: { annul_reason: body.reason },
    });
    if (!moved) throw staleRecord();
  });
  return getContract(deps, id);
}

/**
 * GET /api/customer/purchases/{id}/contract: the issued contract's PDF of a sale `customerId` holds.
 * @throws HttpError 404 when the customer does not hold the sale (never revealing it exists) or it
 *   has no issued contract.
 */
export async function customerContractPdf(
  db: Kysely<DB>,
  customerId: number,
  saleId: number,
): Promise<{ fileName: string; bytes: Buffer }> {
  await heldPurchaseHead(db, customerId, saleId);
  const row = await issuedSaleContract(db, saleId);
  if (!row?.pdf_data || !row.number) throw new HttpError(404, CONTRACT_MESSAGES.noPdf);
  return { fileName: `${row.number}.pdf`, bytes: Buffer.from(row.pdf_data) };
}
