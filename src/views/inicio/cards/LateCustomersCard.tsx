import { AnchorButton, HTMLTable } from '@blueprintjs/core';
import type { LateCustomersCard } from '../../../schemas/inicio/dashboard';
import { FigureLink } from '../FigureLink';
import { MoneyLines } from '../MoneyLines';
import { customerOverdueLink } from '../dashboard-links';
import { countOf, type CardBodyProps } from './card-props';
import { telHref } from '../../../lib/phone-links';

/**
 * "Clientes con más atraso": the ten customers with most days late — name (a link to their overdue
 * instalments in Registro de Cuotas), days late, amount overdue per currency, phone — and a
 * "WhatsApp" link with the reminder the server wrote (`whatsapp_url`) when they have a phone.
 */
export function LateCustomersCardBody({ data }: CardBodyProps<LateCustomersCard>) {
  if (data.customers.length === 0) return <p className="dashboard-empty">Ningún cliente con cuotas vencidas.</p>;
  return (
    <div className="dashboard-table-scroll">
      <HTMLTable compact className="dashboard-table">
        <thead>
          <tr>
            <th scope="col">Cliente</th>
            <th scope="col">Atraso</th>
            <th scope="col">Vencido</th>
            <th scope="col">Teléfono</th>
          </tr>
        </thead>
        <tbody>
          {data.customers.map((c) => {
            const href = customerOverdueLink(c.id);
            return (
              <tr key={c.id}>
                <th scope="row">
                  <FigureLink href={href}>{c.name}</FigureLink>
                </th>
                <td>{countOf(c.days_late, 'día', 'días')}</td>
                <td>
                  <FigureLink href={href}>
                    <MoneyLines rows={c.by_currency} />
                  </FigureLink>
                </td>
                <td>
                  <div className="dashboard-phone">
                    {c.phone ? <a href={telHref(c.phone) ?? undefined}>{c.phone}</a> : <span>—</span>}
                    {c.whatsapp_url ? (
                      <AnchorButton
                        size="small"
                        variant="minimal"
                        intent="success"
                        icon="chat"
                        text="WhatsApp"
                        href={c.whatsapp_url}
                        target="_blank"
                        rel="noopener noreferrer"
                        aria-label={`Escribir por WhatsApp a ${c.name}`}
                        title="WhatsApp"
                      />
                    ) : null}
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </HTMLTable>
    </div>
  );
}
