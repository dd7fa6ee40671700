import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../clock';
import type { DB, OutboxRow } from '../db/database';
import type { Mailer } from './mailer';
import { claimOutboxMessage, dueOutboxIds, markOutboxFailure, markOutboxSent } from './outbox.repository';

/**
 * Delivery of the outbox over SMTP (issue 11 item 10). The outbox table is the durable queue: a
 * request stores its e-mail there (in its own transaction, so a rolled-back user creation sends
 * nothing) and this worker sends what is due — right after the request (`kick()`) and on a timer
 * for retries — so a mail-server outage loses nothing: the message waits, PENDING, and is retried
 * with a growing delay until it goes through, the server refuses it for good (SMTP 5xx), or
 * {@link OUTBOX_DELIVERY}.maxAttempts are spent (FAILED). Once sent (or given up) the message's
 * secret link is dropped from the database; reset tokens themselves are stored hashed only
 * (server/auth/password-reset.repository.ts).
 *
 * Safe with several server processes on one PostgreSQL database: a message is taken by one
 * conditional UPDATE (a lease, outbox.repository.ts `claimOutboxMessage`), so it is not sent twice
 * at once; a process that dies mid-send leaves it to be retried when the lease ends (at-least-once).
 */

/** Timing and bounds of the delivery (ms unless named otherwise). */
export const OUTBOX_DELIVERY = {
  /** How often the timer looks for due retries. */
  pollMs: 10_000,
  /** Messages taken per pass (a full batch starts another pass at once). */
  batch: 20,
  /** How long a taken message is reserved for its sender (longer than one SMTP exchange, mailer.ts). */
  leaseMs: 2 * 60_000,
  /** Attempts before a message is FAILED (delays 30 s, 1, 2, 4 … min, at most 1 h: ~4.5 h in all). */
  maxAttempts: 10,
  firstRetryMs: 30_000,
  maxRetryMs: 60 * 60_000,
  /** Longest failure text kept in `last_error`. */
  maxErrorLength: 500,
} as const;

/** What replaces the secret link in the stored body once the e-mail is sent, or given up. */
export const LINK_PLACEHOLDER = { sent: '[enlace enviado]', unsent: '[enlace no enviado]' } as const;

/** Delay before the next attempt after `failures` failed attempts (≥ 1): 30 s doubling, at most 1 h. */
export function retryDelayMs(failures: number): number {
  return Math.min(OUTBOX_DELIVERY.firstRetryMs * 2 ** Math.max(0, failures - 1), OUTBOX_DELIVERY.maxRetryMs);
}

/** True when the SMTP server refused the message for good (a 5xx reply): retrying cannot help. */
function isPermanent(error: unknown): boolean {
  const code = (error as { responseCode?: unknown } | null)?.responseCode;
  return typeof code === 'number' && code >= 500;
}

/** The failure as stored in `last_error`: the message only (never the SMTP URL or its credential), bounded. */
function failureText(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  return text.slice(0, OUTBOX_DELIVERY.maxErrorLength);
}

/** Counts of one pass. */
export interface DeliveryPass {
  sent: number;
  retrying: number;
  failed: number;
  /** Messages due that another process had already taken. */
  skipped: number;
}

export class OutboxDelivery {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;

  /**
   * @param deps `mailer` null = e-mail off (MAIL=off, or no SMTP_URL outside production): messages
   *   stay PENDING in the outbox (readable at /dev/outbox outside production) and nothing is sent.
   */
  constructor(
    private readonly deps: { db: Kysely<DB>; clock: Clock; mailer: Mailer | null; log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'> },
  ) {}

  /** Whether e-mail is sent at all. */
  get enabled(): boolean {
    return this.deps.mailer !== null;
  }

  /** Starts the retry timer (unref'd: it never keeps the process alive) and sends what is due now. */
  start(): void {
    if (!this.enabled || this.timer || this.stopped) return;
    this.timer = setInterval(() => this.kick(), OUTBOX_DELIVERY.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Sends what is due soon, after the caller's transaction committed; passes never overlap (a kick during one runs another after it). */
  kick(): void {
    if (!this.enabled || this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        const pass = await this.deliverDue();
        const taken = pass.sent + pass.retrying + pass.failed + pass.skipped;
        if (taken >= OUTBOX_DELIVERY.batch) this.again = true;
      } while (this.again && !this.stopped);
    })()
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'outbox delivery pass failed'))
      .finally(() => {
        this.running = null;
      });
  }

  /** Resolves once no pass is running (tests, shutdown). */
  async settled(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Stops the timer, waits for the pass in flight and closes the mailer's connections. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.settled();
    this.deps.mailer?.close();
  }

  /**
   * One pass: takes up to {@link OUTBOX_DELIVERY}.batch due messages and sends each.
   * @returns what happened to them. Never throws for a message's own failure (it is recorded).
   */
  async deliverDue(): Promise<DeliveryPass> {
    const pass: DeliveryPass = { sent: 0, retrying: 0, failed: 0, skipped: 0 };
    const { db, clock, mailer } = this.deps;
    if (!mailer) return pass;
    const now = clock.now();
    const ids = await dueOutboxIds(db, now.toISOString(), OUTBOX_DELIVERY.batch);
    for (const id of ids) {
      const leaseUntil = new Date(now.getTime() + OUTBOX_DELIVERY.leaseMs).toISOString();
      const message = await claimOutboxMessage(db, id, now.toISOString(), leaseUntil);
      if (!message) {
        pass.skipped += 1;
        continue;
      }
      pass[await this.send(mailer, message)] += 1;
    }
    return pass;
  }

  private async send(mailer: Mailer, message: OutboxRow): Promise<'sent' | 'retrying' | 'failed'> {
    const { db, clock, log } = this.deps;
    try {
      await mailer.send({ to: message.recipient, subject: message.subject, text: message.body });
    } catch (error) {
      const failures = message.attempts + 1;
      const giveUp = isPermanent(error) || failures >= OUTBOX_DELIVERY.maxAttempts;
      const retryAt = giveUp ? null : new Date(clock.now().getTime() + retryDelayMs(failures)).toISOString();
      await markOutboxFailure(db, message, { error: failureText(error), retryAt, linkPlaceholder: LINK_PLACEHOLDER.unsent });
      log.warn(
        { outboxId: message.id, attempts: failures, error: failureText(error) },
        giveUp ? 'e-mail not sent: given up' : 'e-mail not sent: will retry',
      );
      return giveUp ? 'failed' : 'retrying';
    }
    await markOutboxSent(db, message, clock.now().toISOString(), LINK_PLACEHOLDER.sent);
    log.info({ outboxId: message.id }, 'e-mail sent');
    return 'sent';
  }
}
