import { useMemo, type ReactNode } from 'react';
import {
  Button,
  Callout,
  DialogBody,
  DialogFooter,
  FileInput,
  FormGroup,
  HTMLTable,
  InputGroup,
  ProgressBar,
  Tag,
} from '@blueprintjs/core';
import { Dialog, HTMLSelect } from '../shared/BlueprintEs';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { formatArea, formatMetres } from '../../lib/money';
import {
  choicesReady,
  DUPLICATES_PER_PAGE,
  filterIssues,
  IMPORT_ACCEPT,
  previewMapShapes,
  ISSUES_PER_PAGE,
  issueKindLabel,
  reportIssues,
  summariseIssues,
  type LotImportMachine,
} from '../../machines/proyectos/lot-import.machine';
import {
  isSellableLandUse,
  LAND_USE_LABEL,
  lotNumberSchema,
  type ImportDuplicate,
  type ImportIssue,
  type ImportLotRow,
  type ImportPreview,
  type ImportStage,
  type ImportUse,
} from '../../schemas/proyectos/projects';
import { ImportLandUses } from './ImportLandUses';
import '../../styles/lot-import.css';

/**
 * "Importar lotes" (issue "Proyectos" → Import; docs/import.md): a CSV, XLSX, GeoJSON or DXF file
 * → the server's preview (what would be created / updated, every error and warning with where it
 * is, the lots) → "Importar" (enabled only when the preview has no errors) → all or nothing.
 * While a file goes up, a determinate bar "Subiendo… 45 %" (`context.progress`), then an
 * indeterminate one while the server checks or stores it (docs/import.md "Upload progress").
 * The Lotes screen renders it; the machine (lot-import.machine.ts) owns every effect.
 */

/** The dialog's running machine. */
type LotImportActor = ActorRefFrom<LotImportMachine>;

/** Rows of the lots preview shown (the rest summarised as "y N más"). */
export const PREVIEW_ROWS = 100;

/**
 * The dialog over a running lot-import actor. The Lotes screen's machine (lots-page.machine.ts)
 * spawns the actor, opens it (`import.open`) and cancels it when the dialog closes, and refreshes
 * the screen when it emits `imported`; the dialog only renders its state and sends its events.
 */
export function ImportLotsDialog({ actor, isOpen, onClose }: { actor: LotImportActor; isOpen: boolean; onClose(): void }) {
  return <ImportLotsContent actor={actor} isOpen={isOpen} onClose={onClose} />;
}

const sizeText = (bytes: number) =>
  bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
