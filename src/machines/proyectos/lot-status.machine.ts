import { assign, emit, fromPromise, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import type { LotsApi } from '../../api/proyectos/lots';
import {
  changeLotStatusRequestSchema,
  LOT_STATUS_TRANSITIONS,
  REASON_REQUIRED_STATUSES,
  type ChangeLotStatusRequest,
  type Lot,
  type LotStatus,
  type LotStatusChange,
} from '../../schemas/proyectos/projects';
import { isHoldStatus } from '../../schemas/proyectos/lot-holds';
import { placeholder } from '../shared/placeholder';
import { errorMessage, fieldErrorsFrom, forwardSessionErrors } from '../shared/api-errors';

/**
 * Lot status change and status history (issue "Proyectos"; docs/domain.md state chart; rules in
 * src/schemas/proyectos/projects.ts: {@link LOT_STATUS_TRANSITIONS}, {@link REASON_REQUIRED_STATUSES}).
 * Shared by the lots table (/PROYECTOS/Lotes) and the map's lot panel (h4): see the API comment at
 * the top of src/views/proyectos/LotStatusDialog.tsx.
 *
 * `lotStatus`: closed → editing (`status.open {lot}`) → submitting (`status.submit`, after the
 * client check of the body schema) → closed with `changed(lot)`; a 409 (transition refused, e.g.
 * the lot changed meanwhile) or a 422 (`reason`) keeps the dialog open in `editing` with the message
 * (`formError` / `reasonError` / `untilError`); 401/402/404 also go to `reportApiError`. A hold
 * (SEPARADO, BLOQUEADO, RESERVA_COMERCIAL) asks for its end date (`until`); when the server answers
 * 202 (waiting for a supervisor, docs/domain.md "Lot holds") the dialog closes with `pending` (the
 * toast says so) and the lot as it was.
 */

export type LotStatusEvent =
  | { type: 'status.open'; lot: Lot }
  | { type: 'status.targetChanged'; status: LotStatus | '' }
  | { type: 'status.reasonChanged'; reason: string }
  | { type: 'status.untilChanged'; until: string }
  | { type: 'status.submit' }
  | { type: 'status.close' };

export interface LotStatusContext {
  lot: Lot | null;
  /** The chosen target ('' until one is chosen). */
  target: LotStatus | '';
  reason: string;
  /** The hold's end date (YYYY-MM-DD; '' until given): asked for the hold statuses. */
  until: string;
  /** Message under the end date (required for a hold, or the 422's bounds). */
  untilError: string | null;
  /** Message under the target select (none chosen). */
  targetError: string | null;
  /** Message under the reason (required for Bloqueado, Reserva comercial, Canje; or the 422's). */
  reasonError: string | null;
  /** A 409 or any other refusal, shown above the form. */
  formError: string | null;
}

/** The targets a lot in `status` may move to (docs/domain.md state chart). */
export function allowedTargets(status: LotStatus): readonly LotStatus[] {
  return LOT_STATUS_TRANSITIONS[status];
}

/** Whether a reason must be given for moving to `target`. */
export function reasonRequired(target: LotStatus | ''): boolean {
  return target !== '' && REASON_REQUIRED_STATUSES.includes(target);
}

/** Whether an end date must be given for moving to `target` (a hold). */
export function untilRequired(target: LotStatus | ''): boolean {
  return target !== '' && isHoldStatus(target);
}

/** The request body of the form, or the Spanish messages per field. */
export function validateStatusChange(
  lot: Lot,
  target: LotStatus | '',
  reason: string,
  until = '',
):
  | { ok: true; body: ChangeLotStatusRequest }
  | { ok: false; targetError: string | null; reasonError: string | null; untilError: string | null } {
  if (target === '' || !allowedTargets(lot.status).includes(target)) {
    return { ok: false, targetError: 'Elija el nuevo estado', reasonError: null, untilError: null };
  }
  const body = {
    status: target,
    reason: reason.trim() === '' ? null : reason.trim(),
    ...(untilRequired(target) ? { until: until === '' ? null : until } : {}),
  };
  const parsed = changeLotStatusRequestSchema.safeParse(body);
  if (!parsed.success) {
    const on = (field: string) => parsed.error.issues.find((i) => i.path[0] === field)?.message ?? null;
    return { ok: false, targetError: null, reasonError: on('reason'), untilError: on('until') };
  }
  return { ok: true, body };
}

/** What a status change answers: the lot, and the Spanish note when the hold waits for a supervisor. */
export interface LotStatusResult {
  lot: Lot;
  pending: string | null;
}

const closed: Omit<LotStatusContext, 'lot'> = {
  target: '',
  reason: '',
  until: '',
  targetError: null,
  reasonError: null,
  untilError: null,
  formError: null,
};

/** Emitted when a lot's status changed, or a hold was asked for (`pending`; listen with `actor.on('changed', …)`). */
export type LotStatusEmitted = { type: 'changed'; lot: Lot; pending: string | null };

/** The status-change machine (unprovided: supply `changeStatus`, `changed`, `reportApiError`). */
export const lotStatusMachine = setup({
  types: { context: {} as LotStatusContext, events: {} as LotStatusEvent, emitted: {} as LotStatusEmitted },
  actors: {
    /** POST lots/{id}/status. @returns the lot, and the pending note of a 202. */
    changeStatus: placeholder<LotStatusResult, { id: number; body: ChangeLotStatusRequest }>('changeStatus'),
  },
  actions: {
    /** The lot changed or a hold was asked for (refresh the table / map, toast). */
    changed: (_, _result: LotStatusResult) => {},
    /** 401/402/404 → the session. */
    reportApiError: (_, _error: ApiError) => {},
  },
}).createMachine({
  id: 'lotStatus',
  context: { lot: null, ...closed },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'status.open': {
          target: 'editing',
          actions: assign(({ event }) => {
            const targets = allowedTargets(event.lot.status);
            return { lot: event.lot, ...closed, target: targets.length === 1 ? targets[0]! : ('' as const) };
          }),
        },
      },
    },
    editing: {
      on: {
        'status.targetChanged': {
          actions: assign(({ event }) => ({
            target: event.status,
            targetError: null,
            reasonError: null,
            untilError: null,
            formError: null,
          })),
        },
        'status.reasonChanged': { actions: assign(({ event }) => ({ reason: event.reason, reasonError: null })) },
        'status.untilChanged': { actions: assign(({ event }) => ({ until: event.until, untilError: null })) },
        'status.submit': [
          {
            guard: ({ context }) => validateStatusChange(context.lot!, context.target, context.reason, context.until).ok,
            target: 'submitting',
          },
          {
            actions: assign(({ context }) => {
              const result = validateStatusChange(context.lot!, context.target, context.reason, context.until);
              return result.ok ? {} : { targetError: result.targetError, reasonError: result.reasonError, untilError: result.untilError };
            }),
          },
        ],
        'status.close': { target: 'closed', actions: assign({ lot: null, ...closed }) },
      },
    },
    submitting: {
      entry: assign({ formError: null }),
      invoke: {
        src: 'changeStatus',
        input: ({ context }) => {
          const result = validateStatusChange(context.lot!, context.target, context.reason, context.until);
          return { id: context.lot!.id, body: result.ok ? result.body : { status: context.target as LotStatus } };
        },
        onDone: {
          target: 'closed',
          actions: [
            { type: 'changed', params: ({ event }) => event.output },
            emit(({ event }) => ({ type: 'changed' as const, lot: event.output.lot, pending: event.output.pending })),
            assign({ lot: null, ...closed }),
          ],
        },
        onError: {
          target: 'editing',
          actions: [
            assign(({ event }) => {
              const { fields, rest } = fieldErrorsFrom(event.error, ['reason', 'status', 'until'] as const);
              return {
                reasonError: fields.reason ?? null,
                targetError: fields.status ?? null,
                untilError: fields.until ?? null,
                formError:
                  rest.length > 0 ? rest.join(' ') : fields.reason || fields.status || fields.until ? null : errorMessage(event.error),
              };
            }),
            {
              type: 'reportApiError',
              params: ({ event }) => event.error as ApiError,
            },
          ],
        },
      },
    },
  },
});
export type LotStatusMachine = typeof lotStatusMachine;

