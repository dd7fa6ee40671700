import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { AUTH_ROUTES, PUBLIC_ROUTES } from '../src/config/paths';
import { screenModuleFiles, type AuthRouteKey } from '../src/config/screens';
import { Router } from 'wouter';
import { routePattern } from '../src/lib/route-pattern';
import { HOME_VARIANTS, homeTemplateProps, type HomeTemplates } from '../src/lib/session-first-paint';
import { ShellSkeleton } from '../src/lib/shell-skeleton';
import { HOME_LOCAL_ICON } from '../src/views/inicio/home-icon';
import { HomeView } from '../src/views/inicio/HomeView';
import { Icons, type IconPaths } from '@blueprintjs/icons';
import { LandingPage } from '../src/views/landing/LandingPage';
import { PublicMapSkeleton } from '../src/views/mapas/map-skeleton';

/** ofetch, imported with the first request (src/api/http.ts). */
const OFETCH = 'node_modules/ofetch/dist/index.mjs';

/**
 * Route-specific preload hints in the app's HTML (issue "Production grade", Lighthouse LCP).
 *
 * Every page is `index.html` plus the entry chunk; a page other than the staff login then fetches
 * its own chunks only after the entry has downloaded and run — one more round trip before anything
 * is drawn, two for an authenticated screen (shell, then screen). For the routes below, the server
 * answers `index.html` with `<link rel="modulepreload">` (and `<link rel="preload" as="style">` for
 * their CSS) for the page's chunks, read from Vite's build manifest (`dist/.vite/manifest.json`,
 * vite.config.ts `build.manifest`), so the browser fetches them beside the entry.
 *
 * - Public pages: the modules src/views/router/screens.ts imports for them.
 * - Authenticated routes: the shell (its view, its actors, the icon table) and the screen's view
 *   and machine module from the screen table (src/config/screens.ts). The server cannot tell
 *   whether the browser holds a session (the token is in localStorage); a visitor without one
 *   fetches these chunks for nothing before the app sends them to /auth/login — a cost paid once
 *   (the chunks are cached, immutable) against one to two round trips on every signed-in load
 *   (docs/decisions.md "Preload hints for authenticated routes").
 * A module missing from the manifest is skipped (the page still loads it itself).
 *
 * Pages the server draws (`firstPaint`): authenticated routes get the shell skeleton inside
 * `<div id="root">` (src/lib/shell-skeleton.tsx: the top bar and the route's title), /landing its
 * whole page (static markup), the public map its frame before the data
 * (src/views/mapas/map-skeleton.tsx). They are painted from the HTML before any JavaScript has run,
 * and these pages load the app only after that paint: their chunks are listed for src/boot.ts instead
 * of preloaded ({@link withDeferredApp}; docs/decisions.md "Skeleton first").
 */
/**
 * What a signed-in start needs before its first calls, none of it in the entry chunk (docs/decisions.md
 * "Compression and the login budget"): the stored session's reader with its schemas (src/main.tsx
 * imports it when a token is stored), the session and notification calls (src/app-services.ts
 * imports them with their first call) and ofetch (src/api/http.ts, with the first request).
 */
const SESSION_MODULES = ['src/machines/session/stored-session.ts', 'src/api/session.ts', 'src/api/notifications.ts', OFETCH];

export const SHELL_MODULES = [
  'src/views/shell/AuthenticatedShell.tsx',
  'src/machines/shell/shell.actors.ts',
  'src/lib/icon-paths.ts',
  ...SESSION_MODULES,
];

/**
 * What Inicio's first paint needs beside its own chunk: the icon table, the session's modules and
 * the menu catalogue (the session's first call at start-up, row 11, rebuilds the menu with it).
 */
export const HOME_FIRST_MODULES = ['src/lib/icon-paths.ts', ...SESSION_MODULES, 'src/schemas/menu-catalogue.ts'];

/**
 * A route with its own chunks (`modules`, source paths as the build manifest keys them) and, for
 * the pages the server draws, the markup of `<div id="root">` (`firstPaint`): those pages load the
 * app after it has been painted (src/boot.ts).
 */
export interface RouteModules {
  pattern: RegExp;
  modules: readonly string[];
  firstPaint?: () => ReactElement;
  /** The first paint needs the page's chunks' CSS: link it as stylesheets in the HTML. */
  firstPaintCss?: boolean;
  /**
   * Inicio: its markup as templates that src/boot.ts fills from the stored session before the
   * first paint (src/lib/session-first-paint.ts), beside the skeleton for a visitor without one.
   */
  homeTemplates?: () => HomeTemplates;
}

