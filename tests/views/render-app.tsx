/**
 * Renders the whole app (providers, router, session actor) on a wouter memory location with fake
 * effects (issues "Foundation" and "Shell"): an in-memory store, fake session and notifications
 * apis, a recorded toaster, a fake realtime connection that records what it was given, and a
 * window stub of a given width for the layout.
 */
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { memoryLocation } from 'wouter/memory-location';
import { App } from '../../src/app';
import { createAppServices } from '../../src/app-services';
import { fromCallback } from 'xstate';
import type { SessionApi } from '../../src/api/session';
import type { NotificationsApi } from '../../src/api/notifications';
import type { RealtimeEvent, RealtimeInput } from '../../src/machines/realtime/realtime.machine';
import { fakeNotificationsApi, fakeSessionApi, memoryStore } from '../unit/support/fakes';

export interface RenderAppOptions {
  store?: ReturnType<typeof memoryStore>;
  api?: SessionApi;
  notificationsApi?: NotificationsApi;
  /** Viewport width the layout machine sees (default 1366: desktop). */
  width?: number;
}

export function renderApp(
  path: string,
  { store = memoryStore(), api = fakeSessionApi(), notificationsApi = fakeNotificationsApi(), width = 1366 }: RenderAppOptions = {},
) {
  const location = memoryLocation({ path, record: true });
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
    navigate: (to, options) => location.navigate(to, options),
    store,
    sessionApi: api,
    notificationsApi,
    toaster,
    today: () => '2025-06-15',
    win,
    realtimeConnection: fromCallback<RealtimeEvent, RealtimeInput>(({ input, sendBack }) => {
      realtime.opened(input);
      realtime.push = sendBack;
      return () => {};
    }),
  });
  const utils = render(<App services={services} hook={location.hook} />);
  return {
    ...utils,
    user: userEvent.setup(),
    store,
    api,
    toaster,
    services,
    notificationsApi,
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
