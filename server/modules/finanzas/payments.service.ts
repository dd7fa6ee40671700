import { accrueSaleCommissions } from '../administracion/commission-lifecycle';
import type { Kysely, Updateable } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { z } from 'zod';
import type { Allocation } from '../../../src/lib/finanzas/allocation';
import { owedOn, planPayment, saleStatusFor, type OwedRow, type PaymentPlan } from '../../../src/lib/finanzas/sale-ledger';
import {
  BANK_METHODS,
  MAX_VOUCHERS,
  PAYMENT_MESSAGES,
  RECEIPT_SERIES,
  VOUCHER_CONTENT_TYPES,
  WALLET_METHODS,
  type createPaymentRequestSchema,
  type Payment,
  type PaymentMethod,
  type PaymentsQuery,
  type reviewReasonRequestSchema,
  type approvePaymentRequestSchema,
} from '../../../src/schemas/finanzas/payments';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { formatMoney } from '../../../src/lib/money';
import { formatDate, todayInLima } from '../../../src/lib/dates';
import { recordChange, staffActorId, type AuditContext } from '../../audit/audit';
import { todayInLimaBy } from '../../clock';
import type { AppDeps } from '../../context';
import type { DB, PaymentsTable } from '../../db/database';
import type { Page } from '../../db/paging';
import { fromFlag, inTransaction, isUniqueViolation } from '../../db/portable';
import { heldPermissions } from '../../auth/accounts';
import { nextVersion, staleRecord } from '../../db/versions';
import { conflict, fieldError, HttpError, notFound, validationError, type FieldErrors } from '../../errors';
import { activeStaffWithPermissions } from '../../notifications/notifications.repository';
import { createNotifications, escapeHtml, type CreatedNotifications } from '../../notifications/notifications.service';
import { detectImageType, oversizedImage, tooManyPixelsMessage, VOUCHER_PIXEL_LIMITS } from '../../platform/image-type';
import type { BroadcastEvent } from '../../realtime/broadcaster';
import { refreshSaleLateFees, saleAccount } from './late-fees.service';
import { listPaymentIds, paymentsByIds, paymentRow } from './payments.repository';
import { renderDocument } from '../../platform/documents';
import { loadPdfIssuer } from '../configuracion/companies.service';
import { ENDED_SALE_STATUSES, isEndedSale } from '../../../src/schemas/comercio/sales';
import { DASHBOARD_CARDS_MOVED, publishDashboardChanged } from '../inicio/dashboard-events';

/**
 * Finanzas → Pagos (issue 16 "Money in"; DOMAIN.md "Payment"; docs/decisions.md "Payments"): a
 * payment is registered PENDIENTE (at the office or from the portal), then approved — its amount
 * applied to the sale's late fees and instalments by src/lib/finanzas/allocation.ts and its receipt
 * numbered — or rejected, and an approved one may be annulled (what it applied is reversed). Each
 * change runs in one transaction with its change history and notifications; the events are
 * published after the commit. Amounts in céntimos; dates YYYY-MM-DD (Lima).
 */

/** Parsed POST /api/payments body. */
export type CreatePaymentBody = z.output<typeof createPaymentRequestSchema>;
/** Parsed approve body. */
export type ApprovePaymentBody = z.output<typeof approvePaymentRequestSchema>;
/** Parsed reject / annul body. */
export type ReviewReasonBody = z.output<typeof reviewReasonRequestSchema>;

/** Who registers or reads a payment: staff (with the Pagos permission) or a customer in the portal. */
export type PaymentActor = { kind: 'STAFF'; audit: AuditContext } | { kind: 'CUSTOMER'; audit: AuditContext; customerId: number };

/** A customer restriction on reads: only payments of sales they hold, or reservations they made. */
export interface CustomerScope {
  customerId?: number;
}

/** Staff notified of payments to review: 'Acceso módulo finanzas' + 'Acceso submódulo pagos'. */
export const PAYMENT_REVIEWERS = [MODULE.finanzas, SUBMODULE.pagos] as const;

/** The route of the review queue and of a customer's statement, for notifications. */
const REVIEW_ROUTE = '/FINANZAS/Pagos';
const statementRoute = (saleId: number) => `/COMERCIO/DetalleCompra?venta=${saleId}`;

/** Payments of one page (GET /api/payments). */
export async function listPayments(db: Kysely<DB>, query: PaymentsQuery): Promise<Page<Payment>> {
  const page = await listPaymentIds(db, query);
  return {
    data: await paymentsByIds(
      db,
      page.data.map((r) => r.id),
    ),
    meta: page.meta,
  };
}

/**
 * Whether customer `customerId` may see payment `payment`: they paid it, hold its sale, or made its
 * reservation.
 */
async function customerMaySee(
  db: Kysely<DB>,
  customerId: number,
  payment: { customer_id: number; sale_id: number | null; reservation_id: number | null },
) {
  if (payment.customer_id === customerId) return true;
  if (payment.sale_id !== null) {
    const holder = await db
      .selectFrom('sale_holders')
      .select('sale_id')
      .where('sale_id', '=', payment.sale_id)
      .where('customer_id', '=', customerId)
      .executeTakeFirst();
    return holder !== undefined;
  }
  return false;
}

/** The stored row when the scope allows it. @throws HttpError 404 (also for another customer's payment). */
async function visibleRow(db: Kysely<DB>, id: number, scope: CustomerScope) {
  const row = await paymentRow(db, id);
  if (!row || (scope.customerId !== undefined && !(await customerMaySee(db, scope.customerId, row)))) throw notFound();
  return row;
}

