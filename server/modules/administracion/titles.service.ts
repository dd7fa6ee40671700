import { sql, type Insertable, type Kysely } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import {
  DELIVERY_RECORD_STATES,
  MAX_TITLE_SALE_OPTIONS,
  PRESENTATION_STATES,
  TITLE_MESSAGES,
  TITLE_STATES,
  TITLE_TRANSITIONS,
  isTitleTransitionAllowed,
  type CreateTitleProcessRequest,
  type LotTitleState,
  type TitleBoard,
  type TitleBoardQuery,
  type TitleEvent,
  type TitleProcess,
  type TitleProcessDetail,
  type DeliveryRecordContentType,
  type TitleProcessesQuery,
  type TitleSaleOption,
  type TitleSaleOptionsQuery,
  type TitleState,
  type TitleTransitionRequest,
  type UpdateTitleProcessRequest,
} from '../../../src/schemas/administracion/titles';
import { presentationDeadline, type HolidaySet } from '../../../src/lib/administracion/working-days';
import { recordChange, staffActorId, type AuditContext } from '../../audit/audit';
import { todayInLimaBy, type Clock } from '../../clock';
import type { DB } from '../../db/database';
import { paginate, type Page } from '../../db/paging';
import { fromFlag, inTransaction, isUniqueViolation, toFlag } from '../../db/portable';
import { searchPatternSql } from '../../db/text-search';
import { assertVersionedUpdate, nextVersion, staleRecord } from '../../db/versions';
import { conflict, fieldError, notFound, validationError } from '../../errors';
import { detectImageType, oversizedImage, tooManyPixelsMessage, VOUCHER_PIXEL_LIMITS } from '../../platform/image-type';
import { saleNumber } from '../comercio/sales.service';
import { ENDED_SALE_STATUSES } from '../../../src/schemas/comercio/sales';
import { holidaySet } from './public-holidays.service';

/**
 * Titles at SUNARP (docs/domain.md "Titles at SUNARP"; src/schemas/administracion/titles.ts): one
 * process per sale, its moves through the transitions table with their guards, each written in one
 * transaction with its `title_events` row and its change-history row.
 */

type Deps = { db: Kysely<DB>; clock: Clock };

const day = (value: unknown): string | null => (value === null || value === undefined ? null : String(value).slice(0, 10));

/** Processes joined to their sale, lot, subdivision and titular. */
function processesQuery(db: Kysely<DB>) {
  return db
    .selectFrom('title_processes as tp')
    .innerJoin('sales', 'sales.id', 'tp.sale_id')
    .innerJoin('lots', 'lots.id', 'sales.lot_id')
    .innerJoin('subdivisions', 'subdivisions.id', 'sales.subdivision_id')
    .leftJoin('sale_holders as th', (join) => join.onRef('th.sale_id', '=', 'sales.id').on('th.role', '=', 'TITULAR'))
    .leftJoin('customers', 'customers.id', 'th.customer_id')
    .leftJoin('title_delivery_records as dr', 'dr.process_id', 'tp.id');
}

/** Rows of {@link processesQuery} as an answer needs them. */
function selectProcess(query: ReturnType<typeof processesQuery>) {
  return query.selectAll('tp').select([
    'sales.status as sale_status',
    'sales.type as sale_type',
    'sales.lot_id',
    'lots.code as lot_code',
    'sales.subdivision_id',
    'subdivisions.name as subdivision_name',
    'customers.name as titular_name',
    'customers.surname as titular_surname',
    // The delivery record's type, size and date; never its bytes.
    'dr.content_type as delivery_content_type',
    'dr.size as delivery_size',
    'dr.created_at as delivery_uploaded_at',
  ]);
}
type ProcessRow = Awaited<ReturnType<ReturnType<typeof selectProcess>['executeTakeFirstOrThrow']>>;

