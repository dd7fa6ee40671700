import { HotkeysProvider, OverlaysProvider } from '@blueprintjs/core';
import { Router, type BaseLocationHook } from 'wouter';
import { ServicesProvider, type ViewServices } from './views/services';
import { caseInsensitiveParser } from './views/router/case-insensitive-parser';
import { AppRoutes } from './views/router/AppRoutes';

/**
 * Root component of the Parcela web app (design ARCHITECTURE.md "main.tsx, app.tsx"; issue
 * "Foundation"): Blueprint's overlay and hotkey providers, the services context (session actor,
 * screen machines, navigate, toaster) and the wouter router with the case-insensitive parser.
 * @param hook wouter location hook; the browser location by default, a memory location in tests.
 */
export function App({ services, hook }: { services: ViewServices; hook?: BaseLocationHook }) {
  return (
    <OverlaysProvider>
      <HotkeysProvider>
        <ServicesProvider value={services}>
          <Router parser={caseInsensitiveParser} {...(hook ? { hook } : {})}>
            <AppRoutes />
          </Router>
        </ServicesProvider>
      </HotkeysProvider>
    </OverlaysProvider>
  );
}
