import { use, useEffect, useRef, type ReactNode } from 'react';
import {
  Button,
  Callout,
  Dialog,
  DialogBody,
  DialogFooter,
  FileInput,
  FormGroup,
  HTMLSelect,
  HTMLTable,
  ProgressBar,
  Tag,
} from '@blueprintjs/core';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { formatArea, formatMetres } from '../../lib/money';
import { IMPORT_ACCEPT, type LotImportMachine } from '../../machines/proyectos/lot-import.machine';
import type { ImportIssue, ImportLotRow, ImportPreview, ImportStage } from '../../schemas/projects';
import { useServices } from '../services';
import '../../styles/lot-import.css';

/**
 * "Importar lotes" (issue "Proyectos" → Import; docs/import.md): a CSV, XLSX, GeoJSON or DXF file
 * → the server's preview (what would be created / updated, every error and warning with where it
 * is, the lots) → "Importar" (enabled only when the preview has no errors) → all or nothing.
 * While a file goes up, a determinate bar "Subiendo… 45 %" (`context.progress`), then an
 * indeterminate one while the server checks or stores it (docs/import.md "Upload progress").
 * The Lotes screen renders it; the machine (lot-import.machine.ts) owns every effect.
 */

/** Public props: the subdivision's opaque key; `onImported` runs once the lots are stored. */
export interface ImportLotsDialogProps {
  subdivisionKey: string;
  isOpen: boolean;
  onClose(): void;
  onImported(result: { created: number; updated: number }): void;
}

/** Rows of the lots preview shown (the rest summarised as "y N más"). */
export const PREVIEW_ROWS = 100;
/** Issues listed (the rest summarised). */
export const ISSUE_ROWS = 200;

/** The dialog, with its machine from the Proyectos machines (app services). */
export function ImportLotsDialog(props: ImportLotsDialogProps) {
  const { lotImport } = use(useServices().machines.projects());
  return <ImportLotsDialogWith machine={lotImport} {...props} />;
}

/** The dialog over a given (provided) machine — the app passes the services' one, tests a fake. */
export function ImportLotsDialogWith({ machine, subdivisionKey, isOpen, onClose, onImported }: ImportLotsDialogProps & { machine: LotImportMachine }) {
  const actor = useActorRef(machine, { input: { key: subdivisionKey } });
  const imported = useRef(onImported);
  useEffect(() => {
    imported.current = onImported;
  }, [onImported]);
  useEffect(() => {
    const subscription = actor.on('imported', (event) => imported.current({ created: event.created, updated: event.updated }));
    return () => subscription.unsubscribe();
  }, [actor]);
  // The dialog's visibility drives the machine: opening starts over, closing abandons.
  useEffect(() => {
    actor.send(isOpen ? { type: 'import.open', key: subdivisionKey } : { type: 'import.cancel' });
  }, [actor, isOpen, subdivisionKey]);
  return <ImportLotsContent actor={actor} isOpen={isOpen} onClose={onClose} />;
}

const sizeText = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`);
const priceText = (cents: number | null) => (cents === null ? '—' : (cents / 100).toLocaleString('es-PE', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));

function ImportLotsContent({ actor, isOpen, onClose }: { actor: ActorRefFrom<LotImportMachine>; isOpen: boolean; onClose(): void }) {
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
          Archivos aceptados: CSV o XLSX con columnas <code>manzana, lote, area, precio_m2</code> (y medidas opcionales), GeoJSON de polígonos o DXF
          de AutoCAD con los lotes como polilíneas cerradas y su rótulo («A-12» o «MZ A» / «LT 12»). Nada se guarda hasta pulsar «Importar».
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
            processingText={importing ? `Importando ${preview ? preview.summary.create + preview.summary.update : ''} lotes…` : 'Comprobando archivo…'}
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
        {failed && ctx.rejectedIssues.length ? <IssuesTable issues={ctx.rejectedIssues} /> : null}
        {preview && !done && !failed ? <PreviewSummary preview={preview} /> : null}
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
function PreviewSummary({ preview }: { preview: ImportPreview }) {
  const { summary } = preview;
  return (
    <section aria-label="Vista previa" className="lot-import-preview">
      <div className="lot-import-summary" aria-label="Resumen">
        <Tag large minimal intent="success">Crear: {summary.create}</Tag>
        <Tag large minimal intent="primary">Actualizar: {summary.update}</Tag>
        <Tag large minimal intent={summary.errors ? 'danger' : 'none'}>Errores: {summary.errors}</Tag>
        <Tag large minimal intent={summary.warnings ? 'warning' : 'none'}>Advertencias: {summary.warnings}</Tag>
        <Tag large minimal>Formato: {preview.format}</Tag>
      </div>
      {preview.stages && preview.stages.length > 0 ? <StagesSummary stages={preview.stages} /> : null}
      {summary.errors > 0 ? (
        <Callout intent="danger" title="El archivo tiene errores">
          Corrija el archivo y vuelva a elegirlo: no se importará ningún lote mientras haya errores.
        </Callout>
      ) : null}
      {preview.issues.length > 0 ? <IssuesTable issues={preview.issues} /> : null}
      <LotsTable lots={preview.lots} />
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
    label: 'Tipo',
    cell: (issue) => <Tag minimal intent={issue.severity === 'ERROR' ? 'danger' : 'warning'}>{issue.severity === 'ERROR' ? 'Error' : 'Advertencia'}</Tag>,
  },
  { label: 'Ubicación', cell: (issue) => issue.location },
  { label: 'Lote', cell: (issue) => issue.lot_code ?? '—' },
  { label: 'Detalle', cell: (issue) => issue.message },
];

/** Issues as a table (the first {@link ISSUE_ROWS}): type, where, lot, what. */
function IssuesTable({ issues }: { issues: readonly ImportIssue[] }) {
  return <PreviewTable label="Problemas del archivo" className="lot-import-issues" rows={issues} limit={ISSUE_ROWS} columns={ISSUE_COLUMNS} rowKey={(_, i) => i} />;
}

/** Columns of the lots table: code, areas (m²), perimeter (m), price per m², polygon, action. */
const LOT_COLUMNS: readonly PreviewColumn<ImportLotRow>[] = [
  { label: 'Código', cell: (lot) => lot.code },
  { label: 'Área', numeric: true, cell: (lot) => formatArea(lot.area_m2) },
  { label: 'Área dibujada', numeric: true, cell: (lot) => (lot.drawn_area_m2 === null ? '—' : formatArea(lot.drawn_area_m2)) },
  { label: 'Perímetro', numeric: true, cell: (lot) => (lot.perimeter_m === null ? '—' : formatMetres(lot.perimeter_m)) },
  { label: 'Precio m²', numeric: true, cell: (lot) => priceText(lot.price_per_m2) },
  { label: 'Etapa', cell: (lot) => lot.stage ?? '—' },
  { label: 'Polígono', cell: (lot) => (lot.has_polygon ? 'Sí' : 'No') },
  {
    label: 'Acción',
    cell: (lot) => <Tag minimal intent={lot.action === 'CREATE' ? 'success' : 'primary'}>{lot.action === 'CREATE' ? 'Crear' : 'Actualizar'}</Tag>,
  },
];

/** The first {@link PREVIEW_ROWS} lots. */
function LotsTable({ lots }: { lots: readonly ImportLotRow[] }) {
  return <PreviewTable label="Lotes del archivo" rows={lots} limit={PREVIEW_ROWS} columns={LOT_COLUMNS} rowKey={(lot) => lot.code} />;
}