/** Calendar days from `from` to `to` (0 when `to` is earlier). */
const daysBetween = (from: string, to: string): number =>
  Math.max(0, Temporal.PlainDate.from(from).until(Temporal.PlainDate.from(to), { largestUnit: 'days' }).days);

/** A stored row as the wire process (`today` Lima, `holidays` for the deadline). */
function toProcess(r: ProcessRow, today: string, holidays: HolidaySet): TitleProcess {
  const state = r.state;
  const since = day(r.state_since)!;
  const presentedOn = day(r.presented_on);
  const presentation =
    presentedOn !== null && PRESENTATION_STATES.includes(state)
      ? (() => {
          const p = presentationDeadline(presentedOn, holidays);
          return { ...p, notice_due: today >= p.notice_on };
        })()
      : null;
  return {
    id: r.id,
    state,
    state_since: since,
    days_in_state: daysBetween(since, today),
    sale: {
      id: r.sale_id,
      number: saleNumber(r.sale_id),
      status: r.sale_status,
      type: r.sale_type,
      titular: r.titular_name ? `${r.titular_name} ${r.titular_surname ?? ''}`.trim() : '',
    },
    lot: { id: r.lot_id, code: r.lot_code, subdivision_id: r.subdivision_id, subdivision_name: r.subdivision_name },
    retention_pact_stated: fromFlag(r.retention_pact_stated),
    retention_pact_note: r.retention_pact_note,
    notes: r.notes,
    minuta_signed_on: day(r.minuta_signed_on),
    notary: r.notary,
    escritura_number: r.escritura_number,
    escritura_date: day(r.escritura_date),
    titulo_number: r.titulo_number,
    presented_on: presentedOn,
    presentation,
    observation: r.observation,
    reentry_on: day(r.reentry_on),
    mayor_derecho:
      r.mayor_derecho_amount !== null && r.mayor_derecho_currency !== null
        ? { amount: Number(r.mayor_derecho_amount), currency: r.mayor_derecho_currency, paid_on: day(r.mayor_derecho_paid_on) }
        : null,
    partida: r.partida,
    asiento: r.asiento,
    inscribed_on: day(r.inscribed_on),
    delivery_reference: r.delivery_reference,
    delivered_on: day(r.delivered_on),
    delivery_record:
      r.delivery_content_type !== null && r.delivery_size !== null && r.delivery_uploaded_at !== null
        ? {
            content_type: r.delivery_content_type,
            size: Number(r.delivery_size),
            uploaded_at: new Date(r.delivery_uploaded_at).toISOString(),
          }
        : null,
    next_states: [...TITLE_TRANSITIONS[state]],
    created_at: new Date(r.created_at).toISOString(),
    updated_at: new Date(r.updated_at).toISOString(),
    version: r.version,
  };
}

/** A process's events, oldest first. */
async function eventsOf(db: Kysely<DB>, processId: number): Promise<TitleEvent[]> {
  const rows = await db
    .selectFrom('title_events as e')
    .leftJoin('users', 'users.id', 'e.user_id')
    .select([
      'e.id',
      'e.from_state',
      'e.to_state',
      'e.date',
      'e.details',
      'e.note',
      'e.user_id',
      'e.created_at',
      'users.name',
      'users.surname',
    ])
    .where('e.process_id', '=', processId)
    .orderBy('e.id')
    .execute();
  return rows.map((r) => ({
    id: r.id,
    from_state: r.from_state,
    to_state: r.to_state,
    date: day(r.date)!,
    details: JSON.parse(r.details) as Record<string, unknown>,
    note: r.note,
    user: r.user_id !== null && r.name !== null ? { id: r.user_id, name: `${r.name} ${r.surname ?? ''}`.trim() } : null,
    created_at: new Date(r.created_at).toISOString(),
  }));
}

