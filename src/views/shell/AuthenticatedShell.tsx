import { HotkeysProvider } from '@blueprintjs/core';
import { hasPermissions, selectPermissions } from '../../machines/session/session.selectors';
import { useSession } from '../services';
import { HomePage } from '../inicio/HomePage';
import { ModulePlaceholder, NoPermission } from '../shared/ModulePlaceholder';
import { LoadBoundary } from '../shared/LoadBoundary';
import type { AuthRouteMatch } from '../router/route-match';
import { AppLayout } from './AppLayout';

/**
 * The authenticated area (SPEC §2), loaded on demand by AppRoutes once the route guard let the
 * user in: AppLayout, which stays mounted while the user moves between authenticated screens, and
 * the current screen (remounted per route). A screen that loads its own code later suspends only
 * the content area, not the layout. Blueprint's hotkeys provider is here rather than in app.tsx:
 * only the authenticated area has shortcuts, and the public pages stay lighter.
 */
export function AuthenticatedShell({ match }: { match: AuthRouteMatch }) {
  return (
    <HotkeysProvider>
      <AppLayout>
        <LoadBoundary>
          <AuthScreen key={match.key} match={match} />
        </LoadBoundary>
      </AppLayout>
    </HotkeysProvider>
  );
}

/** One authenticated screen: the permission check (SPEC §6) and its content. */
function AuthScreen({ match }: { match: AuthRouteMatch }) {
  const permissions = useSession(selectPermissions);
  if (!hasPermissions(permissions, match.route.permissions)) return <NoPermission route={match.route} />;
  if (match.key === 'home') return <HomePage />;
  return <ModulePlaceholder route={match.route} />;
}
