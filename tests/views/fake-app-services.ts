/**
 * The app's services over fake effects, shared by the view harnesses (render-app.tsx for the whole
 * app, shell-harness.tsx for pieces of the shell): fake session and notifications apis (defaults
 * from tests/unit/support/fakes), a recorded toaster, a fake realtime connection that records what
 * it was given and keeps its `sendBack` (to push events), a window stub of a given width whose
 * resizes the test triggers, and `navigate` on a wouter memory location.
 */
import { vi } from 'vitest';
import { fromCallback } from 'xstate';
import type { memoryLocation } from 'wouter/memory-location';
import { createAppServices } from '../../src/app-services';
import { readStoredSession } from '../../src/machines/session/stored-session';
import type { SessionApi } from '../../src/api/session';
import type { NotificationsApi } from '../../src/api/notifications';
import type { RealtimeEvent, RealtimeInput } from '../../src/machines/realtime/realtime.machine';
import { fakeNotificationsApi, fakeSessionApi, type memoryStore } from '../unit/support/fakes';

export interface FakeAppServicesOptions {
  /** The memory location the app's router uses (`memoryLocation({ path, record: true })`). */
  location: ReturnType<typeof memoryLocation>;
  /** Storage of the docs/product.md §3 keys. */
  store: ReturnType<typeof memoryStore>;
  api?: SessionApi;
  notificationsApi?: NotificationsApi;
  /** Viewport width the layout machine sees (default 1366: desktop). */
  width?: number;
  /** The app's navigate (default: the location's own). */
  navigate?: (to: string, options?: { replace?: boolean }) => void;
  /** The fetch of the api client the screens' machines use (default: the global one). */
  fetch?: typeof globalThis.fetch;
}

/**
 * Creates the services (session actor started) with the fakes.
 * @returns the services, the fakes (api, notificationsApi, toaster, realtime), `resize(width)` and
 * `path()` (the location's current path without its query).
 */
export function createFakeAppServices({
  location,
  store,
  api = fakeSessionApi(),
  notificationsApi = fakeNotificationsApi(),
  width = 1366,
  navigate = (to, options) => location.navigate(to, options),
  fetch,
}: FakeAppServicesOptions) {
  const toaster = { show: vi.fn() };
  const realtime = { opened: vi.fn<(input: RealtimeInput) => void>(), push: null as ((event: RealtimeEvent) => void) | null };
  const resizeListeners: (() => void)[] = [];
  const win = {
    innerWidth: width,
    addEventListener: (type: string, listener: () => void) => {
      if (type === 'resize') resizeListeners.push(listener);
    },
  } as unknown as Pick<Window, 'innerWidth' | 'addEventListener'>;
  const services = createAppServices({
    navigate,
    store,
    storedSession: readStoredSession(store),
    sessionApi: api,
    notificationsApi,
    toaster,
    today: () => '2025-06-15',
    win,
    ...(fetch ? { fetch } : {}),
    realtimeConnection: fromCallback<RealtimeEvent, RealtimeInput>(({ input, sendBack }) => {
      realtime.opened(input);
      realtime.push = sendBack;
      return () => {};
    }),
  });
  return {
    services,
    api,
    notificationsApi,
    toaster,
    realtime,
    /** Simulates a window resize to `next` px. */
    resize: (next: number) => {
      (win as { innerWidth: number }).innerWidth = next;
      resizeListeners.forEach((listener) => listener());
    },
    /** The current path of the memory location. */
    path: () => location.history!.at(-1)!.split('?')[0],
  };
}
