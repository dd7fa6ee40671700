import { use, useEffect, type ComponentType, type ReactNode } from 'react';
import { Button, Callout } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { LotSaleMachine } from '../../machines/mapas/lot-sale.machine';
import { SALE_STATUS_LABELS } from '../../schemas/comercio/sales';
import { formatMoney } from '../../lib/money';
import { formatDate } from '../../lib/dates';
import { useServices, useSession } from '../services';
import { hasPermissions, selectPermissions } from '../../machines/session/session.selectors';
import { MODULE, SUBMODULE } from '../../schemas/permissions';
import type { ReservationFormMachine } from '../../machines/comercio/reservation-form.machine';
import type { QuoteFormMachine } from '../../machines/comercio/quote-form.machine';
import type { MapsMachines } from '../../machines/mapas/maps.actors';
import type { LotMapActorRef } from '../../machines/mapas/lot-map.machine';
import { MapFilters, PanelSpinner, SimpleLotPanel, useSelectedLot } from './map-parts';
import { MapPageHeader } from './map-skeleton';
import { contractPath } from '../../config/paths';

/**
 * The scaffolding every map screen repeats (src/views/mapas/*Page.tsx): the routed screen that
 * waits for the maps' machines, the page frame (title with the subdivision's name, optional
 * filters column) and the sales / heat maps' lot panel with the sale of a sold lot.
 */

/** A Vendido lot without a sale on record (lots marked sold by hand before sales existed). */
export const SALE_NOT_REGISTERED = 'Venta no registrada en el sistema';

/** Props of a map page: the maps' machines and the subdivision's opaque key (`id_encrypted`). */
export interface MapPageProps {
  machines: MapsMachines;
  subdivisionKey: string;
}

/**
 * A routed map screen (`/…/{name}/{id_encrypted}`): suspends until the maps' machines load, then
 * renders `page` keyed by `id_encrypted` (another subdivision remounts it with a fresh actor).
 */
export function MapsScreen({ params, page: Page }: { params: Record<string, string>; page: ComponentType<MapPageProps> }) {
  const machines = use(useServices().machines.maps());
  const key = params.id_encrypted ?? '';
  return <Page key={key} machines={machines} subdivisionKey={key} />;
}

/**
 * The frame of a map page: `<h1>` "{title} · {subdivision name}" (the name once loaded), then
 * `children` (the LotMap), beside the {@link MapFilters} column when `filters` is set.
 */
export function MapPageFrame({
  actor,
  title,
  filters = false,
  children,
}: {
  actor: LotMapActorRef;
  title: string;
  filters?: boolean;
  children: ReactNode;
}) {
  const name = useSelector(actor, (s) => s.context.subdivision?.name ?? '');
  return (
    <section className="map-page" aria-labelledby="map-title">
      <MapPageHeader title={title} name={name} />
      {filters ? (
        <div className="map-page__layout">
          <MapFilters actor={actor} />
          <div className="map-page__main">{children}</div>
        </div>
      ) : (
        children
      )}
    </section>
  );
}

/**
 * The selected lot's simple panel on the sales and heat maps, with the sale of a sold lot (buyers,
 * agent, sale date, status and balance) read by `sale` (lot-sale.machine.ts) when it is selected.
 */
export function SalesLotPanel({
  actor,
  sale,
  actions,
}: {
  actor: LotMapActorRef;
  sale: ActorRefFrom<LotSaleMachine>;
  /** The panel's buttons ({@link LotSellActions}). */
  actions?: ReactNode;
}) {
  const lot = useSelectedLot(actor);
  const lotId = lot?.id ?? null;
  const sold = lot?.status === 'VENDIDO';
  useEffect(() => {
    sale.send({ type: 'sale.forLot', lotId, sold });
  }, [sale, lotId, sold]);
  const current = useSelector(sale, (s) => s.context.sale);
  const loading = useSelector(sale, (s) => s.matches('loading'));
  const error = useSelector(sale, (s) => s.context.error);
  return (
    <SimpleLotPanel actor={actor}>
      {sold ? (
        <section aria-label="Venta del lote" className="lot-panel__sale">
          {loading ? <PanelSpinner /> : null}
          {error ? (
            <Callout intent="warning" compact>
              {error}
            </Callout>
          ) : null}
          {!loading && !error && !current ? <p className="bp6-text-muted">{SALE_NOT_REGISTERED}</p> : null}
          {current ? (
            <dl className="lot-panel__facts">
              <dt>Venta</dt>
              <dd>
                {current.number} · {SALE_STATUS_LABELS[current.status]}
              </dd>
              <dt>Comprador</dt>
              <dd>{current.holders.map((h) => h.display_name).join(', ')}</dd>
              <dt>Asesor</dt>
              <dd>{current.agent ? `${current.agent.name} ${current.agent.surname}` : '—'}</dd>
              <dt>Fecha de venta</dt>
              <dd>{formatDate(current.sale_date)}</dd>
              <dt>Saldo</dt>
              <dd>{formatMoney(current.balance, current.currency)}</dd>
            </dl>
          ) : null}
        </section>
      ) : null}
      {actions}
    </SimpleLotPanel>
  );
}

/** Who may quote and reserve a lot (the server's RESERVATIONS_ACCESS). */
export const SELL_PERMISSIONS = [MODULE.comercial, SUBMODULE.ventas];

/**
 * "Cotizar" (a lot Disponible or Separado), "Separar" (Disponible) and "Vender" (Disponible or
 * Separado: the contract stepper) for staff holding Comercial + Ventas, on the sales and heat maps as
 * on Mapa del proyecto; the dialogs are the page machine's.
 */
export function LotSellActions({
  actor,
  reservation,
  quote,
}: {
  actor: LotMapActorRef;
  reservation: ActorRefFrom<ReservationFormMachine>;
  quote: ActorRefFrom<QuoteFormMachine>;
}) {
  const { today, navigate } = useServices();
  const permissions = useSession(selectPermissions);
  const lot = useSelectedLot(actor);
  const currency = useSelector(actor, (s) => s.context.subdivision?.currency ?? 'PEN');
  if (!lot || lot.id === null || !hasPermissions(permissions, SELL_PERMISSIONS)) return null;
  const id = lot.id;
  return (
    <div className="lot-panel__actions">
      {(lot.status === 'DISPONIBLE' || lot.status === 'SEPARADO') && lot.list_price !== null ? (
        <Button
          icon="calculator"
          text="Cotizar"
          onClick={() =>
            quote.send({ type: 'quote.open', lot: { id, code: lot.code, currency, listPrice: lot.list_price ?? 0 }, today: today() })
          }
        />
      ) : null}
      {lot.status === 'DISPONIBLE' ? (
        <Button
          intent="success"
          icon="bookmark"
          text="Separar"
          onClick={() => reservation.send({ type: 'reserve.open', lot: { id, code: lot.code, currency } })}
        />
      ) : null}
      {(lot.status === 'DISPONIBLE' || lot.status === 'SEPARADO') && lot.list_price !== null ? (
        <Button intent="primary" icon="shopping-cart" text="Vender" onClick={() => navigate(contractPath('nuevo', id))} />
      ) : null}
    </div>
  );
}
