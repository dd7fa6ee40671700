import type { Kysely } from 'kysely';
import sanitizeHtml from 'sanitize-html';
import { Temporal } from 'temporal-polyfill';
import { AUTH_ROUTES } from '../../src/config/paths';
import { formatDate, LIMA_TIME_ZONE } from '../../src/lib/dates';
import {
  NOTIFICATION_LIST_LIMIT,
  NOTIFICATION_OPERATION_CREATED,
  NOTIFICATIONS_EVENT_NAME,
  type NotificationSent,
  type NotificationsSent,
  type NotificationsMessageEvent,
  type NotificationTypeCode,
  type SendNotificationRequest,
} from '../../src/schemas/notification';
import { MODULE, SUBMODULE, type Permission } from '../../src/schemas/permissions';
import type { AppDeps } from '../context';
import type { Clock } from '../clock';
import type { AccountType, DB } from '../db/database';
import { inTransaction } from '../db/portable';
import { validationError } from '../errors';
import type { TokenOwner } from '../auth/tokens';
import type { BroadcastEvent } from '../realtime/broadcaster';
import { notificationChannelOf } from '../realtime/realtime.service';
import {
  activeStaffWithPermissions,
  countUnseen,
  existingAccountIds,
  findNotificationsByIds,
  findNotificationType,
  insertNotifications,
  listRecipientNotifications,
  markSeen,
  type NotificationRecord,
} from './notifications.repository';

/**
 * Notifications (docs/product.md §3, §4, §7 rows 12–14; issue "Shell"): listing, marking as seen, creating
 * them inside the caller's transaction and the realtime events that announce them.
 */

/** Spanish messages of the notification calls. */
export const NOTIFICATION_MESSAGES = {
  markedSeen: 'Notificaciones marcadas como vistas',
  sent: 'Notificación enviada',
  unknownType: 'Tipo de notificación desconocido',
  unknownRecipients: 'Destinatarios no encontrados',
  emptyDetail: 'El detalle no tiene contenido permitido',
} as const;

/** Texts of the notifications the server raises by itself. */
export const NOTIFICATION_TEXTS = {
  passwordChangedTitle: 'Contraseña actualizada',
  newCustomerTitle: 'Nuevo cliente registrado',
} as const;

/** Staff notified of a new customer registration (docs/product.md §6 strings): CRM module + Clientes submodule. */
export const NEW_CUSTOMER_AUDIENCE: readonly Permission[] = [MODULE.crm, SUBMODULE.clientes];

/**
 * HTML allowed in a detail: inline formatting, paragraphs, lists and links (http, https, mailto or
 * app-relative; `rel="noopener noreferrer"` forced). Scripts, styles, event-handler attributes,
 * `javascript:` URLs and every other tag or attribute are removed (the text of script/style too).
 */
const DETAIL_POLICY: sanitizeHtml.IOptions = {
  allowedTags: ['b', 'strong', 'i', 'em', 'u', 's', 'br', 'p', 'span', 'small', 'code', 'ul', 'ol', 'li', 'a'],
  allowedAttributes: { a: ['href', 'rel'] },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer' }) },
};

/**
 * Sanitises a notification detail on write with `sanitize-html` (the web app sanitises again with
 * DOMPurify on display). @returns the safe HTML, trimmed.
 */
export function sanitizeDetail(html: string): string {
  return sanitizeHtml(html, DETAIL_POLICY).trim();
}

