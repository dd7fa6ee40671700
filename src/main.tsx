import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { navigate } from 'wouter/use-browser-location';
import '@blueprintjs/core/lib/css/blueprint.css';
import '@blueprintjs/select/lib/css/blueprint-select.css';
import './styles/app.css';
import './styles/theme.css';
import { App } from './app';
import { createAppServices } from './app-services';
import { installIconLoader } from './lib/icons';
import { setInspector } from './machines/inspect';

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
const services = createAppServices({ navigate: (to, options) => navigate(to, options) });

const container = document.getElementById('root');
if (!container) throw new Error('Falta el elemento #root');
createRoot(container).render(
  <StrictMode>
    <App services={services} />
  </StrictMode>,
);
