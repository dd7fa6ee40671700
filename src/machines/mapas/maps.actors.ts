import { fromCallback, fromPromise } from 'xstate';
import { isEndedSale } from '../../schemas/comercio/sales';
import type { ApiClient, ApiError } from '../../api/client';
import { createLotMapsApi, type LotMapsApi } from '../../api/mapas/lot-maps';
import { createLotsApi, type LotsApi } from '../../api/proyectos/lots';
import type { AppToaster } from '../../lib/toaster';
import type { LotMap, PublicLotMap } from '../../schemas/proyectos/projects';
import { createLotStatusMachines } from '../proyectos/lot-status.machine';
import { lotMapMachine, type LoadedMap, type LotMapEvent, type MapSource } from './lot-map.machine';
import type { MapLotView } from './map-geometry';
import { createProjectMapPageMachine } from './project-map-page.machine';
import { forwardSessionErrors, isSessionError } from '../shared/api-errors';
import { createCustomersApi, type CustomersApi } from '../../api/crm/customers';
import { createQuotesApi, type QuotesApi } from '../../api/comercio/quotes';
import { createPortalSalesApi, type PortalSalesApi } from '../../api/comercio/portal-sales';
import { reservationRequestMachine } from '../comercio/reservation-request.machine';
import { createSalesApi, type SalesApi } from '../../api/comercio/sales';
import { lotSaleMachine } from './lot-sale.machine';
import { createReservationsApi, type ReservationsApi } from '../../api/comercio/reservations';
import { provideReservationForm } from '../comercio/reservation-form.machine';
import { quoteDialogFor } from '../comercio/quote-form.machine';
import { searchActiveCustomers } from '../crm/customer-search';
import { createPaymentMapApi, type PaymentMapApi } from '../../api/mapas/payment-map';
import { createSubdivisionOptionsApi } from '../../api/proyectos/subdivision-options';
import type { PaymentMap } from '../../schemas/comercio/payment-map';
import type { SubdivisionOption } from '../../schemas/proyectos/subdivision-options';
import { replaceUrlSearch } from '../../lib/location';
import { PAYMENT_MAP_QUERY_KEY, paymentMapPageMachine } from './payment-map-page.machine';

/** What the map screens' machines need from the app. */
export interface MapsMachinesDeps {
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
  /** Object URLs of the staff plan blob (defaults to the browser's URL; tests pass fakes). */
  objectUrls?: { create(blob: Blob): string; revoke(url: string): void };
  /** Writes text to the clipboard (defaults to the Clipboard API). */
  writeClipboard?: (text: string) => Promise<void>;
}

/** Staff map answer → the lots every map draws (`key` = the lot id). */
export function staffMapView(map: LotMap): LoadedMap {
  return {
    subdivision: map.subdivision,
    lots: map.lots.map((l): MapLotView => ({ ...l, key: String(l.id) })),
  };
}

/**
 * Staff map + payment map answers → the lots Mapa de Pagos draws: every lot of the staff map, a sold
 * one with its `payment` facts (by lot id), and the server's summary per bucket.
 */
export function paymentMapView(map: LotMap, payments: PaymentMap): LoadedMap {
  const byLot = new Map(payments.lots.map((p) => [p.lot_id, p]));
  return {
    subdivision: map.subdivision,
    lots: map.lots.map((l): MapLotView => ({ ...l, key: String(l.id), payment: byLot.get(l.id) ?? null })),
    paymentSummary: payments.summary,
  };
}

/** Public map answer → the lots every map draws (`key` = the lot code, no id). */
export function publicMapView(map: PublicLotMap): LoadedMap {
  return {
    subdivision: map.subdivision,
    lots: map.lots.map((l): MapLotView => ({ ...l, key: l.code, id: null })),
  };
}

/**
 * The map machine provided with the lot maps api: `loadMap` (staff or public call), `loadPlan`
 * (staff: the plan blob through the api client → object URL, revoked when the map closes;
 * public: the plan URL as is), `loadLot` (GET lots/{id}), `loadTitleStates` (the heat map's
 * TITLE_STATE; fails when the api has no `titleStates`) and `reportApiError` (only
 * 401/402/404 of staff calls go to the session: a 404 on the public map is the map's own state).
 */
