import type { ApiClient } from '../client';
import { request, toApiError } from '../client';
import { listParams } from '../list-params';
import type { ListQuery } from '../../schemas/list';
import {
  contractPreviewResponseSchema,
  contractResponseSchema,
  contractsPageSchema,
  type AnnulContractRequest,
  type ContractDetail,
  type ContractPreview,
  type CreateContractRequest,
  type IssueContractRequest,
  type UpdateContractRequest,
} from '../../schemas/administracion/contracts';

/**
 * Administración → Generar Contrato and Registro de Contratos (staff base; generating, correcting,
 * issuing and annulling need 'Acceso submódulo generar contrato'; reading and uploading the signed
 * scan either submodule). Contract in src/schemas/administracion/contracts.ts. Every function throws
 * {@link import('../client').ApiError}: 409 a state that does not allow the action, a duplicate
 * contract, a stale version; 422 per field (missing values under `overrides.<key>`).
 */
export function createContractsApi(client: ApiClient) {
  const one = async (run: () => Promise<unknown>): Promise<ContractDetail> => (await request(contractResponseSchema, run)).data;
  const blob = async (path: string): Promise<Blob> => {
    try {
      return await client.main<Blob, 'blob'>(path, { responseType: 'blob' });
    } catch (e) {
      throw toApiError(e);
    }
  };
  return {
    /**
     * GET contracts: `q` (contract number, sale number, titular, lot); filters `state`, `kind`,
     * `subdivision_id`, `agent_id`, `sale_id`, `issued_from`, `issued_to` (YYYY-MM-DD), `overdue`
     * ('true'|'false'); sort `number`, `issued_at`, `created_at`, `state`. Rows carry `signature_overdue`.
     */
    list: (query: ListQuery) => request(contractsPageSchema, () => client.main('contracts', { query: listParams(query) })),
    /** GET contracts/{id}: with its history of state changes. */
    get: (id: number) => one(() => client.main(`contracts/${id}`)),
    /** POST contracts: the BORRADOR contract of a sale (template: given, or the subdivision's published one of the sale's kind). */
    create: (body: CreateContractRequest) => one(() => client.main('contracts', { method: 'POST', body })),
    /** PATCH contracts/{id}: a draft's supplied or corrected values (key → text; null removes). */
    update: (id: number, body: UpdateContractRequest) => one(() => client.main(`contracts/${id}`, { method: 'PATCH', body })),
    /** GET contracts/{id}/preview: the resolved document, its values and what is missing. */
    preview: async (id: number): Promise<ContractPreview> =>
      (await request(contractPreviewResponseSchema, () => client.main(`contracts/${id}/preview`))).data,
    /** POST contracts/{id}/issue: EMITIDO with its number and PDF (422 listing what is missing). */
    issue: (id: number, body: IssueContractRequest) => one(() => client.main(`contracts/${id}/issue`, { method: 'POST', body })),
    /** POST contracts/{id}/annul: ANULADO with the reason. */
    annul: (id: number, body: AnnulContractRequest) => one(() => client.main(`contracts/${id}/annul`, { method: 'POST', body })),
    /** POST contracts/{id}/signed-scan, multipart `file` (PDF, JPEG or PNG ≤ 10 MB) → FIRMADO. */
    uploadSignedScan: (id: number, file: Blob, filename = 'contrato-firmado') => {
      const body = new FormData();
      body.append('file', file, filename);
      return one(() => client.main(`contracts/${id}/signed-scan`, { method: 'POST', body }));
    },
    /** GET contracts/{id}/pdf: the issued PDF as stored. */
    pdf: (id: number) => blob(`contracts/${id}/pdf`),
    /** GET contracts/{id}/signed-scan: the signed scan (PDF or image). */
    signedScan: (id: number) => blob(`contracts/${id}/signed-scan`),
  };
}
export type ContractsApi = ReturnType<typeof createContractsApi>;
