import { assign, setup } from 'xstate';
import { PASSWORD_MIN_LENGTH, resetTypeSchema, type ResetType } from '../../schemas/session';
import type { MessageResponse } from '../../schemas/common';
import { placeholder } from '../shared/placeholder';
import { errorMessage, errorStatus } from '../shared/api-errors';

/**
 * `new-password` machine (issue "Foundation"; docs/product.md §2 /auth/reset_password/{id_encrypted}/{type},
 * §3 "New password: id, password", §7 row 6).
 *
 * checking → verifying → editing → submitting → success | invalidLink (422: the link is not valid or
 * expired) | failed (any other error; the user may retry). A `{type}` that is neither collaborator
 * nor customer is an invalid link from the start. `verifying` asks the server about the link on
 * arrival (GET password_reset_{type}?id=, which does not use it): a 422 is `invalidLink` before any
 * password is typed; any other failure lets the form show (the save will tell) — docs/decisions.md
 * "Customer journey details (accessibility)".
 */

/** Shown when the link is not valid or has expired (issue "Foundation"). */
export const INVALID_LINK_MESSAGE = 'El enlace de recuperación no es válido o ha expirado';
/** Confirmation differs (docs/product.md §5 wording of the change-password dialog). */
export const PASSWORDS_DIFFER_MESSAGE = 'Los campos de la nueva contraseña debe de ser iguales';
/** Confirmation empty. */
export const CONFIRMATION_REQUIRED_MESSAGE = 'Confirme la nueva contraseña';
/** Password shorter than PASSWORD_MIN_LENGTH. */
export const PASSWORD_TOO_SHORT_MESSAGE = `La contraseña debe tener al menos ${PASSWORD_MIN_LENGTH} caracteres`;

export type NewPasswordField = 'password' | 'confirmation';

export interface NewPasswordContext {
  /** Opaque reset token from the URL (`id_encrypted`). */
  token: string;
  /** Parsed `{type}` of the URL; null when invalid. */
  type: ResetType | null;
  password: string;
  confirmation: string;
  showPassword: boolean;
  errors: Partial<Record<NewPasswordField, string>>;
  /** The server's message (success or failure). */
  message: string | null;
}

export interface NewPasswordInput {
  token: string;
  type: string;
}

export type NewPasswordEvent =
  { type: 'field.change'; field: NewPasswordField; value: string } | { type: 'password.toggle' } | { type: 'form.submit' };

/**
 * Client rules: at least PASSWORD_MIN_LENGTH characters, confirmation equal.
 * @returns the Spanish message per failing field (empty when valid).
 */
export function validateNewPassword(password: string, confirmation: string): Partial<Record<NewPasswordField, string>> {
  const errors: Partial<Record<NewPasswordField, string>> = {};
  if (password.length < PASSWORD_MIN_LENGTH) errors.password = PASSWORD_TOO_SHORT_MESSAGE;
  if (confirmation.length === 0) errors.confirmation = CONFIRMATION_REQUIRED_MESSAGE;
  else if (confirmation !== password) errors.confirmation = PASSWORDS_DIFFER_MESSAGE;
  return errors;
}

export const newPasswordMachine = setup({
  types: {
    context: {} as NewPasswordContext,
    events: {} as NewPasswordEvent,
    input: {} as NewPasswordInput,
  },
  actors: {
    /** GET password_reset_{type}?id=: the link is still usable (422 when not); it is not used. */
    checkLink: placeholder<MessageResponse, { type: ResetType; id: string }>('checkLink'),
    /** Row 6: POST password_reset_{type} {id, password}. */
    resetPassword: placeholder<MessageResponse, { type: ResetType; id: string; password: string }>('resetPassword'),
  },
  guards: {
    hasValidLink: ({ context }) => context.type !== null && context.token.length > 0,
    isValid: ({ context }) => Object.keys(validateNewPassword(context.password, context.confirmation)).length === 0,
    /** The reset call failed with a 422 (the link is invalid, used or expired). */
    isInvalidLink: (_, { error }: { error: unknown }) => errorStatus(error) === 422,
  },
}).createMachine({
  id: 'newPassword',
  context: ({ input }) => {
    const type = resetTypeSchema.safeParse(input.type);
    return {
      token: input.token,
      type: type.success ? type.data : null,
      password: '',
      confirmation: '',
      showPassword: false,
      errors: {},
      message: null,
    };
  },
  initial: 'checking',
  on: {
    'password.toggle': { actions: assign({ showPassword: ({ context }) => !context.showPassword }) },
    'field.change': {
      target: '.editing',
      actions: assign(({ context, event }) => ({
        [event.field]: event.value,
        errors: { ...context.errors, [event.field]: undefined },
      })),
    },
  },
  states: {
    checking: {
      always: [{ guard: 'hasValidLink', target: 'verifying' }, { target: 'invalidLink' }],
    },
    /** The link is checked on arrival; the form is not shown yet. */
    verifying: {
      on: { 'field.change': {} },
      invoke: {
        src: 'checkLink',
        input: ({ context }) => ({ type: context.type!, id: context.token }),
        onDone: { target: 'editing' },
        onError: [
          { guard: { type: 'isInvalidLink', params: ({ event }) => ({ error: event.error }) }, target: 'invalidLink' },
          // Offline or a server failure: the form shows; the save tells what the link is worth.
          { target: 'editing' },
        ],
      },
    },
    editing: {
      on: {
        'form.submit': [
          { guard: 'isValid', target: 'submitting', actions: assign({ errors: {}, message: null }) },
          { actions: assign({ errors: ({ context }) => validateNewPassword(context.password, context.confirmation) }) },
        ],
      },
    },
    submitting: {
      on: { 'field.change': {} },
      invoke: {
        src: 'resetPassword',
        input: ({ context }) => ({ type: context.type!, id: context.token, password: context.password }),
        onDone: { target: 'success', actions: assign({ message: ({ event }) => event.output.message }) },
        onError: [
          {
            guard: { type: 'isInvalidLink', params: ({ event }) => ({ error: event.error }) },
            target: 'invalidLink',
            actions: assign({ message: INVALID_LINK_MESSAGE }),
          },
          { target: 'failed', actions: assign({ message: ({ event }) => errorMessage(event.error) }) },
        ],
      },
    },
    /** Password saved; the view shows the message and a link to the right login. */
    success: { on: { 'field.change': {} } },
    /** The link is not valid or expired; the view links to a new request. */
    invalidLink: {
      on: { 'field.change': {} },
      entry: assign({ message: INVALID_LINK_MESSAGE }),
    },
    /** Any other failure: the message is shown and the form stays usable. */
    failed: {
      on: {
        'form.submit': [
          { guard: 'isValid', target: 'submitting', actions: assign({ errors: {}, message: null }) },
          {
            target: 'editing',
            actions: assign({ errors: ({ context }) => validateNewPassword(context.password, context.confirmation) }),
          },
        ],
      },
    },
  },
});

export type NewPasswordMachine = typeof newPasswordMachine;
