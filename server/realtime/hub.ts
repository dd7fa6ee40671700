/**
 * In-memory registry of the WebSocket connections of this process and their channel
 * subscriptions (docs/architecture.md). One process only: several server instances
 * behind a load balancer need an external Pusher-compatible service instead (PUSHER_HOST).
 */

/** Most channels one connection may subscribe to. */
export const MAX_CHANNELS_PER_CONNECTION = 100;

/** A connected client as the hub sees it. */
export interface HubConnection {
  /** Pusher socket id, '<digits>.<digits>'. */
  readonly socketId: string;
  /** Sends one text frame (a JSON-encoded Pusher message). */
  send(message: string): void;
}

/** A Pusher event as delivered to a subscriber. */
export interface ChannelMessage {
  event: string;
  channel: string;
  /** Event data exactly as triggered (a string, usually JSON). */
  data: string;
}

/** Connections and subscriptions; every method is synchronous and never throws on unknown ids. */
export class ChannelHub {
  private readonly connections = new Map<string, HubConnection>();
  private readonly subscriptions = new Map<string, Set<string>>();
  private readonly members = new Map<string, Set<string>>();

  /** Number of open connections. */
  get size(): number {
    return this.connections.size;
  }

  /** True when a connection with this socket id is registered. */
  has(socketId: string): boolean {
    return this.connections.has(socketId);
  }

  /** Registers a new connection. @throws Error when the socket id is already taken. */
  add(connection: HubConnection): void {
    if (this.connections.has(connection.socketId)) throw new Error('duplicate socket id');
    this.connections.set(connection.socketId, connection);
    this.subscriptions.set(connection.socketId, new Set());
  }

  /** Forgets a connection and all its subscriptions. */
  remove(socketId: string): void {
    for (const channel of this.subscriptions.get(socketId) ?? []) this.leave(socketId, channel);
    this.subscriptions.delete(socketId);
    this.connections.delete(socketId);
  }

  /**
   * Subscribes a connection to a channel (idempotent).
   * @returns false when the connection is unknown or already holds {@link MAX_CHANNELS_PER_CONNECTION} other channels.
   */
  subscribe(socketId: string, channel: string): boolean {
    const held = this.subscriptions.get(socketId);
    if (!held) return false;
    if (held.has(channel)) return true;
    if (held.size >= MAX_CHANNELS_PER_CONNECTION) return false;
    held.add(channel);
    let set = this.members.get(channel);
    if (!set) this.members.set(channel, (set = new Set()));
    set.add(socketId);
    return true;
  }

  /** Unsubscribes a connection from a channel (no-op when not subscribed). */
  unsubscribe(socketId: string, channel: string): void {
    this.subscriptions.get(socketId)?.delete(channel);
    this.leave(socketId, channel);
  }

  /** Channels a connection is subscribed to (empty for unknown ids). */
  channelsOf(socketId: string): string[] {
    return [...(this.subscriptions.get(socketId) ?? [])];
  }

  /**
   * Sends `{event, channel, data}` to every subscriber of `channel` except `exceptSocketId`.
   * A subscriber whose send fails is skipped (its close handler removes it).
   * @returns how many connections it was sent to.
   */
  deliver(message: ChannelMessage, exceptSocketId?: string): number {
    const frame = JSON.stringify({ event: message.event, channel: message.channel, data: message.data });
    let sent = 0;
    for (const socketId of this.members.get(message.channel) ?? []) {
      if (socketId === exceptSocketId) continue;
      try {
        this.connections.get(socketId)?.send(frame);
        sent += 1;
      } catch {
        // The socket is closing; its close handler unregisters it.
      }
    }
    return sent;
  }

  private leave(socketId: string, channel: string): void {
    const set = this.members.get(channel);
    if (!set) return;
    set.delete(socketId);
    if (set.size === 0) this.members.delete(channel);
  }
}
