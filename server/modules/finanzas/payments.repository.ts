import { sql, type Expression, type Kysely, type SqlBool } from 'kysely';
import { bankName } from '../../../src/schemas/finanzas/banks';
import { PAYMENT_METHOD_LABELS, type Payment, type PaymentMethod, type PaymentsQuery } from '../../../src/schemas/finanzas/payments';
import type { DB } from '../../db/database';
import { likePattern, paginate, parseSort, type Page } from '../../db/paging';
import { searchPatternSql } from '../../db/text-search';
import { displayName, displayNameSql } from '../crm/customers.repository';
import { saleNumber } from '../comercio/sales.service';

/** Reads of payments (issue 16; src/schemas/finanzas/payments.ts). */

/** "R001-00000042" of a receipt. */
export const receiptLabel = (series: string, number: number) => `${series}-${String(number).padStart(8, '0')}`;

/** The stored row of payment `id` (for the change history and the state checks). */
export function paymentRow(db: Kysely<DB>, id: number) {
  return db.selectFrom('payments').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * The text search (`q`): receipt or operation number, the payer's name or document, the lot code
 * (names and codes folded: docs/domain.md "Searching lists").
 */
function textMatch(text: string): Expression<SqlBool> {
  const pattern = searchPatternSql(text);
  const compact = text.replace(/\s+/g, '').toUpperCase();
  const receipt = /^R?\d{1,3}-?(\d{1,8})$/.exec(compact);
  return sql<SqlBool>`(
    upper(payments.operation_number) like ${sql<string>`${likePattern(compact).toUpperCase()} escape '\\'`}
    or payments.customer_id in (select customers.id from customers where ${displayNameSql} like ${pattern} or customers.document_number like ${pattern})
    or payments.sale_id in (select sales.id from sales inner join lots on lots.id = sales.lot_id where lots.search_text like ${pattern})
    or payments.reservation_id in (select reservations.id from reservations inner join lots on lots.id = reservations.lot_id where lots.search_text like ${pattern})
    ${receipt ? sql`or payments.receipt_number = ${Number(receipt[1])}` : sql``}
  )`;
}

/** The payments matching the list's filters (FROM/WHERE only; see `paymentsQuerySchema`). */
function filteredPayments(db: Kysely<DB>, filters: Omit<PaymentsQuery, 'page' | 'per_page' | 'sort'>) {
  let query = db.selectFrom('payments');
  if (filters.q) query = query.where(textMatch(filters.q));
  if (filters.status) query = query.where('payments.status', '=', filters.status);
  if (filters.method) query = query.where('payments.method', '=', filters.method);
  if (filters.source) query = query.where('payments.source', '=', filters.source);
  if (filters.sale_id !== undefined) query = query.where('payments.sale_id', '=', filters.sale_id);
  if (filters.reservation_id !== undefined) query = query.where('payments.reservation_id', '=', filters.reservation_id);
  if (filters.customer_id !== undefined) query = query.where('payments.customer_id', '=', filters.customer_id);
  if (filters.from) query = query.where('payments.operation_date', '>=', filters.from);
  if (filters.to) query = query.where('payments.operation_date', '<=', filters.to);
  return query;
}

/**
 * One page of payment ids in order, and the total (see `paymentsQuerySchema`). Without `sort`:
 * PENDIENTE first, then oldest first — the review queue's order.
 */
export function listPaymentIds(db: Kysely<DB>, filters: PaymentsQuery): Promise<Page<{ id: number }>> {
  return paginate(filteredPayments(db, filters), filters, (q) => {
    if (filters.sort) {
      const { field, direction } = parseSort<'created_at' | 'operation_date' | 'amount'>(filters.sort, '-created_at');
      return q.select('payments.id').orderBy(`payments.${field}`, direction).orderBy('payments.id', direction);
    }
    return q
      .select('payments.id')
      .orderBy(sql`case when payments.status = 'PENDIENTE' then 0 else 1 end`)
      .orderBy(sql`case when payments.status = 'PENDIENTE' then payments.created_at end`, 'asc')
      .orderBy('payments.created_at', 'desc')
      .orderBy('payments.id', 'desc');
  });
}

/**
 * Count and Σ amount (céntimos) per currency of every payment the list shows under `filters` (all
 * pages): Inicio's collections card reads its money in through this, so its figures are the list's
 * (docs/dashboard.md). With `status` and a date range it reads the index of migration 0049.
 */
export async function paymentTotals(
  db: Kysely<DB>,
  filters: Omit<PaymentsQuery, 'page' | 'per_page' | 'sort'>,
): Promise<Array<{ currency: 'PEN' | 'USD'; count: number; amount: number }>> {
  const rows = await filteredPayments(db, filters)
    .select((eb) => [
      'payments.currency',
      eb.fn.countAll<number | string>().as('count'),
      eb.fn.sum<number | string>('payments.amount').as('amount'),
    ])
    .groupBy('payments.currency')
    .execute();
  return rows.map((r) => ({ currency: r.currency === 'USD' ? 'USD' : 'PEN', count: Number(r.count), amount: Number(r.amount ?? 0) }));
}

/** Payments by id → wire payments, in the order of `ids` (vouchers without their bytes, allocations with their instalments). */
export async function paymentsByIds(db: Kysely<DB>, ids: readonly number[]): Promise<Payment[]> {
  if (ids.length === 0) return [];
  const wanted = [...ids];
  const rows = await db
    .selectFrom('payments')
    .innerJoin('customers', 'customers.id', 'payments.customer_id')
    .leftJoin('sales', 'sales.id', 'payments.sale_id')
    .leftJoin('reservations', 'reservations.id', 'payments.reservation_id')
    .leftJoin('lots', (join) => join.on((eb) => eb('lots.id', '=', eb.fn.coalesce('sales.lot_id', 'reservations.lot_id'))))
    .leftJoin('subdivisions', 'subdivisions.id', 'lots.subdivision_id')
    .leftJoin('bank_accounts', 'bank_accounts.id', 'payments.bank_account_id')
    .leftJoin('wallets', 'wallets.id', 'payments.wallet_id')
    .leftJoin('users as registrar', 'registrar.id', 'payments.registered_by_user_id')
    .leftJoin('users as reviewer', (join) =>
      join.on((eb) => eb('reviewer.id', '=', eb.fn.coalesce('payments.annulled_by', 'payments.reviewed_by'))),
    )
    .select([
      'payments.id',
      'payments.sale_id',
      'payments.reservation_id',
      'payments.customer_id',
      'payments.currency',
      'payments.amount',
      'payments.method',
      'payments.bank_account_id',
      'payments.wallet_id',
      'payments.operation_number',
      'payments.operation_date',
      'payments.note',
      'payments.source',
      'payments.status',
      'payments.reviewed_at',
      'payments.reject_reason',
      'payments.annul_reason',
      'payments.receipt_series',
      'payments.receipt_number',
      'payments.created_at',
      'payments.updated_at',
      'payments.version',
      'customers.name as customer_name',
      'customers.surname as customer_surname',
      'customers.document_number',
      'lots.code as lot_code',
      'subdivisions.name as subdivision_name',
      'bank_accounts.bank',
      'bank_accounts.number as account_number',
      'bank_accounts.currency as account_currency',
      'wallets.kind as wallet_kind',
      'wallets.phone as wallet_phone',
      'registrar.name as registrar_name',
      'registrar.surname as registrar_surname',
      'reviewer.name as reviewer_name',
      'reviewer.surname as reviewer_surname',
    ])
    .where('payments.id', 'in', wanted)
    .execute();
  const vouchers = await db
    .selectFrom('payment_vouchers')
    .select(['id', 'payment_id', 'content_type', 'size'])
    .where('payment_id', 'in', wanted)
    .orderBy('id')
    .execute();
  const allocations = await db
    .selectFrom('payment_allocations')
    .innerJoin('sale_instalments', 'sale_instalments.id', 'payment_allocations.instalment_id')
    .select([
      'payment_allocations.payment_id',
      'payment_allocations.instalment_id',
      'payment_allocations.to_late_fee',
      'payment_allocations.to_capital',
      'sale_instalments.sale_id',
      'sale_instalments.kind',
      'sale_instalments.number',
      'sale_instalments.due_date',
    ])
    .where('payment_allocations.payment_id', 'in', wanted)
    .orderBy('sale_instalments.due_date')
    .orderBy('payment_allocations.instalment_id')
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id): Payment[] => {
    const r = byId.get(id);
    if (!r) return [];
    const person = (name: string | null, surname: string | null) => (name === null ? null : `${name} ${surname ?? ''}`.trim());
    const applied = allocations.filter((a) => a.payment_id === id);
    // A reservation's payment is credited to the sale the reservation became: its allocations are on that sale.
    const creditedSaleId = r.reservation_id !== null ? applied[0]?.sale_id : undefined;
    const destination =
      r.bank_account_id !== null && r.bank !== null
        ? {
            kind: 'BANK_ACCOUNT' as const,
            id: r.bank_account_id,
            label: `${bankName(r.bank)} ${r.account_currency ?? ''} ${r.account_number ?? ''}`.replace(/\s+/g, ' '),
          }
        : r.wallet_id !== null && r.wallet_kind !== null
          ? {
              kind: 'WALLET' as const,
              id: r.wallet_id,
              label: `${PAYMENT_METHOD_LABELS[r.wallet_kind as PaymentMethod]} ${r.wallet_phone ?? ''}`,
            }
          : null;
    return [
      {
        id: r.id,
        receipt_number: r.receipt_series !== null && r.receipt_number !== null ? receiptLabel(r.receipt_series, r.receipt_number) : null,
        status: r.status as Payment['status'],
        source: r.source,
        sale:
          r.sale_id !== null
            ? { id: r.sale_id, number: saleNumber(r.sale_id), lot_code: r.lot_code ?? '', subdivision_name: r.subdivision_name ?? '' }
            : null,
        reservation:
          r.reservation_id !== null
            ? { id: r.reservation_id, lot_code: r.lot_code ?? '', subdivision_name: r.subdivision_name ?? '' }
            : null,
        customer: {
          id: r.customer_id,
          display_name: displayName({ name: r.customer_name, surname: r.customer_surname }),
          document_number: r.document_number,
        },
        amount: Number(r.amount),
        currency: r.currency,
        method: r.method,
        destination,
        operation_number: r.operation_number,
        operation_date: r.operation_date,
        note: r.note,
        vouchers: vouchers
          .filter((v) => v.payment_id === id)
          .map((v) => ({ id: v.id, content_type: v.content_type, size: v.size, url: `/api/payments/${id}/vouchers/${v.id}` })),
        registered_by: r.source === 'PORTAL' ? 'Portal del cliente' : (person(r.registrar_name, r.registrar_surname) ?? ''),
        reviewed_by: person(r.reviewer_name, r.reviewer_surname),
        reviewed_at: r.reviewed_at,
        reject_reason: r.reject_reason,
        annul_reason: r.annul_reason,
        allocations: applied.map((a) => ({
          instalment_id: a.instalment_id,
          kind: a.kind,
          number: a.number,
          due_date: a.due_date,
          to_late_fee: Number(a.to_late_fee),
          to_capital: Number(a.to_capital),
        })),
        allocation_preview: null,
        preview_error: null,
        late_fee_changes: [],
        credited_sale: creditedSaleId !== undefined ? { id: creditedSaleId, number: saleNumber(creditedSaleId) } : null,
        self_approval: null,
        created_at: r.created_at,
        updated_at: r.updated_at,
        version: r.version,
      },
    ];
  });
}
