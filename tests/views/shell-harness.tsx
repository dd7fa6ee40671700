/**
 * Renders pieces of the shell (issue "Shell") with the real machines over fake effects (see
 * fake-app-services.ts): an in-memory store with a signed-in staff session, fake session and
 * notifications apis, a recorded toaster and navigate, a fake realtime connection, a window stub
 * for the layout. Waits until the
 * session is ready (so its `notifications` and `realtime` children run) and the shell's actors
 * exist, then renders `ui` inside the app's providers and the shell's context. Fake timers may be
 * installed after it resolves (the menu search's 250 ms, the realtime's 5 s).
 */
import type { ReactNode } from 'react';
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { vi } from 'vitest';
import { waitFor } from 'xstate';
import type { SessionApi } from '../../src/api/session';
import type { NotificationsApi } from '../../src/api/notifications';
import { ServicesProvider } from '../../src/views/services';
import { ShellProvider } from '../../src/views/shell/shell-context';
import { caseInsensitiveParser } from '../../src/views/router/case-insensitive-parser';
import type { SessionUser, StyleSettings } from '../../src/schemas/session';
import { fakeSessionApi, memoryStore, realtime as realtimeCredentials, seedSession } from '../unit/support/fakes';
import { createFakeAppServices } from './fake-app-services';

export interface ShellHarnessOptions {
  path?: string;
  store?: ReturnType<typeof memoryStore>;
  api?: SessionApi;
  notificationsApi?: NotificationsApi;
  /** Viewport width the layout sees (default 1366). */
  width?: number;
  /** Permission strings of the seeded session (default: the sample's). */
  perms?: string[];
  /** The signed-in user stored as user_details (default: the sample's). */
  user?: SessionUser;
  /** Stored style settings (system_styles). */
  styles?: StyleSettings;
  /** Runs right before rendering (e.g. to install fake timers once the session is ready). */
  beforeRender?: () => void;
}

/**
 * Renders `ui` in the shell of a signed-in staff session. @returns Testing Library's utils, a
 * userEvent, the shell's actors, the store, the fakes, the recorded navigate, `notifications()`,
 * `resize(width)` and `path()`.
 */
export async function renderShell(ui: ReactNode, options: ShellHarnessOptions = {}) {
  const store = options.store ?? memoryStore();
  if (!options.store) {
    seedSession(store, options.perms ? { perms: options.perms } : {});
    store.setItem('echo_info', JSON.stringify(realtimeCredentials.echo_info));
    store.setItem('channels', JSON.stringify(realtimeCredentials.channels));
    if (options.user) store.setItem('user_details', JSON.stringify(options.user));
    if (options.styles) store.setItem('system_styles', JSON.stringify(options.styles));
  }
  const api = options.api ?? fakeSessionApi(options.perms ? { rolePermissions: vi.fn(async () => options.perms!) } : {});
  const location = memoryLocation({ path: options.path ?? '/', record: true });
  const navigate = vi.fn((to: string) => location.navigate(to));
  const fakes = createFakeAppServices({
    location,
    store,
    api,
    navigate,
    ...(options.notificationsApi ? { notificationsApi: options.notificationsApi } : {}),
    ...(options.width ? { width: options.width } : {}),
  });
  const { services } = fakes;
  await waitFor(services.session, (s) => s.matches({ loggedIn: 'ready' }));
  const actors = await services.machines.shell();
  options.beforeRender?.();
  const utils = render(
    <OverlaysProvider>
      <ServicesProvider value={services}>
        <Router parser={caseInsensitiveParser} hook={location.hook}>
          <ShellProvider value={actors}>{ui}</ShellProvider>
        </Router>
      </ServicesProvider>
    </OverlaysProvider>,
  );
  return {
    ...utils,
    ...fakes,
    user: userEvent.setup(),
    actors,
    store,
    navigate,
    /** The session's notifications child. */
    notifications: () => services.session.getSnapshot().children.notifications!,
  };
}

/**
 * Installs vitest's fake setTimeout/clearTimeout so that Testing Library still works: its async
 * wrapper waits on a setTimeout(0) and advances fake timers only when it sees Jest's, so a tiny
 * `jest.advanceTimersByTime` shim hands that to vitest. Undo with {@link restoreRealTimers}.
 */
export function useFakeTimersWithTestingLibrary(): void {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  (globalThis as { jest?: unknown }).jest = { advanceTimersByTime: (ms: number) => vi.advanceTimersByTime(ms) };
}

/** Back to real timers; removes the shim. */
export function restoreRealTimers(): void {
  vi.useRealTimers();
  delete (globalThis as { jest?: unknown }).jest;
}

/** userEvent driven by vitest's fake timers. */
export function fakeTimerUser() {
  return userEvent.setup({ advanceTimers: (ms) => vi.advanceTimersByTime(ms) });
}

/** Removes what the theme put on the document (tests share one jsdom document). */
export function resetDocumentTheme(): void {
  document.documentElement.removeAttribute('style');
  document.documentElement.classList.remove('app-dark');
  document.body.classList.remove('bp6-dark');
}
