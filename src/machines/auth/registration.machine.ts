import { assign, setup } from 'xstate';
import { createRegistrationSchema, type RegistrationRequest } from '../../schemas/session';
import { placeholder } from '../shared/placeholder';
import { errorMessage, fieldErrorsFrom } from '../shared/api-errors';
import type { ToastMessage } from '../../lib/toaster';

/**
 * `registration` machine (issue "Foundation"; docs/product.md §3 "Customer registration", §7 row 1).
 *
 * editing → validating (the same zod schema as the server: `createRegistrationSchema(today)`) →
 * submitting → done | rejected. A 422's field errors land on their fields; success toasts the
 * server's message and ends with the document number, which the customer-access machine
 * prefills in the login tab.
 */

/** Form fields, in the order the form shows them (docs/product.md §3). */
export const REGISTRATION_FIELDS = [
  'id_document_type',
  'document_number',
  'name',
  'surname',
  'birthday_date',
  'email',
  'phone',
  'password',
] as const;
export type RegistrationField = (typeof REGISTRATION_FIELDS)[number];
export type RegistrationValues = Record<RegistrationField, string>;
export type RegistrationErrors = Partial<Record<RegistrationField, string>>;

export interface RegistrationContext {
  values: RegistrationValues;
  errors: RegistrationErrors;
  /** Server message that belongs to no field (or a network error), shown in a Callout. */
  formError: string | null;
  /** Today's date in America/Lima (`todayInLima()`), for the age rule. */
  today: string;
  /** The validated request, set by `validating`. */
  request: RegistrationRequest | null;
  /** The server's success message (row 1). */
  successMessage: string | null;
  /** The password field shows its text. */
  showPassword: boolean;
}

export interface RegistrationInput {
  /** ISO date in America/Lima. */
  today: string;
}

/** Output of `done`: what the login tab needs. */
export interface RegistrationOutput {
  documentNumber: string;
  message: string;
}

export type RegistrationEvent =
  { type: 'field.change'; field: RegistrationField; value: string } | { type: 'password.toggle' } | { type: 'form.submit' };

/** Empty form; DNI ('1', SUNAT catalogue 06) preselected. */
export const EMPTY_REGISTRATION: RegistrationValues = {
  id_document_type: '1',
  document_number: '',
  name: '',
  surname: '',
  birthday_date: '',
  email: '',
  phone: '',
  password: '',
};

/** Shown when the birthday is left empty. */
export const BIRTHDAY_REQUIRED_MESSAGE = 'Ingrese su fecha de nacimiento';

/**
 * Client validation with the server's schema (plus a friendlier message for an empty birthday).
 * @returns the parsed request, or the first Spanish message per field.
 */
export function validateRegistration(
  values: RegistrationValues,
  today: string,
): { ok: true; request: RegistrationRequest } | { ok: false; errors: RegistrationErrors } {
  const parsed = createRegistrationSchema(today).safeParse(values);
  if (parsed.success) return { ok: true, request: parsed.data };
  const errors: RegistrationErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as RegistrationField | undefined;
    if (field && (REGISTRATION_FIELDS as readonly string[]).includes(field)) errors[field] ??= issue.message;
  }
  // An empty date input reads better as a request than as "Fecha inválida".
  if (values.birthday_date.trim() === '') errors.birthday_date = BIRTHDAY_REQUIRED_MESSAGE;
  return { ok: false, errors };
}

export const registrationMachine = setup({
  types: {
    context: {} as RegistrationContext,
    events: {} as RegistrationEvent,
    input: {} as RegistrationInput,
    output: {} as RegistrationOutput,
  },
  actions: {
    /** Shows a toast (Blueprint toaster, injected). */
    notify: (_, _toast: ToastMessage) => {},
  },
  actors: {
    /** Row 1: POST register_user_customer. @returns the server's message. */
    registerCustomer: placeholder<{ message: string }, RegistrationRequest>('registerCustomer'),
  },
  guards: {
    hasNoErrors: ({ context }) => context.request !== null,
  },
}).createMachine({
  id: 'registration',
  context: ({ input }) => ({
    values: { ...EMPTY_REGISTRATION },
    errors: {},
    formError: null,
    today: input.today,
    request: null,
    successMessage: null,
    showPassword: false,
  }),
  initial: 'editing',
  output: ({ context }) => ({
    documentNumber: context.request?.document_number ?? context.values.document_number,
    message: context.successMessage ?? '',
  }),
  on: {
    'password.toggle': { actions: assign({ showPassword: ({ context }) => !context.showPassword }) },
    'field.change': {
      target: '.editing',
      actions: assign(({ context, event }) => ({
        values: { ...context.values, [event.field]: event.value },
        errors: { ...context.errors, [event.field]: undefined },
      })),
    },
  },
  states: {
    editing: {
      on: { 'form.submit': 'validating' },
    },
    validating: {
      entry: assign(({ context }) => {
        const result = validateRegistration(context.values, context.today);
        return result.ok
          ? { request: result.request, errors: {}, formError: null }
          : { request: null, errors: result.errors, formError: null };
      }),
      always: [{ guard: 'hasNoErrors', target: 'submitting' }, { target: 'editing' }],
    },
    submitting: {
      on: { 'field.change': {} },
      invoke: {
        src: 'registerCustomer',
        input: ({ context }) => context.request!,
        onDone: {
          target: 'done',
          actions: [
            assign({ formError: null, successMessage: ({ event }) => event.output.message }),
            {
              type: 'notify',
              params: ({ event }) => ({ severity: 'success' as const, summary: event.output.message, life: 3000 }),
            },
          ],
        },
        onError: {
          target: 'rejected',
          actions: assign(({ event }) => {
            const { fields, rest } = fieldErrorsFrom(event.error, REGISTRATION_FIELDS);
            const hasFieldErrors = Object.keys(fields).length > 0;
            return {
              errors: fields,
              formError: rest.length > 0 ? rest.join(' ') : hasFieldErrors ? null : errorMessage(event.error),
            };
          }),
        },
      },
    },
    /** The server refused: its messages are on the fields (422) or in `formError`. */
    rejected: {
      on: { 'form.submit': 'validating' },
    },
    done: { type: 'final' },
  },
});

export type RegistrationMachine = typeof registrationMachine;
