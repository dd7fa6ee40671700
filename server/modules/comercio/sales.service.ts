import { expressionBuilder, sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import type { z } from 'zod';
import { Temporal } from 'temporal-polyfill';
import {
  ENDED_SALE_STATUSES,
  isEndedSale,
  SALE_MESSAGES,
  type annulSaleRequestSchema,
  type createSaleRequestSchema,
  type Sale,
  type SalesQuery,
  type SaleStatus,
  type SettlementMode,
} from '../../../src/schemas/comercio/sales';
import { LIVE_RESERVATION_STATUSES } from '../../../src/schemas/comercio/reservations';
import { planTerms } from '../../../src/lib/comercio/quote-plan';
import { applyScheduleEdits, planRows } from '../../../src/lib/comercio/schedule-edit';
import { projectSaleCommissions, revertSaleCommissions } from '../administracion/commission-lifecycle';
import { recordChange, staffActorId, type AuditContext } from '../../audit/audit';
import { todayInLimaBy } from '../../clock';
import { formatDate } from '../../../src/lib/dates';
import { DEFAULT_SALE_BACKDATE_DAYS } from '../../../src/schemas/configuracion/company';
import { allocateReservationCredit, saleStatusFor, type ReservationPayment } from '../../../src/lib/finanzas/sale-ledger';
import { refreshSaleLateFees, saleAccount } from '../finanzas/late-fees.service';
import type { AppDeps } from '../../context';
import { DASHBOARD_CARDS_MOVED, publishDashboardChanged } from '../inicio/dashboard-events';
import type { DB } from '../../db/database';
import { paginate, parseSort, type Page } from '../../db/paging';
import { foldSearch, searchPatternSql } from '../../db/text-search';
import { isSqlite, isUniqueViolation } from '../../db/portable';
import { assertVersionedUpdate, nextVersion } from '../../db/versions';
import { conflict, HttpError, notFound, validationError, type FieldErrors } from '../../errors';
import { displayName, displayNameSql } from '../crm/customers.repository';
import { concludeLeadsOfCustomer } from '../crm/leads.service';
import { moveLot } from './lot-moves';
import { applySettlement, approvedPaidOn, checkSettlement } from './sale-settlement';
import { quoteRow } from './quotes.repository';
import { saleAgentFor } from './sale-agent';
import { annulContractsOfSale } from '../administracion/contract-lifecycle';
import { adendaPending, letterPending, saleDocuments, type SaleDocuments } from '../administracion/sale-document-links';

/** Parsed POST /api/sales body. */
export type CreateSaleBody = z.output<typeof createSaleRequestSchema>;
/** Parsed POST /api/sales/{id}/annul body. */
export type AnnulSaleBody = z.output<typeof annulSaleRequestSchema>;

/** "V-000123" of a sale id. */
export const saleNumber = (id: number) => `V-${String(id).padStart(6, '0')}`;

/**
 * The text search (`q`) of the sales list: the sales whose lot code, or one of whose buyers' display
 * name or document number, contains `text` (folded: accents and case ignored, ñ kept where typed;
 * docs/domain.md "Searching lists"), or whose number is `text` ("V-000123", "v123").
 * On SQLite a text of three characters or more reads the trigram indexes `customer_search` and
 * `lot_search` (migrations 0021 and 0034: they hold the folded texts; the FTS5 phrase `"text"`
 * matches where `%text%` does); shorter texts and PostgreSQL scan the `search_text` columns with LIKE.
 */
function textMatch(db: Kysely<DB>, text: string): Expression<SqlBool> {
  // foldSearch drops control characters: FTS5 cannot take a NUL inside a string.
  const folded = foldSearch(text);
  const indexed = isSqlite(db) && [...folded].length >= 3;
  const phrase = `"${folded.replace(/"/g, '""')}"`;
  const pattern = searchPatternSql(text);
  const digits = text.replace(/\D/g, '');
  return expressionBuilder<DB, 'sales'>().or([
    indexed
      ? sql<SqlBool>`sales.lot_id in (select rowid from lot_search where lot_search match ${phrase})`
      : sql<SqlBool>`sales.lot_id in (select lots.id from lots where lots.search_text like ${pattern})`,
    indexed
      ? sql<SqlBool>`sales.id in (select sale_holders.sale_id from sale_holders where sale_holders.customer_id in
          (select rowid from customer_search where customer_search match ${phrase}))`
      : sql<SqlBool>`sales.id in (select sale_holders.sale_id from sale_holders where sale_holders.customer_id in
          (select customers.id from customers where ${displayNameSql} like ${pattern} or customers.document_number like ${pattern}))`,
    ...(digits && /^v-?\d/i.test(text.trim()) ? [sql<SqlBool>`sales.id = ${Number(digits)}`] : []),
  ]);
}

/**
 * One page of sale ids in order, and the total (see `salesQuerySchema`). Reads `sales` alone
 * (docs/performance.md "The sales list"): the subdivision is the sale's own `subdivision_id`
 * (migration 0021), the buyers and the text are `IN` subqueries over their indexes. When the
 * filters are only status, type and subdivision, the total is a sum over `sale_counts` (kept by
 * triggers) instead of a count of the sales; otherwise the page's statement counts too (the text
 * search's trigram lookups run once).
 */
function listSaleIds(db: Kysely<DB>, filters: SalesQuery, owner: number | null): Promise<Page<{ id: number }>> {
  let query = db.selectFrom('sales');
  if (owner !== null) query = query.where('sales.agent_id', '=', owner);
  const text = filters.q;
  if (text) query = query.where(textMatch(db, text));
  if (filters.status) query = query.where('sales.status', '=', filters.status);
  if (filters.type) query = query.where('sales.type', '=', filters.type);
  if (filters.subdivision_id !== undefined) query = query.where('sales.subdivision_id', '=', filters.subdivision_id);
  if (filters.agent_id !== undefined) query = query.where('sales.agent_id', '=', filters.agent_id);
  if (filters.lot_id !== undefined) query = query.where('sales.lot_id', '=', filters.lot_id);
  const customerId = filters.customer_id;
  if (customerId !== undefined)
    query = query.where('sales.id', 'in', (eb) =>
      eb.selectFrom('sale_holders').select('sale_holders.sale_id').where('sale_holders.customer_id', '=', customerId),
    );
  const { field, direction } = parseSort<'sale_date' | 'final_price' | 'created_at'>(filters.sort, '-sale_date');
  const countedByTable =
    !text && owner === null && filters.agent_id === undefined && filters.lot_id === undefined && customerId === undefined;
  return paginate(query, filters, (q) => q.select('sales.id').orderBy(`sales.${field}`, direction).orderBy('sales.id', direction), {
    ...(countedByTable ? { total: () => countSales(db, filters) } : { countInPage: true }),
  });
}

/** Sales with `status`, `type` and `subdivision_id` as given (any when absent), from `sale_counts`. */
async function countSales(db: Kysely<DB>, filters: Pick<SalesQuery, 'status' | 'type' | 'subdivision_id'>): Promise<number> {
  let query = db.selectFrom('sale_counts').select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('sales'), sql<number>`0`).as('total'));
  if (filters.status) query = query.where('status', '=', filters.status);
  if (filters.type) query = query.where('type', '=', filters.type);
  if (filters.subdivision_id !== undefined) query = query.where('subdivision_id', '=', filters.subdivision_id);
  return Number((await query.executeTakeFirst())?.total ?? 0);
}

