import { fromPromise } from 'xstate';
import { createContractsApi } from '../../api/administracion/contracts';
import { defaultListQuery } from '../../schemas/list';
import type { ApiClient, ApiError } from '../../api/client';
import { createSalesApi, type SalesApi } from '../../api/comercio/sales';
import { createReservationsApi, type ReservationsApi } from '../../api/comercio/reservations';
import { createQuotesApi, type QuotesApi } from '../../api/comercio/quotes';
import type { Quote } from '../../schemas/comercio/quotes';
import { createRecordActionsMachine } from '../shared/record-actions.machine';
import { quotePdfMachine, saveQuotePdf } from './quote-pdf.machine';
import { RESERVATION_MESSAGES, type Reservation } from '../../schemas/comercio/reservations';
import { createReasonActionMachine } from '../shared/reason-action.machine';
import { assign, setup } from 'xstate';
import { createSubdivisionOptionsApi } from '../../api/proyectos/subdivision-options';
import type { AppToaster } from '../../lib/toaster';
import { SALE_MESSAGES, type Sale } from '../../schemas/comercio/sales';
import type { SubdivisionOption } from '../../schemas/proyectos/subdivision-options';
import { forwardSessionErrors } from '../shared/api-errors';
import { createLoadOnceMachine } from '../shared/load-once.machine';
import { resourceScreenMachines } from '../shared/resource-screen';
import { saleDetailMachine, type SaleContractRef, type SaleDetailData } from './sale-detail.machine';
import { saveBlobFile } from '../../lib/download';
import { annulSaleMachine } from './annul-sale.machine';
import { rescindSaleMachine } from './rescind-sale.machine';
import { rescheduleSaleMachine } from './reschedule-sale.machine';
import { RESCHEDULE_MESSAGES, RESCISSION_MESSAGES } from '../../schemas/comercio/rescissions';

/**
 * Comercial → Ventas (issue "CRM and sales"): the sales list (read-only list of the CRUD pattern:
 * sales are made on the map and in the contract stepper), one sale's drawer with its schedule
 * (`detail`), "Anular" with its reason (`annul`) and the subdivisions of the filter (`subdivisions`);
 * the Separaciones tab: the reservations list (`reservations`) and "Anular" (`cancelReservation`);
 * the Cotizaciones tab: the quotes list (`quotes`), "Marcar como enviada" and "Anular" (`quoteActions`,
 * asked first) and "Descargar PDF" (`quotePdf`); the tab shown (`tab`).
 */
/** Which tab of the screen shows: the sales, the reservations or the quotes. */
export type SalesTab = 'ventas' | 'separaciones' | 'cotizaciones';

/** The tabs in order; `?vista=` names one (anything else: Ventas). */
export const SALES_TABS: readonly SalesTab[] = ['ventas', 'separaciones', 'cotizaciones'];

/** A quote's row actions that change its status (POST quotes/{id}/status). */
export type QuoteActionKind = 'markSent' | 'annul';

/** Spanish success toasts per quote action. */
export const QUOTE_ACTION_DONE: Record<QuoteActionKind, string> = {
  markSent: 'Cotización marcada como enviada',
  annul: 'Cotización anulada',
};

/** The screen's tab (`tab.changed {tab}`). */
export const salesTabMachine = setup({
  types: { context: {} as { tab: SalesTab }, events: {} as { type: 'tab.changed'; tab: SalesTab }, input: {} as { tab: SalesTab } },
}).createMachine({
  id: 'salesTab',
  context: ({ input }) => ({ tab: input.tab }),
  on: { 'tab.changed': { actions: assign(({ event }) => ({ tab: event.tab })) } },
});

/** "Anular" a reservation (the reason required; the lot is freed). */
export const cancelReservationMachine = createReasonActionMachine<Reservation>('cancelReservation', RESERVATION_MESSAGES.reasonRequired);

