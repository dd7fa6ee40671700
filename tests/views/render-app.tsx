/**
 * Renders the whole app (providers, router, session actor) on a wouter memory location with fake
 * effects: an in-memory store, a fake session api and a recorded toaster (issue "Foundation").
 */
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { vi } from 'vitest';
import { memoryLocation } from 'wouter/memory-location';
import { App } from '../../src/app';
import { createAppServices } from '../../src/app-services';
import type { SessionApi } from '../../src/api/session';
import { fakeSessionApi, memoryStore } from '../unit/support/fakes';

export function renderApp(
  path: string,
  { store = memoryStore(), api = fakeSessionApi() }: { store?: ReturnType<typeof memoryStore>; api?: SessionApi } = {},
) {
  const location = memoryLocation({ path, record: true });
  const toaster = { show: vi.fn() };
  const services = createAppServices({
    navigate: (to, options) => location.navigate(to, options),
    store,
    sessionApi: api,
    toaster,
    today: () => '2025-06-15',
  });
  const utils = render(<App services={services} hook={location.hook} />);
  return {
    ...utils,
    user: userEvent.setup(),
    store,
    api,
    toaster,
    services,
    /** The current path of the memory location. */
    path: () => location.history!.at(-1)!.split('?')[0],
  };
}
