import type { Kysely } from 'kysely';
import type { AppConfig } from './config';
import type { Clock } from './clock';
import type { DB } from './db/database';
import type { AttemptLimiter } from './auth/attempt-limiter';
import type { Broadcaster } from './realtime/broadcaster';
import type { BackgroundWork } from './platform/background';
import type { OpaqueIds } from './ids';
import type { ImportCheckPool } from './modules/proyectos/lot-import/check-pool';
import type { PasswordWork } from './auth/password-queue';
import type { OutboxDelivery } from './platform/outbox-delivery';
import type { WorkerPool } from './platform/worker-pool';

/**
 * What every route plugin receives: the database, the clock, the configuration, the in-memory
 * limiters and the realtime broadcaster.
 */
export interface AppDeps {
  db: Kysely<DB>;
  clock: Clock;
  config: AppConfig;
  limiters: {
    /**
     * Failed logins per account + client address, or per identifier when no account matches
     * (LOGIN_RATE_LIMIT_PER_ACCOUNT per 15 min).
     */
    login: AttemptLimiter;
    /** Failed logins per account from every address together (10 × LOGIN_RATE_LIMIT_PER_ACCOUNT per 15 min). */
    loginAccountCeiling: AttemptLimiter;
    /** Reset requests per user type + DNI (same numbers). */
    resetRequest: AttemptLimiter;
    /** Wrong current passwords on a password change, per account (LOGIN_RATE_LIMIT_PER_ACCOUNT per 15 min). */
    changePasswordAccount: AttemptLimiter;
    /** The same per session token (half as many): one stolen session gets few guesses. */
    changePasswordToken: AttemptLimiter;
  };
  /** Publishes realtime events (notifications) after their transaction commits; never throws. */
  broadcaster: Broadcaster;
  /** Opaque route ids (subdivision keys), from `config.idAlphabet`. */
  ids: OpaqueIds;
  /** Lot-import parse + check off the event loop, with a time budget (issue 11 item 1). */
  importChecks: ImportCheckPool;
  /** PDFs, spreadsheet exports and SVG logos off the event loop (server/platform/documents.ts). */
  documents: WorkerPool;
  /** Bounded lanes for scrypt work (issue 11 item 4). */
  passwordWork: PasswordWork;
  /** Work started by a request and finished after its answer (e-mails of reset requests; issue 11 item 12). */
  background: BackgroundWork;
  /** Sends the outbox's e-mail over SMTP (issue 11 item 10); `kick()` after a transaction that queued one. */
  outbox: OutboxDelivery;
}