// Inicio's templates draw the location's icon with its paths, as the app's first render does.
await Icons.load(HOME_LOCAL_ICON.icon, HOME_LOCAL_ICON.size, {
  loader: async (name, size) =>
    ((await import(`@blueprintjs/icons/lib/esm/generated/${size}px/paths/${name}.js`)) as { default: IconPaths }).default,
});

/** `<div id="root">` of Inicio for each shape of the page, with slots for the session's values. */
export function homeTemplates(): HomeTemplates {
  const title = AUTH_ROUTES.home.title;
  const entries = HOME_VARIANTS.map((variant) => [
    variant,
    renderToStaticMarkup(createElement(ShellSkeleton, { title, children: createElement(HomeView, homeTemplateProps(variant)) })),
  ]);
  return Object.fromEntries(entries) as HomeTemplates;
}

export const ROUTE_MODULES: readonly RouteModules[] = [
  {
    pattern: routePattern(PUBLIC_ROUTES.customerLogin.path),
    modules: ['src/views/auth/CustomerAccessPage.tsx', 'src/machines/auth/customer-access.actors.ts'],
  },
  {
    pattern: routePattern(PUBLIC_ROUTES.landing.path),
    modules: ['src/views/landing/LandingPage.tsx'],
    // Static marketing markup; the app draws the same (src/main.tsx waits for its chunk first).
    firstPaint: () => createElement(Router, { ssrPath: '/landing', children: createElement(LandingPage) }),
  },
  {
    pattern: routePattern(PUBLIC_ROUTES.publicMap.path),
    modules: ['src/views/mapas/PublicMapPage.tsx', 'src/machines/mapas/maps.actors.ts', OFETCH],
    // The page's frame before its data (the same for every subdivision: no data in it), styled by maps.css.
    firstPaint: () => createElement(PublicMapSkeleton),
    firstPaintCss: true,
  },
  ...(Object.keys(AUTH_ROUTES) as AuthRouteKey[]).map((key) => ({
    pattern: routePattern(AUTH_ROUTES[key].path),
    // Inicio's page is drawn before the shell, which the app fetches after that paint
    // (src/views/router/screens.ts); what it fetches before (icons, the first call) comes with the HTML.
    modules: key === 'home' ? [...screenModuleFiles(key), ...HOME_FIRST_MODULES] : [...SHELL_MODULES, ...screenModuleFiles(key)],
    firstPaint: () => createElement(ShellSkeleton, { title: AUTH_ROUTES[key].title }),
    ...(key === 'home' ? { homeTemplates } : {}),
  })),
];

/** One chunk of Vite's manifest (the fields used here). */
export interface ManifestChunk {
  file: string;
  /** The chunk's name: its first module's file name, or its `codeSplitting` group's. */
  name?: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}
export type Manifest = Record<string, ManifestChunk>;

/**
 * The files a page needs beyond the entry: each module's chunk, the chunks it imports statically
 * (transitively), and their CSS — without the entry chunk and what the entry already imports.
 * @returns paths relative to the build root, e.g. `assets/LandingPage-abc.js`, JS then CSS.
 */
export function chunksFor(manifest: Manifest, modules: readonly string[]): { js: string[]; css: string[] } {
  const entryKey = appEntryKey(manifest);
  const loaded = new Set<string>();
  const visit = (key: string | undefined, into: Set<string>) => {
    if (key === undefined || into.has(key) || !manifest[key]) return;
    into.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported, into);
  };
  if (entryKey) visit(entryKey, loaded);
  const needed = new Set<string>();
  for (const module of modules) visit(manifestKeyOf(manifest, module), needed);
  const keys = [...needed].filter((key) => !loaded.has(key));
  return {
    js: keys.map((key) => manifest[key]!.file),
    css: [...new Set(keys.flatMap((key) => manifest[key]!.css ?? []))],
  };
}

/**
 * The manifest key of `module` (a source path from the project's root, e.g.
 * `src/lib/icon-paths.ts`, or a `codeSplitting` group's name), or undefined:
 * - the path itself when the module starts a chunk (an entry, or imported only dynamically);
 * - for a dependency (`node_modules/…`), the key ending with that path: Vite keys it by its real
 *   path, which is elsewhere when node_modules is a link (a worktree sharing another's);
 * - else the one shared chunk named after the module's file (`_menu-catalogue-<hash>.js`): a
 *   module imported both statically and dynamically goes into a chunk of its own without a key of
 *   its name, and a group's chunk is keyed the same way (`_shell-icons-<hash>.js`). Two chunks
 *   of one name (icons of two sizes) match none.
 */
