import type { FastifyReply } from 'fastify';
import { HttpError } from '../errors';
import { asBuffer, type TableFileInput, type WorkerTaskInput, type WorkerTaskName } from '../worker-tasks';
import { WorkerPool } from './worker-pool';

/**
 * PDFs, spreadsheet exports and SVG logos are made on the documents' worker pool
 * (server/platform/worker-pool.ts; docs/security.md 30.5, 30.7, 30.8), never on the event loop:
 * a 20 000-row XLSX or a receipt with a large logo used to stall every other request for seconds.
 */

/** Spanish messages of the documents' pool. */
export const DOCUMENT_MESSAGES = {
  busy: 'El servidor está preparando otros documentos. Inténtelo nuevamente en unos segundos.',
  timeout: (ms: number) =>
    `El documento tardó más de ${Math.max(1, Math.round(ms / 1000))} s en prepararse y se canceló: inténtelo nuevamente en unos minutos o reduzca lo que exporta`,
  tooComplex: 'El documento es demasiado grande para prepararlo: reduzca lo que exporta',
} as const;

/** Documents waiting for a worker beyond which the next is refused with 503 (a burst of 16 exports is served, the 17th waits client-side). */
export const DOCUMENT_QUEUE_LIMIT = 16;
/** Heap of one documents worker (a 20 000-row XLSX built in memory by exceljs needs ~ 300 MiB). */
export const DOCUMENT_MAX_MEMORY_MB = 768;

/** The documents' pool of an app (`DOCUMENT_WORKERS` threads, `DOCUMENT_TIMEOUT_SECONDS` each). */
export function createDocumentPool(config: { documentWorkers: number; documentTimeoutMs: number }): WorkerPool {
  return new WorkerPool({
    workers: config.documentWorkers,
    queueLimit: DOCUMENT_QUEUE_LIMIT,
    timeoutMs: config.documentTimeoutMs,
    maxMemoryMb: DOCUMENT_MAX_MEMORY_MB,
    busyMessage: DOCUMENT_MESSAGES.busy,
  });
}

/** Tasks that answer a file's bytes. */
type FileTask =
  'pdf.receipt' | 'pdf.quote' | 'pdf.contract' | 'pdf.commissionSettlement' | 'salesReport.file' | 'report.file' | 'table.file';

/**
 * Makes a document on the pool.
 * @returns its bytes.
 * @throws HttpError 503 (Spanish) when the pool is full, past the time budget or out of memory.
 */
export async function renderDocument<K extends FileTask & WorkerTaskName>(
  pool: WorkerPool,
  task: K,
  input: WorkerTaskInput<K>,
): Promise<Buffer> {
  const bytes = await pool.run(task, input, {
    onTimeout: (ms) => new HttpError(503, DOCUMENT_MESSAGES.timeout(ms)),
    onTooComplex: () => new HttpError(503, DOCUMENT_MESSAGES.tooComplex),
  });
  return asBuffer(bytes as Uint8Array);
}

/** A file to download. */
export interface FileDownload {
  /** ASCII file name (`attachment; filename="…"`). */
  fileName: string;
  mime: string;
  bytes: Buffer;
}

/** MIME types of the exports. */
export const EXPORT_MIME = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/**
 * A table as a CSV or XLSX download, by the one writer of every export (src/lib/csv.ts,
 * src/lib/xlsx.ts: RFC 4180 with BOM, or one frozen-header sheet; text that a spreadsheet would run
 * as a formula is neutralised), made on the pool.
 * @throws as {@link renderDocument}.
 */
export async function tableFile(pool: WorkerPool, input: TableFileInput & { fileName: string }): Promise<FileDownload> {
  const { fileName, ...table } = input;
  return { fileName, mime: EXPORT_MIME[table.format], bytes: await renderDocument(pool, 'table.file', table) };
}

/** Rows read per page by {@link readInPages}: one page's query and mapping take tens of milliseconds. */
export const EXPORT_PAGE_ROWS = 500;

/**
 * Reads up to `max` rows a page at a time (`readPage(offset, limit)`, in the export's order), giving
 * the event loop a turn between pages, so a large export never holds it for more than one page.
 * Pages are separate statements: rows written while an export is read may be missed or repeated, as
 * when paging the list.
 * @returns the rows (at most `max`) and whether there were more.
 */
export async function readInPages<T>(
  max: number,
  readPage: (offset: number, limit: number) => Promise<T[]>,
): Promise<{ rows: T[]; truncated: boolean }> {
  const rows: T[] = [];
  for (;;) {
    // One row past `max` tells whether the set was larger.
    const limit = Math.min(EXPORT_PAGE_ROWS, max + 1 - rows.length);
    const page = await readPage(rows.length, limit);
    for (const row of page) rows.push(row);
    if (page.length < limit || rows.length > max) break;
    await new Promise((resolve) => setImmediate(resolve));
  }
  const truncated = rows.length > max;
  if (truncated) rows.length = max;
  return { rows, truncated };
}

/** Sends a file as a download. */
export function sendDownload(reply: FastifyReply, file: FileDownload) {
  return reply.type(file.mime).header('content-disposition', `attachment; filename="${file.fileName}"`).send(file.bytes);
}