/** One process with its history. @throws HttpError 404. */
export async function getTitleProcess(deps: Deps, id: number): Promise<TitleProcessDetail> {
  const row = await selectProcess(processesQuery(deps.db)).where('tp.id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  const process = toProcess(row, todayInLimaBy(deps.clock), await holidaySet(deps.db));
  return { ...process, events: await eventsOf(deps.db, id) };
}

/** The row as the change history keeps it. */
async function snapshot(db: Kysely<DB>, id: number): Promise<Record<string, unknown>> {
  return (await db.selectFrom('title_processes').selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as Record<string, unknown>;
}

/**
 * GET /api/title-processes: a page of processes, by state and subdivision, `q` over the sale number,
 * lot code, titular, título and partida; longest in their state first by default.
 */
export async function listTitleProcesses(deps: Deps, query: TitleProcessesQuery): Promise<Page<TitleProcess>> {
  let filtered = processesQuery(deps.db);
  if (query.state !== undefined) filtered = filtered.where('tp.state', '=', query.state);
  if (query.subdivision_id !== undefined) filtered = filtered.where('sales.subdivision_id', '=', query.subdivision_id);
  if (query.q) {
    const pattern = searchPatternSql(query.q);
    const saleId = /^v?-?0*(\d{1,9})$/i.exec(query.q.trim())?.[1];
    filtered = filtered.where((eb) =>
      eb.or([
        eb('lots.search_text', 'like', pattern),
        eb('customers.search_text', 'like', pattern),
        eb('tp.titulo_number', 'like', pattern),
        eb('tp.partida', 'like', pattern),
        ...(saleId !== undefined ? [eb('sales.id', '=', Number(saleId))] : []),
      ]),
    );
  }
  const sort = query.sort ?? 'state_since';
  const descending = sort.startsWith('-');
  const field = sort.replace(/^-/, '');
  const column = field === 'deadline' ? 'tp.presented_on' : field === 'created_at' ? 'tp.created_at' : 'tp.state_since';
  const page = await paginate(filtered, query, (q) =>
    selectProcess(q)
      // Processes without a presentation last on both dialects (SQLite sorts nulls first, PostgreSQL last).
      .$if(field === 'deadline', (ordered) => ordered.orderBy(sql`case when tp.presented_on is null then 1 else 0 end`))
      .orderBy(column, descending ? 'desc' : 'asc')
      .orderBy('tp.id'),
  );
  const today = todayInLimaBy(deps.clock);
  const holidays = await holidaySet(deps.db);
  return { data: page.data.map((r) => toProcess(r, today, holidays)), meta: page.meta };
}

/** GET /api/title-processes/board: processes per state (every state listed), and how many have their deadline warning due. */
export async function titleBoard(deps: Deps, query: TitleBoardQuery): Promise<TitleBoard> {
  let counted = deps.db
    .selectFrom('title_processes as tp')
    .innerJoin('sales', 'sales.id', 'tp.sale_id')
    .select(['tp.state', (eb) => eb.fn.countAll<number | string>().as('n')])
    .groupBy('tp.state');
  if (query.subdivision_id !== undefined) counted = counted.where('sales.subdivision_id', '=', query.subdivision_id);
  const rows = await counted.execute();
  const byState = new Map(rows.map((r) => [r.state, Number(r.n)]));
  let running = deps.db
    .selectFrom('title_processes as tp')
    .innerJoin('sales', 'sales.id', 'tp.sale_id')
    .select('tp.presented_on')
    .where('tp.state', 'in', [...PRESENTATION_STATES])
    .where('tp.presented_on', 'is not', null);
  if (query.subdivision_id !== undefined) running = running.where('sales.subdivision_id', '=', query.subdivision_id);
  const today = todayInLimaBy(deps.clock);
  const holidays = await holidaySet(deps.db);
  const noticeDue = (await running.execute()).filter((r) => today >= presentationDeadline(day(r.presented_on)!, holidays).notice_on).length;
  const counts = TITLE_STATES.map((state) => ({ state, count: byState.get(state) ?? 0 }));
  return { counts, total: counts.reduce((sum, c) => sum + c.count, 0), notice_due: noticeDue };
}

/** The 422 of a pact stated without its note. */
function assertPactNote(stated: boolean, note: string | null | undefined): void {
  if (stated && !note?.trim()) throw fieldError('retention_pact_note', TITLE_MESSAGES.pactNoteRequired);
}

/**
 * POST /api/title-processes: the process of a sale, PENDIENTE since today (Lima).
 * @throws HttpError 422 on `sale_id` (no such sale) or `retention_pact_note`; 409 for an annulled
 * sale or a sale that already has its process (nothing stored).
 */
export async function createTitleProcess(deps: Deps, audit: AuditContext, body: CreateTitleProcessRequest): Promise<TitleProcessDetail> {
  const stamp = deps.clock.now().toISOString();
  const today = todayInLimaBy(deps.clock);
  const stated = body.retention_pact_stated ?? false;
  assertPactNote(stated, body.retention_pact_note);
  let id: number;
  try {
    id = await inTransaction(deps.db, async (trx) => {
      const sale = await trx.selectFrom('sales').select(['id', 'status']).where('id', '=', body.sale_id).executeTakeFirst();
      if (!sale) throw fieldError('sale_id', TITLE_MESSAGES.saleNotFound);
      if (sale.status === 'ANULADA') throw conflict(TITLE_MESSAGES.saleAnnulled);
      const existing = await trx.selectFrom('title_processes').select('id').where('sale_id', '=', sale.id).executeTakeFirst();
      if (existing) throw conflict(TITLE_MESSAGES.duplicate);
      const { id: created } = await trx
        .insertInto('title_processes')
        .values(
          newTitleProcessRow({
            saleId: sale.id,
            stateSince: today,
            stamp,
            createdBy: staffActorId(audit),
            retentionPactStated: stated,
            retentionPactNote: body.retention_pact_note?.trim() || null,
            notes: body.notes?.trim() || null,
          }),
        )
        .returning('id')
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('title_events')
        .values({
          process_id: created,
          from_state: null,
          to_state: 'PENDIENTE',
          date: today,
          details: '{}',
          note: null,
          user_id: staffActorId(audit),
          created_at: stamp,
        })
        .execute();
      await recordChange(trx, audit, {
        entity: 'title_processes',
        recordId: created,
        action: 'CREATE',
        after: await snapshot(trx, created),
      });
      return created;
    });
  } catch (error) {
    // Two requests for the same sale at once: the unique sale_id refuses the second.
    if (isUniqueViolation(error)) throw conflict(TITLE_MESSAGES.duplicate);
    throw error;
  }
  return getTitleProcess(deps, id);
}

/** PATCH /api/title-processes/{id}: the retention-of-title pact and the notes. @throws HttpError 404, 409 stale, 422. */
export async function updateTitleProcess(
  deps: Deps,
  audit: AuditContext,
  id: number,
  body: UpdateTitleProcessRequest,
): Promise<TitleProcessDetail> {
  const stamp = deps.clock.now().toISOString();
  await inTransaction(deps.db, async (trx) => {
    const current = await trx.selectFrom('title_processes').selectAll().where('id', '=', id).executeTakeFirst();
    if (!current) throw notFound();
    const stated = body.retention_pact_stated ?? fromFlag(current.retention_pact_stated);
    const note = body.retention_pact_note !== undefined ? body.retention_pact_note?.trim() || null : current.retention_pact_note;
    assertPactNote(stated, note);
    const before = await snapshot(trx, id);
    const result = await trx
      .updateTable('title_processes')
      .set({
        retention_pact_stated: toFlag(stated),
        retention_pact_note: note,
        ...(body.notes !== undefined ? { notes: body.notes?.trim() || null } : {}),
        updated_at: stamp,
        version: nextVersion(),
      })
      .where('id', '=', id)
      .where('version', '=', body.version)
      .executeTakeFirst();
    await assertVersionedUpdate(trx, 'title_processes', id, result, notFound);
    await recordChange(trx, audit, { entity: 'title_processes', recordId: id, action: 'UPDATE', before, after: await snapshot(trx, id) });
  });
  return getTitleProcess(deps, id);
}

/** The columns a move to `body.to` from `from` writes, and the details its event keeps. @throws HttpError 422. */
function stepFields(
  from: TitleState,
  body: TitleTransitionRequest,
): { set: Partial<Record<string, string | number | null>>; details: Record<string, unknown> } {
  switch (body.to) {
    case 'MINUTA_FIRMADA':
      return { set: { minuta_signed_on: body.date }, details: {} };
    case 'ESCRITURA':
      return {
        set: { notary: body.notary, escritura_number: body.escritura_number, escritura_date: body.date },
        details: { notary: body.notary, escritura_number: body.escritura_number },
      };
    case 'PRESENTADO':
      if (from === 'ESCRITURA' || from === 'TACHADO') {
        // A new asiento de presentación: a new título, its presentation date; the previous round's fields are cleared.
        if (!body.titulo_number) throw fieldError('titulo_number', TITLE_MESSAGES.tituloRequired);
        return {
          set: {
            titulo_number: body.titulo_number,
            presented_on: body.date,
            observation: null,
            reentry_on: null,
            mayor_derecho_amount: null,
            mayor_derecho_currency: null,
            mayor_derecho_paid_on: null,
          },
          details: { titulo_number: body.titulo_number, presented_on: body.date },
        };
      }
      // Re-entry of an observed título, or payment of the liquidated mayor derecho: same título and asiento.
      if (body.titulo_number !== undefined) throw fieldError('titulo_number', TITLE_MESSAGES.reentryOnly);
      return from === 'OBSERVADO'
        ? { set: { reentry_on: body.date }, details: { reentry_on: body.date } }
        : { set: { mayor_derecho_paid_on: body.date }, details: { mayor_derecho_paid_on: body.date } };
    case 'OBSERVADO':
      return { set: { observation: body.observation, reentry_on: null }, details: { observation: body.observation } };
    case 'LIQUIDADO':
      return {
        set: { mayor_derecho_amount: body.amount, mayor_derecho_currency: body.currency, mayor_derecho_paid_on: null },
        details: { amount: body.amount, currency: body.currency },
      };
    case 'TACHADO':
      return { set: {}, details: {} };
    case 'INSCRITO':
      return {
        set: { partida: body.partida, asiento: body.asiento, inscribed_on: body.date },
        details: { partida: body.partida, asiento: body.asiento },
      };
    case 'ENTREGADO': {
      const reference = body.delivery_reference?.trim() || null;
      return { set: { delivery_reference: reference, delivered_on: body.date }, details: { delivery_reference: reference } };
    }
  }
}

/**
 * POST /api/title-processes/{id}/transition: moves the process to `body.to` with that state's
 * fields, its event and its change-history row, in one transaction.
 * @throws HttpError 404; 409 a move not in the transitions table, an annulled sale, ESCRITURA for a
 * sale not CANCELADA (a FINANCIADO one without the retention-of-title pact), a stale version; 422 a
 * date after today or before the current state's, a missing título number (nothing written).
 */
export async function transitionTitleProcess(
  deps: Deps,
  audit: AuditContext,
  id: number,
  body: TitleTransitionRequest,
): Promise<TitleProcessDetail> {
  const stamp = deps.clock.now().toISOString();
  const today = todayInLimaBy(deps.clock);
  await inTransaction(deps.db, async (trx) => {
    const current = await trx
      .selectFrom('title_processes as tp')
      .innerJoin('sales', 'sales.id', 'tp.sale_id')
      .select([
        'tp.state',
        'tp.state_since',
        'tp.retention_pact_stated',
        'tp.version',
        'sales.status as sale_status',
        'sales.type as sale_type',
      ])
      .where('tp.id', '=', id)
      .executeTakeFirst();
    if (!current) throw notFound();
    // Checked first so a stale client is told to reload, not that the move is not allowed.
    if (current.version !== body.version) throw staleRecord();
    const from = current.state;
    if (!isTitleTransitionAllowed(from, body.to)) throw conflict(TITLE_MESSAGES.transitionNotAllowed);
    if (current.sale_status === 'ANULADA') throw conflict(TITLE_MESSAGES.saleAnnulled);
    if (
      body.to === 'ESCRITURA' &&
      current.sale_status !== 'CANCELADA' &&
      !(current.sale_type === 'FINANCIADO' && fromFlag(current.retention_pact_stated))
    )
      throw conflict(TITLE_MESSAGES.notPaidOff);
    if (body.date > today) throw validationError({ date: [TITLE_MESSAGES.dateInFuture] });
    if (body.date < day(current.state_since)!) throw validationError({ date: [TITLE_MESSAGES.dateBeforePrevious] });
    if (body.to === 'ENTREGADO' && !body.delivery_reference?.trim()) {
      const record = await trx.selectFrom('title_delivery_records').select('id').where('process_id', '=', id).executeTakeFirst();
      if (!record) throw fieldError('delivery_reference', TITLE_MESSAGES.deliveryRequired);
    }
    const { set, details } = stepFields(from, body);
    const before = await snapshot(trx, id);
    const result = await trx
      .updateTable('title_processes')
      .set({ ...set, state: body.to, state_since: body.date, updated_at: stamp, version: nextVersion() })
      .where('id', '=', id)
      .where('version', '=', body.version)
      .where('state', '=', from)
      .executeTakeFirst();
    await assertVersionedUpdate(trx, 'title_processes', id, result, notFound);
    const note = body.note?.trim() || null;
    await trx
      .insertInto('title_events')
      .values({
        process_id: id,
        from_state: from,
        to_state: body.to,
        date: body.date,
        details: JSON.stringify(details),
        note,
        user_id: staffActorId(audit),
        created_at: stamp,
      })
      .execute();
    await recordChange(trx, audit, {
      entity: 'title_processes',
      recordId: id,
      action: 'UPDATE',
      before,
      after: { ...(await snapshot(trx, id)), ...(note ? { transition_note: note } : {}) },
    });
  });
  return getTitleProcess(deps, id);
}

/**
 * The row of a new title process (docs/domain.md "Titles at SUNARP"): PENDIENTE since
 * `stateSince` (a Lima calendar date, yyyy-mm-dd), every later step's field empty. Shared by
 * POST /api/title-processes and the tests' fixtures, so a new column is added in one place.
 */
export function newTitleProcessRow(input: {
  saleId: number;
  stateSince: string;
  /** ISO instant of created_at and updated_at. */
  stamp: string;
  createdBy: number | null;
  retentionPactStated?: boolean;
  retentionPactNote?: string | null;
  notes?: string | null;
}): Insertable<DB['title_processes']> {
  return {
    sale_id: input.saleId,
    state: 'PENDIENTE',
    state_since: input.stateSince,
    retention_pact_stated: toFlag(input.retentionPactStated ?? false),
    retention_pact_note: input.retentionPactNote ?? null,
    notes: input.notes ?? null,
    minuta_signed_on: null,
    notary: null,
    escritura_number: null,
    escritura_date: null,
    titulo_number: null,
    presented_on: null,
    observation: null,
    reentry_on: null,
    mayor_derecho_amount: null,
    mayor_derecho_currency: null,
    mayor_derecho_paid_on: null,
    partida: null,
    asiento: null,
    inscribed_on: null,
    delivery_reference: null,
    delivered_on: null,
    created_by: input.createdBy,
    created_at: input.stamp,
    updated_at: input.stamp,
  };
}

/** Signature of a PDF file: "%PDF-" at its first byte (ISO 32000-1 §7.5.2). */
const PDF_SIGNATURE = Buffer.from('%PDF-', 'latin1');

/**
 * The type of a delivery record read from its bytes (never from its name or declared type): a PDF
 * by its header, a PNG, JPEG or WebP image by its signature and first structure; null for anything
 * else (a text file renamed .pdf).
 */
export function deliveryRecordType(bytes: Buffer): DeliveryRecordContentType | null {
  if (bytes.length > PDF_SIGNATURE.length && bytes.subarray(0, PDF_SIGNATURE.length).equals(PDF_SIGNATURE)) return 'application/pdf';
  return detectImageType(bytes, ['image/png', 'image/jpeg', 'image/webp'] as const);
}

/**
 * POST /api/title-processes/{id}/delivery-record: stores (or replaces) the acta de entrega of a
 * process INSCRITO or ENTREGADO, with its change-history row, in one transaction. The bytes are
 * already limited to 10 MB by the route.
 * @throws HttpError 404; 409 in another state; 422 on `file` when it is neither a PDF nor an image,
 * or an image of too many pixels (nothing written).
 */
export async function uploadDeliveryRecord(deps: Deps, audit: AuditContext, id: number, bytes: Buffer): Promise<TitleProcessDetail> {
  const contentType = deliveryRecordType(bytes);
  await inTransaction(deps.db, async (trx) => {
    const process = await trx.selectFrom('title_processes').select(['id', 'state']).where('id', '=', id).executeTakeFirst();
    if (!process) throw notFound();
    if (!DELIVERY_RECORD_STATES.includes(process.state)) throw conflict(TITLE_MESSAGES.deliveryRecordState);
    if (!contentType) throw fieldError('file', TITLE_MESSAGES.deliveryRecordType);
    if (contentType !== 'application/pdf') {
      const oversized = oversizedImage(bytes, contentType, VOUCHER_PIXEL_LIMITS);
      if (oversized) throw fieldError('file', tooManyPixelsMessage('El acta de entrega', oversized, VOUCHER_PIXEL_LIMITS));
    }
    const stamp = deps.clock.now().toISOString();
    const previous = await trx
      .selectFrom('title_delivery_records')
      .select(['id', 'content_type', 'size', 'created_at'])
      .where('process_id', '=', id)
      .executeTakeFirst();
    if (previous) {
      await trx.deleteFrom('title_delivery_records').where('id', '=', previous.id).execute();
      await recordChange(trx, audit, {
        entity: 'title_delivery_records',
        recordId: previous.id,
        action: 'DELETE',
        before: { ...previous, process_id: id },
      });
    }
    const row = { process_id: id, content_type: contentType, size: bytes.length, uploaded_by: staffActorId(audit), created_at: stamp };
    const { id: recordId } = await trx
      .insertInto('title_delivery_records')
      .values({ ...row, data: bytes })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordChange(trx, audit, {
      entity: 'title_delivery_records',
      recordId,
      action: 'CREATE',
      after: { id: recordId, ...row },
    });
  });
  return getTitleProcess(deps, id);
}

/** The stored delivery record of a process. @throws HttpError 404 (no process); 409 when it has none. */
export async function readDeliveryRecord(
  db: Kysely<DB>,
  id: number,
): Promise<{ contentType: string; data: Buffer; createdAt: string; fileName: string }> {
  const row = await db
    .selectFrom('title_delivery_records as dr')
    .innerJoin('title_processes as tp', 'tp.id', 'dr.process_id')
    .select(['dr.content_type', 'dr.data', 'dr.created_at', 'tp.sale_id'])
    .where('dr.process_id', '=', id)
    .executeTakeFirst();
  if (!row) {
    const process = await db.selectFrom('title_processes').select('id').where('id', '=', id).executeTakeFirst();
    if (!process) throw notFound();
    throw conflict(TITLE_MESSAGES.deliveryRecordNone);
  }
  const extension = row.content_type === 'application/pdf' ? 'pdf' : row.content_type.replace('image/', '').replace('jpeg', 'jpg');
  return {
    contentType: row.content_type,
    data: row.data,
    createdAt: new Date(row.created_at).toISOString(),
    fileName: `acta-entrega-${saleNumber(row.sale_id)}.${extension}`,
  };
}

/**
 * GET /api/title-processes/sale-options?q=: up to {@link MAX_TITLE_SALE_OPTIONS} sales "Nuevo
 * trámite" may pick — not annulled, without a title process — whose number, lot code or titular
 * matches `q`; paid-off sales first, then the newest.
 */
export async function titleSaleOptions(db: Kysely<DB>, query: TitleSaleOptionsQuery): Promise<TitleSaleOption[]> {
  let found = db
    .selectFrom('sales')
    .innerJoin('lots', 'lots.id', 'sales.lot_id')
    .innerJoin('subdivisions', 'subdivisions.id', 'sales.subdivision_id')
    .leftJoin('sale_holders as th', (join) => join.onRef('th.sale_id', '=', 'sales.id').on('th.role', '=', 'TITULAR'))
    .leftJoin('customers', 'customers.id', 'th.customer_id')
    .leftJoin('title_processes as tp', 'tp.sale_id', 'sales.id')
    .select([
      'sales.id',
      'sales.status',
      'sales.type',
      'lots.code as lot_code',
      'subdivisions.name as subdivision_name',
      'customers.name as titular_name',
      'customers.surname as titular_surname',
    ])
    .where('sales.status', '!=', 'ANULADA')
    .where('tp.id', 'is', null);
  const text = query.q?.trim();
  if (text) {
    const pattern = searchPatternSql(text);
    const saleId = /^v?-?0*(\d{1,9})$/i.exec(text)?.[1];
    found = found.where((eb) =>
      eb.or([
        eb('lots.search_text', 'like', pattern),
        eb('customers.search_text', 'like', pattern),
        ...(saleId !== undefined ? [eb('sales.id', '=', Number(saleId))] : []),
      ]),
    );
  }
  const rows = await found
    .orderBy(sql`case when sales.status = 'CANCELADA' then 0 else 1 end`)
    .orderBy('sales.id', 'desc')
    .limit(MAX_TITLE_SALE_OPTIONS)
    .execute();
  return rows.map((r) => ({
    id: r.id,
    number: saleNumber(r.id),
    status: r.status,
    type: r.type,
    lot_code: r.lot_code,
    subdivision_name: r.subdivision_name,
    titular: r.titular_name ? `${r.titular_name} ${r.titular_surname ?? ''}`.trim() : '',
  }));
}

/**
 * GET /api/subdivisions/{key}/title-states (the heat map's "Estado del título", docs/decisions.md
 * "Heat map: title state"): for every lot of subdivision `subdivisionId` whose live sale (not
 * ANULADA nor RESUELTA; at most one per lot) has a title process, the process's state and the day
 * it entered it, by lot id. One query: the subdivision's sales by `sales_subdivision_status_idx`,
 * each one's process by its unique `sale_id`. The subdivision is not checked here (the route does).
 */
export async function lotTitleStates(db: Kysely<DB>, subdivisionId: number): Promise<LotTitleState[]> {
  const rows = await db
    .selectFrom('sales')
    .innerJoin('title_processes as tp', 'tp.sale_id', 'sales.id')
    .select(['sales.lot_id', 'tp.state', 'tp.state_since'])
    .where('sales.subdivision_id', '=', subdivisionId)
    .where('sales.status', 'not in', [...ENDED_SALE_STATUSES])
    .orderBy('sales.lot_id')
    .execute();
  return rows.map((r) => ({ lot_id: r.lot_id, state: r.state, state_since: day(r.state_since)! }));
}
