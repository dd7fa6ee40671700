import { assign, emit, fromPromise, setup, type ActorRefFrom } from 'xstate';
import type { ApiError } from '../../api/client';
import { centsToInput, parseMoneyInput } from '../../lib/money';
import type { BankAccount } from '../../schemas/finanzas/bank-accounts';
import {
  BANK_METHODS,
  MAX_VOUCHERS,
  PAYMENT_MESSAGES,
  WALLET_METHODS,
  createPaymentRequestSchema,
  type CreatePaymentRequest,
  type Payment,
  type PaymentMethod,
} from '../../schemas/finanzas/payments';
import type { Wallet } from '../../schemas/finanzas/wallets';
import { errorMessage, fieldErrorsFrom } from '../shared/api-errors';
import { createLookupMachine } from '../shared/lookup.machine';
import { placeholder } from '../shared/placeholder';
import { voucherFileError } from './payment-detail.machine';

/**
 * "Registrar pago" on Finanzas → Pagos (issue 16: "Staff can also register a payment received at
 * the office (cash, transfer, deposit) for a sale or a reservation"): closed → (`form.open`) editing
 * → (`form.submit`, the values valid) submitting → closed, emitting `registered {payment}`.
 *
 * What is paid comes from a search: a sale (`sales` lookup: GET sales?q=, live sales only) or a
 * reservation waiting for its payment (`reservations` lookup: GET reservations?status=PENDIENTE_PAGO&q=);
 * a reservation is paid by its exact amount, so choosing one fills the amount. The payer is a holder
 * of the sale (default the first TITULAR) or the reservation's customer. The amount is typed in the
 * sale's currency and sent in céntimos (src/lib/money.ts parseMoneyInput). The destination depends on
 * the method (src/schemas/finanzas/payments.ts): an active bank account of the same currency for
 * TRANSFERENCIA / DEPOSITO (optional for TARJETA), an active wallet of the same kind for YAPE / PLIN,
 * none for EFECTIVO; the operation number is required except for EFECTIVO; the date is not future.
 * The voucher images (PNG, JPEG, WebP ≤ 5 MB, at most {@link MAX_VOUCHERS}) are uploaded one by one
 * after the payment is created. A 422 lands on its fields; anything else shows in the dialog.
 * The options (bank accounts, wallets) are read when the dialog opens. A change marks the form
 * `dirty`: `form.close` then asks first (`confirmingDiscard`: `form.discard` closes,
 * `form.keepEditing` goes back to the form; docs/decisions.md "Keyboard and focus").
 */

/** A sale offered by the search (from GET sales). */
export interface SaleOption {
  id: number;
  number: string;
  lot_code: string;
  subdivision_name: string;
  currency: 'PEN' | 'USD';
  balance: number;
  holders: { id: number; display_name: string; document_number: string; role: string }[];
}

/** A reservation offered by the search (from GET reservations?status=PENDIENTE_PAGO). */
export interface ReservationOption {
  id: number;
  number: string;
  lot_code: string;
  subdivision_name: string;
  currency: 'PEN' | 'USD';
  amount: number;
  customer: { id: number; display_name: string; document_number: string };
}

/** The destinations a payment may name (active ones). */
export interface PaymentFormOptions {
  bankAccounts: BankAccount[];
  wallets: Wallet[];
}

export type PaymentTarget = 'sale' | 'reservation';

export type PaymentFormField =
  | 'sale_id'
  | 'reservation_id'
  | 'customer_id'
  | 'amount'
  | 'method'
  | 'bank_account_id'
  | 'wallet_id'
  | 'operation_number'
  | 'operation_date'
  | 'note'
  | 'vouchers';
const FIELDS: readonly PaymentFormField[] = [
  'sale_id',
  'reservation_id',
  'customer_id',
  'amount',
  'method',
  'bank_account_id',
  'wallet_id',
  'operation_number',
  'operation_date',
  'note',
  'vouchers',
];

/** What the person has typed and chosen. */
export interface PaymentFormValues {
  target: PaymentTarget;
  sale: SaleOption | null;
  reservation: ReservationOption | null;
  customerId: number | null;
  amountText: string;
  method: PaymentMethod | '';
  bankAccountId: number | null;
  walletId: number | null;
  operationNumber: string;
  operationDate: string;
  note: string;
  files: File[];
}

