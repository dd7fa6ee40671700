import { assign, emit, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import type { Sale } from '../../schemas/comercio/sales';
import {
  RESCHEDULE_MESSAGES,
  type LateFeeChoice,
  type ReschedulePreview,
  type ReschedulePreviewQuery,
  type RescheduleSaleRequest,
} from '../../schemas/comercio/rescissions';
import { errorMessage } from '../shared/api-errors';
import { placeholder } from '../shared/placeholder';

type Method = RescheduleSaleRequest['method'];

/** The adenda's terms as typed. */
export interface RescheduleFields {
  method: Method;
  instalments: string;
  rate: string;
  /** `YYYY-MM-DD` (the date input's value). */
  firstDueDate: string;
  lateFees: LateFeeChoice;
}

/** What the "Reprogramar" dialog edits. */
export interface RescheduleSaleContext {
  record: Sale | null;
  /** GET sales/{id}/reschedule: without terms first (balance, fees, open rows), then with them (the new rows). */
  preview: ReschedulePreview | null;
  fields: RescheduleFields;
  reason: string;
  error: string | null;
  dirty: boolean;
}

/** The preview query of the typed terms, or null while they are incomplete or malformed. */
export function termsQuery(fields: RescheduleFields): ReschedulePreviewQuery | null {
  const instalments = Number(fields.instalments);
  if (!Number.isInteger(instalments) || instalments < 1 || instalments > 360) return null;
  if (!/^\d(\.\d{1,4})?$/.test(fields.rate.trim())) return null;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(fields.firstDueDate)) return null;
  return {
    method: fields.method,
    instalments,
    monthly_rate_percent: fields.rate.trim(),
    first_due_date: fields.firstDueDate,
    late_fees: fields.lateFees,
  };
}

/** The POST sales/{id}/reschedule body (terms complete: the machine checks first). */
export function rescheduleBody(context: RescheduleSaleContext): RescheduleSaleRequest {
  const q = termsQuery(context.fields)!;
  return {
    method: q.method!,
    instalments: q.instalments!,
    monthly_rate_percent: q.monthly_rate_percent!,
    first_due_date: q.first_due_date!,
    late_fees: q.late_fees!,
    reason: context.reason.trim(),
    version: context.preview?.version ?? context.record?.version ?? 1,
  };
}

const TERMS_INCOMPLETE = 'Complete el método, las cuotas (1 a 360), la tasa mensual y la fecha de la primera cuota';
const initialFields: RescheduleFields = { method: 'SIN_INTERES', instalments: '12', rate: '0', firstDueDate: '', lateFees: 'CARRY' };
const cleared = { record: null, preview: null, fields: initialFields, reason: '', error: null, dirty: false };

/**
 * "Reprogramar" in the sale's drawer (docs/domain.md "Rescheduling (adenda)"): idle →
 * (`reschedule.request {record}`) loading (actor `loadPreview` without terms: balance, late fees,
 * open rows) → asking; `reschedule.field {patch}` edits the terms, `reschedule.preview` loads the
 * new schedule for them (previewing → asking: the old open rows beside the new ones),
 * `reschedule.reason {text}`; `reschedule.confirm` (terms complete, reason ≥ 3) → running (actor
 * `run`) → idle emitting `done {record}`. A failed call stays with its Spanish message. Cancelling
 * with something typed asks first (`confirmingDiscard`).
 */
export const rescheduleSaleMachine = setup({
  types: {
    context: {} as RescheduleSaleContext,
    events: {} as
      | { type: 'reschedule.request'; record: Sale }
      | { type: 'reschedule.field'; patch: Partial<RescheduleFields> }
      | { type: 'reschedule.reason'; text: string }
      | { type: 'reschedule.preview' }
      | { type: 'reschedule.confirm' }
      | { type: 'reschedule.cancel' }
      | { type: 'reschedule.discard' }
      | { type: 'reschedule.keepEditing' },
    emitted: {} as { type: 'done'; record: Sale },
  },
  actors: {
    loadPreview: placeholder<ReschedulePreview, { id: number; query: ReschedulePreviewQuery }>('loadPreview'),
    run: placeholder<Sale, { id: number; body: RescheduleSaleRequest }>('run'),
  },
  actions: { reportApiError: (_, _error: ApiError) => {}, done: (_, _p: { record: Sale }) => {} },
  guards: { isDirty: ({ context }) => context.dirty },
}).createMachine({
  id: 'rescheduleSale',
  context: cleared,
  initial: 'idle',
  states: {
    idle: {
      on: { 'reschedule.request': { target: 'loading', actions: assign(({ event }) => ({ ...cleared, record: event.record })) } },
    },
    loading: {
      on: { 'reschedule.cancel': { target: 'idle', actions: assign(cleared) } },
      invoke: {
        src: 'loadPreview',
        input: ({ context }) => ({ id: context.record!.id, query: {} }),
        onDone: { target: 'asking', actions: assign(({ event }) => ({ preview: event.output })) },
        onError: {
          target: 'asking',
          actions: [
            assign(({ event }) => ({ error: errorMessage(event.error) })),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
    asking: {
      on: {
        'reschedule.field': {
          actions: assign(({ context, event }) => ({ fields: { ...context.fields, ...event.patch }, error: null, dirty: true })),
        },
        'reschedule.reason': { actions: assign(({ event }) => ({ reason: event.text, error: null, dirty: true })) },
        'reschedule.preview': [
          { guard: ({ context }) => termsQuery(context.fields) === null, actions: assign({ error: TERMS_INCOMPLETE }) },
          { target: 'previewing' },
        ],
        'reschedule.confirm': [
          { guard: ({ context }) => termsQuery(context.fields) === null, actions: assign({ error: TERMS_INCOMPLETE }) },
          { guard: ({ context }) => context.reason.trim().length < 3, actions: assign({ error: RESCHEDULE_MESSAGES.reasonRequired }) },
          { target: 'running' },
        ],
        'reschedule.cancel': [
          { guard: 'isDirty', target: 'confirmingDiscard' },
          { target: 'idle', actions: assign(cleared) },
        ],
      },
    },
    previewing: {
      invoke: {
        src: 'loadPreview',
        input: ({ context }) => ({ id: context.record!.id, query: termsQuery(context.fields)! }),
        onDone: {
          target: 'asking',
          actions: assign(({ event }) => ({ preview: event.output, error: event.output.reasons[0] ?? null })),
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
    confirmingDiscard: {
      on: {
        'reschedule.discard': { target: 'idle', actions: assign(cleared) },
        'reschedule.keepEditing': { target: 'asking' },
      },
    },
    running: {
      invoke: {
        src: 'run',
        input: ({ context }) => ({ id: context.record!.id, body: rescheduleBody(context) }),
        onDone: {
          target: 'idle',
          actions: [
            { type: 'done', params: ({ event }) => ({ record: event.output }) },
            emit(({ event }) => ({ type: 'done' as const, record: event.output })),
            assign(cleared),
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
export type RescheduleSaleMachine = typeof rescheduleSaleMachine;
