import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { HttpError } from '../../../errors';
import type { ImportCheckOptions } from './index';
import type { ParseResult } from './types';
import type { LeadFileResult } from '../../crm/lead-import';

/**
 * Runs the lot-import parse + check (`readImportFile`) and the lead-file parse (`readLeadFile`) on worker threads, off the event loop
 * (issue 11 item 1; docs/security.md). A file that takes longer than the time budget, or needs more
 * memory than a worker may use, becomes a 422 on `file`; more waiting files than the queue holds
 * become a fast 503. The server itself keeps answering (/api/health) while files are checked.
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

/** One file to check. */
interface Job {
  /** A lot file (`readImportFile`) or a lead file (`readLeadFile`). */
  kind: 'lots' | 'leads';
  bytes: Buffer;
  filename: string;
  layer: string | null;
  /** Choices on duplicated codes and the subdivision's overlap limit (issue 13 items 2 and 5). */
  options: ImportCheckOptions;
  resolve: (result: unknown) => void;
  reject: (error: Error) => void;
}

/** A worker with its loading state. */
interface Slot {
  worker: Worker;
  /** Settles when the worker posted `{ ready: true }` (or failed to load). */
  ready: Promise<void>;
  busy: boolean;
  /** Settles the job in progress, if any, when the worker dies. */
  onDeath: ((error: Error) => void) | null;
}

/**
 * The worker's entry. Under TypeScript (tsx, vitest) the worker is a small ES module evaluated in
 * place that imports tsx's API and loads `check-worker.ts` through it: Node 20 does not apply
 * `--import tsx` hooks to a worker's own entry file (ERR_UNKNOWN_FILE_EXTENSION).
 */
function spawn(maxMemoryMb: number): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: maxMemoryMb };
  const entry = new URL(`./check-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { resourceLimits });
  const tsxRoot = dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const tsxApi = pathToFileURL(join(tsxRoot, 'dist/esm/api/index.mjs')).href;
  const code = `import(${JSON.stringify(tsxApi)}).then((api) => api.tsImport(${JSON.stringify(entry.href)}, ${JSON.stringify(entry.href)}));`;
  return new Worker(code, { eval: true, execArgv: [], resourceLimits });
}

/** Pool of lot-import check workers; see the module comment. Workers start on first use. */
export class ImportCheckPool {
  private readonly slots: Array<Slot | null>;
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: ImportCheckPoolOptions) {
    this.slots = Array.from({ length: Math.max(1, options.workers) }, () => null);
  }

  /**
   * Parses and checks a file on a worker thread (same answer as `readImportFile`).
   * @throws HttpError 422 on `file` when the time budget or the memory limit is exceeded; 503 when
   *   the queue is full; Error when a worker fails for another reason (a bug: 500).
   */
  check(bytes: Buffer, filename: string, layer: string | null, options: ImportCheckOptions = {}): Promise<ParseResult> {
    return this.enqueue<ParseResult>({ kind: 'lots', bytes, filename, layer, options });
  }

  /**
   * Reads a lead file on a worker thread (same answer as `readLeadFile`, server/modules/crm/lead-import.ts).
   * @throws as {@link check}.
   */
  checkLeads(bytes: Buffer, filename: string): Promise<LeadFileResult> {
    return this.enqueue<LeadFileResult>({ kind: 'leads', bytes, filename, layer: null, options: {} });
  }

  /** Queues a job (503 when closed or the queue is full). */
  private enqueue<T>(job: Omit<Job, 'resolve' | 'reject'>): Promise<T> {
    if (this.closed) return Promise.reject(new HttpError(503, CHECK_MESSAGES.busy));
    const free = this.slots.findIndex((s) => s === null || !s.busy);
    if (free < 0 && this.queue.length >= this.options.queueLimit) return Promise.reject(new HttpError(503, CHECK_MESSAGES.busy));
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ ...job, resolve: (result) => resolve(result as T), reject });
      this.drain();
    });
  }

  /** Stops every worker; jobs still queued or running fail with 503. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new HttpError(503, CHECK_MESSAGES.busy));
    await Promise.all(
      this.slots.map(async (slot, i) => {
        this.slots[i] = null;
        if (!slot) return;
        slot.onDeath?.(new HttpError(503, CHECK_MESSAGES.busy));
        await slot.worker.terminate();
      }),
    );
  }

  /** Hands queued jobs to free workers. */
  private drain(): void {
    while (this.queue.length > 0 && !this.closed) {
      const index = this.slots.findIndex((s) => s === null || !s.busy);
      if (index < 0) return;
      const slot = this.slots[index] ?? this.start(index);
      slot.busy = true;
      void this.run(index, slot, this.queue.shift()!);
    }
  }

  /** Starts the worker of slot `index`. */
  private start(index: number): Slot {
    const worker = spawn(this.options.maxMemoryMb);
    worker.unref(); // never keeps the process alive
    const slot: Slot = { worker, ready: Promise.resolve(), busy: false, onDeath: null };
    slot.ready = new Promise<void>((resolve, reject) => {
      const onReady = (message: { ready?: boolean }) => {
        if (message?.ready) {
          worker.off('message', onReady);
          resolve();
        }
      };
      worker.on('message', onReady);
      slot.onDeath = reject;
    });
    slot.ready.catch(() => undefined);
    const die = (error: Error) => {
      if (this.slots[index] === slot) this.slots[index] = null;
      const settle = slot.onDeath;
      slot.onDeath = null;
      settle?.(error);
      this.drain();
    };
    worker.on('error', (error) => die(error));
    worker.on('exit', (code) => die(new Error(`El proceso de comprobación terminó (código ${code})`)));
    this.slots[index] = slot;
    return slot;
  }

  /** Runs one job on `slot`, within the time budget. */
  private async run(index: number, slot: Slot, job: Job): Promise<void> {
    try {
      await slot.ready;
    } catch (error) {
      job.reject(error instanceof Error ? error : new Error(String(error)));
      return;
    }
    const id = this.nextId++;
    const result = new Promise<unknown>((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        if (this.slots[index] === slot) this.slots[index] = null;
        slot.onDeath = null;
        void slot.worker.terminate();
        const message = CHECK_MESSAGES.timeout(this.options.timeoutMs);
        reject(new HttpError(422, message, { file: [message] }));
      }, this.options.timeoutMs);
      const onMessage = (message: { id?: number; result?: unknown; failure?: string }) => {
        if (message?.id !== id) return;
        cleanup();
        if (message.result) resolve(message.result);
        else reject(new Error(message.failure ?? 'import check failed'));
      };
      const cleanup = () => {
        clearTimeout(timer);
        slot.worker.off('message', onMessage);
        slot.onDeath = null;
      };
      slot.onDeath = (error: Error) => {
        cleanup();
        const code = (error as { code?: string }).code;
        reject(
          code === 'ERR_WORKER_OUT_OF_MEMORY'
            ? new HttpError(422, CHECK_MESSAGES.tooComplex, { file: [CHECK_MESSAGES.tooComplex] })
            : error,
        );
      };
      slot.worker.on('message', onMessage);
      // A copy: the request's buffer may be a slice of a larger pooled one.
      const bytes = new Uint8Array(job.bytes);
      slot.worker.postMessage({ id, kind: job.kind, bytes, filename: job.filename, layer: job.layer, options: job.options }, [
        bytes.buffer,
      ]);
    });
    try {
      job.resolve(await result);
    } catch (error) {
      job.reject(error as Error);
    } finally {
      slot.busy = false;
      this.drain();
    }
  }
}
