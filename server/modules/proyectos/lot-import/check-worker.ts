import { parentPort } from 'node:worker_threads';
import { installSpanishZodMessages } from '../../../errors';
import { readImportFile, type ImportCheckOptions } from './index';
import { readLeadFile } from '../../crm/lead-import';

/**
 * Worker-thread entry of the import checks (issue 11 item 1; started by `check-pool.ts`).
 * Receives `{ id, kind, bytes, filename, layer, options }`: kind 'lots' (options: resolutions, land uses,
 * overlap limit) answers `{ id, result }` with a {@link ParseResult} of {@link readImportFile};
 * kind 'leads' with a lead file of {@link readLeadFile}; `{ id, failure }` carries an unexpected
 * exception's text. Posts `{ ready: true }` once its modules are loaded, so the pool starts the
 * time budget only then.
 */

interface CheckJob {
  id: number;
  kind?: 'lots' | 'leads';
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
  const work: Promise<unknown> =
    job.kind === 'leads' ? readLeadFile(bytes, job.filename) : readImportFile(bytes, job.filename, job.layer, job.options ?? {});
  work.then(
    (result) => port.postMessage({ id: job.id, result }),
    (error: unknown) => port.postMessage({ id: job.id, failure: error instanceof Error ? (error.stack ?? error.message) : String(error) }),
  );
});
port.postMessage({ ready: true });