export function provideLotMap(
  api: Pick<LotMapsApi, 'staffMap' | 'publicMap' | 'planBlob' | 'lot'> & Partial<Pick<LotMapsApi, 'titleStates'>>,
  deps: Pick<MapsMachinesDeps, 'reportApiError' | 'objectUrls' | 'writeClipboard'> & { toaster?: AppToaster },
) {
  const writeClipboard = deps.writeClipboard ?? ((text: string) => navigator.clipboard.writeText(text));
  const urls = deps.objectUrls ?? { create: (b: Blob) => URL.createObjectURL(b), revoke: (u: string) => URL.revokeObjectURL(u) };
  return lotMapMachine.provide({
    actors: {
      loadMap: fromPromise(async ({ input }) => {
        return input.source === 'staff' ? staffMapView(await api.staffMap(input.key)) : publicMapView(await api.publicMap(input.key));
      }),
      loadPlan: fromCallback<LotMapEvent, { planUrl: string; source: MapSource }>(({ sendBack, input }) => {
        if (input.source === 'public') {
          sendBack({ type: 'plan.loaded', src: input.planUrl });
          return undefined;
        }
        let created: string | null = null;
        let stopped = false;
        api.planBlob(input.planUrl).then(
          (blob) => {
            if (stopped) return;
            created = urls.create(blob);
            sendBack({ type: 'plan.loaded', src: created });
          },
          () => {
            if (!stopped) sendBack({ type: 'plan.failed' });
          },
        );
        return () => {
          stopped = true;
          if (created) urls.revoke(created);
        };
      }),
      loadLot: fromPromise(({ input }) => api.lot(input.id)),
      loadTitleStates: fromPromise(({ input }) =>
        api.titleStates ? api.titleStates(input.key) : Promise.reject(new Error('titleStates missing')),
      ),
    },
    actions: {
      reportApiError: ({ context }, error) => {
        if (context.source === 'staff' && isSessionError(error)) deps.reportApiError(error);
      },
      copyLink: (_, url) => {
        Promise.resolve()
          .then(() => writeClipboard(url))
          .then(
            () => deps.toaster?.show({ severity: 'success', summary: 'Enlace copiado', detail: url }),
            () => deps.toaster?.show({ severity: 'warn', summary: 'No se pudo copiar el enlace', detail: url }),
          );
      },
    },
  });
}

/**
 * Machines of the lot maps over given apis (tests pass fakes): `lotMap` (input
 * `{key, source, colouring?, details?}`), the `lotStatus` machines (status dialog + history) for
 * MapaProyectos' lot panel, and `projectMapPage`, MapaProyectos' own machine over the map, the
 * status dialog and the "Separar" dialog (project-map-page.machine.ts; same input as `lotMap`);
 * Mapa de Pagos' `paymentMapPage` (the subdivision select, payment-map-page.machine.ts) and
 * `paymentLotMap` (the lot map whose `loadMap` reads the staff map and the payment map together).
 */