/**
 * The revision of the sales list (`list_revisions` row `sales`, migration 0021): it moves on every
 * write that changes what a page shows, so a page kept at this revision is current.
 */
export async function salesListRevision(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom('list_revisions').select('revision').where('name', '=', 'sales').executeTakeFirst();
  return Number(row?.revision ?? 0);
}

/** Sales by id → wire sales, in the order of `ids`; with their schedule rows when `withSchedule`. */
async function salesByIds(db: Kysely<DB>, ids: readonly number[], withSchedule: boolean): Promise<Sale[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('sales')
    .innerJoin('lots', 'lots.id', 'sales.lot_id')
    .innerJoin('subdivisions', 'subdivisions.id', 'sales.subdivision_id')
    .leftJoin('users as agent', 'agent.id', 'sales.agent_id')
    .leftJoin('customers as guarantor', 'guarantor.id', 'sales.guarantor_customer_id')
    .select([
      'sales.id',
      'sales.lot_id',
      'sales.agent_id',
      'sales.guarantor_customer_id',
      'sales.reservation_id',
      'sales.quote_id',
      'sales.sale_date',
      'sales.type',
      'sales.currency',
      'sales.list_price',
      'sales.discount',
      'sales.final_price',
      'sales.down_payment',
      'sales.reservation_credit',
      'sales.financed',
      'sales.instalments',
      'sales.monthly_rate_percent',
      'sales.method',
      'sales.total_interest',
      'sales.paid',
      'sales.status',
      'sales.annul_reason',
      'sales.created_at',
      'sales.updated_at',
      'sales.version',
      'lots.code as lot_code',
      'lots.area_m2',
      'subdivisions.name as subdivision_name',
      'agent.name as agent_name',
      'agent.surname as agent_surname',
      'guarantor.name as guarantor_name',
      'guarantor.surname as guarantor_surname',
      'guarantor.document_number as guarantor_document',
    ])
    .where('sales.id', 'in', [...ids])
    .execute();
  const holders = await db
    .selectFrom('sale_holders')
    .innerJoin('customers', 'customers.id', 'sale_holders.customer_id')
    .select([
      'sale_holders.sale_id',
      'sale_holders.customer_id',
      'sale_holders.role',
      'sale_holders.share_percent',
      'customers.name',
      'customers.surname',
      'customers.document_number',
    ])
    .where('sale_holders.sale_id', 'in', [...ids])
    .orderBy('sale_holders.position')
    .execute();
  const schedules = withSchedule
    ? await db
        .selectFrom('sale_instalments')
        .selectAll()
        .where('sale_id', 'in', [...ids])
        .orderBy('sale_id')
        // The down payment's parts first, then the instalments.
        .orderBy(sql`case when kind = 'INICIAL' then 0 else 1 end`)
        .orderBy('number')
        .execute()
    : [];
  const settlements = withSchedule
    ? await db
        .selectFrom('sale_settlements')
        .select(['sale_id', 'mode', 'paid', 'penalty', 'refund', 'credited', 'target_sale_id'])
        .where('sale_id', 'in', [...ids])
        .execute()
    : [];
  const rescissions = withSchedule
    ? await db
        .selectFrom('sale_rescissions')
        .leftJoin('users as approver', 'approver.id', 'sale_rescissions.approved_by')
        .select([
          'sale_rescissions.sale_id',
          'sale_rescissions.overdue_instalments',
          'sale_rescissions.required_overdue',
          'sale_rescissions.paid',
          'sale_rescissions.penalty_pct',
          'sale_rescissions.penalty',
          'sale_rescissions.refund',
          'sale_rescissions.reason',
          'sale_rescissions.created_at',
          'approver.name as approver_name',
          'approver.surname as approver_surname',
        ])
        .where('sale_rescissions.sale_id', 'in', [...ids])
        .execute()
    : [];
  const latestAdendas = withSchedule
    ? await db
        .selectFrom('sale_reschedules')
        .select(['id', 'sale_id', 'schedule_number'])
        .where('sale_id', 'in', [...ids])
        .orderBy('id', 'desc')
        .execute()
    : [];
  // The letter of resolution and the adendas generated (docs/domain.md "Rescission and rescheduling: their documents").
  const documents = new Map<number, SaleDocuments>();
  for (const id of ids)
    if (rescissions.some((x) => x.sale_id === id) || latestAdendas.some((x) => x.sale_id === id))
      documents.set(id, await saleDocuments(db, id));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const docs = documents.get(id);
    const latestAdenda = latestAdendas.find((x) => x.sale_id === id);
    const settled = settlements.find((x) => x.sale_id === id);
    const resolved = rescissions.find((x) => x.sale_id === id);
    const r = byId.get(id);
    if (!r) return [];
    const paid = Number(r.paid);
    const total = Number(r.final_price) + Number(r.total_interest);
    return [
      {
        id: r.id,
        number: saleNumber(r.id),
        sale_date: r.sale_date,
        type: r.type,
        lot: { id: r.lot_id, code: r.lot_code, subdivision_name: r.subdivision_name, area_m2: r.area_m2 },
        holders: holders
          .filter((h) => h.sale_id === id)
          .map((h) => ({
            id: h.customer_id,
            display_name: displayName(h),
            document_number: h.document_number,
            role: h.role,
            share_percent: h.share_percent,
          })),
        guarantor:
          r.guarantor_customer_id !== null && r.guarantor_name !== null
            ? {
                id: r.guarantor_customer_id,
                display_name: displayName({ name: r.guarantor_name, surname: r.guarantor_surname }),
                document_number: r.guarantor_document ?? '',
              }
            : null,
        agent: r.agent_id !== null && r.agent_name !== null ? { id: r.agent_id, name: r.agent_name, surname: r.agent_surname ?? '' } : null,
        reservation_id: r.reservation_id,
        quote_id: r.quote_id,
        currency: r.currency,
        list_price: Number(r.list_price),
        discount: Number(r.discount),
        final_price: Number(r.final_price),
        down_payment: Number(r.down_payment),
        reservation_credit: Number(r.reservation_credit),
        financed: Number(r.financed),
        instalments: r.instalments,
        monthly_rate_percent: r.monthly_rate_percent,
        method: r.method,
        total_interest: Number(r.total_interest),
        paid,
        balance: isEndedSale(r.status) ? 0 : total - paid,
        status: r.status as SaleStatus,
        annul_reason: r.annul_reason,
        settlement: settled
          ? {
              mode: settled.mode as SettlementMode,
              paid: Number(settled.paid),
              penalty: Number(settled.penalty),
              refund: Number(settled.refund),
              credited: Number(settled.credited),
              target_sale:
                settled.target_sale_id !== null ? { id: settled.target_sale_id, number: saleNumber(settled.target_sale_id) } : null,
            }
          : null,
        rescission: resolved
          ? {
              overdue_instalments: resolved.overdue_instalments,
              required_overdue: resolved.required_overdue,
              paid: Number(resolved.paid),
              penalty_pct: resolved.penalty_pct,
              penalty: Number(resolved.penalty),
              refund: Number(resolved.refund),
              reason: resolved.reason,
              approved_by: resolved.approver_name !== null ? `${resolved.approver_name} ${resolved.approver_surname ?? ''}`.trim() : null,
              created_at: String(resolved.created_at),
              letter: docs?.letter ?? null,
              letter_pending: docs ? letterPending(docs) : null,
            }
          : null,
        adenda:
          latestAdenda && docs
            ? {
                reschedule_id: latestAdenda.id,
                schedule_number: latestAdenda.schedule_number,
                document: docs.adendas.get(latestAdenda.id) ?? null,
                document_pending: adendaPending(docs.adendas.get(latestAdenda.id)),
              }
            : null,
        schedule: schedules
          .filter((s) => s.sale_id === id)
          .map((s) => ({
            kind: s.kind,
            number: s.number,
            due_date: s.due_date,
            amount: Number(s.amount),
            capital: Number(s.capital),
            interest: Number(s.interest),
            paid: Number(s.paid),
            status: s.status,
            late_fee_accrued: Number(s.late_fee_accrued),
            late_fee_paid: Number(s.late_fee_paid),
            late_fee_waived: Number(s.late_fee_waived),
            schedule_number: s.schedule_number,
          })),
        created_at: r.created_at,
        updated_at: r.updated_at,
        version: r.version,
      },
    ];
  });
}

