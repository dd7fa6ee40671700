import type { ApiClient } from '../client';
import { request, toApiError } from '../client';
import { listParams } from '../list-params';
import type { ListQuery } from '../../schemas/list';
import {
  commissionAgentResponseSchema,
  commissionAgentsPageSchema,
  commissionPoliciesPageSchema,
  commissionPolicyResponseSchema,
  commissionsPageSchema,
  settlementResponseSchema,
  settlementsPageSchema,
  type ApproveSettlementRequest,
  type CommissionAgent,
  type CommissionPolicy,
  type CreateCommissionPolicyRequest,
  type CreateSettlementRequest,
  type PaySettlementRequest,
  type SettlementDetail,
  type UpdateCommissionAgentRequest,
  type UpdateCommissionPolicyRequest,
} from '../../schemas/administracion/commissions';

/**
 * Administración → Comisiones y Pagos (staff base; contract in src/schemas/administracion/commissions.ts;
 * docs/domain.md "Commissions"). The commissions list needs 'Acceso módulo administración' +
 * 'Acceso submódulo comisiones y pagos' (narrowed to the caller's own and team's by 'Solo sus
 * comisiones y las de su equipo'); everything else also 'Gestionar comisiones y liquidaciones'.
 * Every function throws {@link import('../client').ApiError}: 422 per field (a policy without its
 * figure, an agent of another company, a voucher that is not a PDF or image), 409 a duplicate
 * policy, a commission already settled, a settlement in the wrong state or a stale version.
 */
export function createCommissionsApi(client: ApiClient) {
  const policy = async (run: () => Promise<unknown>): Promise<CommissionPolicy> =>
    (await request(commissionPolicyResponseSchema, run)).data;
  const agent = async (run: () => Promise<unknown>): Promise<CommissionAgent> => (await request(commissionAgentResponseSchema, run)).data;
  const settlement = async (run: () => Promise<unknown>): Promise<SettlementDetail> => (await request(settlementResponseSchema, run)).data;
  const blob = async (path: string): Promise<Blob> => {
    try {
      return await client.main<Blob, 'blob'>(path, { responseType: 'blob' });
    } catch (e) {
      throw toApiError(e);
    }
  };
  return {
    /** GET commissions: `q` (sale, lot, agent); filters state, agent_id, role, subdivision_id, sale_id, settlement_id, currency, period_from, period_to; sort id|amount|accrued_on|projected_on|state. */
    list: (query: ListQuery) => request(commissionsPageSchema, () => client.main('commissions', { query: listParams(query) })),
    /** GET commission-policies (optionally of one subdivision). */
    policies: (query: { page: number; per_page: number; subdivision_id?: number }) =>
      request(commissionPoliciesPageSchema, () => client.main('commission-policies', { query })),
    /** POST commission-policies → 201. */
    createPolicy: (body: CreateCommissionPolicyRequest) => policy(() => client.main('commission-policies', { method: 'POST', body })),
    /** PATCH commission-policies/{id} with the version read. */
    updatePolicy: (id: number, body: UpdateCommissionPolicyRequest) =>
      policy(() => client.main(`commission-policies/${id}`, { method: 'PATCH', body })),
    /** GET commission-agents: staff with their sales head and recibos por honorarios flag. */
    agents: (query: { page: number; per_page: number; q?: string }) =>
      request(commissionAgentsPageSchema, () => client.main('commission-agents', { query })),
    /** PATCH commission-agents/{id}: `issues_fee_receipts`, `sales_head_id`, with the version read. */
    updateAgent: (id: number, body: UpdateCommissionAgentRequest) =>
      agent(() => client.main(`commission-agents/${id}`, { method: 'PATCH', body })),
    /** GET commission-settlements: filters state, currency. */
    settlements: (query: ListQuery) =>
      request(settlementsPageSchema, () => client.main('commission-settlements', { query: listParams(query) })),
    /** GET commission-settlements/{id}: with its agents' totals and lines. */
    settlement: (id: number) => settlement(() => client.main(`commission-settlements/${id}`)),
    /** POST commission-settlements → 201 BORRADOR. */
    createSettlement: (body: CreateSettlementRequest) => settlement(() => client.main('commission-settlements', { method: 'POST', body })),
    /** POST commission-settlements/{id}/approve → APROBADA. */
    approveSettlement: (id: number, body: ApproveSettlementRequest) =>
      settlement(() => client.main(`commission-settlements/${id}/approve`, { method: 'POST', body })),
    /** POST commission-settlements/{id}/voucher, multipart `voucher` (PDF or image ≤ 10 MB). */
    uploadVoucher: (id: number, file: Blob, filename = 'comprobante') => {
      const body = new FormData();
      body.append('voucher', file, filename);
      return settlement(() => client.main(`commission-settlements/${id}/voucher`, { method: 'POST', body }));
    },
    /** POST commission-settlements/{id}/pay `{operation_number, paid_on, version?}` → PAGADA. */
    paySettlement: (id: number, body: PaySettlementRequest) =>
      settlement(() => client.main(`commission-settlements/${id}/pay`, { method: 'POST', body })),
    /** DELETE commission-settlements/{id} (BORRADOR only). */
    deleteSettlement: async (id: number): Promise<void> => {
      try {
        await client.main(`commission-settlements/${id}`, { method: 'DELETE' });
      } catch (e) {
        throw toApiError(e);
      }
    },
    /** GET commission-settlements/{id}/export: the XLSX. */
    exportSettlement: (id: number) => blob(`commission-settlements/${id}/export`),
    /** GET commission-settlements/{id}/agents/{agent_id}/pdf: one agent's liquidation. */
    agentPdf: (id: number, agentId: number) => blob(`commission-settlements/${id}/agents/${agentId}/pdf`),
    /** GET commission-settlements/{id}/voucher: the voucher's bytes. */
    voucher: (id: number) => blob(`commission-settlements/${id}/voucher`),
  };
}
export type CommissionsApi = ReturnType<typeof createCommissionsApi>;