export interface PaymentFormContext extends PaymentFormValues {
  options: PaymentFormOptions;
  optionsError: string | null;
  errors: Partial<Record<PaymentFormField, string>>;
  formError: string | null;
  /** The person changed the form: closing asks "¿Descartar los cambios?" first. */
  dirty: boolean;
  sales: ActorRefFrom<ReturnType<typeof createLookupMachine<SaleOption>>>;
  reservations: ActorRefFrom<ReturnType<typeof createLookupMachine<ReservationOption>>>;
}

export type PaymentFormEvent =
  | { type: 'form.open' }
  | { type: 'form.close' }
  | { type: 'form.discard' }
  | { type: 'form.keepEditing' }
  | { type: 'form.target'; target: PaymentTarget }
  | { type: 'form.sale'; sale: SaleOption | null }
  | { type: 'form.reservation'; reservation: ReservationOption | null }
  | { type: 'form.customer'; id: number }
  | { type: 'form.amount'; text: string }
  | { type: 'form.method'; method: PaymentMethod | '' }
  | { type: 'form.bankAccount'; id: number | null }
  | { type: 'form.wallet'; id: number | null }
  | { type: 'form.operationNumber'; text: string }
  | { type: 'form.operationDate'; date: string }
  | { type: 'form.note'; text: string }
  | { type: 'form.addFiles'; files: File[] }
  | { type: 'form.removeFile'; index: number }
  | { type: 'form.submit' };

/** The currency of what is paid (the sale's or the reservation's), or null before choosing. */
export function targetCurrency(values: Pick<PaymentFormValues, 'target' | 'sale' | 'reservation'>): 'PEN' | 'USD' | null {
  return (values.target === 'sale' ? values.sale?.currency : values.reservation?.currency) ?? null;
}

/** The bank accounts a method may name: active, in the currency paid (all active ones before choosing what is paid). */
export function bankAccountChoices(options: PaymentFormOptions, currency: 'PEN' | 'USD' | null): BankAccount[] {
  return options.bankAccounts.filter((a) => a.active && (currency === null || a.currency === currency));
}

/** The wallets a method may name: active, of the method's kind (Yape for YAPE, Plin for PLIN). */
export function walletChoices(options: PaymentFormOptions, method: PaymentMethod | ''): Wallet[] {
  return options.wallets.filter((w) => w.active && w.kind === method);
}

/** Which destination `method` takes: a bank account (required or optional), a wallet, or none. */
export function destinationOf(method: PaymentMethod | ''): 'bank' | 'optionalBank' | 'wallet' | 'none' {
  if (method === '') return 'none';
  if (BANK_METHODS.includes(method)) return 'bank';
  if (WALLET_METHODS.includes(method)) return 'wallet';
  return method === 'TARJETA' ? 'optionalBank' : 'none';
}

/**
 * The form's values → the POST body, or the first message per field (the request schema's, plus
 * what it leaves to the server: the destination the method needs, the operation number, a future date).
 * @param today ISO date in America/Lima.
 */
