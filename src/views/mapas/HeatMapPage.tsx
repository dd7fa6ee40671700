import { useActorRef } from '@xstate/react';
import { inspectOption } from '../../machines/inspect';
import { FormGroup } from '@blueprintjs/core';
import { HTMLSelect } from '../shared/BlueprintEs';
import { useSelector } from '@xstate/react';
import { HEAT_METRIC_LABEL, type HeatMetric } from '../../machines/mapas/map-geometry';
import { LotMap } from './LotMap';
import { LotSellActions, MapPageFrame, MapsScreen, SalesLotPanel, type MapPageProps } from './map-page';
import { ReservationDialog } from '../comercio/ReservationDialog';
import { QuoteDialog } from '../comercio/QuoteDialog';
import { PaymentMapLink } from './PaymentMapPage';

/** The heat map's metrics, in the select's order (docs/decisions.md "Heat map metrics"). */
export const HEAT_METRICS: readonly { value: HeatMetric; label: string }[] = (['PRICE_PER_M2', 'SALE_DATE', 'DAYS_LATE'] as const).map(
  (value) => ({ value, label: HEAT_METRIC_LABEL[value] }),
);

/** /COMERCIO/MapSales/Heat/{name}/{id_encrypted}: waits for the maps' machines, then the page. */
export function HeatMapScreen({ params }: { params: Record<string, string> }) {
  return <MapsScreen params={params} page={HeatMapPage} />;
}

/**
 * "Mapa de calor" (issue "Proyectos"; docs/domain.md "Maps"): lots coloured by a chosen metric on a
 * continuous scale (5-stop sequential ramp, see map-geometry.ts) with a legend bar from the
 * minimum to the maximum value: price per m², sale date or days late of the live sale (lots without
 * one in the neutral "no data" grey).
 */
export function HeatMapPage({ machines, subdivisionKey }: MapPageProps) {
  const sale = useActorRef(machines.lotSale, inspectOption());
  // The project map's page machine: the map plus the "Separar" and "Cotizar" dialogs, a reserved lot recoloured.
  const page = useActorRef(machines.projectMapPage, {
    input: { key: subdivisionKey, source: 'staff', colouring: 'heat' },
    ...inspectOption(),
  });
  const actor = useSelector(page, (s) => s.context.map);
  const reservation = useSelector(page, (s) => s.context.reservation);
  const quote = useSelector(page, (s) => s.context.quote);
  const metric = useSelector(actor, (s) => s.context.metric);
  const metricSelect = (
    <FormGroup label="Métrica" labelFor="heat-metric" inline className="heat-metric">
      <HTMLSelect
        id="heat-metric"
        value={metric}
        onChange={(e) => actor.send({ type: 'map.metric', metric: e.currentTarget.value as HeatMetric })}
      >
        {HEAT_METRICS.map((m) => (
          <option key={m.value} value={m.value}>
            {m.label}
          </option>
        ))}
      </HTMLSelect>
    </FormGroup>
  );
  return (
    <MapPageFrame actor={actor} title="Mapa de calor">
      <LotMap
        actor={actor}
        toolbarExtra={
          <>
            {metricSelect}
            <PaymentMapLink subdivisionKey={subdivisionKey} />
          </>
        }
      >
        <SalesLotPanel actor={actor} sale={sale} actions={<LotSellActions actor={actor} reservation={reservation} quote={quote} />} />
      </LotMap>
      <ReservationDialog actor={reservation} />
      <QuoteDialog actor={quote} />
    </MapPageFrame>
  );
}