/**
 * One page of sales (GET /api/sales), without their schedules. `owner` (server/auth/scopes.ts
 * salesOwner): when set, only the sales whose agent is that user (docs/security.md 31.11).
 */
export async function listSales(deps: Pick<AppDeps, 'db'>, query: SalesQuery, owner: number | null = null): Promise<Page<Sale>> {
  const page = await listSaleIds(deps.db, query, owner);
  return {
    data: await salesByIds(
      deps.db,
      page.data.map((r) => r.id),
      false,
    ),
    meta: page.meta,
  };
}

/** One sale with its schedule. @throws HttpError 404. */
export async function getSale(deps: Pick<AppDeps, 'db'>, id: number): Promise<Sale> {
  const [sale] = await salesByIds(deps.db, [id], true);
  if (!sale) throw notFound();
  return sale;
}

/**
 * Checks that sale `id` is within the caller's sales scope (`owner`, null = everyone's).
 * @throws HttpError 404 when missing; 403 {@link SALE_MESSAGES}.notYours when another agent's (as leads).
 */
export async function assertSaleInScope(db: Kysely<DB>, id: number, owner: number | null): Promise<void> {
  if (owner === null) return;
  const row = await db.selectFrom('sales').select('agent_id').where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  if (row.agent_id !== owner) throw new HttpError(403, SALE_MESSAGES.notYours);
}