export function paymentBody(
  values: PaymentFormValues,
  today: string,
): { body: CreatePaymentRequest } | { errors: Partial<Record<PaymentFormField, string>> } {
  const errors: Partial<Record<PaymentFormField, string>> = {};
  const amount = parseMoneyInput(values.amountText);
  const destination = destinationOf(values.method);
  const candidate: Record<string, unknown> = {
    ...(values.target === 'sale' ? { sale_id: values.sale?.id ?? 0 } : { reservation_id: values.reservation?.id ?? 0 }),
    ...(values.customerId !== null ? { customer_id: values.customerId } : {}),
    amount: amount ?? Number.NaN,
    method: values.method === '' ? undefined : values.method,
    ...(destination === 'bank' || (destination === 'optionalBank' && values.bankAccountId !== null)
      ? { bank_account_id: values.bankAccountId }
      : {}),
    ...(destination === 'wallet' ? { wallet_id: values.walletId } : {}),
    ...(values.method !== 'EFECTIVO' && values.operationNumber.trim() !== '' ? { operation_number: values.operationNumber } : {}),
    operation_date: values.operationDate,
    ...(values.note.trim() !== '' ? { note: values.note } : {}),
  };
  const parsed = createPaymentRequestSchema.safeParse(candidate);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as PaymentFormField;
      if (FIELDS.includes(field)) errors[field] ??= issue.message;
    }
  }
  if (values.target === 'sale' && !values.sale) errors.sale_id = PAYMENT_MESSAGES.target;
  if (values.target === 'reservation' && !values.reservation) errors.reservation_id = PAYMENT_MESSAGES.target;
  if (values.target === 'reservation') delete errors.sale_id;
  if (amount === null) errors.amount = values.amountText.trim() === '' ? 'Ingrese el monto' : 'Monto no válido (ej. 500.00)';
  else if (amount === 0) errors.amount = PAYMENT_MESSAGES.amount;
  if (destination === 'bank' && values.bankAccountId === null) errors.bank_account_id = PAYMENT_MESSAGES.bankAccount;
  if (destination === 'wallet' && values.walletId === null) errors.wallet_id = PAYMENT_MESSAGES.wallet;
  if (values.method !== '' && values.method !== 'EFECTIVO' && values.operationNumber.trim() === '')
    errors.operation_number = PAYMENT_MESSAGES.operationNumber;
  if (values.operationDate === '' || !/^\d{4}-\d{2}-\d{2}$/.test(values.operationDate))
    errors.operation_date = PAYMENT_MESSAGES.operationDate;
  else if (values.operationDate > today) errors.operation_date = PAYMENT_MESSAGES.futureDate;
  if (values.files.length > MAX_VOUCHERS) errors.vouchers = PAYMENT_MESSAGES.tooManyVouchers;
  if (Object.keys(errors).length > 0 || !parsed.success) return { errors };
  return { body: parsed.data };
}

/** What a submit answers: the payment registered and, when an image could not be uploaded, why. */
export interface PaymentRegistered {
  payment: Payment;
  uploadError: string | null;
}

const blankValues = (today: string): PaymentFormValues => ({
  target: 'sale',
  sale: null,
  reservation: null,
  customerId: null,
  amountText: '',
  method: '',
  bankAccountId: null,
  walletId: null,
  operationNumber: '',
  operationDate: today,
  note: '',
  files: [],
});

/** Clears one field's message (the person changed it). */
const clear = (context: PaymentFormContext, ...fields: PaymentFormField[]) => {
  const errors = { ...context.errors };
  for (const f of fields) delete errors[f];
  return errors;
};

