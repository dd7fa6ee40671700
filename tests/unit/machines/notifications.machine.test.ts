/** notifications machine (docs/product.md §2 panel, §4 new → seen → cleared, realtime push, §7 rows 12–14, §8). */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { notificationsMachine } from '../../../src/machines/notifications/notifications.machine';
import type { Notification, NotificationsData } from '../../../src/schemas/notification';

const type = { code: 'INFO', name: 'Información', icon: 'info-sign', color_icon: '#3b82f6' };
const n = (id: number, isNew: boolean, route: string | null = null): Notification => ({
  id_notification: id,
  type,
  title: `Aviso ${id}`,
  detail: '<p>Detalle</p>',
  created_at_formatted: '2026-11-20 10:00:00',
  fecha_creacion: '2026-11-20T15:00:00Z',
  new: isNew,
  route,
});

function start(data: NotificationsData | Error, markSeen: (ids: number[]) => Promise<unknown> = async () => ({})) {
  const spies = { navigate: vi.fn(), logError: vi.fn(), markSeen: vi.fn(markSeen) };
  const actor = createActor(
    notificationsMachine.provide({
      actions: { navigate: (_, { to }) => spies.navigate(to), logError: (_, e) => spies.logError(e) },
      actors: {
        fetchNotifications: fromPromise(async () => {
          if (data instanceof Error) throw data;
          return data;
        }),
        markSeen: fromPromise(({ input }) => spies.markSeen(input.ids)),
      },
    }),
    { input: { userId: 7 } },
  );
  actor.start();
  return { actor, ...spies };
}

const ready = (actor: ReturnType<typeof start>['actor']) => waitFor(actor, (s) => s.matches({ list: 'ready' }));

describe('notifications machine', () => {
  it('loads the list and the unread count', async () => {
    const { actor } = start({ notification_quantity: 2, notification: [n(3, true), n(2, true), n(1, false)] });
    await ready(actor);
    const { items, count } = actor.getSnapshot().context;
    expect(count).toBe(2);
    expect(items.map((i) => i.status)).toEqual(['new', 'new', 'cleared']);
  });

  it('reads the list again on notifications.refresh (the realtime connection came up)', async () => {
    let calls = 0;
    const actor = createActor(
      notificationsMachine.provide({
        actors: {
          fetchNotifications: fromPromise(async () => {
            calls += 1;
            return calls === 1
              ? { notification_quantity: 0, notification: [] }
              : { notification_quantity: 1, notification: [n(9, true, '/FINANZAS/Pagos')] };
          }),
        },
      }),
      { input: { userId: 7 } },
    );
    actor.start();
    await ready(actor);
    expect(actor.getSnapshot().context.count).toBe(0);
    actor.send({ type: 'notifications.refresh' });
    await waitFor(actor, (s) => s.matches({ list: 'ready' }) && s.context.count === 1);
    expect(calls).toBe(2);
    expect(actor.getSnapshot().context.items.map((i) => i.id_notification)).toEqual([9]);
  });

  it('a failed fetch is only logged', async () => {
    const { actor, logError } = start(new Error('offline'));
    await ready(actor);
    expect(logError).toHaveBeenCalled();
    expect(actor.getSnapshot().context.items).toEqual([]);
  });

  it('opening with unread sends every id as seen; count 0; closing clears every new flag', async () => {
    const { actor, markSeen } = start({ notification_quantity: 1, notification: [n(2, true), n(1, false)] });
    await ready(actor);
    actor.send({ type: 'notifications.opened' });
    expect(actor.getSnapshot().context.count).toBe(0);
    expect(actor.getSnapshot().context.items.map((i) => i.status)).toEqual(['seen', 'cleared']);
    await waitFor(actor, (s) => s.matches({ dialog: { open: 'idle' } }));
    expect(markSeen).toHaveBeenCalledWith([2, 1]);
    actor.send({ type: 'notifications.closed' });
    expect(actor.getSnapshot().context.items.map((i) => [i.status, i.new])).toEqual([
      ['cleared', false],
      ['cleared', false],
    ]);
  });

  it('opening without unread sends nothing', async () => {
    const { actor, markSeen } = start({ notification_quantity: 0, notification: [n(1, false)] });
    await ready(actor);
    actor.send({ type: 'notifications.opened' });
    expect(actor.getSnapshot().matches({ dialog: { open: 'idle' } })).toBe(true);
    expect(markSeen).not.toHaveBeenCalled();
  });

  it('a push for this user is prepended, counted and unread; pushes for others are ignored', async () => {
    const { actor } = start({ notification_quantity: 0, notification: [n(1, false)] });
    await ready(actor);
    actor.send({
      type: 'notification.received',
      payload: { tipo_operacion: 'NEW_NOTIFICATION', message: { ids_users: [9], notification: n(5, true) } },
    });
    expect(actor.getSnapshot().context.count).toBe(0);
    actor.send({
      type: 'notification.received',
      payload: { tipo_operacion: 'NEW_NOTIFICATION', message: { ids_users: [7, 9], notification: n(6, true) } },
    });
    actor.send({
      type: 'notification.received',
      payload: { tipo_operacion: 'NEW_NOTIFICATION', message: { ids_users: [7], notification: n(6, true) } },
    });
    const { items, count } = actor.getSnapshot().context;
    expect(count).toBe(1);
    expect(items.map((i) => [i.id_notification, i.status])).toEqual([
      [6, 'new'],
      [1, 'cleared'],
    ]);
  });

  it('choosing a notification with a route navigates and closes; one without a route does nothing', async () => {
    const { actor, navigate } = start({ notification_quantity: 0, notification: [n(2, false, '/Crm/Clientes'), n(1, false)] });
    await ready(actor);
    actor.send({ type: 'notifications.opened' });
    actor.send({ type: 'notification.chosen', id: 1 });
    expect(actor.getSnapshot().matches({ dialog: 'open' })).toBe(true);
    actor.send({ type: 'notification.chosen', id: 2 });
    expect(navigate).toHaveBeenCalledWith('/Crm/Clientes');
    expect(actor.getSnapshot().matches({ dialog: 'closed' })).toBe(true);
  });

  it('a failed mark-as-seen is only logged', async () => {
    const { actor, logError } = start({ notification_quantity: 1, notification: [n(1, true)] }, async () =>
      Promise.reject(new Error('500')),
    );
    await ready(actor);
    actor.send({ type: 'notifications.opened' });
    await waitFor(actor, (s) => s.matches({ dialog: { open: 'idle' } }));
    expect(logError).toHaveBeenCalled();
  });
});
