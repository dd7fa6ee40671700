import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import Pusher from 'pusher';
import type { PusherConfig } from '../config';

/**
 * How the server raises realtime events (docs/architecture.md): through the official
 * `pusher` package, pointed at this server's own trigger API by default or at an external
 * Pusher-compatible service (soketi, Laravel Reverb…) when PUSHER_HOST is set.
 */

/** One event for one channel; `data` is JSON-encoded unless it is already a string. */
export interface BroadcastEvent {
  channel: string;
  event: string;
  data: unknown;
}

/** Raises events; failures are logged, never thrown (a broadcast never fails the request). */
export interface Broadcaster {
  /** Sends events in the background (call after the transaction that stored them committed). */
  publish(events: readonly BroadcastEvent[]): void;
  /** Resolves when every publish started so far has finished (app close, tests). */
  settled(): Promise<void>;
}

/** Where the trigger API is reached. */
export interface TriggerTarget {
  host: string;
  port: number;
  useTLS: boolean;
}

/** Events per request of the `pusher` package's triggerBatch (Pusher's limit). */
export const BATCH_LIMIT = 10;
/** Milliseconds before a trigger request is abandoned. */
export const TRIGGER_TIMEOUT_MS = 5_000;

/**
 * The loop-back address of a listening server (0.0.0.0 → 127.0.0.1, :: → ::1, IPv6 in brackets),
 * or null when it does not listen.
 */
export function loopbackTarget(address: AddressInfo | string | null): TriggerTarget | null {
  if (!address || typeof address === 'string') return null;
  let host = address.address;
  if (host === '0.0.0.0') host = '127.0.0.1';
  if (host === '::') host = '::1';
  if (host.includes(':')) host = `[${host}]`;
  return { host, port: address.port, useTLS: false };
}

/** The external service of the configuration, or null when the server is its own realtime service. */
export function externalTarget(pusher: PusherConfig): TriggerTarget | null {
  if (!pusher.host) return null;
  const useTLS = pusher.scheme === 'https';
  return { host: pusher.host, port: pusher.port ?? (useTLS ? 443 : 80), useTLS };
}

/** Options of {@link createPusherBroadcaster}. */
export interface PusherBroadcasterOptions {
  pusher: PusherConfig;
  /** This server's own trigger API, or null while it is not listening (then nobody can be connected). */
  selfTarget: () => TriggerTarget | null;
  log: FastifyBaseLogger;
  timeoutMs?: number;
}

/** What a failed trigger request tells the log: its HTTP status, never the URL (it carries the signature). */
function failureDetails(error: unknown): { status?: number; message: string } {
  const { status, message } = (error ?? {}) as { status?: unknown; message?: unknown };
  return { status: typeof status === 'number' ? status : undefined, message: typeof message === 'string' ? message : String(error) };
}

/**
 * A {@link Broadcaster} using the official `pusher` package (`new Pusher({ appId, key, secret,
 * host, port, useTLS })`): one `trigger` for a single event, `triggerBatch` in groups of
 * {@link BATCH_LIMIT} otherwise. Target: the external service when configured, else this server.
 */
export function createPusherBroadcaster(options: PusherBroadcasterOptions): Broadcaster {
  const inFlight = new Set<Promise<void>>();
  const { appId, key, secret } = options.pusher;

  async function send(events: readonly BroadcastEvent[]): Promise<void> {
    const target = externalTarget(options.pusher) ?? options.selfTarget();
    if (!target) {
      options.log.debug({ events: events.length }, 'Realtime broadcast skipped: the server is not listening');
      return;
    }
    const client = new Pusher({
      appId,
      key,
      secret,
      host: target.host,
      port: String(target.port),
      useTLS: target.useTLS,
      timeout: options.timeoutMs ?? TRIGGER_TIMEOUT_MS,
    });
    for (let i = 0; i < events.length; i += BATCH_LIMIT) {
      const chunk = events.slice(i, i + BATCH_LIMIT);
      const [only] = chunk;
      if (chunk.length === 1 && only) {
        await client.trigger(only.channel, only.event, only.data);
      } else {
        await client.triggerBatch(chunk.map((e) => ({ channel: e.channel, name: e.event, data: e.data })));
      }
    }
  }

  return {
    publish(events) {
      if (events.length === 0) return;
      const job = send(events)
        .catch((error: unknown) => {
          options.log.warn({ ...failureDetails(error), events: events.length }, 'Realtime broadcast failed');
        })
        .finally(() => inFlight.delete(job));
      inFlight.add(job);
    },
    async settled() {
      await Promise.all([...inFlight]);
    },
  };
}