/** The dialog's machine; provide `loadOptions`, `submit`, `today` (input) and the lookups' `search`. */
export function createPaymentFormMachine(
  saleLookup: ReturnType<typeof createLookupMachine<SaleOption>>,
  reservationLookup: ReturnType<typeof createLookupMachine<ReservationOption>>,
) {
  return setup({
    types: {
      context: {} as PaymentFormContext & { today: string },
      events: {} as PaymentFormEvent,
      emitted: {} as { type: 'registered'; payment: Payment },
      input: {} as { today: string },
    },
    actors: {
      saleLookup,
      reservationLookup,
      loadOptions: placeholder<PaymentFormOptions>('loadOptions'),
      submit: placeholder<PaymentRegistered, { body: CreatePaymentRequest; files: File[] }>('submit'),
    },
    actions: {
      showError: assign(({ event }) => {
        const error = (event as { error?: unknown }).error;
        const { fields, rest } = fieldErrorsFrom(error, FIELDS);
        const hasFields = Object.keys(fields).length > 0;
        return { errors: fields, formError: hasFields ? (rest[0] ?? null) : errorMessage(error) };
      }),
      reportApiError: (_, _error: ApiError) => {},
      done: (_, _p: PaymentRegistered) => {},
    },
  }).createMachine({
    id: 'paymentForm',
    context: ({ spawn, input }) => ({
      ...blankValues(input.today),
      today: input.today,
      options: { bankAccounts: [], wallets: [] },
      optionsError: null,
      errors: {},
      formError: null,
      dirty: false,
      sales: spawn('saleLookup', { id: 'sales' }),
      reservations: spawn('reservationLookup', { id: 'reservations' }),
    }),
    initial: 'closed',
    states: {
      closed: {
        on: {
          'form.open': {
            target: 'open',
            actions: assign(({ context }) => ({ ...blankValues(context.today), errors: {}, formError: null, dirty: false })),
          },
        },
      },
      open: {
        type: 'parallel',
        states: {
          options: {
            initial: 'loading',
            states: {
              loading: {
                invoke: {
                  src: 'loadOptions',
                  onDone: { target: 'ready', actions: assign(({ event }) => ({ options: event.output, optionsError: null })) },
                  onError: {
                    target: 'ready',
                    actions: [
                      assign(({ event }) => ({ optionsError: errorMessage(event.error) })),
                      { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
                    ],
                  },
                },
              },
              ready: {},
            },
          },
          form: {
            initial: 'editing',
            states: {
              editing: {
                on: {
                  'form.close': [{ guard: ({ context }) => context.dirty, target: 'confirmingDiscard' }, { target: '#paymentForm.closed' }],
                  'form.target': {
                    actions: assign(({ context, event }) => ({
                      target: event.target,
                      customerId: null,
                      bankAccountId: null,
                      errors: clear(context, 'sale_id', 'reservation_id', 'customer_id'),
                      dirty: true,
                    })),
                  },
                  'form.sale': {
                    actions: assign(({ context, event }) => {
                      const titular = event.sale?.holders.find((h) => h.role === 'TITULAR') ?? event.sale?.holders[0];
                      const keepAccount =
                        context.options.bankAccounts.find((a) => a.id === context.bankAccountId)?.currency === event.sale?.currency;
                      return {
                        sale: event.sale,
                        customerId: titular?.id ?? null,
                        bankAccountId: keepAccount ? context.bankAccountId : null,
                        errors: clear(context, 'sale_id', 'customer_id'),
                        dirty: true,
                      };
                    }),
                  },
                  'form.reservation': {
                    actions: assign(({ context, event }) => ({
                      reservation: event.reservation,
                      customerId: event.reservation?.customer.id ?? null,
                      // A reservation is paid by its exact amount.
                      amountText: event.reservation ? centsToInput(event.reservation.amount) : context.amountText,
                      bankAccountId: null,
                      errors: clear(context, 'reservation_id', 'customer_id', 'amount'),
                      dirty: true,
                    })),
                  },
                  'form.customer': {
                    actions: assign(({ context, event }) => ({ customerId: event.id, errors: clear(context, 'customer_id'), dirty: true })),
                  },
                  'form.amount': {
                    actions: assign(({ context, event }) => ({ amountText: event.text, errors: clear(context, 'amount'), dirty: true })),
                  },
                  'form.method': {
                    actions: assign(({ context, event }) => {
                      const destination = destinationOf(event.method);
                      const wallets = walletChoices(context.options, event.method);
                      const banks = bankAccountChoices(context.options, targetCurrency(context));
                      return {
                        method: event.method,
                        // One choice only: it is chosen.
                        walletId: destination === 'wallet' ? (wallets.length === 1 ? wallets[0]!.id : null) : null,
                        bankAccountId:
                          destination === 'bank' || destination === 'optionalBank'
                            ? (banks.find((a) => a.id === context.bankAccountId)?.id ??
                              (destination === 'bank' && banks.length === 1 ? banks[0]!.id : null))
                            : null,
                        errors: clear(context, 'method', 'bank_account_id', 'wallet_id', 'operation_number'),
                        dirty: true,
                      };
                    }),
                  },
                  'form.bankAccount': {
                    actions: assign(({ context, event }) => ({
                      bankAccountId: event.id,
                      errors: clear(context, 'bank_account_id'),
                      dirty: true,
                    })),
                  },
                  'form.wallet': {
                    actions: assign(({ context, event }) => ({ walletId: event.id, errors: clear(context, 'wallet_id'), dirty: true })),
                  },
                  'form.operationNumber': {
                    actions: assign(({ context, event }) => ({
                      operationNumber: event.text,
                      errors: clear(context, 'operation_number'),
                      dirty: true,
                    })),
                  },
                  'form.operationDate': {
                    actions: assign(({ context, event }) => ({
                      operationDate: event.date,
                      errors: clear(context, 'operation_date'),
                      dirty: true,
                    })),
                  },
                  'form.note': {
                    actions: assign(({ context, event }) => ({ note: event.text, errors: clear(context, 'note'), dirty: true })),
                  },
                  'form.addFiles': {
                    actions: assign(({ context, event }) => {
                      const refused = event.files.map(voucherFileError).find((m) => m !== null);
                      if (refused) return { errors: { ...context.errors, vouchers: refused } };
                      const files = [...context.files, ...event.files];
                      if (files.length > MAX_VOUCHERS) return { errors: { ...context.errors, vouchers: PAYMENT_MESSAGES.tooManyVouchers } };
                      return { files, errors: clear(context, 'vouchers'), dirty: true };
                    }),
                  },
                  'form.removeFile': {
                    actions: assign(({ context, event }) => ({
                      files: context.files.filter((_, i) => i !== event.index),
                      errors: clear(context, 'vouchers'),
                      dirty: true,
                    })),
                  },
                  'form.submit': [
                    {
                      guard: ({ context }) => 'errors' in paymentBody(context, context.today),
                      actions: assign(({ context }) => {
                        const result = paymentBody(context, context.today);
                        return { errors: 'errors' in result ? result.errors : {}, formError: null };
                      }),
                    },
                    { target: 'submitting', actions: assign({ errors: {}, formError: null }) },
                  ],
                },
              },
              /** "¿Descartar los cambios?": the form stays as it was until the person answers. */
              confirmingDiscard: {
                on: { 'form.discard': '#paymentForm.closed', 'form.keepEditing': 'editing' },
              },
              submitting: {
                invoke: {
                  src: 'submit',
                  input: ({ context }) => {
                    const result = paymentBody(context, context.today);
                    if (!('body' in result)) throw new Error('payment form: submitted without a valid body');
                    return { body: result.body, files: context.files };
                  },
                  onDone: {
                    target: '#paymentForm.closed',
                    actions: [
                      emit(({ event }) => ({ type: 'registered' as const, payment: event.output.payment })),
                      { type: 'done', params: ({ event }) => event.output },
                    ],
                  },
                  onError: {
                    target: 'editing',
                    actions: ['showError', { type: 'reportApiError', params: ({ event }) => event.error as ApiError }],
                  },
                },
              },
            },
          },
        },
      },
    },
  });
}
export type PaymentFormMachine = ReturnType<typeof createPaymentFormMachine>;

/** The dialog's machine provided with its calls. */
export function providePaymentForm(deps: {
  searchSales: (text: string) => Promise<SaleOption[]>;
  searchReservations: (text: string) => Promise<ReservationOption[]>;
  loadOptions: () => Promise<PaymentFormOptions>;
  create: (body: CreatePaymentRequest) => Promise<Payment>;
  uploadVoucher: (id: number, file: File) => Promise<Payment>;
  reportApiError: (error: ApiError) => void;
  done: (result: PaymentRegistered) => void;
}) {
  const sales = createLookupMachine<SaleOption>('paymentSales').provide({
    actors: { search: fromPromise(({ input }) => deps.searchSales(input.text)) },
  });
  const reservations = createLookupMachine<ReservationOption>('paymentReservations').provide({
    actors: { search: fromPromise(({ input }) => deps.searchReservations(input.text)) },
  });
  return createPaymentFormMachine(sales, reservations).provide({
    actors: {
      loadOptions: fromPromise(() => deps.loadOptions()),
      submit: fromPromise(async ({ input }) => {
        let payment = await deps.create(input.body);
        // The payment exists from here on: an image refused is said, not a reason to lose the payment.
        for (const file of input.files) {
          try {
            payment = await deps.uploadVoucher(payment.id, file);
          } catch (e) {
            return { payment, uploadError: `${file.name}: ${errorMessage(e)}` };
          }
        }
        return { payment, uploadError: null };
      }),
    },
    actions: {
      reportApiError: (_, error) => deps.reportApiError(error),
      done: (_, result) => deps.done(result),
    },
  });
}
