/**
 * Renders the whole app (providers, router, session actor) on a wouter memory location with fake
 * effects (issues "Foundation" and "Shell"; see fake-app-services.ts): an in-memory store, fake
 * session and notifications apis, a recorded toaster, a fake realtime connection that records what
 * it was given, and a window stub of a given width for the layout.
 */
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { memoryLocation } from 'wouter/memory-location';
import { App } from '../../src/app';
import type { SessionApi } from '../../src/api/session';
import type { NotificationsApi } from '../../src/api/notifications';
import { memoryStore } from '../unit/support/fakes';
import { createFakeAppServices } from './fake-app-services';

export interface RenderAppOptions {
  store?: ReturnType<typeof memoryStore>;
  api?: SessionApi;
  notificationsApi?: NotificationsApi;
  /** Viewport width the layout machine sees (default 1366: desktop). */
  width?: number;
  /** The fetch of the api client the screens' machines use (default: the global one). */
  fetch?: typeof globalThis.fetch;
}

/**
 * Renders the app at `path`. @returns Testing Library's utils, a userEvent, the store, the fakes,
 * the services, `resize(width)` and `path()`.
 */
export function renderApp(path: string, { store = memoryStore(), api, notificationsApi, width, fetch }: RenderAppOptions = {}) {
  const location = memoryLocation({ path, record: true });
  const fakes = createFakeAppServices({
    location,
    store,
    ...(api ? { api } : {}),
    ...(notificationsApi ? { notificationsApi } : {}),
    ...(width ? { width } : {}),
    ...(fetch ? { fetch } : {}),
  });
  const utils = render(<App services={fakes.services} hook={location.hook} />);
  return { ...utils, user: userEvent.setup(), store, ...fakes };
}