/**
 * One payment (GET /api/payments/{id}; the customer routes with `scope`). A PENDIENTE sale payment
 * carries `allocation_preview` and `late_fee_changes`: what approving it now would apply and which
 * late fees it would change, figured exactly as approval figures them (src/lib/finanzas/sale-ledger.ts
 * `planPayment`: what was owed on its operation date, the fees on today) — or `preview_error` when
 * approval would be refused. With `viewer` (staff), a PENDIENTE payment carries `self_approval`
 * when segregation of duties bars that viewer ({@link selfApproval}).
 * @throws HttpError 404.
 */
export async function getPayment(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  id: number,
  scope: CustomerScope = {},
  viewer?: AuditContext,
): Promise<Payment> {
  const row = await visibleRow(deps.db, id, scope);
  const [payment] = await paymentsByIds(deps.db, [id]);
  if (!payment) throw notFound();
  if (row.status === 'PENDIENTE' && viewer) payment.self_approval = await selfApproval(deps.db, row, viewer);
  if (row.status === 'PENDIENTE' && row.sale_id !== null && scope.customerId === undefined) {
    const account = await saleAccount(deps.db, row.sale_id);
    if (account && !isEndedSale(account.status)) {
      const plan = planPayment(account.policy, account.ledger, Number(row.amount), row.operation_date, todayInLimaBy(deps.clock));
      if (plan.ok) {
        const owed = new Map(owedOn(account.policy, account.ledger, row.operation_date).map((i) => [i.id, i]));
        payment.allocation_preview = plan.allocations.map((a) => wireAllocation(a, owed.get(a.instalmentId)));
        payment.late_fee_changes = plan.feeChanges.map((c) => ({
          instalment_id: c.instalmentId,
          kind: c.kind,
          number: c.number,
          before: c.beforeCents,
          after: c.afterCents,
        }));
      } else payment.preview_error = planRefusal(plan, row.currency, row.operation_date);
    }
  }
  return payment;
}

/** The Spanish reason a payment cannot be applied (registration, preview and approval say the same). */
export function planRefusal(plan: Exclude<PaymentPlan, { ok: true }>, currency: 'PEN' | 'USD', operationDate: string): string {
  if (plan.error === 'TAKES_BACK_PAID_FEE') {
    const row = `${plan.instalment.kind === 'INICIAL' ? 'la inicial' : 'la cuota'} ${plan.instalment.number}`;
    return (
      `${PAYMENT_MESSAGES.takesBackPaidFee}: con fecha ${formatDate(operationDate)} la mora de ${row} quedaría en ` +
      `${formatMoney(plan.afterCents, currency)} y ya se pagaron ${formatMoney(plan.feePaidCents, currency)}. ${PAYMENT_MESSAGES.takesBackPaidFeeHint}`
    );
  }
  return `${PAYMENT_MESSAGES.exceedsDebt} (${formatMoney(plan.debtCents, currency)})`;
}

/** An allocation on the wire, with its instalment's kind, number and due date. */
function wireAllocation(a: Allocation, instalment: OwedRow | undefined) {
  return {
    instalment_id: a.instalmentId,
    kind: instalment?.kind ?? 'CUOTA',
    number: instalment?.number ?? 0,
    due_date: instalment?.dueDate ?? '',
    to_late_fee: a.toLateFeeCents,
    to_capital: a.toAmountCents,
  };
}

/**
 * What is owed on each instalment of sale `saleId` on `asOf`, without writing: the amounts due from
 * the stored `paid`, the late fees due figured up to that date (src/lib/finanzas/sale-ledger.ts
 * `owedOn`). Schedule order in `order`. An unknown or ANULADA sale owes nothing.
 */
export async function openInstalmentsOn(db: Kysely<DB>, saleId: number, asOf: string): Promise<OwedRow[]> {
  const account = await saleAccount(db, saleId);
  if (!account || isEndedSale(account.status)) return [];
  return owedOn(account.policy, account.ledger, asOf);
}

/** What a registration resolved: the target, payer, currency and destination. */
interface ResolvedPayment {
  saleId: number | null;
  reservationId: number | null;
  customerId: number;
  currency: 'PEN' | 'USD';
  bankAccountId: number | null;
  walletId: number | null;
}

/**
 * Checks a registration against the database: the target and its state, the payer, the amount (a
 * reservation's exact amount; never more than a sale's debt today), the destination for the method
 * (its kind, currency and being active) and the operation number. A customer may pay only a sale
 * they hold (404 otherwise: whether it exists is not theirs to know).
 * @throws HttpError 422 per field, 409 when the sale or reservation takes no payment, 404.
 */
