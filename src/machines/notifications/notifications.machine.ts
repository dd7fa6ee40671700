import { assign, setup } from 'xstate';
import type { Notification, NotificationsData, NotificationsMessageEvent } from '../../schemas/notification';
import { placeholder } from '../shared/placeholder';

/**
 * The `notifications` machine (issue "Shell"; docs/product.md §2 "Notifications panel", §3, §4 "Notification",
 * "Realtime push", §7 rows 12–14, §8). Each notification goes new → seen → cleared:
 * - new: unread; the bell shows the count;
 * - seen: the dialog was opened while unread existed, so every id was sent as seen (row 14), the
 *   count became 0 and the unread flag cleared; it still shows filled while the dialog is open;
 * - cleared: the dialog closed, its `new` flag is off and it shows outlined.
 * Regions: `list` (loading → ready; a failed fetch is only logged, docs/product.md §8) and `dialog`
 * (closed | open). A realtime push whose `ids_users` includes the current user is prepended,
 * sets unread and increments the count.
 */

export type NotificationStatus = 'new' | 'seen' | 'cleared';
export interface NotificationItem extends Notification {
  status: NotificationStatus;
}

export interface NotificationsContext {
  /** The signed-in user's id (staff or customer) to match `ids_users` of pushes. */
  userId: number;
  items: NotificationItem[];
  /** notification_quantity: unread count (docs/product.md §3). The unread flag is `count > 0`. */
  count: number;
}

export type NotificationsEvent =
  | { type: 'notifications.opened' }
  | { type: 'notifications.closed' }
  /** A realtime push, parsed by the connection (src/machines/realtime/realtime-events.ts). */
  | { type: 'notification.received'; payload: NotificationsMessageEvent }
  /** Read the list again (the realtime connection came up: pushes sent before it would be missed). */
  | { type: 'notifications.refresh' }
  | { type: 'notification.chosen'; id: number };

const toItem = (n: Notification): NotificationItem => ({ ...n, status: n.new ? 'new' : 'cleared' });

export const notificationsMachine = setup({
  types: {
    context: {} as NotificationsContext,
    events: {} as NotificationsEvent,
    input: {} as { userId: number },
  },
  actions: {
    /** Navigates to a notification's route (wouter navigate, injected). */
    navigate: (_, _params: { to: string }) => {},
    /** Logs an error the user does not see (docs/product.md §8: notification fetch failure is only logged). */
    logError: (_, _params: { what: string; error: unknown }) => {},
    markAllSeen: assign(({ context }) => ({
      count: 0,
      items: context.items.map((n) => (n.status === 'new' ? { ...n, status: 'seen' as const, new: false } : n)),
    })),
    clearAll: assign(({ context }) => ({
      items: context.items.map((n) => (n.status === 'cleared' ? n : { ...n, status: 'cleared' as const, new: false })),
    })),
    prepend: assign(({ context, event }) => {
      if (event.type !== 'notification.received') return {};
      // The payload was parsed by the realtime connection (src/machines/realtime/realtime-events.ts).
      if (!event.payload.message.ids_users.includes(context.userId)) return {};
      const notification = event.payload.message.notification;
      if (context.items.some((n) => n.id_notification === notification.id_notification)) return {};
      return { items: [{ ...notification, new: true, status: 'new' as const }, ...context.items], count: context.count + 1 };
    }),
  },
  actors: {
    /** Rows 12 (staff) / 13 (customers): GET get_notifications_by_user. */
    fetchNotifications: placeholder<NotificationsData>('fetchNotifications'),
    /** Row 14: POST update_to_seen_notifications with every id as a JSON list. */
    markSeen: placeholder<unknown, { ids: number[] }>('markSeen'),
  },
  guards: {
    hasUnread: ({ context }) => context.count > 0 || context.items.some((n) => n.status === 'new'),
    hasRoute: ({ context, event }) =>
      event.type === 'notification.chosen' && Boolean(context.items.find((n) => n.id_notification === event.id)?.route),
  },
}).createMachine({
  id: 'notifications',
  type: 'parallel',
  context: ({ input }) => ({ userId: input.userId, items: [], count: 0 }),
  on: { 'notification.received': { actions: 'prepend' } },
  states: {
    list: {
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'fetchNotifications',
            onDone: {
              target: 'ready',
              actions: assign(({ event }) => ({
                items: event.output.notification.map(toItem),
                count: event.output.notification_quantity,
              })),
            },
            onError: {
              target: 'ready',
              actions: { type: 'logError', params: ({ event }) => ({ what: 'notifications', error: event.error }) },
            },
          },
        },
        ready: { on: { 'notifications.refresh': 'loading' } },
      },
    },
    dialog: {
      initial: 'closed',
      states: {
        closed: {
          on: {
            'notifications.opened': [{ guard: 'hasUnread', target: 'open.markingSeen' }, { target: 'open' }],
          },
        },
        open: {
          initial: 'idle',
          on: {
            'notifications.closed': { target: 'closed', actions: 'clearAll' },
            'notification.chosen': {
              guard: 'hasRoute',
              target: 'closed',
              actions: [
                {
                  type: 'navigate',
                  params: ({ context, event }) => ({
                    to: context.items.find((n) => n.id_notification === event.id)?.route ?? '/',
                  }),
                },
                'clearAll',
              ],
            },
          },
          states: {
            idle: {},
            /** Row 14 with every listed id; the count drops to 0 at once. */
            markingSeen: {
              entry: 'markAllSeen',
              invoke: {
                src: 'markSeen',
                input: ({ context }) => ({ ids: context.items.map((n) => n.id_notification) }),
                onDone: 'idle',
                onError: {
                  target: 'idle',
                  actions: { type: 'logError', params: ({ event }) => ({ what: 'mark notifications seen', error: event.error }) },
                },
              },
            },
          },
        },
      },
    },
  },
});

export type NotificationsMachine = typeof notificationsMachine;
