import { useActorRef } from '@xstate/react';
import { inspectOption } from '../../machines/inspect';
import { FormGroup } from '@blueprintjs/core';
import { HTMLSelect } from '../shared/BlueprintEs';
import { useSelector } from '@xstate/react';
import { HEAT_METRIC_LABEL, type HeatMetric } from '../../machines/mapas/map-geometry';
import { hasPermissions, selectPermissions } from '../../machines/session/session.selectors';
import { MODULE, SUBMODULE } from '../../schemas/permissions';
import { useSession } from '../services';
import { LotMap } from './LotMap';
import { LotSellActions, MapPageFrame, MapsScreen, SalesLotPanel, type MapPageProps } from './map-page';
import { ReservationDialog } from '../comercio/ReservationDialog';
import { QuoteDialog } from '../comercio/QuoteDialog';
import { PaymentMapLink } from './PaymentMapPage';

/** The heat map's metrics, in the select's order (docs/decisions.md "Heat map metrics"). */
export const HEAT_METRICS: readonly { value: HeatMetric; label: string }[] = (
  ['PRICE_PER_M2', 'SALE_DATE', 'DAYS_LATE', 'TITLE_STATE'] as const
).map((value) => ({ value, label: HEAT_METRIC_LABEL[value] }));

/**
 * Who may see the title-state metric's data (the server's TITLES_ACCESS on GET
 * /api/subdivisions/{key}/title-states): 'Acceso módulo administración' + 'Acceso submódulo
 * registros de partidas y títulos'. Without it the metric is listed disabled (docs/decisions.md
 * "Heat map: title state").
 */
export const TITLE_STATE_PERMISSIONS = [MODULE.administracion, SUBMODULE.partidasTitulos];
/** The disabled option's text for a user without {@link TITLE_STATE_PERMISSIONS}. */
export const TITLE_STATE_NO_ACCESS = 'Estado del título (requiere acceso a títulos)';

/** /COMERCIO/MapSales/Heat/{name}/{id_encrypted}: waits for the maps' machines, then the page. */
export function HeatMapScreen({ params }: { params: Record<string, string> }) {
  return <MapsScreen params={params} page={HeatMapPage} />;
}

/**
 * "Mapa de calor" (issue "Proyectos"; docs/domain.md "Maps"): lots coloured by a chosen metric on a
 * continuous scale (5-stop sequential ramp, see map-geometry.ts) with a legend bar from the
 * minimum to the maximum value: price per m², sale date or days late of the live sale (lots without
 * one in the neutral "no data" grey); or by the state of the live sale's title process, one colour
 * per state with a legend of classes (for who may see titles, {@link TITLE_STATE_PERMISSIONS}).
 */
export function HeatMapPage({ machines, subdivisionKey }: MapPageProps) {
  const sale = useActorRef(machines.lotSale, inspectOption());
  const titleStates = hasPermissions(useSession(selectPermissions), TITLE_STATE_PERMISSIONS);
  // The project map's page machine: the map plus the "Separar" and "Cotizar" dialogs, a reserved lot recoloured.
  const page = useActorRef(machines.projectMapPage, {
    input: { key: subdivisionKey, source: 'staff', colouring: 'heat', titleStates },
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
        {HEAT_METRICS.map((m) =>
          m.value === 'TITLE_STATE' && !titleStates ? (
            <option key={m.value} value={m.value} disabled>
              {TITLE_STATE_NO_ACCESS}
            </option>
          ) : (
            <option key={m.value} value={m.value}>
              {m.label}
            </option>
          ),
        )}
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
