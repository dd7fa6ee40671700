import { useActorRef } from '@xstate/react';
import { inspectOption } from '../../machines/inspect';
import { FormGroup, HTMLSelect, Tooltip } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { HeatMetric } from '../../machines/mapas/map-geometry';
import { LotMap } from './LotMap';
import { LotSellActions, MapPageFrame, MapsScreen, SalesLotPanel, type MapPageProps } from './map-page';
import { ReservationDialog } from '../comercio/ReservationDialog';
import { QuoteDialog } from '../comercio/QuoteDialog';

/** Why the sales and payments metrics are disabled until those issues land. */
export const METRIC_PENDING = 'Disponible con el módulo de Ventas/Pagos';

/** The heat map's metrics (only "Precio por m²" has data now). */
export const HEAT_METRICS: readonly { value: HeatMetric; label: string; enabled: boolean }[] = [
  { value: 'PRICE_PER_M2', label: 'Precio por m²', enabled: true },
  { value: 'DAYS_LATE', label: 'Días de atraso', enabled: false },
  { value: 'SALE_DATE', label: 'Fecha de venta', enabled: false },
];

/** /COMERCIO/MapSales/Heat/{name}/{id_encrypted}: waits for the maps' machines, then the page. */
export function HeatMapScreen({ params }: { params: Record<string, string> }) {
  return <MapsScreen params={params} page={HeatMapPage} />;
}

/**
 * "Mapa de calor" (issue "Proyectos"; docs/domain.md "Maps"): lots coloured by a chosen metric on a
 * continuous scale (5-stop sequential ramp, see map-geometry.ts) with a legend bar from the
 * minimum to the maximum value. Days late and sale date wait for the sales and payments issues.
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
      <Tooltip content={`Días de atraso y Fecha de venta: ${METRIC_PENDING.toLowerCase()}`} placement="bottom">
        <HTMLSelect
          id="heat-metric"
          value={metric}
          onChange={(e) => actor.send({ type: 'map.metric', metric: e.currentTarget.value as HeatMetric })}
        >
          {HEAT_METRICS.map((m) => (
            <option key={m.value} value={m.value} disabled={!m.enabled} title={m.enabled ? undefined : METRIC_PENDING}>
              {m.enabled ? m.label : `${m.label} (${METRIC_PENDING})`}
            </option>
          ))}
        </HTMLSelect>
      </Tooltip>
    </FormGroup>
  );
  return (
    <MapPageFrame actor={actor} title="Mapa de calor">
      <LotMap actor={actor} toolbarExtra={metricSelect}>
        <SalesLotPanel actor={actor} sale={sale} actions={<LotSellActions actor={actor} reservation={reservation} quote={quote} />} />
      </LotMap>
      <ReservationDialog actor={reservation} />
      <QuoteDialog actor={quote} />
    </MapPageFrame>
  );
}
