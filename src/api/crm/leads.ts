import type { ApiClient } from '../client';
import { request } from '../client';
import { listParams } from '../list-params';
import type { ListQuery } from '../../schemas/list';
import {
  leadActivitiesResponseSchema,
  leadActivityResponseSchema,
  leadDuplicatesResponseSchema,
  leadResponseSchema,
  leadsPageSchema,
  leadsSummaryResponseSchema,
  leadImportPreviewResponseSchema,
  leadImportResultResponseSchema,
  type LeadImportOptions,
  type ConvertLeadRequest,
  type CreateLeadActivityRequest,
  type CreateLeadRequest,
  type Lead,
  type MergeLeadRequest,
  type UpdateLeadRequest,
} from '../../schemas/crm/leads';

/** The multipart body of both import calls: the options as text fields, then `file`. */
function leadImportForm(file: Blob, filename: string, options: LeadImportOptions): FormData {
  const body = new FormData();
  if (options.channel) body.append('channel', options.channel);
  if (options.agent_id !== undefined) body.append('agent_id', String(options.agent_id));
  if (options.duplicates) body.append('duplicates', options.duplicates);
  body.append('file', file, filename);
  return body;
}

/**
 * CRM → LEADS (staff base, 'Acceso módulo CRM' + 'Acceso submódulo LEADS'; without 'Supervisar
 * leads' the server answers only the caller's leads and 403 on another's). Every function throws
 * {@link import('../client').ApiError} on failure (422 field errors; 409 a duplicate on create, a
 * stale edit or a lead already converted).
 */
export function createLeadsApi(client: ApiClient) {
  const one = async (run: () => Promise<unknown>): Promise<Lead> => (await request(leadResponseSchema, run)).data;
  return {
    /** GET leads: `q` (name, phone, e-mail, document, campaign); filters `status`, `channel`, `agent_id`, `subdivision_id`, `mine`, `overdue`. */
    list: (query: ListQuery) => request(leadsPageSchema, () => client.main('leads', { query: listParams(query) })),
    /** GET leads/summary: leads per status and overdue ones under the list's filters (`status` and paging left out). */
    summary: async (filters: Record<string, string>) => {
      const { status: _status, ...rest } = filters;
      return (await request(leadsSummaryResponseSchema, () => client.main('leads/summary', { query: rest }))).data;
    },
    /** GET leads/duplicates: leads with this phone or document (at most 5). */
    duplicates: async (match: { phone?: string; document_number?: string; except_id?: number }) =>
      (await request(leadDuplicatesResponseSchema, () => client.main('leads/duplicates', { query: match }))).data,
    /** GET leads/{id}. */
    get: (id: number) => one(() => client.main(`leads/${id}`)),
    /** POST leads (409 when the phone or document is another lead's, unless `on_duplicate: 'KEEP'`). */
    create: (body: CreateLeadRequest) => one(() => client.main('leads', { method: 'POST', body })),
    /** PATCH leads/{id} with the `version` read. */
    update: (id: number, body: UpdateLeadRequest) => one(() => client.main(`leads/${id}`, { method: 'PATCH', body })),
    /** GET leads/{id}/activities: newest first. */
    activities: async (id: number) => (await request(leadActivitiesResponseSchema, () => client.main(`leads/${id}/activities`))).data,
    /** POST leads/{id}/activities. */
    addActivity: async (id: number, body: CreateLeadActivityRequest) =>
      (await request(leadActivityResponseSchema, () => client.main(`leads/${id}/activities`, { method: 'POST', body }))).data,
    /** POST leads/{id}/merge: a new contact folded into lead `id`. */
    merge: (id: number, body: MergeLeadRequest) => one(() => client.main(`leads/${id}/merge`, { method: 'POST', body })),
    /** POST leads/{id}/convert: link or create its customer. */
    convert: (id: number, body: ConvertLeadRequest) => one(() => client.main(`leads/${id}/convert`, { method: 'POST', body })),
    /** POST leads/imports/preview (multipart `file` + options): what the file would do; nothing stored. */
    previewImport: async (file: Blob, filename: string, options: LeadImportOptions) =>
      (
        await request(leadImportPreviewResponseSchema, () =>
          client.main('leads/imports/preview', { method: 'POST', body: leadImportForm(file, filename, options) }),
        )
      ).data,
    /** POST leads/imports: stores the file's leads all or nothing (422 `errors.file` when any row has an error). */
    commitImport: async (file: Blob, filename: string, options: LeadImportOptions) =>
      (
        await request(leadImportResultResponseSchema, () =>
          client.main('leads/imports', { method: 'POST', body: leadImportForm(file, filename, options) }),
        )
      ).data,
  };
}
export type LeadsApi = ReturnType<typeof createLeadsApi>;
