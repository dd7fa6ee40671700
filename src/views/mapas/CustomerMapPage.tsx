import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Button } from '@blueprintjs/core';
import { useSearch } from 'wouter';
import { inspectOption } from '../../machines/inspect';
import type { ReservationRequestMachine } from '../../machines/comercio/reservation-request.machine';
import { ReservationRequestDialog } from '../comercio/ReservationRequestDialog';
import { useServices } from '../services';
import type { LotMapActorRef } from '../../machines/mapas/lot-map.machine';
import { nameSegment } from '../proyectos/lot-status';
import { lotFromSearch } from './customer-map-path';
import { LotMap } from './LotMap';
import { MapPageFrame, MapsScreen, type MapPageProps } from './map-page';
import { CopyLinkButtonView, PUBLIC_MAP_TITLE } from './map-skeleton';
import { SimpleLotPanel, useLotMapActor, useSelectedLot } from './map-parts';

/**
 * The shareable public link of a subdivision's map: `{origin}/mapa/{name}/{key}`.
 * @param origin e.g. "https://parcela.pe" (window.location.origin).
 */
export function publicMapLink(origin: string, name: string, key: string): string {
  return `${origin}/mapa/${nameSegment(name)}/${encodeURIComponent(key)}`;
}

/** "Copiar enlace": sends the public link to the machine (clipboard + toast); disabled until the map has loaded. */
export function CopyLinkButton({ actor }: { actor: LotMapActorRef }) {
  const name = useSelector(actor, (s) => s.context.subdivision?.name ?? '');
  const key = useSelector(actor, (s) => s.context.key);
  const ready = useSelector(actor, (s) => s.matches('ready'));
  return (
    <CopyLinkButtonView
      disabled={!ready}
      onClick={() => actor.send({ type: 'map.copyLink', url: publicMapLink(window.location.origin, name, key) })}
    />
  );
}

/** /COMERCIO/MapSalesCustomer/{name}/{id_encrypted}: waits for the maps' machines, then the page. */
export function CustomerMapScreen({ params }: { params: Record<string, string> }) {
  return <MapsScreen params={params} page={CustomerSalesMapView} />;
}

/**
 * The map of a signed-in customer (MapSalesCustomer; issue "CRM and sales"): the public map, and
 * on a Disponible lot "Solicitar separación" with its interest-free simulation (the request becomes
 * a lead for an agent). `?lote={code}` selects that lot on load (highlighted, its panel open).
 */
export function CustomerSalesMapView({ machines, subdivisionKey }: MapPageProps) {
  const initialLot = lotFromSearch(useSearch());
  const actor = useLotMapActor(machines.lotMap, { key: subdivisionKey, source: 'public', initialLot });
  const request = useActorRef(machines.reservationRequest, inspectOption());
  return (
    <MapPageFrame actor={actor} title={PUBLIC_MAP_TITLE}>
      <LotMap actor={actor} publicView toolbarExtra={<CopyLinkButton actor={actor} />}>
        <SimpleLotPanel actor={actor}>
          <RequestButton actor={actor} request={request} subdivisionKey={subdivisionKey} />
        </SimpleLotPanel>
      </LotMap>
      <ReservationRequestDialog actor={request} />
    </MapPageFrame>
  );
}

/** "Solicitar separación" on a Disponible lot's panel. */
function RequestButton({
  actor,
  request,
  subdivisionKey,
}: {
  actor: LotMapActorRef;
  request: ActorRefFrom<ReservationRequestMachine>;
  subdivisionKey: string;
}) {
  const { today } = useServices();
  const lot = useSelectedLot(actor);
  const currency = useSelector(actor, (s) => s.context.subdivision?.currency ?? 'PEN');
  if (!lot || lot.status !== 'DISPONIBLE') return null;
  return (
    <div className="lot-panel__actions">
      <Button
        intent="success"
        icon="bookmark"
        text="Solicitar separación"
        onClick={() =>
          request.send({
            type: 'request.open',
            subdivisionKey,
            lot: { code: lot.code, currency, listPrice: lot.list_price },
            today: today(),
          })
        }
      />
    </div>
  );
}

/**
 * The prospects' map (issue "Proyectos"; docs/domain.md "Maps"), inside the layout
 * (MapSalesCustomer) and on the public /mapa page: the public map call, only Disponible /
 * Separado / Vendido, prices only when the API sends them, no personal data, "Copiar enlace",
 * and "Este mapa no está disponible" when the API answers 404.
 */
export function PublicLotMapView({ machines, subdivisionKey }: MapPageProps) {
  const actor = useLotMapActor(machines.lotMap, { key: subdivisionKey, source: 'public' });
  return (
    <MapPageFrame actor={actor} title={PUBLIC_MAP_TITLE}>
      <LotMap actor={actor} publicView toolbarExtra={<CopyLinkButton actor={actor} />}>
        <SimpleLotPanel actor={actor} />
      </LotMap>
    </MapPageFrame>
  );
}