async function resolveRegistration(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  actor: PaymentActor,
  body: CreatePaymentBody,
): Promise<ResolvedPayment> {
  const { db } = deps;
  const errors: FieldErrors = {};
  const today = todayInLimaBy(deps.clock);
  if (!isCalendarDate(body.operation_date)) errors.operation_date = [PAYMENT_MESSAGES.operationDate];
  else if (body.operation_date > today) errors.operation_date = [PAYMENT_MESSAGES.futureDate];
  /** An operation date before the sale (reservation) was made is refused: [target's date, today]. */
  const notBefore = (targetDate: string) => {
    if (!errors.operation_date && body.operation_date < targetDate)
      errors.operation_date = [`${PAYMENT_MESSAGES.beforeTarget} (${formatDate(targetDate)})`];
  };
  const customerOnly = actor.kind === 'CUSTOMER' ? actor.customerId : undefined;
  let resolved: Omit<ResolvedPayment, 'bankAccountId' | 'walletId'>;
  if (body.sale_id !== undefined) {
    const sale = await db
      .selectFrom('sales')
      .select(['id', 'status', 'currency', 'sale_date'])
      .where('id', '=', body.sale_id)
      .executeTakeFirst();
    const holders = sale
      ? (await db.selectFrom('sale_holders').select('customer_id').where('sale_id', '=', sale.id).orderBy('position').execute()).map(
          (h) => h.customer_id,
        )
      : [];
    if (customerOnly !== undefined && !holders.includes(customerOnly)) throw notFound();
    if (!sale) throw validationError({ sale_id: [PAYMENT_MESSAGES.unknownSale] });
    if (isEndedSale(sale.status) || sale.status === 'CANCELADA') throw conflict(PAYMENT_MESSAGES.saleNotPayable);
    const customerId = customerOnly ?? body.customer_id ?? holders[0];
    notBefore(sale.sale_date);
    if (actor.kind === 'CUSTOMER') await refusePendingPortalPayment(db, sale.id);
    if (customerId === undefined || !holders.includes(customerId)) errors.customer_id = [PAYMENT_MESSAGES.customer];
    else if (!errors.operation_date) {
      // The amount is checked as approval will apply it: against what is owed on the operation date.
      const account = await saleAccount(db, sale.id);
      const plan = account ? planPayment(account.policy, account.ledger, body.amount, body.operation_date, today) : null;
      if (plan && !plan.ok) {
        const message = planRefusal(plan, sale.currency, body.operation_date);
        if (plan.error === 'TAKES_BACK_PAID_FEE') errors.operation_date = [message];
        else errors.amount = [message];
      }
    }
    resolved = { saleId: sale.id, reservationId: null, customerId: customerId ?? 0, currency: sale.currency };
  } else {
    if (customerOnly !== undefined) throw notFound();
    const reservation = await db
      .selectFrom('reservations')
      .select(['id', 'status', 'currency', 'amount', 'customer_id', 'created_at'])
      .where('id', '=', body.reservation_id ?? 0)
      .executeTakeFirst();
    if (!reservation) throw validationError({ reservation_id: [PAYMENT_MESSAGES.unknownReservation] });
    if (reservation.status !== 'PENDIENTE_PAGO') throw conflict(PAYMENT_MESSAGES.reservationNotPayable);
    notBefore(todayInLima(new Date(reservation.created_at)));
    if (body.customer_id !== undefined && body.customer_id !== reservation.customer_id) errors.customer_id = [PAYMENT_MESSAGES.customer];
    if (body.amount !== Number(reservation.amount))
      errors.amount = [`${PAYMENT_MESSAGES.reservationAmount}: ${formatMoney(Number(reservation.amount), reservation.currency)}`];
    resolved = { saleId: null, reservationId: reservation.id, customerId: reservation.customer_id, currency: reservation.currency };
  }

  const method: PaymentMethod = body.method;
  const bankAccountId = body.bank_account_id ?? null;
  const walletId = body.wallet_id ?? null;
  if (BANK_METHODS.includes(method) && bankAccountId === null) errors.bank_account_id = [PAYMENT_MESSAGES.bankAccount];
  if (WALLET_METHODS.includes(method) && walletId === null) errors.wallet_id = [PAYMENT_MESSAGES.wallet];
  if (!WALLET_METHODS.includes(method) && walletId !== null) errors.wallet_id = [PAYMENT_MESSAGES.noDestination];
  if ((method === 'EFECTIVO' || WALLET_METHODS.includes(method)) && bankAccountId !== null)
    errors.bank_account_id = [PAYMENT_MESSAGES.noDestination];
  if (bankAccountId !== null && !errors.bank_account_id) {
    const account = await db.selectFrom('bank_accounts').select(['active', 'currency']).where('id', '=', bankAccountId).executeTakeFirst();
    if (!account || !account.active) errors.bank_account_id = [PAYMENT_MESSAGES.inactiveDestination];
    else if (account.currency !== resolved.currency) errors.bank_account_id = [PAYMENT_MESSAGES.currency];
  }
  if (walletId !== null && !errors.wallet_id) {
    const wallet = await db.selectFrom('wallets').select(['active', 'kind']).where('id', '=', walletId).executeTakeFirst();
    if (!wallet || !wallet.active) errors.wallet_id = [PAYMENT_MESSAGES.inactiveDestination];
    else if (wallet.kind !== method) errors.wallet_id = [PAYMENT_MESSAGES.walletKind];
  }
  const operationNumber = body.operation_number ?? null;
  if (method !== 'EFECTIVO' && operationNumber === null) errors.operation_number = [PAYMENT_MESSAGES.operationNumber];
  if (operationNumber !== null && !errors.bank_account_id && !errors.wallet_id && (bankAccountId !== null || walletId !== null)) {
    if (await operationTaken(db, { bankAccountId, walletId, operationNumber }))
      errors.operation_number = [PAYMENT_MESSAGES.duplicateOperation];
  }
  if (Object.keys(errors).length > 0) throw validationError(errors);
  return { ...resolved, bankAccountId, walletId };
}

/**
 * At most one portal payment of a sale waits for review at a time (docs/security.md 30.4): the
 * customer's PagoYape always pays the oldest instalments, so a second one would pay the same
 * instalments again. The partial unique index `payments_portal_pending_uq` (migration 0029) backs
 * the check against concurrent sends.
 * @throws HttpError 409 naming the pending payment.
 */
export async function refusePendingPortalPayment(db: Kysely<DB>, saleId: number): Promise<void> {
  const pending = await db
    .selectFrom('payments')
    .select(['amount', 'currency', 'operation_number', 'operation_date'])
    .where('sale_id', '=', saleId)
    .where('source', '=', 'PORTAL')
    .where('status', '=', 'PENDIENTE')
    .executeTakeFirst();
  if (!pending) return;
  const number = pending.operation_number ? `operación N° ${pending.operation_number}, ` : '';
  throw conflict(
    `${PAYMENT_MESSAGES.pendingPortalPayment} (${number}${formatMoney(Number(pending.amount), pending.currency)} del ${formatDate(pending.operation_date)})`,
  );
}

