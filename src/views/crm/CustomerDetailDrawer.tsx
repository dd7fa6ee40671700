import type { ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Button, Callout, Classes, HTMLTable, Tag } from '@blueprintjs/core';
import { Link } from 'wouter';
import { LEAD_CHANNEL_LABELS, LEAD_STATUS_LABELS, type Lead } from '../../schemas/crm/leads';
import { QUOTE_STATUS_LABELS, type Quote } from '../../schemas/comercio/quotes';
import { RESERVATION_STATUS_LABELS, type Reservation } from '../../schemas/comercio/reservations';
import { isEndedSale, SALE_STATUS_LABELS, type Sale } from '../../schemas/comercio/sales';
import type { Customer } from '../../schemas/crm/customers';
import { MODULE, SUBMODULE } from '../../schemas/permissions';
import { formatMoney } from '../../lib/money';
import { formatDate, formatDateTime } from '../../lib/dates';
import { hasPermissions, selectPermissions } from '../../machines/session/session.selectors';
import {
  balancesByCurrency,
  type CustomerDetailMachine,
  type CustomerDetailSection,
  type SectionResult,
} from '../../machines/crm/customer-detail.machine';
import { useSession } from '../services';
import { SideDrawer } from '../shared/SideDrawer';
import '../../styles/crm.css';

/**
 * A customer's detail on CRM → Clientes (issue "CRM and sales"): contact and assignment, the
 * balances of their live sales per currency, and their leads, quotes, reservations and sales —
 * each section only with its permission (Leads: CRM + LEADS; the others: Comercial + Ventas), as the
 * server would refuse the call anyway. A lead opens /CRM/LEADS?lead={id}; a sale, /COMERCIO/ventas
 * searched by its number.
 */

/** The permissions each section needs (the same the list route asks). */
export const CUSTOMER_DETAIL_PERMISSIONS: Record<CustomerDetailSection, readonly string[]> = {
  leads: [MODULE.crm, SUBMODULE.leads],
  quotes: [MODULE.comercial, SUBMODULE.ventas],
  reservations: [MODULE.comercial, SUBMODULE.ventas],
  sales: [MODULE.comercial, SUBMODULE.ventas],
};

/** The sections the session's permissions allow. */
export function useCustomerDetailSections(): CustomerDetailSection[] {
  const permissions = useSession(selectPermissions);
  return (Object.keys(CUSTOMER_DETAIL_PERMISSIONS) as CustomerDetailSection[]).filter((s) =>
    hasPermissions(permissions, CUSTOMER_DETAIL_PERMISSIONS[s]),
  );
}

const staffName = (s: { name: string; surname: string } | null) => (s ? `${s.name} ${s.surname}`.trim() : '');
const label = (labels: Record<string, string>, code: string) => labels[code] ?? code;

export function CustomerDetailDrawer({
  detail,
  onQuote,
}: {
  detail: ActorRefFrom<CustomerDetailMachine>;
  /** "Cotizar" for this customer (the quote dialog with a lot picker); absent: no button. */
  onQuote?: (customer: Customer) => void;
}) {
  const customer = useSelector(detail, (s) => s.context.customer);
  const lists = useSelector(detail, (s) => s.context.lists);
  const sections = useSelector(detail, (s) => s.context.sections);
  const shown = (section: CustomerDetailSection) => sections.includes(section);
  const retry = () => detail.send({ type: 'detail.retry' });
  return (
    <SideDrawer
      isOpen={customer !== null}
      onClose={() => detail.send({ type: 'detail.close' })}
      size="min(720px, 100vw)"
      title={customer?.display_name ?? 'Cliente'}
    >
      {customer ? (
        <div className={`${Classes.DIALOG_BODY} customer-detail`}>
          <CustomerFacts customer={customer} />
          {lists.sales?.ok ? <Balances sales={lists.sales.rows} total={lists.sales.total} /> : null}
          <Section<Lead>
            shown={shown('leads')}
            title="Leads"
            result={lists.leads}
            empty="Sin leads"
            retry={retry}
            head={['Fecha', 'Canal', 'Asesor', 'Estado']}
            row={(l) => [
              <Link key="d" href={`/CRM/LEADS?lead=${l.id}`}>
                {formatDate(l.received_at)}
              </Link>,
              label(LEAD_CHANNEL_LABELS, l.channel),
              staffName(l.agent),
              <Tag key="s" minimal>
                {label(LEAD_STATUS_LABELS, l.status)}
              </Tag>,
            ]}
          />
          <Section<Quote>
            shown={shown('quotes')}
            title="Cotizaciones"
            action={onQuote ? <Button size="small" icon="calculator" text="Cotizar" onClick={() => onQuote(customer)} /> : undefined}
            result={lists.quotes}
            empty="Sin cotizaciones"
            retry={retry}
            head={['Número', 'Fecha', 'Lote', 'Precio final', 'Válida hasta', 'Estado']}
            numeric={[3]}
            row={(q) => [
              q.number,
              formatDate(q.created_at),
              q.lot.code,
              formatMoney(q.final_price, q.currency),
              formatDate(q.valid_until),
              <Tag key="s" minimal>
                {label(QUOTE_STATUS_LABELS, q.status)}
                {q.sale ? ` · ${q.sale.number}` : ''}
              </Tag>,
            ]}
          />
          <Section<Reservation>
            shown={shown('reservations')}
            title="Separaciones"
            result={lists.reservations}
            empty="Sin separaciones"
            retry={retry}
            head={['Número', 'Fecha', 'Lote', 'Monto', 'Vence', 'Estado']}
            numeric={[3]}
            row={(r) => [
              r.number,
              formatDate(r.created_at),
              r.lot.code,
              formatMoney(r.amount, r.currency),
              formatDateTime(r.expires_at),
              <Tag key="s" minimal>
                {label(RESERVATION_STATUS_LABELS, r.status)}
              </Tag>,
            ]}
          />
          <Section<Sale>
            shown={shown('sales')}
            title="Ventas"
            result={lists.sales}
            empty="Sin ventas"
            retry={retry}
            head={['Número', 'Fecha', 'Lote', 'Precio final', 'Saldo', 'Estado']}
            numeric={[3, 4]}
            row={(s) => [
              <Link key="n" href={`/COMERCIO/ventas?q=${encodeURIComponent(s.number)}`}>
                {s.number}
              </Link>,
              formatDate(s.sale_date),
              <span key="l">
                {s.lot.code}
                <small className={Classes.TEXT_MUTED}>{s.lot.subdivision_name}</small>
              </span>,
              formatMoney(s.final_price, s.currency),
              formatMoney(s.balance, s.currency),
              <Tag key="s" minimal intent={isEndedSale(s.status) ? 'danger' : 'none'}>
                {label(SALE_STATUS_LABELS, s.status)}
              </Tag>,
            ]}
          />
        </div>
      ) : null}
    </SideDrawer>
  );
}