export interface SalesMachinesDeps {
  salesApi: SalesApi;
  reservationsApi: Pick<ReservationsApi, 'list' | 'cancel'>;
  quotesApi: Pick<QuotesApi, 'list' | 'changeStatus' | 'pdf'>;
  /** Saves a downloaded PDF (defaults to a browser download; tests pass a fake). */
  saveBlob?: (blob: Blob, fileName: string) => void;
  subdivisionOptions: () => Promise<SubdivisionOption[]>;
  /** The sale's contracts, newest first (GET contracts?sale_id=); left out: the drawer shows none. */
  contractsOfSale?: (saleId: number) => Promise<SaleContractRef[]>;
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
}

export function createSalesMachines(deps: SalesMachinesDeps) {
  const report = forwardSessionErrors(deps.reportApiError);
  const { list } = resourceScreenMachines<Sale>({
    fetchPage: deps.salesApi.list,
    save: () => Promise.reject(new Error('Las ventas se registran desde el mapa o el contrato')),
    reportApiError: deps.reportApiError,
    toaster: deps.toaster,
  });
  const detail = saleDetailMachine.provide({
    actors: {
      // The schedules and the contract are extras: a failure (or no right to read contracts) leaves them out.
      load: fromPromise(async ({ input }): Promise<SaleDetailData> => {
        const [sale, schedules, contracts] = await Promise.all([
          deps.salesApi.get(input.id),
          deps.salesApi.schedules(input.id).catch(() => []),
          deps.contractsOfSale ? deps.contractsOfSale(input.id).catch(() => []) : Promise.resolve([]),
        ]);
        return { sale, oldSchedules: schedules.filter((s) => !s.current), contract: contracts[0] ?? null };
      }),
      download: fromPromise(async ({ input }) => (deps.saveBlob ?? saveBlobFile)(await deps.salesApi.document(input.path), input.fileName)),
    },
    actions: {
      reportApiError: (_, error) => report(error),
      downloadFailed: (_, message) =>
        deps.toaster.show({ severity: 'error', summary: 'No se pudo descargar el documento', detail: message, life: 6000 }),
    },
  });
  /** A document the event left pending (no published template, or a draft): a warning that stays a while. */
  const pendingNotice = (notice: string | null | undefined) => {
    if (notice) deps.toaster.show({ severity: 'warn', summary: 'Documento pendiente', detail: notice, life: 10000 });
  };
  const annul = annulSaleMachine.provide({
    actors: {
      loadAnnulment: fromPromise(({ input }) => deps.salesApi.annulment(input.id)),
      run: fromPromise(({ input }) => deps.salesApi.annul(input.id, input.body)),
    },
    actions: {
      reportApiError: (_, error) => report(error),
      done: (_, { record: sale }) =>
        deps.toaster.show({ severity: 'success', summary: SALE_MESSAGES.annulled, detail: `${sale.number}: ${sale.lot.code}` }),
    },
  });
  const rescind = rescindSaleMachine.provide({
    actors: {
      loadPreview: fromPromise(({ input }) => deps.salesApi.rescission(input.id)),
      run: fromPromise(({ input }) => deps.salesApi.rescind(input.id, input.body)),
    },
    actions: {
      reportApiError: (_, error) => report(error),
      done: (_, { record: sale }) => {
        deps.toaster.show({ severity: 'success', summary: RESCISSION_MESSAGES.resolved, detail: `${sale.number}: ${sale.lot.code}` });
        pendingNotice(sale.rescission?.letter_pending);
      },
    },
  });
  const reschedule = rescheduleSaleMachine.provide({
    actors: {
      loadPreview: fromPromise(({ input }) => deps.salesApi.reschedulePreview(input.id, input.query)),
      run: fromPromise(({ input }) => deps.salesApi.reschedule(input.id, input.body)),
    },
    actions: {
      reportApiError: (_, error) => report(error),
      done: (_, { record: sale }) => {
        deps.toaster.show({ severity: 'success', summary: RESCHEDULE_MESSAGES.rescheduled, detail: `${sale.number}: ${sale.lot.code}` });
        pendingNotice(sale.adenda?.document_pending);
      },
    },
  });
  const subdivisions = createLoadOnceMachine<SubdivisionOption[]>('saleSubdivisions', []).provide({
    actors: { load: fromPromise(() => deps.subdivisionOptions()) },
  });
  const reservations = resourceScreenMachines<Reservation>({
    fetchPage: deps.reservationsApi.list,
    save: () => Promise.reject(new Error('Las separaciones se registran desde el mapa')),
    reportApiError: deps.reportApiError,
    toaster: deps.toaster,
  }).list;
  const cancelReservation = cancelReservationMachine.provide({
    actors: {
      run: fromPromise(({ input: { record, reason } }) =>
        deps.reservationsApi.cancel(record.id, record.version === undefined ? { reason } : { reason, version: record.version }),
      ),
    },
    actions: {
      reportApiError: (_, error) => report(error),
      done: (_, { record }) =>
        deps.toaster.show({ severity: 'success', summary: RESERVATION_MESSAGES.cancelled, detail: `${record.number}: ${record.lot.code}` }),
    },
  });
  const quotes = resourceScreenMachines<Quote>({
    fetchPage: deps.quotesApi.list,
    save: () => Promise.reject(new Error('Las cotizaciones se hacen desde el mapa')),
    reportApiError: deps.reportApiError,
    toaster: deps.toaster,
  }).list;
  const quoteActions = createRecordActionsMachine<QuoteActionKind, Quote>('quoteActions').provide({
    actors: {
      run: fromPromise<unknown, { kind: QuoteActionKind; record: Quote }>(({ input: { kind, record } }) => {
        // The change carries the version read: a quote changed meanwhile is a 409.
        const status = kind === 'markSent' ? 'ENVIADA' : 'ANULADA';
        return deps.quotesApi.changeStatus(record.id, record.version === undefined ? { status } : { status, version: record.version });
      }),
    },
    actions: {
      done: (_, { kind, record }) => deps.toaster.show({ severity: 'success', summary: QUOTE_ACTION_DONE[kind], detail: record.number }),
      failed: (_, { message }) => deps.toaster.show({ severity: 'error', summary: 'No se pudo completar', detail: message, life: 6000 }),
      reportApiError: (_, error) => report(error),
    },
  });
  const quotePdf = quotePdfMachine.provide({
    actors: { download: fromPromise(({ input }) => saveQuotePdf(deps.quotesApi.pdf, input.quote, deps.saveBlob)) },
    actions: {
      failed: (_, { message }) =>
        deps.toaster.show({ severity: 'error', summary: 'No se pudo descargar el PDF', detail: message, life: 6000 }),
      reportApiError: (_, error) => report(error),
    },
  });
  return {
    list,
    detail,
    annul,
    rescind,
    reschedule,
    subdivisions,
    reservations,
    cancelReservation,
    quotes,
    quoteActions,
    quotePdf,
    tab: salesTabMachine,
  };
}
export type SalesMachines = ReturnType<typeof createSalesMachines>;

/** Builds the api modules on the app's client (this module is loaded on demand with the screen). */
export function createSalesMachinesFor(
  client: ApiClient,
  deps: Omit<SalesMachinesDeps, 'salesApi' | 'reservationsApi' | 'quotesApi' | 'subdivisionOptions'>,
) {
  return createSalesMachines({
    ...deps,
    salesApi: createSalesApi(client),
    reservationsApi: createReservationsApi(client),
    quotesApi: createQuotesApi(client),
    subdivisionOptions: createSubdivisionOptionsApi(client).list,
    contractsOfSale: async (saleId) =>
      (await createContractsApi(client).list({ ...defaultListQuery(5), sort: '-created_at', filters: { sale_id: String(saleId) } })).data,
  });
}
