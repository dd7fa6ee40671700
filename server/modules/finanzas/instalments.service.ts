import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { z } from 'zod';
import {
  DAYS_LATE_RANGES,
  INSTALMENT_MESSAGES,
  INSTALMENT_STATUS_LABELS,
  INSTALMENTS_EXPORT_MAX_ROWS,
  type InstalmentRow,
  type InstalmentsExportQuery,
  type InstalmentsQuery,
  type InstalmentStatusCode,
  type InstalmentTotals,
  type waiveLateFeeRequestSchema,
} from '../../../src/schemas/finanzas/instalments';
import { dateCell, type CellValue } from '../../../src/lib/csv';
import { dateOfEpochDay, epochDay } from '../../../src/lib/dates';
import { recordChange, type AuditContext } from '../../audit/audit';
import { todayInLimaBy } from '../../clock';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import { paginate, parseSort, type Page } from '../../db/paging';
import { foldSearch, searchPatternSql } from '../../db/text-search';
import { isSqlite } from '../../db/portable';
import { conflict, notFound, validationError } from '../../errors';
import { readInPages, tableFile, type FileDownload } from '../../platform/documents';
import { displayName, displayNameSql } from '../crm/customers.repository';
import { saleNumber } from '../comercio/sales.service';
import { refreshSaleLateFees } from './late-fees.service';
import { ENDED_SALE_STATUSES, isEndedSale } from '../../../src/schemas/comercio/sales';

/**
 * Finanzas → Registro de Cuotas (issue 16; src/schemas/finanzas/instalments.ts): every instalment of
 * the sales not ANULADA, filtered, paged and totalled in SQL on both dialects; the export of the same
 * rows; the late-fee waiver. Figures are the stored ones (the late-fee job and every payment keep them
 * current, server/modules/finanzas/late-fees.service.ts); days late are counted from the due date to
 * today (Lima, the injected clock), docs/domain.md "Instalments, days late and late fees".
 */

/** Parsed POST /api/instalments/{id}/waive-late-fee body. */
export type WaiveLateFeeBody = z.output<typeof waiveLateFeeRequestSchema>;

type Filters = Omit<InstalmentsQuery, 'page' | 'per_page'>;

/** `date` moved by `days` (ISO `YYYY-MM-DD`). */
function shift(date: string, days: number): string {
  return dateOfEpochDay((epochDay(date) ?? 0) + days);
}

/**
 * The text search, as a condition on `sales` (used inside a subquery over it): the lot's code, a
 * buyer's display name or document (folded, contains: docs/domain.md "Searching lists") or the
 * sale's number ("V-000123", "v123"). On SQLite a text of three characters or more reads the
 * trigram indexes of migrations 0021 and 0034, as the sales list does (sales.service.ts `textMatch`).
 */
function textMatch(db: Kysely<DB>, text: string): RawBuilder<SqlBool> {
  const folded = foldSearch(text);
  const indexed = isSqlite(db) && [...folded].length >= 3;
  const phrase = `"${folded.replace(/"/g, '""')}"`;
  const pattern = searchPatternSql(text);
  const digits = text.replace(/\D/g, '');
  const parts = [
    indexed
      ? sql`sales.lot_id in (select rowid from lot_search where lot_search match ${phrase})`
      : sql`sales.lot_id in (select lots.id from lots where lots.search_text like ${pattern})`,
    indexed
      ? sql`sales.id in (select sale_holders.sale_id from sale_holders where sale_holders.customer_id in
          (select rowid from customer_search where customer_search match ${phrase}))`
      : sql`sales.id in (select sale_holders.sale_id from sale_holders where sale_holders.customer_id in
          (select customers.id from customers where ${displayNameSql} like ${pattern} or customers.document_number like ${pattern}))`,
    ...(digits && /^v-?\d/i.test(text.trim()) ? [sql`sales.id = ${Number(digits)}`] : []),
  ];
  return sql<SqlBool>`(${sql.join(parts, sql` or `)})`;
}