export function manifestKeyOf(manifest: Manifest, module: string): string | undefined {
  if (manifest[module]) return module;
  if (module.startsWith('node_modules/')) return Object.keys(manifest).find((key) => key.endsWith(`/${module}`));
  const name = module.replace(/^.*\//, '').replace(/\.[^.]*$/, '');
  const named = Object.keys(manifest).filter((key) => key.startsWith('_') && manifest[key]!.name === name);
  return named.length === 1 ? named[0] : undefined;
}

/** The manifest key of the app's entry (index.html's script; the build's other entry is src/boot.ts). */
function appEntryKey(manifest: Manifest): string | undefined {
  return manifest['index.html']?.isEntry
    ? 'index.html'
    : Object.keys(manifest).find((key) => manifest[key]?.isEntry && key !== BOOT_MODULE);
}

/** The authenticated routes' entry (src/boot.ts): it loads the app after the skeleton's first paint. */
const BOOT_MODULE = 'src/boot.ts';

/**
 * `html` of a skeleton route loading the app after its first paint (docs/decisions.md "Skeleton
 * first"): index.html's entry script becomes src/boot.ts's chunk, and the entry with the page's
 * chunks (`files`) are listed in `<script type="application/json" id="app-modules">` for it —
 * nothing but the HTML, the entry's stylesheet and that small script is fetched before the
 * browser paints the skeleton (and, with `cssFirst`, the chunks' stylesheets the first paint needs,
 * linked in the HTML instead of listed; with `home`, Inicio's templates for boot). Unchanged (the entry loads at once, with `files` preloaded) when the
 * manifest has no boot chunk or index.html's entry script is not found as Vite writes it.
 */
export function withDeferredApp(
  html: string,
  manifest: Manifest,
  files: { js: string[]; css: string[] },
  { cssFirst = false, home }: { cssFirst?: boolean; home?: HomeTemplates } = {},
): string {
  const entry = manifest[appEntryKey(manifest) ?? '']?.file;
  const boot = manifest[BOOT_MODULE]?.file;
  const script = entry ? `<script type="module" crossorigin src="/${entry}"></script>` : '';
  if (!entry || !boot || !html.includes(script)) return withPreloadHints(html, files);
  const css = files.css.map((f) => `/${f}`);
  const modules = JSON.stringify({ entry: `/${entry}`, js: files.js.map((f) => `/${f}`), css: cssFirst ? [] : css, home });
  const stylesheets = cssFirst ? css.map((href) => `<link rel="stylesheet" crossorigin href="${href}">`).join('') : '';
  return html.replace(
    script,
    () =>
      `${stylesheets}<script type="application/json" id="app-modules">${modules.replace(/</g, '\\u003c')}</script>` +
      `<script type="module" crossorigin src="/${boot}"></script>`,
  );
}

/**
 * `html` with the hints for `files` inserted before `</head>` (crossorigin as Vite's own module
 * preloads, so the preloaded responses are reused).
 */
export function withPreloadHints(html: string, files: { js: string[]; css: string[] }): string {
  const links = [
    ...files.js.map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`),
    ...files.css.map((file) => `<link rel="preload" as="style" crossorigin href="/${file}">`),
  ];
  return links.length ? html.replace('</head>', `${links.join('')}</head>`) : html;
}

/**
 * `html` with `markup` inside its empty `<div id="root">` (unchanged if the element is not found as
 * index.html writes it).
 */
export function withRootMarkup(html: string, markup: ReactElement): string {
  return html.replace('<div id="root"></div>', () => `<div id="root">${renderToStaticMarkup(markup)}</div>`);
}

/**
 * The HTML to answer for `path`, or null when the route has no hints (send index.html as it is).
 * Reads index.html and the manifest of `distDir` once per build (keyed by the manifest's mtime, so a
 * rebuild while the server runs is picked up); null too when the build has no manifest.
 */
export function createPreloadedHtml(distDir: string): (path: string) => string | null {
  const manifestPath = join(distDir, '.vite', 'manifest.json');
  let cache: { builtAt: number; pages: Map<RegExp, string> } | null = null;
  return (path) => {
    const route = ROUTE_MODULES.find((r) => r.pattern.test(path));
    if (!route) return null;
    try {
      const builtAt = statSync(manifestPath).mtimeMs;
      if (cache?.builtAt !== builtAt) cache = { builtAt, pages: new Map() };
      let html = cache.pages.get(route.pattern);
      if (html === undefined) {
        const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
        const index = readFileSync(join(distDir, 'index.html'), 'utf8');
        const files = chunksFor(manifest, route.modules);
        html = route.firstPaint
          ? withRootMarkup(
              withDeferredApp(index, manifest, files, { cssFirst: route.firstPaintCss, home: route.homeTemplates?.() }),
              route.firstPaint(),
            )
          : withPreloadHints(index, files);
        cache.pages.set(route.pattern, html);
      }
      return html;
    } catch {
      return null; // no build manifest (or an unreadable one): index.html as it is
    }
  };
}
