import { assign, emit, enqueueActions, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import type { CreateLeadActivityRequest, Lead, LeadActivity, LeadActivityKind, LeadStatus } from '../../schemas/crm/leads';
import { createLeadActivityRequestSchema, LEAD_MESSAGES, LEAD_STATUS_LABELS, leadMoves } from '../../schemas/crm/leads';
import { limaWallTimeToInstant } from '../../lib/dates';
import { placeholder } from '../shared/placeholder';
import { errorMessage, fieldErrorsFrom, isSessionError } from '../shared/api-errors';

/**
 * One lead's side panel on CRM → LEADS (issue "CRM and sales"): the lead, its activity log, the
 * "new activity" form and the status buttons.
 *
 * closed → (`detail.open {id}`) loading → ready. In ready: `activity.changed` edits the form,
 * `activity.submit` validates it (the request schema; the follow-up is a Lima wall time) and
 * posts it (`adding`); `status.request {status}` changes the status (`changingStatus`), except
 * NO_CONCRETADO, which first asks the reason (`askingReason`: `reason.changed`, then `status.confirm`).
 * After a change the lead and log are fetched again and `changed` is emitted (the page refreshes
 * its list and counts). `detail.refresh` reloads; `detail.close` closes.
 * `detail.open {id, status}` (the board's drag and drop or "Mover a…") opens the lead and, once
 * loaded, requests that status as the panel's button would (the reason asked for NO_CONCRETADO); a
 * move the lead does not allow (any more) is not made and says so.
 */

/** The activity form's values: the follow-up as the datetime-local input writes it (Lima), '' for none. */
export interface ActivityForm {
  kind: LeadActivityKind;
  outcome: string;
  next_follow_up: string;
}

const EMPTY_ACTIVITY: ActivityForm = { kind: 'LLAMADA', outcome: '', next_follow_up: '' };

export interface LeadDetailContext {
  id: number | null;
  lead: Lead | null;
  activities: LeadActivity[];
  /** Loading failed, or the last change's message that belongs to no field. */
  error: string | null;
  form: ActivityForm;
  formErrors: Partial<Record<keyof ActivityForm, string>>;
  /** The status asked for (while asking the reason or changing). */
  pendingStatus: LeadStatus | null;
  /** The NO_CONCRETADO reason being typed. */
  reason: string;
  reasonError: string | null;
  /** A status to request once the lead is loaded (`detail.open {status}`). */
  queuedStatus?: LeadStatus | null;
}

export type LeadDetailEvent =
  | { type: 'detail.open'; id: number; status?: LeadStatus }
  | { type: 'detail.close' }
  | { type: 'detail.refresh' }
  | { type: 'activity.changed'; field: keyof ActivityForm; value: string }
  | { type: 'activity.submit' }
  | { type: 'status.request'; status: LeadStatus }
  | { type: 'reason.changed'; value: string }
  | { type: 'status.confirm' }
  | { type: 'status.cancel' };

/** The activity form → POST body, or the first message per field. */
export function activityBody(
  form: ActivityForm,
): { ok: true; body: CreateLeadActivityRequest } | { ok: false; errors: LeadDetailContext['formErrors'] } {
  const followUp = form.next_follow_up.trim() === '' ? undefined : limaWallTimeToInstant(form.next_follow_up);
  if (followUp === null) return { ok: false, errors: { next_follow_up: 'Fecha y hora inválidas' } };
  const parsed = createLeadActivityRequestSchema.safeParse({
    kind: form.kind,
    outcome: form.outcome,
    ...(followUp ? { next_follow_up_at: followUp } : {}),
  });
  if (parsed.success) return { ok: true, body: parsed.data };
  const errors: LeadDetailContext['formErrors'] = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] === 'next_follow_up_at' ? 'next_follow_up' : (issue.path[0] as keyof ActivityForm);
    errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}

