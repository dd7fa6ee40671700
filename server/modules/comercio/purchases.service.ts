import { sql, type Kysely } from 'kysely';
import type { z } from 'zod';
import { Temporal } from 'temporal-polyfill';
import {
  PURCHASE_MESSAGES,
  type CustomerPayment,
  type PaymentOptions,
  type Purchase,
  type PurchaseDetail,
  type PurchasesQuery,
  type StatementInstalment,
  type customerPaymentRequestSchema,
} from '../../../src/schemas/comercio/purchases';
import { createPaymentRequestSchema, PAYMENT_MESSAGES } from '../../../src/schemas/finanzas/payments';
import { amountToPay, oldestPrefixCount, payableInstalments } from '../../../src/lib/finanzas/pago-yape';
import { formatMoney } from '../../../src/lib/money';
import { formatDate } from '../../../src/lib/dates';
import type { AuditContext } from '../../audit/audit';
import { refusePendingPortalPayment, registerPayment } from '../finanzas/payments.service';
import type { PaymentStatus } from '../../../src/schemas/finanzas/payments';
import { bankName } from '../../../src/schemas/finanzas/banks';
import { RECEIPT_SERIES } from '../../../src/schemas/finanzas/payments';
import { oldestFirst, type OpenInstalment } from '../../../src/lib/finanzas/allocation';
import { instalmentStatus } from '../../../src/lib/finanzas/late-fees';
import type { RowFigures } from '../../../src/lib/finanzas/sale-ledger';
import { startOfLimaDay, todayInLimaBy } from '../../clock';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import { paginate, type Page } from '../../db/paging';
import { fromFlag, toFlag } from '../../db/portable';
import { HttpError, validationError } from '../../errors';
import { CUSTOMER_BASE } from '../../platform/bases';
import { figureSaleLateFees } from '../finanzas/late-fees.service';
import { saleNumber } from './sales.service';
import { customerContractPdfUrl } from '../administracion/contract-lifecycle';
import { ENDED_SALE_STATUSES } from '../../../src/schemas/comercio/sales';

/**
 * The customer's own purchases (issue 16 "Customer screens"; src/schemas/comercio/purchases.ts;
 * docs/decisions.md "Customer purchases"): Mis Compras, the statement of Detalle de Compra and the
 * figures PagoYape checks. A customer reaches a sale only through `sale_holders` (TITULAR or a
 * co-holder) and never an ANULADA one; anything else answers 404, so a sale's existence is never
 * revealed. Money in céntimos; "today" is the clock's date in Lima.
 */

/** 404 of a sale the customer does not hold (or that does not exist: the same answer). */
export const purchaseNotFound = () => new HttpError(404, PURCHASE_MESSAGES.notFound);

/** `sales.id in (the sales customer holds)`, as a subquery over `sale_holders`. */
const heldBy = (db: Kysely<DB>, customerId: number) =>
  db.selectFrom('sale_holders').select('sale_holders.sale_id').where('sale_holders.customer_id', '=', customerId);

/** A stored schedule row with what the statement needs. */
interface ScheduleRow {
  id: number;
  sale_id: number;
  kind: string;
  number: number;
  due_date: string;
  amount: number | string;
  paid: number | string;
  late_fee_accrued: number | string;
  late_fee_paid: number | string;
  late_fee_waived: number | string;
}

