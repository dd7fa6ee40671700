import { assign, fromPromise, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import type { LotsApi } from '../../api/proyectos/lots';
import type { LotHold, LotHoldState } from '../../schemas/proyectos/lot-holds';
import { placeholder } from '../shared/placeholder';
import { errorMessage, forwardSessionErrors } from '../shared/api-errors';

/**
 * "Solicitudes de bloqueo" of one subdivision (docs/domain.md "Lot holds"): the hold requests of
 * GET /api/lot-holds in one `state` (PENDIENTE first), and — for a supervisor ('Aprobar bloqueos de
 * lotes', input `canApprove`) — approving or rejecting a pending one. Without the permission the
 * server answers only the caller's own requests, so an agent follows theirs here.
 *
 * loading → ready | failure (`holds.retry`); in ready: `holds.stateChanged` and `holds.reload`
 * load again; `holds.approve {id}` → approving → loading (the list refreshes; toast "Solicitud
 * aprobada"); `holds.reject {hold}` → rejecting.editing (the reason dialog: `holds.reasonChanged`,
 * `holds.cancel`, `holds.confirmReject`) → rejecting.submitting → loading. A refused decision (409
 * "La solicitud ya fue atendida", "El lote cambió de estado…", the end date passed) keeps the
 * server's Spanish message in `actionError` (the rejection's, in `rejectError`, with the dialog
 * open) and reloads the list for the approval; 401/402/404 also go to `reportApiError`.
 */

export type LotHoldsEvent =
  | { type: 'holds.stateChanged'; state: LotHoldState }
  | { type: 'holds.reload' }
  | { type: 'holds.retry' }
  | { type: 'holds.approve'; id: number }
  | { type: 'holds.reject'; hold: LotHold }
  | { type: 'holds.reasonChanged'; reason: string }
  | { type: 'holds.confirmReject' }
  | { type: 'holds.cancel' };

export interface LotHoldsContext {
  /** The subdivision whose requests are listed (null: every subdivision). */
  subdivisionId: number | null;
  /** Whether the user may approve and reject ('Aprobar bloqueos de lotes'). */
  canApprove: boolean;
  /** The state listed (PENDIENTE by default). */
  state: LotHoldState;
  holds: LotHold[];
  total: number;
  /** The load's failure message. */
  error: string | null;
  /** A refused approval or rejection (the server's Spanish message), shown above the list. */
  actionError: string | null;
  /** The request being approved or rejected. */
  decidingId: number | null;
  /** The request whose rejection dialog is open. */
  rejecting: LotHold | null;
  /** The rejection's reason (optional, up to 300 characters). */
  reason: string;
  /** A refused rejection, shown in its dialog. */
  rejectError: string | null;
}

/** Input of the machine: the subdivision and whether the user is a supervisor. */
export interface LotHoldsInput {
  subdivisionId: number | null;
  canApprove: boolean;
}

/** What `decide` takes: approve or reject request `id` with an optional note. */
export interface LotHoldDecision {
  id: number;
  approve: boolean;
  reason: string | null;
}

/** Longest rejection reason (src/schemas/proyectos/lot-holds.ts `decideLotHoldRequestSchema`). */
export const HOLD_REASON_MAX = 300;

const closedReject = { rejecting: null, reason: '', rejectError: null } as const;

/** The machine (unprovided: supply `load`, `decide`, `decided`, `reportApiError`). */
export const lotHoldsMachine = setup({
  types: { context: {} as LotHoldsContext, events: {} as LotHoldsEvent, input: {} as LotHoldsInput },
  actors: {
    /** GET lot-holds of the subdivision in `state` (first 100, oldest first). */
    load: placeholder<{ data: LotHold[]; meta: { total: number } }, { state: LotHoldState; subdivisionId: number | null }>('load'),
    /** POST lot-holds/{id}/approve or …/reject. @returns the hold as decided. */
    decide: placeholder<LotHold, LotHoldDecision>('decide'),
  },
  actions: {
    /** A decision went through (toast). */
    decided: (_, _hold: LotHold) => {},
    /** 401/402/404 → the session. */
    reportApiError: (_, _error: ApiError) => {},
  },
  guards: {
    canApprove: ({ context }) => context.canApprove,
  },
}).createMachine({
  id: 'lotHolds',
  context: ({ input }) => ({
    subdivisionId: input.subdivisionId,
    canApprove: input.canApprove,
    state: 'PENDIENTE',
    holds: [],
    total: 0,
    error: null,
    actionError: null,
    decidingId: null,
    ...closedReject,
  }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ state: context.state, subdivisionId: context.subdivisionId }),
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({ holds: event.output.data, total: event.output.meta.total, error: null, decidingId: null })),
        },
        onError: {
          target: 'failure',
          actions: [
            assign(({ event }) => ({ error: errorMessage(event.error), decidingId: null })),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
    ready: {
      on: {
        'holds.stateChanged': { target: 'loading', actions: assign(({ event }) => ({ state: event.state, actionError: null })) },
        'holds.reload': { target: 'loading', actions: assign({ actionError: null }) },
        'holds.approve': {
          guard: 'canApprove',
          target: 'approving',
          actions: assign(({ event }) => ({ decidingId: event.id, actionError: null })),
        },
        'holds.reject': {
          guard: 'canApprove',
          target: 'rejecting',
          actions: assign(({ event }) => ({ ...closedReject, rejecting: event.hold, actionError: null })),
        },
      },
    },
    failure: {
      on: {
        'holds.retry': 'loading',
        'holds.reload': 'loading',
        'holds.stateChanged': { target: 'loading', actions: assign(({ event }) => ({ state: event.state })) },
      },
    },
    approving: {
      invoke: {
        src: 'decide',
        input: ({ context }) => ({ id: context.decidingId!, approve: true, reason: null }),
        onDone: { target: 'loading', actions: { type: 'decided', params: ({ event }) => event.output } },
        onError: {
          // The request may have been answered or the lot moved meanwhile: the list refreshes.
          target: 'loading',
          actions: [
            assign(({ event }) => ({ actionError: errorMessage(event.error) })),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
    rejecting: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            'holds.reasonChanged': { actions: assign(({ event }) => ({ reason: event.reason, rejectError: null })) },
            'holds.confirmReject': [
              {
                guard: ({ context }) => context.reason.trim().length > HOLD_REASON_MAX,
                actions: assign({ rejectError: `El motivo no puede pasar de ${HOLD_REASON_MAX} caracteres` }),
              },
              { target: 'submitting' },
            ],
            'holds.cancel': { target: '#lotHolds.ready', actions: assign(closedReject) },
          },
        },
        submitting: {
          entry: assign(({ context }) => ({ decidingId: context.rejecting!.id, rejectError: null })),
          invoke: {
            src: 'decide',
            input: ({ context }) => ({
              id: context.rejecting!.id,
              approve: false,
              reason: context.reason.trim() === '' ? null : context.reason.trim(),
            }),
            onDone: {
              target: '#lotHolds.loading',
              actions: [{ type: 'decided', params: ({ event }) => event.output }, assign(closedReject)],
            },
            onError: {
              target: 'editing',
              actions: [
                assign(({ event }) => ({ rejectError: errorMessage(event.error), decidingId: null })),
                { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
              ],
            },
          },
        },
      },
    },
  },
});
export type LotHoldsMachine = typeof lotHoldsMachine;

