import type { FastifyBaseLogger } from 'fastify';

/**
 * A job whose queue is the database itself (the reservations' expiry, the daily late-fee job): a
 * timer kicks a run every `pollMs` (unref'd: it never keeps the process alive), a run is never
 * started while one is in flight, a failed run is logged and the next kick tries again, and
 * `stop()` cancels the timer and waits for the run in flight. Subclasses write `runUntilDone()`
 * and check `stopped` between their passes.
 */
export abstract class PollingJob {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  /** Set by {@link stop}: a run in flight ends after its current pass. */
  protected stopped = false;

  /**
   * @param pollMs milliseconds between kicks.
   * @param failure the log message of a run that threw.
   */
  protected constructor(
    private readonly pollMs: number,
    private readonly failure: string,
    private readonly log: Pick<FastifyBaseLogger, 'error'>,
  ) {}

  /** Runs passes until there is nothing left to do at the clock's now. */
  abstract runUntilDone(): Promise<unknown>;

  /** Starts the timer and runs now. */
  start(): void {
    if (this.timer || this.stopped) return;
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Runs until done unless a run is in flight. */
  kick(): void {
    if (this.running || this.stopped) return;
    this.running = this.runUntilDone()
      .then(() => undefined)
      .catch((error: unknown) => this.log.error({ err: error }, this.failure))
      .finally(() => {
        this.running = null;
      });
  }

  /** Stops the timer and waits for the run in flight. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    while (this.running) await this.running;
  }
}