/** Whether a payment that counts (PENDIENTE, APROBADO) already has this operation number on this destination. */
async function operationTaken(
  db: Kysely<DB>,
  key: { bankAccountId: number | null; walletId: number | null; operationNumber: string },
): Promise<boolean> {
  let query = db
    .selectFrom('payments')
    .select('id')
    .where('operation_number', '=', key.operationNumber)
    .where('status', 'in', ['PENDIENTE', 'APROBADO']);
  query = key.bankAccountId !== null ? query.where('bank_account_id', '=', key.bankAccountId) : query.where('wallet_id', '=', key.walletId);
  return (await query.executeTakeFirst()) !== undefined;
}

/**
 * The permissions of an administrator for segregation of duties (docs/security.md 31.10): those
 * of Configuración → Empresas, where the company's settings — this one among them — are edited.
 */
export const SEGREGATION_ADMIN = [MODULE.configuracion, SUBMODULE.empresas] as const;

/**
 * Whether segregation of duties bars `audit`'s caller from approving `payment` (docs/domain.md
 * "Payments: segregation of duties"): the company keeps it on (companies.payment_approval_segregation,
 * default on; on without a company row) and the caller is the staff member who registered it. A
 * portal payment (registered by the customer, no staff registrar) is never barred.
 * @returns null when not barred; else the Spanish refusal and whether the caller, holding
 *   {@link SEGREGATION_ADMIN}, may override it with a reason.
 */
export async function selfApproval(
  db: Kysely<DB>,
  payment: { registered_by_user_id: number | null },
  audit: AuditContext,
): Promise<{ message: string; may_override: boolean } | null> {
  const approver = staffActorId(audit);
  if (approver === null || payment.registered_by_user_id === null || payment.registered_by_user_id !== approver) return null;
  const company = await db.selectFrom('companies').select('payment_approval_segregation').orderBy('id').executeTakeFirst();
  if (company && !fromFlag(company.payment_approval_segregation)) return null;
  const held = await heldPermissions(db, 'COLLABORATOR', approver, SEGREGATION_ADMIN);
  return { message: PAYMENT_MESSAGES.selfApproval, may_override: SEGREGATION_ADMIN.every((p) => held.has(p)) };
}

