import type { Kysely } from 'kysely';
import { DASHBOARD_CHANGED_EVENT, type DashboardCardId, type DashboardChangedEvent } from '../../../src/schemas/inicio/dashboard';
import type { DB } from '../../db/database';
import type { BroadcastEvent, Broadcaster } from '../../realtime/broadcaster';
import { notificationChannelOf } from '../../realtime/realtime.service';

/**
 * Realtime "DashboardChanged" (docs/dashboard.md "Realtime: DashboardChanged"): after a sale or a
 * payment changes the figures, every active staff user's private notifications channel (the one the
 * web app already subscribes to) gets {@link DASHBOARD_CHANGED_EVENT} with the cards whose figures
 * moved, and Inicio reloads those. Published after the transaction commits, never inside it (a
 * rolled-back change publishes nothing); a failure to publish never fails the change.
 */

/** Which cards each change moves. */
export const DASHBOARD_CARDS_MOVED = {
  /** A payment registered PENDIENTE (office or portal). */
  paymentRegistered: ['payments-review'],
  /** A payment approved: money in, instalments paid, late customers, commissions accrued. */
  paymentApproved: ['collections', 'overdue', 'payments-review', 'due-soon', 'late-customers', 'commissions'],
  /** A payment rejected: only the review queue. */
  paymentRejected: ['payments-review'],
  /** A sale registered: its lot, schedule, commissions, the reservation it converts and the leads it concludes. */
  saleCreated: [
    'sales',
    'top-agents',
    'lots',
    'collections',
    'overdue',
    'due-soon',
    'late-customers',
    'expiring-reservations',
    'commissions',
    'leads',
    'follow-ups',
  ],
  /** A sale annulled or resolved: it leaves the sales, its lot is free, its instalments and commissions go. */
  saleEnded: ['sales', 'top-agents', 'lots', 'collections', 'overdue', 'due-soon', 'late-customers', 'commissions', 'payments-review'],
} as const satisfies Record<string, readonly DashboardCardId[]>;

/** The ids of the active staff users (`users.status` ACTIVO): the only recipients, however many customers there are. */
export async function activeStaffIds(db: Kysely<DB>): Promise<number[]> {
  const rows = await db.selectFrom('users').select('id').where('status', '=', 'ACTIVO').orderBy('id').execute();
  return rows.map((r) => r.id);
}

/** One {@link DASHBOARD_CHANGED_EVENT} per staff user, on their private notifications channel. */
export function dashboardChangedEvents(userIds: readonly number[], cards: readonly DashboardCardId[]): BroadcastEvent[] {
  const data: DashboardChangedEvent = { cards: [...cards] };
  return userIds.map((userId) => ({
    channel: notificationChannelOf({ userType: 'COLLABORATOR', accountId: userId }),
    event: DASHBOARD_CHANGED_EVENT,
    data,
  }));
}

/**
 * Publishes {@link dashboardChangedEvents} to every active staff user. Call after the change's
 * transaction committed; without a broadcaster (the demo seed, scripts) it does nothing. Errors are
 * swallowed: the change stands, the screens refresh on their next load.
 */
export async function publishDashboardChanged(
  deps: { db: Kysely<DB>; broadcaster?: Broadcaster },
  cards: readonly DashboardCardId[],
): Promise<void> {
  if (!deps.broadcaster) return;
  try {
    deps.broadcaster.publish(dashboardChangedEvents(await activeStaffIds(deps.db), cards));
  } catch {
    // A broadcast never fails the request (server/realtime/broadcaster.ts).
  }
}