/**
 * The instalments of sales not ANULADA that match `filters` on `today` (FROM/WHERE only). Reads
 * `sale_instalments` alone: the sale's conditions (not ANULADA, subdivision, text) are `IN` / `NOT
 * IN` subqueries over `sales`' indexes, so counting a large set walks one index of
 * `sale_instalments` (migration 0025: `(status, due_date, sale_id)`, `(due_date, id, sale_id)`)
 * instead of joining each row to its sale.
 */
function filtered(db: Kysely<DB>, filters: Filters, today: string) {
  let query = db.selectFrom('sale_instalments as i').where('i.sale_id', 'not in', (eb) =>
    eb
      .selectFrom('sales')
      .select('sales.id')
      .where('sales.status', 'in', [...ENDED_SALE_STATUSES]),
  );
  if (filters.sale_id !== undefined) query = query.where('i.sale_id', '=', filters.sale_id);
  const subdivisionId = filters.subdivision_id;
  if (subdivisionId !== undefined)
    query = query.where('i.sale_id', 'in', (eb) =>
      eb.selectFrom('sales').select('sales.id').where('sales.subdivision_id', '=', subdivisionId),
    );
  const customerId = filters.customer_id;
  if (customerId !== undefined)
    query = query.where('i.sale_id', 'in', (eb) =>
      eb.selectFrom('sale_holders').select('sale_holders.sale_id').where('sale_holders.customer_id', '=', customerId),
    );
  if (filters.status) query = query.where('i.status', '=', filters.status);
  if (filters.due_from) query = query.where('i.due_date', '>=', filters.due_from);
  if (filters.due_to) query = query.where('i.due_date', '<=', filters.due_to);
  const text = filters.q;
  if (text) query = query.where('i.sale_id', 'in', (eb) => eb.selectFrom('sales').select('sales.id').where(textMatch(db, text)));
  // Days late (src/schemas/finanzas/instalments.ts): the stored status says whether an instalment is
  // late (VENCIDA, kept by the daily job and every payment), the due date how long (days late count
  // from the due date: docs/domain.md).
  if (filters.days_late) {
    const { min, max } = DAYS_LATE_RANGES[filters.days_late];
    if (min === 0) {
      // Al día: not VENCIDA (the stored status is VENCIDA exactly when days late > 0 on the day figured).
      // (On SQLite `+i.status` keeps the planner on the due-date order instead of a sort of every row.)
      query = query.where(isSqlite(db) ? sql<SqlBool>`+i.status <> 'VENCIDA'` : sql<SqlBool>`i.status <> 'VENCIDA'`);
    } else {
      // Late days in [min, max]: VENCIDA, due on or before today − min and on or after today − max.
      query = query.where('i.status', '=', 'VENCIDA').where('i.due_date', '<=', shift(today, -min));
      if (max !== null) query = query.where('i.due_date', '>=', shift(today, -max));
    }
  }
  return query;
}

/**
 * Late days of an instalment on `today` (src/lib/finanzas/late-fees.ts `daysLate` of an unpaid one):
 * the days since its due date when it is VENCIDA, else 0 (the status the buckets read).
 */
export function daysLateOn(row: { status: string; due_date: string }, today: string): number {
  if (row.status !== 'VENCIDA') return 0;
  return Math.max(0, (epochDay(today) ?? 0) - (epochDay(row.due_date) ?? 0));
}

