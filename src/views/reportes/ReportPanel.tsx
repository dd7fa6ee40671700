import { lazy, Suspense, useState } from 'react';
import { useSearch } from 'wouter';
import { useActorRef, useSelector } from '@xstate/react';
import { Button, ButtonGroup, Callout, NonIdealState, Spinner } from '@blueprintjs/core';
import { REPORT_MESSAGES, REPORT_TITLES, type ReportId } from '../../schemas/reportes/report';
import { formatDate } from '../../lib/dates';
import type { ReportsMachines } from '../../machines/reportes/reports.actors';
import { inspectOption } from '../../machines/inspect';
import { ReportFiltersBar } from './ReportFiltersBar';
import { ReportTable } from './ReportTable';

/**
 * One report (docs/reports.md): its filters, "Exportar Excel" and "Exportar PDF" (the server's
 * files of the same filters; over the row cap the screen says so and asks nothing), the period and
 * notes, the chart (ECharts, its own chunk: ./ReportChart.tsx) and the table with the totals per
 * currency. The panel only renders the report machine's state and sends its events
 * (src/machines/reportes/report.machine.ts).
 */

const ReportChart = lazy(() => import('./ReportChart'));

export function ReportPanel({ report: id, machines, dark }: { report: ReportId; machines: ReportsMachines; dark: boolean }) {
  const search = useSearch();
  // The filters of the address it was opened at (read once: the machine writes later changes back).
  const [input] = useState(() => ({ report: id, filters: machines.initialFilters(id, search) }));
  const actor = useActorRef(machines.report, { input, ...inspectOption() });
  const filters = useSelector(actor, (s) => s.context.filters);
  const fieldErrors = useSelector(actor, (s) => s.context.fieldErrors);
  const options = useSelector(actor, (s) => s.context.options);
  const data = useSelector(actor, (s) => s.context.data);
  const error = useSelector(actor, (s) => (s.matches({ report: 'failure' }) ? s.context.error : null));
  const loading = useSelector(actor, (s) => s.matches({ report: 'loading' }));
  const invalid = useSelector(actor, (s) => s.matches({ report: 'invalid' }));
  const exporting = useSelector(actor, (s) => s.context.exporting);
  const warning = useSelector(actor, (s) => s.context.exportWarning);
  const title = REPORT_TITLES[id];
  const exportAs = (format: 'xlsx' | 'pdf') => actor.send({ type: 'report.export', format });

  return (
    <div className="report-panel" aria-busy={loading}>
      <div className="report-head">
        <h2 className="bp6-heading report-title">{title}</h2>
        <ButtonGroup className="report-exports">
          <Button
            icon="th"
            text="Exportar Excel"
            loading={exporting === 'xlsx'}
            disabled={invalid || data === null || exporting !== null}
            onClick={() => exportAs('xlsx')}
          />
          <Button
            icon="document"
            text="Exportar PDF"
            loading={exporting === 'pdf'}
            disabled={invalid || data === null || exporting !== null}
            onClick={() => exportAs('pdf')}
          />
        </ButtonGroup>
      </div>
      <ReportFiltersBar
        report={id}
        filters={filters}
        errors={fieldErrors}
        options={options}
        onChange={(field, value) => actor.send({ type: 'filter.changed', field, value })}
      />
      {warning ? (
        <Callout intent="warning" title="La exportación no se inició" className="report-callout" role="alert">
          <p>{warning}</p>
          <Button text="Entendido" onClick={() => actor.send({ type: 'export.dismiss' })} />
        </Callout>
      ) : null}
      {error ? (
        <Callout intent="danger" title={REPORT_MESSAGES.loadFailed} className="report-callout">
          <p>{error}</p>
          <Button text="Reintentar" icon="refresh" onClick={() => actor.send({ type: 'report.retry' })} />
        </Callout>
      ) : null}
      {data === null && loading ? <Spinner aria-label="Cargando el reporte" className="report-spinner" /> : null}
      {data ? (
        <div className={invalid ? 'report-body report-stale' : 'report-body'}>
          {invalid ? (
            <Callout intent="warning" className="report-callout">
              Corrija los filtros para actualizar el reporte; se muestran las cifras anteriores.
            </Callout>
          ) : null}
          <p className="report-period bp6-text-muted">
            {[
              data.from && data.to ? `${formatDate(data.from)} – ${formatDate(data.to)}` : data.to ? `Al ${formatDate(data.to)}` : null,
              ...data.notes,
            ]
              .filter(Boolean)
              .join(' · ')}
          </p>
          {data.row_count === 0 ? (
            <NonIdealState icon="chart" title="Sin datos para los filtros elegidos" description="Cambie el período o los filtros." />
          ) : (
            <>
              {data.chart && data.chart.categories.length > 0 ? (
                <Suspense fallback={<div className="report-chart" aria-busy="true" />}>
                  <ReportChart chart={data.chart} title={title} dark={dark} />
                </Suspense>
              ) : null}
              <ReportTable report={data} caption={title} />
            </>
          )}
        </div>
      ) : null}
    </div>
  );
}
