import { assign, emit, fromPromise, setup, type ActorRef, type Snapshot } from 'xstate';
import type { ApiError } from '../../api/client';
import type { ImportChoices, UploadOptions } from '../../api/proyectos/lot-imports';
import {
  IMPORT_MAX_BYTES,
  lotNumberSchema,
  type ImportIssue,
  type ImportPreview,
  type ImportResolution,
  type ImportUseChoice,
  type LandUse,
  type Polygon,
  IMPORT_ISSUE_KINDS,
} from '../../schemas/proyectos/projects';
import { chooseLandUse, landUsesPending, toLandUseChoices, type LandUseChoices } from './land-use-choices';
import { pathData, polygonBounds, projector } from '../mapas/map-geometry';
import { placeholder } from '../shared/placeholder';
import { errorMessage } from '../shared/api-errors';
import { toCsv } from '../../lib/csv';
import { saveFile } from '../../lib/download';

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
 * `report.filter {kind?, severity?, lot?}`, `report.page {page}` and `report.download` drive the issues
 * report (summary by kind, filtered and paged list, CSV of every issue; issue 13 item 6) in any state.
 * Duplicated codes (issue 13 item 5): in `reviewed`, `duplicates.choose {position, code, action,
 * number?}` (KEEP, DROP or RENAME one candidate) and `duplicates.keepFirst` (keep the first
 * candidate of every code, drop the rest) change `context.choices`, which makes the preview stale
 * (`choicesChecked` false: nothing can be imported) until `import.recheck` previews again with
 * them; the commit sends the same choices. `duplicates.page {page}` pages the list.
 * Land uses (docs/import.md "Land use"): in `reviewed`, `uses.choose {label, use}` sets the use of
 * one of the file's land-use values (`context.landUseChoices`, null removes the choice); the
 * preview needs no new check, but "Importar" waits until every value has a use
 * (land-use-choices.ts `landUsesPending`). The choices go with every later preview and the commit
 * (`land_uses`); they are kept when the DXF layer changes and cleared with a new file.
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

/**
 * The user's choice for one lot of a duplicated code while it is being edited: `number` is the
 * text typed for a RENAME ('' for DROP), sent only once it is a valid lot number.
 */
export interface DuplicateChoice {
  position: number;
  code: string;
  action: 'DROP' | 'RENAME';
  number: string;
}

/** Duplicated codes per page of the dialog's list. */
export const DUPLICATES_PER_PAGE = 10;

/** True when every RENAME has a valid lot number (so the choices can be sent). */
export function choicesReady(choices: readonly DuplicateChoice[]): boolean {
  return choices.every((c) => c.action === 'DROP' || lotNumberSchema.safeParse(c.number).success);
}

/** The choices as the request's `resolutions` (src/schemas importResolutionSchema). */
export function toResolutions(choices: readonly DuplicateChoice[]): ImportResolution[] {
  return choices.map((c) =>
    c.action === 'DROP'
      ? { position: c.position, code: c.code, action: 'DROP' }
      : { position: c.position, code: c.code, action: 'RENAME', number: c.number.trim().toUpperCase() },
  );
}

/** Input of the `preview` and `commit` actors. */
export interface LotImportRequest {
  key: string;
  file: File;
  layer: string | null;
  /** The choices on duplicated codes, as sent. */
  resolutions: ImportResolution[];
  /** The uses chosen for the file's land-use values, as sent. */
  landUses: ImportUseChoice[];
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
  /** The issues report's filter and page (issue 13 item 6). */
  report: IssueReportState;
  /** Choices on duplicated codes, one per lot (by position); lots without one are kept. */
  choices: DuplicateChoice[];
  /** True when `preview` was computed with the current `choices`. */
  choicesChecked: boolean;
  /** Page of the duplicated codes list (from 0). */
  duplicatesPage: number;
  /** The user's use per land-use value of the file (its label as the preview lists it). */
  landUseChoices: LandUseChoices;
}

/**
 * What the issues report shows: one kind or all, one severity or both, one lot (its code, picked
 * on the preview map) or all, and the page (from 0).
 */
export interface IssueReportState {
  kind: string | null;
  severity: ImportIssue['severity'] | null;
  lot: string | null;
  page: number;
}

/** Issues per page of the report. */
export const ISSUES_PER_PAGE = 50;

/** One line of the report's summary: a kind with its errors and warnings (a "y N más" row counts N). */
export interface IssueKindCount {
  kind: string;
  label: string;
  errors: number;
  warnings: number;
}

/** The Spanish name of an issue's kind ("Otros" for none or one this app does not know). */
export function issueKindLabel(kind: string | undefined): string {
  return kind && kind in IMPORT_ISSUE_KINDS ? IMPORT_ISSUE_KINDS[kind as keyof typeof IMPORT_ISSUE_KINDS] : IMPORT_ISSUE_KINDS.OTHER;
}

