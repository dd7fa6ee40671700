import { ModulePlaceholder } from '../shared/ModulePlaceholder';
import { AUTH_ROUTES } from '../../config/paths';

/** Placeholder until the maps land (TODO(maps)). */
export function CustomerMapScreen(_props: { params: Record<string, string> }) {
  return <ModulePlaceholder route={AUTH_ROUTES.mapSalesCustomer} />;
}
