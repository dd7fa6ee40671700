import { formatDateTime } from '../../../lib/dates';
import type { ExpiringReservationsCard } from '../../../schemas/inicio/dashboard';
import { FigureLink } from '../FigureLink';
import { reservationsLink } from '../dashboard-links';
import { countOf, type CardBodyProps } from './card-props';

/**
 * "Separaciones por vencer (48 h)": reservations expiring in the next 48 hours — how many (a link to
 * the Separaciones tab of Ventas) and the soonest: lot, subdivision, customer, agent, when it expires
 * (Lima date and time).
 */
export function ExpiringReservationsCardBody({ data }: CardBodyProps<ExpiringReservationsCard>) {
  return (
    <>
      <div className="dashboard-headline">
        <FigureLink href={reservationsLink()}>
          <span className="dashboard-big">{countOf(data.count, 'separación', 'separaciones')}</span>
        </FigureLink>
      </div>
      {data.reservations.length > 0 ? (
        <ul className="dashboard-list">
          {data.reservations.map((r) => (
            <li key={r.id}>
              <span className="dashboard-list-main">
                {[r.lot_code && `Lote ${r.lot_code}`, r.subdivision_name].filter(Boolean).join(' · ')}
              </span>
              <span className="dashboard-muted">{[r.customer_name, r.agent_name].filter(Boolean).join(' · ')}</span>
              <span className="dashboard-list-amount">Vence {formatDateTime(r.expires_at)}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="dashboard-empty">Ninguna separación vence en las próximas 48 horas.</p>
      )}
    </>
  );
}
