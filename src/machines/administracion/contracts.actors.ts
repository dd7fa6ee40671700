import { fromPromise } from 'xstate';
import type { ApiClient, ApiError } from '../../api/client';
import { createContractsApi, type ContractsApi } from '../../api/administracion/contracts';
import { createContractTemplatesApi, type ContractTemplatesApi } from '../../api/administracion/contract-templates';
import { createSalesApi, type SalesApi } from '../../api/comercio/sales';
import { createLotsApi, type LotsApi } from '../../api/proyectos/lots';
import { createSubdivisionOptionsApi } from '../../api/proyectos/subdivision-options';
import { saveBlobFile } from '../../lib/download';
import type { AppToaster } from '../../lib/toaster';
import { saleContractKind, type Contract, type ContractDetail } from '../../schemas/administracion/contracts';
import type { SubdivisionOption } from '../../schemas/proyectos/subdivision-options';
import type { Sale } from '../../schemas/comercio/sales';
import { forwardSessionErrors } from '../shared/api-errors';
import { createLoadOnceMachine } from '../shared/load-once.machine';
import { resourceScreenMachines } from '../shared/resource-screen';
import { generateContractMachine, isLiveContract, type LoadedSale, type SaleOption } from './generate-contract.machine';
import { contractDetailMachine } from './contract-detail.machine';

/**
 * Administración → Generar Contrato (tab "Generar") and Registro de Contratos (docs/decisions.md
 * "Contract generation screen", "Registro de Contratos"): the generation panel's machine over
 * GET sales?q=, GET sales/{id}, GET lots/{id} and GET contract-templates (the published ones of the
 * sale's subdivision and kind), the contracts api (create, PATCH values, preview, issue, PDF,
 * signed scan, annul); the register's list, its drawer and its subdivision filter.
 */
export interface ContractsMachinesDeps {
  contractsApi: ContractsApi;
  salesApi: Pick<SalesApi, 'list' | 'get'>;
  lotsApi: Pick<LotsApi, 'get'>;
  templatesApi: Pick<ContractTemplatesApi, 'list'>;
  subdivisionOptions: () => Promise<SubdivisionOption[]>;
  /** Saves a downloaded file (a browser download in the app; tests pass a fake). */
  saveBlob?: (blob: Blob, fileName: string) => void;
  /** Writes the address (`?venta=`) without a navigation. */
  replaceUrl?: (search: string) => void;
  reportApiError: (error: ApiError) => void;
  toaster: Pick<AppToaster, 'show'>;
}

/** A sale row as the panel's search lists it. */
function saleOption(sale: Sale): SaleOption {
  const titular = sale.holders.find((h) => h.role === 'TITULAR') ?? sale.holders[0];
  return {
    id: sale.id,
    number: sale.number,
    titular: titular?.display_name ?? '',
    lotCode: sale.lot.code,
    subdivisionName: sale.lot.subdivision_name,
    status: sale.status,
  };
}

/** File name of a contract's PDF / signed scan download. */
export function contractFileName(contract: Pick<Contract, 'id' | 'number' | 'signed_scan'>, what: 'pdf' | 'scan'): string {
  const base = contract.number ?? `contrato-${contract.id}`;
  if (what === 'pdf') return `${base}.pdf`;
  const type = contract.signed_scan?.content_type ?? 'application/pdf';
  const ext = type === 'image/png' ? 'png' : type === 'image/jpeg' ? 'jpg' : 'pdf';
  return `${base}-firmado.${ext}`;
}

