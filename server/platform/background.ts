import type { FastifyBaseLogger } from 'fastify';

/**
 * Work a request starts but does not wait for (issue 11 item 12: a reset request for a known DNI
 * queued its e-mail inline and answered measurably later than one for an unknown DNI, telling
 * which documents have accounts). The request answers first; the work runs right after, its failure
 * logged (never thrown at the caller). `settled()` waits for everything started so far: the server
 * does before it closes, and so does GET /dev/outbox, so tests and developers see the e-mail.
 */
export class BackgroundWork {
  private readonly pending = new Set<Promise<void>>();

  constructor(private readonly log: Pick<FastifyBaseLogger, 'error'>) {}

  /** Starts `work` after the current request's own work (a macrotask later). */
  run(what: string, work: () => Promise<unknown>): void {
    const task: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .then(
        () => undefined,
        (error: unknown) => this.log.error({ err: error }, `${what} failed`),
      )
      .finally(() => this.pending.delete(task));
    this.pending.add(task);
  }

  /** Resolves once every task started so far (and any they started) has finished. */
  async settled(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
