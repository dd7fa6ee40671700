import { HttpError } from '../errors';

/**
 * Bounded queues for password hashing (issue 11 item 4: 400 concurrent wrong password changes,
 * each a 128 MiB scrypt job on libuv's 4-thread pool, made a login take 63.7 s). Each kind of work
 * has its own lane with its own concurrency, so password changes, resets and registrations can
 * never take more than their share of the thread pool, and logins always find a free thread.
 */

/** Spanish message when a lane's queue is full (503, answered at once). */
export const PASSWORD_BUSY_MESSAGE = 'El servidor está ocupado. Inténtelo nuevamente en unos segundos.';

/** Runs at most `concurrency` jobs at once and queues at most `maxQueued`; beyond that refuses with 503. */
export class WorkQueue {
  private active = 0;
  private readonly waiting: Array<() => void> = [];

  /**
   * @param concurrency jobs running at the same time (≥ 1).
   * @param maxQueued jobs waiting for a slot; one more is refused.
   */
  constructor(
    private readonly concurrency: number,
    private readonly maxQueued: number,
  ) {}

  /**
   * Runs `job` when a slot is free.
   * @throws HttpError 503 {@link PASSWORD_BUSY_MESSAGE} at once when the queue is full; else
   *   whatever `job` throws.
   */
  async run<T>(job: () => Promise<T>): Promise<T> {
    if (this.active >= this.concurrency) {
      if (this.waiting.length >= this.maxQueued) throw new HttpError(503, PASSWORD_BUSY_MESSAGE);
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else this.active += 1;
    try {
      return await job();
    } finally {
      const next = this.waiting.shift();
      if (next)
        next(); // the slot passes to the next job
      else this.active -= 1;
    }
  }
}

/** The lanes: logins (and nothing else) on one, every other password job on the other. */
export interface PasswordWork {
  /** Login verification: 2 at once, 64 waiting. */
  login: WorkQueue;
  /** Password change (verify + hash), reset and registration hashing: 1 at once, 16 waiting. */
  account: WorkQueue;
}

/** Builds the two lanes of {@link PasswordWork} (libuv's pool has 4 threads: 2 + 1 leave one free). */
export function createPasswordWork(): PasswordWork {
  return { login: new WorkQueue(2, 64), account: new WorkQueue(1, 16) };
}
