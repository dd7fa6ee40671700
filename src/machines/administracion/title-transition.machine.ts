import { assign, emit, setup } from 'xstate';
import { ApiError } from '../../api/client';
import { todayInLima } from '../../lib/dates';
import { parseMoneyInput } from '../../lib/money';
import {
  TITLE_MESSAGES,
  titleTransitionRequestSchema,
  type TitleProcess,
  type TitleProcessDetail,
  type TitleState,
  type TitleTransitionRequest,
} from '../../schemas/administracion/titles';
import { errorMessage } from '../shared/api-errors';
import { placeholder } from '../shared/placeholder';

/** The text fields of "Cambiar estado" (each target state shows some of them). */
export const TRANSITION_FIELDS = [
  'date',
  'note',
  'notary',
  'escritura_number',
  'titulo_number',
  'observation',
  'amount',
  'currency',
  'partida',
  'asiento',
  'delivery_reference',
] as const;
export type TransitionField = (typeof TRANSITION_FIELDS)[number];
export type TransitionValues = Record<TransitionField, string>;
/** Field errors (Spanish, the first per field); `file` is the delivery record's. */
export type TransitionErrors = Partial<Record<TransitionField | 'file', string>>;

/**
 * The fields the move from `from` to `to` asks for, beside `date` and `note` (docs/domain.md
 * "Titles at SUNARP"): a new presentation (from ESCRITURA or TACHADO) needs the título number; a
 * re-entry or the payment of the mayor derecho keeps it.
 */
export function fieldsOfMove(from: TitleState, to: TitleState): TransitionField[] {
  switch (to) {
    case 'ESCRITURA':
      return ['notary', 'escritura_number'];
    case 'PRESENTADO':
      return from === 'ESCRITURA' || from === 'TACHADO' ? ['titulo_number'] : [];
    case 'OBSERVADO':
      return ['observation'];
    case 'LIQUIDADO':
      return ['amount', 'currency'];
    case 'INSCRITO':
      return ['partida', 'asiento'];
    case 'ENTREGADO':
      return ['delivery_reference'];
    default:
      return [];
  }
}

/** Spanish label of each field's date, by the state reached (and where it comes from). */
export function dateLabelOfMove(from: TitleState, to: TitleState): string {
  switch (to) {
    case 'MINUTA_FIRMADA':
      return 'Fecha de firma de la minuta';
    case 'ESCRITURA':
      return 'Fecha de la escritura';
    case 'PRESENTADO':
      if (from === 'OBSERVADO') return 'Fecha de reingreso';
      if (from === 'LIQUIDADO') return 'Fecha de pago del mayor derecho';
      return 'Fecha de presentación';
    case 'OBSERVADO':
      return 'Fecha de la observación';
    case 'LIQUIDADO':
      return 'Fecha de la liquidación';
    case 'TACHADO':
      return 'Fecha de la tacha';
    case 'INSCRITO':
      return 'Fecha de inscripción';
    case 'ENTREGADO':
      return 'Fecha de entrega';
    default:
      return 'Fecha';
  }
}

const emptyValues = (today: string): TransitionValues => ({
  date: today,
  note: '',
  notary: '',
  escritura_number: '',
  titulo_number: '',
  observation: '',
  amount: '',
  currency: 'PEN',
  partida: '',
  asiento: '',
  delivery_reference: '',
});

export interface TitleTransitionContext {
  /** The process moved (null while closed). */
  process: TitleProcess | null;
  /** The state chosen (one of the process's `next_states`). */
  to: TitleState | null;
  values: TransitionValues;
  /** ENTREGADO: the acta de entrega chosen (PDF or image). */
  file: File | null;
  /** The chosen file is already stored on the server (a transition refused after the upload). */
  uploaded: boolean;
  errors: TransitionErrors;
  /** A refusal that is no field's (409, network), Spanish. */
  error: string | null;
  dirty: boolean;
}

export type TitleTransitionEvent =
  | { type: 'transition.open'; process: TitleProcess; to?: TitleState }
  | { type: 'transition.target'; to: TitleState }
  | { type: 'transition.changed'; field: TransitionField; value: string }
  | { type: 'transition.file'; file: File | null }
  | { type: 'transition.submit' }
  | { type: 'transition.close' }
  | { type: 'transition.discard' }
  | { type: 'transition.keepEditing' };

