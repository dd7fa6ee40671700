import * as z from 'zod/mini';
import { MODULE, SUBMODULE } from './permissions';
import { userTypeSchema } from './session';

/**
 * Notification wire shapes (docs/product.md §3 "Notification", §4 "Notification", §7 rows 12–14, the realtime
 * event NotificationsMessageEvent). Shared by the web app's api modules, the server's routes and the
 * Pact tests.
 */

/** Most notifications a list call returns (docs/product.md §7 rows 12–13 are unbounded in the spec; docs/api.md: nothing unbounded). */
export const NOTIFICATION_LIST_LIMIT = 50;
/** Most ids one "mark as seen" call accepts (row 14); the client sends the ids it shows (≤ the list limit). */
export const MARK_SEEN_MAX_IDS = 500;
/** Longest title (plain text, characters). */
export const NOTIFICATION_TITLE_MAX = 150;
/** Longest detail (HTML, characters) — keeps a broadcast event under Pusher's 10 KB message limit. */
export const NOTIFICATION_DETAIL_MAX = 4000;
/** Longest route (app path). */
export const NOTIFICATION_ROUTE_MAX = 300;

/** Codes of the notification type catalogue (server migration `0002-notifications`). */
export const NOTIFICATION_TYPE_CODES = ['INFO', 'SUCCESS', 'WARNING', 'ERROR', 'PAYMENT', 'SALE', 'CUSTOMER', 'SECURITY'] as const;
export type NotificationTypeCode = (typeof NOTIFICATION_TYPE_CODES)[number];

