import { use } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { Button, Callout, Card, Classes, NonIdealState, ProgressBar, Spinner, Tag } from '@blueprintjs/core';
import type { PurchasesMachines } from '../../machines/comercio/purchases.actors';
import { PURCHASES_PER_PAGE } from '../../machines/comercio/purchases-list.machine';
import { inspectOption } from '../../machines/inspect';
import { formatMoney } from '../../lib/money';
import { formatDate } from '../../lib/dates';
import { SALE_STATUS_LABELS, type SaleStatus } from '../../schemas/comercio/sales';
import type { Purchase } from '../../schemas/comercio/purchases';
import { useServices } from '../services';
import '../../styles/purchases.css';

/** The address of a purchase's statement (docs/decisions.md "Customer purchases": the sale in `?venta=`). */
export const purchaseDetailPath = (saleId: number) => `/COMERCIO/DetalleCompra?venta=${saleId}`;

/** Spanish label of a sale state (the code itself when unknown). */
export const saleStatusLabel = (status: string) => SALE_STATUS_LABELS[status as SaleStatus] ?? status;

/** "Cuota inicial 2" / "Cuota 5". */
export const instalmentLabel = (row: { kind: string; number: number }) =>
  row.kind === 'INICIAL' ? `Cuota inicial ${row.number}` : `Cuota ${row.number}`;

/**
 * Comercial → Mis Compras for a signed-in customer (/COMERCIO/MisCompras; issue 16 "Customer
 * screens"): the customer's purchases (as holder or co-holder) — lot, subdivision, price, paid,
 * balance, the next instalment and its date, overdue instalments and late fees, state — each
 * leading to its statement (Detalle de Compra).
 */
export function MyPurchasesScreen() {
  const machines = use(useServices().machines.purchases());
  return <MyPurchasesPage machines={machines} />;
}

export function MyPurchasesPage({ machines }: { machines: Pick<PurchasesMachines, 'list'> }) {
  const actor = useActorRef(machines.list, inspectOption());
  const loading = useSelector(actor, (s) => s.matches('loading'));
  const error = useSelector(actor, (s) => s.context.error);
  const rows = useSelector(actor, (s) => s.context.rows);
  const page = useSelector(actor, (s) => s.context.page);
  const total = useSelector(actor, (s) => s.context.total);
  const ready = useSelector(actor, (s) => s.matches('ready'));
  const pages = Math.max(1, Math.ceil(total / PURCHASES_PER_PAGE));
  return (
    <section className="purchases-page" aria-labelledby="mis-compras-title">
      <h1 id="mis-compras-title" className="bp6-heading purchases-title">
        Mis Compras
      </h1>
      <p className={Classes.TEXT_MUTED}>Sus lotes comprados, lo pagado, el saldo y la próxima cuota.</p>
      {loading ? <Spinner size={32} aria-label="Cargando" /> : null}
      {error ? (
        <Callout intent="danger" role="alert" className="purchases-callout">
          {error} <Button variant="minimal" size="small" text="Reintentar" onClick={() => actor.send({ type: 'list.retry' })} />
        </Callout>
      ) : null}
      {ready && rows.length === 0 ? (
        <NonIdealState icon="home" title="Aún no tiene compras" description="Cuando compre un lote, aquí verá su cronograma y sus pagos." />
      ) : null}
      <ul className="purchases-list" aria-label="Compras">
        {rows.map((p) => (
          <li key={p.id}>
            <PurchaseCard purchase={p} />
          </li>
        ))}
      </ul>
      {pages > 1 ? (
        <div className="purchases-pager">
          <Button
            icon="chevron-left"
            text="Anterior"
            disabled={page <= 1 || loading}
            onClick={() => actor.send({ type: 'list.pageChanged', page: page - 1 })}
          />
          <span>
            Página {page} de {pages}
          </span>
          <Button
            endIcon="chevron-right"
            text="Siguiente"
            disabled={page >= pages || loading}
            onClick={() => actor.send({ type: 'list.pageChanged', page: page + 1 })}
          />
        </div>
      ) : null}
    </section>
  );
}

/** One purchase: lot and subdivision, state, figures, progress, next instalment, "Ver detalle". */
function PurchaseCard({ purchase: p }: { purchase: Purchase }) {
  const { navigate } = useServices();
  const money = (cents: number) => formatMoney(cents, p.currency);
  const progress = p.total > 0 ? Math.min(1, p.paid / p.total) : 1;
  const title = `Lote ${p.lot_code}`;
  return (
    <Card className="purchase-card">
      <div className="purchase-card__head">
        <div>
          <h2 className={Classes.HEADING}>{title}</h2>
          <p className={Classes.TEXT_MUTED}>
            {p.subdivision_name} · {p.number}
          </p>
        </div>
        <Tag minimal round intent={p.status === 'CANCELADA' ? 'success' : 'primary'}>
          {saleStatusLabel(p.status)}
        </Tag>
      </div>
      <dl className="purchase-figures">
        <div>
          <dt>Precio</dt>
          <dd>{money(p.total)}</dd>
        </div>
        <div>
          <dt>Pagado</dt>
          <dd>{money(p.paid)}</dd>
        </div>
        <div>
          <dt>Saldo</dt>
          <dd>{money(p.balance)}</dd>
        </div>
      </dl>
      <ProgressBar
        value={progress}
        stripes={false}
        animate={false}
        intent={p.status === 'CANCELADA' ? 'success' : 'primary'}
        aria-label={`Pagado ${Math.round(progress * 100)} %`}
      />
      <div className="purchase-card__next">
        {p.next_instalment ? (
          <p>
            Próxima: <strong>{instalmentLabel(p.next_instalment)}</strong> · vence {formatDate(p.next_instalment.due_date)} ·{' '}
            <strong>{money(p.next_instalment.amount_due)}</strong>
          </p>
        ) : (
          <p>No tiene cuotas pendientes.</p>
        )}
        {p.overdue_instalments > 0 ? (
          <Tag intent="danger" minimal icon="warning-sign">
            {p.overdue_instalments === 1 ? '1 cuota vencida' : `${p.overdue_instalments} cuotas vencidas`}
            {p.late_fee_due > 0 ? ` · mora ${money(p.late_fee_due)}` : ''}
          </Tag>
        ) : null}
      </div>
      <Button
        intent="primary"
        icon="eye-open"
        text="Ver detalle"
        aria-label={`Ver detalle del lote ${p.lot_code}`}
        onClick={() => navigate(purchaseDetailPath(p.id))}
      />
    </Card>
  );
}
