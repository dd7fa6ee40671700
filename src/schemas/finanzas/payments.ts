import { z } from 'zod';
import { calendarDateSchema } from '../dates';
import { dataResponseSchema, listQueryShape, pagedResponseSchema, sortSchema } from '../paging';
import { recordVersionSchema, versionInAnswerSchema } from '../versions';

/**
 * Payments, pagos (issue 16 "Money in"; ../shared/design/DOMAIN.md "Sales cycle" → Payment;
 * docs/decisions.md "Payments"). A payment is money a customer says they paid towards a sale (its
 * schedule) or a reservation (its amount). It arrives PENDIENTE — registered at the office by staff
 * or sent from the customer portal (PagoYape) — and finance reviews it in /FINANZAS/Pagos:
 * APROBADO applies it (late fees first, then the instalments' amounts, oldest first:
 * src/lib/finanzas/allocation.ts) and numbers its receipt; RECHAZADO (with a reason) applies
 * nothing; ANULADO (an approval by mistake, with a reason) reverses what approval applied.
 *
 * Staff routes ('Acceso módulo finanzas' + 'Acceso submódulo pagos'):
 * - GET /api/payments (paged; PENDIENTE first, oldest first), GET /api/payments/{id};
 * - POST /api/payments (registered at the office), POST /api/payments/{id}/vouchers (multipart
 *   field `voucher`, one image per call), GET /api/payments/{id}/vouchers/{voucher_id};
 * - POST /api/payments/{id}/approve | reject | annul; GET /api/payments/{id}/receipt (PDF).
 *
 * Money in integer céntimos of `currency`; dates ISO `YYYY-MM-DD` (America/Lima); instants ISO.
 */

/** How the money was paid (DOMAIN.md "Payment methods"). */
export const PAYMENT_METHODS = ['TRANSFERENCIA', 'DEPOSITO', 'YAPE', 'PLIN', 'EFECTIVO', 'TARJETA'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const PAYMENT_METHOD_LABELS: Record<PaymentMethod, string> = {
  TRANSFERENCIA: 'Transferencia',
  DEPOSITO: 'Depósito',
  YAPE: 'Yape',
  PLIN: 'Plin',
  EFECTIVO: 'Efectivo',
  TARJETA: 'Tarjeta',
};
/** Methods whose destination is one of the company's bank accounts (required). */
export const BANK_METHODS: readonly PaymentMethod[] = ['TRANSFERENCIA', 'DEPOSITO'];
/** Methods whose destination is one of the company's wallets (required), of the same kind. */
export const WALLET_METHODS: readonly PaymentMethod[] = ['YAPE', 'PLIN'];

/** Review states (DOMAIN.md "Payment"). */
export const PAYMENT_STATUSES = ['PENDIENTE', 'APROBADO', 'RECHAZADO', 'ANULADO'] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
export const PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  PENDIENTE: 'Pendiente',
  APROBADO: 'Aprobado',
  RECHAZADO: 'Rechazado',
  ANULADO: 'Anulado',
};

/** Where a payment was registered: at the office by staff, or by the customer in the portal. */
export const PAYMENT_SOURCES = ['OFICINA', 'PORTAL'] as const;
export type PaymentSource = (typeof PAYMENT_SOURCES)[number];

/** Largest voucher image, in bytes (5 MB; issue 16 "Voucher uploads"). */
export const VOUCHER_MAX_BYTES = 5 * 1024 * 1024;
/** Most voucher images one payment may carry. */
export const MAX_VOUCHERS = 5;
/** Voucher types accepted (detected from the bytes, not the file name). */
export const VOUCHER_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

/** The receipt series of approved payments (docs/decisions.md "Payments: receipts"). */
export const RECEIPT_SERIES = 'R001';

