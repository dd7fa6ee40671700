import { assign, emit, fromPromise, setup, type ActorRefFrom } from 'xstate';
import { Temporal } from 'temporal-polyfill';
import type { ApiError } from '../../api/client';
import { planTerms, type QuotePlan } from '../../lib/comercio/quote-plan';
import {
  createQuoteRequestSchema,
  QUOTE_VALID_DAYS,
  type ChangeQuoteStatusRequest,
  type CreateQuoteRequest,
  type Quote,
} from '../../schemas/comercio/quotes';
import { errorMessage, fieldErrorsFrom, forwardSessionErrors } from '../shared/api-errors';
import type { CustomersApi } from '../../api/crm/customers';
import type { QuotesApi } from '../../api/comercio/quotes';
import type { AppToaster } from '../../lib/toaster';
import { searchActiveCustomers } from '../crm/customer-search';
import { saveQuotePdf } from './quote-pdf.machine';
import { createLookupMachine } from '../shared/lookup.machine';
import { placeholder } from '../shared/placeholder';
import type { ReservationCustomer } from './reservation-form.machine';
import type { LotOption } from '../../schemas/comercio/lot-options';
import { initialTermsValues, termsRequestFields, TERMS_REQUEST_FIELDS, type TermsValues } from './terms-form';

/**
 * "Cotizar" (issue "CRM and sales"): the quote dialog of a lot (staff maps, the lots list) or of a
 * customer (`quote.openForCustomer`: the lot is picked in the dialog, `quote.lot`). closed →
 * (`quote.open {lot, today}`) editing → (`quote.submit`) submitting → saved (the quote's number;
 * "Marcar como enviada" → sending → saved; "Descargar PDF" → downloading → saved) → closed. While editing, every change recomputes the
 * simulation (`plan`, src/lib/comercio/quote-plan.ts — the maths the server stores) or the reasons
 * it cannot be made (`planErrors`); the schedule shown is the one the quote will have. Amounts are
 * typed in soles or dollars and sent in céntimos; discount and down payment as an amount or a %.
 * Emits `saved {quote}` (XState v5 `emit`; listen with `actor.on('saved', …)`) when a quote is
 * stored or marked as sent, so a screen that lists quotes (a customer's detail) shows it.
 * A change while editing marks the form `dirty`: `quote.close` then asks first (`confirmingDiscard`:
 * `quote.discard` closes, `quote.keepEditing` goes back to the form as it was; docs/decisions.md
 * "Keyboard and focus").
 */

/** What the quote dialog emits: a quote stored or changed. */
export interface QuoteSavedEmitted {
  type: 'saved';
  quote: Quote;
}

/** The lot being quoted, as the map knows it. */
export interface QuoteLot {
  id: number;
  code: string;
  currency: 'PEN' | 'USD';
  /** Céntimos. */
  listPrice: number;
}

export type { AmountKind } from './terms-form';

/** The form's values as typed: the terms and the validity. */
export interface QuoteValues extends TermsValues {
  validDays: number;
}

export type QuoteField = keyof CreateQuoteRequest;

export interface QuoteFormContext {
  lot: QuoteLot | null;
  today: string;
  customer: ReservationCustomer | null;
  values: QuoteValues;
  plan: QuotePlan | null;
  /** Why the simulation cannot be made (by request field). */
  errors: Partial<Record<QuoteField, string>>;
  formError: string | null;
  saved: Quote | null;
  /** Whether the lot came with the dialog (a map or the lots list) or is picked in it (a customer's quote). */
  lotFixed: boolean;
  /** The user changed the form: closing asks "¿Descartar los cambios?" first. */
  dirty: boolean;
  customers: ActorRefFrom<ReturnType<typeof createLookupMachine<ReservationCustomer>>>;
  lots: ActorRefFrom<ReturnType<typeof createLookupMachine<LotOption>>>;
}

