import { FetchError } from 'ofetch';
import { z } from 'zod';
import { ApiError, request, toApiError, type ApiClient } from './client';
import { importIssueSchema, importPreviewResponseSchema, importResultResponseSchema, type ImportIssue, type ImportPreview } from '../schemas/projects';

/**
 * Lot import (issue "Proyectos" → Import; src/schemas/projects.ts import section): multipart
 * `file` (+ `layer` for a DXF) to POST /api/subdivisions/{key}/imports/preview (nothing stored) and
 * POST /api/subdivisions/{key}/imports (all or nothing). Throws {@link ApiError}; a refused import
 * (422 with the file's issues) throws {@link ImportRejectedError}.
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

const rejectionSchema = z.object({
  message: z.string(),
  errors: z.record(z.string(), z.array(z.string())).optional(),
  issues: z.array(importIssueSchema),
});

/** The multipart body: `layer` first (when given), then `file`. */
function importForm(file: Blob, filename: string, layer?: string | null): FormData {
  const body = new FormData();
  if (layer) body.append('layer', layer);
  body.append('file', file, filename);
  return body;
}

/** Creates the lot-import api on the app's client. */
export function createLotImportsApi(client: ApiClient) {
  const path = (key: string, tail: string) => `subdivisions/${encodeURIComponent(key)}/${tail}`;
  const nameOf = (file: Blob) => (file instanceof File ? file.name : 'lotes');
  return {
    /**
     * POST …/imports/preview. @param layer DXF layer (default: the server picks the one with most
     * closed polylines). @returns the preview (lots with CREATE/UPDATE, issues, summary, can_import).
     */
    preview: async (key: string, file: Blob, layer?: string | null): Promise<ImportPreview> =>
      (await request(importPreviewResponseSchema, () => client.main(path(key, 'imports/preview'), { method: 'POST', body: importForm(file, nameOf(file), layer) }))).data,
    /**
     * POST …/imports. @returns `{ created, updated }`.
     * @throws ImportRejectedError on a 422 carrying `issues`; ApiError otherwise.
     */
    commit: async (key: string, file: Blob, layer?: string | null): Promise<{ created: number; updated: number }> => {
      let body: unknown;
      try {
        body = await client.main(path(key, 'imports'), { method: 'POST', body: importForm(file, nameOf(file), layer) });
      } catch (error) {
        if (error instanceof FetchError && (error.status ?? error.response?.status) === 422) {
          const rejected = rejectionSchema.safeParse(error.data);
          if (rejected.success) throw new ImportRejectedError(rejected.data.message, rejected.data.errors ?? {}, rejected.data.issues);
        }
        throw toApiError(error);
      }
      const parsed = importResultResponseSchema.safeParse(body);
      if (!parsed.success) throw new ApiError(0, 'Respuesta inesperada del servidor');
      return parsed.data.data;
    },
  };
}
export type LotImportsApi = ReturnType<typeof createLotImportsApi>;