/** What {@link createLotHoldsMachine} needs. */
export interface LotHoldsMachineDeps {
  lotsApi: Pick<LotsApi, 'holds' | 'decideHold'>;
  /** Receives 401/402/404 (only those are forwarded). */
  reportApiError: (error: ApiError) => void;
  /** Toasts "Solicitud aprobada" / "Solicitud rechazada" with the lot's code. */
  toaster?: { show(message: { severity: 'success'; summary: string; detail?: string }): void };
}

/** The machine provided with the lots api (GET lot-holds, first 100 of the subdivision; POST approve / reject). */
export function createLotHoldsMachine(deps: LotHoldsMachineDeps) {
  const report = forwardSessionErrors(deps.reportApiError);
  return lotHoldsMachine.provide({
    actors: {
      load: fromPromise(({ input }) =>
        deps.lotsApi.holds({ state: input.state, per_page: 100, ...(input.subdivisionId ? { subdivision_id: input.subdivisionId } : {}) }),
      ),
      decide: fromPromise(({ input }) => deps.lotsApi.decideHold(input.id, input.approve, input.reason)),
    },
    actions: {
      decided: (_, hold) =>
        deps.toaster?.show({
          severity: 'success',
          summary: hold.state === 'APROBADA' ? 'Solicitud aprobada' : 'Solicitud rechazada',
          detail: hold.lot.code,
        }),
      reportApiError: (_, error) => report(error),
    },
  });
}