/**
 * The report's summary: issues counted by kind, errors and warnings apart, kinds with errors first
 * then by count. A "y N más" row counts as the N issues it stands for.
 */
export function summariseIssues(issues: readonly ImportIssue[]): IssueKindCount[] {
  const byKind = new Map<string, IssueKindCount>();
  for (const issue of issues) {
    const kind = issue.kind && issue.kind in IMPORT_ISSUE_KINDS ? issue.kind : 'OTHER';
    const entry = byKind.get(kind) ?? { kind, label: issueKindLabel(kind), errors: 0, warnings: 0 };
    const n = issue.more ?? 1;
    if (issue.severity === 'ERROR') entry.errors += n;
    else entry.warnings += n;
    byKind.set(kind, entry);
  }
  return [...byKind.values()].sort(
    (a, b) => Number(b.errors > 0) - Number(a.errors > 0) || b.errors + b.warnings - (a.errors + a.warnings),
  );
}

/** The issues the report's filter keeps (kind "OTHER" also matches issues without a known kind). */
export function filterIssues(
  issues: readonly ImportIssue[],
  { kind, severity, lot = null }: Pick<IssueReportState, 'kind' | 'severity'> & { lot?: string | null },
): ImportIssue[] {
  return issues.filter(
    (i) =>
      (severity === null || i.severity === severity) &&
      (lot === null || i.lot_code === lot) &&
      (kind === null || (i.kind && i.kind in IMPORT_ISSUE_KINDS ? i.kind : 'OTHER') === kind),
  );
}

/** One lot of the preview map: its code, its SVG path (map units) and its worst issue. */
export interface PreviewShape {
  code: string;
  d: string;
  severity: ImportIssue['severity'] | null;
}

/**
 * The preview map of a file (issue 13 item 6): every lot with a polygon as an SVG path, drawn the
 * way the lot maps draw (map-geometry.ts {@link projector}: north up, lon/lat projected to metres
 * around the mean latitude; the bounds' north-west corner at 0,0), coloured by its worst issue
 * (ERROR over WARNING, matched by lot code). Null when no lot has a polygon.
 * @returns `{ width, height, shapes }` in drawing units (metres).
 */
export function previewMapShapes(
  lots: ReadonlyArray<{ code: string; polygon?: Polygon | null }>,
  issues: readonly ImportIssue[],
  coordinateSystem: 'PLAN' | 'GEO' | null | undefined,
): { width: number; height: number; shapes: PreviewShape[] } | null {
  const drawn = lots.filter((l): l is { code: string; polygon: Polygon } => Boolean(l.polygon && l.polygon.length >= 3));
  if (drawn.length === 0) return null;
  const bounds = drawn
    .map((l) => polygonBounds(l.polygon))
    .reduce((a, b): [number, number, number, number] => [
      Math.min(a[0], b[0]),
      Math.min(a[1], b[1]),
      Math.max(a[2], b[2]),
      Math.max(a[3], b[3]),
    ]);
  const project = projector(coordinateSystem ?? 'PLAN', bounds);
  const [width, height] = project([bounds[2], bounds[1]]);
  const worst = new Map<string, ImportIssue['severity']>();
  for (const issue of issues) {
    if (!issue.lot_code || worst.get(issue.lot_code) === 'ERROR') continue;
    worst.set(issue.lot_code, issue.severity);
  }
  const shapes = drawn.map((lot) => ({ code: lot.code, d: pathData(lot.polygon, project), severity: worst.get(lot.code) ?? null }));
  return { width: Math.max(width, 1e-9), height: Math.max(height, 1e-9), shapes };
}

/** The issues as a CSV for a spreadsheet (UTF-8 with BOM): Tipo, Gravedad, Ubicación, Lote, Detalle. */
export function issuesCsv(issues: readonly ImportIssue[]): string {
  return toCsv(
    ['Tipo', 'Gravedad', 'Ubicación', 'Lote', 'Detalle'],
    issues.map((i) => [issueKindLabel(i.kind), i.severity === 'ERROR' ? 'Error' : 'Advertencia', i.location, i.lot_code ?? '', i.message]),
    { bom: true },
  );
}

/** The issues the report is about: the preview's, or those of a refused import. */
export function reportIssues(context: Pick<LotImportContext, 'preview' | 'rejectedIssues'>): ImportIssue[] {
  return context.rejectedIssues.length ? context.rejectedIssues : (context.preview?.issues ?? []);
}

