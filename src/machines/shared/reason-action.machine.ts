import { assign, emit, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import { placeholder } from './placeholder';
import { errorMessage } from './api-errors';

/** The message when the reason is missing or too short. */
export const REASON_REQUIRED = 'Indique el motivo';

/**
 * An action on a record that needs a written reason (annul a sale, cancel a reservation): idle →
 * (`reason.request {record}`) asking (`reason.changed {text}`) → (`reason.confirm`, at least 3
 * characters) running → idle, emitting `done {record}` with what the call answered; a refusal (a
 * 409, a stale record) stays on the question with its message. Provide actor `run` ({record,
 * reason} → the updated record) and actions `done` ({record}: a toast) and `reportApiError`.
 * @param requiredMessage what a missing reason says. @typeParam Row the records acted on.
 */
export function createReasonActionMachine<Row>(id: string, requiredMessage: string = REASON_REQUIRED) {
  return setup({
    types: {
      context: {} as { record: Row | null; reason: string; error: string | null },
      events: {} as
        | { type: 'reason.request'; record: Row }
        | { type: 'reason.changed'; text: string }
        | { type: 'reason.confirm' }
        | { type: 'reason.cancel' },
      emitted: {} as { type: 'done'; record: Row },
    },
    actors: { run: placeholder<Row, { record: Row; reason: string }>('run') },
    actions: { reportApiError: (_, _error: ApiError) => {}, done: (_, _p: { record: Row }) => {} },
  }).createMachine({
    id,
    context: { record: null, reason: '', error: null },
    initial: 'idle',
    states: {
      idle: {
        on: { 'reason.request': { target: 'asking', actions: assign(({ event }) => ({ record: event.record, reason: '', error: null })) } },
      },
      asking: {
        on: {
          'reason.changed': { actions: assign(({ event }) => ({ reason: event.text, error: null })) },
          'reason.confirm': [
            { guard: ({ context }) => context.reason.trim().length < 3, actions: assign({ error: requiredMessage }) },
            { target: 'running' },
          ],
          'reason.cancel': { target: 'idle', actions: assign({ record: null, reason: '', error: null }) },
        },
      },
      running: {
        invoke: {
          src: 'run',
          input: ({ context }) => ({ record: context.record!, reason: context.reason.trim() }),
          onDone: {
            target: 'idle',
            actions: [
              { type: 'done', params: ({ event }) => ({ record: event.output }) },
              emit(({ event }) => ({ type: 'done' as const, record: event.output })),
              assign({ record: null, reason: '', error: null }),
            ],
          },
          onError: {
            target: 'asking',
            actions: [
              assign(({ event }) => ({ error: errorMessage(event.error) })),
              { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
            ],
          },
        },
      },
    },
  });
}
export type ReasonActionMachine<Row> = ReturnType<typeof createReasonActionMachine<Row>>;
