import { assign, fromCallback, setup, type ActorRefFrom, type SnapshotFrom } from 'xstate';
import type { ApiError } from '../../api/client';
import type { Lot, LotStatus, MapSubdivision } from '../../schemas/proyectos/projects';
import type { PaymentMapBucketSummary } from '../../schemas/comercio/payment-map';
import type { LotTitleState } from '../../schemas/administracion/titles';
import { placeholder } from '../shared/placeholder';
import { errorMessage, errorStatus } from '../shared/api-errors';
import { parseMoneyInput } from '../../lib/money';
import { findLot, NO_FILTERS, polygonBounds, type HeatMetric, type MapFilters, type MapLotView } from './map-geometry';

/**
 * The lot map machine (issue "Proyectos", docs/domain.md "Maps"), one per map screen:
 * MapaProyectos and MapSales (staff data), MapSales/Heat (staff data, heat colouring),
 * MapaVentas/Pagos (staff data with each sold lot's payment facts, payment colouring),
 * MapSalesCustomer and the public /mapa (public data).
 *
 * Input `initialLot` (a lot code) selects that lot once the map loads (panel open, zoomed to it).
 *
 * States: `loading` → `ready` | `failure` (`notFound` when the API answered 404). `ready` runs two
 * regions: `plan` (the plan image: `loading` → `shown` | `absent`; the staff image is fetched as a
 * blob through the api client and shown through an object URL revoked when the map closes) and
 * `panel` (the selected lot's details for staff maps: `closed` | `loading` | `shown` | `failure`),
 * and `titles` (the heat map's TITLE_STATE: `idle` until that metric is picked by a user who may
 * see titles — input `titleStates` — then `loading` → `loaded` (each lot's `title_state` set) |
 * `failure` (`titlesError`; `map.titlesRetry`); read once per map; docs/decisions.md "Heat map: title state").
 *
 * Events: `map.retry`; `map.hover {key|null}`; `map.select {key|null}`; `map.filterBlocks
 * {blocks}`, `map.filterStatuses {statuses}`, `map.filterPrice {min, max}` (céntimos or null),
 * `map.priceTyped {which, text}` (the range boxes: "1,500.50" → 150050 céntimos),
 * `map.clearFilters`; `map.searchTyped {text}`, `map.search` (finds the lot by code, selects it and
 * sets `focus` to its bounds; else `searchMessage` "Lote … no encontrado"); `map.fit` (focus on
 * every lot); `map.colouring {mode}`, `map.metric {metric}` (TITLE_STATE ignored without input
 * `titleStates`); `map.titlesRetry`; `map.lotChanged {lot}` (after a status
 * change: the lot's status and prices update in place, so its colour and the legend counts follow
 * without reloading the map); `map.copyLink {url}` (the shareable link → clipboard + toast).
 */

/** Where the map's data comes from: the staff call (internal statuses) or the public one. */
export type MapSource = 'staff' | 'public';
/** How lots are filled: by status, by the heat metric, or by payment bucket (Mapa de Pagos). */
export type MapColouring = 'status' | 'heat' | 'payment';

/** What `loadMap` answers: the subdivision and its lots as the maps draw them. */
export interface LoadedMap {
  subdivision: MapSubdivision;
  lots: MapLotView[];
  /** Mapa de Pagos: lots and amounts per bucket as the server summed them (absent on other maps). */
  paymentSummary?: PaymentMapBucketSummary[];
}

/** A zoom target for the view: drawing bounds in subdivision coordinates; `seq` changes on every request. */
export interface MapFocus {
  bounds: [number, number, number, number];
  seq: number;
  /** Margin around the bounds as a fraction of their size (a searched lot is shown with its neighbours). */
  pad: number;
}

export interface LotMapContext {
  key: string;
  /** The lot code to select when the map loads ({@link LotMapInput.initialLot}). */
  initialLot: string | null;
  source: MapSource;
  /** Whether selecting a lot loads its details (GET lots/{id}: MapaProyectos only). */
  details: boolean;
  subdivision: MapSubdivision | null;
  lots: MapLotView[];
  /** Mapa de Pagos' summary per bucket (null on other maps). */
  paymentSummary: PaymentMapBucketSummary[] | null;
  error: string | null;
  notFound: boolean;
  filters: MapFilters;
  /** What was typed in the price range boxes (the filter takes it when it reads as money). */
  priceText: { min: string; max: string };
  hoveredKey: string | null;
  selectedKey: string | null;
  searchText: string;
  searchMessage: string | null;
  focus: MapFocus | null;
  colouring: MapColouring;
  metric: HeatMetric;
  /** Whether the user may read the title states (input `titleStates`): the TITLE_STATE metric. */
  titleStates: boolean;
  /** Why the title states could not be read (TITLE_STATE), null otherwise. */
  titlesError: string | null;
  /** What the `<image>` under the lots shows (object URL or public URL), null without a plan. */
  planSrc: string | null;
  /** The selected lot's details (staff maps, GET lots/{id}). */
  lotDetail: Lot | null;
  lotError: string | null;
}