function CustomerFacts({ customer: c }: { customer: Customer }) {
  return (
    <dl className="customer-detail__facts">
      <dt>Documento</dt>
      <dd>{c.document_number}</dd>
      {c.phone ? (
        <>
          <dt>Celular</dt>
          <dd>{c.phone}</dd>
        </>
      ) : null}
      {c.email ? (
        <>
          <dt>Correo</dt>
          <dd>{c.email}</dd>
        </>
      ) : null}
      <dt>Asesor</dt>
      <dd>{staffName(c.agent) || 'Sin asignar'}</dd>
    </dl>
  );
}

/** Σ balance of the live sales per currency (the rows loaded; says so when the customer has more). */
function Balances({ sales, total }: { sales: readonly Sale[]; total: number }) {
  const balances = balancesByCurrency(sales);
  return (
    <section className="customer-detail__balances" aria-label="Saldos">
      <h3 className={Classes.HEADING}>Saldos</h3>
      {balances.length === 0 ? (
        <p className={Classes.TEXT_MUTED}>Sin saldo pendiente</p>
      ) : (
        <dl className="customer-detail__totals">
          {balances.map((b) => (
            <FragmentRow
              key={b.currency}
              label={`Saldo ${b.currency === 'PEN' ? 'en soles' : 'en dólares'}`}
              value={formatMoney(b.amount, b.currency)}
            />
          ))}
        </dl>
      )}
      {total > sales.length ? (
        <p className={Classes.TEXT_MUTED}>
          Calculado sobre las {sales.length} ventas más recientes de {total}.
        </p>
      ) : null}
    </section>
  );
}

function FragmentRow({ label: text, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{text}</dt>
      <dd>
        <strong>{value}</strong>
      </dd>
    </>
  );
}

/** One list of the detail: absent without permission; loading, failure with "Reintentar", empty, or its table. */
function Section<Row>({
  shown,
  title,
  result,
  empty,
  retry,
  head,
  row,
  numeric = [],
  action,
}: {
  shown: boolean;
  /** A button beside the title (e.g. "Cotizar"). */
  action?: ReactNode;
  title: string;
  result: SectionResult<Row> | undefined;
  empty: string;
  retry: () => void;
  head: readonly string[];
  row: (r: Row) => ReactNode[];
  numeric?: readonly number[];
}) {
  if (!shown) return null;
  let body: ReactNode;
  if (!result) body = <p className={Classes.SKELETON}>Cargando…</p>;
  else if (!result.ok)
    body = (
      <Callout intent="danger" compact className="crm-callout">
        {result.error} <Button variant="minimal" size="small" text="Reintentar" onClick={retry} />
      </Callout>
    );
  else if (result.rows.length === 0) body = <p className={Classes.TEXT_MUTED}>{empty}</p>;
  else
    body = (
      <div className="customer-detail__table">
        <HTMLTable compact striped aria-label={title}>
          <thead>
            <tr>
              {head.map((h, i) => (
                <th key={h} className={numeric.includes(i) ? 'num' : undefined}>
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {result.rows.map((r, k) => (
              <tr key={k}>
                {row(r).map((cell, i) => (
                  <td key={i} className={numeric.includes(i) ? 'num' : undefined}>
                    {cell}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </HTMLTable>
        {result.total > result.rows.length ? (
          <p className={Classes.TEXT_MUTED}>
            Mostrando {result.rows.length} de {result.total}
          </p>
        ) : null}
      </div>
    );
  return (
    <section className="customer-detail__section" aria-label={title}>
      <h3 className={Classes.HEADING}>
        {title}
        {result?.ok ? <span className={Classes.TEXT_MUTED}> ({result.total})</span> : null}
        {action ? <span className="customer-detail__action">{action}</span> : null}
      </h3>
      {body}
    </section>
  );
}
