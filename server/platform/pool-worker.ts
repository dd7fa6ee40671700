import { parentPort } from 'node:worker_threads';
import { installSpanishZodMessages } from '../errors';
import { WORKER_TASKS, type WorkerTaskName } from '../worker-tasks';

/**
 * Worker-thread entry of every {@link import('./worker-pool').WorkerPool} (started by
 * `worker-pool.ts`). Posts `{ ready: true }` once started. Receives `{ id, task, input }`; loads
 * the task's modules (`WORKER_TASKS[task]()`, once per task), posts `{ id, started: true }` — the
 * pool starts the job's time budget then —, and answers `{ id, result }` with what the task resolved
 * to, or `{ id, failure }` with an unexpected exception's stack.
 */

interface PoolJob {
  id: number;
  task: WorkerTaskName;
  input: unknown;
}

const port = parentPort;
if (!port) throw new Error('pool-worker.ts must run in a worker thread');
installSpanishZodMessages();
type TaskFunction = (input: unknown) => Promise<unknown>;
const loaded = new Map<WorkerTaskName, Promise<TaskFunction>>();

/** The task's function, its modules loaded once. */
function load(task: WorkerTaskName): Promise<TaskFunction> {
  let loading = loaded.get(task);
  if (!loading) {
    const loader = WORKER_TASKS[task] as (() => Promise<TaskFunction>) | undefined;
    loading = loader ? loader() : Promise.reject(new Error(`Unknown worker task ${task}`));
    loaded.set(task, loading);
  }
  return loading;
}

port.on('message', (job: PoolJob) => {
  const work = load(job.task).then((run) => {
    port.postMessage({ id: job.id, started: true });
    return run(job.input);
  });
  work.then(
    (result) => port.postMessage({ id: job.id, result }),
    (error: unknown) => port.postMessage({ id: job.id, failure: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
port.postMessage({ ready: true });
