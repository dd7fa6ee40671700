import { use } from 'react';
import { Button } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useServices } from '../services';
import type { MapsMachines } from '../../machines/mapas/maps.actors';
import type { LotMapActorRef } from '../../machines/mapas/lot-map.machine';
import { nameSegment } from '../proyectos/lot-status';
import { LotMap } from './LotMap';
import { SimpleLotPanel, useLotMapActor } from './map-parts';

/**
 * The shareable public link of a subdivision's map: `{origin}/mapa/{name}/{key}`.
 * @param origin e.g. "https://parcela.pe" (window.location.origin).
 */
export function publicMapLink(origin: string, name: string, key: string): string {
  return `${origin}/mapa/${nameSegment(name)}/${encodeURIComponent(key)}`;
}

/** "Copiar enlace": sends the public link to the machine (clipboard + toast). */
export function CopyLinkButton({ actor }: { actor: LotMapActorRef }) {
  const name = useSelector(actor, (s) => s.context.subdivision?.name ?? '');
  const key = useSelector(actor, (s) => s.context.key);
  return <Button icon="link" text="Copiar enlace" onClick={() => actor.send({ type: 'map.copyLink', url: publicMapLink(window.location.origin, name, key) })} />;
}

/** /COMERCIO/MapSalesCustomer/{name}/{id_encrypted}: waits for the maps' machines, then the page. */
export function CustomerMapScreen({ params }: { params: Record<string, string> }) {
  const machines = use(useServices().machines.maps());
  const key = params.id_encrypted ?? '';
  return <PublicLotMapView key={key} machines={machines} subdivisionKey={key} />;
}

/**
 * The prospects' map (issue "Proyectos"; DOMAIN.md "Maps"), inside the layout
 * (MapSalesCustomer) and on the public /mapa page: the public map call, only Disponible /
 * Separado / Vendido, prices only when the API sends them, no personal data, "Copiar enlace",
 * and "Este mapa no está disponible" when the API answers 404.
 */
export function PublicLotMapView({ machines, subdivisionKey }: { machines: MapsMachines; subdivisionKey: string }) {
  const actor = useLotMapActor(machines.lotMap, { key: subdivisionKey, source: 'public' });
  const name = useSelector(actor, (s) => s.context.subdivision?.name ?? '');
  const ready = useSelector(actor, (s) => s.matches('ready'));
  return (
    <section className="map-page" aria-labelledby="map-title">
      <div className="map-page__header">
        <h1 id="map-title" className="map-page__title">
          Mapa de ventas{name ? <span className="map-page__subtitle"> · {name}</span> : null}
        </h1>
      </div>
      <LotMap actor={actor} publicView toolbarExtra={ready ? <CopyLinkButton actor={actor} /> : null}>
        <SimpleLotPanel actor={actor} />
      </LotMap>
    </section>
  );
}