/** The rows of the page's query as wire rows (first holders read for the page's sales). */
async function toRows(
  db: Kysely<DB>,
  rows: ReadonlyArray<{
    id: number;
    sale_id: number;
    kind: string;
    number: number;
    due_date: string;
    amount: number | string;
    paid: number | string;
    status: string;
    late_fee_accrued: number | string;
    late_fee_paid: number | string;
    late_fee_waived: number | string;
    late_fee_as_of: string | null;
    currency: string;
    subdivision_id: number;
    lot_code: string;
  }>,
  today: string,
): Promise<InstalmentRow[]> {
  const saleIds = [...new Set(rows.map((r) => r.sale_id))];
  const subdivisionIds = [...new Set(rows.map((r) => r.subdivision_id))];
  const subdivisions = new Map(
    (subdivisionIds.length === 0
      ? []
      : await db.selectFrom('subdivisions').select(['id', 'name']).where('id', 'in', subdivisionIds).execute()
    ).map((d) => [d.id, d]),
  );
  const holders =
    saleIds.length === 0
      ? []
      : await db
          .selectFrom('sale_holders')
          .innerJoin('customers', 'customers.id', 'sale_holders.customer_id')
          .select([
            'sale_holders.sale_id',
            'sale_holders.position',
            'customers.id',
            'customers.name',
            'customers.surname',
            'customers.document_number',
          ])
          .where('sale_holders.sale_id', 'in', saleIds)
          .orderBy('sale_holders.sale_id')
          .orderBy('sale_holders.position')
          .execute();
  const firstHolder = new Map<number, (typeof holders)[number]>();
  for (const h of holders) if (!firstHolder.has(h.sale_id)) firstHolder.set(h.sale_id, h);
  return rows.map((r) => {
    const amount = Number(r.amount);
    const paid = Number(r.paid);
    const accrued = Number(r.late_fee_accrued);
    const feePaid = Number(r.late_fee_paid);
    const waived = Number(r.late_fee_waived);
    const holder = firstHolder.get(r.sale_id);
    const subdivision = subdivisions.get(r.subdivision_id);
    return {
      id: r.id,
      sale: { id: r.sale_id, number: saleNumber(r.sale_id) },
      lot_code: r.lot_code,
      subdivision: { id: r.subdivision_id, name: subdivision?.name ?? '' },
      customer: holder ? { id: holder.id, display_name: displayName(holder), document_number: holder.document_number } : null,
      kind: r.kind,
      number: r.number,
      due_date: r.due_date,
      currency: r.currency === 'USD' ? 'USD' : 'PEN',
      amount,
      paid,
      balance: amount - paid,
      status: r.status as InstalmentStatusCode,
      days_late: daysLateOn(r, today),
      late_fee_accrued: accrued,
      late_fee_paid: feePaid,
      late_fee_waived: waived,
      late_fee_due: Math.max(0, accrued - feePaid - waived),
      late_fee_as_of: r.late_fee_as_of,
    };
  });
}

/**
 * A page's (or an export's) rows of the filtered set, in the list's order: the chosen `sort`
 * (`due_date` / `-due_date`, then id), or when none is chosen the register's default — open
 * instalments (not PAGADA) first by due date, the paid ones last, each by due date then id
 * (docs/domain.md "Registro de Cuotas").
 */
function selectRows(filters: Pick<Filters, 'sort'>) {
  const { field, direction } = parseSort<'due_date'>(filters.sort, 'due_date');
  const paidLast = filters.sort === undefined;
  return (query: ReturnType<typeof filtered>) =>
    query
      .innerJoin('sales', 'sales.id', 'i.sale_id')
      .innerJoin('lots', 'lots.id', 'sales.lot_id')
      .select([
        'i.id',
        'i.sale_id',
        'i.kind',
        'i.number',
        'i.due_date',
        'i.amount',
        'i.paid',
        'i.status',
        'i.late_fee_accrued',
        'i.late_fee_paid',
        'i.late_fee_waived',
        'i.late_fee_as_of',
        'sales.currency',
        'sales.subdivision_id',
        'lots.code as lot_code',
      ])
      .$if(paidLast, (q) => q.orderBy(sql`case when i.status = 'PAGADA' then 1 else 0 end`))
      .orderBy(`i.${field}`, direction)
      .orderBy('i.id', direction);
}

/**
 * Instalments of sales not ANULADA with `status` and `subdivision_id` as given (any when absent),
 * and not VENCIDA for the AL_DIA bucket, from `instalment_counts` (migration 0026).
 */
