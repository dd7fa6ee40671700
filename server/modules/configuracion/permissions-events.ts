import { PERMISSIONS_CHANGED_EVENT, type PermissionsChangedEvent } from '../../../src/schemas/configuracion/roles';
import type { Clock } from '../../clock';
import type { BroadcastEvent } from '../../realtime/broadcaster';
import { notificationChannelOf } from '../../realtime/realtime.service';

/**
 * `PermissionsChangedEvent` for each staff user, on their private notifications channel (the one
 * the web app already subscribes to). Publish after the transaction that changed the permissions
 * commits; the guard reads permissions per request, so the change applies to the next request anyway.
 */
export function permissionsChangedEvents(userIds: readonly number[], clock: Clock): BroadcastEvent[] {
  const changedAt = clock.now().toISOString();
  return userIds.map((userId) => {
    const data: PermissionsChangedEvent = { user_id: userId, changed_at: changedAt };
    return { channel: notificationChannelOf({ userType: 'COLLABORATOR', accountId: userId }), event: PERMISSIONS_CHANGED_EVENT, data };
  });
}
