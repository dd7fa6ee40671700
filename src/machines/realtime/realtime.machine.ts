import { assign, fromCallback, setup } from 'xstate';
import type { NotificationsMessageEvent, PermissionsChangedEvent } from '../../schemas/notification';
import type { Channels, EchoInfo, UserType } from '../../schemas/session';
import type { DashboardChangedEvent } from '../../schemas/inicio/dashboard';

/**
 * The `realtime` machine (issue "Shell"; docs/product.md §3 echo_info/channels, §4 "Realtime connection is set
 * up 5 seconds after the top bar appears; skipped if connection info or channels are missing in
 * storage", §9 5000 ms). States, in pusher-js's words once live:
 *   idle → (top bar appears) → waiting 5 s → live.connecting → live.connected | live.unavailable,
 *   failed (pusher-js gave up: no WebSocket support or the host refuses), skipped (no credentials).
 * Leaving `live` (logout, `realtime.stop`) disconnects. Pushes of NotificationsMessageEvent are
 * handed to the injected `deliver` action (the notifications machine); pushes of
 * PermissionsChangedEvent (same channel, src/schemas/configuracion/roles.ts) to the injected `permissionsChanged`
 * action (the session, which refetches the permissions and rebuilds the menu); pushes of
 * DashboardChanged (src/schemas/inicio/dashboard.ts) to the injected `dashboardChanged` action (the
 * app hands them to Inicio's dashboard, which refreshes the cards named).
 */

/** Delay between the top bar appearing and the connection (docs/product.md §9). */
export const REALTIME_DELAY_MS = 5000;

/** What the connection needs: the stored echo_info and channels, the user and their token. */
export interface RealtimeInput {
  echoInfo: EchoInfo | null;
  channels: Channels | null;
  userType: UserType | null;
  token: string | null;
}

/** pusher-js connection states (pusher-js README "Connection States"). */
export type PusherState = 'initialized' | 'connecting' | 'connected' | 'unavailable' | 'failed' | 'disconnected';

export type RealtimeEvent =
  | { type: 'realtime.start' }
  | { type: 'realtime.stop' }
  | { type: 'pusher.stateChanged'; state: PusherState }
  /** A NotificationsMessageEvent payload, parsed by the connection (./realtime-events.ts). */
  | { type: 'realtime.pushed'; payload: NotificationsMessageEvent }
  /** A PermissionsChangedEvent payload (`{user_id, changed_at}`), parsed by the connection. */
  | { type: 'realtime.permissionsChanged'; payload: PermissionsChangedEvent }
  /** A DashboardChanged payload (`{cards}`: the cards whose figures moved), parsed by the connection. */
  | { type: 'realtime.dashboardChanged'; payload: DashboardChangedEvent }
  /** The channel authorisation (POST /broadcasting/auth, made by pusher-js) was refused with `status`. */
  | { type: 'realtime.authRefused'; status: number };

/** The channel this user listens on (docs/product.md §6: staff and customers have their own). */
export function channelFor(input: RealtimeInput): string | null {
  if (!input.channels) return null;
  return input.userType === 'CUSTOMER'
    ? input.channels['administration.notifications_customers'].channel
    : input.channels['administration.notifications'].channel;
}

export const realtimeMachine = setup({
  types: {
    context: {} as RealtimeInput & { lastState: PusherState | null },
    events: {} as RealtimeEvent,
    input: {} as RealtimeInput,
  },
  delays: { connectionDelay: REALTIME_DELAY_MS },
  actions: {
    /** Hands a pushed NotificationsMessageEvent payload on (to the notifications machine). */
    deliver: (_, _payload: NotificationsMessageEvent) => {},
    /** Hands a pushed PermissionsChangedEvent payload on (to the session). */
    permissionsChanged: (_, _payload: PermissionsChangedEvent) => {},
    /** Hands a pushed DashboardChanged payload on (to whoever subscribed: Inicio's dashboard). */
    dashboardChanged: (_, _payload: DashboardChangedEvent) => {},
    /** A refused channel authorisation goes to the session's global check (docs/product.md §7: 401 → /auth/access). */
    authRefused: (_, _status: number) => {},
    /**
     * The connection is up (first time or again): what was pushed before it was not received, so the
     * injected action has the notifications read again.
     */
    connected: () => {},
    recordState: assign({ lastState: ({ event }) => (event.type === 'pusher.stateChanged' ? event.state : null) }),
  },
  actors: {
    /**
     * The live connection (laravel-echo over pusher-js in the app): reports `pusher.stateChanged`,
     * `realtime.pushed`, `realtime.permissionsChanged` and `realtime.dashboardChanged`, and
     * disconnects when stopped.
     */
    connection: fromCallback<RealtimeEvent, RealtimeInput>(() => () => {}),
  },
  guards: {
    hasCredentials: ({ context }) => context.echoInfo !== null && channelFor(context) !== null && context.token !== null,
    is: ({ event }, params: { state: PusherState }) => event.type === 'pusher.stateChanged' && event.state === params.state,
  },
}).createMachine({
  id: 'realtime',
  context: ({ input }) => ({ ...input, lastState: null }),
  initial: 'idle',
  on: { 'realtime.stop': '.idle' },
  states: {
    idle: {
      on: {
        'realtime.start': [{ guard: 'hasCredentials', target: 'waiting' }, { target: 'skipped' }],
      },
    },
    /** No echo_info or channels in storage: nothing to connect to (docs/product.md §4). */
    skipped: {},
    waiting: {
      after: { connectionDelay: 'live' },
    },
    live: {
      invoke: { src: 'connection', input: ({ context }) => context },
      initial: 'connecting',
      on: {
        'pusher.stateChanged': [
          { guard: { type: 'is', params: { state: 'connected' } }, target: '.connected', actions: 'recordState' },
          { guard: { type: 'is', params: { state: 'unavailable' } }, target: '.unavailable', actions: 'recordState' },
          { guard: { type: 'is', params: { state: 'connecting' } }, target: '.connecting', actions: 'recordState' },
          { guard: { type: 'is', params: { state: 'failed' } }, target: 'failed', actions: 'recordState' },
          { actions: 'recordState' },
        ],
        'realtime.pushed': { actions: { type: 'deliver', params: ({ event }) => event.payload } },
        'realtime.permissionsChanged': { actions: { type: 'permissionsChanged', params: ({ event }) => event.payload } },
        'realtime.dashboardChanged': { actions: { type: 'dashboardChanged', params: ({ event }) => event.payload } },
        'realtime.authRefused': {
          actions: {
            type: 'authRefused',
            params: ({ event }: { event: RealtimeEvent }) => (event.type === 'realtime.authRefused' ? event.status : 0),
          },
        },
      },
      states: {
        connecting: {},
        connected: { entry: 'connected' },
        /** pusher-js keeps retrying from here. */
        unavailable: {},
      },
    },
    failed: {},
  },
});

export type RealtimeMachine = typeof realtimeMachine;
