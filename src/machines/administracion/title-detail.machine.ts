import { assign, emit, setup } from 'xstate';
import type { TitleProcessDetail, UpdateTitleProcessRequest } from '../../schemas/administracion/titles';
import { errorMessage, errorStatus, fieldErrorsFrom } from '../shared/api-errors';
import { placeholder } from '../shared/placeholder';

const FIELDS = ['retention_pact_note', 'notes'] as const;
export type TitleDetailErrors = Partial<Record<(typeof FIELDS)[number], string>>;

export interface TitleDetailContext {
  id: number | null;
  process: TitleProcessDetail | null;
  /** Loading failed (Spanish). */
  loadError: string | null;
  pactStated: boolean;
  pactNote: string;
  notes: string;
  errors: TitleDetailErrors;
  /** A refused save that is no field's (Spanish); `stale` when another user changed the process first (409). */
  saveError: string | null;
  stale: boolean;
  dirty: boolean;
}

export type TitleDetailEvent =
  | { type: 'detail.open'; id: number }
  | { type: 'detail.updated'; process: TitleProcessDetail }
  | { type: 'detail.reload' }
  | { type: 'detail.pact'; stated: boolean }
  | { type: 'detail.changed'; field: 'pactNote' | 'notes'; value: string }
  | { type: 'detail.save' }
  | { type: 'detail.download' }
  | { type: 'detail.close' }
  | { type: 'detail.discard' }
  | { type: 'detail.keepEditing' };

/** The editable part taken from a process (after a load or a save). */
const editable = (p: TitleProcessDetail) => ({
  process: p,
  pactStated: p.retention_pact_stated,
  pactNote: p.retention_pact_note ?? '',
  notes: p.notes ?? '',
  errors: {},
  saveError: null,
  stale: false,
  dirty: false,
});

/** PATCH's body from the form, with the version read. */
export function updateBody(context: Pick<TitleDetailContext, 'process' | 'pactStated' | 'pactNote' | 'notes'>): UpdateTitleProcessRequest {
  return {
    version: context.process?.version ?? 1,
    retention_pact_stated: context.pactStated,
    retention_pact_note: context.pactStated ? context.pactNote.trim() || null : null,
    notes: context.notes.trim() || null,
  };
}

/**
 * A title process's drawer (docs/domain.md "Titles at SUNARP"): closed → (`detail.open {id}`)
 * loading → ready: the fields of every state reached, the history of its moves, the acta de
 * entrega's download (`detail.download`), and the retention-of-title pact and notes edited in place
 * (`detail.save` → saving → ready, emitting `saved`); a 409 (another user changed it) says so and
 * offers `detail.reload`. `detail.updated {process}` shows a process moved elsewhere (the
 * "Cambiar estado" dialog). Closing with unsaved changes asks first (`confirmingDiscard`).
 * Provide actors `load` (id → process), `save` ({id, body} → process), `download` (process → void),
 * actions `saved` (a toast), `downloadFailed` (a toast) and `reportApiError`.
 */
