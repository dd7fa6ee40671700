import { OverlaysProvider } from '@blueprintjs/core';
import { Router, type BaseLocationHook } from 'wouter';
import { ServicesProvider, type ViewServices } from './views/services';
import { caseInsensitiveParser } from './views/router/case-insensitive-parser';
import { AppRoutes } from './views/router/AppRoutes';

/**
 * Root component of the Parcela web app (docs/architecture.md; issue
 * "Foundation"): Blueprint's overlay provider, the services context (session actor, screen
 * machines, navigate, toaster) and the wouter router with the case-insensitive parser. Blueprint's
 * hotkeys provider (and its dialog) lives in the authenticated area (views/shell/AuthenticatedShell),
 * which is the only place with shortcuts and is loaded on demand.
 * @param hook wouter location hook; the browser location by default, a memory location in tests.
 */
export function App({ services, hook }: { services: ViewServices; hook?: BaseLocationHook }) {
  return (
    <OverlaysProvider>
      <ServicesProvider value={services}>
        <Router parser={caseInsensitiveParser} {...(hook ? { hook } : {})}>
          <AppRoutes />
        </Router>
      </ServicesProvider>
    </OverlaysProvider>
  );
}
