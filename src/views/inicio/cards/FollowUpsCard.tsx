import { formatDateTime } from '../../../lib/dates';
import type { FollowUpsCard } from '../../../schemas/inicio/dashboard';
import { FigureLink } from '../FigureLink';
import { leadsLink } from '../dashboard-links';
import { countOf, type CardBodyProps } from './card-props';

/**
 * "Mis seguimientos pendientes": the user's own open leads with a follow-up due today or overdue —
 * how many (a link to Leads filtered mine=true&overdue=true) and the most overdue (each a link that
 * opens the lead: ?lead=<id>), with the follow-up's date and time in Lima.
 */
export function FollowUpsCardBody({ data }: CardBodyProps<FollowUpsCard>) {
  return (
    <>
      <div className="dashboard-headline">
        <FigureLink href={leadsLink({ mine: 'true', overdue: 'true' })}>
          <span className="dashboard-big">{countOf(data.count, 'seguimiento', 'seguimientos')}</span>
        </FigureLink>
      </div>
      {data.leads.length > 0 ? (
        <ul className="dashboard-list">
          {data.leads.map((lead) => (
            <li key={lead.id}>
              <FigureLink href={leadsLink({ lead: String(lead.id) })}>{lead.name}</FigureLink>
              <span className="dashboard-muted">{[lead.phone, formatDateTime(lead.next_follow_up_at)].filter(Boolean).join(' · ')}</span>
            </li>
          ))}
        </ul>
      ) : (
        <p className="dashboard-empty">Sin seguimientos pendientes.</p>
      )}
    </>
  );
}
