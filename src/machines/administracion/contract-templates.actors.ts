import { fromPromise } from 'xstate';
import type { ApiClient, ApiError } from '../../api/client';
import { createContractTemplatesApi, type ContractTemplatesApi } from '../../api/administracion/contract-templates';
import { createSubdivisionOptionsApi } from '../../api/proyectos/subdivision-options';
import { replaceUrlQueryKeeping } from '../../lib/location';
import type { AppToaster } from '../../lib/toaster';
import type { ContractTemplate } from '../../schemas/administracion/contract-templates';
import type { SubdivisionOption } from '../../schemas/proyectos/subdivision-options';
import { forwardSessionErrors } from '../shared/api-errors';
import { createLoadOnceMachine } from '../shared/load-once.machine';
import { resourceScreenMachines } from '../shared/resource-screen';
import { createContractTemplatesPageMachine } from './contract-templates-page.machine';
import { templateCreateMachine } from './template-create.machine';
import { templateEditorMachine } from './template-editor.machine';

/**
 * Administración → Generar Contrato (docs/domain.md "Contract templates"): the page machine with
 * the templates' list (always the latest version of each family, `latest=true`), the subdivisions,
 * "Nueva plantilla" and the editor, provided with the api and the app's effects.
 */

export interface ContractTemplatesMachinesDeps {
  templatesApi: ContractTemplatesApi;
  subdivisionOptions: () => Promise<SubdivisionOption[]>;
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
}

/** The address parameter of the sale a link opens the screen on (`?venta=<id>`, saleIdFromSearch). */
export const SALE_LINK_PARAM = 'venta';

/** The screen's machines over `deps` (view tests pass fake apis). */
export function createContractTemplatesMachines(deps: ContractTemplatesMachinesDeps) {
  const api = deps.templatesApi;
  const report = forwardSessionErrors(deps.reportApiError);
  const { list } = resourceScreenMachines<ContractTemplate>({
    fetchPage: (query) => api.list({ ...query, filters: { ...query.filters, latest: 'true' } }),
    save: () => Promise.reject(new Error('Las plantillas se guardan desde su editor')),
    // The list writes its query to the address but leaves the linked sale (?venta=) in it, so a
    // reload opens that sale again (docs/decisions.md "Contract generation screen").
    syncUrl: (query) => replaceUrlQueryKeeping(query, [SALE_LINK_PARAM]),
    reportApiError: deps.reportApiError,
    toaster: deps.toaster,
  });
  const subdivisions = createLoadOnceMachine<SubdivisionOption[]>('templateSubdivisions', []).provide({
    actors: { load: fromPromise(() => deps.subdivisionOptions()) },
  });
  const create = templateCreateMachine.provide({
    actors: { create: fromPromise(({ input }) => api.create(input)) },
    actions: { reportApiError: (_, error) => report(error) },
  });
  const editor = templateEditorMachine.provide({
    actors: {
      load: fromPromise(({ input }) => api.get(input.id)),
      save: fromPromise(({ input }) => api.update(input.id, input.body)),
      publish: fromPromise(({ input }) => api.publish(input.id, { version: input.version ?? 1 })),
      newVersion: fromPromise(({ input }) => api.newVersion(input.id, { version: input.version ?? 1 })),
    },
    actions: {
      notify: (_, summary) => deps.toaster.show({ severity: 'success', summary }),
      reportApiError: (_, error) => report(error),
    },
  });
  const page = createContractTemplatesPageMachine({ list, subdivisions, create, editor });
  return { page };
}
export type ContractTemplatesMachines = ReturnType<typeof createContractTemplatesMachines>;

/** Builds the api modules on the app's client (this module is loaded on demand with the screen). */
export function createContractTemplatesMachinesFor(
  client: ApiClient,
  deps: Omit<ContractTemplatesMachinesDeps, 'templatesApi' | 'subdivisionOptions'>,
) {
  return createContractTemplatesMachines({
    ...deps,
    templatesApi: createContractTemplatesApi(client),
    subdivisionOptions: createSubdivisionOptionsApi(client).list,
  });
}
