import { z } from 'zod';
import { calendarDateSchema } from '../dates';
import { dataResponseSchema, pagedResponseSchema } from '../paging';
import { MAX_PER_PAGE, DEFAULT_PER_PAGE } from '../list';
import { operationNumberSchema, PAYMENT_MESSAGES, PAYMENT_STATUSES } from '../finanzas/payments';

/**
 * The customer's own purchases (issue 16 "Customer screens": /COMERCIO/MisCompras,
 * /COMERCIO/DetalleCompra, PagoYape; ../shared/design/DOMAIN.md "Sales cycle"; docs/decisions.md
 * "Customer purchases"). Customer base, a signed-in customer holding 'Acceso módulo comercial' +
 * 'Acceso submódulo mis compras customers':
 *
 * - GET /api/customer/purchases — the sales the customer holds (TITULAR or co-holder), not ANULADA; paged.
 * - GET /api/customer/purchases/{id} — the statement: the sale, its schedule with late fees, its
 *   payments with vouchers and receipts, the lot on the plan, the contract PDF (null: no contract
 *   module yet). A sale the customer does not hold is a 404, never a 403.
 * - GET /api/customer/payment-options[?currency=] — the company's active wallets and bank accounts (those in `currency`).
 * - GET /api/customer/wallets/{id}/qr — the QR image of an active wallet.
 * - POST /api/customer/purchases/{id}/payments — PagoYape: the oldest open instalments by Yape/Plin.
 * - POST /api/customer/payments/{id}/vouchers (multipart `voucher`), GET …/vouchers/{voucher_id},
 *   GET /api/customer/payments/{id}/receipt (PDF) — only the customer's own payments (else 404).
 *
 * Money in integer céntimos of `currency`; dates ISO `YYYY-MM-DD` (America/Lima); instants ISO.
 */

/** Spanish messages of the customer's purchase routes. */
export const PURCHASE_MESSAGES = {
  notFound: 'La compra no existe',
  paymentNotFound: 'El pago no existe',
  oldestFirst: 'Pague primero las cuotas más antiguas',
  nothingSelected: 'Seleccione al menos una cuota',
  unknownInstalment: 'Una de las cuotas no pertenece a esta compra o ya está pagada',
  amountChanged: 'El monto a pagar cambió (se actualizó la mora o se registró otro pago): revise el monto y vuelva a enviar',
  wallet: 'Seleccione la billetera a la que pagó',
  inactiveWallet: 'La billetera no está disponible: elija otra',
  notPayable: 'Esta compra no admite pagos',
  sent: 'Pago enviado: queda pendiente de revisión',
} as const;

/** GET /api/customer/purchases query: only the page (the customer's purchases are few). */
export const purchasesQuerySchema = z.strictObject({
  page: z.coerce.number().int().min(1).default(1),
  per_page: z.coerce.number().int().min(1).max(MAX_PER_PAGE).default(DEFAULT_PER_PAGE),
});
export type PurchasesQuery = z.infer<typeof purchasesQuerySchema>;

/**
 * GET /api/customer/purchases/{id} query: `as_of`, the day the statement is figured for (default
 * today in Lima), from the sale's date to today — PagoYape reads the amount of a payment made on an
 * earlier day this way, as approval will figure it (docs/domain.md "Payments").
 */
export const purchaseDetailQuerySchema = z.strictObject({
  as_of: calendarDateSchema().optional(),
});
export type PurchaseDetailQuery = z.infer<typeof purchaseDetailQuerySchema>;

/** The next instalment to pay: its row, due date and what is still owed on it (amount, not late fee). */
export const nextInstalmentSchema = z.object({
  id: z.number().int(),
  kind: z.string().default('CUOTA'),
  number: z.number().int(),
  due_date: z.string(),
  amount_due: z.number().int(),
});
export type NextInstalment = z.infer<typeof nextInstalmentSchema>;

/**
 * The lot on the plan: what the customer map (/COMERCIO/MapSalesCustomer/{name}/{key}) needs —
 * the subdivision's public key and name — and the lot's code to find on it. Null when the
 * subdivision has no plan.
 */
export const purchaseMapSchema = z.object({ subdivision_key: z.string(), subdivision_name: z.string(), lot_code: z.string() });

