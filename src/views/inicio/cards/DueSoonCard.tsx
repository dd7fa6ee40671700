import { formatDate } from '../../../lib/dates';
import type { DueSoonCard } from '../../../schemas/inicio/dashboard';
import { FigureLink } from '../FigureLink';
import { MoneyLines } from '../MoneyLines';
import { instalmentsDueLink } from '../dashboard-links';
import { countOf, type CardBodyProps } from './card-props';

/**
 * "Cuotas por vencer (7 días)": the unpaid instalments due from today to a week ahead — how many
 * and the outstanding per currency — a link to Registro de Cuotas of those due dates.
 */
export function DueSoonCardBody({ data }: CardBodyProps<DueSoonCard>) {
  const href = instalmentsDueLink(data.from, data.to);
  return (
    <>
      <div className="dashboard-headline">
        <FigureLink href={href}>
          <span className="dashboard-big">{countOf(data.count, 'cuota', 'cuotas')}</span>
        </FigureLink>
        <FigureLink href={href}>
          <MoneyLines rows={data.by_currency} />
        </FigureLink>
      </div>
      <p className="dashboard-muted">
        Del {formatDate(data.from)} al {formatDate(data.to)}
      </p>
    </>
  );
}
