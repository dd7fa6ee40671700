/**
 * Inicio's cards (src/machines/inicio/dashboard-card.machine.ts) and the dashboard that spawns them
 * (src/machines/inicio/dashboard.machine.ts, provided as the app does by
 * src/machines/inicio/dashboard.actors.ts): loading → ready | failed with the Spanish message,
 * "Reintentar", a refresh that keeps the figures shown, only the permitted cards spawned, and a
 * realtime DashboardChanged refreshing only the cards it names.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { ApiError, NETWORK_ERROR_MESSAGE } from '../../../src/api/http';
import { dashboardCardMachine } from '../../../src/machines/inicio/dashboard-card.machine';
import { createDashboardMachines } from '../../../src/machines/inicio/dashboard.actors';
import { permittedDashboardCards } from '../../../src/machines/inicio/dashboard-cards';
import type { DashboardApi } from '../../../src/api/inicio/dashboard';
import { DASHBOARD_CARDS, type DashboardCardId, type DashboardChangedEvent } from '../../../src/schemas/inicio/dashboard';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';

/** A promise and the functions that settle it. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** A card whose `fetch` answers from `calls` in order (each a deferred the test settles). */
function startCard(card: DashboardCardId = 'due-soon') {
  const calls: ReturnType<typeof deferred<unknown>>[] = [];
  const fetch = vi.fn(({ input }: { input: { card: DashboardCardId } }) => {
    expect(input.card).toBe(card);
    const call = deferred<unknown>();
    calls.push(call);
    return call.promise;
  });
  const actor = createActor(dashboardCardMachine.provide({ actors: { fetch: fromPromise(fetch) } }), { input: { card } });
  actor.start();
  return { actor, calls, fetch };
}

const figures = (count: number) => ({ from: '2026-11-29', to: '2026-12-06', count, by_currency: [] });

describe('dashboardCard machine', () => {
  it('loads, then shows the figures', async () => {
    const { actor, calls } = startCard();
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    calls[0]!.resolve(figures(3));
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context).toMatchObject({ data: figures(3), error: null });
  });

  it('a failure keeps the API error’s Spanish message; "Reintentar" loads again', async () => {
    const { actor, calls, fetch } = startCard();
    calls[0]!.reject(new ApiError(403, 'No tiene permiso para ver esta tarjeta.'));
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe('No tiene permiso para ver esta tarjeta.');
    actor.send({ type: 'retry' });
    expect(actor.getSnapshot().matches('loading')).toBe(true);
    expect(fetch).toHaveBeenCalledTimes(2);
    calls[1]!.resolve(figures(1));
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context).toMatchObject({ data: figures(1), error: null });
  });

  it('a network failure shows the network message', async () => {
    const { actor, calls } = startCard();
    calls[0]!.reject(new TypeError('fetch failed'));
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context.error).toBe(NETWORK_ERROR_MESSAGE);
  });

  it('refresh fetches again while the figures shown stay, then shows the new ones', async () => {
    const { actor, calls } = startCard();
    calls[0]!.resolve(figures(3));
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'refresh' });
    expect(actor.getSnapshot().matches({ ready: 'refreshing' })).toBe(true);
    expect(actor.getSnapshot().context.data).toEqual(figures(3));
    calls[1]!.resolve(figures(4));
    await waitFor(actor, (s) => s.matches({ ready: 'idle' }));
    expect(actor.getSnapshot().context.data).toEqual(figures(4));
  });

  it('a refresh during a fetch starts it over (the answer shown is never older than the change)', async () => {
    const { actor, calls, fetch } = startCard();
    actor.send({ type: 'refresh' });
    expect(fetch).toHaveBeenCalledTimes(2);
    calls[0]!.resolve(figures(1)); // the stale answer is ignored
    calls[1]!.resolve(figures(2));
    await waitFor(actor, (s) => s.matches('ready'));
    expect(actor.getSnapshot().context.data).toEqual(figures(2));
  });

  it('a failed refresh shows the error; "Reintentar" refreshes with the old figures kept', async () => {
    const { actor, calls } = startCard();
    calls[0]!.resolve(figures(3));
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'refresh' });
    calls[1]!.reject(new ApiError(500, 'Error interno del servidor.'));
    await waitFor(actor, (s) => s.matches('failed'));
    expect(actor.getSnapshot().context).toMatchObject({ data: figures(3), error: 'Error interno del servidor.' });
    actor.send({ type: 'retry' });
    expect(actor.getSnapshot().matches({ ready: 'refreshing' })).toBe(true);
  });
});

