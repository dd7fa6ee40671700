import { useMemo } from 'react';
import { HTMLTable } from '@blueprintjs/core';
import { LEAD_STATUS_LABELS, type LeadStatus } from '../../../schemas/crm/leads';
import type { LeadsCard } from '../../../schemas/inicio/dashboard';
import { FigureLink } from '../FigureLink';
import { LazyDashboardChart } from '../LazyDashboardChart';
import { leadsLink } from '../dashboard-links';
import { countOf, type CardBodyProps } from './card-props';

/** Spanish label of a lead status code (the code itself when unknown). */
const statusLabel = (status: string) => LEAD_STATUS_LABELS[status as LeadStatus] ?? status;

/** A rate in basis points as a percentage with one decimal ("12.5 %"), "—" when there is none. */
export const rateText = (bp: number | null) =>
  bp === null ? '—' : `${(bp / 100).toLocaleString('es-PE', { maximumFractionDigits: 1 })} %`;

/**
 * "Leads": the leads per status as bars and as a table (each status a link to Leads filtered by it),
 * the month's conversion (arrived, concretados, rate) and the follow-ups due (a link to Leads
 * filtered overdue=true); scoped like the Leads list.
 */
export function LeadsCardBody({ data, dark }: CardBodyProps<LeadsCard>) {
  const spec = useMemo(
    () => ({
      label: 'Gráfico de barras: leads por estado',
      categories: data.by_status.map((s) => statusLabel(s.status)),
      series: [{ name: 'Leads', values: data.by_status.map((s) => s.count) }],
    }),
    [data],
  );
  return (
    <>
      {data.by_status.length > 0 ? <LazyDashboardChart spec={spec} dark={dark} /> : null}
      <HTMLTable compact className="dashboard-table">
        <thead>
          <tr>
            <th scope="col">Estado</th>
            <th scope="col">Leads</th>
          </tr>
        </thead>
        <tbody>
          {data.by_status.map((s) => {
            const href = leadsLink({ status: s.status });
            return (
              <tr key={s.status}>
                <th scope="row">
                  <FigureLink href={href}>{statusLabel(s.status)}</FigureLink>
                </th>
                <td>
                  <FigureLink href={href}>{s.count}</FigureLink>
                </td>
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>
      <dl className="dashboard-facts">
        <dt>Llegaron este mes</dt>
        <dd>{data.month.arrived}</dd>
        <dt>Concretados</dt>
        <dd>{data.month.converted}</dd>
        <dt>Conversión</dt>
        <dd>{rateText(data.month.rate_bp)}</dd>
        <dt>Seguimientos vencidos</dt>
        <dd>
          <FigureLink href={leadsLink({ overdue: 'true' })}>{countOf(data.follow_ups_due, 'lead', 'leads')}</FigureLink>
        </dd>
      </dl>
    </>
  );
}
