/**
 * realtime machine with fake timers and a fake connection (docs/product.md §4, §9: 5000 ms; pusher-js states;
 * NotificationsMessageEvent and PermissionsChangedEvent handed on).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromCallback } from 'xstate';
import { channelFor, realtimeMachine, type RealtimeEvent, type RealtimeInput } from '../../../src/machines/realtime/realtime.machine';
import { dashboardEventOf, notificationEventOf, permissionsEventOf } from '../../../src/machines/realtime/realtime-events';
import { sampleNotification } from '../support/fakes';

const echoInfo = {
  broadcaster: 'pusher' as const,
  key: 'parcela-key',
  cluster: 'mt1',
  encrypted: false,
  wsHost: null,
  wsPort: null,
  forceTLS: false,
  authEndpoint: '/broadcasting/auth',
};
const channels = {
  'administration.notifications': { channel: 'administration.notifications.7' },
  'administration.notifications_customers': { channel: 'administration.notifications_customers.0' },
};
const full: RealtimeInput = { echoInfo, channels, userType: 'COLLABORATOR', token: 'a'.repeat(64) };

function start(input: RealtimeInput) {
  const opened = vi.fn();
  const closed = vi.fn();
  const deliver = vi.fn();
  const permissionsChanged = vi.fn();
  const connected = vi.fn();
  let sendBack: ((event: RealtimeEvent) => void) | null = null;
  const actor = createActor(
    realtimeMachine.provide({
      actions: {
        deliver: (_, payload) => deliver(payload),
        permissionsChanged: (_, payload) => permissionsChanged(payload),
        connected: () => connected(),
      },
      actors: {
        connection: fromCallback<RealtimeEvent, RealtimeInput>(({ input: connectionInput, sendBack: back }) => {
          opened(connectionInput);
          sendBack = back;
          return () => closed();
        }),
      },
    }),
    { input },
  );
  actor.start();
  return { actor, opened, closed, deliver, permissionsChanged, connected, push: (event: RealtimeEvent) => sendBack?.(event) };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('realtime machine', () => {
  it('connects 5 000 ms after the top bar appears, not before', () => {
    const { actor, opened } = start(full);
    expect(actor.getSnapshot().value).toBe('idle');
    actor.send({ type: 'realtime.start' });
    vi.advanceTimersByTime(4999);
    expect(actor.getSnapshot().value).toBe('waiting');
    expect(opened).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(actor.getSnapshot().value).toEqual({ live: 'connecting' });
    expect(opened).toHaveBeenCalledWith(expect.objectContaining({ token: full.token }));
  });

  it.each([
    ['echo_info', { ...full, echoInfo: null }],
    ['channels', { ...full, channels: null }],
  ])('is skipped when %s is missing in storage', (_, input) => {
    const { actor, opened } = start(input);
    actor.send({ type: 'realtime.start' });
    vi.advanceTimersByTime(10_000);
    expect(actor.getSnapshot().value).toBe('skipped');
    expect(opened).not.toHaveBeenCalled();
  });

  it('mirrors pusher-js states and hands pushes on', () => {
    const { actor, deliver, push } = start(full);
    actor.send({ type: 'realtime.start' });
    vi.advanceTimersByTime(5000);
    push({ type: 'pusher.stateChanged', state: 'connected' });
    expect(actor.getSnapshot().value).toEqual({ live: 'connected' });
    const pushed = { tipo_operacion: 'NEW_NOTIFICATION', message: { ids_users: [7], notification: sampleNotification() } };
    push({ type: 'realtime.pushed', payload: pushed });
    expect(deliver).toHaveBeenCalledWith(pushed);
    push({ type: 'pusher.stateChanged', state: 'unavailable' });
    expect(actor.getSnapshot().value).toEqual({ live: 'unavailable' });
    push({ type: 'pusher.stateChanged', state: 'connecting' });
    push({ type: 'pusher.stateChanged', state: 'connected' });
    expect(actor.getSnapshot().value).toEqual({ live: 'connected' });
    push({ type: 'pusher.stateChanged', state: 'failed' });
    expect(actor.getSnapshot().value).toBe('failed');
  });

  it('announces each (re)connection, so what was pushed without a socket is read again', () => {
    const { actor, connected, push } = start(full);
    actor.send({ type: 'realtime.start' });
    vi.advanceTimersByTime(5000);
    expect(connected).not.toHaveBeenCalled();
    push({ type: 'pusher.stateChanged', state: 'connected' });
    expect(connected).toHaveBeenCalledTimes(1);
    push({ type: 'pusher.stateChanged', state: 'unavailable' });
    push({ type: 'pusher.stateChanged', state: 'connected' });
    expect(connected).toHaveBeenCalledTimes(2);
  });

  it('hands PermissionsChangedEvent payloads to `permissionsChanged`, not to the notifications', () => {
    const { actor, deliver, permissionsChanged, push } = start(full);
    actor.send({ type: 'realtime.start' });
    vi.advanceTimersByTime(5000);
    push({ type: 'pusher.stateChanged', state: 'connected' });
    const payload = { user_id: 7, changed_at: '2026-11-22T15:00:00.000Z' };
    push({ type: 'realtime.permissionsChanged', payload });
    expect(permissionsChanged).toHaveBeenCalledWith(payload);
    expect(deliver).not.toHaveBeenCalled();
    expect(actor.getSnapshot().value).toEqual({ live: 'connected' });
  });

  it('is torn down at logout: stopping disconnects and cancels a pending wait', () => {
    const { actor, closed, opened } = start(full);
    actor.send({ type: 'realtime.start' });
    actor.send({ type: 'realtime.stop' });
    vi.advanceTimersByTime(6000);
    expect(opened).not.toHaveBeenCalled();
    actor.send({ type: 'realtime.start' });
    vi.advanceTimersByTime(5000);
    actor.send({ type: 'realtime.stop' });
    expect(closed).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().value).toBe('idle');
  });

  it('listens on the staff or the customer channel', () => {
    expect(channelFor(full)).toBe('administration.notifications.7');
    expect(channelFor({ ...full, userType: 'CUSTOMER' })).toBe('administration.notifications_customers.0');
  });
});

describe('pushes parsed at the edge (src/machines/realtime/realtime-events.ts)', () => {
  it('a well-formed NotificationsMessageEvent becomes `realtime.pushed`; a malformed one nothing', () => {
    const payload = { tipo_operacion: 'NEW_NOTIFICATION', message: { ids_users: [7], notification: sampleNotification() } };
    expect(notificationEventOf(payload)).toEqual({ type: 'realtime.pushed', payload });
    expect(notificationEventOf({ nonsense: true })).toBeNull();
    expect(notificationEventOf({ tipo_operacion: 'NEW', message: { ids_users: ['7'], notification: sampleNotification() } })).toBeNull();
    expect(notificationEventOf(null)).toBeNull();
  });

  it('a well-formed PermissionsChangedEvent becomes `realtime.permissionsChanged`; a malformed one nothing', () => {
    const payload = { user_id: 7, changed_at: '2026-11-22T15:00:00.000Z' };
    expect(permissionsEventOf(payload)).toEqual({ type: 'realtime.permissionsChanged', payload });
    expect(permissionsEventOf({ user_id: '7', changed_at: payload.changed_at })).toBeNull();
    expect(permissionsEventOf({ user_id: 7 })).toBeNull();
    expect(permissionsEventOf(null)).toBeNull();
  });
});

describe('DashboardChanged (src/schemas/inicio/dashboard.ts DASHBOARD_CHANGED_EVENT)', () => {
  it('is parsed at the edge: a payload naming cards becomes `realtime.dashboardChanged`; a malformed one nothing', () => {
    expect(dashboardEventOf({ cards: ['sales', 'overdue'] })).toEqual({
      type: 'realtime.dashboardChanged',
      payload: { cards: ['sales', 'overdue'] },
    });
    // The schema is tolerant: unreadable `cards` become none (nothing refreshed) rather than a dropped push.
    expect(dashboardEventOf({ cards: 'sales' })).toEqual({ type: 'realtime.dashboardChanged', payload: { cards: [] } });
    expect(dashboardEventOf(null)).toBeNull();
  });

  it('is handed to the injected `dashboardChanged` action, not to the notifications or the session', () => {
    const dashboardChanged = vi.fn();
    const deliver = vi.fn();
    const permissionsChanged = vi.fn();
    let sendBack: ((event: RealtimeEvent) => void) | null = null;
    const actor = createActor(
      realtimeMachine.provide({
        actions: {
          deliver: (_, payload) => deliver(payload),
          permissionsChanged: (_, payload) => permissionsChanged(payload),
          dashboardChanged: (_, payload) => dashboardChanged(payload),
        },
        actors: {
          connection: fromCallback<RealtimeEvent, RealtimeInput>(({ sendBack: back }) => {
            sendBack = back;
            return () => {};
          }),
        },
      }),
      { input: full },
    ).start();
    actor.send({ type: 'realtime.start' });
    vi.advanceTimersByTime(5000);
    sendBack!({ type: 'realtime.dashboardChanged', payload: { cards: ['sales'] } });
    expect(dashboardChanged).toHaveBeenCalledWith({ cards: ['sales'] });
    expect(deliver).not.toHaveBeenCalled();
    expect(permissionsChanged).not.toHaveBeenCalled();
    actor.stop();
  });
});
