import { lazy, type ComponentType } from 'react';
import { SCREENS, screenSource, type AuthRouteKey, type ScreenSource } from '../../config/screens';
import { findAuthRoute } from './route-match';
import { SCREEN_MACHINES, loadScreenMachines } from '../../machines/screen-machines';
import { lazyModule, type LazyModule } from '../../machines/shared/on-demand';

/**
 * The authenticated screens as React components, derived from the screen table
 * (src/config/screens.ts; issue "One place per screen"). Each screen's view module is its own
 * chunk (found by path through `import.meta.glob`); the screen renders once both the view and its
 * machine module are loaded, fetched in parallel. AuthenticatedShell renders
 * {@link screenComponent}; the app preloads the screen of the current URL at start-up
 * ({@link preloadScreenAt}) and the login form preloads the home screen.
 */

/** Props every screen receives: the route's decoded params (e.g. `id_encrypted`). */
export interface ScreenProps {
  params: Record<string, string>;
}

type ScreenModule = Record<string, ComponentType<ScreenProps> | undefined>;

// The view modules of every module folder; `import.meta.glob` is lazy: nothing is fetched until asked.
// auth/ holds the public pages (the staff login is in the entry chunk): not screens of the table.
// A screen may be a folder of its own (administracion/partidas-titulos/TitlesPage.tsx).
// Pages no screen names (the landing, the public map, the shared status page) are left out: each glob
// entry costs the entry chunk its preload list (docs/decisions.md "Screens' preload lists").
const viewModules = import.meta.glob<ScreenModule>([
  '../*/*Page.tsx',
  '../*/*/*Page.tsx',
  '!../auth/**',
  '!../landing/**',
  '!../shared/**',
  '!../mapas/PublicMapPage.tsx',
]);

const views = new Map<AuthRouteKey, LazyModule<ScreenModule>>();

/** The lazy view module of a screen (one import per app, shared by the component and the preloads). */
function viewModule(key: AuthRouteKey, screen: ScreenSource): LazyModule<ScreenModule> {
  let module = views.get(key);
  if (!module) {
    const load = viewModules[`../${screen.view}.tsx`];
    if (!load) throw new Error(`screen-views: no view module src/views/${screen.view}.tsx for "${key}"`);
    module = lazyModule(load);
    views.set(key, module);
  }
  return module;
}

/**
 * Loads a screen's view and machine module together.
 * @returns the component the table names
 * @throws Error when the module lacks that export (caught by the screen's LoadBoundary)
 */
async function loadScreen(key: AuthRouteKey, screen: ScreenSource): Promise<ComponentType<ScreenProps>> {
  const [module] = await Promise.all([viewModule(key, screen).load(), screen.machines ? loadScreenMachines(screen.machines) : null]);
  const component = module[screen.component];
  if (!component) throw new Error(`screen-views: src/views/${screen.view}.tsx has no export ${screen.component}`);
  return component;
}

const components = new Map<AuthRouteKey, ComponentType<ScreenProps>>();

/**
 * The component of route `key` (the same one on every call, so React keeps its state), or null
 * when the route is a placeholder. Chosen at the first call: the screen's own component when its
 * code (view and machines) has arrived already — it renders without suspending, e.g. Inicio inside
 * the shell skeleton, whose code src/main.tsx waits for (a suspended page would be revealed only
 * after React's ~300 ms throttle of Suspense reveals) — else a lazy one.
 */
export function screenComponent(key: AuthRouteKey): ComponentType<ScreenProps> | null {
  const screen = screenSource(key);
  if (!screen) return null;
  let component = components.get(key);
  if (!component) {
    component = loadedComponent(key, screen) ?? lazy(() => loadScreen(key, screen).then((loaded) => ({ default: loaded })));
    components.set(key, component);
  }
  return component;
}

/** The screen's component when its view and machine modules are both loaded, else null. */
function loadedComponent(key: AuthRouteKey, screen: ScreenSource): ComponentType<ScreenProps> | null {
  if (screen.machines && !SCREEN_MACHINES[screen.machines].module.loaded) return null;
  return viewModule(key, screen).loaded?.[screen.component] ?? null;
}

/** Starts fetching the code of route `key` (view and machines); failures are left to the screen's boundary. */
export function preloadScreen(key: AuthRouteKey): void {
  const screen = screenSource(key);
  if (!screen) return;
  loadScreen(key, screen).catch(() => {
    /* the screen retries when it renders, and its boundary reports a failure */
  });
}

/**
 * The code of route `key` (view and machines), fetched once; resolves when both are here (also when
 * the route is a placeholder). Rejects when a chunk cannot be fetched.
 */
export async function loadScreenCode(key: AuthRouteKey): Promise<void> {
  const screen = screenSource(key);
  if (screen) await loadScreen(key, screen);
}

/** {@link preloadScreen} for the authenticated route of `path`, if any (e.g. `location.pathname` at start-up). */
export function preloadScreenAt(path: string): void {
  const match = findAuthRoute(path);
  if (match) preloadScreen(match.key);
}

/** Every route key of the table (tests). */
export const SCREEN_KEYS = Object.keys(SCREENS) as AuthRouteKey[];
