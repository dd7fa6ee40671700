import { LotMap } from './LotMap';
import { MapPageFrame, MapsScreen, SalesLotPanel, type MapPageProps } from './map-page';
import { useLotMapActor } from './map-parts';

/** Where the sale's buyer, agent and date will show (defined with the shared map pieces). */
export { SALES_DATA_PENDING } from './map-page';

/** /COMERCIO/MapSales/{name}/{id_encrypted}: waits for the maps' machines, then the page. */
export function SalesMapScreen({ params }: { params: Record<string, string> }) {
  return <MapsScreen params={params} page={SalesMapPage} />;
}

/**
 * "Mapa de ventas" (issue "Proyectos"): the plan with each lot's status and price (staff map
 * call); the lot panel keeps the place of the sale data (buyer, agent, sale date) that the sales
 * issue adds.
 */
export function SalesMapPage({ machines, subdivisionKey }: MapPageProps) {
  const actor = useLotMapActor(machines.lotMap, { key: subdivisionKey, source: 'staff' });
  return (
    <MapPageFrame actor={actor} title="Mapa de ventas" filters>
      <LotMap actor={actor}>
        <SalesLotPanel actor={actor} />
      </LotMap>
    </MapPageFrame>
  );
}
