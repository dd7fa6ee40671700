import { HTMLTable } from '@blueprintjs/core';
import type { CommissionsCard } from '../../../schemas/inicio/dashboard';
import { FigureLink } from '../FigureLink';
import { MoneyLines } from '../MoneyLines';
import { commissionsLink } from '../dashboard-links';
import type { CardBodyProps } from './card-props';

/**
 * "Mis comisiones": the user's own commissions earned (not yet in a settlement) and to pay (in an
 * approved settlement), one line per currency, links to Comisiones y Pagos.
 */
export function CommissionsCardBody({ data }: CardBodyProps<CommissionsCard>) {
  const href = commissionsLink();
  return (
    <HTMLTable compact className="dashboard-table">
      <tbody>
        <tr>
          <th scope="row">Devengadas</th>
          <td>
            <FigureLink href={href}>
              <MoneyLines rows={data.by_currency.map((r) => ({ currency: r.currency, amount: r.earned }))} />
            </FigureLink>
          </td>
        </tr>
        <tr>
          <th scope="row">Por pagar</th>
          <td>
            <FigureLink href={href}>
              <MoneyLines rows={data.by_currency.map((r) => ({ currency: r.currency, amount: r.to_pay }))} />
            </FigureLink>
          </td>
        </tr>
      </tbody>
    </HTMLTable>
  );
}
