import { assign, fromPromise, setup } from 'xstate';
import { NETWORK_ERROR_MESSAGE } from '../../api/http';
import type { LoginRequest, UserType } from '../../schemas/session';
import type { LoginValidation } from './login-validation';

/**
 * `login-form` machine (issue "Foundation"; docs/product.md §3 "Login request"): the field values, the
 * show/hide password toggle and the client-side field errors of the staff and customer login
 * forms. A valid submit runs the named action `submitLogin` (wired to the session machine's
 * `session.login`); the session holds the call's progress and the server's message.
 *
 * The validation (the shared zod schema, ./login-validation.ts) is imported at the first submit,
 * not with the login page: zod is not in the page's entry chunk (docs/decisions.md "Compression
 * and the login budget"). Focusing the form (`form.focused`) runs the named `prepare`, which
 * starts fetching it and whatever else a submit needs while the user types.
 */

export type LoginField = 'user' | 'password';

export interface LoginFormContext {
  userType: UserType;
  user: string;
  password: string;
  showPassword: boolean;
  errors: Partial<Record<LoginField, string>>;
  /** The validation's code could not be fetched: the network message (cleared by an edit). */
  failure: string | null;
}

export interface LoginFormInput {
  userType: UserType;
  /** Prefilled user (the customer's document number after registration). */
  user?: string;
}

export type LoginFormEvent =
  | { type: 'field.change'; field: LoginField; value: string }
  | { type: 'password.toggle' }
  | { type: 'form.focused' }
  | { type: 'form.submit' };

/** Imports the validation module (./login-validation.ts); the first submit waits for it. */
const loadValidation = () => import('./login-validation');

/** Starts fetching the validation module (a failure is left to the submit, which tries again). */
export function preloadLoginValidation(): void {
  loadValidation().catch(() => {
    /* the submit imports it again and reports a failure */
  });
}

export const loginFormMachine = setup({
  types: {
    context: {} as LoginFormContext,
    events: {} as LoginFormEvent,
    input: {} as LoginFormInput,
  },
  actions: {
    /** Sends the request to the session (`session.login`); injected. */
    submitLogin: (_, _request: LoginRequest) => {},
    /** Clears the session's last login error when the user edits the form; injected. */
    clearServerError: () => {},
    /**
     * Starts fetching what a submit needs (the validation here; the app adds the session calls and
     * the api client's transport, src/machines/app-actors.ts).
     */
    prepare: () => preloadLoginValidation(),
  },
  actors: {
    /** Validates the fields with the shared schema, imported on first use. */
    validate: fromPromise<LoginValidation, Pick<LoginFormContext, 'user' | 'password' | 'userType'>>(async ({ input }) =>
      (await loadValidation()).validateLogin(input),
    ),
  },
}).createMachine({
  id: 'loginForm',
  context: ({ input }) => ({
    userType: input.userType,
    user: input.user ?? '',
    password: '',
    showPassword: false,
    errors: {},
    failure: null,
  }),
  initial: 'editing',
  on: {
    'field.change': {
      actions: [
        assign(({ context, event }) => ({
          [event.field]: event.value,
          errors: { ...context.errors, [event.field]: undefined },
          failure: null,
        })),
        'clearServerError',
      ],
    },
    'password.toggle': { actions: assign({ showPassword: ({ context }) => !context.showPassword }) },
  },
  states: {
    editing: {
      on: {
        'form.focused': { actions: 'prepare' },
        'form.submit': { target: 'validating', actions: 'prepare' },
      },
    },
    /** The fields as they were at the submit, checked by the shared schema (no second submit meanwhile). */
    validating: {
      invoke: {
        src: 'validate',
        input: ({ context }) => ({ user: context.user, password: context.password, userType: context.userType }),
        onDone: [
          {
            guard: ({ event }) => event.output.ok,
            target: 'editing',
            actions: [
              assign({ errors: {} }),
              {
                type: 'submitLogin',
                params: ({ event }) => {
                  if (!event.output.ok) throw new Error('unreachable: guarded by output.ok');
                  return event.output.request;
                },
              },
            ],
          },
          { target: 'editing', actions: assign({ errors: ({ event }) => (event.output.ok ? {} : event.output.errors) }) },
        ],
        onError: { target: 'editing', actions: assign({ failure: NETWORK_ERROR_MESSAGE }) },
      },
    },
  },
});

export type LoginFormMachine = typeof loginFormMachine;
