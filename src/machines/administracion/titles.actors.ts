import { fromPromise } from 'xstate';
import type { ApiClient, ApiError } from '../../api/client';
import { createTitlesApi, type TitlesApi } from '../../api/administracion/titles';
import { createSubdivisionOptionsApi } from '../../api/proyectos/subdivision-options';
import { saveBlobFile } from '../../lib/download';
import type { AppToaster } from '../../lib/toaster';
import { TITLE_STATE_LABELS, type TitleProcess, type TitleProcessDetail } from '../../schemas/administracion/titles';
import type { SubdivisionOption } from '../../schemas/proyectos/subdivision-options';
import { forwardSessionErrors } from '../shared/api-errors';
import { createLoadOnceMachine } from '../shared/load-once.machine';
import { resourceScreenMachines } from '../shared/resource-screen';
import { titleCreateMachine, titleSaleLookupMachine } from './title-create.machine';
import { titleDetailMachine } from './title-detail.machine';
import { titleTransitionMachine } from './title-transition.machine';
import { createTitlesPageMachine } from './titles-page.machine';

/**
 * Administración → Registros de partidas y títulos (docs/domain.md "Titles at SUNARP"): the board,
 * the list (the CRUD pattern's list over GET /api/title-processes, exported from the current view),
 * "Nuevo trámite", a process's drawer and "Cambiar estado", under one page machine
 * (titles-page.machine.ts).
 */

export interface TitlesMachinesDeps {
  titlesApi: TitlesApi;
  subdivisionOptions: () => Promise<SubdivisionOption[]>;
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
  /** Saves a downloaded file (defaults to a browser download; tests pass a fake). */
  saveBlob?: (blob: Blob, fileName: string) => void;
}

/** The acta de entrega's file name: "acta-entrega-V-000012.pdf". */
export function deliveryRecordFileName(p: Pick<TitleProcessDetail, 'sale' | 'delivery_record'>): string {
  const type = p.delivery_record?.content_type ?? 'application/pdf';
  const extension = type === 'application/pdf' ? 'pdf' : type.replace('image/', '').replace('jpeg', 'jpg');
  return `acta-entrega-${p.sale.number}.${extension}`;
}

/** "V-000012 · MZ A - LT 3" for the toasts. */
const processText = (p: Pick<TitleProcess, 'sale' | 'lot'>) => `${p.sale.number} · ${p.lot.code}`;

/** The titles screen's machines, provided. */
export function createTitlesMachines(deps: TitlesMachinesDeps) {
  const api = deps.titlesApi;
  const report = forwardSessionErrors(deps.reportApiError);
  const { list } = resourceScreenMachines<TitleProcess>({
    fetchPage: api.list,
    save: () => Promise.reject(new Error('Los trámites se crean con "Nuevo trámite"')),
    reportApiError: deps.reportApiError,
    toaster: deps.toaster,
  });
  const create = titleCreateMachine.provide({
    actors: {
      lookup: titleSaleLookupMachine.provide({ actors: { search: fromPromise(({ input }) => api.saleOptions(input.text)) } }),
      create: fromPromise(({ input }) => api.create(input.body)),
    },
    actions: {
      created: (_, { process }) =>
        deps.toaster.show({ severity: 'success', summary: 'Trámite de título creado', detail: processText(process) }),
      reportApiError: (_, error) => report(error),
    },
  });
  const detail = titleDetailMachine.provide({
    actors: {
      load: fromPromise(({ input }) => api.get(input)),
      save: fromPromise(({ input }) => api.update(input.id, input.body)),
      download: fromPromise(async ({ input }) =>
        (deps.saveBlob ?? saveBlobFile)(await api.deliveryRecord(input.id), deliveryRecordFileName(input)),
      ),
    },
    actions: {
      saved: (_, { process }) => deps.toaster.show({ severity: 'success', summary: 'Trámite guardado', detail: processText(process) }),
      downloadFailed: (_, message) =>
        deps.toaster.show({ severity: 'error', summary: 'No se pudo descargar el acta de entrega', detail: message, life: 6000 }),
      reportApiError: (_, error) => report(error),
    },
  });
  const transition = titleTransitionMachine.provide({
    actors: {
      upload: fromPromise(({ input }) => api.uploadDeliveryRecord(input.id, input.file, input.file.name)),
      transition: fromPromise(({ input }) => api.transition(input.id, input.body)),
    },
    actions: {
      moved: (_, { process }) =>
        deps.toaster.show({
          severity: 'success',
          summary: `Trámite en «${TITLE_STATE_LABELS[process.state]}»`,
          detail: processText(process),
        }),
      reportApiError: (_, error) => report(error),
    },
  });
  const subdivisions = createLoadOnceMachine<SubdivisionOption[]>('titleSubdivisions', []).provide({
    actors: { load: fromPromise(() => deps.subdivisionOptions()) },
  });
  const page = createTitlesPageMachine({ list, create, detail, transition, subdivisions }).provide({
    actors: { fetchBoard: fromPromise(({ input }) => api.board(input)) },
  });
  return { page };
}
export type TitlesMachines = ReturnType<typeof createTitlesMachines>;

/** Builds the api modules on the app's client (this module is loaded on demand with the screen). */
export function createTitlesMachinesFor(client: ApiClient, deps: Omit<TitlesMachinesDeps, 'titlesApi' | 'subdivisionOptions'>) {
  return createTitlesMachines({
    ...deps,
    titlesApi: createTitlesApi(client),
    subdivisionOptions: createSubdivisionOptionsApi(client).list,
  });
}
