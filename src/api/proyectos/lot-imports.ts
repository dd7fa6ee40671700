import { ApiError, apiErrorOf, NETWORK_ERROR_MESSAGE, parseBody, toApiError, type ApiClient } from '../client';
import {
  importPreviewResponseSchema,
  importRejectedResponseSchema,
  importResultResponseSchema,
  importResolutionsSchema,
  importUseChoicesSchema,
  type ImportIssue,
  type ImportPreview,
  type ImportResolution,
  type ImportUseChoice,
} from '../../schemas/proyectos/projects';

/**
 * Lot import (issue "Proyectos" → Import; src/schemas/proyectos/projects.ts import section): multipart
 * `file` (+ `layer` for a DXF) to POST /api/subdivisions/{key}/imports/preview (nothing stored) and
 * POST /api/subdivisions/{key}/imports (all or nothing). Throws {@link ApiError}; a refused import
 * (422 with the file's issues) throws {@link ImportRejectedError}.
 *
 * Transport (docs/import.md "Upload progress"): ofetch (fetch) cannot report upload progress, so
 * both calls are sent with XMLHttpRequest on the client's main base — the same URL and headers
 * (`client.targets.main`) as ofetch — and report `onProgress(fraction)`. Where XMLHttpRequest does
 * not exist (node: the Pact consumer tests) they fall back to the client's ofetch instance, which
 * sends the same request without progress. Either way the answer goes through the same error
 * normalisation ({@link apiErrorOf}) and zod schemas.
 */

/** A 422 of POST …/imports: the message plus every issue of the file (ERRORs first). */
export class ImportRejectedError extends ApiError {
  constructor(
    message: string,
    fieldIssues: Record<string, string[]>,
    readonly importIssues: ImportIssue[],
  ) {
    super(422, message, fieldIssues);
    this.name = 'ImportRejectedError';
  }
}

/** Upload progress and cancellation of one import call. */
export interface UploadOptions {
  /**
   * Fraction (0..1) of the request body sent so far; called with 1 once the whole file is sent
   * (the server is then processing it). Not called by the fallback transport (no XMLHttpRequest).
   */
  onProgress?: (fraction: number) => void;
  /** Aborts the upload; the call then rejects with the signal's reason (an AbortError). */
  signal?: AbortSignal;
}

/** Any HTTP answer of the server: its status and its JSON body (the text when it is not JSON). */
interface Answer {
  status: number;
  data: unknown;
}

/** What the user decided in the preview: choices on duplicated codes and uses of the file's land-use values. */
export interface ImportChoices {
  resolutions?: readonly ImportResolution[];
  landUses?: readonly ImportUseChoice[];
}

/**
 * The multipart body: `layer` (when given), then `resolutions` (the choices on duplicated codes as
 * JSON, when any; checked by the strict {@link importResolutionsSchema} before sending), then
 * `land_uses` (the uses chosen for the file's land-use values, when any; {@link importUseChoicesSchema}),
 * then `file`.
 */
function importForm(file: Blob, filename: string, layer: string | null | undefined, choices: ImportChoices): FormData {
  const { resolutions = [], landUses = [] } = choices;
  const body = new FormData();
  if (layer) body.append('layer', layer);
  if (resolutions.length > 0) body.append('resolutions', JSON.stringify(importResolutionsSchema.parse(resolutions)));
  if (landUses.length > 0) body.append('land_uses', JSON.stringify(importUseChoicesSchema.parse(landUses)));
  body.append('file', file, filename);
  return body;
}

