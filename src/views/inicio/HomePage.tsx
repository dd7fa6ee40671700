import { lazy, Suspense, useMemo } from 'react';
import { Spinner } from '@blueprintjs/core';
import { selectActiveLocal, selectPermissions, selectUser } from '../../machines/session/session.selectors';
import { permittedDashboardCards } from '../../machines/inicio/dashboard-cards';
import { useSession } from '../services';
import { useOptionalDarkTheme } from '../shell/shell-context';
import { HomeView } from './HomeView';

// The cards, their machines and schemas are their own chunks, fetched after Inicio's first paint
// (docs/decisions.md "Inicio: the screen"; the budget of tests/e2e/bundle-budget.e2e.test.ts).
const HomeDashboard = lazy(() => import('./HomeDashboard'));
// The customer's summary is its own chunk too: staff never fetch it (and it brings Mis Compras' code).
const CustomerHomeSection = lazy(() => import('./customer/CustomerHomeSection'));

/**
 * Inicio at / (docs/product.md §2 dashboard; docs/decisions.md "Inicio: the screen"):
 * {@link HomeView} with the session's user and active location (first entry of `local_active`),
 * and below its greeting the staff dashboard — the cards the user's permissions allow
 * (src/machines/inicio/dashboard-cards.ts) — or, for a user allowed none, the module cards as before.
 *
 * Inicio is drawn inside the shell skeleton before the shell's code has arrived
 * (src/views/router/AppRoutes.tsx) and again inside the shell: the cards start (and fetch) only in
 * the shell, so they are fetched once; the skeleton's Inicio shows the greeting alone, as the
 * server's first paint does. A change of permissions starts the dashboard over with its new cards.
 * A customer gets their summary above their modules instead (docs/dashboard.md "The customer's Inicio").
 */
export function HomePage() {
  const user = useSession(selectUser);
  const local = useSession(selectActiveLocal);
  const customer = useSession((s) => s.context.userType === 'CUSTOMER');
  const permissions = useSession(selectPermissions);
  const cards = useMemo(() => permittedDashboardCards(permissions), [permissions]);
  const dark = useOptionalDarkTheme();
  if (customer)
    return (
      <HomeView user={user} local={local} modules>
        {dark === null ? null : (
          <Suspense fallback={<Spinner size={24} aria-label="Cargando su resumen" className="dashboard-spinner" />}>
            <CustomerHomeSection />
          </Suspense>
        )}
      </HomeView>
    );
  if (cards.length === 0) return <HomeView user={user} local={local} />;
  return (
    <HomeView user={user} local={local}>
      {dark === null ? null : (
        <Suspense fallback={<Spinner size={24} aria-label="Cargando el resumen" className="dashboard-spinner" />}>
          <HomeDashboard key={cards.join()} permissions={permissions} dark={dark} />
        </Suspense>
      )}
    </HomeView>
  );
}