/**
 * A purchase as Mis Compras lists it. `total` = `final_price` + `total_interest`; `balance` =
 * `total` − `paid` (late fees apart: `late_fee_due`); `next_instalment` null when nothing is owed.
 */
export const purchaseSchema = z.object({
  id: z.number().int(),
  /** "V-000123". */
  number: z.string(),
  sale_date: z.string().default(''),
  type: z.string().default('FINANCIADO'),
  lot_code: z.string(),
  subdivision_name: z.string().default(''),
  currency: z.enum(['PEN', 'USD']),
  final_price: z.number().int(),
  total_interest: z.number().int().default(0),
  total: z.number().int(),
  paid: z.number().int().default(0),
  balance: z.number().int(),
  /** Late fees owed now (accrued − paid − waived, summed over the schedule). */
  late_fee_due: z.number().int().default(0),
  /** Open instalments past their due date plus grace days. */
  overdue_instalments: z.number().int().default(0),
  /** Σ still owed on those overdue instalments (céntimos, late fees apart: `late_fee_due`). */
  overdue_amount: z.number().int().default(0),
  next_instalment: nextInstalmentSchema.nullable().catch(null).default(null),
  status: z.string(),
  /** The lot on the plan ({@link purchaseMapSchema}); null when the subdivision has no published plan. */
  map: purchaseMapSchema.nullable().catch(null).default(null),
  /** Path of the issued compraventa contract's PDF (customer base), null before issue. */
  contract_pdf_url: z.string().nullable().default(null),
});
export type Purchase = z.infer<typeof purchaseSchema>;

/** Instalment states as the statement shows them (DOMAIN.md "Instalment"). */
export const PURCHASE_INSTALMENT_STATUSES = ['PENDIENTE', 'PARCIAL', 'PAGADA', 'VENCIDA'] as const;

/**
 * One schedule row of the statement. `balance` = `amount` − `paid`; `late_fee_due` =
 * max(0, accrued − paid − waived); `days_late` counts the days after due date + grace (0 when paid
 * or not yet late).
 */
export const statementInstalmentSchema = z.object({
  id: z.number().int(),
  kind: z.string(),
  number: z.number().int(),
  due_date: z.string(),
  amount: z.number().int(),
  paid: z.number().int().default(0),
  balance: z.number().int(),
  status: z.enum(PURCHASE_INSTALMENT_STATUSES).catch('PENDIENTE'),
  days_late: z.number().int().default(0),
  late_fee_accrued: z.number().int().default(0),
  late_fee_paid: z.number().int().default(0),
  late_fee_waived: z.number().int().default(0),
  late_fee_due: z.number().int().default(0),
});
export type StatementInstalment = z.infer<typeof statementInstalmentSchema>;

/** A voucher image of one of the customer's payments; `url` is its authenticated customer path. */
export const customerVoucherSchema = z.object({ id: z.number().int(), content_type: z.string().default(''), url: z.string() });

/**
 * A payment of the statement as its customer sees it. `receipt_url`: the customer path of the
 * receipt PDF once APROBADO (or ANULADO, re-printable), else null.
 */
export const customerPaymentSchema = z.object({
  id: z.number().int(),
  status: z.enum(PAYMENT_STATUSES).catch('PENDIENTE'),
  amount: z.number().int(),
  currency: z.enum(['PEN', 'USD']),
  method: z.string(),
  operation_number: z.string().nullable().default(null),
  operation_date: z.string(),
  receipt_number: z.string().nullable().default(null),
  receipt_url: z.string().nullable().default(null),
  reject_reason: z.string().nullable().default(null),
  vouchers: z.array(customerVoucherSchema).catch([]).default([]),
  created_at: z.string().default(''),
});
export type CustomerPayment = z.infer<typeof customerPaymentSchema>;

/**
 * GET /api/customer/purchases/{id}: the sale (as listed, plus its terms), its schedule oldest
 * first, its payments newest first (at most the latest 100), the lot on the plan and the contract
 * PDF's path (always null until a contract module exists: docs/decisions.md "Customer purchases").
 */