/** Spanish messages of the payment forms and routes. */
export const PAYMENT_MESSAGES = {
  target: 'Indique la venta o la separación que se paga',
  unknownSale: 'La venta no existe',
  saleNotPayable: 'La venta no admite pagos (anulada o cancelada)',
  unknownReservation: 'La separación no existe',
  reservationNotPayable: 'La separación no está pendiente de pago',
  reservationAmount: 'El pago de una separación debe ser por su monto exacto',
  customer: 'El cliente no es titular de la venta ni de la separación',
  amount: 'Ingrese un monto mayor que cero',
  exceedsDebt: 'El monto supera la deuda',
  method: 'Seleccione el medio de pago',
  bankAccount: 'Seleccione la cuenta bancaria de destino',
  wallet: 'Seleccione la billetera de destino',
  walletKind: 'La billetera no corresponde al medio de pago',
  noDestination: 'Este medio de pago no lleva cuenta ni billetera de destino',
  inactiveDestination: 'La cuenta o billetera de destino no está activa',
  currency: 'La moneda de la cuenta no es la de la venta',
  operationNumber: 'Ingrese el número de operación',
  operationNumberFormat: 'El número de operación admite solo letras, números y guiones (máximo 40)',
  duplicateOperation: 'Ese número de operación ya fue registrado en esa cuenta o billetera',
  operationDate: 'Ingrese la fecha de la operación',
  futureDate: 'La fecha de la operación no puede ser futura',
  beforeTarget: 'La fecha de la operación no puede ser anterior a la de la venta o la separación',
  takesBackPaidFee: 'Con esa fecha de operación el pago reduciría una mora que ya fue pagada',
  takesBackPaidFeeHint: 'Apruebe los pagos de la venta en el orden de sus fechas, o anule primero el pago posterior',
  pendingPortalPayment: 'Ya envió un pago para esta compra que está pendiente de revisión: espere la revisión antes de enviar otro',
  portalDailyLimit: 'Alcanzó el máximo de pagos que puede enviar desde el portal en un día: inténtelo mañana o comuníquese con la empresa',
  note: 'Máximo 500 caracteres',
  reason: 'Indique el motivo (al menos 3 caracteres)',
  alreadyReviewed: 'El pago ya fue revisado por otro usuario',
  selfApproval: 'Usted registró este pago: otro usuario debe aprobarlo (segregación de funciones)',
  overrideReason: 'Indique el motivo de la excepción (al menos 3 caracteres)',
  notApproved: 'Solo se anula un pago aprobado',
  notPending: 'El pago ya no está pendiente',
  noVoucher: 'El pago no tiene comprobante: adjunte la imagen antes de aprobarlo',
  voucherMissing: 'Adjunte la imagen del comprobante en el campo "voucher" (multipart/form-data)',
  voucherTooLarge: 'El comprobante debe pesar como máximo 5 MB',
  voucherNotImage: 'El comprobante debe ser una imagen PNG, JPEG o WebP',
  tooManyVouchers: `Un pago admite como máximo ${MAX_VOUCHERS} imágenes`,
  debtChanged: 'La deuda cambió desde que se registró el pago; revise el monto',
  noReceipt: 'El pago no tiene recibo (solo los aprobados)',
  registered: 'Pago registrado: queda pendiente de revisión',
  approved: 'Pago aprobado',
  rejected: 'Pago rechazado',
  annulled: 'Pago anulado',
} as const;

/** Operation number as typed: trimmed, spaces dropped, upper-cased; letters, digits and hyphens, ≤ 40. */
export const operationNumberSchema = z
  .string()
  .transform((v) => v.replace(/\s+/g, '').toUpperCase())
  .pipe(
    z
      .string()
      .min(1, PAYMENT_MESSAGES.operationNumber)
      .regex(/^[A-Z0-9-]{1,40}$/, PAYMENT_MESSAGES.operationNumberFormat),
  );

/** Request dates (operation date, filters): a real calendar day (src/schemas/dates.ts). */
const isoDate = calendarDateSchema(PAYMENT_MESSAGES.operationDate);
const reasonSchema = z.string().trim().min(3, PAYMENT_MESSAGES.reason).max(500, PAYMENT_MESSAGES.note);

