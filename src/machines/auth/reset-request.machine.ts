import { assign, setup } from 'xstate';
import { resetRequestSchema, type ResetType } from '../../schemas/session';
import type { MessageResponse } from '../../schemas/common';
import { placeholder } from '../shared/placeholder';
import { errorMessage } from '../shared/api-errors';

/**
 * `reset-request` machine (issue "Foundation"; docs/product.md §3 "Password reset request: dni", §7 rows 4
 * and 5): idle → submitting → sent (the server's message) | failed (the server's message; the user
 * may correct and retry).
 */

export interface ResetRequestContext {
  /** Which account kind: staff (row 4) or customer (row 5). */
  type: ResetType;
  dni: string;
  /** Client-side message of the field, or null. */
  fieldError: string | null;
  /** The server's message after `sent` or `failed`. */
  message: string | null;
}

export interface ResetRequestInput {
  type: ResetType;
}

export type ResetRequestEvent = { type: 'field.change'; value: string } | { type: 'form.submit' };

/** Validates the DNI with the shared schema. @returns null when valid, else the Spanish message. */
export function validateResetRequest(dni: string): string | null {
  const parsed = resetRequestSchema.safeParse({ dni });
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? 'Dato inválido');
}

export const resetRequestMachine = setup({
  types: {
    context: {} as ResetRequestContext,
    events: {} as ResetRequestEvent,
    input: {} as ResetRequestInput,
  },
  actors: {
    /** Rows 4/5: POST request_password_reset_{collaborator|customer} {dni}. */
    requestReset: placeholder<MessageResponse, { type: ResetType; dni: string }>('requestReset'),
  },
  guards: {
    isValid: ({ context }) => validateResetRequest(context.dni) === null,
  },
}).createMachine({
  id: 'resetRequest',
  context: ({ input }) => ({ type: input.type, dni: '', fieldError: null, message: null }),
  initial: 'idle',
  states: {
    idle: {
      on: {
        'field.change': { actions: assign({ dni: ({ event }) => event.value, fieldError: null }) },
        'form.submit': [
          { guard: 'isValid', target: 'submitting' },
          { actions: assign({ fieldError: ({ context }) => validateResetRequest(context.dni) }) },
        ],
      },
    },
    submitting: {
      invoke: {
        src: 'requestReset',
        input: ({ context }) => ({ type: context.type, dni: context.dni.trim() }),
        onDone: { target: 'sent', actions: assign({ message: ({ event }) => event.output.message }) },
        onError: { target: 'failed', actions: assign({ message: ({ event }) => errorMessage(event.error) }) },
      },
    },
    /** The link was requested; the view shows the server's message. */
    sent: {},
    failed: {
      on: {
        'field.change': { target: 'idle', actions: assign({ dni: ({ event }) => event.value, fieldError: null, message: null }) },
        'form.submit': [
          { guard: 'isValid', target: 'submitting' },
          { target: 'idle', actions: assign({ fieldError: ({ context }) => validateResetRequest(context.dni), message: null }) },
        ],
      },
    },
  },
});

export type ResetRequestMachine = typeof resetRequestMachine;
