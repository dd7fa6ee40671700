import { AnchorButton } from '@blueprintjs/core';
import type { Lead } from '../../schemas/crm/leads';
import { selectUser } from '../../machines/session/session.selectors';
import { leadGreeting, telHref, whatsAppHref } from '../../lib/phone-links';
import { useSession } from '../services';

/**
 * A lead's phone as links (docs/domain.md "Leads: contact links"): the number calls (`tel:+51…`)
 * and, for a Peruvian mobile, a WhatsApp button opens a chat with a greeting from the signed-in
 * staff member naming the project the lead asked about. "—" without a phone.
 */
export function LeadPhone({ lead, compact = false }: { lead: Pick<Lead, 'name' | 'phone' | 'subdivisions'>; compact?: boolean }) {
  const user = useSession(selectUser);
  if (!lead.phone) return <>—</>;
  const tel = telHref(lead.phone);
  const greeting = leadGreeting({
    leadName: lead.name,
    staffName: user ? `${user.name} ${user.surname}` : '',
    project: lead.subdivisions[0]?.name ?? null,
  });
  const whatsApp = whatsAppHref(lead.phone, greeting);
  return (
    <span className="lead-phone">
      {tel ? (
        <a href={tel} aria-label={`Llamar al ${lead.phone}`}>
          {lead.phone}
        </a>
      ) : (
        lead.phone
      )}
      {whatsApp ? (
        <AnchorButton
          href={whatsApp}
          target="_blank"
          rel="noopener noreferrer"
          variant="minimal"
          size="small"
          icon="chat"
          aria-label={`Escribir por WhatsApp a ${lead.name}`}
          title="WhatsApp"
          text={compact ? undefined : 'WhatsApp'}
        />
      ) : null}
    </span>
  );
}
