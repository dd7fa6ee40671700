import { assign, emit, fromPromise, setup, type ActorRefFrom } from 'xstate';
import type { ApiError } from '../../api/client';
import { parseMoneyInput } from '../../lib/money';
import {
  createReservationRequestSchema,
  HOLD_DAYS,
  type CreateReservationRequest,
  type Reservation,
} from '../../schemas/comercio/reservations';
import type { Lot } from '../../schemas/proyectos/projects';
import { errorMessage, fieldErrorsFrom } from '../shared/api-errors';
import { createLookupMachine } from '../shared/lookup.machine';
import { placeholder } from '../shared/placeholder';

/**
 * "Separar" (issue "CRM and sales"): the reservation dialog of a lot on the staff maps. closed →
 * (`reserve.open {lot}`) editing → (`reserve.submit`) submitting → closed, emitting `reserved`
 * with the reservation and the lot as it is now (SEPARADO), so the page recolours the map. The
 * customer comes from a search (`customers`, a lookup child); the amount is typed in soles or
 * dollars and sent in céntimos; the conditions must be accepted (RESERVATION_CONDITIONS). A 422
 * lands on its fields; a 409 (another agent took the lot first) shows its message in the dialog.
 * A change marks the form `dirty`: `reserve.close` then asks first (`confirmingDiscard`:
 * `reserve.discard` closes, `reserve.keepEditing` goes back to the form; docs/decisions.md
 * "Keyboard and focus").
 */

/** The lot being reserved, as the map knows it. */
export interface ReservationLot {
  id: number;
  code: string;
  currency: 'PEN' | 'USD';
}

/** A customer offered by the search. */
export interface ReservationCustomer {
  id: number;
  display_name: string;
  document_number: string;
}

export type ReservationField = 'customer_id' | 'amount' | 'hold_days' | 'conditions_accepted';
const FIELDS: readonly ReservationField[] = ['customer_id', 'amount', 'hold_days', 'conditions_accepted'];

export interface ReservationFormContext {
  lot: ReservationLot | null;
  customer: ReservationCustomer | null;
  amountText: string;
  holdDays: number;
  accepted: boolean;
  errors: Partial<Record<ReservationField, string>>;
  formError: string | null;
  /** The user changed the form: closing asks "¿Descartar los cambios?" first. */
  dirty: boolean;
  customers: ActorRefFrom<ReturnType<typeof createLookupMachine<ReservationCustomer>>>;
}

export type ReservationFormEvent =
  | { type: 'reserve.open'; lot: ReservationLot }
  | { type: 'reserve.customer'; customer: ReservationCustomer | null }
  | { type: 'reserve.amount'; text: string }
  | { type: 'reserve.holdDays'; days: number }
  | { type: 'reserve.accept'; accepted: boolean }
  | { type: 'reserve.submit' }
  | { type: 'reserve.close' }
  | { type: 'reserve.discard' }
  | { type: 'reserve.keepEditing' };

export type ReservationFormEmitted = { type: 'reserved'; reservation: Reservation; lot: Lot } | { type: 'lotTaken'; lotId: number };

/** The form's values → the POST body, or the first message per field. */
export function reservationBody(
  context: Pick<ReservationFormContext, 'lot' | 'customer' | 'amountText' | 'holdDays' | 'accepted'>,
): { body: CreateReservationRequest } | { errors: Partial<Record<ReservationField, string>> } {
  const amount = parseMoneyInput(context.amountText);
  const parsed = createReservationRequestSchema.safeParse({
    customer_id: context.customer?.id ?? 0,
    lot_id: context.lot?.id ?? 0,
    amount: amount ?? Number.NaN,
    hold_days: context.holdDays,
    conditions_accepted: context.accepted,
  });
  if (parsed.success) return { body: parsed.data };
  const errors: Partial<Record<ReservationField, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as ReservationField;
    if (FIELDS.includes(field)) errors[field] ??= issue.message;
  }
  if (amount === null) errors.amount = context.amountText.trim() === '' ? 'Ingrese el monto' : 'Monto no válido (ej. 500.00)';
  return { errors };
}

