import { Icon, type IconName } from '@blueprintjs/core';
import { useEffect, useRef, type CSSProperties, type KeyboardEvent } from 'react';
import { limaWallTimeText, relativeTimeEs } from '../../lib/dates';
import { sanitizeNotificationHtml } from '../../lib/sanitize';
import type { NotificationItem } from '../../machines/notifications/notifications.machine';
import { selectNotificationItems } from '../../machines/notifications/notifications.selectors';
import { useNotifications, useNotificationsEvents } from './shell-context';

/** Title of the notifications dialog (docs/product.md §2). */
export const NOTIFICATIONS_TITLE = 'Notificaciones';
/** Text of an empty list (docs/product.md §2). */
export const NOTIFICATIONS_EMPTY = 'Aún no hay notificaciones';

/**
 * The notifications dialog's content (docs/product.md §2 "Notifications panel", §3, §4; issue "Shell"):
 * 350 px wide (the popover under the bell), title "Notificaciones", newest first. Each item shows
 * its type's icon in the type colour, the title, the HTML detail sanitised by DOMPurify, and the
 * creation time relative to now in Spanish (from `fecha_creacion`; the Lima wall time on hover).
 * New and just-seen items are filled with the type colour (light tint and left border), cleared
 * ones outlined. An item with a route is clickable: it navigates there and closes the dialog.
 * Empty: "Aún no hay notificaciones". Loaded the first time the dialog opens. Opening it moves
 * the focus into it (docs/decisions.md "Keyboard and focus"): to the first notification that can
 * be chosen, else to the title (focusable by script).
 */
export function NotificationsPanel() {
  const items = useNotifications(selectNotificationItems);
  const panel = useRef<HTMLElement>(null);
  // Mounted each time the dialog opens (Blueprint's overlay drops its content when closed).
  useEffect(() => {
    const first = panel.current?.querySelector<HTMLElement>('.notification-item[tabindex="0"]');
    (first ?? panel.current?.querySelector<HTMLElement>('#notifications-title'))?.focus();
  }, []);
  return (
    <section ref={panel} className="notifications-panel" role="dialog" aria-labelledby="notifications-title">
      <header className="notifications-header">
        <h2 id="notifications-title" className="notifications-title" tabIndex={-1}>
          {NOTIFICATIONS_TITLE}
        </h2>
      </header>
      {items.length === 0 ? (
        <p className="notifications-empty">{NOTIFICATIONS_EMPTY}</p>
      ) : (
        <ul className="notifications-list">
          {items.map((item) => (
            <li key={item.id_notification}>
              <NotificationEntry item={item} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** One notification, filled (new/seen) or outlined (cleared) in its type colour. */
function NotificationEntry({ item }: { item: NotificationItem }) {
  const { choose } = useNotificationsEvents();
  const filled = item.status !== 'cleared';
  const className = ['notification-item', filled ? 'is-filled' : 'is-outlined', item.route ? 'is-clickable' : null]
    .filter(Boolean)
    .join(' ');
  const style = { '--notification-color': item.type.color_icon } as CSSProperties;
  const content = (
    <>
      <Icon icon={item.type.icon as IconName} color={item.type.color_icon} size={20} className="notification-icon" title={item.type.name} />
      <div className="notification-body">
        <div className="notification-title">{item.title}</div>
        <div className="notification-detail" dangerouslySetInnerHTML={{ __html: sanitizeNotificationHtml(item.detail) }} />
        <time className="notification-time" dateTime={item.fecha_creacion ?? undefined} title={limaWallTimeText(item.created_at_formatted)}>
          {relativeTimeEs(item.fecha_creacion)}
        </time>
      </div>
    </>
  );
  if (!item.route) {
    return (
      <div className={className} style={style} data-status={item.status}>
        {content}
      </div>
    );
  }
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      choose(item.id_notification);
    }
  };
  return (
    <div
      className={className}
      style={style}
      data-status={item.status}
      role="button"
      tabIndex={0}
      onClick={() => choose(item.id_notification)}
      onKeyDown={onKeyDown}
    >
      {content}
    </div>
  );
}