async function countInstalments(db: Kysely<DB>, filters: Pick<Filters, 'status' | 'subdivision_id' | 'days_late'>): Promise<number> {
  let query = db
    .selectFrom('instalment_counts')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number | string>('instalments'), sql<number>`0`).as('total'));
  if (filters.status) query = query.where('status', '=', filters.status);
  if (filters.days_late === 'AL_DIA') query = query.where('status', '<>', 'VENCIDA');
  if (filters.subdivision_id !== undefined) query = query.where('subdivision_id', '=', filters.subdivision_id);
  return Number((await query.executeTakeFirst())?.total ?? 0);
}

/**
 * The revision of Registro de Cuotas (`list_revisions` row `instalments`, migration 0027): it moves
 * on every write that changes what a page or the totals show, so an answer kept at this revision
 * (and day) is current.
 */
export async function instalmentsListRevision(db: Kysely<DB>): Promise<number> {
  const row = await db.selectFrom('list_revisions').select('revision').where('name', '=', 'instalments').executeTakeFirst();
  return Number(row?.revision ?? 0);
}

/**
 * GET /api/instalments: one page of the register (see `instalmentsQuerySchema`). When it filters by
 * nothing else than status and subdivision the total is read from the counts kept by triggers
 * (migration 0026); otherwise the page's statement counts.
 */
export async function listInstalments(deps: Pick<AppDeps, 'db' | 'clock'>, query: InstalmentsQuery): Promise<Page<InstalmentRow>> {
  const today = todayInLimaBy(deps.clock);
  const countedByTable =
    !query.q &&
    query.sale_id === undefined &&
    query.customer_id === undefined &&
    !query.due_from &&
    !query.due_to &&
    (!query.days_late || query.days_late === 'AL_DIA');
  const page = await paginate(filtered(deps.db, query, today), query, selectRows(query), {
    ...(countedByTable ? { total: () => countInstalments(deps.db, query) } : { countInPage: query.q !== undefined && query.q !== '' }),
  });
  return { data: await toRows(deps.db, page.data, today), meta: page.meta };
}

/** GET /api/instalments/totals: the filtered set's totals per currency (PEN first), céntimos. */
export async function instalmentTotals(deps: Pick<AppDeps, 'db' | 'clock'>, query: Filters): Promise<InstalmentTotals[]> {
  const today = todayInLimaBy(deps.clock);
  const due = sql`case when i.late_fee_accrued - i.late_fee_paid - i.late_fee_waived > 0
    then i.late_fee_accrued - i.late_fee_paid - i.late_fee_waived else 0 end`;
  const rows = await filtered(deps.db, query, today)
    .innerJoin('sales', 'sales.id', 'i.sale_id')
    .select((eb) => [
      'sales.currency',
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.sum<number | string>('i.amount').as('amount'),
      eb.fn.sum<number | string>('i.paid').as('paid'),
      eb.fn.sum<number | string>('i.late_fee_accrued').as('late_fee_accrued'),
      eb.fn.sum<number | string>('i.late_fee_paid').as('late_fee_paid'),
      eb.fn.sum<number | string>('i.late_fee_waived').as('late_fee_waived'),
      sql<number | string>`sum(${due})`.as('late_fee_due'),
    ])
    .groupBy('sales.currency')
    .execute();
  return rows
    .map((r) => ({
      currency: r.currency === 'USD' ? ('USD' as const) : ('PEN' as const),
      count: Number(r.count),
      amount: Number(r.amount ?? 0),
      paid: Number(r.paid ?? 0),
      balance: Number(r.amount ?? 0) - Number(r.paid ?? 0),
      late_fee_accrued: Number(r.late_fee_accrued ?? 0),
      late_fee_paid: Number(r.late_fee_paid ?? 0),
      late_fee_waived: Number(r.late_fee_waived ?? 0),
      late_fee_due: Number(r.late_fee_due ?? 0),
    }))
    .sort((a, b) => (a.currency === b.currency ? 0 : a.currency === 'PEN' ? -1 : 1));
}

/** A register row as exported: the row plus its customer's phone and its sale's agent. */
type ExportRow = InstalmentRow & { phone: string; agent: string };

