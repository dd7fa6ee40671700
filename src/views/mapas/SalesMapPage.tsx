import { use } from 'react';
import { Callout } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useServices } from '../services';
import type { MapsMachines } from '../../machines/mapas/maps.actors';
import { LotMap } from './LotMap';
import { MapFilters, SimpleLotPanel, useLotMapActor } from './map-parts';

/** Where the sale's buyer, agent and date will show (issue "Ventas" adds them). */
export const SALES_DATA_PENDING = 'Datos de venta disponibles con el módulo de Ventas';

/** /COMERCIO/MapSales/{name}/{id_encrypted}: waits for the maps' machines, then the page. */
export function SalesMapScreen({ params }: { params: Record<string, string> }) {
  const machines = use(useServices().machines.maps());
  const key = params.id_encrypted ?? '';
  return <SalesMapPage key={key} machines={machines} subdivisionKey={key} />;
}

/**
 * "Mapa de ventas" (issue "Proyectos"): the plan with each lot's status and price (staff map
 * call); the lot panel keeps the place of the sale data (buyer, agent, sale date) that the sales
 * issue adds.
 */
export function SalesMapPage({ machines, subdivisionKey }: { machines: MapsMachines; subdivisionKey: string }) {
  const actor = useLotMapActor(machines.lotMap, { key: subdivisionKey, source: 'staff' });
  const name = useSelector(actor, (s) => s.context.subdivision?.name ?? '');
  return (
    <section className="map-page" aria-labelledby="map-title">
      <div className="map-page__header">
        <h1 id="map-title" className="map-page__title">
          Mapa de ventas{name ? <span className="map-page__subtitle"> · {name}</span> : null}
        </h1>
      </div>
      <div className="map-page__layout">
        <MapFilters actor={actor} />
        <div className="map-page__main">
          <LotMap actor={actor}>
            <SimpleLotPanel actor={actor}>
              <Callout icon="info-sign" compact className="lot-panel__note">
                {SALES_DATA_PENDING}
              </Callout>
            </SimpleLotPanel>
          </LotMap>
        </div>
      </div>
    </section>
  );
}
