import { fromPromise } from 'xstate';
import type { ApiClient, ApiError } from '../../api/client';
import { createInstalmentsApi, type InstalmentsApi } from '../../api/finanzas/instalments';
import { createSubdivisionOptionsApi } from '../../api/proyectos/subdivision-options';
import type { AppToaster } from '../../lib/toaster';
import { XLSX_MIME } from '../../lib/xlsx';
import { INSTALMENT_MESSAGES, INSTALMENTS_EXPORT_MAX_ROWS, type InstalmentRow } from '../../schemas/finanzas/instalments';
import type { SubdivisionOption } from '../../schemas/proyectos/subdivision-options';
import { forwardSessionErrors } from '../shared/api-errors';
import { createLoadOnceMachine } from '../shared/load-once.machine';
import { resourceScreenMachines } from '../shared/resource-screen';
import type { ExportFile, ExportInput } from '../shared/resource-list.machine';
import { createInstalmentsPageMachine } from './instalments-page.machine';
import { waiveLateFeeMachine } from './waive-late-fee.machine';
import { formatMoney } from '../../lib/money';

/**
 * Finanzas → Registro de Cuotas (issue 16): the register's list (read-only list of the CRUD
 * pattern; its "Exportar" downloads the server's file of the whole filtered set), the totals, the
 * "Condonar mora" form and the subdivisions of the filter, under one page machine
 * (instalments-page.machine.ts).
 */

/** Toast when the export was cut at the server's cap. */
export const EXPORT_CAPPED_MESSAGE = `Se exportaron solo las primeras ${INSTALMENTS_EXPORT_MAX_ROWS.toLocaleString('es-PE')} cuotas. Use los filtros para acotar la lista.`;

export interface InstalmentsMachinesDeps {
  instalmentsApi: InstalmentsApi;
  subdivisionOptions: () => Promise<SubdivisionOption[]>;
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
}

export function createInstalmentsMachines(deps: InstalmentsMachinesDeps) {
  const api = deps.instalmentsApi;
  const report = forwardSessionErrors(deps.reportApiError);
  const { list: baseList } = resourceScreenMachines<InstalmentRow>({
    fetchPage: api.list,
    save: () => Promise.reject(new Error('Las cuotas se generan con la venta')),
    reportApiError: deps.reportApiError,
    toaster: deps.toaster,
  });
  const list = baseList.provide({
    actors: {
      // "Exportar": the server writes the file of the whole filtered set (GET instalments/export).
      fetchAll: fromPromise<ExportFile, ExportInput<InstalmentRow>>(async ({ input }) => {
        const [{ blob }, page] = await Promise.all([
          api.exportFile(input.query, input.format),
          api.list({ ...input.query, page: 1, per_page: 1 }),
        ]);
        const content = new Uint8Array(await blob.arrayBuffer());
        const capped = page.meta.total > INSTALMENTS_EXPORT_MAX_ROWS;
        if (capped) deps.toaster.show({ severity: 'warn', summary: 'Exportación parcial', detail: EXPORT_CAPPED_MESSAGE, life: 6000 });
        return {
          fileName: `${input.fileName}.${input.format}`,
          mime: input.format === 'csv' ? 'text/csv;charset=utf-8' : XLSX_MIME,
          content,
          rows: Math.min(page.meta.total, INSTALMENTS_EXPORT_MAX_ROWS),
          truncated: false,
        };
      }),
    },
  });
  const waive = waiveLateFeeMachine.provide({
    actors: { waive: fromPromise(({ input }) => api.waive(input.id, input.body)) },
    actions: {
      waived: (_, { row }) =>
        deps.toaster.show({
          severity: 'success',
          summary: INSTALMENT_MESSAGES.waived,
          detail: `${row.sale.number} · ${row.kind === 'INICIAL' ? 'Inicial' : 'Cuota'} ${row.number}: mora pendiente ${formatMoney(row.late_fee_due, row.currency)}`,
        }),
      reportApiError: (_, error) => report(error),
    },
  });
  const subdivisions = createLoadOnceMachine<SubdivisionOption[]>('instalmentSubdivisions', []).provide({
    actors: { load: fromPromise(() => deps.subdivisionOptions()) },
  });
  const page = createInstalmentsPageMachine({ list, waive, subdivisions }).provide({
    actors: { fetchTotals: fromPromise(({ input }) => api.totals(input)) },
  });
  return { page };
}
export type InstalmentsMachines = ReturnType<typeof createInstalmentsMachines>;

/** Builds the api modules on the app's client (this module is loaded on demand with the screen). */
export function createInstalmentsMachinesFor(
  client: ApiClient,
  deps: Omit<InstalmentsMachinesDeps, 'instalmentsApi' | 'subdivisionOptions'>,
) {
  return createInstalmentsMachines({
    ...deps,
    instalmentsApi: createInstalmentsApi(client),
    subdivisionOptions: createSubdivisionOptionsApi(client).list,
  });
}
