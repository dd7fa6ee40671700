import { HTMLTable } from '@blueprintjs/core';
import { formatDate } from '../../../lib/dates';
import type { CollectionsCard } from '../../../schemas/inicio/dashboard';
import { FigureLink } from '../FigureLink';
import { MoneyLines } from '../MoneyLines';
import { instalmentsDueLink, paymentsLink } from '../dashboard-links';
import type { CardBodyProps } from './card-props';

/**
 * "Cobranza del mes": collected (approved payments of the month → Pagos APROBADO of its dates),
 * expected (instalments due in the month → Registro de Cuotas of those due dates) and collected
 * today, one line per currency each.
 */
export function CollectionsCardBody({ data }: CardBodyProps<CollectionsCard>) {
  const rows = (pick: (row: CollectionsCard['by_currency'][number]) => number) =>
    data.by_currency.map((row) => ({ currency: row.currency, amount: pick(row) }));
  return (
    <>
      <p className="dashboard-muted">
        Del {formatDate(data.from)} al {formatDate(data.to)}
      </p>
      <HTMLTable compact className="dashboard-table">
        <tbody>
          <tr>
            <th scope="row">Cobrado</th>
            <td>
              <FigureLink href={paymentsLink('APROBADO', data.from, data.to)}>
                <MoneyLines rows={rows((r) => r.collected)} />
              </FigureLink>
            </td>
          </tr>
          <tr>
            <th scope="row">Esperado (cuotas del mes)</th>
            <td>
              <FigureLink href={instalmentsDueLink(data.from, data.to)}>
                <MoneyLines rows={rows((r) => r.expected)} />
              </FigureLink>
            </td>
          </tr>
          <tr>
            <th scope="row">Cobrado hoy</th>
            <td>
              <FigureLink href={paymentsLink('APROBADO', data.as_of, data.as_of)}>
                <MoneyLines rows={rows((r) => r.collected_today)} />
              </FigureLink>
            </td>
          </tr>
        </tbody>
      </HTMLTable>
    </>
  );
}
