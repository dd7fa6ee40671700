import { HTMLTable } from '@blueprintjs/core';
import { formatArea, formatMoney } from '../../../lib/money';
import { formatDate } from '../../../lib/dates';
import { DASHBOARD_PERIOD_LABELS, type SalesCard } from '../../../schemas/inicio/dashboard';
import { FigureLink } from '../FigureLink';
import { MoneyLines } from '../MoneyLines';
import { salesReportLink } from '../dashboard-links';
import { countOf, type CardBodyProps } from './card-props';

/**
 * "Ventas del mes": this month, last month and the same month last year — number of sales, amount
 * per currency, area and price per m² — each period a link to Reporte de Ventas of its dates (for a user who may open it).
 */
export function SalesCardBody({ data, permissions }: CardBodyProps<SalesCard>) {
  if (data.periods.length === 0) return <p className="dashboard-empty">Sin ventas registradas.</p>;
  return (
    <div className="dashboard-table-scroll">
      <HTMLTable compact className="dashboard-table">
        <thead>
          <tr>
            <th scope="col">Período</th>
            <th scope="col">Ventas</th>
            <th scope="col">Monto</th>
            <th scope="col">Precio por m²</th>
          </tr>
        </thead>
        <tbody>
          {data.periods.map((p) => {
            const href = salesReportLink(permissions, p.from, p.to);
            return (
              <tr key={p.period}>
                <th scope="row">
                  <FigureLink href={href}>{DASHBOARD_PERIOD_LABELS[p.period]}</FigureLink>
                  <div className="dashboard-muted">
                    {formatDate(p.from)} – {formatDate(p.to)}
                  </div>
                </th>
                <td>
                  <FigureLink href={href}>{countOf(p.count, 'venta', 'ventas')}</FigureLink>
                </td>
                <td>
                  <FigureLink href={href}>
                    <MoneyLines rows={p.by_currency} />
                  </FigureLink>
                  {p.by_currency.map((c) => (
                    <div key={c.currency} className="dashboard-muted">
                      {formatArea(c.area_m2)}
                    </div>
                  ))}
                </td>
                <td>
                  {p.by_currency.length === 0
                    ? '—'
                    : p.by_currency.map((c) => (
                        <div key={c.currency}>{c.price_per_m2 === null ? '—' : `${formatMoney(c.price_per_m2, c.currency)} / m²`}</div>
                      ))}
                </td>
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>
    </div>
  );
}