export const purchaseDetailSchema = purchaseSchema.extend({
  area_m2: z.number().nullable().default(null),
  down_payment: z.number().int().default(0),
  financed: z.number().int().default(0),
  instalments: z.number().int().default(0),
  method: z.string().default(''),
  monthly_rate_percent: z.string().default('0'),
  schedule: z.array(statementInstalmentSchema).catch([]).default([]),
  payments: z.array(customerPaymentSchema).catch([]).default([]),
});
export type PurchaseDetail = z.infer<typeof purchaseDetailSchema>;

export const purchasesPageSchema = pagedResponseSchema(purchaseSchema);
export const purchaseDetailResponseSchema = dataResponseSchema(purchaseDetailSchema);

/** A wallet the customer may pay to: `qr_url` is the customer path of its QR image (null without one). */
export const paymentWalletSchema = z.object({
  id: z.number().int(),
  kind: z.enum(['YAPE', 'PLIN']),
  phone: z.string(),
  holder: z.string(),
  qr_url: z.string().nullable().default(null),
});
export type PaymentWallet = z.infer<typeof paymentWalletSchema>;

/** A bank account the customer may transfer to. `bank`: a code of ../finanzas/banks.ts; `bank_name` its name. */
export const paymentBankAccountSchema = z.object({
  id: z.number().int(),
  bank: z.string(),
  bank_name: z.string().default(''),
  kind: z.string(),
  currency: z.enum(['PEN', 'USD']),
  number: z.string(),
  cci: z.string(),
  holder: z.string(),
});
export type PaymentBankAccount = z.infer<typeof paymentBankAccountSchema>;

/**
 * Query of GET /api/customer/payment-options: `currency` (the purchase's) keeps only the bank accounts
 * in that currency — a sale in soles is paid into a soles account (docs/decisions.md "Customer journey
 * details (accessibility)"); absent, every active account.
 */
export const paymentOptionsQuerySchema = z.strictObject({ currency: z.enum(['PEN', 'USD']).optional() });
export type PaymentOptionsQuery = z.infer<typeof paymentOptionsQuerySchema>;

/** GET /api/customer/payment-options: the active wallets and bank accounts (at most 50 of each). */
export const paymentOptionsSchema = z.object({
  wallets: z.array(paymentWalletSchema).catch([]).default([]),
  bank_accounts: z.array(paymentBankAccountSchema).catch([]).default([]),
});
export type PaymentOptions = z.infer<typeof paymentOptionsSchema>;
export const paymentOptionsResponseSchema = dataResponseSchema(paymentOptionsSchema);

/**
 * POST /api/customer/purchases/{id}/payments body (PagoYape). `instalment_ids`: the instalments
 * paid, which must be the oldest open ones (a prefix of the open instalments oldest first, 422
 * otherwise); `amount`: what the screen showed, in céntimos — every late fee owed plus the chosen
 * instalments' amounts due (a different figure is a 409: the debt changed); `wallet_id`: the active
 * wallet paid to (its kind is the method); `operation_number` and `operation_date` as on the capture.
 */
export const customerPaymentRequestSchema = z.strictObject({
  wallet_id: z.number({ error: PURCHASE_MESSAGES.wallet }).int(PURCHASE_MESSAGES.wallet).positive(PURCHASE_MESSAGES.wallet),
  instalment_ids: z
    .array(z.number().int().positive())
    .min(1, PURCHASE_MESSAGES.nothingSelected)
    .max(372, PURCHASE_MESSAGES.nothingSelected),
  amount: z.number({ error: PAYMENT_MESSAGES.amount }).int(PAYMENT_MESSAGES.amount).positive(PAYMENT_MESSAGES.amount).max(1e13),
  operation_number: operationNumberSchema,
  operation_date: calendarDateSchema(PAYMENT_MESSAGES.operationDate),
});
export type CustomerPaymentRequest = z.input<typeof customerPaymentRequestSchema>;

/** POST /api/customer/purchases/{id}/payments answer (201): the payment, PENDIENTE, and the message to show. */
export const customerPaymentCreatedSchema = z.object({
  payment: customerPaymentSchema,
  message: z.string().default(PURCHASE_MESSAGES.sent),
});
export const customerPaymentCreatedResponseSchema = dataResponseSchema(customerPaymentCreatedSchema);

/** POST /api/customer/payments/{id}/vouchers answer (201): the payment with its vouchers. */
export const customerPaymentResponseSchema = dataResponseSchema(customerPaymentSchema);
