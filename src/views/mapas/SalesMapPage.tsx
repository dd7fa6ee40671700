import { ModulePlaceholder } from '../shared/ModulePlaceholder';
import { AUTH_ROUTES } from '../../config/paths';

/** Placeholder until the maps land (TODO(maps)). */
export function SalesMapScreen(_props: { params: Record<string, string> }) {
  return <ModulePlaceholder route={AUTH_ROUTES.mapSales} />;
}
