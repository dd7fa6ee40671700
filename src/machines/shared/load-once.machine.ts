import { assign, setup } from 'xstate';
import { placeholder } from './placeholder';
import { errorMessage } from './api-errors';

/**
 * Options a form loads once when its screen opens (roles and locals of Usuarios, the staff of
 * Clientes): loading → ready | failure (`options.retry` → loading). Provide actor `load`.
 * `context.value` holds the loaded value (`empty` until then), `context.error` the failure's
 * Spanish message.
 */
export function createLoadOnceMachine<T>(id: string, empty: T) {
  return setup({
    types: { context: {} as { value: T; error: string | null }, events: {} as { type: 'options.retry' } },
    actors: { load: placeholder<T>('load') },
  }).createMachine({
    id,
    context: { value: empty, error: null },
    initial: 'loading',
    states: {
      loading: {
        invoke: {
          src: 'load',
          onDone: { target: 'ready', actions: assign(({ event }) => ({ value: event.output, error: null })) },
          onError: { target: 'failure', actions: assign(({ event }) => ({ error: errorMessage(event.error) })) },
        },
      },
      ready: {},
      failure: { on: { 'options.retry': 'loading' } },
    },
  });
}