export const titleDetailMachine = setup({
  types: {
    context: {} as TitleDetailContext,
    events: {} as TitleDetailEvent,
    emitted: {} as { type: 'saved'; process: TitleProcessDetail },
  },
  actors: {
    load: placeholder<TitleProcessDetail, number>('load'),
    save: placeholder<TitleProcessDetail, { id: number; body: UpdateTitleProcessRequest }>('save'),
    download: placeholder<void, TitleProcessDetail>('download'),
  },
  actions: {
    saved: (_, _p: { process: TitleProcessDetail }) => {},
    downloadFailed: (_, _message: string) => {},
    reportApiError: (_, _error: unknown) => {},
  },
}).createMachine({
  id: 'titleDetail',
  context: {
    id: null,
    process: null,
    loadError: null,
    pactStated: false,
    pactNote: '',
    notes: '',
    errors: {},
    saveError: null,
    stale: false,
    dirty: false,
  },
  initial: 'closed',
  states: {
    closed: {
      on: { 'detail.open': { target: 'loading', actions: assign(({ event }) => ({ id: event.id, process: null, loadError: null })) } },
    },
    loading: {
      on: { 'detail.close': 'closed' },
      invoke: {
        src: 'load',
        input: ({ context }) => context.id!,
        onDone: { target: 'ready', actions: assign(({ event }) => editable(event.output)) },
        onError: {
          target: 'failure',
          actions: [
            assign(({ event }) => ({ loadError: errorMessage(event.error) })),
            { type: 'reportApiError', params: ({ event }: { event: { error: unknown } }) => event.error },
          ],
        },
      },
    },
    failure: { on: { 'detail.reload': 'loading', 'detail.close': 'closed' } },
    ready: {
      initial: 'idle',
      on: {
        'detail.updated': {
          guard: ({ context, event }) => event.process.id === context.id,
          actions: assign(({ context, event }) => (context.dirty ? { process: event.process } : editable(event.process))),
        },
        'detail.reload': '.reloading',
      },
      states: {
        idle: {
          on: {
            'detail.pact': {
              actions: assign(({ context, event }) => ({
                pactStated: event.stated,
                errors: { ...context.errors, retention_pact_note: undefined },
                saveError: null,
                dirty: true,
              })),
            },
            'detail.changed': {
              actions: assign(({ context, event }) =>
                event.field === 'pactNote'
                  ? { pactNote: event.value, errors: { ...context.errors, retention_pact_note: undefined }, saveError: null, dirty: true }
                  : { notes: event.value, errors: { ...context.errors, notes: undefined }, saveError: null, dirty: true },
              ),
            },
            'detail.save': [
              {
                guard: ({ context }) => context.pactStated && !context.pactNote.trim(),
                actions: assign({ errors: { retention_pact_note: 'Indique dónde consta el pacto de reserva de propiedad' } }),
              },
              { target: 'saving' },
            ],
            'detail.download': 'downloading',
            'detail.close': [
              { guard: ({ context }) => context.dirty, target: '#titleDetail.confirmingDiscard' },
              { target: '#titleDetail.closed' },
            ],
          },
        },
        saving: {
          invoke: {
            src: 'save',
            input: ({ context }) => ({ id: context.id!, body: updateBody(context) }),
            onDone: {
              target: 'idle',
              actions: [
                assign(({ event }) => editable(event.output)),
                { type: 'saved', params: ({ event }) => ({ process: event.output }) },
                emit(({ event }) => ({ type: 'saved' as const, process: event.output })),
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                assign(({ event }) => {
                  const { fields } = fieldErrorsFrom(event.error, FIELDS);
                  const stale = errorStatus(event.error) === 409;
                  return { errors: fields, stale, saveError: Object.keys(fields).length > 0 ? null : errorMessage(event.error) };
                }),
                { type: 'reportApiError', params: ({ event }: { event: { error: unknown } }) => event.error },
              ],
            },
          },
        },
        downloading: {
          invoke: {
            src: 'download',
            input: ({ context }) => context.process!,
            onDone: 'idle',
            onError: {
              target: 'idle',
              actions: [
                { type: 'downloadFailed', params: ({ event }) => errorMessage(event.error) },
                { type: 'reportApiError', params: ({ event }: { event: { error: unknown } }) => event.error },
              ],
            },
          },
        },
        reloading: {
          invoke: {
            src: 'load',
            input: ({ context }) => context.id!,
            onDone: { target: 'idle', actions: assign(({ event }) => editable(event.output)) },
            onError: { target: 'idle', actions: assign(({ event }) => ({ saveError: errorMessage(event.error) })) },
          },
        },
      },
    },
    /** "¿Descartar los cambios?" over the drawer. */
    confirmingDiscard: { on: { 'detail.discard': 'closed', 'detail.keepEditing': 'ready' } },
  },
});
export type TitleDetailMachine = typeof titleDetailMachine;
