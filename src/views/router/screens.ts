import { lazy } from 'react';
import { ON_DEMAND_MACHINES } from '../../machines/app-actors';
import { loadScreenMachines } from '../../machines/screen-machines';
import { preloadScreenAt } from './screen-views';

/**
 * Screens loaded on demand (performance, issue "Foundation": ≤ 130 KB of JS up front for
 * /auth/login). Only the staff login is in the entry chunk; every other screen is fetched the first
 * time its route renders, inside a <LoadBoundary> (spinner, then the screen). A screen with a
 * machine loaded on demand fetches it in parallel with its own code, so the screen renders with
 * its machine at hand. The public pages are here; the authenticated screens derive from the
 * screen table (src/config/screens.ts → ./screen-views.ts).
 */

// The authenticated area brings the shell's actors (layout, theme, change-password, menu-search) with it.
const authenticatedShell = () => Promise.all([import('../shell/AuthenticatedShell'), ON_DEMAND_MACHINES.shell.load()]).then(([m]) => m);

/** The authenticated area: layout and screens (the staff login preloads it on submit). */
export const AuthenticatedShell = lazy(() => authenticatedShell().then((m) => ({ default: m.AuthenticatedShell })));

/**
 * Starts fetching the authenticated area and the screen of `path` (view and machines), e.g. while
 * the login call is in flight (the staff land on "/") or at start-up with a stored session.
 */
export function preloadAuthenticatedShell(path = '/'): void {
  authenticatedShell().catch(() => {
    /* the route retries, and its boundary reports a failure */
  });
  preloadScreenAt(path);
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
/** /mapa/{name}/{id_encrypted}: the page and the maps' machines load together. */
export const PublicMapPage = lazy(() =>
  Promise.all([import('../mapas/PublicMapPage'), loadScreenMachines('maps')]).then(([m]) => ({ default: m.PublicMapPage })),
);