export type QuoteFormEvent =
  | { type: 'quote.open'; lot: QuoteLot; today: string }
  | { type: 'quote.openForCustomer'; customer: ReservationCustomer; today: string }
  | { type: 'quote.customer'; customer: ReservationCustomer | null }
  | { type: 'quote.lot'; lot: LotOption }
  | { type: 'quote.changed'; values: Partial<QuoteValues> }
  | { type: 'quote.submit' }
  | { type: 'quote.markSent' }
  | { type: 'quote.downloadPdf' }
  | { type: 'quote.close' }
  | { type: 'quote.discard' }
  | { type: 'quote.keepEditing' };

const initialValues = (today: string): QuoteValues => ({ ...initialTermsValues(today), validDays: QUOTE_VALID_DAYS.default });

/**
 * The form → the simulation (needs no customer) and, when everything holds, the POST body.
 * @returns `plan` null while the terms do not make a plan; `body` null while any field is wrong;
 *   `errors` the first message per request field.
 */
export function quoteBody(context: Pick<QuoteFormContext, 'lot' | 'customer' | 'values' | 'today'>): {
  body: CreateQuoteRequest | null;
  plan: QuotePlan | null;
  errors: Partial<Record<QuoteField, string>>;
} {
  const v = context.values;
  const terms = termsRequestFields(v);
  const errors: Partial<Record<QuoteField, string>> = { ...terms.errors };
  // The customer is checked apart: the simulation runs before one is chosen.
  const parsed = createQuoteRequestSchema.safeParse({
    lot_id: context.lot?.id ?? 0,
    customer_id: context.customer?.id ?? 1,
    ...terms.fields,
    valid_days: v.validDays,
  });
  if (!parsed.success) for (const issue of parsed.error.issues) errors[issue.path[0] as QuoteField] ??= issue.message;
  const customerError = {
    ...(context.customer ? {} : { customer_id: 'Seleccione el cliente' }),
    ...(context.lot ? {} : { lot_id: 'Seleccione el lote' }),
  };
  if (!context.lot || !parsed.success || Object.keys(errors).length > 0)
    return { body: null, plan: null, errors: { ...errors, ...customerError } };
  const t = parsed.data;
  const result = planTerms(t, context.lot.listPrice, Temporal.PlainDate.from(context.today));
  if (!result.ok) return { body: null, plan: null, errors: { ...result.errors, ...customerError } };
  return { body: context.customer ? t : null, plan: result.plan, errors: customerError };
}

/** The simulation after a change: the plan and the term errors (the customer is asked for on "Guardar"). */
const simulate = (context: Pick<QuoteFormContext, 'lot' | 'customer' | 'values' | 'today'>) => {
  const { plan, errors } = quoteBody(context);
  const { customer_id: _customer, lot_id: _lot, ...terms } = errors;
  return { plan, errors: terms };
};

