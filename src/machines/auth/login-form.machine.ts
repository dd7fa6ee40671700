import { assign, setup } from 'xstate';
import { loginRequestSchema, type LoginRequest, type UserType } from '../../schemas/session';

/**
 * `login-form` machine (issue "Foundation"; docs/product.md §3 "Login request"): the field values, the
 * show/hide password toggle and the client-side field errors of the staff and customer login
 * forms. A valid submit runs the named action `submitLogin` (wired to the session machine's
 * `session.login`); the session holds the call's progress and the server's message.
 */

export type LoginField = 'user' | 'password';

export interface LoginFormContext {
  userType: UserType;
  user: string;
  password: string;
  showPassword: boolean;
  errors: Partial<Record<LoginField, string>>;
}

export interface LoginFormInput {
  userType: UserType;
  /** Prefilled user (the customer's document number after registration). */
  user?: string;
}

export type LoginFormEvent =
  { type: 'field.change'; field: LoginField; value: string } | { type: 'password.toggle' } | { type: 'form.submit' };

/** Field messages per user type: customers log in with their document number. */
const USER_REQUIRED: Record<UserType, string> = {
  COLLABORATOR: 'Ingrese su DNI o correo electrónico',
  CUSTOMER: 'Ingrese su número de documento',
};

/**
 * Validates the form with the shared `loginRequestSchema`.
 * @returns the request when valid, else the Spanish message per field.
 */
export function validateLogin(
  ctx: Pick<LoginFormContext, 'user' | 'password' | 'userType'>,
): { ok: true; request: LoginRequest } | { ok: false; errors: Partial<Record<LoginField, string>> } {
  const parsed = loginRequestSchema.safeParse({ user: ctx.user, password: ctx.password, user_type: ctx.userType });
  if (parsed.success) return { ok: true, request: parsed.data };
  const errors: Partial<Record<LoginField, string>> = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if (field === 'user') errors.user ??= USER_REQUIRED[ctx.userType];
    else if (field === 'password') errors.password ??= issue.message;
  }
  return { ok: false, errors };
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
  },
  guards: {
    isValid: ({ context }) => validateLogin(context).ok,
  },
}).createMachine({
  id: 'loginForm',
  context: ({ input }) => ({
    userType: input.userType,
    user: input.user ?? '',
    password: '',
    showPassword: false,
    errors: {},
  }),
  initial: 'editing',
  states: {
    editing: {
      on: {
        'field.change': {
          actions: [
            assign(({ context, event }) => ({
              [event.field]: event.value,
              errors: { ...context.errors, [event.field]: undefined },
            })),
            'clearServerError',
          ],
        },
        'password.toggle': { actions: assign({ showPassword: ({ context }) => !context.showPassword }) },
        'form.submit': [
          {
            guard: 'isValid',
            actions: [
              assign({ errors: {} }),
              {
                type: 'submitLogin',
                params: ({ context }) => {
                  const result = validateLogin(context);
                  if (!result.ok) throw new Error('unreachable: guarded by isValid');
                  return result.request;
                },
              },
            ],
          },
          {
            actions: assign({
              errors: ({ context }) => {
                const result = validateLogin(context);
                return result.ok ? {} : result.errors;
              },
            }),
          },
        ],
      },
    },
  },
});

export type LoginFormMachine = typeof loginFormMachine;
