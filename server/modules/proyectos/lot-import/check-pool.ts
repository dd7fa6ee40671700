import { HttpError } from '../../../errors';
import { WorkerPool } from '../../../platform/worker-pool';
import type { ImportCheckOptions } from './index';
import type { ParseResult } from './types';
import type { LeadFileResult } from '../../crm/lead-import';

/**
 * Runs the lot-import parse + check (`readImportFile`) and the lead-file parse (`readLeadFile`) on
 * worker threads of a {@link WorkerPool}, off the event loop (issue 11 item 1; docs/security.md). A
 * file that takes longer than the time budget, or needs more memory than a worker may use, becomes a
 * 422 on `file`; more waiting files than the queue holds become a fast 503. The server itself keeps
 * answering (/api/health) while files are checked.
 */

/** Spanish messages of the pool's refusals. */
export const CHECK_MESSAGES = {
  timeout: (ms: number) =>
    `El archivo tardó más de ${ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`} en comprobarse y se dejó de revisar: divídalo en archivos más pequeños o corrija las superposiciones`,
  tooComplex: 'El archivo es demasiado grande o complejo para comprobarlo: divídalo en archivos más pequeños',
  busy: 'El servidor está comprobando otros archivos. Inténtelo nuevamente en unos minutos.',
} as const;

/** Sizing of an {@link ImportCheckPool}. */
export interface ImportCheckPoolOptions {
  /** Worker threads checking files at the same time (≥ 1). */
  workers: number;
  /** Files waiting for a free worker beyond which a new one is refused with 503. */
  queueLimit: number;
  /** Time budget of one check, in ms, counted from when a loaded worker receives the file. */
  timeoutMs: number;
  /** V8 old-generation limit of each worker, in MiB (beyond it the check is a 422). */
  maxMemoryMb: number;
}

/** The refusals of a file check: 422 on `file`. */
const FILE_ERRORS = {
  onTimeout: (ms: number) => new HttpError(422, CHECK_MESSAGES.timeout(ms), { file: [CHECK_MESSAGES.timeout(ms)] }),
  onTooComplex: () => new HttpError(422, CHECK_MESSAGES.tooComplex, { file: [CHECK_MESSAGES.tooComplex] }),
};

/** Pool of lot-import check workers; see the module comment. Workers start on first use. */
export class ImportCheckPool {
  private readonly pool: WorkerPool;

  constructor(options: ImportCheckPoolOptions) {
    this.pool = new WorkerPool({ ...options, busyMessage: CHECK_MESSAGES.busy });
  }

  /**
   * Parses and checks a file on a worker thread (same answer as `readImportFile`).
   * @throws HttpError 422 on `file` when the time budget or the memory limit is exceeded; 503 when
   *   the queue is full; Error when a worker fails for another reason (a bug: 500).
   */
  check(bytes: Buffer, filename: string, layer: string | null, options: ImportCheckOptions = {}): Promise<ParseResult> {
    // A copy: the request's buffer may be a slice of a larger pooled one (all of it would be cloned).
    return this.pool.run('lots.check', { bytes: new Uint8Array(bytes), filename, layer, options }, FILE_ERRORS);
  }

  /**
   * Reads a lead file on a worker thread (same answer as `readLeadFile`, server/modules/crm/lead-import.ts).
   * @throws as {@link check}.
   */
  checkLeads(bytes: Buffer, filename: string): Promise<LeadFileResult> {
    return this.pool.run('leads.read', { bytes: new Uint8Array(bytes), filename }, FILE_ERRORS);
  }

  /** Stops every worker; jobs still queued or running fail with 503. */
  close(): Promise<void> {
    return this.pool.close();
  }
}
