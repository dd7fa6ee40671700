import { useActorRef, useSelector } from '@xstate/react';
import { Button, Callout, Card, Classes, H3, H4, Spinner, Tag } from '@blueprintjs/core';
import { LinkButton } from '../../shared/LinkButton';
import type { PurchasesMachines } from '../../../machines/comercio/purchases.actors';
import { inspectOption } from '../../../machines/inspect';
import { customerSummary } from '../../../lib/inicio/customer-summary';
import { formatDate } from '../../../lib/dates';
import { formatMoney } from '../../../lib/money';
import { instalmentLabel, purchaseDetailPath } from '../../comercio/MyPurchasesPage';
import { customerMapPath } from '../../mapas/customer-map-path';
import { CustomerLots } from './CustomerLots';

/**
 * The portal's Inicio for a signed-in customer (docs/dashboard.md "The customer's Inicio"), under
 * the greeting: the next instalment due with "Pagar" (it opens that purchase's Detalle de Compra,
 * where Yape, Plin and transfer are), what is past due per currency, and each lot with its map and
 * contract. Everything comes from Mis Compras' own list (the `list` machine), so the figures are
 * the list's.
 * @param today the Lima date (yyyy-mm-dd): an instalment due before it "venció", not "vence".
 */
export function CustomerHome({ machines, today }: { machines: Pick<PurchasesMachines, 'list'>; today: string }) {
  const actor = useActorRef(machines.list, inspectOption());
  const loading = useSelector(actor, (s) => s.matches('loading'));
  const error = useSelector(actor, (s) => s.context.error);
  const rows = useSelector(actor, (s) => s.context.rows);
  const ready = useSelector(actor, (s) => s.matches('ready'));
  const { next, overdue } = customerSummary(rows);
  return (
    <section className="customer-home" aria-labelledby="customer-home-title">
      <H3 id="customer-home-title" className="home-section-title">
        Su resumen
      </H3>
      {loading ? <Spinner size={32} aria-label="Cargando" /> : null}
      {error ? (
        <Callout intent="danger" role="alert">
          {error} <Button variant="minimal" size="small" text="Reintentar" onClick={() => actor.send({ type: 'list.retry' })} />
        </Callout>
      ) : null}
      {ready && rows.length === 0 ? (
        <Card className="customer-home-card" elevation={1}>
          <p>Aún no tiene compras.</p>
          <LinkButton href="/COMERCIO/ventasClientes" intent="primary" icon="map" text="Ver lotes en venta" />
        </Card>
      ) : null}
      {ready && rows.length > 0 ? (
        <div className="customer-home-grid">
          <Card className="customer-home-card" elevation={1} aria-labelledby="next-due-title">
            <H4 id="next-due-title">Próxima cuota</H4>
            {next ? (
              <>
                <p className="customer-home-figure">{formatMoney(next.instalment.amount_due, next.purchase.currency)}</p>
                <p className={Classes.TEXT_MUTED}>
                  {instalmentLabel(next.instalment)} · {next.purchase.lot_code} ({next.purchase.subdivision_name}) ·{' '}
                  {next.instalment.due_date < today ? 'venció el' : 'vence el'} {formatDate(next.instalment.due_date)}
                </p>
                <LinkButton href={purchaseDetailPath(next.purchase.id)} intent="primary" icon="mobile-phone" text="Pagar" />
              </>
            ) : (
              <p>No tiene cuotas pendientes.</p>
            )}
          </Card>
          <Card className="customer-home-card" elevation={1} aria-labelledby="overdue-title">
            <H4 id="overdue-title">Monto vencido</H4>
            {overdue.length === 0 ? (
              <p>Está al día en sus pagos.</p>
            ) : (
              <ul className="customer-home-overdue">
                {overdue.map((o) => (
                  <li key={o.currency}>
                    <Tag minimal intent="danger" size="large" className="customer-home-figure">
                      {formatMoney(o.amount, o.currency)}
                    </Tag>{' '}
                    <span className={Classes.TEXT_MUTED}>
                      en {o.instalments} {o.instalments === 1 ? 'cuota vencida' : 'cuotas vencidas'}
                      {o.lateFees > 0 ? (
                        <>
                          {' · mora '}
                          <span className="customer-home-nowrap">{formatMoney(o.lateFees, o.currency)}</span>
                        </>
                      ) : null}
                    </span>
                  </li>
                ))}
              </ul>
            )}
          </Card>
          <CustomerLots purchases={rows} mapPath={customerMapPath} />
        </div>
      ) : null}
    </section>
  );
}