/** The stored row (for the change history). */
const saleRow = (db: Kysely<DB>, id: number) => db.selectFrom('sales').selectAll().where('id', '=', id).executeTakeFirst();

/** The company's back-dating window of sales, in days (migration 0028; the default without a company). */
async function saleBackdateDays(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom('companies').select('sale_backdate_days').orderBy('id').executeTakeFirst();
  return row ? Number(row.sale_backdate_days) : DEFAULT_SALE_BACKDATE_DAYS;
}

/**
 * Why `saleDate` cannot be a sale's date, or null: never after `today`, never more than
 * `backdateDays` before it (docs/domain.md "Sales": the window the company sets).
 */
export function saleDateError(saleDate: string, today: string, backdateDays: number): string | null {
  if (saleDate > today) return SALE_MESSAGES.futureSaleDate;
  const earliest = Temporal.PlainDate.from(today).subtract({ days: backdateDays }).toString();
  if (saleDate < earliest) return `${SALE_MESSAGES.saleDateTooOld} ${formatDate(earliest)} (${backdateDays} días antes de hoy)`;
  return null;
}

/** The APROBADO payments of reservation `reservationId`: what a sale credits (DOMAIN.md "Reservation"). */
async function approvedReservationPayments(db: Kysely<DB>, reservationId: number): Promise<ReservationPayment[]> {
  const rows = await db
    .selectFrom('payments')
    .select(['id', 'operation_date', 'amount'])
    .where('reservation_id', '=', reservationId)
    .where('status', '=', 'APROBADO')
    .orderBy('operation_date')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ id: r.id, date: r.operation_date, amountCents: Number(r.amount) }));
}

