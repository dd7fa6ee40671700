import { assign, setup } from 'xstate';
import type { ToastMessage } from '../../lib/toaster';
import { placeholder } from '../shared/placeholder';
import { errorMessage, isSessionError } from '../shared/api-errors';

/**
 * The `change-password` machine (issue "Shell"; docs/product.md §2 "Change-password dialog", §3 password change
 * form, §5, §7 row 15, §8, §9). States: closed → open.editing → open.submitting → closed.
 * - any of the three fields empty → warning "DATOS INCOMPLETOS" / "Rellene todos los campos para continuar";
 * - new ≠ confirmation (client-side only) → warning "CONTRASEÑAS DISTINTAS" / "Los campos de la nueva
 *   contraseña debe de ser iguales";
 * - server failure → error toast "DESCRIPCIÓN" with the server's message; the dialog stays open
 *   with what was typed;
 * - a 401/402/404 is the session's (docs/product.md §7, issue 12 item 2): the api client has already sent the
 *   user to /auth/access, /auth/error or /auth/pago, so no toast; the dialog closes and the typed
 *   passwords are cleared (the actor outlives the page and must not reopen with them);
 * - success → success toast with the server's message; the dialog closes and the fields clear.
 * Toasts live 3000 ms (docs/product.md §9).
 */

/** Toast lifetime for validation and password messages (docs/product.md §9). */
export const PASSWORD_TOAST_LIFE_MS = 3000;

export const INCOMPLETE_TOAST: ToastMessage = {
  severity: 'warn',
  summary: 'DATOS INCOMPLETOS',
  detail: 'Rellene todos los campos para continuar',
  life: PASSWORD_TOAST_LIFE_MS,
};
export const MISMATCH_TOAST: ToastMessage = {
  severity: 'warn',
  summary: 'CONTRASEÑAS DISTINTAS',
  detail: 'Los campos de la nueva contraseña debe de ser iguales',
  life: PASSWORD_TOAST_LIFE_MS,
};

export interface PasswordFields {
  actual_password: string;
  new_password: string;
  confirmar_password: string;
}
export type PasswordField = keyof PasswordFields;

const EMPTY: PasswordFields = { actual_password: '', new_password: '', confirmar_password: '' };

export type PasswordStrength = 'Débil' | 'Medio' | 'Fuerte';

/**
 * Strength feedback of "Nueva Contraseña" (docs/product.md §2, labels of §9), with PrimeVue Password's default
 * rules (the original shell's widget): strong = lower + upper + digit and ≥ 8 characters; medium =
 * two of lower/upper/digit and ≥ 6; anything else weak. @returns null for an empty value
 * ("Ingrese una contraseña").
 */
export function passwordStrength(value: string): PasswordStrength | null {
  if (value === '') return null;
  const lower = /[a-z]/.test(value);
  const upper = /[A-Z]/.test(value);
  const digit = /[0-9]/.test(value);
  if (lower && upper && digit && value.length >= 8) return 'Fuerte';
  const kinds = [lower, upper, digit].filter(Boolean).length;
  if (kinds >= 2 && value.length >= 6) return 'Medio';
  return 'Débil';
}

export type ChangePasswordEvent =
  | { type: 'password.open' }
  | { type: 'password.close' }
  | { type: 'password.changed'; field: PasswordField; value: string }
  | { type: 'password.submit' };

export const changePasswordMachine = setup({
  types: {
    context: {} as { fields: PasswordFields },
    events: {} as ChangePasswordEvent,
  },
  actions: {
    /** Shows a toast (injected toaster). */
    notify: (_, _toast: ToastMessage) => {},
    setField: assign({
      fields: ({ context, event }) =>
        event.type === 'password.changed' ? { ...context.fields, [event.field]: event.value } : context.fields,
    }),
    clearFields: assign({ fields: { ...EMPTY } }),
  },
  actors: {
    /** Row 15: POST change_password_user {actual_password, new_password}; resolves to the server message. */
    changePassword: placeholder<{ message: string }, { actual_password: string; new_password: string }>('changePassword'),
  },
  guards: {
    isIncomplete: ({ context }) => Object.values(context.fields).some((v) => v === ''),
    isMismatch: ({ context }) => context.fields.new_password !== context.fields.confirmar_password,
    /** Row 15 failed with a 401/402/404, which the session handles (see api-errors.ts). */
    isSessionError: ({ event }) => isSessionError((event as { error?: unknown }).error),
  },
}).createMachine({
  id: 'changePassword',
  context: { fields: { ...EMPTY } },
  initial: 'closed',
  states: {
    closed: { on: { 'password.open': { target: 'open', actions: 'clearFields' } } },
    open: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            'password.close': { target: '#changePassword.closed', actions: 'clearFields' },
            'password.changed': { actions: 'setField' },
            'password.submit': [
              { guard: 'isIncomplete', actions: { type: 'notify', params: INCOMPLETE_TOAST } },
              { guard: 'isMismatch', actions: { type: 'notify', params: MISMATCH_TOAST } },
              { target: 'submitting' },
            ],
          },
        },
        /** Row 15 in flight: "Cambiar" shows its loading state; the dialog cannot close. */
        submitting: {
          invoke: {
            src: 'changePassword',
            input: ({ context }) => ({
              actual_password: context.fields.actual_password,
              new_password: context.fields.new_password,
            }),
            onDone: {
              target: '#changePassword.closed',
              actions: [
                {
                  type: 'notify',
                  params: ({ event }) => ({
                    severity: 'success',
                    summary: 'Contraseña actualizada',
                    detail: event.output.message,
                    life: PASSWORD_TOAST_LIFE_MS,
                  }),
                },
                'clearFields',
              ],
            },
            onError: [
              { guard: 'isSessionError', target: '#changePassword.closed', actions: 'clearFields' },
              {
                target: 'editing',
                actions: {
                  type: 'notify',
                  params: ({ event }) => ({
                    severity: 'error',
                    summary: 'DESCRIPCIÓN',
                    detail: errorMessage(event.error),
                    life: PASSWORD_TOAST_LIFE_MS,
                  }),
                },
              },
            ],
          },
        },
      },
    },
  },
});

export type ChangePasswordMachine = typeof changePasswordMachine;
