import { HTMLTable } from '@blueprintjs/core';
import type { QuotePlan } from '../../lib/comercio/quote-plan';
import { creditCost, formatRatePercent, type CreditCostInput } from '../../lib/comercio/credit-cost';
import { formatMoney, type CurrencyCode } from '../../lib/money';
import { formatDate } from '../../lib/dates';
import type { Sale } from '../../schemas/comercio/sales';
import { ScrollRegion } from '../shared/ScrollRegion';

/**
 * Pieces the Comercial screens share (issue "CRM and sales"): a plan's totals (the quote dialog and
 * the contract stepper's "Plan de pago") and a registered sale's schedule (the sale drawer of
 * Ventas and the contract page of a sale).
 */

/**
 * "TEA" and "TCEA" rows of a totals list (src/lib/comercio/credit-cost.ts; docs/domain.md "Credit
 * cost: TEA and TCEA"); nothing when there is no credit (cash) or the rate cannot be read.
 */
export function CreditCostRows(props: CreditCostInput) {
  let cost: ReturnType<typeof creditCost> = null;
  try {
    cost = creditCost(props);
  } catch {
    cost = null;
  }
  if (!cost) return null;
  return (
    <>
      <dt title="Tasa efectiva anual">TEA</dt>
      <dd>{formatRatePercent(cost.tea)}</dd>
      <dt title="Tasa de costo efectivo anual (intereses, comisiones y gastos)">TCEA</dt>
      <dd>{formatRatePercent(cost.tcea)}</dd>
    </>
  );
}

/** A registered sale's credit cost: its instalments (not the down payment) against the amount financed. */
export function SaleCreditCostRows({ sale }: { sale: Pick<Sale, 'method' | 'monthly_rate_percent' | 'financed' | 'schedule'> }) {
  return (
    <CreditCostRows
      method={sale.method}
      monthlyRatePercent={sale.monthly_rate_percent}
      financedCents={sale.financed}
      instalmentsCents={sale.schedule.filter((r) => r.kind !== 'INICIAL').map((r) => r.amount)}
    />
  );
}

/**
 * Precio final, Cuota inicial (parts; the reservation credited), Saldo a financiar, Intereses, TEA
 * and TCEA (of `instalmentsCents` when the schedule was edited, else the plan's), Total a pagar.
 */
export function PlanTotals({
  plan,
  currency,
  creditCents = 0,
  method,
  monthlyRatePercent,
  instalmentsCents,
}: {
  plan: QuotePlan;
  currency: CurrencyCode;
  creditCents?: number;
  /** The terms the plan was computed with (for the TEA). */
  method: string;
  monthlyRatePercent: string;
  /** The instalments as edited row by row; absent = the plan's schedule. */
  instalmentsCents?: readonly number[];
}) {
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
      <CreditCostRows
        method={method}
        monthlyRatePercent={monthlyRatePercent}
        financedCents={plan.financedCents}
        instalmentsCents={instalmentsCents ?? plan.schedule.map((r) => r.amountCents)}
      />
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
export function SaleScheduleTable({
  sale,
  label = 'Cronograma de la venta',
}: {
  sale: Pick<Sale, 'schedule' | 'currency'>;
  /** The table's accessible name (a superseded schedule names its number). */
  label?: string;
}) {
  const money = (cents: number) => formatMoney(cents, sale.currency);
  return (
    <ScrollRegion className="quote-schedule" label={`Tabla: ${label}`}>
      <HTMLTable compact striped aria-label={label}>
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
    </ScrollRegion>
  );
}