export type LotMapEvent =
  | { type: 'map.retry' }
  | { type: 'map.hover'; key: string | null }
  | { type: 'map.select'; key: string | null }
  | { type: 'map.filterBlocks'; blocks: string[] }
  | { type: 'map.filterStatuses'; statuses: LotStatus[] }
  | { type: 'map.filterPrice'; min: number | null; max: number | null }
  | { type: 'map.priceTyped'; which: 'min' | 'max'; text: string }
  | { type: 'map.clearFilters' }
  | { type: 'map.searchTyped'; text: string }
  | { type: 'map.search' }
  | { type: 'map.fit' }
  | { type: 'map.colouring'; mode: MapColouring }
  | { type: 'map.metric'; metric: HeatMetric }
  | { type: 'map.titlesRetry' }
  | { type: 'map.lotChanged'; lot: Lot }
  | { type: 'map.lotRetry' }
  | { type: 'map.copyLink'; url: string }
  | { type: 'plan.loaded'; src: string }
  | { type: 'plan.failed' };

export interface LotMapInput {
  key: string;
  source: MapSource;
  colouring?: MapColouring;
  /** Load the selected lot's details (default: false). */
  details?: boolean;
  /**
   * Whether the user may read the lots' title states (the heat map's TITLE_STATE metric: 'Acceso
   * módulo administración' + 'Acceso submódulo registros de partidas y títulos'; default false).
   */
  titleStates?: boolean;
  /**
   * A lot code to select once the map loads (the customer's own lot, from "Ver en el plano"): drawn
   * highlighted, zoomed to with its neighbours, its panel open. Unknown codes select nothing.
   */
  initialLot?: string | null;
}

/** Spanish message of a search that found nothing. */
export const notFoundMessage = (text: string) => `Lote "${text.trim()}" no encontrado`;

/** Bounds of every drawn lot (null when none has a polygon). */
export function lotsBounds(lots: readonly MapLotView[]): [number, number, number, number] | null {
  let out: [number, number, number, number] | null = null;
  for (const lot of lots) {
    if (!lot.polygon) continue;
    const b = polygonBounds(lot.polygon);
    out = out ? [Math.min(out[0], b[0]), Math.min(out[1], b[1]), Math.max(out[2], b[2]), Math.max(out[3], b[3])] : b;
  }
  return out;
}

const nextSeq = (focus: MapFocus | null) => (focus?.seq ?? 0) + 1;