/** The dialog's machine; provide `submit` (POST, then the lot's GET) and `search` of its `customers` child. */
export function createReservationFormMachine(customerLookup: ReturnType<typeof createLookupMachine<ReservationCustomer>>) {
  return setup({
    types: {
      context: {} as ReservationFormContext,
      events: {} as ReservationFormEvent,
      emitted: {} as ReservationFormEmitted,
    },
    actors: {
      customerLookup,
      submit: placeholder<{ reservation: Reservation; lot: Lot }, { body: CreateReservationRequest }>('submit'),
    },
    actions: {
      /** A refused save: a 422's messages on their fields, anything else as the dialog's message. */
      showError: assign(({ event }) => {
        const error = (event as { error?: unknown }).error;
        const { fields, rest } = fieldErrorsFrom(error, FIELDS);
        const hasFields = Object.keys(fields).length > 0;
        return { errors: fields, formError: hasFields ? (rest[0] ?? null) : errorMessage(error) };
      }),
      reportApiError: (_, _error: ApiError) => {},
      done: (_, _p: { reservation: Reservation }) => {},
    },
  }).createMachine({
    id: 'reservationForm',
    context: ({ spawn }) => ({
      lot: null,
      customer: null,
      amountText: '',
      holdDays: HOLD_DAYS.default,
      accepted: false,
      errors: {},
      formError: null,
      dirty: false,
      customers: spawn('customerLookup', { id: 'customers' }),
    }),
    initial: 'closed',
    states: {
      closed: {
        on: {
          'reserve.open': {
            target: 'editing',
            actions: assign(({ event }) => ({
              lot: event.lot,
              customer: null,
              amountText: '',
              holdDays: HOLD_DAYS.default,
              accepted: false,
              errors: {},
              formError: null,
              dirty: false,
            })),
          },
        },
      },
      editing: {
        on: {
          'reserve.customer': {
            actions: assign(({ event, context }) => ({
              customer: event.customer,
              errors: { ...context.errors, customer_id: undefined },
              dirty: true,
            })),
          },
          'reserve.amount': {
            actions: assign(({ event, context }) => ({
              amountText: event.text,
              errors: { ...context.errors, amount: undefined },
              dirty: true,
            })),
          },
          'reserve.holdDays': {
            actions: assign(({ event, context }) => ({
              holdDays: event.days,
              errors: { ...context.errors, hold_days: undefined },
              dirty: true,
            })),
          },
          'reserve.accept': {
            actions: assign(({ event, context }) => ({
              accepted: event.accepted,
              errors: { ...context.errors, conditions_accepted: undefined },
              dirty: true,
            })),
          },
          'reserve.close': [{ guard: ({ context }) => context.dirty, target: 'confirmingDiscard' }, { target: 'closed' }],
          'reserve.submit': [
            {
              guard: ({ context }) => 'errors' in reservationBody(context),
              actions: assign(({ context }) => {
                const result = reservationBody(context);
                return { errors: 'errors' in result ? result.errors : {}, formError: null };
              }),
            },
            { target: 'submitting', actions: assign({ errors: {}, formError: null }) },
          ],
        },
      },
      /** "¿Descartar los cambios?": the form stays as it was until the user answers. */
      confirmingDiscard: {
        on: { 'reserve.discard': 'closed', 'reserve.keepEditing': 'editing' },
      },
      submitting: {
        invoke: {
          src: 'submit',
          input: ({ context }) => {
            const result = reservationBody(context);
            if (!('body' in result)) throw new Error('reservation form: submitted without a valid body');
            return { body: result.body };
          },
          onDone: {
            target: 'closed',
            actions: [
              emit(({ event }) => ({ type: 'reserved' as const, reservation: event.output.reservation, lot: event.output.lot })),
              { type: 'done', params: ({ event }) => ({ reservation: event.output.reservation }) },
            ],
          },
          onError: {
            target: 'editing',
            actions: ['showError', { type: 'reportApiError', params: ({ event }) => event.error as ApiError }],
          },
        },
      },
    },
  });
}
export type ReservationFormMachine = ReturnType<typeof createReservationFormMachine>;

/** The dialog's machine provided with its calls. */
export function provideReservationForm(deps: {
  searchCustomers: (text: string) => Promise<ReservationCustomer[]>;
  reserve: (body: CreateReservationRequest) => Promise<Reservation>;
  lot: (id: number) => Promise<Lot>;
  reportApiError: (error: ApiError) => void;
  toast: (reservation: Reservation) => void;
}) {
  const lookup = createLookupMachine<ReservationCustomer>('reservationCustomers').provide({
    actors: { search: fromPromise(({ input }) => deps.searchCustomers(input.text)) },
  });
  return createReservationFormMachine(lookup).provide({
    actors: {
      submit: fromPromise(async ({ input }) => {
        const reservation = await deps.reserve(input.body);
        return { reservation, lot: await deps.lot(reservation.lot.id) };
      }),
    },
    actions: {
      reportApiError: (_, error) => deps.reportApiError(error),
      done: (_, { reservation }) => deps.toast(reservation),
    },
  });
}
