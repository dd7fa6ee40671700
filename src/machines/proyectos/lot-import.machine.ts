import { assign, emit, fromPromise, setup, type ActorRef, type Snapshot } from 'xstate';
import type { ApiError } from '../../api/client';
import type { UploadOptions } from '../../api/lot-imports';
import { IMPORT_MAX_BYTES, type ImportIssue, type ImportPreview } from '../../schemas/projects';
import { placeholder } from '../shared/placeholder';
import { errorMessage } from '../shared/api-errors';

/**
 * The lot-import dialog (issue "Proyectos" → Import; docs/import.md): choose a CSV, XLSX, GeoJSON
 * or DXF file → the server's preview (nothing stored) → review (can import | blocked by errors;
 * a DXF layer change previews again) → import (all or nothing) → done | failed.
 *
 * States: idle → choosingFile → previewing → reviewed.{canImport|blocked} → importing → done |
 * failed. Events: `import.open {key}` (any state: starts over), `import.file {file}`,
 * `import.layer {layer}`, `import.confirm`, `import.retry`, `import.cancel` (any state → idle; an
 * upload in flight is aborted: leaving previewing / importing stops the actor, whose AbortSignal
 * aborts the XMLHttpRequest), `import.progress {fraction}` (from the running actor: the share of
 * the file sent, 0..1, kept in `context.progress`; 1 = uploaded, the server is processing).
 * Emits `{ type: 'imported', created, updated }` when stored.
 * Actors (provided in lot-import.actors.ts, fakes in tests): `preview`, `commit` — promise actors
 * that get the machine's own ref as `input.parent` and send it `import.progress` (XState v5: a
 * promise actor sends events to the actors its input references).
 */

/** File extensions the dialog offers (the server detects the format from the bytes). */
export const IMPORT_ACCEPT = '.csv,.xlsx,.geojson,.json,.dxf';
/** Spanish refusal of a file over {@link IMPORT_MAX_BYTES}. */
export const IMPORT_TOO_LARGE = `El archivo supera el máximo de ${IMPORT_MAX_BYTES / 1024 / 1024} MB`;
/** Spanish refusal of a file whose extension is none of {@link IMPORT_ACCEPT}. */
export const IMPORT_WRONG_TYPE = 'Elija un archivo CSV, XLSX, GeoJSON o DXF';

/** The `import.progress` event the upload actors send. */
export type LotImportProgressEvent = { type: 'import.progress'; fraction: number };

/** Input of the `preview` and `commit` actors. */
export interface LotImportRequest {
  key: string;
  file: File;
  layer: string | null;
  /** The lot-import actor itself: the upload sends it `import.progress` events. */
  parent: ActorRef<Snapshot<unknown>, LotImportProgressEvent>;
}

export interface LotImportContext {
  /** Subdivision key (opaque). */
  key: string;
  file: File | null;
  /** DXF layer chosen (null: the server's default). */
  layer: string | null;
  preview: ImportPreview | null;
  /** Spanish message of a refused file or a failed call. */
  error: string | null;
  /** Issues of a refused import (422), errors first. */
  rejectedIssues: ImportIssue[];
  result: { created: number; updated: number } | null;
  /** Share of the file uploaded by the running preview / commit (0..1; 1: the server is processing). */
  progress: number;
}

export type LotImportEvent =
  | { type: 'import.open'; key: string }
  | { type: 'import.file'; file: File }
  | { type: 'import.layer'; layer: string }
  | { type: 'import.confirm' }
  | { type: 'import.retry' }
  | { type: 'import.cancel' }
  | LotImportProgressEvent;

export type LotImportEmitted = { type: 'imported'; created: number; updated: number };

/** Client-side check of a chosen file (the server checks again). @returns a message or null. */
export function importFileProblem(file: { name: string; size: number }): string | null {
  const ext = `.${file.name.toLowerCase().split('.').pop() ?? ''}`;
  if (!IMPORT_ACCEPT.split(',').includes(ext)) return IMPORT_WRONG_TYPE;
  if (file.size > IMPORT_MAX_BYTES) return IMPORT_TOO_LARGE;
  return null;
}

/** Issues carried by a refused commit (duck-typed so tests can throw plain objects). */
function issuesOf(error: unknown): ImportIssue[] {
  const issues = (error as { importIssues?: unknown } | null)?.importIssues;
  return Array.isArray(issues) ? (issues as ImportIssue[]) : [];
}

const fresh = (key: string): LotImportContext => ({ key, file: null, layer: null, preview: null, error: null, rejectedIssues: [], result: null, progress: 0 });

/** A progress fraction kept within 0..1 (NaN → 0). */
const clampFraction = (fraction: number) => (fraction > 0 ? Math.min(1, fraction) : 0);

