/**
 * The realtime DashboardChanged push end to end inside the app's actors (src/machines/app-actors.ts):
 * the connection reports it, the realtime machine hands it to the session's `dashboardChanged`, the
 * app hands it to whoever subscribed — Inicio's dashboard, built by `machines.dashboard()` — which
 * asks again for the cards it names only. A dashboard stopped (Inicio left) no longer listens.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback, waitFor } from 'xstate';
import { createAppActors } from '../../../src/machines/app-actors';
import { readStoredSession } from '../../../src/machines/session/stored-session';
import type { ApiClient } from '../../../src/api/client';
import type { RealtimeEvent, RealtimeInput } from '../../../src/machines/realtime/realtime.machine';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { fakeNotificationsApi, fakeSessionApi, memoryStore, realtime, seedSession } from '../support/fakes';

const answers: Record<string, unknown> = {
  'dashboard/due-soon': { from: '2026-11-29', to: '2026-12-06', count: 4, by_currency: [] },
  'dashboard/payments-review': { count: 0, by_currency: [], oldest: [] },
};

afterEach(() => vi.useRealTimers());

describe('DashboardChanged through the app actors', () => {
  it('reaches the dashboard, which refreshes only the cards named', async () => {
    vi.useFakeTimers();
    const store = memoryStore();
    const perms = [MODULE.finanzas, SUBMODULE.pagos];
    seedSession(store, { perms });
    store.setItem('echo_info', JSON.stringify(realtime.echo_info));
    store.setItem('channels', JSON.stringify(realtime.channels));
    let push: ((event: RealtimeEvent) => void) | null = null;
    const main = vi.fn(async (path: string) => ({ data: answers[path] ?? { customers: [] } }));
    const { session, machines } = createAppActors({
      sessionApi: fakeSessionApi({ rolePermissions: vi.fn(async () => perms) }),
      notificationsApi: fakeNotificationsApi(),
      store,
      storedSession: readStoredSession(store),
      navigate: vi.fn(),
      toaster: { show: vi.fn() },
      win: null,
      apiClient: { main } as unknown as ApiClient,
      realtimeConnection: fromCallback<RealtimeEvent, RealtimeInput>(({ sendBack }) => {
        push = sendBack;
        return () => {};
      }),
    });
    await vi.waitFor(() => expect(session.getSnapshot().matches({ loggedIn: { ready: 'current' } })).toBe(true));
    session.getSnapshot().children.realtime!.send({ type: 'realtime.start' });
    vi.advanceTimersByTime(5000);
    vi.useRealTimers();
    expect(push).not.toBeNull();

    const { dashboard } = await machines.dashboard();
    const actor = createActor(dashboard, { input: { permissions: perms } }).start();
    const cards = actor.getSnapshot().context.cards;
    // The cards without an answer here fail their parse: settled either way.
    await Promise.all(cards.map((c) => waitFor(c.ref, (s) => !s.matches('loading'))));
    const calls = (path: string) => main.mock.calls.filter(([p]) => p === path).length;
    expect(calls('dashboard/due-soon')).toBe(1);

    push!({ type: 'realtime.dashboardChanged', payload: { cards: ['due-soon', 'sales'] } });
    await vi.waitFor(() => expect(calls('dashboard/due-soon')).toBe(2));
    expect(calls('dashboard/payments-review')).toBe(1);
    expect(calls('dashboard/sales')).toBe(0);

    actor.stop();
    push!({ type: 'realtime.dashboardChanged', payload: { cards: ['due-soon'] } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(calls('dashboard/due-soon')).toBe(2);
    session.stop();
  });
});