/** `#rgb` or `#rrggbb` colour. */
const hexColourSchema = z.string().check(z.regex(/^#(?:[0-9a-fA-F]{3}){1,2}$/, 'Color hexadecimal inválido'));

/**
 * A notification's type (docs/product.md §3 "type (with icon, color_icon)"): `code` is the catalogue's
 * UPPER_SNAKE code (e.g. 'SECURITY'), `name` its Spanish label, `icon` a Blueprint icon name
 * (e.g. 'lock'), `color_icon` the hex colour used to fill (new) or outline (read) the item.
 */
export const notificationTypeSchema = z.object({
  code: z.string().check(z.minLength(1)),
  name: z.string(),
  icon: z.string().check(z.minLength(1)),
  color_icon: hexColourSchema,
});
export type NotificationType = z.infer<typeof notificationTypeSchema>;

/** 'YYYY-MM-DD HH:mm:ss' (docs/product.md §3 created_at_formatted), wall time in America/Lima. */
export const limaDateTimeSchema = z.string().check(z.regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, 'Fecha inválida'));

/**
 * An app path a notification links to: starts with one '/', no scheme, no whitespace (so it can never
 * point off-site, e.g. '//evil.example').
 */
export const appRouteSchema = z
  .string()
  .check(z.maxLength(NOTIFICATION_ROUTE_MAX), z.regex(/^\/(?![/\\])\S*$/, 'La ruta debe ser una ruta de la aplicación (empieza con /)'));

/**
 * One notification as rows 12–13 list it and the realtime event carries it (docs/product.md §3):
 * - `id_notification`: positive integer id;
 * - `type`: {@link notificationTypeSchema};
 * - `title`: plain text; `detail`: HTML (sanitised by the server on write, by DOMPurify on display);
 * - `created_at_formatted`: creation time 'YYYY-MM-DD HH:mm:ss' in America/Lima;
 * - `fecha_creacion`: creation instant, ISO 8601 with offset (UTC 'Z');
 * - `new`: true while unseen (row 14 clears it);
 * - `route`: app path to open on click, or null (may be absent from other backends).
 */
export const notificationSchema = z.object({
  id_notification: z.int().check(z.positive()),
  type: notificationTypeSchema,
  title: z.string(),
  detail: z.string(),
  created_at_formatted: limaDateTimeSchema,
  fecha_creacion: z.iso.datetime({ offset: true }),
  new: z.boolean(),
  route: z.optional(z.nullable(z.string())),
});

/**
 * One notification as the web app reads it (tolerant reader, docs/contracts.md): like
 * {@link notificationSchema} (what our server sends), but `created_at_formatted` and
 * `fecha_creacion` may be missing, null or malformed — the panel then shows docs/product.md §3's fallbacks
 * "Fecha no disponible" / "Fecha inválida" for that item instead of refusing the whole answer.
 */
/** One notification as our server sends it (rows 12–13, the realtime event). */
export type NotificationSent = z.infer<typeof notificationSchema>;

/**
 * A notification's type as the web app reads it: docs/product.md §3 fixes only `icon` and `color_icon`; the
 * catalogue `code` and the Spanish `name` (a tooltip) may be absent (tolerant reader).
 */
export const notificationTypeReadSchema = z.object({
  ...notificationTypeSchema.shape,
  code: z.optional(z.string()),
  name: z.optional(z.string()),
});

export const notificationReadSchema = z.object({
  ...notificationSchema.shape,
  type: notificationTypeReadSchema,
  created_at_formatted: z.optional(z.nullable(z.string())),
  fecha_creacion: z.optional(z.nullable(z.string())),
});
export type Notification = z.infer<typeof notificationReadSchema>;

/**
 * Validates notifications one by one (rows 12–13, the realtime event): an item that is not a
 * notification even for the tolerant reader is left out and reported through `report`, so one bad
 * item never hides the good ones.
 * @returns the readable items, in their order.
 */
export function readNotificationItems(
  items: readonly unknown[],
  report: (message: string, item: unknown) => void = console.warn,
): Notification[] {
  return items.flatMap((item) => {
    const parsed = notificationReadSchema.safeParse(item);
    if (parsed.success) return [parsed.data];
    report('[notificaciones] Se omitió una notificación ilegible', item);
    return [];
  });
}

/**
 * Rows 12–13 response: `notification_quantity` is the caller's unread count (all of them, not only
 * the listed ones); `notification` the newest {@link NOTIFICATION_LIST_LIMIT}, newest first.
 */
export const notificationsResponseSchema = z.object({
  data: z.object({
    notification_quantity: z.int().check(z.nonnegative()),
    notification: z.array(notificationSchema),
  }),
});
export type NotificationsResponse = z.infer<typeof notificationsResponseSchema>;
/** Rows 12–13's `data` as our server sends it. */
export type NotificationsSent = NotificationsResponse['data'];

/** Rows 12–13 as the web app reads them: the list's items are checked one by one ({@link readNotificationItems}). */
export const notificationsReadSchema = z.object({
  data: z.object({
    notification_quantity: z.int().check(z.nonnegative()),
    notification: z.array(z.unknown()),
  }),
});
export type NotificationsData = { notification_quantity: number; notification: Notification[] };

/** Message of an invalid `ids_notifications` (row 14). */
export const MARK_SEEN_IDS_MESSAGE = 'Debe ser una lista JSON de identificadores de notificación';

/** Positive integer ids, at most {@link MARK_SEEN_MAX_IDS}. */
const notificationIdsSchema = z.array(z.int().check(z.positive())).check(z.maxLength(MARK_SEEN_MAX_IDS));

/**
 * Row 14 form body: `ids_notifications` is a JSON list of notification ids as a string, e.g.
 * '[12,11,9]'. Parses to the list of numbers (input type: the string the client sends).
 * Errors (422 on `ids_notifications`): not JSON, not a list of positive integers, too many ids.
 */
export const markSeenRequestSchema = z.strictObject({
  ids_notifications: z.pipe(
    z.string().check(z.maxLength(20_000)),
    z.transform((text: string, ctx): number[] => {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        value = undefined;
      }
      const parsed = notificationIdsSchema.safeParse(value);
      if (!parsed.success) {
        ctx.issues.push({ code: 'custom', message: MARK_SEEN_IDS_MESSAGE, input: text });
        return z.NEVER;
      }
      return parsed.data;
    }),
  ),
});
/** What the client sends for row 14 (`ids_notifications` as the JSON string). */
export type MarkSeenRequest = z.input<typeof markSeenRequestSchema>;

/** Row 14 form body from a list of ids (for the web app's api module). */
export function markSeenForm(ids: readonly number[]): MarkSeenRequest {
  return { ids_notifications: JSON.stringify(ids) };
}

