import { fromPromise } from 'xstate';
import type { ApiClient, ApiError } from '../../api/client';
import { createCommissionsApi, type CommissionsApi } from '../../api/administracion/commissions';
import { createSubdivisionOptionsApi } from '../../api/proyectos/subdivision-options';
import { saveBlobFile } from '../../lib/download';
import type { AppToaster } from '../../lib/toaster';
import type { Commission, CommissionAgent, CommissionPolicy, Settlement } from '../../schemas/administracion/commissions';
import type { SubdivisionOption } from '../../schemas/proyectos/subdivision-options';
import { forwardSessionErrors } from '../shared/api-errors';
import { createLoadOnceMachine } from '../shared/load-once.machine';
import { resourceScreenMachines } from '../shared/resource-screen';
import { createPolicyBody, updatePolicyBody, type PolicyFormBody } from './policy-form';
import { settlementMachine } from './settlement.machine';
import { createSettlementsPageMachine } from './settlements-page.machine';

/**
 * Administración → Comisiones y Pagos (docs/domain.md "Commissions"): the three tabs' lists —
 * Comisiones (GET commissions, filters state/agent/subdivision/period), Liquidaciones (GET
 * commission-settlements) — read-only lists of the CRUD pattern — and Políticas (GET, POST and
 * PATCH commission-policies: the CRUD pattern's list and editor, policy-form.ts); the open settlement's machine (create, approve, voucher, pay, delete, Excel, an agent's
 * PDF: settlement.machine.ts); the subdivisions and agents of the filters and the form, loaded once.
 */
export interface CommissionsMachinesDeps {
  commissionsApi: CommissionsApi;
  subdivisionOptions: () => Promise<SubdivisionOption[]>;
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
  /** Saves a downloaded file (tests replace it). */
  saveBlob?: (blob: Blob, fileName: string) => void;
}

const readOnly = () => Promise.reject(new Error('Solo lectura'));

export function createCommissionsMachines(deps: CommissionsMachinesDeps) {
  const api = deps.commissionsApi;
  const report = forwardSessionErrors(deps.reportApiError);
  const save = deps.saveBlob ?? saveBlobFile;
  const commissions = resourceScreenMachines<Commission>({
    fetchPage: api.list,
    save: readOnly,
    reportApiError: deps.reportApiError,
    toaster: deps.toaster,
  }).list;
  const settlements = resourceScreenMachines<Settlement>({
    fetchPage: api.settlements,
    save: readOnly,
    reportApiError: deps.reportApiError,
    toaster: deps.toaster,
  }).list;
  // Políticas: the CRUD pattern's list and editor (POST a new one, PATCH one with its version).
  const policyScreen = resourceScreenMachines<CommissionPolicy, PolicyFormBody, PolicyFormBody>({
    fetchPage: (query) =>
      api.policies({
        page: query.page,
        per_page: query.per_page,
        ...(query.filters.subdivision_id ? { subdivision_id: Number(query.filters.subdivision_id) } : {}),
      }),
    save: (input) =>
      input.mode === 'create'
        ? api.createPolicy(createPolicyBody(input.body))
        : api.updatePolicy(input.record.id, updatePolicyBody(input.body, input.body.version ?? input.record.version ?? 1)),
    fetchOne: async (record) => {
      const page = await api.policies({ page: 1, per_page: 100, subdivision_id: record.subdivision.id });
      const fresh = page.data.find((p) => p.id === record.id);
      if (!fresh) throw new Error('La política ya no existe');
      return fresh;
    },
    reportApiError: deps.reportApiError,
    toaster: deps.toaster,
  });
  const policies = policyScreen.list;
  const policiesPage = policyScreen.page;
  const subdivisions = createLoadOnceMachine<SubdivisionOption[]>('commissionSubdivisions', []).provide({
    actors: { load: fromPromise(() => deps.subdivisionOptions()) },
  });
  // The agents of the filter and the settlement form: readable only with the management right (a
  // narrowed agent gets a 403 and an empty list; their filter is themselves anyway).
  const agents = createLoadOnceMachine<CommissionAgent[]>('commissionAgents', []).provide({
    actors: {
      load: fromPromise(async () => (await api.agents({ page: 1, per_page: 100 }).catch(() => ({ data: [] as CommissionAgent[] }))).data),
    },
  });
  const settlement = settlementMachine.provide({
    actors: {
      load: fromPromise(({ input }) => api.settlement(input.id)),
      create: fromPromise(({ input }) => api.createSettlement(input)),
      run: fromPromise(async ({ input }) => {
        const s = input.settlement;
        switch (input.kind) {
          case 'approve':
            return api.approveSettlement(s.id, { version: s.version });
          case 'voucher':
            return api.uploadVoucher(s.id, input.file, input.file.name || 'comprobante');
          case 'pay':
            return api.paySettlement(s.id, { ...input.body, version: s.version });
          case 'delete':
            await api.deleteSettlement(s.id);
            return null;
          case 'excel':
            save(await api.exportSettlement(s.id), `${s.number}.xlsx`);
            return null;
          case 'pdf':
            save(await api.agentPdf(s.id, input.agentId), `${s.number}-${input.agentId}.pdf`);
            return null;
        }
      }),
    },
    actions: {
      done: (_, { message }) => {
        if (message) deps.toaster.show({ severity: 'success', summary: message });
      },
      reportApiError: (_, error) => report(error),
    },
  });
  const settlementsPage = createSettlementsPageMachine({ list: settlements, settlement });
  return { commissions, settlementsPage, policies, policiesPage, subdivisions, agents };
}
export type CommissionsMachines = ReturnType<typeof createCommissionsMachines>;

/** Builds the api modules on the app's client (this module is loaded on demand with the screen). */
export function createCommissionsMachinesFor(
  client: ApiClient,
  deps: Omit<CommissionsMachinesDeps, 'commissionsApi' | 'subdivisionOptions'>,
) {
  return createCommissionsMachines({
    ...deps,
    commissionsApi: createCommissionsApi(client),
    subdivisionOptions: createSubdivisionOptionsApi(client).list,
  });
}
