import { createContext, useContext, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { AppMachines, SessionActorRef } from '../machines/app-actors';
import type { SessionSnapshot } from '../machines/session/session.selectors';
import type { AppToaster } from '../lib/toaster';

/**
 * The services context of the web app (docs/architecture.md): the
 * app-wide session actor, the screen machines provided with their effects, `navigate` and the
 * toaster. The object the app passes also carries the api modules (src/app-services.ts), but views
 * only see this view-facing part: they talk to machines, never to the api.
 */
export interface ViewServices {
  /** The app-wide session actor (started). */
  session: SessionActorRef;
  /** Screen machines provided with their effects. */
  machines: AppMachines;
  /** wouter navigate of the current location hook. */
  navigate: (to: string, options?: { replace?: boolean }) => void;
  toaster: AppToaster;
  /** Today's date in America/Lima (ISO), injectable for tests. */
  today: () => string;
}

const ServicesContext = createContext<ViewServices | null>(null);

/** Provides the services to the whole tree. */
export function ServicesProvider({ value, children }: { value: ViewServices; children: ReactNode }) {
  return <ServicesContext.Provider value={value}>{children}</ServicesContext.Provider>;
}

/** The services; throws outside a ServicesProvider. */
export function useServices(): ViewServices {
  const services = useContext(ServicesContext);
  if (!services) throw new Error('useServices must be used inside <ServicesProvider>');
  return services;
}

/** Reads the session actor through a selector (see session.selectors.ts). */
export function useSession<T>(selector: (snapshot: SessionSnapshot) => T): T {
  return useSelector(useServices().session, selector);
}

/** Named intents on the session (design: views call intent hooks, not raw `send`). */
export function useSessionEvents() {
  const { session } = useServices();
  return {
    logout: () => session.send({ type: 'session.logout' }),
  };
}
