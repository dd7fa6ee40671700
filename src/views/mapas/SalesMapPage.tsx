import { useActorRef, useSelector } from '@xstate/react';
import { inspectOption } from '../../machines/inspect';
import { LotMap } from './LotMap';
import { LotSellActions, MapPageFrame, MapsScreen, SalesLotPanel, type MapPageProps } from './map-page';
import { ReservationDialog } from '../comercio/ReservationDialog';
import { QuoteDialog } from '../comercio/QuoteDialog';
import { PaymentMapLink } from './PaymentMapPage';

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
  // The project map's page machine: the map plus the "Separar" and "Cotizar" dialogs, a reserved lot recoloured.
  const page = useActorRef(machines.projectMapPage, { input: { key: subdivisionKey, source: 'staff' }, ...inspectOption() });
  const actor = useSelector(page, (s) => s.context.map);
  const reservation = useSelector(page, (s) => s.context.reservation);
  const quote = useSelector(page, (s) => s.context.quote);
  return (
    <MapPageFrame actor={actor} title="Mapa de ventas" filters>
      <LotMap actor={actor} toolbarExtra={<PaymentMapLink subdivisionKey={subdivisionKey} />}>
        <SalesLotPanel actor={actor} sale={sale} actions={<LotSellActions actor={actor} reservation={reservation} quote={quote} />} />
      </LotMap>
      <ReservationDialog actor={reservation} />
      <QuoteDialog actor={quote} />
    </MapPageFrame>
  );
}