/**
 * The export's columns (Spanish headers) and each row's cells: amounts in currency units
 * (céntimos ÷ 100), the due date a date cell (a real Excel date, dd/mm/yyyy text in CSV:
 * src/lib/csv.ts `dateCell`), days late a number.
 */
const EXPORT_COLUMNS: ReadonlyArray<[string, (r: ExportRow) => CellValue]> = [
  ['Venta', (r) => r.sale.number],
  ['Lotización', (r) => r.subdivision.name],
  ['Lote', (r) => r.lot_code],
  ['Cliente', (r) => r.customer?.display_name ?? ''],
  ['Documento', (r) => r.customer?.document_number ?? ''],
  ['Teléfono', (r) => r.phone],
  ['Asesor', (r) => r.agent],
  ['Tipo', (r) => (r.kind === 'INICIAL' ? 'Inicial' : 'Cuota')],
  ['N.º', (r) => r.number],
  ['Vencimiento', (r) => dateCell(r.due_date)],
  ['Moneda', (r) => r.currency],
  ['Monto', (r) => r.amount / 100],
  ['Pagado', (r) => r.paid / 100],
  ['Saldo', (r) => r.balance / 100],
  ['Estado', (r) => INSTALMENT_STATUS_LABELS[r.status]],
  ['Días de atraso', (r) => r.days_late],
  ['Mora generada', (r) => r.late_fee_accrued / 100],
  ['Mora pagada', (r) => r.late_fee_paid / 100],
  ['Mora condonada', (r) => r.late_fee_waived / 100],
  ['Mora pendiente', (r) => r.late_fee_due / 100],
];

/**
 * Register rows with what only the export shows: the phone of the row's customer (the sale's first
 * holder, the 'Cliente' column; '' when none) and the sale's agent (`sales.agent_id` → the user's
 * name and surname; '' when the sale has none). Two reads per page of rows.
 */
async function withContacts(db: Kysely<DB>, rows: InstalmentRow[]): Promise<ExportRow[]> {
  const customerIds = [...new Set(rows.flatMap((r) => (r.customer ? [r.customer.id] : [])))];
  const saleIds = [...new Set(rows.map((r) => r.sale.id))];
  const phones = new Map(
    (customerIds.length === 0 ? [] : await db.selectFrom('customers').select(['id', 'phone']).where('id', 'in', customerIds).execute()).map(
      (c) => [c.id, c.phone ?? ''],
    ),
  );
  const agents = new Map(
    (saleIds.length === 0
      ? []
      : await db
          .selectFrom('sales')
          .innerJoin('users', 'users.id', 'sales.agent_id')
          .select(['sales.id', 'users.name', 'users.surname'])
          .where('sales.id', 'in', saleIds)
          .execute()
    ).map((a) => [a.id, `${a.name} ${a.surname}`.trim()]),
  );
  return rows.map((r) => ({
    ...r,
    phone: (r.customer && phones.get(r.customer.id)) || '',
    agent: agents.get(r.sale.id) ?? '',
  }));
}

/**
 * GET /api/instalments/export: the filtered rows in the list's order (at most
 * {@link INSTALMENTS_EXPORT_MAX_ROWS}) as CSV (RFC 4180 with BOM, src/lib/csv.ts) or XLSX (one
 * sheet, src/lib/xlsx.ts): the same writers as the screens' "Exportar", run on the documents'
 * worker pool (server/platform/documents.ts `tableFile`; names that look like formulas are
 * neutralised there). `truncated` when the set was larger. `owner` (server/auth/scopes.ts
 * exportsOwner): when set, only the instalments of that agent's sales (docs/security.md 31.11).
 */
