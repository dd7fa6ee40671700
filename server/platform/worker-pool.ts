import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { HttpError } from '../errors';
import type { WorkerTaskInput, WorkerTaskName, WorkerTaskOutput } from '../worker-tasks';

/**
 * One pool design for every heavy job of the server (docs/security.md items 1, 30.5–30.8;
 * docs/decisions.md "Heavy work off the event loop"): lot-import checks, lead files, PDFs,
 * spreadsheet exports and SVG logos run on worker threads, so the event loop keeps answering
 * (/api/health) while they work. Each pool has
 * - a **bounded queue**: more jobs waiting for a free worker than `queueLimit` → a fast Spanish 503;
 * - a **time budget** per job, counted from when the worker has loaded the job's modules and starts
 *   it (the worker says so: `{ id, started }`): a job past it has its
 *   worker terminated (and replaced on the next job) and fails with the caller's error (a 422 on
 *   the upload's field, or the pool's 503);
 * - a **heap limit** per worker: exceeding it is the caller's "too complex" error, never a crash.
 * Workers start on first use, or all at once with {@link WorkerPool.warmUp} (the server does it at
 * start-up so the first PDF does not pay the ~1 s module load).
 */

/** Sizing of a {@link WorkerPool}. */
export interface WorkerPoolOptions {
  /** Worker threads working at the same time (≥ 1). */
  workers: number;
  /** Jobs waiting for a free worker beyond which a new one is refused with 503 `busyMessage`. */
  queueLimit: number;
  /** Default time budget of one job, in ms, counted from when the worker starts it (modules loaded). */
  timeoutMs: number;
  /** V8 old-generation limit of each worker, in MiB. */
  maxMemoryMb: number;
  /** Spanish message of the 503 when the queue is full (or the pool closed). */
  busyMessage: string;
}

/** How one job's failures are answered (defaults: the pool's 503 `busyMessage` for both). */
export interface WorkerJobOptions {
  /** Time budget of this job in ms (default: the pool's). */
  timeoutMs?: number;
  /** The error of a job past its budget (given the budget in ms). */
  onTimeout?: (ms: number) => Error;
  /** The error of a job whose worker ran out of memory. */
  onTooComplex?: () => Error;
}

/** One queued job. */
interface Job {
  task: WorkerTaskName;
  input: unknown;
  options: WorkerJobOptions;
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
 * The worker's entry (`pool-worker.ts`). Under TypeScript (tsx, vitest) it is a small ES module
 * evaluated in place that imports tsx's API and loads `pool-worker.ts` through it: Node 20 does not
 * apply `--import tsx` hooks to a worker's own entry file (ERR_UNKNOWN_FILE_EXTENSION;
 * docs/security.md "Notes").
 */
function spawn(maxMemoryMb: number): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: maxMemoryMb };
  const entry = new URL(`./pool-worker${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url);
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry, { resourceLimits });
  const tsxRoot = dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  const tsxApi = pathToFileURL(join(tsxRoot, 'dist/esm/api/index.mjs')).href;
  const code = `import(${JSON.stringify(tsxApi)}).then((api) => api.tsImport(${JSON.stringify(entry.href)}, ${JSON.stringify(entry.href)}));`;
  return new Worker(code, { eval: true, execArgv: [], resourceLimits });
}

/** Pool of worker threads running the tasks of server/worker-tasks.ts; see the module comment. */
export class WorkerPool {
  private readonly slots: Array<Slot | null>;
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {
    this.slots = Array.from({ length: Math.max(1, options.workers) }, () => null);
  }

  /**
   * Runs `task` of server/worker-tasks.ts with `input` (structured-cloned; Buffers arrive as
   * Uint8Array) on a worker thread.
   * @returns the task's result (structured-cloned back).
   * @throws HttpError 503 `busyMessage` when the queue is full or the pool is closed; the job's
   *   `onTimeout` / `onTooComplex` error (default: that 503) past the budget or the heap limit;
   *   Error carrying the worker's stack when the task threw (a bug: 500).
   */
  run<K extends WorkerTaskName>(task: K, input: WorkerTaskInput<K>, options: WorkerJobOptions = {}): Promise<WorkerTaskOutput<K>> {
    if (this.closed) return Promise.reject(this.busy());
    const free = this.slots.findIndex((s) => s === null || !s.busy);
    if (free < 0 && this.queue.length >= this.options.queueLimit) return Promise.reject(this.busy());
    return new Promise<WorkerTaskOutput<K>>((resolve, reject) => {
      this.queue.push({ task, input, options, resolve: (result) => resolve(result as WorkerTaskOutput<K>), reject });
      this.drain();
    });
  }

  /** Starts every worker and waits until each has loaded its modules (server start-up; idempotent). */
  async warmUp(): Promise<void> {
    if (this.closed) return;
    await Promise.all(this.slots.map((slot, index) => (slot ?? this.start(index)).ready.catch(() => undefined)));
  }

  /** Stops every worker; jobs still queued or running fail with 503. */
  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(this.busy());
    await Promise.all(
      this.slots.map(async (slot, i) => {
        this.slots[i] = null;
        if (!slot) return;
        slot.onDeath?.(this.busy());
        await slot.worker.terminate();
      }),
    );
  }

  private busy(): HttpError {
    return new HttpError(503, this.options.busyMessage);
  }

  /** Hands queued jobs to free workers. */
  private drain(): void {
    while (this.queue.length > 0 && !this.closed) {
      const index = this.slots.findIndex((s) => s === null || !s.busy);
      if (index < 0) return;
      const slot = this.slots[index] ?? this.start(index);
      slot.busy = true;
      void this.execute(index, slot, this.queue.shift()!);
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
    worker.on('exit', (code) => die(new Error(`El proceso de trabajo terminó (código ${code})`)));
    this.slots[index] = slot;
    return slot;
  }

  /** Runs one job on `slot`, within its time budget. */
  private async execute(index: number, slot: Slot, job: Job): Promise<void> {
    try {
      await slot.ready;
    } catch (error) {
      slot.busy = false;
      job.reject(error instanceof Error ? error : new Error(String(error)));
      this.drain();
      return;
    }
    const id = this.nextId++;
    const budget = job.options.timeoutMs ?? this.options.timeoutMs;
    const result = new Promise<unknown>((resolve, reject) => {
      let timer: NodeJS.Timeout | undefined;
      const onMessage = (message: { id?: number; started?: boolean; result?: unknown; failure?: string }) => {
        if (message?.id !== id) return;
        if (message.started) {
          // The task's modules are loaded: its budget starts now.
          timer = setTimeout(() => {
            cleanup();
            if (this.slots[index] === slot) this.slots[index] = null;
            slot.onDeath = null;
            void slot.worker.terminate();
            reject(job.options.onTimeout?.(budget) ?? this.busy());
          }, budget);
          return;
        }
        cleanup();
        if (message.failure === undefined) resolve(message.result);
        else reject(new Error(message.failure));
      };
      const cleanup = () => {
        clearTimeout(timer);
        slot.worker.off('message', onMessage);
        slot.onDeath = null;
      };
      slot.onDeath = (error: Error) => {
        cleanup();
        const code = (error as { code?: string }).code;
        reject(code === 'ERR_WORKER_OUT_OF_MEMORY' ? (job.options.onTooComplex?.() ?? this.busy()) : error);
      };
      slot.worker.on('message', onMessage);
      slot.worker.postMessage({ id, task: job.task, input: job.input });
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
