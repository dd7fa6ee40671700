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
  type ConvertLeadRequest,
  type CreateLeadActivityRequest,
  type CreateLeadRequest,
  type Lead,
  type MergeLeadRequest,
  type UpdateLeadRequest,
} from '../../schemas/crm/leads';
import { subdivisionOptionsResponseSchema } from '../../schemas/proyectos/subdivision-options';

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
    /** GET subdivision-options: the subdivisions by name, for the interest picker and the filter. */
    subdivisionOptions: async () => (await request(subdivisionOptionsResponseSchema, () => client.main('subdivision-options'))).data,
  };
}
export type LeadsApi = ReturnType<typeof createLeadsApi>;
