import { lazy } from 'react';
import { ON_DEMAND_MACHINES } from '../../machines/app-actors';

/**
 * Screens loaded on demand (performance, issue "Foundation": ≤ 130 KB of JS up front for
 * /auth/login). Only the staff login is in the entry chunk; every other screen is fetched the first
 * time its route renders, inside a <LoadBoundary> (spinner, then the screen). A screen with a
 * machine loaded on demand fetches it in parallel with its own code, so the screen renders with
 * its machine at hand.
 */

// The authenticated area brings the shell's actors (layout, theme, change-password, menu-search) with it.
const authenticatedShell = () =>
  Promise.all([import('../shell/AuthenticatedShell'), ON_DEMAND_MACHINES.shell.load()]).then(([m]) => m);

/** The authenticated area: layout and screens (the staff login preloads it on submit). */
export const AuthenticatedShell = lazy(() => authenticatedShell().then((m) => ({ default: m.AuthenticatedShell })));

/** Starts fetching the authenticated area, e.g. while the login call is in flight. */
export function preloadAuthenticatedShell(): void {
  authenticatedShell().catch(() => {
    /* the route retries, and its boundary reports a failure */
  });
}

export const CustomerAccessPage = lazy(() =>
  Promise.all([import('../auth/CustomerAccessPage'), ON_DEMAND_MACHINES.customerAccess.load()]).then(([m]) => ({
    default: m.CustomerAccessPage,
  })),
);
export const ForgotPasswordPage = lazy(() =>
  Promise.all([import('../auth/ForgotPasswordPage'), ON_DEMAND_MACHINES.passwordReset.load()]).then(([m]) => ({
    default: m.ForgotPasswordPage,
  })),
);
export const ResetPasswordPage = lazy(() =>
  Promise.all([import('../auth/ResetPasswordPage'), ON_DEMAND_MACHINES.passwordReset.load()]).then(([m]) => ({
    default: m.ResetPasswordPage,
  })),
);
export const AccessDeniedPage = lazy(() => import('../auth/StatusPages').then((m) => ({ default: m.AccessDeniedPage })));
export const ErrorPage = lazy(() => import('../auth/StatusPages').then((m) => ({ default: m.ErrorPage })));
export const PaymentRequiredPage = lazy(() => import('../auth/StatusPages').then((m) => ({ default: m.PaymentRequiredPage })));
export const NotFoundPage = lazy(() => import('../auth/StatusPages').then((m) => ({ default: m.NotFoundPage })));
export const LandingPage = lazy(() => import('../landing/LandingPage').then((m) => ({ default: m.LandingPage })));
export const PublicMapPage = lazy(() => import('../mapa/PublicMapPage').then((m) => ({ default: m.PublicMapPage })));

/** /CONFIGURACION/usuarios: the screen's code and its machines load together. */
export const UsersScreen = lazy(() =>
  Promise.all([import('../configuracion/UsersPage'), ON_DEMAND_MACHINES.users.load()]).then(([m]) => ({ default: m.UsersScreen })),
);
/** /CONFIGURACION/rolesypermisos: the screen's code and its machines load together. */
export const RolesScreen = lazy(() =>
  Promise.all([import('../configuracion/RolesPage'), ON_DEMAND_MACHINES.roles.load()]).then(([m]) => ({ default: m.RolesScreen })),
);

/** /HistorialDeCambios: the screen's code and its machines load together. */
export const ChangeHistoryScreen = lazy(() =>
  Promise.all([import('../historial/ChangeHistoryPage'), ON_DEMAND_MACHINES.changeHistory.load()]).then(([m]) => ({
    default: m.ChangeHistoryScreen,
  })),
);

/** /CONFIGURACION/empresas: the screen's code and its machines load together. */
export const CompanyScreen = lazy(() =>
  Promise.all([import('../configuracion/CompanyPage'), ON_DEMAND_MACHINES.company.load()]).then(([m]) => ({
    default: m.CompanyScreen,
  })),
);

/** /PROYECTOS/lotizaciones: the screen's code and its machines load together. */
export const SubdivisionsScreen = lazy(() =>
  Promise.all([import('../proyectos/SubdivisionsPage'), ON_DEMAND_MACHINES.projects.load()]).then(([m]) => ({
    default: m.SubdivisionsScreen,
  })),
);
/** /PROYECTOS/Lotes/{name}/{id_encrypted}. */
export const LotsScreen = lazy(() =>
  Promise.all([import('../proyectos/LotsPage'), ON_DEMAND_MACHINES.projects.load()]).then(([m]) => ({ default: m.LotsScreen })),
);
/** /PROYECTOS/MapaProyectos/{name}/{id_encrypted}. */
export const ProjectMapScreen = lazy(() =>
  Promise.all([import('../mapas/ProjectMapPage'), ON_DEMAND_MACHINES.maps.load()]).then(([m]) => ({ default: m.ProjectMapScreen })),
);
/** /COMERCIO/MapSales/{name}/{id_encrypted}. */
export const SalesMapScreen = lazy(() =>
  Promise.all([import('../mapas/SalesMapPage'), ON_DEMAND_MACHINES.maps.load()]).then(([m]) => ({ default: m.SalesMapScreen })),
);
/** /COMERCIO/MapSales/Heat/{name}/{id_encrypted}. */
export const HeatMapScreen = lazy(() =>
  Promise.all([import('../mapas/HeatMapPage'), ON_DEMAND_MACHINES.maps.load()]).then(([m]) => ({ default: m.HeatMapScreen })),
);
/** /COMERCIO/MapSalesCustomer/{name}/{id_encrypted}. */
export const CustomerMapScreen = lazy(() =>
  Promise.all([import('../mapas/CustomerMapPage'), ON_DEMAND_MACHINES.maps.load()]).then(([m]) => ({ default: m.CustomerMapScreen })),
);
