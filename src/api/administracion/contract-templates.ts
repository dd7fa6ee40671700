import type { ApiClient } from '../client';
import { request } from '../client';
import { listParams } from '../list-params';
import type { ListQuery } from '../../schemas/list';
import { dataResponseSchema } from '../../schemas/paging';
import {
  contractTemplateSchema,
  contractTemplatesPageSchema,
  type ContractTemplate,
  type CreateContractTemplateRequest,
  type TemplateVersionActionRequest,
  type UpdateContractTemplateRequest,
} from '../../schemas/administracion/contract-templates';

/** `{data}` answer of one template version (with its `content`). */
const contractTemplateResponseSchema = dataResponseSchema(contractTemplateSchema);

/**
 * Administración → Generar Contrato, tab "Plantillas" (staff base; contract in
 * src/schemas/administracion/contract-templates.ts, docs/domain.md "Contract templates"). Every
 * function throws {@link import('../client').ApiError}: 422 per field (`errors.content` for a
 * variable unknown to the catalogue or not for the kind), 409 a stale version, an edit of a
 * PUBLICADA version, or a new version when the family already has a draft.
 */
export function createContractTemplatesApi(client: ApiClient) {
  const one = async (run: () => Promise<unknown>): Promise<ContractTemplate> => (await request(contractTemplateResponseSchema, run)).data;
  return {
    /** GET contract-templates: filters `subdivision_id`, `kind`, `state`, `latest=true` (last version per family); rows carry `content: null`. */
    list: (query: ListQuery) => request(contractTemplatesPageSchema, () => client.main('contract-templates', { query: listParams(query) })),
    /** GET contract-templates/{id}: one version with its `content`. */
    get: (id: number) => one(() => client.main(`contract-templates/${id}`)),
    /** POST contract-templates → 201, the family's first version (BORRADOR, version_number 1). */
    create: (body: CreateContractTemplateRequest) => one(() => client.main('contract-templates', { method: 'POST', body })),
    /** PATCH contract-templates/{id}: a BORRADOR's name and/or content with the `version` read. */
    update: (id: number, body: UpdateContractTemplateRequest) =>
      one(() => client.main(`contract-templates/${id}`, { method: 'PATCH', body })),
    /** POST contract-templates/{id}/publish: BORRADOR → PUBLICADA (read-only from then). */
    publish: (id: number, body: TemplateVersionActionRequest) =>
      one(() => client.main(`contract-templates/${id}/publish`, { method: 'POST', body })),
    /** POST contract-templates/{id}/new-version → 201, a BORRADOR copy numbered version_number + 1. */
    newVersion: (id: number, body: TemplateVersionActionRequest) =>
      one(() => client.main(`contract-templates/${id}/new-version`, { method: 'POST', body })),
  };
}
export type ContractTemplatesApi = ReturnType<typeof createContractTemplatesApi>;
