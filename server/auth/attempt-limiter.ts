import type { Clock } from '../clock';

/**
 * Counts attempts per key in fixed windows, in memory (per process). Used for the per-account
 * login limit and the per-DNI reset-request limit, which @fastify/rate-limit (keyed by IP before
 * the body is read) cannot express.
 */
export class AttemptLimiter {
  private readonly windows = new Map<string, { startedAt: number; count: number }>();

  /**
   * @param max attempts allowed per window; the next one is refused.
   * @param windowMs window length in milliseconds, starting at the key's first attempt.
   * @param clock injected time source.
   */
  constructor(
    private readonly max: number,
    private readonly windowMs: number,
    private readonly clock: Clock,
  ) {}

  private live(key: string) {
    const entry = this.windows.get(key);
    if (entry && this.clock.now().getTime() - entry.startedAt >= this.windowMs) {
      this.windows.delete(key);
      return undefined;
    }
    return entry;
  }

  /** True when `key` used up its attempts in the current window. */
  isBlocked(key: string): boolean {
    return (this.live(key)?.count ?? 0) >= this.max;
  }

  /** Records one attempt for `key`. */
  hit(key: string): void {
    const entry = this.live(key);
    if (entry) entry.count += 1;
    else {
      if (this.windows.size >= 50_000) this.sweep();
      this.windows.set(key, { startedAt: this.clock.now().getTime(), count: 1 });
    }
  }

  /** Forgets `key` (e.g. after a successful login). */
  reset(key: string): void {
    this.windows.delete(key);
  }

  private sweep(): void {
    for (const key of [...this.windows.keys()]) this.live(key);
  }
}

/** Limiter key of an account identifier: user type plus the trimmed, lower-cased identifier. */
export function accountKey(userType: string, identifier: string): string {
  return `${userType}:${identifier.trim().toLowerCase()}`;
}
