import Echo from 'laravel-echo';
import Pusher from 'pusher-js';
import { fromCallback } from 'xstate';
import { PERMISSIONS_CHANGED_EVENT } from '../../schemas/configuracion/roles';
import { DASHBOARD_CHANGED_EVENT } from '../../schemas/inicio/dashboard-cards';
import { apiBases } from '../../config/env';
import { echoOptionsFor } from './echo-options';
import { dashboardEventOf, notificationEventOf, permissionsEventOf } from './realtime-events';
import { channelFor, realtimeMachine, type PusherState, type RealtimeEvent, type RealtimeInput } from './realtime.machine';

/**
 * The real realtime connection (issue "Shell"): laravel-echo's pusher broadcaster over pusher-js,
 * pointed at whatever host call 3's echo_info names (this server by default; Pusher, soketi or
 * Laravel Reverb when configured). It subscribes to the user's private channel, authorising with
 * the bearer token at echo_info.authEndpoint, and listens for NotificationsMessageEvent,
 * PermissionsChangedEvent and DashboardChanged (`DASHBOARD_CHANGED_EVENT`, src/schemas/inicio/dashboard.ts).
 */

/** Event name the server broadcasts (docs/product.md §3); the leading dot skips Echo's namespace prefix. */
export const NOTIFICATION_EVENT = '.NotificationsMessageEvent';
/** The permissions-changed event (server/modules/configuracion/permissions-events.ts), without Echo's namespace. */
export const PERMISSIONS_EVENT = `.${PERMISSIONS_CHANGED_EVENT}`;
/** Echo's name of DashboardChanged (src/schemas/inicio/dashboard-cards.ts). */
export const DASHBOARD_EVENT = `.${DASHBOARD_CHANGED_EVENT}`;

/**
 * Connects, reports pusher-js state changes (`pusher.stateChanged`), notification pushes
 * (`realtime.pushed`), permission changes (`realtime.permissionsChanged`) and dashboard changes
 * (`realtime.dashboardChanged`) through `sendBack`.
 * @returns the disconnect function.
 */
export function connectEcho(input: RealtimeInput, sendBack: (event: RealtimeEvent) => void): () => void {
  const info = input.echoInfo;
  const channel = channelFor(input);
  if (!info || !channel || !input.token) {
    sendBack({ type: 'pusher.stateChanged', state: 'failed' });
    return () => {};
  }
  const echo = new Echo({
    broadcaster: 'pusher',
    ...echoOptionsFor(info, window.location, apiBases.main),
    auth: { headers: { Authorization: `Bearer ${input.token}`, Accept: 'application/json' } },
    Pusher,
  });
  const connection = echo.connector.pusher.connection;
  const onState = ({ current }: { current: PusherState }) => sendBack({ type: 'pusher.stateChanged', state: current });
  connection.bind('state_change', onState);
  echo
    .private(channel)
    // Payloads are parsed here, at the edge (./realtime-events.ts); a malformed one is dropped.
    .listen(NOTIFICATION_EVENT, (payload: unknown) => deliverParsed(notificationEventOf(payload), NOTIFICATION_EVENT, sendBack))
    .listen(PERMISSIONS_EVENT, (payload: unknown) => deliverParsed(permissionsEventOf(payload), PERMISSIONS_EVENT, sendBack))
    .listen(DASHBOARD_EVENT, (payload: unknown) => deliverParsed(dashboardEventOf(payload), DASHBOARD_EVENT, sendBack))
    // pusher-js calls /broadcasting/auth itself, outside the api client: a 401 there (the token was
    // revoked) is handed to the same global check as every other call (issue 12 item 2).
    .error((error: { status?: unknown } | null) => {
      if (typeof error?.status === 'number') sendBack({ type: 'realtime.authRefused', status: error.status });
    });
  return () => {
    connection.unbind('state_change', onState);
    echo.disconnect();
  };
}

/** Sends a parsed push on, or logs that a malformed `name` payload was dropped. */
function deliverParsed(event: RealtimeEvent | null, name: string, sendBack: (event: RealtimeEvent) => void): void {
  if (event) sendBack(event);
  else console.warn(`[realtime] ${name} malformado: se ignora`);
}

/** Connects, reports pusher-js state changes and pushes, and disconnects when stopped. */
export const echoConnection = fromCallback<RealtimeEvent, RealtimeInput>(({ input, sendBack }) => connectEcho(input, sendBack));

/**
 * The realtime machine with the real connection and its delivery targets: `deliver` gets each
 * NotificationsMessageEvent payload, `permissionsChanged` each PermissionsChangedEvent payload,
 * `dashboardChanged` each DashboardChanged payload (all parsed already, ./realtime-events.ts;
 * ignored when not given).
 */
export function createRealtimeMachine(
  deliver: (payload: unknown) => void,
  permissionsChanged: (payload: unknown) => void = () => {},
  dashboardChanged: (payload: unknown) => void = () => {},
) {
  return realtimeMachine.provide({
    actors: { connection: echoConnection },
    actions: {
      deliver: (_, payload) => deliver(payload),
      permissionsChanged: (_, payload) => permissionsChanged(payload),
      dashboardChanged: (_, payload) => dashboardChanged(payload),
    },
  });
}