/**
 * POST /api/payments body (staff, a payment received at the office). Exactly one of `sale_id` and
 * `reservation_id`. `customer_id`: the payer, a holder of the sale or the reservation's customer
 * (default: the sale's first holder, the reservation's customer). `amount` in céntimos of the
 * sale's (reservation's) currency; a reservation is paid by its exact amount. Destination:
 * `bank_account_id` for TRANSFERENCIA | DEPOSITO (TARJETA optional), `wallet_id` for YAPE | PLIN,
 * none for EFECTIVO. `operation_number` required except for EFECTIVO.
 */
export const createPaymentRequestSchema = z
  .strictObject({
    sale_id: z.number().int().positive().optional(),
    reservation_id: z.number().int().positive().optional(),
    customer_id: z.number().int().positive().optional(),
    amount: z.number({ error: PAYMENT_MESSAGES.amount }).int(PAYMENT_MESSAGES.amount).positive(PAYMENT_MESSAGES.amount).max(1e13),
    method: z.enum(PAYMENT_METHODS, { error: PAYMENT_MESSAGES.method }),
    bank_account_id: z.number().int().positive().nullish(),
    wallet_id: z.number().int().positive().nullish(),
    operation_number: z.union([operationNumberSchema, z.literal('').transform(() => null)]).nullish(),
    operation_date: isoDate,
    note: z.string().trim().max(500, PAYMENT_MESSAGES.note).nullish(),
  })
  .refine((b) => (b.sale_id === undefined) !== (b.reservation_id === undefined), { message: PAYMENT_MESSAGES.target, path: ['sale_id'] });
export type CreatePaymentRequest = z.input<typeof createPaymentRequestSchema>;

/** Longest reason of an administrator's exception to the segregation of duties, in characters. */
export const OVERRIDE_REASON_MAX = 500;

/**
 * POST /api/payments/{id}/approve body: the version read (a stale one is a 409) and, only when an
 * administrator approves a payment they registered themselves (docs/domain.md "Payments:
 * segregation of duties"), `override_reason`: why (3 … {@link OVERRIDE_REASON_MAX} characters,
 * written into the payment's change history). Ignored when no exception is needed.
 */
export const approvePaymentRequestSchema = z.strictObject({
  version: recordVersionSchema.optional(),
  override_reason: z
    .string()
    .trim()
    .min(3, PAYMENT_MESSAGES.overrideReason)
    .max(OVERRIDE_REASON_MAX, `Máximo ${OVERRIDE_REASON_MAX} caracteres`)
    .optional(),
});
export type ApprovePaymentRequest = z.input<typeof approvePaymentRequestSchema>;

/** POST /api/payments/{id}/reject and /annul body: the reason (shown to the customer on reject) and the version read. */
export const reviewReasonRequestSchema = z.strictObject({ reason: reasonSchema, version: recordVersionSchema.optional() });
export type ReviewReasonRequest = z.input<typeof reviewReasonRequestSchema>;

/** What an approved payment put on one instalment. `to_capital`: towards its amount (capital and interest). */
export const paymentAllocationSchema = z.object({
  instalment_id: z.number().int(),
  kind: z.string().default('CUOTA'),
  number: z.number().int().default(0),
  due_date: z.string().default(''),
  to_late_fee: z.number().int(),
  to_capital: z.number().int(),
});
export type PaymentAllocation = z.infer<typeof paymentAllocationSchema>;

/** A voucher image of a payment; `url` is its authenticated path. */
export const paymentVoucherSchema = z.object({
  id: z.number().int(),
  content_type: z.string(),
  size: z.number().int().default(0),
  url: z.string(),
});
export type PaymentVoucher = z.infer<typeof paymentVoucherSchema>;

/**
 * A late fee that approving a payment changes (on GET one of a PENDIENTE sale payment): the fee the
 * instalment has accrued today before and after the payment, in céntimos. A payment dated before
 * today lowers the fees of the days since (docs/domain.md "Instalments, days late and late fees").
 */
export const lateFeeChangeSchema = z.object({
  instalment_id: z.number().int(),
  kind: z.string().default('CUOTA'),
  number: z.number().int().default(0),
  before: z.number().int(),
  after: z.number().int(),
});
export type LateFeeChange = z.infer<typeof lateFeeChangeSchema>;

