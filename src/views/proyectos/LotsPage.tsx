import { ModulePlaceholder } from '../shared/ModulePlaceholder';
import { AUTH_ROUTES } from '../../config/paths';

/** Placeholder until the Proyectos screens land (TODO(projects web)). */
export function LotsScreen(_props: { params?: Record<string, string> }) {
  return <ModulePlaceholder route={AUTH_ROUTES.lotizaciones} />;
}
