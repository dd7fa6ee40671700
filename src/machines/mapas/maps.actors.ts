import type { ApiClient, ApiError } from '../../api/client';
import type { AppToaster } from '../../lib/toaster';

/** What the map screens' machines need from the app. */
export interface MapsMachinesDeps {
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
}

/**
 * Machines of the lot maps (MapaProyectos, MapSales, MapSales/Heat, MapSalesCustomer, /mapa),
 * loaded on demand with the map screens.
 * TODO(maps): map data loading, filters, hover/selection, lot panel.
 */
export function createMapsMachinesFor(client: ApiClient, deps: MapsMachinesDeps) {
  void client;
  void deps;
  return {};
}
export type MapsMachines = ReturnType<typeof createMapsMachinesFor>;
