import { lazy, Suspense, use, useMemo, useState } from 'react';
import { useSearch } from 'wouter';
import { useActorRef, useSelector } from '@xstate/react';
import { Button, ButtonGroup, Callout, Card, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { HTMLSelect } from '../shared/BlueprintEs';
import {
  SALES_REPORT_CHANNELS,
  salesChannelLabel,
  type SalesFigures,
  type SalesReport,
  type SalesReportFormat,
} from '../../schemas/comercio/sales-report';
import { CURRENCY_SYMBOL, formatArea, formatMoney, type CurrencyCode } from '../../lib/money';
import { formatDate } from '../../lib/dates';
import type { SalesReportMachines } from '../../machines/comercio/sales-report.actors';
import { reportCurrencies, shownCurrency, type SalesReportFilterField } from '../../machines/comercio/sales-report.machine';
import { inspectOption } from '../../machines/inspect';
import { useServices } from '../services';
import { useTheme } from '../shell/shell-context';
import { FieldGroup } from '../shared/FieldGroup';
import { IsoDateInput } from '../shared/IsoDateInput';
import type { MonthPoint } from './SalesReportChart';
import '../../styles/comercio.css';
import '../../styles/sales-report.css';

/**
 * Comercial → Reporte de Ventas (/COMERCIO/reporteVentas; issue "CRM and sales"): the sales of a
 * period — filters Desde, Hasta, Lotización, Asesor and Canal — as three cards (Ventas, Total
 * vendido, Precio promedio por m², per currency), a chart per month (ECharts, its own chunk:
 * ./SalesReportChart.tsx) and tables by subdivision, agent and channel; "Exportar Excel" and
 * "Exportar PDF" download the server's files of the same filters. The page only renders the report
 * machine's state and sends its events (src/machines/comercio/sales-report.machine.ts).
 */

// ECharts is fetched when the chart first shows, in its own chunk (docs/dependencies.md "echarts").
const SalesReportChart = lazy(() => import('./SalesReportChart'));

/** The screen; `embedded`: drawn as /Reportes' Ventas tab (its title a second-level heading under the tabs). */
export function SalesReportScreen({ embedded = false }: { embedded?: boolean }) {
  const machines = use(useServices().machines.salesReport());
  const dark = useTheme((s) => s.context.styles.darkTheme);
  return <SalesReportPage machines={machines} dark={dark} embedded={embedded} />;
}

const money = (f: Pick<SalesFigures, 'currency'>, cents: number) => formatMoney(cents, f.currency);
const perM2 = (f: SalesFigures) => (f.price_per_m2 === null ? '—' : `${money(f, f.price_per_m2)} / m²`);

/** The chart's points of one currency: every month of the period, zero where nothing was sold. */
function monthPoints(report: SalesReport, currency: CurrencyCode): MonthPoint[] {
  return report.months.map((month) => {
    const found = report.by_month.find((m) => m.month === month && m.currency === currency);
    return { month, total: found?.total ?? 0, count: found?.count ?? 0 };
  });
}

export function SalesReportPage({
  machines,
  dark,
  embedded = false,
}: {
  machines: SalesReportMachines;
  dark: boolean;
  embedded?: boolean;
}) {
  const search = useSearch();
  // The filters of the address it was opened at (read once: the machine writes later changes back).
  const [input] = useState(() => ({ filters: machines.initialFilters(search) }));
  const actor = useActorRef(machines.report, { input, ...inspectOption() });
  const filters = useSelector(actor, (s) => s.context.filters);
  const fieldErrors = useSelector(actor, (s) => s.context.fieldErrors);
  const options = useSelector(actor, (s) => s.context.options);
  const report = useSelector(actor, (s) => s.context.report);
  const error = useSelector(actor, (s) => (s.matches({ report: 'failure' }) ? s.context.error : null));
  const loading = useSelector(actor, (s) => s.matches({ report: 'loading' }));
  const invalid = useSelector(actor, (s) => s.matches({ report: 'invalid' }));
  const exporting = useSelector(actor, (s) => s.context.exporting);
  const currency = useSelector(actor, (s) => shownCurrency(s.context));
  const currencies = reportCurrencies(report);
  const points = useMemo(() => (report && currency ? monthPoints(report, currency) : []), [report, currency]);

  const change = (field: SalesReportFilterField) => (value: string) => actor.send({ type: 'filter.changed', field, value });
  const exportAs = (format: SalesReportFormat) => actor.send({ type: 'report.export', format });
  const empty = report !== null && report.totals.length === 0;
  const count = report ? report.totals.reduce((n, t) => n + t.count, 0) : 0;

  return (
    <section className="comercio-page sales-report" aria-labelledby="reporte-ventas-title" aria-busy={loading}>
      <div className="sales-report-head">
        {embedded ? (
          <h2 id="reporte-ventas-title" className="bp6-heading comercio-page-title">
            Ventas
          </h2>
        ) : (
          <h1 id="reporte-ventas-title" className="bp6-heading comercio-page-title">
            Reporte de Ventas
          </h1>
        )}
        <ButtonGroup className="sales-report-exports">
          <Button
            icon="th"
            text="Exportar Excel"
            loading={exporting === 'xlsx'}
            disabled={invalid || exporting !== null}
            onClick={() => exportAs('xlsx')}
          />
          <Button
            icon="document"
            text="Exportar PDF"
            loading={exporting === 'pdf'}
            disabled={invalid || exporting !== null}
            onClick={() => exportAs('pdf')}
          />
        </ButtonGroup>
      </div>

      <div className="sales-report-filters" role="group" aria-label="Filtros del reporte">
        {(['from', 'to'] as const).map((end) => (
          <FieldGroup key={end} label={end === 'from' ? 'Desde' : 'Hasta'} labelFor={`sales-report-${end}`} error={fieldErrors[end]}>
            <IsoDateInput
              id={`sales-report-${end}`}
              value={filters[end]}
              hasError={Boolean(fieldErrors[end])}
              describedBy={fieldErrors[end] ? `sales-report-${end}-error` : undefined}
              onChange={change(end)}
            />
          </FieldGroup>
        ))}
        <FieldGroup label="Lotización" labelFor="sales-report-subdivision">
          <HTMLSelect
            id="sales-report-subdivision"
            fill
            value={filters.subdivision_id}
            onChange={(e) => change('subdivision_id')(e.target.value)}
            options={[
              { value: '', label: 'Todas las lotizaciones' },
              ...options.subdivisions.map((s) => ({ value: String(s.id), label: s.name })),
            ]}
          />
        </FieldGroup>
        <FieldGroup label="Asesor" labelFor="sales-report-agent">
          <HTMLSelect
            id="sales-report-agent"
            fill
            value={filters.agent_id}
            onChange={(e) => change('agent_id')(e.target.value)}
            options={[{ value: '', label: 'Todos los asesores' }, ...options.agents.map((a) => ({ value: String(a.id), label: a.name }))]}
          />
        </FieldGroup>
        <FieldGroup label="Canal" labelFor="sales-report-channel">
          <HTMLSelect
            id="sales-report-channel"
            fill
            value={filters.channel}
            onChange={(e) => change('channel')(e.target.value)}
            options={[
              { value: '', label: 'Todos los canales' },
              ...SALES_REPORT_CHANNELS.map((c) => ({ value: c, label: salesChannelLabel(c) })),
            ]}
          />
        </FieldGroup>
      </div>

      {error ? (
        <Callout intent="danger" title="No se pudo cargar el reporte de ventas" className="sales-report-callout">
          <p>{error}</p>
          <Button text="Reintentar" icon="refresh" onClick={() => actor.send({ type: 'report.retry' })} />
        </Callout>
      ) : null}

      {report === null && loading ? <Spinner aria-label="Cargando el reporte" className="sales-report-spinner" /> : null}

      {report ? (
        <div className={invalid ? 'sales-report-body sales-report-stale' : 'sales-report-body'}>
          {invalid ? (
            <Callout intent="warning" className="sales-report-callout">
              Corrija el período para actualizar el reporte; se muestran las cifras del período anterior.
            </Callout>
          ) : null}
          <p className="sales-report-period bp6-text-muted">
            {formatDate(report.from)} – {formatDate(report.to)} · ventas anuladas no incluidas
          </p>
          <div className="sales-report-cards">
            <Card className="sales-report-card">
              <h2 className="sales-report-card-label">Ventas</h2>
              <p className="sales-report-card-value" data-testid="sales-report-count">
                {count}
              </p>
            </Card>
            <Card className="sales-report-card">
              <h2 className="sales-report-card-label">Total vendido</h2>
              {empty ? <p className="sales-report-card-value">—</p> : null}
              {report.totals.map((t) => (
                <p key={t.currency} className="sales-report-card-value" data-testid={`sales-report-total-${t.currency}`}>
                  {money(t, t.total)}
                </p>
              ))}
            </Card>
            <Card className="sales-report-card">
              <h2 className="sales-report-card-label">Precio promedio por m²</h2>
              {empty ? <p className="sales-report-card-value">—</p> : null}
              {report.totals.map((t) => (
                <p key={t.currency} className="sales-report-card-value" data-testid={`sales-report-m2-${t.currency}`}>
                  {perM2(t)}
                </p>
              ))}
            </Card>
          </div>

          {empty ? (
            <NonIdealState icon="chart" title="Sin ventas en el período" description="Cambie las fechas o los filtros." />
          ) : (
            <>
              <Card className="sales-report-chart-card">
                <div className="sales-report-chart-head">
                  <h2 className="bp6-heading">Ventas por mes</h2>
                  {currencies.length > 1 ? (
                    <ButtonGroup role="group" aria-label="Moneda del gráfico">
                      {currencies.map((c) => (
                        <Button
                          key={c}
                          size="small"
                          active={c === currency}
                          aria-pressed={c === currency}
                          text={CURRENCY_SYMBOL[c]}
                          onClick={() => actor.send({ type: 'chart.currencyChanged', currency: c })}
                        />
                      ))}
                    </ButtonGroup>
                  ) : null}
                </div>
                {currency ? (
                  <Suspense fallback={<div className="sales-report-chart" aria-busy="true" />}>
                    <SalesReportChart points={points} currency={currency} dark={dark} />
                  </Suspense>
                ) : null}
              </Card>
              <div className="sales-report-tables">
                <FiguresTable
                  id="subdivisions"
                  caption="Por lotización"
                  head="Lotización"
                  rows={report.by_subdivision.map((r) => ({ key: `${r.id}-${r.currency}`, label: r.name, figures: r }))}
                />
                <FiguresTable
                  id="agents"
                  caption="Por asesor"
                  head="Asesor"
                  rows={report.by_agent.map((r) => ({ key: `${r.id ?? 'none'}-${r.currency}`, label: r.name, figures: r }))}
                />
                <FiguresTable
                  id="channels"
                  caption="Por canal"
                  head="Canal"
                  rows={report.by_channel.map((r) => ({
                    key: `${r.channel}-${r.currency}`,
                    label: salesChannelLabel(r.channel),
                    figures: r,
                  }))}
                />
              </div>
            </>
          )}
        </div>
      ) : null}
    </section>
  );
}

/** One breakdown: name, count, total sold, area and price per m² (rows per currency). */
function FiguresTable({
  id,
  caption,
  head,
  rows,
}: {
  id: string;
  caption: string;
  head: string;
  rows: { key: string; label: string; figures: SalesFigures }[];
}) {
  return (
    <Card className="sales-report-table-card">
      <h2 className="bp6-heading" id={`sales-report-${id}`}>
        {caption}
      </h2>
      <div className="sales-report-table-scroll">
        <HTMLTable compact striped aria-labelledby={`sales-report-${id}`} className="sales-report-table">
          <thead>
            <tr>
              <th>{head}</th>
              <th className="num">Ventas</th>
              <th className="num">Total vendido</th>
              <th className="num sales-report-area">Área</th>
              <th className="num">Precio por m²</th>
            </tr>
          </thead>
          <tbody>
            {rows.map(({ key, label, figures }) => (
              <tr key={key}>
                <td>{label}</td>
                <td className="num">{figures.count}</td>
                <td className="num">{money(figures, figures.total)}</td>
                <td className="num sales-report-area">{formatArea(figures.area_m2)}</td>
                <td className="num">{figures.price_per_m2 === null ? '—' : money(figures, figures.price_per_m2)}</td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
    </Card>
  );
}
