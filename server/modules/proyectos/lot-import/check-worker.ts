import { parentPort } from 'node:worker_threads';
import { installSpanishZodMessages } from '../../../errors';
import { readImportFile, type ImportCheckOptions } from './index';

/**
 * Worker-thread entry of the lot-import check (issue 11 item 1; started by `check-pool.ts`).
 * Receives `{ id, bytes, filename, layer, options }` (options: resolutions, overlap limit), answers `{ id, result }` (a {@link ParseResult} from
 * {@link readImportFile}) or `{ id, failure }` (an unexpected exception's text). Posts
 * `{ ready: true }` once its modules are loaded, so the pool starts the time budget only then.
 */

interface CheckJob {
  id: number;
  bytes: Uint8Array;
  filename: string;
  layer: string | null;
  options?: ImportCheckOptions;
}

const port = parentPort;
if (!port) throw new Error('check-worker.ts must run in a worker thread');
installSpanishZodMessages();
port.on('message', (job: CheckJob) => {
  const bytes = Buffer.from(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
  readImportFile(bytes, job.filename, job.layer, job.options ?? {}).then(
    (result) => port.postMessage({ id: job.id, result }),
    (error: unknown) => port.postMessage({ id: job.id, failure: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
port.postMessage({ ready: true });
