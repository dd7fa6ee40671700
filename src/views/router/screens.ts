import { createElement, lazy, type ComponentType } from 'react';
import { ON_DEMAND_MACHINES } from '../../machines/app-actors';
import { loadScreenMachines } from '../../machines/screen-machines';
import { lazyModule } from '../../machines/shared/on-demand';
import { PUBLIC_ROUTES } from '../../config/paths';
import { afterNextPaint } from '../../lib/after-paint';
import { routePattern } from '../../lib/route-pattern';
import { Icons } from '@blueprintjs/icons';
import { HOME_LOCAL_ICON } from '../inicio/home-icon';
import { findAuthRoute } from './route-match';
import { loadScreenCode, preloadScreenAt } from './screen-views';

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

/** True when `path` is the staff's home (Inicio), whose own page is drawn before the shell. */
const isHome = (path: string) => findAuthRoute(path)?.key === 'home';

/**
 * The authenticated area: layout and screens (the staff login preloads it on submit). A page that
 * opens on Inicio fetches the shell only once Inicio's own page (drawn inside the skeleton, with
 * nothing from the shell) has been painted: the page's content first, the menu's ~55 KB after it,
 * instead of both sharing a slow link (docs/decisions.md "Skeleton first"). Elsewhere the shell
 * is fetched at once (the skeleton already shows the screen's title).
 */
export const AuthenticatedShell = lazy(async () => {
  if (isHome(window.location.pathname)) {
    await loadScreenCode('home').catch(() => undefined); // Inicio's boundary reports its own failure
    await afterNextPaint();
  }
  const m = await authenticatedShell();
  return { default: m.AuthenticatedShell };
});

/**
 * Starts fetching the authenticated area and the screen of `path` (view and machines), e.g. while
 * the login call is in flight (the staff land on "/") or at start-up with a stored session
 * (`atStartUp`: on Inicio only Inicio's code then, the shell follows its paint as above).
 */
export function preloadAuthenticatedShell(path = '/', { atStartUp = false } = {}): void {
  if (!(atStartUp && isHome(path)))
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
/**
 * A page loaded on demand that renders without suspending when its code arrived before the app's
 * first render (pages the server draws in their HTML: src/main.tsx waits for `load()` there, so
 * React replaces the server's markup with the same markup instead of a spinner). The choice is
 * made once, at the first render, so React keeps one component type for the page.
 */
function firstPaintPage<P extends object>(load: () => Promise<ComponentType<P>>): { Page: ComponentType<P>; load: () => Promise<unknown> } {
  const module = lazyModule(load);
  const Lazy = lazy(() => module.load().then((component) => ({ default: component })));
  let chosen: ComponentType<P> | null = null;
  const Page = (props: P) => {
    chosen ??= module.loaded ?? ((lazyProps: P) => createElement(Lazy, lazyProps));
    return createElement(chosen, props);
  };
  return { Page, load: module.load };
}

const landing = firstPaintPage(() => import('../landing/LandingPage').then((m) => m.LandingPage));
/** /landing: drawn by the server too (server/preload-hints.ts), so its code is waited for before the first render. */
export const LandingPage = landing.Page;

const publicMap = firstPaintPage(() =>
  Promise.all([import('../mapas/PublicMapPage'), loadScreenMachines('maps')]).then(([m]) => m.PublicMapPage),
);
const LANDING_PATH = routePattern(PUBLIC_ROUTES.landing.path);
const PUBLIC_MAP_PATH = routePattern(PUBLIC_ROUTES.publicMap.path);

/**
 * The code the page at `path` should have before the app's first render, or null: Inicio's (with a
 * stored session; and its location icon's paths, which the server's templates draw), the landing's and the public map's, whose HTML the server draws (docs/decisions.md "Skeleton first").
 */
export function codeForFirstPaint(path: string, signedIn: boolean): Promise<unknown> | null {
  if (signedIn && isHome(path)) return Promise.all([loadScreenCode('home'), Icons.load(HOME_LOCAL_ICON.icon, HOME_LOCAL_ICON.size)]);
  if (LANDING_PATH.test(path)) return landing.load();
  if (PUBLIC_MAP_PATH.test(path)) return publicMap.load();
  return null;
}
/**
 * /mapa/{name}/{id_encrypted}: the page and the maps' machines load together; the server draws the
 * page's frame (src/views/mapas/map-skeleton.tsx), so they are waited for before the first render.
 */
export const PublicMapPage = publicMap.Page;