const managerPermissions = [MODULE.comercial, SUBMODULE.ventas, MODULE.finanzas, SUBMODULE.pagos];

/** The dashboard as the app provides it, with api calls answering at once and a realtime subscription the test drives. */
function startDashboard(permissions: readonly string[]) {
  const api = Object.fromEntries(DASHBOARD_CARDS.map((card) => [card, vi.fn(async () => ({ card }))])) as unknown as Record<
    DashboardCardId,
    ReturnType<typeof vi.fn>
  >;
  const listeners = new Set<(payload: DashboardChangedEvent) => void>();
  const unsubscribed = vi.fn();
  const machines = createDashboardMachines({
    api: api as unknown as DashboardApi,
    onDashboardChanged: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        unsubscribed();
      };
    },
  });
  const actor = createActor(machines.dashboard, { input: { permissions } });
  actor.start();
  const push = (payload: DashboardChangedEvent) => listeners.forEach((listener) => listener(payload));
  return { actor, api, push, unsubscribed, listeners };
}

const cardsReady = (actor: ReturnType<typeof startDashboard>['actor']) =>
  Promise.all(actor.getSnapshot().context.cards.map((c) => waitFor(c.ref, (s) => s.matches({ ready: 'idle' }))));

describe('dashboard machine', () => {
  it('spawns only the cards the permissions allow, in layout order, each fetching its own figures', async () => {
    const { actor, api } = startDashboard(managerPermissions);
    const ids = actor.getSnapshot().context.cards.map((c) => c.id);
    expect(ids).toEqual([
      'sales',
      'collections',
      'overdue',
      'payments-review',
      'due-soon',
      'late-customers',
      'expiring-reservations',
      'top-agents',
    ]);
    await cardsReady(actor);
    for (const card of DASHBOARD_CARDS) expect(api[card]).toHaveBeenCalledTimes(ids.includes(card) ? 1 : 0);
    expect(actor.getSnapshot().context.cards[0]!.ref.getSnapshot().context.data).toEqual({ card: 'sales' });
  });

  it('a module without its submodule shows nothing of it; no permission, no card', () => {
    expect(permittedDashboardCards([MODULE.crm])).toEqual([]);
    expect(permittedDashboardCards([MODULE.crm, SUBMODULE.leads])).toEqual(['follow-ups', 'leads']);
    expect(permittedDashboardCards([])).toEqual([]);
  });

  it('a realtime DashboardChanged refreshes only the cards it names (unknown or hidden names are ignored)', async () => {
    const { actor, api, push } = startDashboard(managerPermissions);
    await cardsReady(actor);
    push({ cards: ['sales', 'overdue', 'lots', 'nonsense'] });
    await cardsReady(actor);
    expect(api.sales).toHaveBeenCalledTimes(2);
    expect(api.overdue).toHaveBeenCalledTimes(2);
    expect(api.collections).toHaveBeenCalledTimes(1);
    expect(api['due-soon']).toHaveBeenCalledTimes(1);
    expect(api.lots).not.toHaveBeenCalled();
  });

  it('stops listening when stopped', () => {
    const { actor, listeners, unsubscribed } = startDashboard(managerPermissions);
    expect(listeners.size).toBe(1);
    actor.stop();
    expect(unsubscribed).toHaveBeenCalledTimes(1);
    expect(listeners.size).toBe(0);
  });
});
