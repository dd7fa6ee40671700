import { useActorRef } from '@xstate/react';
import { inspectOption } from '../../machines/inspect';
import { LotMap } from './LotMap';
import { MapPageFrame, MapsScreen, SalesLotPanel, type MapPageProps } from './map-page';
import { useLotMapActor } from './map-parts';

/** What a sold lot without a sale on record says (defined with the shared map pieces). */
export { SALE_NOT_REGISTERED } from './map-page';

/** /COMERCIO/MapSales/{name}/{id_encrypted}: waits for the maps' machines, then the page. */
export function SalesMapScreen({ params }: { params: Record<string, string> }) {
  return <MapsScreen params={params} page={SalesMapPage} />;
}

/**
 * "Mapa de ventas" (issue "Proyectos"): the plan with each lot's status and price (staff map
 * call); a sold lot's panel shows its sale: buyers, agent, sale date, status and balance.
 */
export function SalesMapPage({ machines, subdivisionKey }: MapPageProps) {
  const sale = useActorRef(machines.lotSale, inspectOption());
  const actor = useLotMapActor(machines.lotMap, { key: subdivisionKey, source: 'staff' });
  return (
    <MapPageFrame actor={actor} title="Mapa de ventas" filters>
      <LotMap actor={actor}>
        <SalesLotPanel actor={actor} sale={sale} />
      </LotMap>
    </MapPageFrame>
  );
}
