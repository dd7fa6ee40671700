import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { navigate } from 'wouter/use-browser-location';
import '@blueprintjs/core/lib/css/blueprint.css';
import '@blueprintjs/select/lib/css/blueprint-select.css';
import './styles/app.css';
import './styles/theme.css';
import './styles/layout-frame.css';
import { App } from './app';
import { createAppServices } from './app-services';
import { installIconLoader, preloadIconTable } from './lib/icons';
import { readPlainStorage } from './lib/plain-storage';
import type { SessionInput } from './machines/session/session.machine';
import { setInspector } from './machines/inspect';
import { codeForFirstPaint, preloadAuthenticatedShell } from './views/router/screens';

/**
 * Entry point of the Parcela web app (issue "Foundation"): Blueprint's stylesheets and the app's,
 * the on-demand icon loader, the services built once (api over the four bases of
 * src/config/env.ts, session actor started from storage, browser navigation) and the React root.
 * Screens other than the staff login are split into chunks (src/views/router/screens.ts); the
 * date inputs bring @blueprintjs/datetime and its stylesheet with them.
 */
installIconLoader();
// Development only: `?inspect` in the URL connects every actor to the Stately inspector (README).
if (import.meta.env.DEV && new URLSearchParams(window.location.search).has('inspect')) {
  const { createBrowserInspector } = await import('@statelyai/inspect');
  setInspector(createBrowserInspector().inspect);
}
// A stored session will show the authenticated area: fetch its code, the current screen's (view and
// machines, from the screen table) and the icon table now, beside
// the session's first calls, instead of after the first render (issue "Production grade": the
// shell's chunks used to start ~170 ms after the entry on Lighthouse's trace). Nothing is fetched
// for a visitor without a session, so the login page's budget is unchanged.
const signedIn = readPlainStorage('token') !== null;
if (signedIn) {
  preloadAuthenticatedShell(window.location.pathname, { atStartUp: true });
  preloadIconTable();
}
// The stored session is read with its zod schemas, whose module is fetched only when a token is
// stored (the server announces it with the authenticated routes' chunks); the login page's entry
// chunk carries no zod (docs/decisions.md "Compression and the login budget"). The session starts
// as soon as it is read, so its first calls go out beside the first screen's chunks. Should that
// module not arrive, the app starts signed out.
const storedSession: Promise<SessionInput> = signedIn
  ? import('./machines/session/stored-session').then(
      (m) => m.readStoredSession(localStorage),
      (error: unknown) => {
        console.error('[sesión] No se pudo leer la sesión guardada:', error);
        return {};
      },
    )
  : Promise.resolve({});
const services = storedSession.then((session) =>
  createAppServices({ navigate: (to, options) => navigate(to, options), storedSession: session }),
);
// On the pages the server draws whose own markup the app then draws again — Inicio (the staff's
// home), the landing and the public map — the page's small chunk is waited for before the first
// render, so the page replaces the server's markup at once rather than after React's throttle of
// Suspense reveals; the server's markup stays on screen meanwhile (docs/decisions.md "Skeleton
// first"). A promise, not a top-level await: the page's chunk imports this entry's, which must
// finish first. A failure is left to the page's boundary.
const firstScreen = codeForFirstPaint(window.location.pathname, signedIn)?.catch(() => undefined) ?? Promise.resolve();

const container = document.getElementById('root');
if (!container) throw new Error('Falta el elemento #root');
void Promise.all([services, firstScreen]).then(([appServices]) =>
  createRoot(container).render(
    <StrictMode>
      <App services={appServices} />
    </StrictMode>,
  ),
);
