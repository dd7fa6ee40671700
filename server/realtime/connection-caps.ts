/**
 * Caps on open realtime WebSockets (issue 11 item 5: 21 000 idle sockets from one address
 * exhausted the server's file descriptors). One counter per client address plus a global one;
 * both in memory, for this process.
 */

/** Why a connection was refused. */
export type CapRefusal = 'perIp' | 'global';

/** Counts open connections per client address and in all; see the module comment. */
export class ConnectionCaps {
  private readonly perIp = new Map<string, number>();
  private total = 0;

  /**
   * @param maxTotal most sockets open at once (≥ 1).
   * @param maxPerIp most sockets open at once from one client address (`request.ip`, so behind a
   *   proxy TRUST_PROXY must be set or every client shares one count).
   */
  constructor(
    private readonly maxTotal: number,
    private readonly maxPerIp: number,
  ) {}

  /** Open connections in all. */
  get size(): number {
    return this.total;
  }

  /**
   * Takes a place for a new connection from `ip`.
   * @returns a release function to call exactly once when the socket closes (later calls do
   *   nothing), or the refusal when a cap is reached (nothing taken).
   */
  acquire(ip: string): { release: () => void } | { refused: CapRefusal } {
    const fromIp = this.perIp.get(ip) ?? 0;
    if (fromIp >= this.maxPerIp) return { refused: 'perIp' };
    if (this.total >= this.maxTotal) return { refused: 'global' };
    this.perIp.set(ip, fromIp + 1);
    this.total += 1;
    let released = false;
    return {
      release: () => {
        if (released) return;
        released = true;
        this.total -= 1;
        const left = (this.perIp.get(ip) ?? 1) - 1;
        if (left <= 0) this.perIp.delete(ip);
        else this.perIp.set(ip, left);
      },
    };
  }
}