export const leadDetailMachine = setup({
  types: {
    context: {} as LeadDetailContext,
    events: {} as LeadDetailEvent,
    emitted: {} as { type: 'changed' },
  },
  actors: {
    /** GET the lead and its log. */
    load: placeholder<{ lead: Lead; activities: LeadActivity[] }, { id: number }>('load'),
    addActivity: placeholder<LeadActivity, { id: number; body: CreateLeadActivityRequest }>('addActivity'),
    /** PATCH the status (with the reason for NO_CONCRETADO and the version read). */
    changeStatus: placeholder<Lead, { lead: Lead; status: LeadStatus; reason: string | null }>('changeStatus'),
  },
  actions: {
    reportApiError: (_, _error: ApiError) => {},
    /** Toast of a change done. */
    done: (_, _message: string) => {},
  },
  guards: {
    asksReason: ({ event }) => event.type === 'status.request' && event.status === 'NO_CONCRETADO',
  },
}).createMachine({
  id: 'leadDetail',
  context: {
    id: null,
    lead: null,
    activities: [],
    error: null,
    form: EMPTY_ACTIVITY,
    formErrors: {},
    pendingStatus: null,
    reason: '',
    reasonError: null,
  },
  initial: 'closed',
  on: {
    'detail.open': {
      target: '.loading',
      actions: assign(({ event }) => ({
        id: event.id,
        lead: null,
        activities: [],
        error: null,
        form: EMPTY_ACTIVITY,
        formErrors: {},
        queuedStatus: event.status ?? null,
      })),
    },
    'detail.close': { target: '.closed', actions: assign({ id: null, lead: null, activities: [], error: null }) },
  },
  states: {
    closed: {},
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ id: context.id! }),
        onDone: {
          target: 'ready',
          actions: [
            assign(({ event }) => ({ lead: event.output.lead, activities: event.output.activities, error: null })),
            enqueueActions(({ context, enqueue }) => {
              const status = context.queuedStatus;
              if (!status || !context.lead) return;
              enqueue.assign({ queuedStatus: null });
              if (context.lead.status === status) return;
              if (leadMoves(context.lead).includes(status)) enqueue.raise({ type: 'status.request', status });
              else
                enqueue.assign({
                  error: `Este lead no puede pasar de «${LEAD_STATUS_LABELS[context.lead.status]}» a «${LEAD_STATUS_LABELS[status]}»`,
                });
            }),
          ],
        },
        onError: {
          target: 'failed',
          actions: [
            assign(({ event }) => ({ error: errorMessage(event.error) })),
            ({ event, self }) => {
              if (isSessionError(event.error)) self.send({ type: 'detail.close' });
            },
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
    failed: { on: { 'detail.refresh': 'loading' } },
    ready: {
      on: {
        'detail.refresh': 'loading',
        'activity.changed': {
          actions: assign(({ context, event }) => ({
            form: { ...context.form, [event.field]: event.value },
            formErrors: { ...context.formErrors, [event.field]: undefined },
          })),
        },
        'activity.submit': [
          {
            guard: ({ context }) => !activityBody(context.form).ok,
            actions: assign(({ context }) => {
              const result = activityBody(context.form);
              return { formErrors: result.ok ? {} : result.errors };
            }),
          },
          { target: 'adding' },
        ],
        'status.request': [
          {
            guard: 'asksReason',
            target: 'askingReason',
            actions: assign(({ event }) => ({ pendingStatus: event.status, reason: '', reasonError: null })),
          },
          { target: 'changingStatus', actions: assign(({ event }) => ({ pendingStatus: event.status, error: null })) },
        ],
      },
    },
    askingReason: {
      on: {
        'reason.changed': { actions: assign(({ event }) => ({ reason: event.value, reasonError: null })) },
        'status.confirm': [
          {
            guard: ({ context }) => context.reason.trim() === '',
            actions: assign({ reasonError: LEAD_MESSAGES.reasonRequired }),
          },
          { target: 'changingStatus', actions: assign({ reasonError: null }) },
        ],
        'status.cancel': { target: 'ready', actions: assign({ pendingStatus: null, reasonError: null }) },
      },
    },
    adding: {
      invoke: {
        src: 'addActivity',
        input: ({ context }) => {
          const result = activityBody(context.form);
          if (!result.ok) throw new Error('invalid activity');
          return { id: context.id!, body: result.body };
        },
        onDone: {
          target: 'loading',
          actions: [
            assign({ form: EMPTY_ACTIVITY, formErrors: {}, error: null }),
            emit({ type: 'changed' as const }),
            { type: 'done', params: 'Actividad registrada' },
          ],
        },
        onError: {
          target: 'ready',
          actions: [
            assign(({ event }) => {
              const { fields, rest } = fieldErrorsFrom(event.error, ['kind', 'outcome', 'next_follow_up_at', 'occurred_at']);
              return {
                formErrors: { kind: fields.kind, outcome: fields.outcome ?? fields.occurred_at, next_follow_up: fields.next_follow_up_at },
                error: Object.keys(fields).length > 0 ? (rest[0] ?? null) : errorMessage(event.error),
              };
            }),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
    changingStatus: {
      invoke: {
        src: 'changeStatus',
        input: ({ context, event }) => ({
          lead: context.lead!,
          status: context.pendingStatus!,
          reason: event.type === 'status.confirm' ? context.reason.trim() : null,
        }),
        onDone: {
          target: 'loading',
          actions: [
            assign({ pendingStatus: null, error: null }),
            emit({ type: 'changed' as const }),
            { type: 'done', params: 'Estado actualizado' },
          ],
        },
        onError: {
          target: 'ready',
          actions: [
            assign(({ event }) => {
              const { fields } = fieldErrorsFrom(event.error, ['status', 'lost_reason']);
              return { pendingStatus: null, error: fields.status ?? fields.lost_reason ?? errorMessage(event.error) };
            }),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
  },
});
export type LeadDetailMachine = typeof leadDetailMachine;
