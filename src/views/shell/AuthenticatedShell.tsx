import { use } from 'react';
import { hasPermissions, selectPermissions } from '../../machines/session/session.selectors';
import { useServices, useSession } from '../services';
import { ModulePlaceholder, NoPermission } from '../shared/ModulePlaceholder';
import { LoadBoundary } from '../shared/LoadBoundary';
import type { AuthRouteMatch } from '../router/route-match';
import { screenComponent } from '../router/screen-views';
import { AppLayout } from './AppLayout';
import { ShellProvider } from './shell-context';
import { AppHotkeysProvider } from './hotkeys';
import '../../styles/shell.css';

/**
 * The authenticated area (docs/product.md §2; issue "Shell"), loaded on demand by AppRoutes once the route
 * guard let the user in: the shell's app-wide actors (layout, theme, change-password, menu-search,
 * created the first time and loaded with this chunk), AppLayout (top bar, side menu, footer,
 * dialogs), which stays mounted while the user moves between authenticated screens, and the current
 * screen (remounted per route). A screen that loads its own code later suspends only the content
 * area, not the layout. The hotkeys provider (Blueprint's context; its help dialog loads when first
 * opened, see hotkeys.tsx) is here rather than in app.tsx: only the authenticated area has
 * shortcuts, and the public pages stay lighter.
 */
export function AuthenticatedShell({ match }: { match: AuthRouteMatch }) {
  const actors = use(useServices().machines.shell());
  return (
    <AppHotkeysProvider>
      <ShellProvider value={actors}>
        <AppLayout>
          <LoadBoundary>
            <AuthScreen key={match.key} match={match} />
          </LoadBoundary>
        </AppLayout>
      </ShellProvider>
    </AppHotkeysProvider>
  );
}

/**
 * One authenticated screen: the permission check (docs/product.md §6), then the screen the table names
 * (src/config/screens.ts), or the placeholder of a module still to come.
 */
function AuthScreen({ match }: { match: AuthRouteMatch }) {
  const permissions = useSession(selectPermissions);
  if (!hasPermissions(permissions, match.route.permissions)) return <NoPermission route={match.route} />;
  const Screen = screenComponent(match.key);
  if (Screen) return <Screen params={match.params} />;
  return <ModulePlaceholder route={match.route} />;
}