/** Largest file the browser sends (the server refuses more, docs/security.md 33.2). */
const MAX_FILE_BYTES = 10 * 1024 * 1024;

/**
 * The form as the request body, or its field errors: the same schema the server validates
 * (src/schemas/administracion/titles.ts), the money typed in soles or dollars turned into céntimos,
 * only the fields of the move sent, and ENTREGADO needing the file or the text reference.
 */
export function transitionBody(
  context: Pick<TitleTransitionContext, 'process' | 'to' | 'values' | 'file'>,
): { ok: true; body: TitleTransitionRequest } | { ok: false; errors: TransitionErrors } {
  const { process, to, values } = context;
  if (!process || !to) return { ok: false, errors: {} };
  const errors: TransitionErrors = {};
  const raw: Record<string, unknown> = { to, version: process.version, date: values.date };
  if (values.note.trim()) raw.note = values.note.trim();
  for (const field of fieldsOfMove(process.state, to)) {
    if (field === 'amount') {
      const cents = parseMoneyInput(values.amount);
      if (cents === null) errors.amount = 'Indique el mayor derecho (p. ej. 45.00)';
      raw.amount = cents ?? 0;
    } else if (field === 'delivery_reference') {
      if (values.delivery_reference.trim()) raw.delivery_reference = values.delivery_reference.trim();
      else if (!context.file) errors.delivery_reference = TITLE_MESSAGES.deliveryRequired;
    } else raw[field] = values[field];
  }
  if (context.file && context.file.size > MAX_FILE_BYTES) errors.file = TITLE_MESSAGES.deliveryRecordTooLarge;
  const parsed = titleTransitionRequestSchema.safeParse(raw);
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0] ?? '') as TransitionField;
      if ((TRANSITION_FIELDS as readonly string[]).includes(field) && !errors[field]) errors[field] = issue.message;
    }
  if (Object.keys(errors).length > 0 || !parsed.success) return { ok: false, errors };
  return { ok: true, body: parsed.data as TitleTransitionRequest };
}

/** What a refused call leaves in the form: a 422's messages on the fields, any other refusal's message. */
function failure(error: unknown): Pick<TitleTransitionContext, 'errors' | 'error'> {
  const errors = errorsOf(error);
  return { errors, error: Object.keys(errors).length > 0 ? null : errorMessage(error) };
}

/** A 422's field messages (the file's under `file`), the first per field. */
function errorsOf(error: unknown): TransitionErrors {
  if (!(error instanceof ApiError) || error.status !== 422) return {};
  const out: TransitionErrors = {};
  for (const [path, messages] of Object.entries(error.issues)) {
    if (messages[0] && ((TRANSITION_FIELDS as readonly string[]).includes(path) || path === 'file'))
      out[path as TransitionField | 'file'] = messages[0];
  }
  return out;
}

/**
 * "Cambiar estado" of one title process (docs/domain.md "Titles at SUNARP"): closed →
 * (`transition.open {process, to?}`; the target defaults to the only move when there is one)
 * editing → (`transition.submit`, checked with the request's schema) [uploading the acta de entrega
 * first when ENTREGADO has a file] submitting → closed, emitting `moved {process}` with the process
 * the server answered. Only the moves of the process's `next_states` are offered (the server's
 * transitions table). A 422 shows its messages on the fields, a 409 (a stale version, a move no
 * longer allowed, a sale not paid off) its message; the form stays open. Changes mark it `dirty`:
 * `transition.close` then asks first (`confirmingDiscard`).
 * Provide actors `upload` ({id, file} → process) and `transition` ({id, body} → process), actions
 * `moved` (a toast) and `reportApiError`.
 */