export function createMapsMachines(
  deps: Omit<MapsMachinesDeps, 'toaster'> & {
    api: Pick<LotMapsApi, 'staffMap' | 'publicMap' | 'planBlob' | 'lot'> & Partial<Pick<LotMapsApi, 'titleStates'>>;
    lotsApi: Pick<LotsApi, 'changeStatus' | 'statusHistory' | 'get'>;
    customersApi: Pick<CustomersApi, 'list'>;
    reservationsApi: Pick<ReservationsApi, 'create'>;
    quotesApi: Pick<QuotesApi, 'create' | 'changeStatus' | 'pdf'>;
    salesApi: Pick<SalesApi, 'list'>;
    /** A customer's "Solicitar separación" on MapSalesCustomer (absent: the request fails). */
    portalSalesApi?: Pick<PortalSalesApi, 'requestReservation'>;
    /** Saves a downloaded file (defaults to a download link, src/lib/download.ts). */
    saveBlob?: (blob: Blob, fileName: string) => void;
    /** Mapa de Pagos' call (absent: its map fails). */
    paymentMapApi?: Pick<PaymentMapApi, 'get'>;
    /** The subdivisions Mapa de Pagos offers (absent: none). */
    subdivisionOptions?: () => Promise<SubdivisionOption[]>;
    /** Writes Mapa de Pagos' subdivision to the address (defaults to `?lotizacion=` by replaceState). */
    syncPaymentMapUrl?: (key: string) => void;
    toaster: Pick<AppToaster, 'show'>;
  },
) {
  const lotMap = provideLotMap(deps.api, { ...deps, toaster: deps.toaster as AppToaster });
  const lotStatus = createLotStatusMachines({ lotsApi: deps.lotsApi, reportApiError: deps.reportApiError, toaster: deps.toaster });
  const searchCustomers = searchActiveCustomers(deps.customersApi);
  const reservation = provideReservationForm({
    searchCustomers,
    reserve: deps.reservationsApi.create,
    lot: deps.lotsApi.get,
    reportApiError: forwardSessionErrors(deps.reportApiError),
    toast: (r) =>
      deps.toaster.show({
        severity: 'success',
        summary: 'Lote separado',
        detail: `${r.number}: ${r.lot.code} para ${r.customer.display_name}`,
      }),
  });
  const quote = quoteDialogFor(deps);
  const lotSale = lotSaleMachine.provide({
    actors: {
      load: fromPromise(async ({ input }) => {
        const page = await deps.salesApi.list({ page: 1, per_page: 10, filters: { lot_id: String(input.lotId) } });
        return page.data.find((s) => !isEndedSale(s.status)) ?? null;
      }),
    },
    actions: { reportApiError: (_, error) => forwardSessionErrors(deps.reportApiError)(error) },
  });
  const reservationRequest = reservationRequestMachine.provide({
    actors: {
      submit: fromPromise(({ input }) =>
        deps.portalSalesApi ? deps.portalSalesApi.requestReservation(input.body) : Promise.reject(new Error('portalSalesApi missing')),
      ),
    },
    actions: { reportApiError: (_, error) => forwardSessionErrors(deps.reportApiError)(error) },
  });
  // Mapa de Pagos: the staff map and the payment facts, read together (both or the map fails).
  const paymentLotMap = lotMap.provide({
    actors: {
      loadMap: fromPromise(async ({ input }) => {
        if (!deps.paymentMapApi) throw new Error('paymentMapApi missing');
        const [map, payments] = await Promise.all([deps.api.staffMap(input.key), deps.paymentMapApi.get(input.key)]);
        return paymentMapView(map, payments);
      }),
    },
  });
  const syncPaymentMapUrl =
    deps.syncPaymentMapUrl ?? ((key: string) => replaceUrlSearch(new URLSearchParams({ [PAYMENT_MAP_QUERY_KEY]: key })));
  const paymentMapPage = paymentMapPageMachine.provide({
    actors: { loadSubdivisions: fromPromise(() => (deps.subdivisionOptions ? deps.subdivisionOptions() : Promise.resolve([]))) },
    actions: {
      syncUrl: (_, key) => syncPaymentMapUrl(key),
      reportApiError: (_, error) => forwardSessionErrors(deps.reportApiError)(error),
    },
  });
  return {
    lotMap,
    paymentLotMap,
    paymentMapPage,
    lotStatus,
    lotSale,
    reservationRequest,
    projectMapPage: createProjectMapPageMachine({ map: lotMap, status: lotStatus.status, reservation, quote }),
  };
}

/**
 * Machines of the lot maps (MapaProyectos, MapSales, MapSales/Heat, MapaVentas/Pagos, MapSalesCustomer, /mapa),
 * loaded on demand with the map screens, over the app's api client.
 */
export function createMapsMachinesFor(client: ApiClient, deps: MapsMachinesDeps) {
  return createMapsMachines({
    ...deps,
    api: createLotMapsApi(client),
    lotsApi: createLotsApi(client),
    customersApi: createCustomersApi(client),
    reservationsApi: createReservationsApi(client),
    quotesApi: createQuotesApi(client),
    salesApi: createSalesApi(client),
    portalSalesApi: createPortalSalesApi(client),
    paymentMapApi: createPaymentMapApi(client),
    subdivisionOptions: createSubdivisionOptionsApi(client).list,
  });
}
export type MapsMachines = ReturnType<typeof createMapsMachines>;
