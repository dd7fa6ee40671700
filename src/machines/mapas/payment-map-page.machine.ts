import { assign, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { ApiError } from '../../api/client';
import type { SubdivisionOption } from '../../schemas/proyectos/subdivision-options';
import { placeholder } from '../shared/placeholder';
import { errorMessage } from '../shared/api-errors';

/**
 * "Mapa de Pagos" (/COMERCIO/MapaVentas/Pagos; issue 16): the route names no subdivision, so the
 * screen offers a select of subdivisions and keeps the choice in the address (`?lotizacion={key}`).
 * This machine owns that choice; the map of the chosen subdivision is a lot map with payment
 * colouring (maps.actors.ts `paymentLotMap`) that the view starts keyed by `key` (another
 * subdivision: a fresh map, as the routed maps remount per `id_encrypted`).
 *
 * States: `loading` (GET subdivision-options) → `ready` (a subdivision chosen: the requested key
 * when it is one of the options, else the first) | `empty` (no subdivision) | `failure` (`retry`).
 * Events: `paymentMap.subdivision {key}` (the select), `paymentMap.retry`.
 * Injected: actor `loadSubdivisions`; actions `syncUrl` (the key → `?lotizacion=`), `reportApiError`.
 */

/** A subdivision the select offers (its key names it in the calls and the address). */
export type PaymentMapSubdivision = { key: string; name: string };

export interface PaymentMapPageContext {
  /** The key the address asked for (`?lotizacion=`), null when none. */
  requestedKey: string | null;
  subdivisions: PaymentMapSubdivision[];
  /** The chosen subdivision's key. */
  key: string | null;
  error: string | null;
}

export type PaymentMapPageEvent = { type: 'paymentMap.subdivision'; key: string } | { type: 'paymentMap.retry' };

/** The query parameter that holds the chosen subdivision. */
export const PAYMENT_MAP_QUERY_KEY = 'lotizacion';

/** The address of Mapa de Pagos on subdivision `key` (the sales and heat maps link to it). */
export const paymentMapPath = (key: string) => `/COMERCIO/MapaVentas/Pagos?${PAYMENT_MAP_QUERY_KEY}=${encodeURIComponent(key)}`;

/** The requested subdivision key of an address query ("?lotizacion=k3Xa" → "k3Xa"), null when absent or blank. */
export function paymentMapKeyFromSearch(search: string): string | null {
  const value = new URLSearchParams(search).get(PAYMENT_MAP_QUERY_KEY)?.trim() ?? '';
  return value === '' ? null : value;
}

/** The options with a key (an older server sends none), in the server's order (by name). */
export function paymentMapSubdivisions(options: readonly SubdivisionOption[]): PaymentMapSubdivision[] {
  return options.flatMap((o) => (o.key ? [{ key: o.key, name: o.name }] : []));
}

export const paymentMapPageMachine = setup({
  types: {
    context: {} as PaymentMapPageContext,
    events: {} as PaymentMapPageEvent,
    input: {} as { requestedKey: string | null },
  },
  actors: { loadSubdivisions: placeholder<SubdivisionOption[]>('loadSubdivisions') },
  actions: {
    /** Writes the chosen key to the address (`?lotizacion=`), without a history entry. */
    syncUrl: (_, _key: string) => {},
    /** 401/402/404 → the session. */
    reportApiError: (_, _error: ApiError) => {},
  },
  guards: {
    chosen: ({ context }) => context.key !== null,
    offered: ({ context, event }) => event.type === 'paymentMap.subdivision' && context.subdivisions.some((s) => s.key === event.key),
  },
}).createMachine({
  id: 'paymentMapPage',
  context: ({ input }) => ({ requestedKey: input.requestedKey, subdivisions: [], key: null, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'loadSubdivisions',
        onDone: {
          target: 'choosing',
          actions: assign(({ context, event }) => {
            const subdivisions = paymentMapSubdivisions(event.output);
            const requested = subdivisions.find((s) => s.key === context.requestedKey);
            return { subdivisions, key: (requested ?? subdivisions[0])?.key ?? null, error: null };
          }),
        },
        onError: {
          target: 'failure',
          actions: [
            assign(({ event }) => ({ error: errorMessage(event.error) })),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
    choosing: {
      always: [
        { guard: 'chosen', target: 'ready', actions: { type: 'syncUrl', params: ({ context }) => context.key! } },
        { target: 'empty' },
      ],
    },
    ready: {
      on: {
        'paymentMap.subdivision': {
          guard: 'offered',
          actions: [assign({ key: ({ event }) => event.key }), { type: 'syncUrl', params: ({ event }) => event.key }],
        },
      },
    },
    empty: {},
    failure: { on: { 'paymentMap.retry': 'loading' } },
  },
});
export type PaymentMapPageMachine = typeof paymentMapPageMachine;
export type PaymentMapPageActorRef = ActorRefFrom<PaymentMapPageMachine>;
export type PaymentMapPageSnapshot = SnapshotFrom<PaymentMapPageMachine>;