/** The map machine, unprovided: supply `loadMap`, `loadPlan`, `loadLot` and `reportApiError`. */
export const lotMapMachine = setup({
  types: {
    context: {} as LotMapContext,
    events: {} as LotMapEvent,
    input: {} as LotMapInput,
  },
  actors: {
    /** GET the map (staff or public call, by `source`). */
    loadMap: placeholder<LoadedMap, { key: string; source: MapSource }>('loadMap'),
    /**
     * Shows the plan: sends `plan.loaded {src}` (or `plan.failed`); when stopped it releases what
     * it created (the object URL of the staff blob).
     */
    loadPlan: fromCallback<LotMapEvent, { planUrl: string; source: MapSource }>(({ sendBack }) => {
      sendBack({ type: 'plan.failed' });
    }),
    /** GET lots/{id} (staff maps' lot panel). */
    loadLot: placeholder<Lot, { id: number }>('loadLot'),
    /** GET the title state of each sold lot with a title process (the heat map's TITLE_STATE). */
    loadTitleStates: placeholder<LotTitleState[], { key: string }>('loadTitleStates'),
  },
  actions: {
    /** 401/402/404 of a staff call → the session. */
    reportApiError: (_, _error: ApiError) => {},
    /** Copies the shareable link to the clipboard and says so in a toast. */
    copyLink: (_, _url: string) => {},
  },
  guards: {
    hasPlan: ({ context }) => context.subdivision?.plan_url != null,
    staffLotSelected: ({ context }) => context.details && context.source === 'staff' && context.selectedKey !== null,
    /** A metric the user may pick (TITLE_STATE only with input `titleStates`). */
    metricAllowed: ({ context, event }) => event.type === 'map.metric' && (event.metric !== 'TITLE_STATE' || context.titleStates),
    /** The title states are wanted: TITLE_STATE picked (or the current metric) by a user who may read them. */
    wantsTitles: ({ context, event }) =>
      context.titleStates && context.source === 'staff' && (event.type === 'map.metric' ? event.metric : context.metric) === 'TITLE_STATE',
  },
}).createMachine({
  id: 'lotMap',
  context: ({ input }) => ({
    key: input.key,
    initialLot: input.initialLot?.trim() || null,
    source: input.source,
    details: input.details ?? false,
    subdivision: null,
    lots: [],
    paymentSummary: null,
    error: null,
    notFound: false,
    filters: NO_FILTERS,
    priceText: { min: '', max: '' },
    hoveredKey: null,
    selectedKey: null,
    searchText: '',
    searchMessage: null,
    focus: null,
    colouring: input.colouring ?? 'status',
    metric: 'PRICE_PER_M2',
    titleStates: input.titleStates ?? false,
    titlesError: null,
    planSrc: null,
    lotDetail: null,
    lotError: null,
  }),
  initial: 'loading',
  // The heat metric is a view choice: one picked while the map loads holds once it is ready.
  on: { 'map.metric': { guard: 'metricAllowed', actions: assign({ metric: ({ event }) => event.metric }) } },
  states: {
    loading: {
      invoke: {
        src: 'loadMap',
        input: ({ context }) => ({ key: context.key, source: context.source }),
        onDone: {
          target: 'ready',
          actions: assign(({ context, event }) => {
            const bounds = lotsBounds(event.output.lots) ?? event.output.subdivision.bounds;
            // The lot asked for by the address is selected and shown with its neighbours (its panel opens: `panel.start`).
            const initial = context.initialLot && context.selectedKey === null ? findLot(event.output.lots, context.initialLot) : null;
            const initialBounds = initial?.polygon ? polygonBounds(initial.polygon) : null;
            return {
              subdivision: event.output.subdivision,
              lots: event.output.lots,
              paymentSummary: event.output.paymentSummary ?? null,
              error: null,
              notFound: false,
              ...(initial ? { selectedKey: initial.key } : {}),
              focus: initialBounds
                ? { bounds: initialBounds, seq: nextSeq(context.focus), pad: 2 }
                : bounds
                  ? { bounds: [...bounds] as MapFocus['bounds'], seq: nextSeq(context.focus), pad: 0 }
                  : null,
            };
          }),
        },
        onError: {
          target: 'failure',
          actions: [
            assign(({ event }) => ({ error: errorMessage(event.error), notFound: errorStatus(event.error) === 404 })),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
    failure: { on: { 'map.retry': 'loading' } },
    ready: {
      type: 'parallel',
      exit: assign({ planSrc: null }),
      on: {
        'map.hover': { actions: assign({ hoveredKey: ({ event }) => event.key }) },
        'map.filterBlocks': { actions: assign({ filters: ({ context, event }) => ({ ...context.filters, blocks: event.blocks }) }) },
        'map.filterStatuses': { actions: assign({ filters: ({ context, event }) => ({ ...context.filters, statuses: event.statuses }) }) },
        'map.filterPrice': {
          actions: assign({ filters: ({ context, event }) => ({ ...context.filters, minPrice: event.min, maxPrice: event.max }) }),
        },
        'map.priceTyped': {
          actions: assign(({ context, event }) => {
            const priceText = { ...context.priceText, [event.which]: event.text };
            const value = event.text.trim() === '' ? null : parseMoneyInput(event.text);
            // Text that is not (yet) an amount keeps the previous bound.
            if (event.text.trim() !== '' && value === null) return { priceText };
            const key = event.which === 'min' ? 'minPrice' : 'maxPrice';
            return { priceText, filters: { ...context.filters, [key]: value } };
          }),
        },
        'map.clearFilters': { actions: assign({ filters: NO_FILTERS, priceText: { min: '', max: '' } }) },
        'map.searchTyped': { actions: assign({ searchText: ({ event }) => event.text, searchMessage: null }) },
        'map.fit': {
          actions: assign(({ context }) => {
            const bounds = lotsBounds(context.lots) ?? context.subdivision?.bounds ?? null;
            return bounds ? { focus: { bounds: [...bounds] as MapFocus['bounds'], seq: nextSeq(context.focus), pad: 0 } } : {};
          }),
        },
        'map.copyLink': { actions: { type: 'copyLink', params: ({ event }) => event.url } },
        'map.colouring': { actions: assign({ colouring: ({ event }) => event.mode }) },
        'map.lotChanged': {
          actions: assign(({ context, event }) => ({
            lots: context.lots.map((l) =>
              l.id === event.lot.id
                ? {
                    ...l,
                    status: event.lot.status,
                    price_per_m2: event.lot.price_per_m2,
                    list_price: event.lot.list_price,
                    area_m2: event.lot.area_m2,
                  }
                : l,
            ),
            lotDetail: context.lotDetail?.id === event.lot.id ? event.lot : context.lotDetail,
          })),
        },
      },
      states: {
        titles: {
          initial: 'checking',
          states: {
            // A TITLE_STATE picked while the map loaded is read as soon as it is ready.
            checking: { always: [{ guard: 'wantsTitles', target: 'loading' }, { target: 'idle' }] },
            idle: {
              on: {
                'map.metric': { guard: 'wantsTitles', target: 'loading', actions: assign({ metric: ({ event }) => event.metric }) },
              },
            },
            loading: {
              invoke: {
                src: 'loadTitleStates',
                input: ({ context }) => ({ key: context.key }),
                onDone: {
                  target: 'loaded',
                  actions: assign(({ context, event }) => {
                    const byLot = new Map(event.output.map((r) => [r.lot_id, r.state]));
                    return {
                      lots: context.lots.map((l) => ({ ...l, title_state: l.id === null ? null : (byLot.get(l.id) ?? null) })),
                      titlesError: null,
                    };
                  }),
                },
                onError: {
                  target: 'failure',
                  actions: [
                    assign({ titlesError: ({ event }) => errorMessage(event.error) }),
                    { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
                  ],
                },
              },
            },
            loaded: {},
            failure: { on: { 'map.titlesRetry': 'loading' } },
          },
        },
        plan: {
          initial: 'checking',
          states: {
            checking: { always: [{ guard: 'hasPlan', target: 'active' }, { target: 'absent' }] },
            // The callback actor lives while the plan is loading or shown: stopping it (leaving the
            // map) revokes the object URL it created.
            active: {
              invoke: {
                src: 'loadPlan',
                input: ({ context }) => ({ planUrl: context.subdivision!.plan_url!, source: context.source }),
              },
              initial: 'loading',
              states: {
                loading: { on: { 'plan.loaded': { target: 'shown', actions: assign({ planSrc: ({ event }) => event.src }) } } },
                shown: {},
              },
              on: { 'plan.failed': { target: 'absent', actions: assign({ planSrc: null }) } },
            },
            absent: {},
          },
        },
        panel: {
          initial: 'start',
          on: {
            'map.select': [
              {
                guard: ({ context, event }) => event.key !== null && event.key !== context.selectedKey,
                target: '.opening',
                actions: assign({ selectedKey: ({ event }) => event.key, lotDetail: null, lotError: null }),
              },
              {
                guard: ({ event }) => event.key === null,
                target: '.closed',
                actions: assign({ selectedKey: null, lotDetail: null, lotError: null }),
              },
            ],
            'map.search': [
              {
                guard: ({ context }) => findLot(context.lots, context.searchText) === null,
                actions: assign({
                  searchMessage: ({ context }) => (context.searchText.trim() === '' ? null : notFoundMessage(context.searchText)),
                }),
              },
              {
                target: '.opening',
                actions: assign(({ context }) => {
                  const lot = findLot(context.lots, context.searchText)!;
                  const bounds = lot.polygon ? polygonBounds(lot.polygon) : null;
                  return {
                    selectedKey: lot.key,
                    searchMessage: null,
                    lotDetail: null,
                    lotError: null,
                    focus: bounds ? { bounds, seq: nextSeq(context.focus), pad: 2 } : context.focus,
                  };
                }),
              },
            ],
          },
          states: {
            /** A lot already selected when the map became ready (the address's `initialLot`) opens its panel. */
            start: { always: [{ guard: ({ context }) => context.selectedKey !== null, target: 'opening' }, { target: 'closed' }] },
            closed: {},
            /** Staff maps load the lot's details; public maps show what the map has. */
            opening: { always: [{ guard: 'staffLotSelected', target: 'loading' }, { target: 'shown' }] },
            loading: {
              invoke: {
                src: 'loadLot',
                input: ({ context }) => ({ id: Number(context.selectedKey) }),
                onDone: { target: 'shown', actions: assign({ lotDetail: ({ event }) => event.output }) },
                onError: {
                  target: 'failure',
                  actions: [
                    assign(({ event }) => ({ lotError: errorMessage(event.error) })),
                    { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
                  ],
                },
              },
            },
            shown: {},
            failure: { on: { 'map.lotRetry': 'loading' } },
          },
        },
      },
    },
  },
});
export type LotMapMachine = typeof lotMapMachine;
export type LotMapActorRef = ActorRefFrom<LotMapMachine>;
export type LotMapSnapshot = SnapshotFrom<LotMapMachine>;