export const titleTransitionMachine = setup({
  types: {
    context: {} as TitleTransitionContext,
    events: {} as TitleTransitionEvent,
    emitted: {} as { type: 'moved'; process: TitleProcessDetail },
  },
  actors: {
    upload: placeholder<TitleProcessDetail, { id: number; file: File }>('upload'),
    transition: placeholder<TitleProcessDetail, { id: number; body: TitleTransitionRequest }>('transition'),
  },
  actions: { moved: (_, _p: { process: TitleProcessDetail }) => {}, reportApiError: (_, _error: unknown) => {} },
  guards: {
    valid: ({ context }) => transitionBody(context).ok,
    mustUpload: ({ context }) => context.to === 'ENTREGADO' && context.file !== null && !context.uploaded,
  },
}).createMachine({
  id: 'titleTransition',
  context: { process: null, to: null, values: emptyValues(''), file: null, uploaded: false, errors: {}, error: null, dirty: false },
  initial: 'closed',
  states: {
    closed: {
      on: {
        'transition.open': {
          target: 'editing',
          actions: assign(({ event }) => {
            const next = event.process.next_states as TitleState[];
            return {
              process: event.process,
              to: event.to ?? (next.length === 1 ? next[0]! : null),
              values: emptyValues(todayInLima()),
              file: null,
              uploaded: false,
              errors: {},
              error: null,
              dirty: false,
            };
          }),
        },
      },
    },
    editing: {
      on: {
        'transition.target': { actions: assign(({ event }) => ({ to: event.to, errors: {}, error: null, dirty: true })) },
        'transition.changed': {
          actions: assign(({ context, event }) => ({
            values: { ...context.values, [event.field]: event.value },
            errors: { ...context.errors, [event.field]: undefined },
            error: null,
            dirty: true,
          })),
        },
        'transition.file': {
          actions: assign(({ context, event }) => ({
            file: event.file,
            uploaded: false,
            errors: { ...context.errors, file: undefined, delivery_reference: undefined },
            error: null,
            dirty: true,
          })),
        },
        'transition.submit': [
          { guard: ({ context }) => context.to === null, actions: assign({ error: 'Elija el nuevo estado' }) },
          { guard: 'valid', target: 'submitting' },
          {
            actions: assign(({ context }) => {
              const result = transitionBody(context);
              return { errors: result.ok ? {} : result.errors };
            }),
          },
        ],
        'transition.close': [
          { guard: ({ context }) => context.dirty, target: 'confirmingDiscard' },
          { target: 'closed', actions: assign({ process: null, to: null, file: null }) },
        ],
      },
    },
    /** "¿Descartar los cambios?": the form stays as it was until the user answers. */
    confirmingDiscard: {
      on: {
        'transition.discard': { target: 'closed', actions: assign({ process: null, to: null, file: null, dirty: false }) },
        'transition.keepEditing': 'editing',
      },
    },
    submitting: {
      initial: 'checking',
      states: {
        checking: { always: [{ guard: 'mustUpload', target: 'uploading' }, { target: 'moving' }] },
        uploading: {
          invoke: {
            src: 'upload',
            input: ({ context }) => ({ id: context.process!.id, file: context.file! }),
            onDone: { target: 'moving', actions: assign({ uploaded: true }) },
            onError: {
              target: '#titleTransition.editing',
              actions: [
                assign(({ event }) => failure(event.error)),
                { type: 'reportApiError', params: ({ event }: { event: { error: unknown } }) => event.error },
              ],
            },
          },
        },
        moving: {
          invoke: {
            src: 'transition',
            input: ({ context }) => {
              const result = transitionBody(context);
              return { id: context.process!.id, body: result.ok ? result.body : ({} as TitleTransitionRequest) };
            },
            onDone: {
              target: '#titleTransition.closed',
              actions: [
                { type: 'moved', params: ({ event }) => ({ process: event.output }) },
                emit(({ event }) => ({ type: 'moved' as const, process: event.output })),
                assign({ process: null, to: null, file: null, dirty: false }),
              ],
            },
            onError: {
              target: '#titleTransition.editing',
              actions: [
                assign(({ event }) => failure(event.error)),
                { type: 'reportApiError', params: ({ event }: { event: { error: unknown } }) => event.error },
              ],
            },
          },
        },
      },
    },
  },
});
export type TitleTransitionMachine = typeof titleTransitionMachine;