const priceText = (cents: number | null) =>
  cents === null ? '—' : (cents / 100).toLocaleString('es-PE', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

function ImportLotsContent({ actor, isOpen, onClose }: { actor: LotImportActor; isOpen: boolean; onClose(): void }) {
  const ctx = useSelector(actor, (s) => s.context);
  const previewing = useSelector(actor, (s) => s.matches('previewing'));
  const importing = useSelector(actor, (s) => s.matches('importing'));
  const canImport = useSelector(actor, (s) => s.matches({ reviewed: 'canImport' }));
  const done = useSelector(actor, (s) => s.matches('done'));
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const busy = previewing || importing;
  const preview = ctx.preview;
  return (
    <Dialog
      isOpen={isOpen}
      onClose={onClose}
      title="Importar lotes"
      icon="import"
      canOutsideClickClose={false}
      canEscapeKeyClose={!importing}
      className="lot-import-dialog"
    >
      <DialogBody>
        <p className="lot-import-help">
          Archivos aceptados: CSV o XLSX con columnas <code>manzana, lote, area, precio_m2</code> (y medidas, <code>etapa</code> y{' '}
          <code>uso</code> opcionales), GeoJSON de polígonos o DXF de AutoCAD con los lotes como polilíneas cerradas y su rótulo («A-12» o
          «MZ A» / «LT 12»). Nada se guarda hasta pulsar «Importar».
        </p>
        <FormGroup label="Archivo" labelFor="lot-import-file">
          <FileInput
            fill
            disabled={busy || done}
            hasSelection={ctx.file !== null}
            text={ctx.file ? `${ctx.file.name} (${sizeText(ctx.file.size)})` : 'Elija un archivo…'}
            buttonText="Examinar"
            inputProps={{ id: 'lot-import-file', accept: IMPORT_ACCEPT, 'aria-label': 'Archivo de lotes' }}
            onInputChange={(e) => {
              const file = e.currentTarget.files?.[0];
              if (file) actor.send({ type: 'import.file', file });
              e.currentTarget.value = '';
            }}
          />
        </FormGroup>
        {preview?.layers && preview.layers.length > 0 ? (
          <FormGroup label="Capa del DXF con los lotes" labelFor="lot-import-layer">
            <HTMLSelect
              id="lot-import-layer"
              fill
              disabled={busy || done}
              value={ctx.layer ?? ''}
              onChange={(e) => actor.send({ type: 'import.layer', layer: e.currentTarget.value })}
              options={preview.layers.map((l) => ({
                value: l.name,
                label: `${l.name} — ${l.closed_polylines} cerradas, ${l.open_polylines} abiertas, ${l.texts} textos`,
              }))}
            />
          </FormGroup>
        ) : null}
        {busy ? (
          <UploadProgress
            progress={ctx.progress}
            processingText={
              importing ? `Importando ${preview ? preview.summary.create + preview.summary.update : ''} lotes…` : 'Comprobando archivo…'
            }
          />
        ) : null}
        {ctx.error ? (
          <Callout intent="danger" role="alert" title={failed && ctx.rejectedIssues.length ? 'No se importó ningún lote' : undefined}>
            {ctx.error}
            {failed && ctx.file ? (
              <div className="lot-import-retry">
                <Button small text="Volver a comprobar" onClick={() => actor.send({ type: 'import.retry' })} />
              </div>
            ) : null}
          </Callout>
        ) : null}
        {done && ctx.result ? (
          <Callout intent="success" role="status" title="Importación completada">
            Se crearon {ctx.result.created} lotes y se actualizaron {ctx.result.updated}.
          </Callout>
        ) : null}
        {failed && ctx.rejectedIssues.length ? <IssuesReport actor={actor} /> : null}
        {preview && !done && !failed ? <PreviewSummary preview={preview} actor={actor} /> : null}
      </DialogBody>
      <DialogFooter
        actions={
          done ? (
            <Button intent="primary" text="Cerrar" onClick={onClose} />
          ) : (
            <>
              <Button text="Cancelar" onClick={onClose} disabled={importing} />
              <Button
                intent="primary"
                icon="import"
                text="Importar"
                loading={importing}
                disabled={!canImport}
                onClick={() => actor.send({ type: 'import.confirm' })}
              />
            </>
          )
        }
      />
    </Dialog>
  );
}

/** "45 %": the share of the file sent, rounded down so 100 % only shows once it is all sent. */
export const uploadPercentText = (progress: number) => `${Math.floor(Math.min(1, Math.max(0, progress)) * 100)} %`;

/**
 * The upload of a preview or commit: a determinate bar with "Subiendo… 45 %" while the file is
 * sent (`progress` < 1), then an indeterminate one with `processingText` while the server works.
 */
function UploadProgress({ progress, processingText }: { progress: number; processingText: string }) {
  const uploading = progress < 1;
  return (
    <div className="lot-import-progress" role="status">
      {uploading ? (
        <ProgressBar intent="primary" value={progress} stripes={false} aria-label="Subiendo archivo" />
      ) : (
        <ProgressBar intent="primary" aria-label="Procesando archivo" />
      )}
      <span>{uploading ? `Subiendo… ${uploadPercentText(progress)}` : processingText}</span>
    </div>
  );
}

/** Counts, issues (errors first) and the lots the file holds. */
function PreviewSummary({ preview, actor }: { preview: ImportPreview; actor: LotImportActor }) {
  const { summary } = preview;
  return (
    <section aria-label="Vista previa" className="lot-import-preview">
      <div className="lot-import-summary" aria-label="Resumen">
        <Tag large minimal intent="success">
          Crear: {summary.create}
        </Tag>
        <Tag large minimal intent="primary">
          Actualizar: {summary.update}
        </Tag>
        <Tag large minimal intent={summary.errors ? 'danger' : 'none'}>
          Errores: {summary.errors}
        </Tag>
        <Tag large minimal intent={summary.warnings ? 'warning' : 'none'}>
          Advertencias: {summary.warnings}
        </Tag>
        <Tag large minimal>
          Formato: {preview.format}
        </Tag>
      </div>
      {preview.stages && preview.stages.length > 0 ? <StagesSummary stages={preview.stages} /> : null}
      {preview.uses && preview.uses.length > 0 ? <UsesSummary uses={preview.uses} /> : null}
      {preview.use_values && preview.use_values.length > 0 ? <ImportLandUses actor={actor} preview={preview} /> : null}
      {summary.errors > 0 ? (
        <Callout intent="danger" title="El archivo tiene errores">
          {preview.duplicates?.length
            ? 'Elija qué hacer con cada código repetido y vuelva a comprobar, o corrija el archivo y vuelva a elegirlo: no se importará ningún lote mientras haya errores.'
            : 'Corrija el archivo y vuelva a elegirlo: no se importará ningún lote mientras haya errores.'}
        </Callout>
      ) : null}
      {preview.duplicates && preview.duplicates.length > 0 ? <DuplicatesPanel actor={actor} duplicates={preview.duplicates} /> : null}
      {preview.issues.length > 0 ? <PreviewMap actor={actor} preview={preview} /> : null}
      {preview.issues.length > 0 ? <IssuesReport actor={actor} /> : null}
      <LotsTable lots={preview.lots} />
    </section>
  );
}

/** Class of a preview-map lot by its worst issue. */
const SHAPE_CLASS = { ERROR: 'lot-import-map__lot--error', WARNING: 'lot-import-map__lot--warning' } as const;

/**
 * The file's lots drawn as a plan, those with an error in red and those with a warning in amber
 * (issue 13 item 6), so the user sees where the problems are. Clicking a lot with issues filters
 * the report to it ("Lote: MZ A - LT 3", removable); each lot names its code on hover. Shown when
 * the file has polygons and issues.
 */
function PreviewMap({ actor, preview }: { actor: LotImportActor; preview: ImportPreview }) {
  const lot = useSelector(actor, (s) => s.context.report.lot);
  const map = useMemo(
    () => previewMapShapes(preview.lots, preview.issues, preview.coordinate_system),
    [preview.lots, preview.issues, preview.coordinate_system],
  );
  if (!map) return null;
  const pad = Math.max(map.width, map.height) * 0.008; // a margin of 0.8 % of the plan
  return (
    <section className="lot-import-map" aria-label="Plano del archivo">
      <div className="lot-import-map__legend">
        <span>
          <i className="lot-import-map__swatch lot-import-map__lot--error" aria-hidden="true" /> Con error
        </span>
        <span>
          <i className="lot-import-map__swatch lot-import-map__lot--warning" aria-hidden="true" /> Con advertencia
        </span>
        <span>
          <i className="lot-import-map__swatch" aria-hidden="true" /> Sin problemas
        </span>
        {lot ? (
          <Tag minimal interactive={false} onRemove={() => actor.send({ type: 'report.filter', lot: null })}>
            Lote: {lot}
          </Tag>
        ) : (
          <span className="bp6-text-muted">Pulse un lote marcado para ver sus problemas</span>
        )}
      </div>
      <svg
        className="lot-import-map__svg"
        viewBox={`${-pad} ${-pad} ${map.width + 2 * pad} ${map.height + 2 * pad}`}
        role="img"
        aria-label={`Plano del archivo: ${map.shapes.filter((s) => s.severity === 'ERROR').length} lotes con error, ${map.shapes.filter((s) => s.severity === 'WARNING').length} con advertencia`}
      >
        {map.shapes.map((shape, i) => (
          <path
            key={`${shape.code}-${i}`}
            d={shape.d}
            data-code={shape.code}
            className={[
              'lot-import-map__lot',
              shape.severity ? SHAPE_CLASS[shape.severity] : '',
              shape.code === lot ? 'lot-import-map__lot--picked' : '',
            ].join(' ')}
            onClick={shape.severity ? () => actor.send({ type: 'report.filter', lot: shape.code === lot ? null : shape.code }) : undefined}
          >
            <title>{shape.code}</title>
          </path>
        ))}
      </svg>
    </section>
  );
}

/** "Conservar" / "Descartar" / "Renombrar" of one candidate. */
const CHOICE_OPTIONS = [
  { value: 'KEEP', label: 'Conservar' },
  { value: 'DROP', label: 'Descartar' },
  { value: 'RENAME', label: 'Renombrar' },
];

/**
 * The codes the file repeats (issue 13 item 5), each with its candidates side by side (where,
 * areas, stage, use) and a choice per candidate: keep, drop or rename (new lot number in the same
 * block). Choices make the preview stale until "Volver a comprobar" checks the file again with them
 * on the server; "Conservar el primero de cada código" drops every later candidate at once. Paged.
 */
function DuplicatesPanel({ actor, duplicates }: { actor: LotImportActor; duplicates: readonly ImportDuplicate[] }) {
  const choices = useSelector(actor, (s) => s.context.choices);
  const checked = useSelector(actor, (s) => s.context.choicesChecked);
  const page = useSelector(actor, (s) => s.context.duplicatesPage);
  const pages = Math.max(1, Math.ceil(duplicates.length / DUPLICATES_PER_PAGE));
  const shown = duplicates.slice(page * DUPLICATES_PER_PAGE, (page + 1) * DUPLICATES_PER_PAGE);
  const ready = choicesReady(choices);
  const choiceOf = (position: number) => choices.find((c) => c.position === position);
  return (
    <section className="lot-import-duplicates" aria-label="Códigos repetidos">
      <div className="lot-import-duplicates__head">
        <h4 className="bp6-heading">Códigos repetidos ({duplicates.length})</h4>
        <Button small text="Conservar el primero de cada código" onClick={() => actor.send({ type: 'duplicates.keepFirst' })} />
        <Button
          small
          intent={checked ? 'none' : 'primary'}
          icon="refresh"
          text="Volver a comprobar"
          disabled={checked || !ready}
          onClick={() => actor.send({ type: 'import.recheck' })}
        />
      </div>
      {!checked ? (
        <p className="lot-import-duplicates__stale" role="status">
          {ready
            ? 'Hay elecciones sin comprobar: pulse «Volver a comprobar» antes de importar.'
            : 'Indique un número de lote válido para cada lote a renombrar.'}
        </p>
      ) : null}
      {shown.map((group) => (
        // Scrolls sideways on a phone, so the choice column stays reachable.
        <div key={group.code} className="lot-import-duplicates__scroll">
          <HTMLTable compact className="lot-import-table lot-import-duplicates__group" aria-label={`Candidatos de ${group.code}`}>
            <caption>{group.code}</caption>
            <thead>
              <tr>
                <th>Ubicación</th>
                <th className="num">Área</th>
                <th className="num">Área dibujada</th>
                <th>Etapa</th>
                <th>Uso</th>
                <th>Elección</th>
              </tr>
            </thead>
            <tbody>
              {group.candidates.map((candidate) => {
                const choice = choiceOf(candidate.position);
                const action = choice?.action ?? 'KEEP';
                const invalid = action === 'RENAME' && !lotNumberSchema.safeParse(choice?.number ?? '').success;
                const label = `${group.code}, ${candidate.location}`;
                return (
                  <tr key={candidate.position}>
                    <td>{candidate.location}</td>
                    <td className="num">{candidate.area_m2 === null ? '—' : formatArea(candidate.area_m2)}</td>
                    <td className="num">{candidate.drawn_area_m2 === null ? '—' : formatArea(candidate.drawn_area_m2)}</td>
                    <td>{candidate.stage ?? '—'}</td>
                    <td>{candidate.land_use ? LAND_USE_LABEL[candidate.land_use] : '—'}</td>
                    <td className="lot-import-duplicates__choice">
                      <HTMLSelect
                        aria-label={`Elección para ${label}`}
                        value={action}
                        options={CHOICE_OPTIONS}
                        onChange={(e) =>
                          actor.send({
                            type: 'duplicates.choose',
                            position: candidate.position,
                            code: group.code,
                            action: e.currentTarget.value as 'KEEP' | 'DROP' | 'RENAME',
                          })
                        }
                      />
                      {action === 'RENAME' ? (
                        <InputGroup
                          small
                          aria-label={`Nuevo número de lote para ${label}`}
                          aria-invalid={invalid}
                          intent={invalid ? 'danger' : 'none'}
                          placeholder="Nuevo n.º"
                          value={choice?.number ?? ''}
                          onValueChange={(number) =>
                            actor.send({
                              type: 'duplicates.choose',
                              position: candidate.position,
                              code: group.code,
                              action: 'RENAME',
                              number,
                            })
                          }
                        />
                      ) : null}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </HTMLTable>
        </div>
      ))}
      {pages > 1 ? (
        <div className="lot-import-pager" role="navigation" aria-label="Páginas de códigos repetidos">
          <Button
            small
            icon="chevron-left"
            aria-label="Códigos anteriores"
            disabled={page === 0}
            onClick={() => actor.send({ type: 'duplicates.page', page: page - 1 })}
          />
          <span>
            Página {page + 1} de {pages}
          </span>
          <Button
            small
            icon="chevron-right"
            aria-label="Códigos siguientes"
            disabled={page >= pages - 1}
            onClick={() => actor.send({ type: 'duplicates.page', page: page + 1 })}
          />
        </div>
      ) : null}
    </section>
  );
}

/** Lots per stage the file names (issue 13 item 3); a stage the subdivision lacks is marked "nueva". */
function StagesSummary({ stages }: { stages: readonly ImportStage[] }) {
  return (
    <div className="lot-import-summary" aria-label="Etapas del archivo">
      {stages.map((stage) => (
        <Tag key={stage.name} minimal intent={stage.action === 'CREATE' ? 'success' : 'none'}>
          {stage.name}: {stage.lots === 1 ? '1 lote' : `${stage.lots} lotes`}
          {stage.action === 'CREATE' ? ' (nueva)' : ''}
        </Tag>
      ))}
    </div>
  );
}

/** Lots per land use the file gives (issue 13 item 4); uses not for sale are marked "no vendible". */
function UsesSummary({ uses }: { uses: readonly ImportUse[] }) {
  return (
    <div className="lot-import-summary" aria-label="Usos del suelo del archivo">
      {uses.map(({ use, lots }) => (
        <Tag key={use} minimal intent={isSellableLandUse(use) ? 'none' : 'warning'}>
          {LAND_USE_LABEL[use]}: {lots === 1 ? '1 lote' : `${lots} lotes`}
          {isSellableLandUse(use) ? '' : ' (no vendible)'}
        </Tag>
      ))}
    </div>
  );
}

/** One column of a preview table: header text, right-aligned (`num`) when numeric, the cell. */
interface PreviewColumn<Row> {
  label: string;
  numeric?: boolean;
  cell(row: Row): ReactNode;
}

/**
 * A compact preview table of the first `limit` rows, the rest summarised as "y N más" below it.
 * @param className extra class of the scrolling wrapper (besides `lot-import-table-wrap`).
 */
function PreviewTable<Row>({
  label,
  rows,
  limit,
  columns,
  rowKey,
  className,
}: {
  label: string;
  rows: readonly Row[];
  limit: number;
  columns: readonly PreviewColumn<Row>[];
  rowKey(row: Row, index: number): string | number;
  className?: string;
}) {
  const shown = rows.slice(0, limit);
  return (
    <div className={className ? `lot-import-table-wrap ${className}` : 'lot-import-table-wrap'}>
      <HTMLTable compact striped className="lot-import-table" aria-label={label}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.label} className={c.numeric ? 'num' : undefined}>
                {c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {shown.map((row, i) => (
            <tr key={rowKey(row, i)}>
              {columns.map((c) => (
                <td key={c.label} className={c.numeric ? 'num' : undefined}>
                  {c.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      {rows.length > shown.length ? <p className="bp6-text-muted">y {rows.length - shown.length} más</p> : null}
    </div>
  );
}

/** Columns of the issues table: type, where, lot, what. */
const ISSUE_COLUMNS: readonly PreviewColumn<ImportIssue>[] = [
  {
    label: 'Gravedad',
    cell: (issue) => (
      <Tag minimal intent={issue.severity === 'ERROR' ? 'danger' : 'warning'}>
        {issue.severity === 'ERROR' ? 'Error' : 'Advertencia'}
      </Tag>
    ),
  },
  { label: 'Tipo', cell: (issue) => issueKindLabel(issue.kind) },
  { label: 'Ubicación', cell: (issue) => issue.location },
  { label: 'Lote', cell: (issue) => issue.lot_code ?? '—' },
  { label: 'Detalle', cell: (issue) => issue.message },
];

/**
 * The issues report (issue 13 item 6): a summary by kind first (errors and warnings; a kind's
 * button filters the list to it), then the list filtered by kind and severity, {@link ISSUES_PER_PAGE}
 * per page, and "Descargar CSV" with every issue. State and the download are the machine's.
 */
function IssuesReport({ actor }: { actor: LotImportActor }) {
  const issues = useSelector(actor, (s) => reportIssues(s.context));
  const report = useSelector(actor, (s) => s.context.report);
  const summary = summariseIssues(issues);
  const filtered = filterIssues(issues, report);
  const pages = Math.max(1, Math.ceil(filtered.length / ISSUES_PER_PAGE));
  const page = Math.min(report.page, pages - 1);
  const shown = filtered.slice(page * ISSUES_PER_PAGE, (page + 1) * ISSUES_PER_PAGE);
  return (
    <section aria-label="Problemas del archivo" className="lot-import-report">
      <HTMLTable compact className="lot-import-table lot-import-kinds" aria-label="Problemas por tipo">
        <thead>
          <tr>
            <th>Tipo de problema</th>
            <th className="num">Errores</th>
            <th className="num">Advertencias</th>
          </tr>
        </thead>
        <tbody>
          {summary.map((k) => (
            <tr key={k.kind}>
              <td>
                <Button
                  variant="minimal"
                  small
                  text={k.label}
                  active={report.kind === k.kind}
                  onClick={() => actor.send({ type: 'report.filter', kind: report.kind === k.kind ? null : k.kind })}
                />
              </td>
              <td className="num">{k.errors}</td>
              <td className="num">{k.warnings}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
      <div className="lot-import-report-filters">
        <HTMLSelect
          aria-label="Tipo de problema"
          value={report.kind ?? ''}
          onChange={(e) => actor.send({ type: 'report.filter', kind: e.currentTarget.value || null })}
          options={[{ value: '', label: 'Todos los tipos' }, ...summary.map((k) => ({ value: k.kind, label: k.label }))]}
        />
        <HTMLSelect
          aria-label="Gravedad"
          value={report.severity ?? ''}
          onChange={(e) =>
            actor.send({ type: 'report.filter', severity: (e.currentTarget.value || null) as ImportIssue['severity'] | null })
          }
          options={[
            { value: '', label: 'Errores y advertencias' },
            { value: 'ERROR', label: 'Solo errores' },
            { value: 'WARNING', label: 'Solo advertencias' },
          ]}
        />
        <Button icon="download" text="Descargar CSV" onClick={() => actor.send({ type: 'report.download' })} />
      </div>
      <PreviewTable
        label="Lista de problemas"
        className="lot-import-issues"
        rows={shown}
        limit={ISSUES_PER_PAGE}
        columns={ISSUE_COLUMNS}
        rowKey={(_, i) => page * ISSUES_PER_PAGE + i}
      />
      {pages > 1 ? (
        <div className="lot-import-pager" role="navigation" aria-label="Páginas de problemas">
          <Button
            small
            icon="chevron-left"
            text="Anterior"
            disabled={page === 0}
            onClick={() => actor.send({ type: 'report.page', page: page - 1 })}
          />
          <span>
            Página {page + 1} de {pages} · {filtered.length} problemas
          </span>
          <Button
            small
            rightIcon="chevron-right"
            text="Siguiente"
            disabled={page >= pages - 1}
            onClick={() => actor.send({ type: 'report.page', page: page + 1 })}
          />
        </div>
      ) : null}
    </section>
  );
}

/** Columns of the lots table: code, areas (m²), perimeter (m), price per m², polygon, action. */
const LOT_COLUMNS: readonly PreviewColumn<ImportLotRow>[] = [
  { label: 'Código', cell: (lot) => lot.code },
  { label: 'Área', numeric: true, cell: (lot) => formatArea(lot.area_m2) },
  { label: 'Área dibujada', numeric: true, cell: (lot) => (lot.drawn_area_m2 === null ? '—' : formatArea(lot.drawn_area_m2)) },
  { label: 'Perímetro', numeric: true, cell: (lot) => (lot.perimeter_m === null ? '—' : formatMetres(lot.perimeter_m)) },
  { label: 'Precio m²', numeric: true, cell: (lot) => priceText(lot.price_per_m2) },
  { label: 'Etapa', cell: (lot) => lot.stage ?? '—' },
  { label: 'Uso', cell: (lot) => (lot.land_use ? LAND_USE_LABEL[lot.land_use] : '—') },
  { label: 'Polígono', cell: (lot) => (lot.has_polygon ? 'Sí' : 'No') },
  {
    label: 'Acción',
    cell: (lot) => (
      <Tag minimal intent={lot.action === 'CREATE' ? 'success' : 'primary'}>
        {lot.action === 'CREATE' ? 'Crear' : 'Actualizar'}
      </Tag>
    ),
  },
];

/** The first {@link PREVIEW_ROWS} lots. */
function LotsTable({ lots }: { lots: readonly ImportLotRow[] }) {
  return <PreviewTable label="Lotes del archivo" rows={lots} limit={PREVIEW_ROWS} columns={LOT_COLUMNS} rowKey={(lot) => lot.code} />;
}