/** The body of an XMLHttpRequest answer: parsed JSON, else the text, else undefined. */
function answerBody(xhr: XMLHttpRequest): unknown {
  const text = xhr.responseText;
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The abort reason of `signal` (an AbortError DOMException when none was given). */
const abortReason = (signal: AbortSignal): unknown => signal.reason ?? new DOMException('The upload was aborted', 'AbortError');

/**
 * POSTs `body` to `path` on the main base with XMLHttpRequest, reporting upload progress.
 * @returns any HTTP answer (2xx or not). @throws ApiError (status 0) when the network failed; the
 * signal's reason when aborted.
 */
function xhrPost(client: ApiClient, path: string, body: FormData, { onProgress, signal }: UploadOptions): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortReason(signal));
      return;
    }
    const xhr = new XMLHttpRequest();
    const target = client.targets.main;
    xhr.open('POST', target.url(path));
    target.headers().forEach((value, name) => xhr.setRequestHeader(name, value));
    const onAbort = () => xhr.abort();
    const settle = () => signal?.removeEventListener('abort', onAbort);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(Math.min(1, event.loaded / event.total));
    });
    xhr.upload.addEventListener('load', () => onProgress?.(1));
    xhr.addEventListener('load', () => {
      settle();
      resolve({ status: xhr.status, data: answerBody(xhr) });
    });
    xhr.addEventListener('error', () => {
      settle();
      reject(new ApiError(0, NETWORK_ERROR_MESSAGE));
    });
    xhr.addEventListener('abort', () => {
      settle();
      reject(signal?.aborted ? abortReason(signal) : new ApiError(0, NETWORK_ERROR_MESSAGE));
    });
    signal?.addEventListener('abort', onAbort, { once: true });
    xhr.send(body);
  });
}

/** The same POST through the client's ofetch instance (no progress): the fallback without XMLHttpRequest. */
async function fetchPost(client: ApiClient, path: string, body: FormData, { signal }: UploadOptions): Promise<Answer> {
  const response = await client.main.raw(path, { method: 'POST', body, signal, ignoreResponseError: true });
  return { status: response.status, data: response._data };
}

/**
 * Sends one import call: XMLHttpRequest when it exists, else ofetch. Resolves with the 2xx body;
 * a non-2xx answer is handed to `refused` (which may throw a more specific error) and then thrown
 * as {@link apiErrorOf}; a network failure throws ApiError (status 0); an abort throws the
 * signal's reason.
 */
async function post(
  client: ApiClient,
  path: string,
  body: FormData,
  options: UploadOptions,
  refused?: (answer: Answer) => void,
): Promise<unknown> {
  let answer: Answer;
  try {
    answer =
      typeof XMLHttpRequest === 'undefined' ? await fetchPost(client, path, body, options) : await xhrPost(client, path, body, options);
  } catch (error) {
    if (options.signal?.aborted) throw abortReason(options.signal);
    throw toApiError(error);
  }
  if (answer.status >= 200 && answer.status < 300) return answer.data;
  refused?.(answer);
  throw client.checked(apiErrorOf(answer.status, answer.data));
}

/** Creates the lot-import api on the app's client. */
export function createLotImportsApi(client: ApiClient) {
  const path = (key: string, tail: string) => `subdivisions/${encodeURIComponent(key)}/${tail}`;
  const nameOf = (file: Blob) => (file instanceof File ? file.name : 'lotes');
  return {
    /**
     * POST …/imports/preview. @param layer DXF layer (default: the server picks the one with most
     * closed polylines). @param options upload progress and abort. @param choices choices on
     * duplicated codes the server applies before checking (issue 13 item 5) and uses of the file's
     * land-use values (docs/import.md "Land use").
     * @returns the preview (lots with CREATE/UPDATE, issues, summary, can_import, duplicates, use_values).
     */
    preview: async (
      key: string,
      file: Blob,
      layer?: string | null,
      options: UploadOptions = {},
      choices: ImportChoices = {},
    ): Promise<ImportPreview> =>
      parseBody(
        importPreviewResponseSchema,
        await post(client, path(key, 'imports/preview'), importForm(file, nameOf(file), layer, choices), options),
      ).data,
    /**
     * POST …/imports. @param options upload progress and abort. @param choices the same choices as
     * the preview's (the server applies and re-checks them; every land-use value of the file needs a use).
     * @returns `{ created, updated }`.
     * @throws ImportRejectedError on a 422 carrying `issues`; ApiError otherwise.
     */
    commit: async (
      key: string,
      file: Blob,
      layer?: string | null,
      options: UploadOptions = {},
      choices: ImportChoices = {},
    ): Promise<{ created: number; updated: number }> => {
      const rejected = (answer: Answer) => {
        if (answer.status !== 422) return;
        const body = importRejectedResponseSchema.safeParse(answer.data);
        if (body.success) throw new ImportRejectedError(body.data.message, body.data.errors ?? {}, body.data.issues);
      };
      return parseBody(
        importResultResponseSchema,
        await post(client, path(key, 'imports'), importForm(file, nameOf(file), layer, choices), options, rejected),
      ).data;
    },
  };
}
export type LotImportsApi = ReturnType<typeof createLotImportsApi>;