/** Schedule rows of `saleIds`, down-payment parts first then instalments, by number (the schedule's order). */
function scheduleRows(db: Kysely<DB>, saleIds: readonly number[]): Promise<ScheduleRow[]> {
  if (saleIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('sale_instalments')
    .select(['id', 'sale_id', 'kind', 'number', 'due_date', 'amount', 'paid', 'late_fee_accrued', 'late_fee_paid', 'late_fee_waived'])
    .where('sale_id', 'in', [...saleIds])
    .orderBy('sale_id')
    .orderBy(sql`case when kind = 'INICIAL' then 0 else 1 end`)
    .orderBy('number')
    .execute();
}

/**
 * One statement row as of `asOf` (docs/domain.md "Instalments, days late and late fees": VENCIDA
 * from the day after the due date while something is unpaid; days late counted from the due date),
 * with the row's late fee and state figured for that date (`figures`, from
 * server/modules/finanzas/late-fees.service.ts; the stored ones when absent). The late fee owed is
 * accrued − paid − waived, never below 0.
 */
export function statementRow(
  row: ScheduleRow,
  figures: Pick<RowFigures, 'accruedCents' | 'status'> | undefined,
  asOf: Temporal.PlainDate,
): StatementInstalment {
  const amount = Number(row.amount);
  const paid = Number(row.paid);
  const accrued = figures?.accruedCents ?? Number(row.late_fee_accrued);
  const feePaid = Number(row.late_fee_paid);
  const waived = Number(row.late_fee_waived);
  const dueDate = Temporal.PlainDate.from(row.due_date);
  const late = paid < amount ? Math.max(0, dueDate.until(asOf, { largestUnit: 'days' }).days) : 0;
  const status = figures?.status ?? instalmentStatus({ dueDate, amountCents: amount, paidCents: paid }, asOf);
  return {
    id: row.id,
    kind: row.kind,
    number: row.number,
    due_date: row.due_date,
    amount,
    paid,
    balance: Math.max(0, amount - paid),
    status,
    days_late: late,
    late_fee_accrued: accrued,
    late_fee_paid: feePaid,
    late_fee_waived: waived,
    late_fee_due: Math.max(0, accrued - feePaid - waived),
  };
}

/**
 * A sale's rows as src/lib/finanzas/allocation.ts sees them: those with something owed (amount or
 * late fee), with their schedule order; oldest first.
 */
export function openInstalmentsOf(rows: readonly StatementInstalment[]): OpenInstalment[] {
  return oldestFirst(
    rows
      .map((r, order) => ({ id: r.id, dueDate: r.due_date, order, amountDueCents: r.balance, lateFeeDueCents: r.late_fee_due }))
      .filter((r) => r.amountDueCents > 0 || r.lateFeeDueCents > 0),
  );
}

/** The purchase head of a sale: the stored row joined with its lot and subdivision. */
const purchaseHeads = (db: Kysely<DB>) =>
  db
    .selectFrom('sales')
    .innerJoin('lots', 'lots.id', 'sales.lot_id')
    .innerJoin('subdivisions', 'subdivisions.id', 'sales.subdivision_id')
    .select([
      'sales.id',
      'sales.subdivision_id',
      'sales.sale_date',
      'sales.type',
      'sales.currency',
      'sales.final_price',
      'sales.total_interest',
      'sales.paid',
      'sales.status',
      'sales.down_payment',
      'sales.financed',
      'sales.instalments',
      'sales.method',
      'sales.monthly_rate_percent',
      'lots.code as lot_code',
      'lots.area_m2',
      'subdivisions.name as subdivision_name',
      'subdivisions.published',
    ]);
type PurchaseHead = Awaited<ReturnType<ReturnType<typeof purchaseHeads>['executeTakeFirstOrThrow']>>;

/**
 * A head and its statement rows → the listed purchase. `overdue_amount` is Σ balance of the rows
 * the statement shows VENCIDA (céntimos, late fees apart), the figure the portal's Inicio shows.
 */
function toPurchase(
  deps: Pick<AppDeps, 'ids'>,
  head: PurchaseHead,
  rows: readonly StatementInstalment[],
  contractPdfUrl: string | null,
): Purchase {
  const total = Number(head.final_price) + Number(head.total_interest);
  const paid = Number(head.paid);
  const open = openInstalmentsOf(rows).filter((r) => r.amountDueCents > 0);
  const next = open[0] ? rows.find((r) => r.id === open[0]!.id) : undefined;
  return {
    id: head.id,
    number: saleNumber(head.id),
    sale_date: head.sale_date,
    type: head.type,
    lot_code: head.lot_code,
    subdivision_name: head.subdivision_name,
    currency: head.currency,
    final_price: Number(head.final_price),
    total_interest: Number(head.total_interest),
    total,
    paid,
    balance: Math.max(0, total - paid),
    late_fee_due: rows.reduce((sum, r) => sum + r.late_fee_due, 0),
    overdue_instalments: rows.filter((r) => r.status === 'VENCIDA').length,
    overdue_amount: rows.reduce((sum, r) => sum + (r.status === 'VENCIDA' ? r.balance : 0), 0),
    next_instalment: next ? { id: next.id, kind: next.kind, number: next.number, due_date: next.due_date, amount_due: next.balance } : null,
    status: head.status,
    map: fromFlag(head.published)
      ? { subdivision_key: deps.ids.encode(head.subdivision_id), subdivision_name: head.subdivision_name, lot_code: head.lot_code }
      : null,
    // The issued compraventa contract's PDF (docs/domain.md "Contracts"), null before issue.
    contract_pdf_url: contractPdfUrl,
  };
}

/**
 * Statement rows of `heads`, by sale id, as of `asOf` (default today): each late fee and state is
 * figured for that date by server/modules/finanzas/late-fees.service.ts — the figures approval and
 * PagoYape use on a payment of that date — not read as the daily job last stored them.
 * @param asOf ISO `YYYY-MM-DD` (Lima).
 */
async function statementsOf(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  heads: readonly PurchaseHead[],
  asOf: string = todayInLimaBy(deps.clock),
): Promise<Map<number, StatementInstalment[]>> {
  const day = Temporal.PlainDate.from(asOf);
  const bySale = new Map<number, StatementInstalment[]>(heads.map((h) => [h.id, []]));
  const figures = new Map<number, RowFigures>();
  for (const head of heads) for (const figure of await figureSaleLateFees(deps.db, head.id, asOf)) figures.set(figure.id, figure);
  for (const row of await scheduleRows(
    deps.db,
    heads.map((h) => h.id),
  ))
    bySale.get(row.sale_id)?.push(statementRow(row, figures.get(row.id), day));
  return bySale;
}

/**
 * GET /api/customer/purchases: the sales `customerId` holds, not ANULADA, newest first (sale date,
 * then id), one page.
 */
export async function listPurchases(
  deps: Pick<AppDeps, 'db' | 'clock' | 'ids'>,
  customerId: number,
  query: PurchasesQuery,
): Promise<Page<Purchase>> {
  const base = deps.db
    .selectFrom('sales')
    .where('sales.id', 'in', heldBy(deps.db, customerId))
    .where('sales.status', 'not in', [...ENDED_SALE_STATUSES]);
  const page = await paginate(base, query, (q) => q.select('sales.id').orderBy('sales.sale_date', 'desc').orderBy('sales.id', 'desc'));
  const ids = page.data.map((r) => r.id);
  const heads = ids.length === 0 ? [] : await purchaseHeads(deps.db).where('sales.id', 'in', ids).execute();
  const byId = new Map(heads.map((h) => [h.id, h]));
  const statements = await statementsOf(deps, heads);
  const contracts = new Map<number, string | null>();
  for (const head of heads) contracts.set(head.id, await customerContractPdfUrl(deps.db, head.id));
  return {
    data: ids.flatMap((id) => {
      const head = byId.get(id);
      return head ? [toPurchase(deps, head, statements.get(id) ?? [], contracts.get(id) ?? null)] : [];
    }),
    meta: page.meta,
  };
}

/** The head of a sale `customerId` holds and that is not ANULADA. @throws HttpError 404 otherwise. */
export async function heldPurchaseHead(db: Kysely<DB>, customerId: number, saleId: number): Promise<PurchaseHead> {
  const head = await purchaseHeads(db)
    .where('sales.id', '=', saleId)
    .where('sales.id', 'in', heldBy(db, customerId))
    .where('sales.status', 'not in', [...ENDED_SALE_STATUSES])
    .executeTakeFirst();
  if (!head) throw purchaseNotFound();
  return head;
}

/** The customer's path of a payment's voucher image. */
export const customerVoucherUrl = (paymentId: number, voucherId: number) => `${CUSTOMER_BASE}/payments/${paymentId}/vouchers/${voucherId}`;
/** The customer's path of a payment's receipt PDF. */
export const customerReceiptUrl = (paymentId: number) => `${CUSTOMER_BASE}/payments/${paymentId}/receipt`;

/** Most payments a statement lists (newest first). */
const STATEMENT_PAYMENTS = 100;

/** The payments of `saleIds`'s sale as the customer sees them, newest first, with their vouchers' paths. */
async function customerPayments(db: Kysely<DB>, where: { saleId: number } | { paymentId: number }): Promise<CustomerPayment[]> {
  const rows = await db
    .selectFrom('payments')
    .select([
      'id',
      'status',
      'amount',
      'currency',
      'method',
      'operation_number',
      'operation_date',
      'receipt_series',
      'receipt_number',
      'reject_reason',
      'created_at',
    ])
    .$if('saleId' in where, (q) => q.where('sale_id', '=', (where as { saleId: number }).saleId))
    .$if('paymentId' in where, (q) => q.where('id', '=', (where as { paymentId: number }).paymentId))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(STATEMENT_PAYMENTS)
    .execute();
  const ids = rows.map((r) => r.id);
  const vouchers =
    ids.length === 0
      ? []
      : await db
          .selectFrom('payment_vouchers')
          .select(['id', 'payment_id', 'content_type'])
          .where('payment_id', 'in', ids)
          .orderBy('id')
          .execute();
  return rows.map((r) => {
    const receipt = r.receipt_number === null ? null : `${r.receipt_series ?? RECEIPT_SERIES}-${String(r.receipt_number).padStart(8, '0')}`;
    return {
      id: r.id,
      status: r.status as PaymentStatus,
      amount: Number(r.amount),
      currency: r.currency as 'PEN' | 'USD',
      method: r.method,
      operation_number: r.operation_number,
      operation_date: r.operation_date,
      receipt_number: receipt,
      receipt_url: receipt === null ? null : customerReceiptUrl(r.id),
      reject_reason: r.reject_reason,
      vouchers: vouchers
        .filter((v) => v.payment_id === r.id)
        .map((v) => ({ id: v.id, content_type: v.content_type, url: customerVoucherUrl(r.id, v.id) })),
      created_at: r.created_at,
    };
  });
}

/**
 * One payment as its customer sees it: the payment must be towards a sale `customerId` holds (or
 * have been made by `customerId`). @throws HttpError 404 otherwise (never revealing that it exists).
 */
export async function customerPayment(db: Kysely<DB>, customerId: number, paymentId: number): Promise<CustomerPayment> {
  const row = await db
    .selectFrom('payments')
    .select('id')
    .where('id', '=', paymentId)
    .where((eb) => eb.or([eb('customer_id', '=', customerId), eb('sale_id', 'in', heldBy(db, customerId))]))
    .executeTakeFirst();
  if (!row) throw new HttpError(404, PURCHASE_MESSAGES.paymentNotFound);
  const [payment] = await customerPayments(db, { paymentId });
  return payment!;
}

/**
 * GET /api/customer/purchases/{id}: the statement of a sale `customerId` holds, figured as of `asOf`
 * (default today; a day from the sale's date to today, as a payment's operation date).
 * @throws HttpError 404 when the customer does not hold it, it does not exist or it is ANULADA; 422
 *   on `as_of` outside [sale date, today] or not a calendar date.
 */
export async function getPurchase(
  deps: Pick<AppDeps, 'db' | 'clock' | 'ids'>,
  customerId: number,
  saleId: number,
  asOf?: string,
): Promise<PurchaseDetail> {
  const head = await heldPurchaseHead(deps.db, customerId, saleId);
  if (asOf !== undefined) {
    // A calendar day already (src/schemas/comercio/purchases.ts); here, within [sale date, today].
    const error = operationDateError(head, asOf, todayInLimaBy(deps.clock));
    if (error) throw validationError({ as_of: [error] }, error);
  }
  const rows = (await statementsOf(deps, [head], asOf)).get(head.id) ?? [];
  return {
    ...toPurchase(deps, head, rows, await customerContractPdfUrl(deps.db, head.id)),
    area_m2: head.area_m2 === null ? null : Number(head.area_m2),
    down_payment: Number(head.down_payment),
    financed: Number(head.financed),
    instalments: head.instalments,
    method: head.method,
    monthly_rate_percent: head.monthly_rate_percent,
    schedule: rows,
    payments: await customerPayments(deps.db, { saleId: head.id }),
  };
}

/** The customer's path of a wallet's QR image, versioned by its upload instant. */
export const customerWalletQrUrl = (id: number, updatedAt: string | null) =>
  updatedAt ? `${CUSTOMER_BASE}/wallets/${id}/qr?v=${new Date(updatedAt).getTime()}` : null;

/** Most wallets and bank accounts the payment options list (each). */
const MAX_OPTIONS = 50;

/**
 * GET /api/customer/payment-options: the company's active wallets and bank accounts, by id.
 * @param currency the purchase's currency: only the bank accounts in it (a sale in soles is not paid into a dollar account).
 */
export async function paymentOptions(db: Kysely<DB>, currency?: 'PEN' | 'USD'): Promise<PaymentOptions> {
  const wallets = await db
    .selectFrom('wallets')
    .select(['id', 'kind', 'phone', 'holder', 'qr_updated_at'])
    .where('active', '=', toFlag(true))
    .orderBy('id')
    .limit(MAX_OPTIONS)
    .execute();
  const accounts = await db
    .selectFrom('bank_accounts')
    .select(['id', 'bank', 'kind', 'currency', 'number', 'cci', 'holder'])
    .where('active', '=', toFlag(true))
    .$if(currency !== undefined, (q) => q.where('currency', '=', currency!))
    .orderBy('id')
    .limit(MAX_OPTIONS)
    .execute();
  return {
    wallets: wallets.map((w) => ({
      id: w.id,
      kind: w.kind,
      phone: w.phone,
      holder: w.holder,
      qr_url: customerWalletQrUrl(w.id, w.qr_updated_at),
    })),
    bank_accounts: accounts.map((a) => ({ ...a, bank_name: bankName(a.bank) })),
  };
}

/** Parsed POST /api/customer/purchases/{id}/payments body. */
export type CustomerPaymentBody = z.output<typeof customerPaymentRequestSchema>;

/**
 * PagoYape (POST /api/customer/purchases/{id}/payments): the customer pays the oldest open
 * instalments of a sale they hold by Yape or Plin. Checks, against the statement as of today
 * (src/lib/finanzas/pago-yape.ts, the rules the screen applies): `instalment_ids` are the first k
 * payable instalments, oldest first (422 `instalment_ids` otherwise); `amount` is every late fee owed
 * plus their amounts due (409 {@link PURCHASE_MESSAGES}.amountChanged otherwise: the fee grew
 * overnight or another payment was approved); the wallet is active (422 `wallet_id`). Then registers
 * the payment PENDIENTE through server/modules/finanzas/payments.service.ts `registerPayment` (method
 * = the wallet's kind, the customer as payer), which notifies the reviewers.
 * @returns the payment as the customer sees it.
 * @throws HttpError 404 a sale not theirs; 409 amount changed or the sale takes no payment; 422 per field.
 */
export async function payPurchase(
  deps: AppDeps,
  audit: AuditContext,
  customerId: number,
  saleId: number,
  body: CustomerPaymentBody,
): Promise<CustomerPayment> {
  const head = await heldPurchaseHead(deps.db, customerId, saleId);
  if (head.status === 'CANCELADA') throw new HttpError(409, PURCHASE_MESSAGES.notPayable);
  const dateError = operationDateError(head, body.operation_date, todayInLimaBy(deps.clock));
  if (dateError) throw validationError({ operation_date: [dateError] }, dateError);
  await refusePendingPortalPayment(deps.db, head.id);
  await refuseOverDailyLimit(deps, customerId);
  // The statement on the payment's date: what approval will apply it to (src/lib/finanzas/sale-ledger.ts).
  const schedule = (await statementsOf(deps, [head], body.operation_date)).get(head.id) ?? [];
  const count = oldestPrefixCount(schedule, body.instalment_ids);
  if (count === null) {
    const payable = new Set(payableInstalments(schedule).map((r) => r.id));
    const message = body.instalment_ids.every((id) => payable.has(id))
      ? PURCHASE_MESSAGES.oldestFirst
      : PURCHASE_MESSAGES.unknownInstalment;
    throw validationError({ instalment_ids: [message] }, message);
  }
  const wallet = await deps.db.selectFrom('wallets').select(['id', 'kind', 'active']).where('id', '=', body.wallet_id).executeTakeFirst();
  if (!wallet || !fromFlag(wallet.active))
    throw validationError({ wallet_id: [PURCHASE_MESSAGES.inactiveWallet] }, PURCHASE_MESSAGES.inactiveWallet);
  const expected = amountToPay(schedule, count);
  if (body.amount !== expected) throw new HttpError(409, `${PURCHASE_MESSAGES.amountChanged} (${formatMoney(expected, head.currency)})`);
  const payment = await registerPayment(
    deps,
    { kind: 'CUSTOMER', customerId, audit },
    createPaymentRequestSchema.parse({
      sale_id: head.id,
      customer_id: customerId,
      amount: body.amount,
      method: wallet.kind,
      wallet_id: wallet.id,
      operation_number: body.operation_number,
      operation_date: body.operation_date,
    }),
  );
  return customerPayment(deps.db, customerId, payment.id);
}

/**
 * Why `date` cannot be a payment's (or a statement's) date for sale `head`, or null: it must be a
 * day from the sale's date to today (docs/domain.md "Payments").
 */
export function operationDateError(head: Pick<PurchaseHead, 'sale_date'>, date: string, today: string): string | null {
  if (date > today) return PAYMENT_MESSAGES.futureDate;
  if (date < head.sale_date) return `${PAYMENT_MESSAGES.beforeTarget} (${formatDate(head.sale_date)})`;
  return null;
}

/**
 * The portal's daily cap on payments (AppConfig `portalLimits.paymentsPerDay`; docs/security.md
 * 30.4), counted in the database: payments the customer sent from the portal since the start of
 * today in Lima, whatever became of them.
 * @throws HttpError 429.
 */
async function refuseOverDailyLimit(deps: Pick<AppDeps, 'db' | 'clock' | 'config'>, customerId: number): Promise<void> {
  const row = await deps.db
    .selectFrom('payments')
    .select((eb) => eb.fn.countAll<number | string>().as('sent'))
    .where('customer_id', '=', customerId)
    .where('source', '=', 'PORTAL')
    .where('created_at', '>=', startOfLimaDay(todayInLimaBy(deps.clock)))
    .executeTakeFirst();
  if (Number(row?.sent ?? 0) >= deps.config.portalLimits.paymentsPerDay) throw new HttpError(429, PAYMENT_MESSAGES.portalDailyLimit);
}
