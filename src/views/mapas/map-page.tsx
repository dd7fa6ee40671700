import { use, type ComponentType, type ReactNode } from 'react';
import { Callout } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { useServices } from '../services';
import type { MapsMachines } from '../../machines/mapas/maps.actors';
import type { LotMapActorRef } from '../../machines/mapas/lot-map.machine';
import { MapFilters, SimpleLotPanel } from './map-parts';
import { MapPageHeader } from './map-skeleton';

/**
 * The scaffolding every map screen repeats (src/views/mapas/*Page.tsx): the routed screen that
 * waits for the maps' machines, the page frame (title with the subdivision's name, optional
 * filters column) and the sales / heat maps' lot panel with the pending sales data note.
 */

/** Where the sale's buyer, agent and date will show (issue "Ventas" adds them). */
export const SALES_DATA_PENDING = 'Datos de venta disponibles con el módulo de Ventas';

/** Props of a map page: the maps' machines and the subdivision's opaque key (`id_encrypted`). */
export interface MapPageProps {
  machines: MapsMachines;
  subdivisionKey: string;
}

/**
 * A routed map screen (`/…/{name}/{id_encrypted}`): suspends until the maps' machines load, then
 * renders `page` keyed by `id_encrypted` (another subdivision remounts it with a fresh actor).
 */
export function MapsScreen({ params, page: Page }: { params: Record<string, string>; page: ComponentType<MapPageProps> }) {
  const machines = use(useServices().machines.maps());
  const key = params.id_encrypted ?? '';
  return <Page key={key} machines={machines} subdivisionKey={key} />;
}

/**
 * The frame of a map page: `<h1>` "{title} · {subdivision name}" (the name once loaded), then
 * `children` (the LotMap), beside the {@link MapFilters} column when `filters` is set.
 */
export function MapPageFrame({
  actor,
  title,
  filters = false,
  children,
}: {
  actor: LotMapActorRef;
  title: string;
  filters?: boolean;
  children: ReactNode;
}) {
  const name = useSelector(actor, (s) => s.context.subdivision?.name ?? '');
  return (
    <section className="map-page" aria-labelledby="map-title">
      <MapPageHeader title={title} name={name} />
      {filters ? (
        <div className="map-page__layout">
          <MapFilters actor={actor} />
          <div className="map-page__main">{children}</div>
        </div>
      ) : (
        children
      )}
    </section>
  );
}

/** The selected lot's simple panel with the {@link SALES_DATA_PENDING} note (sales and heat maps). */
export function SalesLotPanel({ actor }: { actor: LotMapActorRef }) {
  return (
    <SimpleLotPanel actor={actor}>
      <Callout icon="info-sign" compact className="lot-panel__note">
        {SALES_DATA_PENDING}
      </Callout>
    </SimpleLotPanel>
  );
}