export const lotImportMachine = setup({
  types: {
    context: {} as LotImportContext,
    events: {} as LotImportEvent,
    emitted: {} as LotImportEmitted,
    input: {} as { key?: string } | undefined,
  },
  actors: {
    /** POST …/imports/preview. */
    preview: placeholder<ImportPreview, LotImportRequest>('preview') as ReturnType<typeof fromPromise<ImportPreview, LotImportRequest>>,
    /** POST …/imports. */
    commit: placeholder<{ created: number; updated: number }, LotImportRequest>('commit') as ReturnType<
      typeof fromPromise<{ created: number; updated: number }, LotImportRequest>
    >,
  },
  actions: {
    /** A new upload starts at 0. */
    resetProgress: assign({ progress: 0 }),
    /** `import.progress` → `context.progress`. */
    setProgress: assign(({ event }) => (event.type === 'import.progress' ? { progress: clampFraction(event.fraction) } : {})),
    /** Session errors (401/402…) go to the session machine (provided). */
    reportApiError: (_, _error: unknown) => {},
  },
  guards: {
    canImport: ({ context }) => context.preview?.can_import === true,
    fileAccepted: ({ event }) => event.type === 'import.file' && importFileProblem(event.file) === null,
    hasFile: ({ context }) => context.file !== null,
  },
}).createMachine({
  id: 'lotImport',
  context: ({ input }) => fresh(input?.key ?? ''),
  initial: 'idle',
  on: {
    'import.open': { target: '.choosingFile', actions: assign(({ event }) => fresh(event.key)) },
    'import.cancel': { target: '.idle', actions: assign(({ context }) => fresh(context.key)) },
  },
  states: {
    idle: {},
    choosingFile: {
      on: {
        'import.file': [
          { guard: 'fileAccepted', target: 'previewing', actions: assign(({ event }) => ({ file: event.file, layer: null, error: null, preview: null })) },
          { actions: assign(({ event }) => ({ file: null, error: importFileProblem(event.file) })) },
        ],
      },
    },
    previewing: {
      entry: 'resetProgress',
      on: { 'import.progress': { actions: 'setProgress' } },
      invoke: {
        src: 'preview',
        input: ({ context, self }) => ({ key: context.key, file: context.file!, layer: context.layer, parent: self }),
        onDone: { target: 'reviewed', actions: assign(({ event }) => ({ preview: event.output, layer: event.output.layer, error: null })) },
        onError: {
          target: 'failed',
          actions: [assign(({ event }) => ({ error: errorMessage(event.error), rejectedIssues: [] })), { type: 'reportApiError', params: ({ event }: { event: { error: unknown } }) => event.error }],
        },
      },
    },
    reviewed: {
      initial: 'checking',
      on: {
        'import.layer': { target: 'previewing', actions: assign(({ event }) => ({ layer: event.layer })) },
        'import.file': [
          { guard: 'fileAccepted', target: 'previewing', actions: assign(({ event }) => ({ file: event.file, layer: null, error: null, preview: null })) },
          { target: 'choosingFile', actions: assign(({ event }) => ({ file: null, preview: null, error: importFileProblem(event.file) })) },
        ],
      },
      states: {
        checking: { always: [{ guard: 'canImport', target: 'canImport' }, { target: 'blocked' }] },
        canImport: { on: { 'import.confirm': '#lotImport.importing' } },
        blocked: {},
      },
    },
    importing: {
      entry: 'resetProgress',
      on: { 'import.progress': { actions: 'setProgress' } },
      invoke: {
        src: 'commit',
        input: ({ context, self }) => ({ key: context.key, file: context.file!, layer: context.layer, parent: self }),
        onDone: {
          target: 'done',
          actions: [
            assign(({ event }) => ({ result: event.output, error: null })),
            emit(({ event }) => ({ type: 'imported' as const, created: event.output.created, updated: event.output.updated })),
          ],
        },
        onError: {
          target: 'failed',
          actions: [
            assign(({ event }) => ({ error: errorMessage(event.error), rejectedIssues: issuesOf(event.error) })),
            { type: 'reportApiError', params: ({ event }: { event: { error: unknown } }) => event.error },
          ],
        },
      },
    },
    done: {},
    failed: {
      on: {
        'import.retry': { guard: 'hasFile', target: 'previewing', actions: assign({ error: null, rejectedIssues: [] }) },
        'import.file': [
          { guard: 'fileAccepted', target: 'previewing', actions: assign(({ event }) => ({ file: event.file, layer: null, error: null, preview: null, rejectedIssues: [] })) },
          { target: 'choosingFile', actions: assign(({ event }) => ({ file: null, preview: null, rejectedIssues: [], error: importFileProblem(event.file) })) },
        ],
      },
    },
  },
});
export type LotImportMachine = typeof lotImportMachine;

/**
 * Effects of {@link lotImportMachine}. `options.onProgress` reports the share of the file sent;
 * `options.signal` aborts when the dialog is cancelled (the actor stops).
 */
export interface LotImportDeps {
  preview: (key: string, file: File, layer: string | null, options: UploadOptions) => Promise<ImportPreview>;
  commit: (key: string, file: File, layer: string | null, options: UploadOptions) => Promise<{ created: number; updated: number }>;
  /** Receives every failed call's ApiError; the caller forwards session errors (401/402). */
  reportApiError: (error: ApiError) => void;
}

/** Upload options of one actor run: progress sent to the machine, abort when the actor stops. */
const uploadOptions = (input: LotImportRequest, signal: AbortSignal): UploadOptions => ({
  signal,
  onProgress: (fraction) => input.parent.send({ type: 'import.progress', fraction }),
});

/** The machine provided with its effects. */
export function provideLotImportMachine(deps: LotImportDeps) {
  return lotImportMachine.provide({
    actors: {
      preview: fromPromise<ImportPreview, LotImportRequest>(({ input, signal }) => deps.preview(input.key, input.file, input.layer, uploadOptions(input, signal))),
      commit: fromPromise<{ created: number; updated: number }, LotImportRequest>(({ input, signal }) =>
        deps.commit(input.key, input.file, input.layer, uploadOptions(input, signal)),
      ),
    },
    actions: { reportApiError: (_, error) => deps.reportApiError(error as ApiError) },
  });
}
