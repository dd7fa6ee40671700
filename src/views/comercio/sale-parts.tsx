import { HTMLTable } from '@blueprintjs/core';
import type { QuotePlan } from '../../lib/comercio/quote-plan';
import { formatMoney, type CurrencyCode } from '../../lib/money';
import { formatDate } from '../../lib/dates';
import type { Sale } from '../../schemas/comercio/sales';

/**
 * Pieces the Comercial screens share (issue "CRM and sales"): a plan's totals (the quote dialog and
 * the contract stepper's "Plan de pago") and a registered sale's schedule (the sale drawer of
 * Ventas and the contract page of a sale).
 */

/** Precio final, Cuota inicial (parts; the reservation credited), Saldo a financiar, Intereses, Total a pagar. */
export function PlanTotals({ plan, currency, creditCents = 0 }: { plan: QuotePlan; currency: CurrencyCode; creditCents?: number }) {
  const money = (cents: number) => formatMoney(cents, currency);
  return (
    <dl className="quote-totals">
      <dt>Precio final</dt>
      <dd>{money(plan.finalPriceCents)}</dd>
      <dt>Cuota inicial</dt>
      <dd>
        {money(plan.downPaymentCents)}
        {plan.downPayment.length > 1 ? ` en ${plan.downPayment.length} partes` : ''}
        {creditCents > 0 ? ` (separación abonada: ${money(creditCents)})` : ''}
      </dd>
      <dt>Saldo a financiar</dt>
      <dd>{money(plan.financedCents)}</dd>
      <dt>Intereses</dt>
      <dd>{money(plan.totalInterestCents)}</dd>
      <dt>Total a pagar</dt>
      <dd>
        <strong>{money(plan.totalToPayCents)}</strong>
      </dd>
    </dl>
  );
}

const ROW_STATUS: Record<string, string> = { PAGADA: 'Pagada', PARCIAL: 'Parcial', PENDIENTE: 'Pendiente', VENCIDA: 'Vencida' };

/** Late fee owed on a row: accrued − paid − waived, never below 0 (céntimos). */
const lateFeeDue = (r: Sale['schedule'][number]) => Math.max(0, r.late_fee_accrued - r.late_fee_paid - r.late_fee_waived);

/** A sale's schedule rows: cuota, vence, monto, pagado, mora (owed, when any was accrued), estado. */
export function SaleScheduleTable({ sale }: { sale: Pick<Sale, 'schedule' | 'currency'> }) {
  const money = (cents: number) => formatMoney(cents, sale.currency);
  return (
    <div className="quote-schedule">
      <HTMLTable compact striped aria-label="Cronograma de la venta">
        <thead>
          <tr>
            <th>Cuota</th>
            <th>Vence</th>
            <th className="num">Monto</th>
            <th className="num">Pagado</th>
            <th className="num">Mora</th>
            <th>Estado</th>
          </tr>
        </thead>
        <tbody>
          {sale.schedule.map((r) => (
            <tr key={`${r.kind}-${r.number}`}>
              <td>{r.kind === 'INICIAL' ? `Inicial ${r.number}` : r.number}</td>
              <td>{formatDate(r.due_date)}</td>
              <td className="num">{money(r.amount)}</td>
              <td className="num">{money(r.paid)}</td>
              <td
                className="num"
                title={
                  r.late_fee_accrued > 0
                    ? `Generada ${money(r.late_fee_accrued)}, pagada ${money(r.late_fee_paid)}, condonada ${money(r.late_fee_waived)}`
                    : undefined
                }
              >
                {r.late_fee_accrued > 0 ? money(lateFeeDue(r)) : '—'}
              </td>
              <td>{ROW_STATUS[r.status] ?? r.status}</td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </div>
  );
}