/**
 * `lotStatusHistory`: the status history of one lot (input `{ lotId }`), newest first:
 * loading → ready | failure; `history.reload` (after a change) and `history.retry` load again.
 */
export const lotStatusHistoryMachine = setup({
  types: {
    context: {} as { lotId: number; entries: LotStatusChange[]; total: number; error: string | null },
    events: {} as { type: 'history.reload' } | { type: 'history.retry' },
    input: {} as { lotId: number },
  },
  actors: {
    /** GET lots/{id}/status-history (first 50 entries). */
    load: placeholder<{ data: LotStatusChange[]; meta: { total: number } }, { lotId: number }>('load'),
  },
  actions: { reportApiError: (_, _error: ApiError) => {} },
}).createMachine({
  id: 'lotStatusHistory',
  context: ({ input }) => ({ lotId: input.lotId, entries: [], total: 0, error: null }),
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ lotId: context.lotId }),
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({ entries: event.output.data, total: event.output.meta.total, error: null })),
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
    ready: { on: { 'history.reload': 'loading' } },
    failure: { on: { 'history.retry': 'loading', 'history.reload': 'loading' } },
  },
});
export type LotStatusHistoryMachine = typeof lotStatusHistoryMachine;

/** What {@link createLotStatusMachines} needs. */
export interface LotStatusMachinesDeps {
  lotsApi: Pick<LotsApi, 'changeStatus' | 'statusHistory'>;
  /** Receives 401/402/404 (only those are forwarded). */
  reportApiError: (error: ApiError) => void;
  /** Toasts "Estado actualizado" after a change (optional). */
  toaster?: { show(message: { severity: 'success'; summary: string; detail?: string }): void };
}

/**
 * Both machines provided with the lots api: `status` (the dialog's) and `history` (the list's).
 * A screen reacts to a change through the `changed` event the status machine emits.
 */
export function createLotStatusMachines(deps: LotStatusMachinesDeps) {
  const report = forwardSessionErrors(deps.reportApiError);
  const status = lotStatusMachine.provide({
    actors: { changeStatus: fromPromise(({ input }) => deps.lotsApi.changeStatus(input.id, input.body)) },
    actions: {
      changed: (_, { lot, pending }) =>
        deps.toaster?.show({
          severity: 'success',
          summary: pending ? 'Solicitud enviada' : 'Estado actualizado',
          detail: pending ?? lot.code,
        }),
      reportApiError: (_, error) => report(error),
    },
  });
  const history = lotStatusHistoryMachine.provide({
    actors: { load: fromPromise(({ input }) => deps.lotsApi.statusHistory(input.lotId, { per_page: 50 })) },
    actions: { reportApiError: (_, error) => report(error) },
  });
  return { status, history };
}
export type LotStatusMachines = ReturnType<typeof createLotStatusMachines>;
