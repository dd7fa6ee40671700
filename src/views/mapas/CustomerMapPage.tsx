import { useSelector } from '@xstate/react';
import type { LotMapActorRef } from '../../machines/mapas/lot-map.machine';
import { nameSegment } from '../proyectos/lot-status';
import { LotMap } from './LotMap';
import { MapPageFrame, MapsScreen, type MapPageProps } from './map-page';
import { CopyLinkButtonView, PUBLIC_MAP_TITLE } from './map-skeleton';
import { SimpleLotPanel, useLotMapActor } from './map-parts';

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
  return <MapsScreen params={params} page={PublicLotMapView} />;
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
