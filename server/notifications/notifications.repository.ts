import type { Kysely } from 'kysely';
import type { AccountType, DB, Instant, NotificationTypeRow } from '../db/database';
import type { TokenOwner } from '../auth/tokens';

/** SQL of notifications (`notifications`, `notification_types`). */

/** A notification row joined with its type, as the service turns it into the wire shape. */
export interface NotificationRecord {
  id: number;
  recipientType: AccountType;
  recipientId: number;
  title: string;
  detail: string;
  route: string | null;
  createdAt: Instant;
  seenAt: Instant | null;
  type: NotificationTypeRow;
}

/** A notification to insert for one recipient (detail already sanitised). */
export interface NewNotificationRow {
  recipient: TokenOwner;
  typeCode: string;
  title: string;
  detail: string;
  route: string | null;
  createdAt: Instant;
  seenAt?: Instant | null;
}

/** The type with this code. */
export function findNotificationType(db: Kysely<DB>, code: string): Promise<NotificationTypeRow | undefined> {
  return db.selectFrom('notification_types').selectAll().where('code', '=', code).executeTakeFirst();
}

/** Every type of the catalogue, in display order. */
export function listNotificationTypes(db: Kysely<DB>): Promise<NotificationTypeRow[]> {
  return db.selectFrom('notification_types').selectAll().orderBy('sort_order').orderBy('code').execute();
}

/** Inserts one notification per row. @returns the new ids, in the order of `rows`. */
export async function insertNotifications(db: Kysely<DB>, rows: readonly NewNotificationRow[]): Promise<number[]> {
  const ids: number[] = [];
  // One statement per row keeps the id ↔ row pairing explicit on both dialects.
  for (const row of rows) {
    const { id } = await db
      .insertInto('notifications')
      .values({
        recipient_type: row.recipient.userType,
        recipient_id: row.recipient.accountId,
        type_code: row.typeCode,
        title: row.title,
        detail: row.detail,
        route: row.route,
        created_at: row.createdAt,
        seen_at: row.seenAt ?? null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    ids.push(id);
  }
  return ids;
}

function recordQuery(db: Kysely<DB>) {
  return db
    .selectFrom('notifications as n')
    .innerJoin('notification_types as t', 't.code', 'n.type_code')
    .select([
      'n.id',
      'n.recipient_type',
      'n.recipient_id',
      'n.title',
      'n.detail',
      'n.route',
      'n.created_at',
      'n.seen_at',
      't.code',
      't.name',
      't.icon',
      't.color_icon',
      't.sort_order',
    ]);
}

type RecordRow = Awaited<ReturnType<ReturnType<typeof recordQuery>['execute']>>[number];

function toRecord(r: RecordRow): NotificationRecord {
  return {
    id: r.id,
    recipientType: r.recipient_type,
    recipientId: r.recipient_id,
    title: r.title,
    detail: r.detail,
    route: r.route,
    createdAt: r.created_at,
    seenAt: r.seen_at,
    type: { code: r.code, name: r.name, icon: r.icon, color_icon: r.color_icon, sort_order: r.sort_order },
  };
}

/** The notifications with these ids (any recipient), in id order. */
export async function findNotificationsByIds(db: Kysely<DB>, ids: readonly number[]): Promise<NotificationRecord[]> {
  if (ids.length === 0) return [];
  const rows = await recordQuery(db)
    .where('n.id', 'in', [...ids])
    .orderBy('n.id')
    .execute();
  return rows.map(toRecord);
}

/** A recipient's newest notifications (by creation instant, then id), at most `limit`. */
export async function listRecipientNotifications(db: Kysely<DB>, owner: TokenOwner, limit: number): Promise<NotificationRecord[]> {
  const rows = await recordQuery(db)
    .where('n.recipient_type', '=', owner.userType)
    .where('n.recipient_id', '=', owner.accountId)
    .orderBy('n.created_at', 'desc')
    .orderBy('n.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map(toRecord);
}

/** How many of a recipient's notifications are unseen. */
export async function countUnseen(db: Kysely<DB>, owner: TokenOwner): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll().as('n'))
    .where('recipient_type', '=', owner.userType)
    .where('recipient_id', '=', owner.accountId)
    .where('seen_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Marks as seen those of `ids` that belong to `owner` and are unseen; other ids are left alone.
 * @returns how many rows changed.
 */
export async function markSeen(db: Kysely<DB>, owner: TokenOwner, ids: readonly number[], at: Instant): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await db
    .updateTable('notifications')
    .set({ seen_at: at })
    .where('recipient_type', '=', owner.userType)
    .where('recipient_id', '=', owner.accountId)
    .where('seen_at', 'is', null)
    .where('id', 'in', [...ids])
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Ids of the active staff users holding every one of `permissions` through their roles, ascending. */
export async function activeStaffWithPermissions(db: Kysely<DB>, permissions: readonly string[]): Promise<number[]> {
  const wanted = [...new Set(permissions)];
  if (wanted.length === 0) return [];
  const rows = await db
    .selectFrom('users')
    .innerJoin('user_roles', 'user_roles.user_id', 'users.id')
    .innerJoin('role_permissions', 'role_permissions.role_id', 'user_roles.role_id')
    .select('users.id')
    .where('users.status', '=', 'ACTIVO')
    .where('role_permissions.permission', 'in', wanted)
    .groupBy('users.id')
    .having((eb) => eb.fn.count<number>('role_permissions.permission').distinct(), '=', wanted.length)
    .orderBy('users.id')
    .execute();
  return rows.map((r) => r.id);
}

/** Which of `ids` exist as accounts of `userType`. */
export async function existingAccountIds(db: Kysely<DB>, userType: AccountType, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const table = userType === 'COLLABORATOR' ? 'users' : 'customers';
  const rows = await db
    .selectFrom(table)
    .select('id')
    .where('id', 'in', [...ids])
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}
