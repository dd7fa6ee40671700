import { assign, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import { placeholder } from './placeholder';
import { errorMessage } from './api-errors';

/**
 * Row actions of a list screen that are not CRUD (deactivate, reactivate, send a password link…),
 * each asked for confirmation first: idle → confirming (`action.request {kind, record}`) →
 * running → idle. Written once for Usuarios and Clientes.
 *
 * Provide: actor `run` ({kind, record} → the call); actions `done` (toast, refresh the list),
 * `failed` ({message}: a refusal such as a 409 shows its Spanish message) and `reportApiError`
 * (401/402/404 go to the session). `context.error` keeps the last failure's message.
 * @typeParam Kind the action names; @typeParam Row the records acted on.
 */
export function createRecordActionsMachine<Kind extends string, Row>(id: string) {
  return setup({
    types: {
      context: {} as { kind: Kind | null; record: Row | null; error: string | null },
      events: {} as { type: 'action.request'; kind: Kind; record: Row } | { type: 'action.confirm' } | { type: 'action.cancel' },
    },
    actors: {
      run: placeholder<unknown, { kind: Kind; record: Row }>('run'),
    },
    actions: {
      done: (_, _p: { kind: Kind; record: Row }) => {},
      failed: (_, _p: { message: string }) => {},
      reportApiError: (_, _error: ApiError) => {},
    },
  }).createMachine({
    id,
    context: { kind: null, record: null, error: null },
    initial: 'idle',
    states: {
      idle: {
        on: {
          'action.request': {
            target: 'confirming',
            actions: assign(({ event }) => ({ kind: event.kind, record: event.record, error: null })),
          },
        },
      },
      confirming: {
        on: {
          'action.confirm': 'running',
          'action.cancel': { target: 'idle', actions: assign({ kind: null, record: null }) },
        },
      },
      running: {
        invoke: {
          src: 'run',
          input: ({ context }) => ({ kind: context.kind!, record: context.record! }),
          onDone: {
            target: 'idle',
            actions: [
              { type: 'done', params: ({ context }) => ({ kind: context.kind!, record: context.record! }) },
              assign({ kind: null, record: null }),
            ],
          },
          onError: {
            target: 'idle',
            actions: [
              { type: 'failed', params: ({ event }) => ({ message: errorMessage(event.error) }) },
              { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
              assign(({ event }) => ({ kind: null, record: null, error: errorMessage(event.error) })),
            ],
          },
        },
      },
    },
  });
}