export async function exportInstalments(
  deps: Pick<AppDeps, 'db' | 'clock' | 'documents'>,
  query: InstalmentsExportQuery,
  owner: number | null = null,
): Promise<FileDownload & { truncated: boolean }> {
  const today = todayInLimaBy(deps.clock);
  // Read a page at a time, yielding between pages, so the event loop serves other requests while a
  // 20 000-row export is read (docs/security.md 30.7); the file itself is written on the pool.
  const { rows: cells, truncated } = await readInPages(INSTALMENTS_EXPORT_MAX_ROWS, async (offset, limit) => {
    const raw = await selectRows(query)(
      filtered(deps.db, query, today).$if(owner !== null, (q) =>
        q.where('i.sale_id', 'in', (eb) =>
          eb
            .selectFrom('sales')
            .select('sales.id')
            .where('sales.agent_id', '=', owner ?? 0),
        ),
      ),
    )
      .limit(limit)
      .offset(offset)
      .execute();
    return (await withContacts(deps.db, await toRows(deps.db, raw, today))).map((r) => EXPORT_COLUMNS.map(([, cell]) => cell(r)));
  });
  const header = EXPORT_COLUMNS.map(([h]) => h);
  const file = await tableFile(deps.documents, {
    fileName: `registro-cuotas-${today}.${query.format}`,
    format: query.format,
    sheetName: 'Registro de cuotas',
    header,
    rows: cells,
  });
  return { ...file, truncated };
}

/** One instalment as a register row (any sale status), or 404. */
async function rowOf(db: Kysely<DB>, id: number, today: string): Promise<InstalmentRow> {
  const raw = await selectRows({})(db.selectFrom('sale_instalments as i').where('i.id', '=', id)).execute();
  const [row] = await toRows(db, raw, today);
  if (!row) throw notFound();
  return row;
}

/**
 * POST /api/instalments/{id}/waive-late-fee: figures the sale's late fees for today first (so the
 * owed fee is current), then adds `amount` to the instalment's `late_fee_waived` by one conditional
 * UPDATE (what is owed must still cover it: two waivers at once cannot exceed it) and records the
 * change with its reason, in one transaction.
 * @returns the row after the waiver.
 * @throws HttpError 404 unknown instalment; 409 the sale is ANULADA; 422 on `amount` when nothing is
 *   owed or it exceeds what is owed.
 */
export async function waiveLateFee(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  audit: AuditContext,
  id: number,
  body: WaiveLateFeeBody,
): Promise<InstalmentRow> {
  const today = todayInLimaBy(deps.clock);
  return deps.db.transaction().execute(async (trx) => {
    const found = await trx
      .selectFrom('sale_instalments as i')
      .innerJoin('sales', 'sales.id', 'i.sale_id')
      .select(['i.sale_id', 'sales.status'])
      .where('i.id', '=', id)
      .executeTakeFirst();
    if (!found) throw notFound();
    if (isEndedSale(found.status)) throw conflict(INSTALMENT_MESSAGES.saleNotOpen);
    await refreshSaleLateFees(trx, found.sale_id, today);
    const before = await trx
      .selectFrom('sale_instalments')
      .select(['late_fee_accrued', 'late_fee_paid', 'late_fee_waived'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const owed = Number(before.late_fee_accrued) - Number(before.late_fee_paid) - Number(before.late_fee_waived);
    if (owed <= 0) throw validationError({ amount: [INSTALMENT_MESSAGES.nothingOwed] });
    if (body.amount > owed) throw validationError({ amount: [INSTALMENT_MESSAGES.exceedsOwed] });
    const updated = await trx
      .updateTable('sale_instalments')
      .set((eb) => ({ late_fee_waived: eb('late_fee_waived', '+', body.amount) }))
      .where('id', '=', id)
      .where(sql<SqlBool>`late_fee_accrued - late_fee_paid - late_fee_waived >= ${body.amount}`)
      .executeTakeFirst();
    if (updated.numUpdatedRows === 0n) throw validationError({ amount: [INSTALMENT_MESSAGES.exceedsOwed] });
    const waived = Number(before.late_fee_waived) + body.amount;
    await recordChange(trx, audit, {
      entity: 'sale_instalments',
      recordId: id,
      action: 'UPDATE',
      before: { late_fee_waived: Number(before.late_fee_waived) },
      after: { late_fee_waived: waived, late_fee_waiver_amount: body.amount, late_fee_waiver_reason: body.reason },
    });
    return rowOf(trx, id, today);
  });
}