/** The dialog's machine; provide `submit`, `markSent` and the `search` of its `customers` child. */
export function createQuoteFormMachine(
  customerLookup: ReturnType<typeof createLookupMachine<ReservationCustomer>>,
  lotLookup: ReturnType<typeof createLookupMachine<LotOption>>,
) {
  return setup({
    types: { context: {} as QuoteFormContext, events: {} as QuoteFormEvent, emitted: {} as QuoteSavedEmitted },
    actors: {
      customerLookup,
      lotLookup,
      submit: placeholder<Quote, { body: CreateQuoteRequest }>('submit'),
      markSent: placeholder<Quote, { id: number; body: ChangeQuoteStatusRequest }>('markSent'),
      /** GET the PDF and save it. */
      downloadPdf: placeholder<void, { quote: Quote }>('downloadPdf'),
    },
    actions: {
      showError: assign(({ event }) => {
        const error = (event as { error?: unknown }).error;
        const { fields, rest } = fieldErrorsFrom(error, ['customer_id', 'lot_id', ...TERMS_REQUEST_FIELDS] as const);
        const hasFields = Object.keys(fields).length > 0;
        return { errors: fields, formError: hasFields ? (rest[0] ?? null) : errorMessage(error) };
      }),
      reportApiError: (_, _error: ApiError) => {},
      done: (_, _quote: Quote) => {},
    },
    guards: {
      /** The form holds what the user typed or chose: closing asks first. */
      isDirty: ({ context }) => context.dirty,
    },
  }).createMachine({
    id: 'quoteForm',
    context: ({ spawn }) => ({
      lot: null,
      today: '1970-01-01',
      customer: null,
      values: initialValues('1970-01-01'),
      plan: null,
      errors: {},
      formError: null,
      saved: null,
      lotFixed: true,
      dirty: false,
      customers: spawn('customerLookup', { id: 'customers' }),
      lots: spawn('lotLookup', { id: 'lots' }),
    }),
    initial: 'closed',
    states: {
      closed: {
        on: {
          'quote.open': {
            target: 'editing',
            actions: assign(({ event }) => {
              const base = { lot: event.lot, today: event.today, customer: null, values: initialValues(event.today) };
              return { ...base, ...simulate(base), formError: null, saved: null, lotFixed: true, dirty: false };
            }),
          },
          'quote.openForCustomer': {
            target: 'editing',
            actions: assign(({ event }) => ({
              lot: null,
              today: event.today,
              customer: event.customer,
              values: initialValues(event.today),
              plan: null,
              errors: {},
              formError: null,
              saved: null,
              lotFixed: false,
              dirty: false,
            })),
          },
        },
      },
      editing: {
        on: {
          'quote.lot': {
            guard: ({ context }) => !context.lotFixed,
            actions: assign(({ event, context }) => {
              const lot = { id: event.lot.id, code: event.lot.code, currency: event.lot.currency, listPrice: event.lot.list_price };
              return { lot, ...simulate({ ...context, lot }), formError: null, dirty: true };
            }),
          },
          'quote.customer': {
            actions: assign(({ event, context }) => ({
              customer: event.customer,
              errors: { ...context.errors, customer_id: undefined },
              dirty: true,
            })),
          },
          'quote.changed': {
            actions: assign(({ event, context }) => {
              const next = { ...context, values: { ...context.values, ...event.values } };
              return { values: next.values, ...simulate(next), formError: null, dirty: true };
            }),
          },
          'quote.close': [{ guard: 'isDirty', target: 'confirmingDiscard' }, { target: 'closed' }],
          'quote.submit': [
            {
              guard: ({ context }) => quoteBody(context).body === null,
              actions: assign(({ context }) => ({ errors: quoteBody(context).errors, formError: null })),
            },
            { target: 'submitting', actions: assign({ formError: null }) },
          ],
        },
      },
      /** "¿Descartar los cambios?": the form stays as it was until the user answers. */
      confirmingDiscard: {
        on: { 'quote.discard': 'closed', 'quote.keepEditing': 'editing' },
      },
      submitting: {
        invoke: {
          src: 'submit',
          input: ({ context }) => {
            const { body } = quoteBody(context);
            if (!body) throw new Error('quote form: submitted without a valid body');
            return { body };
          },
          onDone: {
            target: 'saved',
            actions: [
              assign(({ event }) => ({ saved: event.output })),
              { type: 'done', params: ({ event }) => event.output },
              emit(({ event }) => ({ type: 'saved' as const, quote: event.output })),
            ],
          },
          onError: {
            target: 'editing',
            actions: ['showError', { type: 'reportApiError', params: ({ event }) => event.error as ApiError }],
          },
        },
      },
      saved: {
        on: {
          'quote.markSent': { guard: ({ context }) => context.saved?.status === 'BORRADOR', target: 'sending' },
          'quote.downloadPdf': 'downloading',
          'quote.close': 'closed',
        },
      },
      downloading: {
        invoke: {
          src: 'downloadPdf',
          input: ({ context }) => ({ quote: context.saved! }),
          onDone: { target: 'saved', actions: assign({ formError: null }) },
          onError: {
            target: 'saved',
            actions: [
              assign(({ event }) => ({ formError: errorMessage(event.error) })),
              { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
            ],
          },
        },
      },
      sending: {
        invoke: {
          src: 'markSent',
          input: ({ context }) => ({
            id: context.saved!.id,
            body: { status: 'ENVIADA' as const, ...(context.saved!.version === undefined ? {} : { version: context.saved!.version }) },
          }),
          onDone: {
            target: 'saved',
            actions: [
              assign(({ event }) => ({ saved: event.output, formError: null })),
              emit(({ event }) => ({ type: 'saved' as const, quote: event.output })),
            ],
          },
          onError: {
            target: 'saved',
            actions: [
              assign(({ event }) => ({ formError: errorMessage(event.error) })),
              { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
            ],
          },
        },
      },
    },
  });
}
export type QuoteFormMachine = ReturnType<typeof createQuoteFormMachine>;

/** The dialog's machine provided with its calls. */
export function provideQuoteForm(deps: {
  searchCustomers: (text: string) => Promise<ReservationCustomer[]>;
  /** GET lot-options?q= (a quote made from a customer picks its lot). */
  searchLots: (text: string) => Promise<LotOption[]>;
  create: (body: CreateQuoteRequest) => Promise<Quote>;
  changeStatus: (id: number, body: ChangeQuoteStatusRequest) => Promise<Quote>;
  /** GET the quote's PDF and save it as `COT-….pdf`. */
  downloadPdf: (quote: Quote) => Promise<void>;
  reportApiError: (error: ApiError) => void;
  toast: (quote: Quote) => void;
}) {
  const lookup = createLookupMachine<ReservationCustomer>('quoteCustomers').provide({
    actors: { search: fromPromise(({ input }) => deps.searchCustomers(input.text)) },
  });
  const lots = createLookupMachine<LotOption>('quoteLots').provide({
    actors: { search: fromPromise(({ input }) => deps.searchLots(input.text)) },
  });
  return createQuoteFormMachine(lookup, lots).provide({
    actors: {
      submit: fromPromise(({ input }) => deps.create(input.body)),
      markSent: fromPromise(({ input }) => deps.changeStatus(input.id, input.body)),
      downloadPdf: fromPromise(({ input }) => deps.downloadPdf(input.quote)),
    },
    actions: {
      reportApiError: (_, error) => deps.reportApiError(error),
      done: (_, quote) => deps.toast(quote),
    },
  });
}

const unavailable = () => Promise.reject(new Error('quotes are not available here'));
/** The quote calls of an app built without them (view tests of other screens): every call fails. */
export const QUOTES_UNAVAILABLE: Pick<QuotesApi, 'create' | 'changeStatus' | 'pdf'> = {
  create: unavailable,
  changeStatus: unavailable,
  pdf: unavailable,
};

/**
 * The quote dialog's machine over the apis (the maps' lot panel and the lots list): customer search,
 * POST quotes, "Marcar como enviada", the PDF saved as COT-….pdf, a toast when saved.
 */
export function quoteDialogFor(deps: {
  customersApi: Pick<CustomersApi, 'list'>;
  quotesApi: Pick<QuotesApi, 'create' | 'changeStatus' | 'pdf'>;
  /** GET lot-options (absent where the lot always comes with the dialog: picking one then fails). */
  lotOptions?: (text: string) => Promise<LotOption[]>;
  reportApiError: (error: ApiError) => void;
  toaster: Pick<AppToaster, 'show'>;
  /** Saves a downloaded file (defaults to a download link). */
  saveBlob?: (blob: Blob, fileName: string) => void;
}) {
  return provideQuoteForm({
    searchCustomers: searchActiveCustomers(deps.customersApi),
    searchLots: deps.lotOptions ?? (() => Promise.resolve([])),
    create: deps.quotesApi.create,
    changeStatus: deps.quotesApi.changeStatus,
    downloadPdf: (q) => saveQuotePdf(deps.quotesApi.pdf, q, deps.saveBlob),
    reportApiError: forwardSessionErrors(deps.reportApiError),
    toast: (q) =>
      deps.toaster.show({
        severity: 'success',
        summary: 'Cotización guardada',
        detail: `${q.number}: ${q.lot.code} para ${q.customer.display_name}`,
      }),
  });
}