/** Escapes text for use inside HTML built by the server (names typed by users). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** An ISO instant as 'YYYY-MM-DD HH:mm:ss' wall time in America/Lima (docs/product.md §3 created_at_formatted). */
export function formatLimaDateTime(iso: string): string {
  const t = Temporal.Instant.from(iso).toZonedDateTimeISO(LIMA_TIME_ZONE);
  return `${String(t.year).padStart(4, '0')}-${pad(t.month)}-${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
}

/**
 * An ISO instant as 'HH:mm' wall time in America/Lima: the time a notification's text gives beside
 * its date, which is written dd/mm/yyyy with src/lib/dates.ts `formatDate` (docs/decisions.md
 * "Customer journey details (accessibility)").
 */
export function formatLimaTime(iso: string): string {
  const t = Temporal.Instant.from(iso).toZonedDateTimeISO(LIMA_TIME_ZONE);
  return `${pad(t.hour)}:${pad(t.minute)}`;
}

/** A stored notification in the wire shape of docs/product.md §3 (`new` while unseen). */
export function toWireNotification(record: NotificationRecord): NotificationSent {
  return {
    id_notification: record.id,
    type: { code: record.type.code, name: record.type.name, icon: record.type.icon, color_icon: record.type.color_icon },
    title: record.title,
    detail: record.detail,
    created_at_formatted: formatLimaDateTime(record.createdAt),
    fecha_creacion: new Date(record.createdAt).toISOString(),
    new: record.seenAt === null,
    route: record.route,
  };
}

/** The realtime event announcing a stored notification to its recipient (private channel, docs/product.md §3/§4). */
export function notificationEvent(record: NotificationRecord): BroadcastEvent {
  const payload: NotificationsMessageEvent = {
    tipo_operacion: NOTIFICATION_OPERATION_CREATED,
    message: { ids_users: [record.recipientId], notification: toWireNotification(record) },
  };
  return {
    channel: notificationChannelOf({ userType: record.recipientType, accountId: record.recipientId }),
    event: NOTIFICATIONS_EVENT_NAME,
    data: payload,
  };
}

/** Content of a notification to create. `detail` is HTML and is sanitised here. */
export interface NotificationContent {
  type: NotificationTypeCode | string;
  title: string;
  detail: string;
  route?: string | null;
}

/** Notifications stored by {@link createNotifications}: their ids and the events to publish after commit. */
export interface CreatedNotifications {
  ids: number[];
  events: BroadcastEvent[];
}

/**
 * Stores one notification per recipient (joining the caller's transaction when `db` is one).
 * Publish `events` only after the transaction commits.
 * @throws HttpError 422 on `type` for a code missing from the catalogue, on `detail` when nothing
 *   allowed is left after sanitising.
 */
export async function createNotifications(
  db: Kysely<DB>,
  clock: Clock,
  recipients: readonly TokenOwner[],
  content: NotificationContent,
): Promise<CreatedNotifications> {
  if (recipients.length === 0) return { ids: [], events: [] };
  const detail = sanitizeDetail(content.detail);
  if (detail === '') throw validationError({ detail: [NOTIFICATION_MESSAGES.emptyDetail] });
  return inTransaction(db, async (trx) => {
    if (!(await findNotificationType(trx, content.type))) throw validationError({ type: [NOTIFICATION_MESSAGES.unknownType] });
    const createdAt = clock.now().toISOString();
    const ids = await insertNotifications(
      trx,
      recipients.map((recipient) => ({
        recipient,
        typeCode: content.type,
        title: content.title,
        detail,
        route: content.route ?? null,
        createdAt,
      })),
    );
    const records = await findNotificationsByIds(trx, ids);
    return { ids, events: records.map(notificationEvent) };
  });
}

/**
 * Rows 12–13: the caller's newest {@link NOTIFICATION_LIST_LIMIT} notifications, newest first, and
 * the count of all their unseen ones.
 */
export async function listNotifications({ db }: Pick<AppDeps, 'db'>, owner: TokenOwner): Promise<NotificationsSent> {
  const [records, unseen] = await Promise.all([listRecipientNotifications(db, owner, NOTIFICATION_LIST_LIMIT), countUnseen(db, owner)]);
  return { notification_quantity: unseen, notification: records.map(toWireNotification) };
}

/** Row 14: marks the caller's own unseen notifications among `ids` as seen; other ids are ignored. @returns how many changed. */
export function markNotificationsSeen(
  { db, clock }: Pick<AppDeps, 'db' | 'clock'>,
  owner: TokenOwner,
  ids: readonly number[],
): Promise<number> {
  return markSeen(db, owner, [...new Set(ids)], clock.now().toISOString());
}

/** Recipient accounts of an admin notification: explicit ids (must all exist) or active staff holding a permission. */
async function resolveRecipients(db: Kysely<DB>, recipients: SendNotificationRequest['recipients']): Promise<TokenOwner[]> {
  if ('permission' in recipients) {
    const ids = await activeStaffWithPermissions(db, [recipients.permission]);
    return ids.map((accountId) => ({ userType: 'COLLABORATOR', accountId }));
  }
  const wanted = [...new Set(recipients.ids)];
  const userType: AccountType = recipients.user_type;
  const found = await existingAccountIds(db, userType, wanted);
  const missing = wanted.filter((id) => !found.includes(id));
  if (missing.length > 0) {
    throw validationError({ 'recipients.ids': [`${NOTIFICATION_MESSAGES.unknownRecipients}: ${missing.join(', ')}`] });
  }
  return found.map((accountId) => ({ userType, accountId }));
}

/**
 * POST /api/notifications (admin): stores the notification for every recipient in one transaction,
 * then publishes the realtime events.
 * @returns how many accounts were notified and the new notification ids.
 * @throws HttpError 422 for unknown recipients, an unknown type or a detail with no allowed content.
 */
export async function sendNotification(deps: AppDeps, body: SendNotificationRequest): Promise<{ recipients: number; ids: number[] }> {
  const created = await inTransaction(deps.db, async (trx) => {
    const recipients = await resolveRecipients(trx, body.recipients);
    const { ids, events } = await createNotifications(trx, deps.clock, recipients, {
      type: body.type,
      title: body.title,
      detail: body.detail,
      route: body.route ?? null,
    });
    return { recipients: recipients.length, ids, events };
  });
  deps.broadcaster.publish(created.events);
  return { recipients: created.recipients, ids: created.ids };
}

/**
 * "Contraseña actualizada" for the account whose password changed (rows 6 and 15); call inside the
 * password transaction and publish the events after it commits.
 */
export function notifyPasswordChanged(db: Kysely<DB>, clock: Clock, owner: TokenOwner): Promise<CreatedNotifications> {
  const now = clock.now().toISOString();
  return createNotifications(db, clock, [owner], {
    type: 'SECURITY',
    title: NOTIFICATION_TEXTS.passwordChangedTitle,
    detail: `<p>Su contraseña se cambió el ${formatDate(now)} a las ${formatLimaTime(now)}. Si no fue usted, comuníquese con el administrador.</p>`,
    route: null,
  });
}

/**
 * "Nuevo cliente registrado" for every active staff user holding {@link NEW_CUSTOMER_AUDIENCE}
 * (row 1); call inside the registration transaction and publish the events after it commits.
 */
export async function notifyNewCustomer(
  db: Kysely<DB>,
  clock: Clock,
  customer: { name: string; surname: string; documentNumber: string },
): Promise<CreatedNotifications> {
  const staffIds = await activeStaffWithPermissions(db, NEW_CUSTOMER_AUDIENCE);
  const fullName = escapeHtml(`${customer.name} ${customer.surname}`);
  return createNotifications(
    db,
    clock,
    staffIds.map((accountId) => ({ userType: 'COLLABORATOR', accountId })),
    {
      type: 'CUSTOMER',
      title: NOTIFICATION_TEXTS.newCustomerTitle,
      detail: `<p><b>${fullName}</b> se registró en el portal de clientes con el documento ${escapeHtml(customer.documentNumber)}.</p>`,
      route: AUTH_ROUTES.clientes.path,
    },
  );
}
