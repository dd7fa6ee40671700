import { assign, emit, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import type { LeadImportOptions, LeadImportPreview, LeadImportResult } from '../../schemas/crm/leads';
import { placeholder } from '../shared/placeholder';
import { errorMessage, fieldErrorsFrom } from '../shared/api-errors';

/**
 * "Importar" on CRM → LEADS (issue "CRM and sales": CSV/XLSX with the preview → all-or-nothing flow
 * of the lot import): closed → (`import.open`) editing → (`import.check`) previewing → previewed →
 * (`import.confirm`, only without errors and with something to store) importing → closed, emitting
 * `imported` (the page reloads its list). Changing the file or an option drops the preview.
 */

export interface LeadImportContext {
  file: File | null;
  options: {
    channel: NonNullable<LeadImportOptions['channel']>;
    agent_id: number | null;
    duplicates: NonNullable<LeadImportOptions['duplicates']>;
  };
  preview: LeadImportPreview | null;
  /** The message of a failed call (a field's, else the call's). */
  error: string | null;
}

export type LeadImportEvent =
  | { type: 'import.open' }
  | { type: 'import.close' }
  | { type: 'import.fileChosen'; file: File | null }
  | { type: 'import.optionChanged'; option: keyof LeadImportContext['options']; value: string | number | null }
  | { type: 'import.check' }
  | { type: 'import.confirm' };

const INITIAL: LeadImportContext = {
  file: null,
  options: { channel: 'FACEBOOK', agent_id: null, duplicates: 'MERGE' },
  preview: null,
  error: null,
};

/** The options as the api sends them. */
export const importOptions = (context: LeadImportContext): LeadImportOptions => ({
  channel: context.options.channel,
  duplicates: context.options.duplicates,
  ...(context.options.agent_id === null ? {} : { agent_id: context.options.agent_id }),
});

/** Whether the preview can be stored: no errors and at least one lead to create or merge. */
export const canImport = (preview: LeadImportPreview | null): boolean =>
  preview !== null && preview.errors === 0 && preview.create + preview.merge > 0;

const callError = (error: unknown) => {
  const { fields } = fieldErrorsFrom(error, ['file', 'agent_id', 'channel', 'duplicates']);
  return fields.file ?? fields.agent_id ?? fields.channel ?? fields.duplicates ?? errorMessage(error);
};

export const leadImportMachine = setup({
  types: { context: {} as LeadImportContext, events: {} as LeadImportEvent, emitted: {} as { type: 'imported' } },
  actors: {
    preview: placeholder<LeadImportPreview, { file: File; options: LeadImportOptions }>('preview'),
    commit: placeholder<LeadImportResult, { file: File; options: LeadImportOptions }>('commit'),
  },
  actions: {
    reportApiError: (_, _error: ApiError) => {},
    imported: (_, _result: LeadImportResult) => {},
  },
}).createMachine({
  id: 'leadImport',
  context: INITIAL,
  initial: 'closed',
  states: {
    closed: { on: { 'import.open': { target: 'editing', actions: assign(INITIAL) } } },
    editing: {
      on: {
        'import.close': 'closed',
        'import.fileChosen': { target: 'editing', actions: assign(({ event }) => ({ file: event.file, preview: null, error: null })) },
        'import.optionChanged': {
          target: 'editing',
          actions: assign(({ context, event }) => ({
            options: { ...context.options, [event.option]: event.value },
            preview: null,
            error: null,
          })),
        },
        'import.check': [
          { guard: ({ context }) => context.file === null, actions: assign({ error: 'Elija el archivo de leads (CSV o XLSX)' }) },
          { target: 'previewing' },
        ],
        'import.confirm': { guard: ({ context }) => canImport(context.preview), target: 'importing' },
      },
    },
    previewing: {
      invoke: {
        src: 'preview',
        input: ({ context }) => ({ file: context.file!, options: importOptions(context) }),
        onDone: { target: 'editing', actions: assign(({ event }) => ({ preview: event.output, error: null })) },
        onError: {
          target: 'editing',
          actions: [
            assign(({ event }) => ({ error: callError(event.error) })),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
    importing: {
      invoke: {
        src: 'commit',
        input: ({ context }) => ({ file: context.file!, options: importOptions(context) }),
        onDone: {
          target: 'closed',
          actions: [{ type: 'imported', params: ({ event }) => event.output }, emit({ type: 'imported' as const })],
        },
        onError: {
          target: 'editing',
          actions: [
            assign(({ event }) => ({ error: callError(event.error) })),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
  },
});
export type LeadImportMachine = typeof leadImportMachine;
