import { use } from 'react';
import { useServices } from '../services';
import { PublicLotMapView } from './CustomerMapPage';
import { PublicMapFrame } from './map-skeleton';
import '../../styles/maps.css';

/**
 * Public sales map at /mapa/{name}/{id_encrypted} (docs/product.md §2, outside the authenticated layout, no
 * login): the prospects' map of a published subdivision (GET /public/subdivisions/{key}/map).
 * @param name the project name segment of the URL (already decoded; only for readability).
 * @param idEncrypted the subdivision's opaque key.
 */
export function PublicMapPage({ idEncrypted }: { name: string; idEncrypted?: string }) {
  const machines = use(useServices().machines.maps());
  const key = idEncrypted ?? '';
  return (
    <PublicMapFrame>
      <PublicLotMapView key={key} machines={machines} subdivisionKey={key} />
    </PublicMapFrame>
  );
}
