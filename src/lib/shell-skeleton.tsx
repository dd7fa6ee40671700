import type { ReactNode } from 'react';
import { PRODUCT_LOGO, PRODUCT_NAME } from '../config/paths';

/**
 * The authenticated layout's frame before its code has arrived (issue "Production grade": first
 * and largest paint of the staff screens): the top bar with Parcela's logo and name, the sidebar's
 * empty box on desktop, and the main container with the screen's title as its `<h1>` — or
 * `children` instead of the title (the app puts Inicio's own page there: it needs nothing from the shell).
 *
 * Pure markup with no hooks, drawn twice with the same boxes (src/styles/layout-frame.css):
 * - by the server, into `<div id="root">` of the HTML of every authenticated route
 *   (server/preload-hints.ts, `renderToStaticMarkup`), so the browser paints it as soon as the HTML
 *   and the entry's stylesheet arrive, long before the app's JavaScript has run;
 * - by the app, as the fallback while the shell's chunks load (src/views/router/AppRoutes.tsx),
 *   so React's first render replaces the server's skeleton with the same one.
 * The real top bar, menu and screen then take the same places (no layout shift). The skeleton is
 * light whatever the stored theme (the theme is applied when the entry runs) and is marked
 * `aria-busy`; a visitor without a session sees it until the app sends them to /auth/login.
 * @param title the route's title (src/config/paths.ts AUTH_ROUTES), shown as the page's `<h1>`.
 */
export function ShellSkeleton({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="layout-wrapper shell-skeleton" aria-busy="true">
      <header className="layout-topbar">
        <div className="layout-topbar-logo-container">
          <span className="layout-topbar-menu-slot" />
          <span className="layout-topbar-logo">
            <span className="brand">
              <img src={PRODUCT_LOGO} alt="" width={32} height={32} className="brand-logo" />
              <span className="brand-name">{PRODUCT_NAME}</span>
            </span>
          </span>
        </div>
      </header>
      <aside className="layout-sidebar" aria-hidden="true" />
      <div className="layout-main-container">
        <main className="layout-main">{children ?? <SkeletonTitle title={title} />}</main>
      </div>
    </div>
  );
}

/** The skeleton's `<h1>`: a screen's title as Inicio and the screens' own titles draw it (class `page-title`). */
export function SkeletonTitle({ title }: { title: string }) {
  return <h1 className="bp6-heading page-title">{title}</h1>;
}