/** Whether `iso` (YYYY-MM-DD) is a real calendar date from 2000 on (the target's date bounds it further). */
function isCalendarDate(iso: string): boolean {
  const date = new Date(`${iso}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === iso && iso >= '2000-01-01';
}

/**
 * Registers a payment PENDIENTE (POST /api/payments by staff; the portal's PagoYape with a
 * CUSTOMER actor, who pays as themselves) and notifies the reviewers in real time.
 * @throws HttpError 422 per field (amount over the debt, destination, operation number taken…),
 *   409 when the sale or reservation takes no payment, 404 for a customer's sale not theirs.
 */
export async function registerPayment(
  deps: Pick<AppDeps, 'db' | 'clock' | 'broadcaster'>,
  actor: PaymentActor,
  body: CreatePaymentBody,
): Promise<Payment> {
  const resolved = await resolveRegistration(deps, actor, body);
  const stamp = deps.clock.now().toISOString();
  let created: { id: number; events: BroadcastEvent[] };
  try {
    created = await inTransaction(deps.db, async (trx) => {
      const { id } = await trx
        .insertInto('payments')
        .values({
          sale_id: resolved.saleId,
          reservation_id: resolved.reservationId,
          customer_id: resolved.customerId,
          currency: resolved.currency,
          amount: body.amount,
          method: body.method,
          bank_account_id: resolved.bankAccountId,
          wallet_id: resolved.walletId,
          operation_number: body.operation_number ?? null,
          operation_date: body.operation_date,
          note: body.note ?? null,
          source: actor.kind === 'CUSTOMER' ? 'PORTAL' : 'OFICINA',
          registered_by_user_id: staffActorId(actor.audit),
          created_at: stamp,
          updated_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await recordChange(trx, actor.audit, { entity: 'payments', recordId: id, action: 'CREATE', after: await paymentRow(trx, id) });
      const notified = await notifyReviewers(trx, deps, id);
      return { id, events: notified.events };
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      // Which index refused it: a portal payment already pending for the sale (a concurrent send), or the operation number.
      if (actor.kind === 'CUSTOMER' && resolved.saleId !== null) await refusePendingPortalPayment(deps.db, resolved.saleId);
      throw validationError({ operation_number: [PAYMENT_MESSAGES.duplicateOperation] });
    }
    throw error;
  }
  deps.broadcaster.publish(created.events);
  // Committed: Inicio's cards reload (docs/dashboard.md "Realtime: DashboardChanged").
  await publishDashboardChanged(deps, DASHBOARD_CARDS_MOVED.paymentRegistered);
  return getPayment(deps, created.id);
}

/** "Pago por revisar" to every active reviewer. */
async function notifyReviewers(trx: Kysely<DB>, deps: Pick<AppDeps, 'clock'>, id: number): Promise<CreatedNotifications> {
  const [payment] = await paymentsByIds(trx, [id]);
  if (!payment) return { ids: [], events: [] };
  const reviewers = await activeStaffWithPermissions(trx, PAYMENT_REVIEWERS);
  const target = payment.sale
    ? `la venta ${payment.sale.number} (lote ${payment.sale.lot_code})`
    : `la separación del lote ${payment.reservation?.lot_code ?? ''}`;
  return createNotifications(
    trx,
    deps.clock,
    reviewers.map((accountId) => ({ userType: 'COLLABORATOR', accountId })),
    {
      type: 'PAYMENT',
      title: 'Pago por revisar',
      detail: reviewDetail(payment, target),
      route: REVIEW_ROUTE,
    },
  );
}

/**
 * The detail of "Pago por revisar" (docs/domain.md "Payments: who registered it"): a portal payment
 * is the customer's own ("<b>Juan Díaz</b> registró un pago de S/ 70.00 para …"); one registered at
 * the office names the staff member who registered it and the payer ("<b>Ana Ruiz</b> registró un
 * pago de S/ 70.00 de <b>Juan Díaz</b> para …").
 */
export function reviewDetail(
  payment: Pick<Payment, 'source' | 'registered_by' | 'customer' | 'amount' | 'currency'>,
  target: string,
): string {
  const amount = formatMoney(payment.amount, payment.currency);
  const payer = `<b>${escapeHtml(payment.customer.display_name)}</b>`;
  if (payment.source === 'PORTAL') return `<p>${payer} registró un pago de ${amount} para ${escapeHtml(target)}.</p>`;
  const registrar = payment.registered_by.trim();
  const who = registrar ? `<b>${escapeHtml(registrar)}</b> registró` : 'Se registró';
  return `<p>${who} un pago de ${amount} de ${payer} para ${escapeHtml(target)}.</p>`;
}

/** Tells the payer about a review (approved / rejected). */
async function notifyPayer(trx: Kysely<DB>, deps: Pick<AppDeps, 'clock'>, id: number, title: string, detail: string) {
  const row = await paymentRow(trx, id);
  if (!row) return { ids: [], events: [] };
  return createNotifications(trx, deps.clock, [{ userType: 'CUSTOMER', accountId: row.customer_id }], {
    type: 'PAYMENT',
    title,
    detail,
    route: row.sale_id !== null ? statementRoute(row.sale_id) : null,
  });
}

/**
 * Moves a PENDIENTE payment on by one conditional UPDATE (`where status = 'PENDIENTE'` and the
 * version read): of two reviewers acting at once exactly one matches the row (PostgreSQL re-checks
 * the condition after the first commits; SQLite runs one writer at a time); the other gets the
 * 409 {@link PAYMENT_MESSAGES}.alreadyReviewed (or the stale-record 409 for an older version).
 */
async function claimPending(trx: Kysely<DB>, id: number, version: number | undefined, set: Updateable<PaymentsTable>): Promise<void> {
  const result = await trx
    .updateTable('payments')
    .set({ ...set, version: nextVersion() })
    .where('id', '=', id)
    .where('status', '=', 'PENDIENTE')
    .$if(version !== undefined, (q) => q.where('version', '=', version ?? 0))
    .executeTakeFirst();
  if (result.numUpdatedRows > 0n) return;
  const now = await paymentRow(trx, id);
  if (!now) throw notFound();
  if (now.status !== 'PENDIENTE') throw conflict(PAYMENT_MESSAGES.alreadyReviewed);
  throw staleRecord();
}

/** The next receipt correlative of {@link RECEIPT_SERIES}, taken inside the caller's transaction (the row lock orders concurrent approvals). */
export async function nextReceiptNumber(trx: Kysely<DB>): Promise<number> {
  const row = await trx
    .updateTable('receipt_counters')
    .set((eb) => ({ last_number: eb('last_number', '+', 1) }))
    .where('series', '=', RECEIPT_SERIES)
    .returning('last_number')
    .executeTakeFirst();
  if (!row) throw new Error(`receipt series ${RECEIPT_SERIES} is missing`);
  return Number(row.last_number);
}

/**
 * Takes the write lock of a sale's row (a no-op update) at the start of a transaction that will
 * write its money. Every such transaction — approving or annulling a payment, annulling, resolving
 * or rescheduling the sale — then queues on that one row before it writes anything else, so two of
 * them never hold the list revisions their writes raise (`list_revisions` rows `payments`,
 * `instalments`, `sales`: one row each, updated by triggers) in opposite orders: PostgreSQL
 * answered such a pair with "deadlock detected" (a 500) before this (docs/decisions.md "Lock
 * order: the sale first"). On SQLite writers are serialised anyway.
 */
async function lockSale(trx: Kysely<DB>, saleId: number): Promise<void> {
  await trx
    .updateTable('sales')
    .set((eb) => ({ version: eb.ref('version') }))
    .where('id', '=', saleId)
    .execute();
}

/**
 * Approves a PENDIENTE payment (POST /api/payments/{id}/approve). In one transaction: takes the next
 * receipt number and claims the payment (see {@link claimPending}); for a sale, applies the amount
 * with src/lib/finanzas/allocation.ts to what was owed on the payment's operation date (late fees
 * first, then amounts, oldest first), stores the allocations and the instalments' paid amounts,
 * refigures the late fees and states as of today and moves the sale's state (the last céntimo
 * makes it CANCELADA); for a reservation, turns it VIGENTE. Notifies the payer.
 * Segregation of duties ({@link selfApproval}): the staff member who registered it gets a 403
 * (PAYMENT_MESSAGES.selfApproval), unless an administrator, who must send `override_reason` (422
 * on that field without it); the reason is written into the payment's change history as
 * `approval_override_reason`.
 * @throws HttpError 404; 403 segregation of duties; 422 `override_reason` missing; 409 already
 *   reviewed, stale, a portal payment without a voucher, more than the debt now, a reservation no
 *   longer pending.
 */
export async function approvePayment(
  deps: Pick<AppDeps, 'db' | 'clock' | 'broadcaster'>,
  audit: AuditContext,
  id: number,
  body: ApprovePaymentBody,
): Promise<Payment> {
  const events = await inTransaction(deps.db, async (trx) => {
    const before = await paymentRow(trx, id);
    if (!before) throw notFound();
    if (before.status !== 'PENDIENTE') throw conflict(PAYMENT_MESSAGES.alreadyReviewed);
    const barred = await selfApproval(trx, before, audit);
    if (barred && !barred.may_override) throw new HttpError(403, barred.message);
    if (barred && !body.override_reason) throw fieldError('override_reason', PAYMENT_MESSAGES.overrideReason);
    const overrideReason = barred ? body.override_reason : undefined;
    if (before.source === 'PORTAL') {
      const voucher = await trx.selectFrom('payment_vouchers').select('id').where('payment_id', '=', id).executeTakeFirst();
      if (!voucher) throw conflict(PAYMENT_MESSAGES.noVoucher);
    }
    // The sale's row before any write (docs/decisions.md "Lock order: the sale first").
    if (before.sale_id !== null) await lockSale(trx, before.sale_id);
    const receipt = await nextReceiptNumber(trx);
    const stamp = deps.clock.now().toISOString();
    await claimPending(trx, id, body.version, {
      status: 'APROBADO',
      reviewed_by: staffActorId(audit),
      reviewed_at: stamp,
      receipt_series: RECEIPT_SERIES,
      receipt_number: receipt,
      updated_at: stamp,
    });
    if (before.sale_id !== null)
      await applyToSale(trx, audit, deps, before.sale_id, id, Number(before.amount), before.operation_date, before.currency);
    else if (before.reservation_id !== null) {
      const held = await trx
        .updateTable('reservations')
        .set({ status: 'VIGENTE', updated_at: stamp, version: nextVersion() })
        .where('id', '=', before.reservation_id)
        .where('status', '=', 'PENDIENTE_PAGO')
        .executeTakeFirst();
      if (held.numUpdatedRows === 0n) throw conflict(PAYMENT_MESSAGES.reservationNotPayable);
    }
    const after = await paymentRow(trx, id);
    await recordChange(trx, audit, {
      entity: 'payments',
      recordId: id,
      action: 'UPDATE',
      before,
      // An administrator's exception to the segregation of duties is kept with the approval itself.
      after: after && overrideReason ? { ...after, approval_override_reason: overrideReason } : after,
    });
    const amount = formatMoney(Number(before.amount), before.currency);
    const notified = await notifyPayer(
      trx,
      deps,
      id,
      'Pago aprobado',
      `<p>Su pago de ${amount} fue aprobado. Recibo ${RECEIPT_SERIES}-${String(receipt).padStart(8, '0')}.</p>`,
    );
    return notified.events;
  });
  deps.broadcaster.publish(events);
  await publishDashboardChanged(deps, DASHBOARD_CARDS_MOVED.paymentApproved);
  return getPayment(deps, id);
}

/**
 * Applies an approved payment to a sale (see {@link approvePayment}; also the credit of an annulled
 * sale, docs/domain.md "Annulling a sale"). The sale's row is claimed first by a conditional
 * UPDATE (on PostgreSQL its lock orders this against an annulment of the same sale: whichever comes
 * second sees the other's result), so no money is applied to a sale annulled meanwhile.
 * @throws HttpError 409 the sale takes no payment, or the debt changed.
 */
export async function applyToSale(
  trx: Kysely<DB>,
  audit: AuditContext,
  deps: Pick<AppDeps, 'clock'>,
  saleId: number,
  paymentId: number,
  amount: number,
  operationDate: string,
  currency: 'PEN' | 'USD',
): Promise<void> {
  const claimed = await trx
    .updateTable('sales')
    .set((eb) => ({ version: eb.ref('version') }))
    .where('id', '=', saleId)
    .where('status', 'not in', [...ENDED_SALE_STATUSES, 'CANCELADA'])
    .executeTakeFirst();
  if (claimed.numUpdatedRows === 0n) throw conflict(PAYMENT_MESSAGES.saleNotPayable);
  const account = await saleAccount(trx, saleId);
  if (!account) throw conflict(PAYMENT_MESSAGES.saleNotPayable);
  const plan = planPayment(account.policy, account.ledger, amount, operationDate, todayInLimaBy(deps.clock));
  if (!plan.ok) throw conflict(`${PAYMENT_MESSAGES.debtChanged}: ${planRefusal(plan, currency, operationDate)}`);
  await trx
    .insertInto('payment_allocations')
    .values(
      plan.allocations.map((a) => ({
        payment_id: paymentId,
        instalment_id: a.instalmentId,
        to_late_fee: a.toLateFeeCents,
        to_capital: a.toAmountCents,
      })),
    )
    .execute();
  for (const a of plan.allocations)
    await trx
      .updateTable('sale_instalments')
      .set((eb) => ({ paid: eb('paid', '+', a.toAmountCents), late_fee_paid: eb('late_fee_paid', '+', a.toLateFeeCents) }))
      .where('id', '=', a.instalmentId)
      .execute();
  await settleSale(trx, audit, deps, saleId);
  // Approved money may meet a commission's trigger (docs/domain.md "Commissions"): PROYECTADA → DEVENGADA in this transaction.
  await accrueSaleCommissions(trx, saleId, todayInLimaBy(deps.clock));
}

/**
 * After the sale's payments changed (in the caller's transaction): refigures its late fees and
 * instalment states as of today and moves its state by what is paid (src/lib/finanzas/sale-ledger.ts
 * `saleStatusFor`; docs/decisions.md "Payments: sale states"), with its change history. An ANULADA
 * sale is left alone.
 */
export async function settleSale(trx: Kysely<DB>, audit: AuditContext, deps: Pick<AppDeps, 'clock'>, saleId: number): Promise<void> {
  await refreshSaleLateFees(trx, saleId, todayInLimaBy(deps.clock));
  const rows = await trx.selectFrom('sale_instalments').select(['kind', 'amount', 'paid']).where('sale_id', '=', saleId).execute();
  const before = await trx.selectFrom('sales').selectAll().where('id', '=', saleId).executeTakeFirstOrThrow();
  if (isEndedSale(before.status)) return;
  const status = saleStatusFor(rows.map((r) => ({ kind: r.kind, amountCents: Number(r.amount), paidCents: Number(r.paid) })));
  if (status === before.status) return;
  await trx
    .updateTable('sales')
    .set({ status, updated_at: deps.clock.now().toISOString(), version: nextVersion() })
    .where('id', '=', saleId)
    .execute();
  await recordChange(trx, audit, {
    entity: 'sales',
    recordId: saleId,
    action: 'UPDATE',
    before,
    after: await trx.selectFrom('sales').selectAll().where('id', '=', saleId).executeTakeFirst(),
  });
}

/**
 * Rejects a PENDIENTE payment with its reason (POST /api/payments/{id}/reject): nothing is applied;
 * the payer is notified with the reason in real time.
 * @throws HttpError 404; 409 already reviewed or stale.
 */
export async function rejectPayment(
  deps: Pick<AppDeps, 'db' | 'clock' | 'broadcaster'>,
  audit: AuditContext,
  id: number,
  body: ReviewReasonBody,
): Promise<Payment> {
  const events = await inTransaction(deps.db, async (trx) => {
    const before = await paymentRow(trx, id);
    if (!before) throw notFound();
    const stamp = deps.clock.now().toISOString();
    await claimPending(trx, id, body.version, {
      status: 'RECHAZADO',
      reject_reason: body.reason,
      reviewed_by: staffActorId(audit),
      reviewed_at: stamp,
      updated_at: stamp,
    });
    await recordChange(trx, audit, { entity: 'payments', recordId: id, action: 'UPDATE', before, after: await paymentRow(trx, id) });
    const amount = formatMoney(Number(before.amount), before.currency);
    return (await notifyPayer(trx, deps, id, 'Pago rechazado', `<p>Su pago de ${amount} fue rechazado: ${escapeHtml(body.reason)}</p>`))
      .events;
  });
  deps.broadcaster.publish(events);
  await publishDashboardChanged(deps, DASHBOARD_CARDS_MOVED.paymentRejected);
  return getPayment(deps, id);
}

/**
 * Annuls an APROBADO payment (approved by mistake; POST /api/payments/{id}/annul) with its reason:
 * what it applied is taken back from its instalments (its allocations stay, as the record of what
 * was reversed), the late fees and states are refigured, the sale's state moves back (a CANCELADA
 * sale is owed again); a reservation it made VIGENTE goes back to PENDIENTE_PAGO. Its receipt
 * number stays (no gaps), marked ANULADO on the reprint.
 * @throws HttpError 404; 409 not APROBADO, stale, or its reservation already became a sale.
 */
export async function annulPayment(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  audit: AuditContext,
  id: number,
  body: ReviewReasonBody,
): Promise<Payment> {
  await inTransaction(deps.db, async (trx) => {
    const before = await paymentRow(trx, id);
    if (!before) throw notFound();
    // The sale's row before any write (docs/decisions.md "Lock order: the sale first").
    if (before.sale_id !== null) await lockSale(trx, before.sale_id);
    const stamp = deps.clock.now().toISOString();
    const result = await trx
      .updateTable('payments')
      .set({
        status: 'ANULADO',
        annul_reason: body.reason,
        annulled_by: staffActorId(audit),
        annulled_at: stamp,
        updated_at: stamp,
        version: nextVersion(),
      })
      .where('id', '=', id)
      .where('status', '=', 'APROBADO')
      .$if(body.version !== undefined, (q) => q.where('version', '=', body.version ?? 0))
      .executeTakeFirst();
    if (result.numUpdatedRows === 0n) {
      if (before.status !== 'APROBADO') throw conflict(PAYMENT_MESSAGES.notApproved);
      throw staleRecord();
    }
    if (before.sale_id !== null) {
      const allocations = await trx.selectFrom('payment_allocations').selectAll().where('payment_id', '=', id).execute();
      for (const a of allocations)
        await trx
          .updateTable('sale_instalments')
          .set((eb) => ({ paid: eb('paid', '-', Number(a.to_capital)), late_fee_paid: eb('late_fee_paid', '-', Number(a.to_late_fee)) }))
          .where('id', '=', a.instalment_id)
          .execute();
      await settleSale(trx, audit, deps, before.sale_id);
    } else if (before.reservation_id !== null) {
      const back = await trx
        .updateTable('reservations')
        .set({ status: 'PENDIENTE_PAGO', updated_at: stamp, version: nextVersion() })
        .where('id', '=', before.reservation_id)
        .where('status', '=', 'VIGENTE')
        .executeTakeFirst();
      if (back.numUpdatedRows === 0n) throw conflict(PAYMENT_MESSAGES.reservationNotPayable);
    }
    await recordChange(trx, audit, { entity: 'payments', recordId: id, action: 'UPDATE', before, after: await paymentRow(trx, id) });
  });
  return getPayment(deps, id);
}

/**
 * Adds a voucher image to a PENDIENTE payment (POST /api/payments/{id}/vouchers; the customer's
 * route with a CUSTOMER actor, for their own payment). The type is read from the bytes
 * (server/platform/image-type.ts); the bytes go to the database, never to the web root.
 * @throws HttpError 404 (also another customer's payment); 409 no longer PENDIENTE; 422 not an
 *   image, over VOUCHER_PIXEL_LIMITS (server/platform/image-type.ts), or more than {@link MAX_VOUCHERS}.
 */
export async function addPaymentVoucher(
  deps: Pick<AppDeps, 'db' | 'clock'>,
  actor: PaymentActor,
  id: number,
  bytes: Buffer,
): Promise<Payment> {
  const scope = actor.kind === 'CUSTOMER' ? { customerId: actor.customerId } : {};
  const contentType = detectImageType(bytes, VOUCHER_CONTENT_TYPES);
  await inTransaction(deps.db, async (trx) => {
    const payment = await visibleRow(trx, id, scope);
    if (payment.status !== 'PENDIENTE') throw conflict(PAYMENT_MESSAGES.notPending);
    if (!contentType) throw validationError({ voucher: [PAYMENT_MESSAGES.voucherNotImage] });
    const oversized = oversizedImage(bytes, contentType, VOUCHER_PIXEL_LIMITS);
    if (oversized) throw validationError({ voucher: [tooManyPixelsMessage('La captura', oversized, VOUCHER_PIXEL_LIMITS)] });
    const count = await trx
      .selectFrom('payment_vouchers')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('payment_id', '=', id)
      .executeTakeFirst();
    if (Number(count?.n ?? 0) >= MAX_VOUCHERS) throw validationError({ voucher: [PAYMENT_MESSAGES.tooManyVouchers] });
    const stamp = deps.clock.now().toISOString();
    const { id: voucherId } = await trx
      .insertInto('payment_vouchers')
      .values({ payment_id: id, content_type: contentType, size: bytes.length, created_at: stamp, data: bytes })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordChange(trx, actor.audit, {
      entity: 'payment_vouchers',
      recordId: voucherId,
      action: 'CREATE',
      after: { id: voucherId, payment_id: id, content_type: contentType, size: bytes.length, created_at: stamp },
    });
  });
  return getPayment(deps, id, scope);
}

/**
 * A voucher image of payment `id` (staff; a customer with `scope`, only for their own payments).
 * @throws HttpError 404.
 */
export async function readPaymentVoucher(
  db: Kysely<DB>,
  id: number,
  voucherId: number,
  scope: CustomerScope = {},
): Promise<{ contentType: string; data: Buffer; createdAt: string }> {
  await visibleRow(db, id, scope);
  const voucher = await db
    .selectFrom('payment_vouchers')
    .select(['content_type', 'data', 'created_at'])
    .where('id', '=', voucherId)
    .where('payment_id', '=', id)
    .executeTakeFirst();
  if (!voucher) throw notFound();
  return { contentType: voucher.content_type, data: voucher.data, createdAt: voucher.created_at };
}

/**
 * The receipt of an approved (or later annulled) payment as a PDF, re-printable (GET
 * /api/payments/{id}/receipt; the customer's route with `scope`).
 * @returns the file name ("R001-00000042.pdf") and the bytes. @throws HttpError 404; 409 when it has no receipt.
 */
export async function paymentReceiptPdf(
  deps: Pick<AppDeps, 'db' | 'clock' | 'documents'>,
  id: number,
  scope: CustomerScope = {},
): Promise<{ fileName: string; bytes: Buffer }> {
  await visibleRow(deps.db, id, scope);
  const [payment] = await paymentsByIds(deps.db, [id]);
  if (!payment) throw notFound();
  if (!payment.receipt_number) throw new HttpError(409, PAYMENT_MESSAGES.noReceipt);
  const balanceAfter = payment.sale ? await balanceAfterPayment(deps.db, payment.sale.id, payment.id) : null;
  const bytes = await renderDocument(deps.documents, 'pdf.receipt', { payment, issuer: await loadPdfIssuer(deps.db), balanceAfter });
  return { fileName: `${payment.receipt_number}.pdf`, bytes };
}

/**
 * What a sale still owed right after payment `paymentId` was applied (docs/domain.md "Receipts:
 * balance after the payment"), céntimos: Σ the sale's rows (down payment and instalments) − Σ what
 * was put on them (`to_capital`, late fees apart) by the payments approved up to this one — by
 * approval instant, then id — leaving out payments annulled since (this one counts even if
 * annulled: its receipt reprints as it was issued). The same figure on every reprint.
 */
export async function balanceAfterPayment(db: Kysely<DB>, saleId: number, paymentId: number): Promise<number> {
  const rows = await db.selectFrom('sale_instalments').select('amount').where('sale_id', '=', saleId).execute();
  const owed = rows.reduce((sum, r) => sum + Number(r.amount), 0);
  const allocations = await db
    .selectFrom('payment_allocations as a')
    .innerJoin('sale_instalments as i', 'i.id', 'a.instalment_id')
    .innerJoin('payments as p', 'p.id', 'a.payment_id')
    .select(['p.id', 'p.status', 'p.reviewed_at', 'a.to_capital'])
    .where('i.sale_id', '=', saleId)
    .execute();
  const self = await db.selectFrom('payments').select('reviewed_at').where('id', '=', paymentId).executeTakeFirst();
  const instant = (value: unknown) => Temporal.Instant.from(value instanceof Date ? value.toISOString() : String(value));
  const cut = self?.reviewed_at ? instant(self.reviewed_at) : null;
  const upTo = (a: (typeof allocations)[number]) => {
    if (a.id === paymentId) return true;
    if (a.status === 'ANULADO') return false;
    if (!cut || !a.reviewed_at) return true;
    const order = Temporal.Instant.compare(instant(a.reviewed_at), cut);
    return order < 0 || (order === 0 && a.id < paymentId);
  };
  const paid = allocations.filter(upTo).reduce((sum, a) => sum + Number(a.to_capital), 0);
  return Math.max(0, owed - paid);
}