/**
 * Credits a reservation's approved payments to the new sale `saleId` (in the caller's transaction):
 * each becomes allocations to the down payment's rows (src/lib/finanzas/sale-ledger.ts
 * `allocateReservationCredit`), which the payments screen, the receipt and the statement show,
 * and the rows' `paid` grows by them.
 */
async function creditReservation(trx: Kysely<DB>, saleId: number, payments: readonly ReservationPayment[]): Promise<void> {
  const account = await saleAccount(trx, saleId);
  const credits = account ? allocateReservationCredit(account.ledger, payments) : null;
  if (!credits) throw validationError({ down_payment_cents: [SALE_MESSAGES.creditTooHigh] });
  for (const { paymentId, allocations } of credits) {
    if (allocations.length === 0) continue;
    await trx
      .insertInto('payment_allocations')
      .values(
        allocations.map((a) => ({ payment_id: paymentId, instalment_id: a.instalmentId, to_late_fee: 0, to_capital: a.toAmountCents })),
      )
      .execute();
    for (const a of allocations)
      await trx
        .updateTable('sale_instalments')
        .set((eb) => ({ paid: eb('paid', '+', a.toAmountCents) }))
        .where('id', '=', a.instalmentId)
        .execute();
  }
}

/**
 * Marks the quote a sale came from ACEPTADA with that sale's id (in the sale's transaction; its
 * change history too), whatever it showed before (BORRADOR, ENVIADA, or past its validity: the sale
 * is the customer's acceptance). An ANULADA quote is a 422 on `quote_id`.
 */
async function acceptQuote(trx: Kysely<DB>, audit: AuditContext, quoteId: number, saleId: number, stamp: string): Promise<void> {
  const before = await quoteRow(trx, quoteId);
  const accepted = await trx
    .updateTable('quotes')
    .set({ status: 'ACEPTADA', sale_id: saleId, updated_at: stamp, version: nextVersion() })
    .where('id', '=', quoteId)
    .where('status', '!=', 'ANULADA')
    .executeTakeFirst();
  // Annulled meanwhile: the whole sale rolls back with the 422 it would have had.
  if (accepted.numUpdatedRows === 0n) throw validationError({ quote_id: [SALE_MESSAGES.quoteAnnulled] });
  await recordChange(trx, audit, { entity: 'quotes', recordId: quoteId, action: 'UPDATE', before, after: await quoteRow(trx, quoteId) });
}

/**
 * Sells a lot (POST /api/sales). Checks the buyers, the guarantor, the quote (of this lot and a
 * buyer), the sale date (within the company's back-dating window, never future: {@link saleDateError})
 * and the reservation (given, or the lot's live one when a buyer holds it; another customer's is a
 * 409; one still PENDIENTE_PAGO is a 409 — only approved money is credited), computes the plan
 * (src/lib/comercio/quote-plan.ts) and checks the schedule edited row by row when one is sent
 * (src/lib/comercio/schedule-edit.ts: 422 on `schedule`), then in one transaction: inserts the
 * sale, its buyers and its schedule; credits the VIGENTE reservation's approved payments to the
 * down payment as their allocations ({@link creditReservation}); figures the rows' states and late
 * fees as of today and the sale's state by what is paid (REGISTRADA, or INICIAL_PENDIENTE /
 * EN_CUOTAS / CANCELADA after a credit); moves the lot DISPONIBLE or SEPARADO → VENDIDO with a
 * conditional update (the loser of a race matches no row: 409 {@link SALE_MESSAGES}.lotUnavailable;
 * the unique partial index `sales_live_lot_uq` backs it), turns the reservation CONVERTIDA and
 * concludes the buyers' open leads; the quote it came from turns ACEPTADA with the sale's id.
 * The selling agent is `agent_id` or the proposed one (./sale-agent.ts `saleAgentFor`).
 * @param options.canAssignAgent whether the caller may credit the sale to an agent other than the
 *   proposed one ('Supervisar leads'); default: only system changes (no actor) may.
 * @throws HttpError 422 per field; 403 on another agent without the right; 409 when the lot is not
 *   for sale, held by another customer, or its reservation's payment is not approved yet.
 */
