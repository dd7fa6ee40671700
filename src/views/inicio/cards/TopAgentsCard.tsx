import { HTMLTable } from '@blueprintjs/core';
import type { TopAgentsCard } from '../../../schemas/inicio/dashboard';
import { FigureLink } from '../FigureLink';
import { MoneyLines } from '../MoneyLines';
import { salesReportLink } from '../dashboard-links';
import type { CardBodyProps } from './card-props';

/**
 * "Mejores asesores del mes": the five agents with most sales this month — sales and amount per
 * currency — each a link to Reporte de Ventas of the month filtered by that agent.
 */
export function TopAgentsCardBody({ data, permissions }: CardBodyProps<TopAgentsCard>) {
  if (data.agents.length === 0) return <p className="dashboard-empty">Sin ventas este mes.</p>;
  return (
    <HTMLTable compact className="dashboard-table">
      <thead>
        <tr>
          <th scope="col">Asesor</th>
          <th scope="col">Ventas</th>
          <th scope="col">Monto</th>
        </tr>
      </thead>
      <tbody>
        {data.agents.map((agent) => {
          const href = salesReportLink(permissions, data.from, data.to, agent.id);
          return (
            <tr key={agent.id}>
              <th scope="row">
                <FigureLink href={href}>{agent.name}</FigureLink>
              </th>
              <td>
                <FigureLink href={href}>{agent.count}</FigureLink>
              </td>
              <td>
                <FigureLink href={href}>
                  <MoneyLines rows={agent.by_currency} />
                </FigureLink>
              </td>
            </tr>
          );
        })}
      </tbody>
    </HTMLTable>
  );
}
