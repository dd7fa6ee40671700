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
 * (`formError` / `reasonError`); 401/402/404 also go to `reportApiError`.
 */

export type LotStatusEvent =
  | { type: 'status.open'; lot: Lot }
  | { type: 'status.targetChanged'; status: LotStatus | '' }
  | { type: 'status.reasonChanged'; reason: string }
  | { type: 'status.submit' }
  | { type: 'status.close' };

export interface LotStatusContext {
  lot: Lot | null;
  /** The chosen target ('' until one is chosen). */
  target: LotStatus | '';
  reason: string;
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

/** The request body of the form, or the Spanish messages per field. */
export function validateStatusChange(
  lot: Lot,
  target: LotStatus | '',
  reason: string,
): { ok: true; body: ChangeLotStatusRequest } | { ok: false; targetError: string | null; reasonError: string | null } {
  if (target === '' || !allowedTargets(lot.status).includes(target)) {
    return { ok: false, targetError: 'Elija el nuevo estado', reasonError: null };
  }
  const body = { status: target, reason: reason.trim() === '' ? null : reason.trim() };
  const parsed = changeLotStatusRequestSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues.find((i) => i.path[0] === 'reason') ?? parsed.error.issues[0];
    return { ok: false, targetError: null, reasonError: issue?.message ?? 'Indique el motivo del cambio de estado' };
  }
  return { ok: true, body };
}

const closed: Omit<LotStatusContext, 'lot'> = { target: '', reason: '', targetError: null, reasonError: null, formError: null };

/** Emitted when a lot's status changed (listen with `actor.on('changed', …)`). */
export type LotStatusEmitted = { type: 'changed'; lot: Lot };

/** The status-change machine (unprovided: supply `changeStatus`, `changed`, `reportApiError`). */
export const lotStatusMachine = setup({
  types: { context: {} as LotStatusContext, events: {} as LotStatusEvent, emitted: {} as LotStatusEmitted },
  actors: {
    /** POST lots/{id}/status. @returns the updated lot. */
    changeStatus: placeholder<Lot, { id: number; body: ChangeLotStatusRequest }>('changeStatus'),
  },
  actions: {
    /** The lot changed (refresh the table / map, toast). */
    changed: (_, _lot: Lot) => {},
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
          actions: assign(({ event }) => ({ target: event.status, targetError: null, reasonError: null, formError: null })),
        },
        'status.reasonChanged': { actions: assign(({ event }) => ({ reason: event.reason, reasonError: null })) },
        'status.submit': [
          {
            guard: ({ context }) => validateStatusChange(context.lot!, context.target, context.reason).ok,
            target: 'submitting',
          },
          {
            actions: assign(({ context }) => {
              const result = validateStatusChange(context.lot!, context.target, context.reason);
              return result.ok ? {} : { targetError: result.targetError, reasonError: result.reasonError };
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
          const result = validateStatusChange(context.lot!, context.target, context.reason);
          return { id: context.lot!.id, body: result.ok ? result.body : { status: context.target as LotStatus } };
        },
        onDone: {
          target: 'closed',
          actions: [
            { type: 'changed', params: ({ event }) => event.output },
            emit(({ event }) => ({ type: 'changed' as const, lot: event.output })),
            assign({ lot: null, ...closed }),
          ],
        },
        onError: {
          target: 'editing',
          actions: [
            assign(({ event }) => {
              const { fields, rest } = fieldErrorsFrom(event.error, ['reason', 'status'] as const);
              return {
                reasonError: fields.reason ?? null,
                targetError: fields.status ?? null,
                formError: rest.length > 0 ? rest.join(' ') : fields.reason || fields.status ? null : errorMessage(event.error),
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
      changed: (_, lot) => deps.toaster?.show({ severity: 'success', summary: 'Estado actualizado', detail: lot.code }),
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