/** The machines of both screens over the given api calls. */
export function createContractsMachines(deps: ContractsMachinesDeps) {
  const report = forwardSessionErrors(deps.reportApiError);
  const save = deps.saveBlob ?? ((blob: Blob, name: string) => saveBlobFile(blob, name));
  const withPreview = async (detail: ContractDetail) => ({ detail, preview: await deps.contractsApi.preview(detail.id) });
  const downloadPdf = async (contract: Pick<Contract, 'id' | 'number' | 'signed_scan'>) =>
    save(await deps.contractsApi.pdf(contract.id), contractFileName(contract, 'pdf'));
  const downloadScan = async (contract: Pick<Contract, 'id' | 'number' | 'signed_scan'>) =>
    save(await deps.contractsApi.signedScan(contract.id), contractFileName(contract, 'scan'));

  const generate = generateContractMachine.provide({
    actors: {
      searchSales: fromPromise(async ({ input }) => {
        const page = await deps.salesApi.list({ page: 1, per_page: 10, q: input.text, sort: '-sale_date', filters: {} });
        return page.data.map(saleOption);
      }),
      loadSale: fromPromise(async ({ input }): Promise<LoadedSale> => {
        const [sale, contracts] = await Promise.all([
          deps.salesApi.get(input.id),
          deps.contractsApi.list({ page: 1, per_page: 20, sort: '-created_at', filters: { sale_id: String(input.id) } }),
        ]);
        const kind = saleContractKind(sale.type);
        const live = contracts.data.find((c) => isLiveContract(c.state) && c.kind === kind) ?? null;
        const base = { ...saleOption(sale), type: sale.type, kind };
        if (live) {
          const detail = await deps.contractsApi.get(live.id);
          return { sale: base, contract: await withPreview(detail), templates: [] };
        }
        // The published versions of the sale's subdivision and kind, newest first (the first is
        // preselected): a published version is never edited again, so the last published is the
        // last updated (GET contract-templates sorts by name, updated_at or kind only: 422 else).
        const lot = await deps.lotsApi.get(sale.lot.id);
        const templates = await deps.templatesApi.list({
          page: 1,
          per_page: 50,
          sort: '-updated_at',
          filters: { subdivision_id: String(lot.subdivision_id), kind, state: 'PUBLICADA' },
        });
        return {
          sale: base,
          contract: null,
          templates: templates.data.map((t) => ({ id: t.id, name: t.name, versionNumber: t.version_number })),
        };
      }),
      createContract: fromPromise(async ({ input }) =>
        withPreview(
          await deps.contractsApi.create(
            input.templateId ? { sale_id: input.saleId, template_id: input.templateId } : { sale_id: input.saleId },
          ),
        ),
      ),
      saveValues: fromPromise(async ({ input }) =>
        withPreview(await deps.contractsApi.update(input.id, { version: input.version, overrides: input.overrides })),
      ),
      issue: fromPromise(async ({ input }) => withPreview(await deps.contractsApi.issue(input.id, { version: input.version }))),
      downloadPdf: fromPromise(({ input }) => downloadPdf(input.contract)),
      downloadScan: fromPromise(({ input }) => downloadScan(input.contract)),
      uploadScan: fromPromise(({ input }) => deps.contractsApi.uploadSignedScan(input.id, input.file, input.file.name)),
      annul: fromPromise(({ input }) => deps.contractsApi.annul(input.id, { version: input.version, reason: input.reason })),
    },
    actions: {
      reportApiError: (_, error) => report(error),
      notify: (_, message) => deps.toaster.show({ severity: 'success', summary: message }),
      syncUrl: (_, saleId) => deps.replaceUrl?.(saleId === null ? '' : `?venta=${saleId}`),
    },
  });

  const { list } = resourceScreenMachines<Contract>({
    fetchPage: deps.contractsApi.list,
    save: () => Promise.reject(new Error('Los contratos se generan desde Generar Contrato')),
    reportApiError: deps.reportApiError,
    toaster: deps.toaster as AppToaster,
  });
  const detail = contractDetailMachine.provide({
    actors: {
      load: fromPromise(({ input }) => deps.contractsApi.get(input.id)),
      uploadScan: fromPromise(({ input }) => deps.contractsApi.uploadSignedScan(input.id, input.file, input.file.name)),
      annul: fromPromise(({ input }) => deps.contractsApi.annul(input.id, { version: input.version, reason: input.reason })),
      download: fromPromise(({ input }) => (input.what === 'pdf' ? downloadPdf(input.contract) : downloadScan(input.contract))),
    },
    actions: {
      reportApiError: (_, error) => report(error),
      notify: (_, message) => deps.toaster.show({ severity: 'success', summary: message }),
    },
  });
  const subdivisions = createLoadOnceMachine<SubdivisionOption[]>('contractSubdivisions', []).provide({
    actors: { load: fromPromise(() => deps.subdivisionOptions()) },
  });
  return { generate, list, detail, subdivisions };
}
export type ContractsMachines = ReturnType<typeof createContractsMachines>;

/** Builds the api modules on the app's client (this module is loaded on demand with the screens). */
export function createContractsMachinesFor(client: ApiClient, deps: { reportApiError: (error: ApiError) => void; toaster: AppToaster }) {
  return createContractsMachines({
    ...deps,
    contractsApi: createContractsApi(client),
    salesApi: createSalesApi(client),
    lotsApi: createLotsApi(client),
    templatesApi: createContractTemplatesApi(client),
    subdivisionOptions: createSubdivisionOptionsApi(client).list,
    replaceUrl: (search) => window.history.replaceState(window.history.state, '', `${window.location.pathname}${search}`),
  });
}
