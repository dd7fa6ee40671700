import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Clock } from '../../clock';
import { DAY_MS } from '../../clock';
import type { DB } from '../../db/database';
import type { Broadcaster } from '../../realtime/broadcaster';
import { PollingJob } from '../../platform/polling-job';
import { dueReservationIds, reservationsToRemind } from './reservations.repository';
import { expireReservation, remindReservation } from './reservations.service';
import { endDueLotHolds } from '../proyectos/lot-holds.service';

/**
 * The reservations' expiry job (issue "CRM and sales"). Its queue is the database itself — each
 * live reservation's `expires_at` — so it survives restarts: a reservation due while the server was
 * down expires on the first pass after it starts. Every pass expires what is due (lot freed, agent
 * notified) and sends the "vence mañana" reminders; each reservation is ended by one conditional
 * UPDATE, so with two server processes on one PostgreSQL database it happens once. The timer and
 * the run in flight are server/platform/polling-job.ts's. Each pass also ends the lot holds whose end
 * date passed (server/modules/proyectos/lot-holds.service.ts `endDueLotHolds`).
 */

/** Timing and bounds. */
export const RESERVATION_EXPIRY = {
  /** How often a pass runs (ms). */
  pollMs: 60_000,
  /** Reservations handled per pass (a full batch starts another pass at once). */
  batch: 50,
  /** "Vence mañana": reminded when it expires within this (ms). */
  remindBeforeMs: DAY_MS,
} as const;

/** Counts of one pass. */
export interface ExpiryPass {
  expired: number;
  reminded: number;
  /** Lot holds ended (their end date passed; docs/domain.md "Lot holds"). */
  holdsEnded: number;
}

export class ReservationExpiry extends PollingJob {
  constructor(private readonly deps: { db: Kysely<DB>; clock: Clock; broadcaster: Broadcaster; log: Pick<FastifyBaseLogger, 'error'> }) {
    super(RESERVATION_EXPIRY.pollMs, 'reservation expiry pass failed', deps.log);
  }

  /** Runs passes until one handles less than a batch (everything due at the clock's now is done). */
  async runUntilDone(): Promise<void> {
    let pass: ExpiryPass;
    do pass = await this.runPass();
    while (
      !this.stopped &&
      (pass.expired >= RESERVATION_EXPIRY.batch || pass.reminded >= RESERVATION_EXPIRY.batch || pass.holdsEnded >= RESERVATION_EXPIRY.batch)
    );
  }

  /**
   * One pass at the clock's now: expires up to a batch of due reservations and reminds up to a
   * batch of those expiring within a day; publishes their notifications after each commit.
   */
  async runPass(): Promise<ExpiryPass> {
    const { db, clock, broadcaster } = this.deps;
    const now = clock.now();
    const pass: ExpiryPass = { expired: 0, reminded: 0, holdsEnded: 0 };
    for (const id of await dueReservationIds(db, now.toISOString(), RESERVATION_EXPIRY.batch)) {
      // Empty when another process expired it first.
      broadcaster.publish((await expireReservation(db, clock, id)).events);
      pass.expired += 1;
    }
    const until = new Date(now.getTime() + RESERVATION_EXPIRY.remindBeforeMs).toISOString();
    for (const id of await reservationsToRemind(db, now.toISOString(), until, RESERVATION_EXPIRY.batch)) {
      broadcaster.publish((await remindReservation(db, clock, id)).events);
      pass.reminded += 1;
    }
    pass.holdsEnded = await endDueLotHolds(db, clock, RESERVATION_EXPIRY.batch);
    return pass;
  }
}
