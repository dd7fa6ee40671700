import { z } from 'zod';
import type { PusherConfig } from '../config';
import type { TokenOwner } from '../auth/tokens';
import { forbidden } from '../errors';
import { CUSTOMER_CHANNEL, STAFF_CHANNEL } from './realtime-credentials.service';
import type { ChannelHub } from './hub';
import { CHANNEL_NAME } from './pusher-protocol';
import { channelAuthSignature, verifyTriggerRequest, type SignedRequest, type TriggerRejection } from './signatures';

/** Channel authorisation and the trigger API of the built-in Pusher-compatible service. */

/** Pusher's prefix of private channels (laravel-echo adds it to the names of docs/product.md §7 row 3). */
export const PRIVATE_PREFIX = 'private-';

/**
 * The private notifications channel of an account: `private-administration.notifications.{staffId}`
 * for staff, `private-administration.notifications_customers.{customerId}` for customers (row 3
 * returns the same names without the prefix).
 */
export function notificationChannelOf(owner: TokenOwner): string {
  const base = owner.userType === 'COLLABORATOR' ? STAFF_CHANNEL : CUSTOMER_CHANNEL;
  return `${PRIVATE_PREFIX}${base}.${owner.accountId}`;
}

/**
 * Signs a private-channel subscription for the caller (POST /broadcasting/auth): only the caller's
 * own notifications channel ({@link notificationChannelOf}).
 * @returns `{ auth: "<key>:<signature>" }`.
 * @throws HttpError 403 for any other channel.
 */
export function authorizeChannel(
  pusher: PusherConfig,
  caller: TokenOwner,
  request: { socket_id: string; channel_name: string },
): { auth: string } {
  if (request.channel_name !== notificationChannelOf(caller)) throw forbidden();
  return { auth: channelAuthSignature(pusher.key, pusher.secret, request.socket_id, request.channel_name) };
}

/** Event fields common to /events and /batch_events (Pusher HTTP API); unknown fields are ignored. */
const eventBase = {
  name: z.string().min(1).max(200),
  /** Pusher limits event data to 10 KB; this server allows a little more. */
  data: z.string().max(32 * 1024),
  socket_id: z.string().optional(),
  info: z.string().optional(),
};
const channelName = z.string().regex(CHANNEL_NAME);

/** Body of POST /apps/:appId/events: one event for 1–100 channels (`channels`, or `channel`). */
export const triggerEventSchema = z
  .object({ ...eventBase, channels: z.array(channelName).min(1).max(100).optional(), channel: channelName.optional() })
  .refine((e) => e.channels !== undefined || e.channel !== undefined, { message: 'channels is required' });
/** Body of POST /apps/:appId/batch_events: 1–10 events, each for one channel. */
export const triggerBatchSchema = z.object({
  batch: z
    .array(z.object({ ...eventBase, channel: channelName }))
    .min(1)
    .max(10),
});

/** Outcome of a trigger request. */
export type TriggerOutcome =
  { status: 200; delivered: number } | { status: 400; message: string } | { status: 401; reason: TriggerRejection } | { status: 404 };

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Handles a trigger-API request (POST /apps/:appId/events or /batch_events): 404 for another app
 * id, 401 when the request signature does not verify (see `verifyTriggerRequest`), 400 for a body
 * that is not a valid event (batch), else delivers every event to the channel's subscribers (but
 * the `socket_id` excluded).
 * @param nowMs real epoch milliseconds (the signer stamps requests with its real clock).
 */
export function handleTrigger(
  pusher: PusherConfig,
  hub: ChannelHub,
  request: SignedRequest & { appId: string; batch: boolean },
  nowMs: number,
): TriggerOutcome {
  if (request.appId !== pusher.appId) return { status: 404 };
  const rejection = verifyTriggerRequest(request, pusher.key, pusher.secret, nowMs);
  if (rejection) return { status: 401, reason: rejection };

  const body = parseJson(request.body);
  const messages: { event: string; channel: string; data: string; except?: string }[] = [];
  if (request.batch) {
    const parsed = triggerBatchSchema.safeParse(body);
    if (!parsed.success) return { status: 400, message: 'Invalid batch' };
    for (const e of parsed.data.batch) messages.push({ event: e.name, channel: e.channel, data: e.data, except: e.socket_id });
  } else {
    const parsed = triggerEventSchema.safeParse(body);
    if (!parsed.success) return { status: 400, message: 'Invalid event' };
    const e = parsed.data;
    for (const channel of new Set(e.channels ?? (e.channel ? [e.channel] : []))) {
      messages.push({ event: e.name, channel, data: e.data, except: e.socket_id });
    }
  }
  let delivered = 0;
  for (const m of messages) delivered += hub.deliver({ event: m.event, channel: m.channel, data: m.data }, m.except);
  return { status: 200, delivered };
}
