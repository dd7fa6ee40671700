import type { SnapshotFrom } from 'xstate';
import type { NotificationItem, NotificationsMachine } from './notifications.machine';

/**
 * Selectors of the notifications machine (issue "Shell"; docs/product.md §2 notifications panel, §4), read by
 * the top bar and the notifications dialog. The machine runs only while logged in (invoked by the
 * session), so each selector accepts `undefined` and answers as for an empty list.
 */
export type NotificationsSnapshot = SnapshotFrom<NotificationsMachine>;

/** Unread count (notification_quantity); the bell shows its badge when > 0 (docs/product.md §4). */
export const selectUnreadCount = (s: NotificationsSnapshot | undefined): number => s?.context.count ?? 0;

/** The bell animates while unread notifications exist (docs/product.md §2 "animation when new ones exist"). */
export const selectHasUnread = (s: NotificationsSnapshot | undefined): boolean =>
  selectUnreadCount(s) > 0 || (s?.context.items.some((n) => n.status === 'new') ?? false);

const NONE: NotificationItem[] = [];
/** The notifications, newest first. */
export const selectNotificationItems = (s: NotificationsSnapshot | undefined): NotificationItem[] => s?.context.items ?? NONE;

/** The dialog is open. */
export const selectNotificationsOpen = (s: NotificationsSnapshot | undefined): boolean => s?.matches({ dialog: 'open' }) ?? false;

/** The first fetch (rows 12–13) is still in flight. */
export const selectNotificationsLoading = (s: NotificationsSnapshot | undefined): boolean => s?.matches({ list: 'loading' }) ?? false;
