import type { ApiClient, ApiError } from '../../api/client';
import type { AppToaster } from '../../lib/toaster';

/** What the Proyectos screens' machines need from the app. */
export interface ProjectsMachinesDeps {
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
}

/**
 * Machines of /PROYECTOS/lotizaciones and /PROYECTOS/Lotes (loaded on demand with the screens).
 * TODO(projects web): subdivisions list/editor, lots list/editor, status change, bulk prices.
 */
export function createProjectsMachinesFor(client: ApiClient, deps: ProjectsMachinesDeps) {
  void client;
  void deps;
  return {};
}
export type ProjectsMachines = ReturnType<typeof createProjectsMachinesFor>;
