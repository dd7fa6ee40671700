import { formatMoney } from '../../../lib/money';
import { formatDate } from '../../../lib/dates';
import type { PaymentsReviewCard } from '../../../schemas/inicio/dashboard';
import { FigureLink } from '../FigureLink';
import { MoneyLines } from '../MoneyLines';
import { paymentsLink } from '../dashboard-links';
import { countOf, type CardBodyProps } from './card-props';

/**
 * "Pagos por revisar": payments PENDIENTE — how many and their amount per currency, a link to Pagos
 * filtered by that status — and the five oldest (customer, sale or reservation, method, amount, date
 * registered).
 */
export function PaymentsReviewCardBody({ data }: CardBodyProps<PaymentsReviewCard>) {
  const href = paymentsLink('PENDIENTE');
  return (
    <>
      <div className="dashboard-headline">
        <FigureLink href={href}>
          <span className="dashboard-big">{countOf(data.count, 'pago', 'pagos')}</span>
        </FigureLink>
        <FigureLink href={href}>
          <MoneyLines rows={data.by_currency} />
        </FigureLink>
      </div>
      {data.oldest.length > 0 ? (
        <>
          <p className="dashboard-subtitle">Los más antiguos</p>
          <ul className="dashboard-list">
            {data.oldest.map((p) => (
              <li key={p.id}>
                <span className="dashboard-list-main">{p.customer_name || 'Cliente sin nombre'}</span>
                <span className="dashboard-muted">{[p.reference, p.method, formatDate(p.created_at)].filter(Boolean).join(' · ')}</span>
                <span className="dashboard-list-amount">{formatMoney(p.amount, p.currency)}</span>
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </>
  );
}