export type LotImportEvent =
  | { type: 'import.open'; key: string }
  | { type: 'import.file'; file: File }
  | { type: 'import.layer'; layer: string }
  | { type: 'import.confirm' }
  | { type: 'import.retry' }
  | { type: 'import.cancel' }
  /** Filter the issues report (an absent field keeps its value; null shows all); back to page 1. */
  | { type: 'report.filter'; kind?: string | null; severity?: ImportIssue['severity'] | null; lot?: string | null }
  | { type: 'report.page'; page: number }
  /** Saves the issues (all, not only the filtered page) as problemas-importacion.csv. */
  | { type: 'report.download' }
  /** Keep (removes the choice), drop or rename one lot of a duplicated code. */
  | { type: 'duplicates.choose'; position: number; code: string; action: 'KEEP' | 'DROP' | 'RENAME'; number?: string }
  /** Keep the first lot of every duplicated code and drop the others. */
  | { type: 'duplicates.keepFirst' }
  | { type: 'duplicates.page'; page: number }
  /** Sets the use of one of the file's land-use values (null: back to the preview's). */
  | { type: 'uses.choose'; label: string; use: LandUse | null }
  /** Preview again with the current choices. */
  | { type: 'import.recheck' }
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

const freshReport = (): IssueReportState => ({ kind: null, severity: null, lot: null, page: 0 });
const fresh = (key: string): LotImportContext => ({
  key,
  file: null,
  layer: null,
  preview: null,
  error: null,
  rejectedIssues: [],
  result: null,
  progress: 0,
  report: freshReport(),
  choices: [],
  choicesChecked: true,
  duplicatesPage: 0,
  landUseChoices: {},
});

/** A file's or layer's choices start empty. */
const noChoices = { choices: [] as DuplicateChoice[], choicesChecked: true, duplicatesPage: 0 };

/** `choices` with the one for `position` replaced (KEEP removes it). */
function choose(choices: readonly DuplicateChoice[], event: Extract<LotImportEvent, { type: 'duplicates.choose' }>): DuplicateChoice[] {
  const rest = choices.filter((c) => c.position !== event.position);
  if (event.action === 'KEEP') return rest;
  const previous = choices.find((c) => c.position === event.position);
  const number = event.action === 'RENAME' ? (event.number ?? (previous?.action === 'RENAME' ? previous.number : '')) : '';
  return [...rest, { position: event.position, code: event.code, action: event.action, number }].sort((a, b) => a.position - b.position);
}

/** Every duplicated code of `preview` keeps its first lot; the others are dropped (other choices kept). */
function keepFirst(choices: readonly DuplicateChoice[], preview: ImportPreview | null): DuplicateChoice[] {
  const groups = preview?.duplicates ?? [];
  const positions = new Set(groups.flatMap((g) => g.candidates.map((c) => c.position)));
  const drops = groups.flatMap((g) =>
    g.candidates.slice(1).map((c): DuplicateChoice => ({ position: c.position, code: g.code, action: 'DROP', number: '' })),
  );
  return [...choices.filter((c) => !positions.has(c.position)), ...drops].sort((a, b) => a.position - b.position);
}