/**
 * A payment as the routes answer it. `allocations`: what approval applied (empty unless APROBADO or
 * ANULADO). `allocation_preview`: on GET one of a PENDIENTE sale payment, what approving it now
 * would apply (null when it would be refused: `preview_error` says why), and `late_fee_changes` the
 * late fees it would change. `credited_sale`: for a reservation's payment, the sale its amount was
 * credited to when the reservation became one (its `allocations` are then on that sale's down payment).
 */
export const paymentSchema = z.object({
  id: z.number().int(),
  /** "R001-00000042" once approved; null before. */
  receipt_number: z.string().nullable().default(null),
  status: z.enum(PAYMENT_STATUSES).catch('PENDIENTE'),
  source: z.string().default('OFICINA'),
  sale: z
    .object({ id: z.number().int(), number: z.string(), lot_code: z.string(), subdivision_name: z.string().default('') })
    .nullable()
    .default(null),
  reservation: z
    .object({ id: z.number().int(), lot_code: z.string(), subdivision_name: z.string().default('') })
    .nullable()
    .default(null),
  customer: z.object({ id: z.number().int(), display_name: z.string(), document_number: z.string().default('') }),
  amount: z.number().int(),
  currency: z.enum(['PEN', 'USD']),
  method: z.string(),
  destination: z
    .object({ kind: z.enum(['BANK_ACCOUNT', 'WALLET']), id: z.number().int(), label: z.string() })
    .nullable()
    .catch(null)
    .default(null),
  operation_number: z.string().nullable().default(null),
  operation_date: z.string(),
  note: z.string().nullable().default(null),
  vouchers: z.array(paymentVoucherSchema).catch([]).default([]),
  registered_by: z.string().default(''),
  reviewed_by: z.string().nullable().default(null),
  reviewed_at: z.string().nullable().default(null),
  reject_reason: z.string().nullable().default(null),
  annul_reason: z.string().nullable().default(null),
  allocations: z.array(paymentAllocationSchema).catch([]).default([]),
  allocation_preview: z.array(paymentAllocationSchema).nullable().catch(null).default(null),
  preview_error: z.string().nullable().default(null),
  late_fee_changes: z.array(lateFeeChangeSchema).catch([]).default([]),
  credited_sale: z.object({ id: z.number().int(), number: z.string() }).nullable().catch(null).default(null),
  /**
   * On GET one PENDIENTE payment by staff: why the caller may not approve it (they registered it
   * and the company keeps duties apart, docs/domain.md "Payments: segregation of duties") and
   * whether they may override that as an administrator with a reason; null when nothing bars them.
   */
  self_approval: z.object({ message: z.string(), may_override: z.boolean() }).nullable().catch(null).default(null),
  created_at: z.string(),
  updated_at: z.string().default(''),
  version: versionInAnswerSchema,
});
export type Payment = z.infer<typeof paymentSchema>;

/**
 * GET /api/payments query. Default order: PENDIENTE first, then oldest first (`created_at`).
 * `q`: receipt number, operation number, customer name or document, lot code.
 */
export const paymentsQuerySchema = z.strictObject({
  ...listQueryShape,
  sort: sortSchema(['created_at', 'operation_date', 'amount']),
  status: z.enum(PAYMENT_STATUSES).optional(),
  method: z.enum(PAYMENT_METHODS).optional(),
  source: z.enum(PAYMENT_SOURCES).optional(),
  sale_id: z.coerce.number().int().positive().optional(),
  reservation_id: z.coerce.number().int().positive().optional(),
  customer_id: z.coerce.number().int().positive().optional(),
  from: isoDate.optional(),
  to: isoDate.optional(),
});
export type PaymentsQuery = z.infer<typeof paymentsQuerySchema>;

export const paymentsPageSchema = pagedResponseSchema(paymentSchema);
export const paymentResponseSchema = dataResponseSchema(paymentSchema);
