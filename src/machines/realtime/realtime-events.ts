import { notificationsMessageEventSchema, permissionsChangedEventSchema } from '../../schemas/notification';
import { dashboardChangedEventSchema } from '../../schemas/inicio/dashboard';
import type { RealtimeEvent } from './realtime.machine';

/**
 * What the realtime connection (./realtime.actors.ts) hands the realtime machine for a push on the
 * user's channel: its payload parsed by the event's schema (src/schemas/notification.ts), as the api
 * modules parse every answer — so the machines (realtime, notifications, session) receive typed
 * events and carry no zod in the login page's entry chunk (docs/decisions.md "Compression and the
 * login budget"). A malformed payload gives null: it is dropped (and logged by the caller).
 */

/** A pushed NotificationsMessageEvent → `realtime.pushed`, or null when malformed. */
export function notificationEventOf(payload: unknown): Extract<RealtimeEvent, { type: 'realtime.pushed' }> | null {
  const parsed = notificationsMessageEventSchema.safeParse(payload);
  return parsed.success ? { type: 'realtime.pushed', payload: parsed.data } : null;
}

/** A pushed PermissionsChangedEvent (`{user_id, changed_at}`) → `realtime.permissionsChanged`, or null when malformed. */
export function permissionsEventOf(payload: unknown): Extract<RealtimeEvent, { type: 'realtime.permissionsChanged' }> | null {
  const parsed = permissionsChangedEventSchema.safeParse(payload);
  return parsed.success ? { type: 'realtime.permissionsChanged', payload: parsed.data } : null;
}

/** A pushed DashboardChanged (`{cards}`) → `realtime.dashboardChanged`, or null when malformed. */
export function dashboardEventOf(payload: unknown): Extract<RealtimeEvent, { type: 'realtime.dashboardChanged' }> | null {
  const parsed = dashboardChangedEventSchema.safeParse(payload);
  return parsed.success ? { type: 'realtime.dashboardChanged', payload: parsed.data } : null;
}