/** The actors' request from the context. */
const requestOf = (context: LotImportContext, self: LotImportRequest['parent']): LotImportRequest => ({
  key: context.key,
  file: context.file!,
  layer: context.layer,
  resolutions: toResolutions(context.choices),
  landUses: toLandUseChoices(context.landUseChoices),
  parent: self,
});

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
    /** An accepted file (`import.file`): a new start — no layer, preview, error or choices. */
    takeFile: assign(({ event }) =>
      event.type === 'import.file'
        ? { file: event.file, layer: null, error: null, preview: null, rejectedIssues: [], landUseChoices: {}, ...noChoices }
        : {},
    ),
    /** A new upload starts at 0. */
    resetProgress: assign({ progress: 0 }),
    /** `import.progress` → `context.progress`. */
    setProgress: assign(({ event }) => (event.type === 'import.progress' ? { progress: clampFraction(event.fraction) } : {})),
    /** Session errors (401/402…) go to the session machine (provided). */
    reportApiError: (_, _error: unknown) => {},
    /** Every issue of the report as a CSV download. */
    downloadIssues: ({ context }) =>
      saveFile({ fileName: 'problemas-importacion.csv', mime: 'text/csv;charset=utf-8', content: issuesCsv(reportIssues(context)) }),
  },
  guards: {
    canImport: ({ context }) =>
      context.preview?.can_import === true && context.choicesChecked && landUsesPending(context.preview, context.landUseChoices) === 0,
    choicesReady: ({ context }) => context.file !== null && choicesReady(context.choices),
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
    'report.filter': {
      actions: assign(({ context, event }) => ({
        report: {
          kind: event.kind === undefined ? context.report.kind : event.kind,
          severity: event.severity === undefined ? context.report.severity : event.severity,
          lot: event.lot === undefined ? context.report.lot : event.lot,
          page: 0,
        },
      })),
    },
    'report.page': {
      actions: assign(({ context, event }) => {
        const pages = Math.max(1, Math.ceil(filterIssues(reportIssues(context), context.report).length / ISSUES_PER_PAGE));
        return { report: { ...context.report, page: Math.min(Math.max(0, Math.floor(event.page)), pages - 1) } };
      }),
    },
    'report.download': { actions: 'downloadIssues' },
  },
  states: {
    idle: {},
    choosingFile: {
      on: {
        'import.file': [
          {
            guard: 'fileAccepted',
            target: 'previewing',
            actions: 'takeFile',
          },
          { actions: assign(({ event }) => ({ file: null, error: importFileProblem(event.file) })) },
        ],
      },
    },
    previewing: {
      entry: 'resetProgress',
      on: { 'import.progress': { actions: 'setProgress' } },
      invoke: {
        src: 'preview',
        input: ({ context, self }) => requestOf(context, self),
        onDone: {
          target: 'reviewed',
          actions: assign(({ context, event }) => ({
            preview: event.output,
            layer: event.output.layer,
            error: null,
            report: freshReport(),
            choicesChecked: true,
            duplicatesPage: Math.min(
              context.duplicatesPage,
              Math.max(0, Math.ceil((event.output.duplicates?.length ?? 0) / DUPLICATES_PER_PAGE) - 1),
            ),
          })),
        },
        onError: {
          target: 'failed',
          actions: [
            assign(({ event }) => ({ error: errorMessage(event.error), rejectedIssues: [] })),
            { type: 'reportApiError', params: ({ event }: { event: { error: unknown } }) => event.error },
          ],
        },
      },
    },
    reviewed: {
      initial: 'checking',
      on: {
        'import.layer': { target: 'previewing', actions: assign(({ event }) => ({ layer: event.layer, ...noChoices })) },
        'import.recheck': { guard: 'choicesReady', target: 'previewing' },
        'duplicates.choose': {
          target: '.checking',
          actions: assign(({ context, event }) => ({ choices: choose(context.choices, event), choicesChecked: false })),
        },
        'duplicates.keepFirst': {
          target: '.checking',
          actions: assign(({ context }) => ({ choices: keepFirst(context.choices, context.preview), choicesChecked: false })),
        },
        'uses.choose': {
          target: '.checking',
          actions: assign(({ context, event }) => ({ landUseChoices: chooseLandUse(context.landUseChoices, event.label, event.use) })),
        },
        'duplicates.page': {
          actions: assign(({ context, event }) => {
            const pages = Math.max(1, Math.ceil((context.preview?.duplicates?.length ?? 0) / DUPLICATES_PER_PAGE));
            return { duplicatesPage: Math.min(Math.max(0, Math.floor(event.page)), pages - 1) };
          }),
        },
        'import.file': [
          {
            guard: 'fileAccepted',
            target: 'previewing',
            actions: 'takeFile',
          },
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
        input: ({ context, self }) => requestOf(context, self),
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
            assign(({ event }) => ({ error: errorMessage(event.error), rejectedIssues: issuesOf(event.error), report: freshReport() })),
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
          {
            guard: 'fileAccepted',
            target: 'previewing',
            actions: 'takeFile',
          },
          {
            target: 'choosingFile',
            actions: assign(({ event }) => ({ file: null, preview: null, rejectedIssues: [], error: importFileProblem(event.file) })),
          },
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
  preview: (key: string, file: File, layer: string | null, options: UploadOptions, choices: ImportChoices) => Promise<ImportPreview>;
  commit: (
    key: string,
    file: File,
    layer: string | null,
    options: UploadOptions,
    choices: ImportChoices,
  ) => Promise<{ created: number; updated: number }>;
  /** Receives every failed call's ApiError; the caller forwards session errors (401/402). */
  reportApiError: (error: ApiError) => void;
}

/** Upload options of one actor run: progress sent to the machine, abort when the actor stops. */
const uploadOptions = (input: LotImportRequest, signal: AbortSignal): UploadOptions => ({
  signal,
  onProgress: (fraction) => input.parent.send({ type: 'import.progress', fraction }),
});

/** What the request carries of the user's choices. */
const choicesOf = (input: LotImportRequest): ImportChoices => ({ resolutions: input.resolutions, landUses: input.landUses });

/** The machine provided with its effects. */
export function provideLotImportMachine(deps: LotImportDeps) {
  return lotImportMachine.provide({
    actors: {
      preview: fromPromise<ImportPreview, LotImportRequest>(({ input, signal }) =>
        deps.preview(input.key, input.file, input.layer, uploadOptions(input, signal), choicesOf(input)),
      ),
      commit: fromPromise<{ created: number; updated: number }, LotImportRequest>(({ input, signal }) =>
        deps.commit(input.key, input.file, input.layer, uploadOptions(input, signal), choicesOf(input)),
      ),
    },
    actions: { reportApiError: (_, error) => deps.reportApiError(error as ApiError) },
  });
}
