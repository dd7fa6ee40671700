import { Callout, HTMLTable } from '@blueprintjs/core';
import { formatDate } from '../../lib/dates';
import { formatMoney } from '../../lib/money';
import type { LateFeeChange, Payment } from '../../schemas/finanzas/payments';

/**
 * The late fees approving a payment changes (the approval preview's `late_fee_changes`): a payment
 * dated before today stops the fee from the day after its date, so the fees of the days since are
 * lowered (docs/domain.md "Instalments, days late and late fees"). Shown before "Aprobar y aplicar"
 * so the reviewer sees every fee the date cancels; nothing is lowered silently.
 */
export function LateFeeChangesTable({
  changes,
  currency,
  operationDate,
}: {
  changes: readonly LateFeeChange[];
  currency: Payment['currency'];
  operationDate: string;
}) {
  const m = (cents: number) => formatMoney(cents, currency);
  return (
    <Callout intent="warning" title="La fecha del pago cambia la mora" className="payment-fee-changes">
      <p>
        El pago tiene fecha de operación {formatDate(operationDate)}: la mora deja de correr desde el día siguiente, así que estas moras
        bajan al aprobarlo.
      </p>
      <HTMLTable compact striped>
        <thead>
          <tr>
            <th scope="col">Cuota</th>
            <th scope="col" className="num">
              Mora hoy
            </th>
            <th scope="col" className="num">
              Mora con este pago
            </th>
            <th scope="col" className="num">
              Diferencia
            </th>
          </tr>
        </thead>
        <tbody>
          {changes.map((c) => (
            <tr key={c.instalment_id}>
              <td>{c.kind === 'INICIAL' ? `Inicial ${c.number}` : `Cuota ${c.number}`}</td>
              <td className="num">{m(c.before)}</td>
              <td className="num">{m(c.after)}</td>
              <td className="num">{c.after < c.before ? `− ${m(c.before - c.after)}` : `+ ${m(c.after - c.before)}`}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </Callout>
  );
}