export async function createSale(
  deps: Pick<AppDeps, 'db' | 'clock'> & Partial<Pick<AppDeps, 'broadcaster'>>,
  audit: AuditContext,
  body: CreateSaleBody,
  options: { canAssignAgent?: boolean } = {},
): Promise<Sale> {
  const errors: FieldErrors = {};
  const lot = await deps.db
    .selectFrom('lots')
    .innerJoin('subdivisions', 'subdivisions.id', 'lots.subdivision_id')
    .select(['lots.status', 'lots.list_price', 'lots.code', 'lots.subdivision_id', 'subdivisions.currency'])
    .where('lots.id', '=', body.lot_id)
    .executeTakeFirst();
  if (!lot) throw validationError({ lot_id: [SALE_MESSAGES.unknownLot] });
  const holderIds = body.holders.map((h) => h.customer_id);
  // The titular first: the proposed agent looks at the buyers in that order.
  const orderedHolderIds = [...body.holders]
    .sort((a, b) => Number(b.role === 'TITULAR') - Number(a.role === 'TITULAR'))
    .map((h) => h.customer_id);
  const agent = await saleAgentFor(
    deps.db,
    audit,
    body.lot_id,
    orderedHolderIds,
    body.agent_id,
    options.canAssignAgent ?? audit.actor === null,
  );
  if (agent.error) errors.agent_id = [agent.error];
  const partyIds = [...holderIds, ...(body.guarantor_customer_id != null ? [body.guarantor_customer_id] : [])];
  const active = await deps.db.selectFrom('customers').select('id').where('id', 'in', partyIds).where('status', '=', 'ACTIVO').execute();
  const activeIds = new Set(active.map((c) => c.id));
  if (holderIds.some((id) => !activeIds.has(id))) errors.holders = [SALE_MESSAGES.unknownCustomer];
  if (body.guarantor_customer_id != null && !activeIds.has(body.guarantor_customer_id))
    errors.guarantor_customer_id = [SALE_MESSAGES.unknownCustomer];
  // The lot's live reservation: credited when a buyer holds it; another customer's blocks the sale.
  const live = await deps.db
    .selectFrom('reservations')
    .select(['id', 'customer_id', 'amount', 'lot_id', 'status'])
    .where('lot_id', '=', body.lot_id)
    .where('status', 'in', [...LIVE_RESERVATION_STATUSES])
    .executeTakeFirst();
  if (body.reservation_id != null && (!live || live.id !== body.reservation_id)) {
    const given = await deps.db.selectFrom('reservations').select(['lot_id']).where('id', '=', body.reservation_id).executeTakeFirst();
    errors.reservation_id = [given && given.lot_id !== body.lot_id ? SALE_MESSAGES.reservationOtherLot : SALE_MESSAGES.reservationNotLive];
  }
  // The quote the sale comes from: it exists, and is of this lot and of one of the buyers.
  if (body.quote_id != null) {
    const quote = await deps.db
      .selectFrom('quotes')
      .select(['lot_id', 'customer_id', 'status'])
      .where('id', '=', body.quote_id)
      .executeTakeFirst();
    if (!quote) errors.quote_id = [SALE_MESSAGES.unknownQuote];
    else if (quote.status === 'ANULADA') errors.quote_id = [SALE_MESSAGES.quoteAnnulled];
    else if (quote.lot_id !== body.lot_id) errors.quote_id = [SALE_MESSAGES.quoteOtherLot];
    else if (!holderIds.includes(quote.customer_id)) errors.quote_id = [SALE_MESSAGES.quoteOtherCustomer];
  }
  const today = todayInLimaBy(deps.clock);
  const saleDate = body.sale_date ?? today;
  const dateError = saleDateError(saleDate, today, await saleBackdateDays(deps.db));
  if (dateError) errors.sale_date = [dateError];
  if (Object.keys(errors).length > 0) throw validationError(errors);
  if (live && !holderIds.includes(live.customer_id)) throw conflict(SALE_MESSAGES.heldByOther);
  // Only approved money is credited: a reservation still awaiting its payment's review cannot become a sale.
  if (live?.status === 'PENDIENTE_PAGO') throw conflict(SALE_MESSAGES.reservationUnpaid);
  const reservation = live ?? null;
  const credited = reservation ? await approvedReservationPayments(deps.db, reservation.id) : [];
  const credit = credited.reduce((sum, p) => sum + p.amountCents, 0);

  const result = planTerms(body, Number(lot.list_price), Temporal.PlainDate.from(saleDate));
  if (!result.ok) throw validationError(Object.fromEntries(Object.entries(result.errors).map(([field, message]) => [field, [message]])));
  const { plan } = result;
  if (credit > plan.downPaymentCents) throw validationError({ down_payment_cents: [SALE_MESSAGES.creditTooHigh] });
  // The schedule to store: the plan's rows, or the ones edited in the stepper (same rows, exact sums).
  let scheduleRows = planRows(plan);
  if (body.schedule) {
    const edited = applyScheduleEdits(
      plan,
      body.schedule.map((r) => ({ kind: r.kind, number: r.number, dueDate: r.due_date, amountCents: r.amount })),
      Temporal.PlainDate.from(saleDate),
      lot.currency,
    );
    if (!edited.ok) throw validationError({ schedule: edited.errors });
    scheduleRows = edited.rows;
  }

  const stamp = deps.clock.now().toISOString();
  let id: number;
  try {
    id = await deps.db.transaction().execute(async (trx) => {
      const { id: saleId } = await trx
        .insertInto('sales')
        .values({
          lot_id: body.lot_id,
          subdivision_id: lot.subdivision_id,
          agent_id: agent.agentId,
          guarantor_customer_id: body.guarantor_customer_id ?? null,
          reservation_id: reservation?.id ?? null,
          quote_id: body.quote_id ?? null,
          sale_date: saleDate,
          type: plan.schedule.length > 0 ? 'FINANCIADO' : 'CONTADO',
          currency: lot.currency,
          list_price: plan.listPriceCents,
          discount: plan.discountCents,
          final_price: plan.finalPriceCents,
          down_payment: plan.downPaymentCents,
          reservation_credit: credit,
          financed: plan.financedCents,
          instalments: body.instalments,
          monthly_rate_percent: body.monthly_rate_percent,
          method: body.method,
          total_interest: plan.totalInterestCents,
          status: 'REGISTRADA',
          created_by: staffActorId(audit),
          created_at: stamp,
          updated_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // The guard: only this lot as it was read (DISPONIBLE, or SEPARADO by this buyer's reservation) moves.
      const from = reservation ? 'SEPARADO' : 'DISPONIBLE';
      if (!(await moveLot(trx, audit, body.lot_id, from, 'VENDIDO', `Venta ${saleNumber(saleId)}`)))
        throw conflict(SALE_MESSAGES.lotUnavailable);
      if (reservation) {
        const converted = await trx
          .updateTable('reservations')
          .set({ status: 'CONVERTIDA', updated_at: stamp, version: nextVersion() })
          .where('id', '=', reservation.id)
          .where('status', 'in', [...LIVE_RESERVATION_STATUSES])
          .executeTakeFirst();
        if (converted.numUpdatedRows === 0n) throw conflict(SALE_MESSAGES.lotUnavailable);
      }
      await trx
        .insertInto('sale_holders')
        .values(
          body.holders.map((h, position) => ({
            sale_id: saleId,
            customer_id: h.customer_id,
            role: h.role,
            share_percent: Number(h.share_percent).toFixed(2),
            position,
          })),
        )
        .execute();
      // The schedule: the down payment's parts, then the instalments.
      const rows = scheduleRows.map((r) => ({
        sale_id: saleId,
        kind: r.kind,
        number: r.number,
        due_date: r.dueDate,
        amount: r.amountCents,
        capital: r.capitalCents,
        interest: r.interestCents,
        paid: 0,
        status: 'PENDIENTE',
      }));
      for (let i = 0; i < rows.length; i += 200)
        await trx
          .insertInto('sale_instalments')
          .values(rows.slice(i, i + 200))
          .execute();
      if (credited.length > 0) await creditReservation(trx, saleId, credited);
      // Statuses and late fees as of today (a back-dated sale may have rows already due), and the
      // sale's state by what the reservation paid.
      await refreshSaleLateFees(trx, saleId, today);
      const stored = await trx.selectFrom('sale_instalments').select(['kind', 'amount', 'paid']).where('sale_id', '=', saleId).execute();
      const status = saleStatusFor(stored.map((r) => ({ kind: r.kind, amountCents: Number(r.amount), paidCents: Number(r.paid) })));
      if (status !== 'REGISTRADA') await trx.updateTable('sales').set({ status }).where('id', '=', saleId).execute();
      // Its commissions, PROYECTADA (DEVENGADA at once when the credit already met their trigger): docs/domain.md "Commissions".
      await projectSaleCommissions(trx, saleId, today);
      await recordChange(trx, audit, { entity: 'sales', recordId: saleId, action: 'CREATE', after: await saleRow(trx, saleId) });
      if (body.quote_id != null) await acceptQuote(trx, audit, body.quote_id, saleId, stamp);
      for (const customerId of holderIds) await concludeLeadsOfCustomer(trx, audit, customerId);
      return saleId;
    });
  } catch (error) {
    // The index's own refusal (a race the conditional update did not see) is the same 409.
    if (isUniqueViolation(error)) throw conflict(SALE_MESSAGES.lotUnavailable);
    throw error;
  }
  // Committed: Inicio's cards reload (docs/dashboard.md "Realtime: DashboardChanged").
  await publishDashboardChanged(deps, DASHBOARD_CARDS_MOVED.saleCreated);
  return getSale(deps, id);
}

/**
 * Annuls a sale (POST /api/sales/{id}/annul) with its reason: the lot goes back VENDIDO →
 * DISPONIBLE, the sale and its schedule are kept (history). When approved money is on the sale the
 * body carries its settlement (docs/domain.md "Annulling a sale"; ./sale-settlement.ts): refunded
 * or credited to another live sale of the titular, less a penalty kept as income — all in this
 * one transaction. Of two annulments at once exactly one wins (the conditional UPDATE on the
 * sale); the other gets 409.
 * @throws HttpError 404; 409 when already ANULADA or CANCELADA, stale, or its money changed
 *   meanwhile; 422 a missing or wrong settlement.
 */
export async function annulSale(
  deps: Pick<AppDeps, 'db' | 'clock'> & Partial<Pick<AppDeps, 'broadcaster'>>,
  audit: AuditContext,
  id: number,
  body: AnnulSaleBody,
): Promise<Sale> {
  await deps.db.transaction().execute(async (trx) => {
    const before = await saleRow(trx, id);
    if (!before) throw notFound();
    if (isEndedSale(before.status) || before.status === 'CANCELADA') throw conflict(SALE_MESSAGES.notAnnullable);
    const settlement = await checkSettlement(
      { db: trx, clock: deps.clock },
      before,
      (await approvedPaidOn(trx, id)).total,
      body.settlement,
    );
    // Two sales' rows in id order (a credit locks its target too), so two crossed credits wait, never deadlock.
    const target = settlement?.targetSaleId ?? null;
    if (target !== null && target < id) await lockSale(trx, target);
    const updated = await trx
      .updateTable('sales')
      .set({ status: 'ANULADA', annul_reason: body.reason, updated_at: deps.clock.now().toISOString(), version: nextVersion() })
      .where('id', '=', id)
      .where('status', 'not in', [...ENDED_SALE_STATUSES, 'CANCELADA'])
      .$if(body.version !== undefined, (q) => q.where('version', '=', body.version ?? 0))
      .executeTakeFirstOrThrow();
    await assertVersionedUpdate(trx, 'sales', id, updated, notFound);
    await moveLot(trx, audit, before.lot_id, 'VENDIDO', 'DISPONIBLE', `Venta ${saleNumber(id)} anulada: ${body.reason}`);
    // Its contracts not yet signed are annulled with it (docs/domain.md "Contracts").
    await annulContractsOfSale(trx, audit, id, body.reason);
    if (settlement)
      await applySettlement(trx, deps, audit, { id, number: saleNumber(id), currency: before.currency }, settlement, body.reason);
    // Unpaid commissions ANULADA, paid ones a negative REVERTIDA line (docs/domain.md "Commissions").
    await revertSaleCommissions(trx, id, `Venta ${saleNumber(id)} anulada: ${body.reason}`, todayInLimaBy(deps.clock));
    await recordChange(trx, audit, { entity: 'sales', recordId: id, action: 'UPDATE', before, after: await saleRow(trx, id) });
  });
  await publishDashboardChanged(deps, DASHBOARD_CARDS_MOVED.saleEnded);
  return getSale(deps, id);
}

/** Takes sale `id`'s row lock (PostgreSQL) in the caller's transaction without changing it. */
async function lockSale(trx: Kysely<DB>, id: number): Promise<void> {
  await trx
    .updateTable('sales')
    .set((eb) => ({ version: eb.ref('version') }))
    .where('id', '=', id)
    .execute();
}