/** Value of `tipo_operacion` when a notification was created (the only operation so far). */
export const NOTIFICATION_OPERATION_CREATED = 'NEW_NOTIFICATION';

/** Name of the realtime event (docs/product.md §3), broadcast as is (laravel-echo listens with a leading '.'). */
export const NOTIFICATIONS_EVENT_NAME = 'NotificationsMessageEvent';

/**
 * Payload of the realtime event NotificationsMessageEvent (docs/product.md §3, §4), sent on the recipient's
 * private channel: `tipo_operacion` (see {@link NOTIFICATION_OPERATION_CREATED}) and `message` with
 * the recipient ids (`ids_users`: staff ids on the staff channel, customer ids on the customer one)
 * and the notification as rows 12–13 list it.
 */
export const notificationsMessageEventSchema = z.object({
  tipo_operacion: z.string(),
  message: z.object({
    ids_users: z.array(z.int().check(z.positive())),
    notification: notificationReadSchema,
  }),
});
export type NotificationsMessageEvent = z.infer<typeof notificationsMessageEventSchema>;

/** Explicit recipients of an admin notification: accounts of one type by id (1–500 ids). */
export const recipientsByIdSchema = z.strictObject({
  user_type: userTypeSchema,
  ids: z.array(z.int().check(z.positive())).check(z.minLength(1), z.maxLength(MARK_SEEN_MAX_IDS)),
});
/** Recipients by permission: every active staff user holding this docs/product.md §6 permission. */
export const recipientsByPermissionSchema = z.strictObject({
  permission: z.enum({ ...MODULE, ...SUBMODULE }, { error: 'Permiso desconocido' }),
});

/**
 * Body of POST /api/notifications (admin send; not in docs/product.md §7, docs/decisions.md "Notifications and
 * realtime"): `recipients` (by ids or by permission), `type` (catalogue code, e.g. 'INFO'), plain
 * `title`, HTML `detail` (sanitised on write), optional app `route`.
 */
export const sendNotificationRequestSchema = z.strictObject({
  recipients: z.union([recipientsByIdSchema, recipientsByPermissionSchema]),
  type: z.string().check(z.regex(/^[A-Z][A-Z0-9_]{0,39}$/, 'Tipo de notificación inválido')),
  title: z.string().check(z.trim(), z.minLength(1, 'Ingrese un título'), z.maxLength(NOTIFICATION_TITLE_MAX)),
  detail: z.string().check(z.trim(), z.minLength(1, 'Ingrese el detalle'), z.maxLength(NOTIFICATION_DETAIL_MAX)),
  route: z.optional(z.nullable(appRouteSchema)),
});
export type SendNotificationRequest = z.infer<typeof sendNotificationRequestSchema>;

/** POST /api/notifications response (201): Spanish message, how many accounts were notified and the new ids. */
export const sendNotificationResponseSchema = z.object({
  message: z.string(),
  data: z.object({
    recipients: z.int().check(z.nonnegative()),
    ids_notifications: z.array(z.int().check(z.positive())),
  }),
});
export type SendNotificationResponse = z.infer<typeof sendNotificationResponseSchema>;

/** Body of POST /broadcasting/auth (form or JSON, as pusher-js sends it). */
export const channelAuthRequestSchema = z.strictObject({
  socket_id: z.string().check(z.regex(/^\d{1,20}\.\d{1,20}$/, 'socket_id inválido')),
  channel_name: z.string().check(z.minLength(1), z.maxLength(200)),
});
/** Response of POST /broadcasting/auth: `auth` = '<app key>:<HMAC-SHA256 hex>' (Pusher private channel). */
export const channelAuthResponseSchema = z.object({ auth: z.string() });

/** Name of the realtime event telling a staff user that their permissions changed (on their private notifications channel). */
export const PERMISSIONS_CHANGED_EVENT = 'PermissionsChangedEvent';

/** Payload of {@link PERMISSIONS_CHANGED_EVENT}: the web app refetches call 11 (roles_permissions) and the menu. */
export const permissionsChangedEventSchema = z.object({ user_id: z.int(), changed_at: z.string() });
export type PermissionsChangedEvent = z.infer<typeof permissionsChangedEventSchema>;
