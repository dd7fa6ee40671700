import type { RealtimeCredentials } from '../../src/schemas/session';
import type { PusherConfig } from '../config';
import type { TokenOwner } from '../auth/tokens';

/** Realtime connection info and channel names (docs/product.md §3 echo_info/channels, docs/product.md §7 row 3). */

/** Endpoint that authorises private channels (the realtime module serves it). */
export const BROADCASTING_AUTH_ENDPOINT = '/broadcasting/auth';
/** Channel prefix of staff notifications (docs/product.md §3 channels). */
export const STAFF_CHANNEL = 'administration.notifications';
/** Channel prefix of customer notifications (docs/product.md §3 channels). */
export const CUSTOMER_CHANNEL = 'administration.notifications_customers';

/**
 * Builds the credentials for a caller: laravel-echo's pusher options from the configuration, and
 * both notification channels, suffixed with the caller's id on the channel of its own type and
 * with 0 on the other.
 */
export function realtimeCredentials(pusher: PusherConfig, caller: TokenOwner): RealtimeCredentials {
  const tls = pusher.scheme === 'https';
  const staffId = caller.userType === 'COLLABORATOR' ? caller.accountId : 0;
  const customerId = caller.userType === 'CUSTOMER' ? caller.accountId : 0;
  return {
    echo_info: {
      broadcaster: 'pusher',
      key: pusher.key,
      cluster: pusher.cluster,
      encrypted: tls,
      wsHost: pusher.host,
      wsPort: pusher.port,
      forceTLS: tls,
      authEndpoint: BROADCASTING_AUTH_ENDPOINT,
    },
    channels: {
      [STAFF_CHANNEL]: { channel: `${STAFF_CHANNEL}.${staffId}` },
      [CUSTOMER_CHANNEL]: { channel: `${CUSTOMER_CHANNEL}.${customerId}` },
    },
  };
}
