import { useEffect, useLayoutEffect, useMemo, useRef, type MouseEvent as ReactMouseEvent, type ReactNode } from 'react';
import { Button, ButtonGroup, Callout, NonIdealState } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import { select } from 'd3-selection';
import { zoom, zoomIdentity, type ZoomBehavior } from 'd3-zoom';
import type { LotMapActorRef, LotMapSnapshot, MapColouring } from '../../machines/mapas/lot-map.machine';
import {
  countByStatus,
  countByTitleState,
  formatMetricValue,
  HEAT_METRIC_LABEL,
  HEAT_NO_DATA,
  HEAT_STOPS,
  heatFillOf,
  metricRange,
  passesFilters,
  pathData,
  PAYMENT_BUCKET_COLOR,
  paymentFillOf,
  projector,
  TITLE_STATE_COLOR,
  type HeatMetric,
  type MapFilters,
  type MapLotView,
} from '../../machines/mapas/map-geometry';
import { LAND_USE_LABEL, LOT_STATUSES, PUBLIC_LOT_STATUSES, type Currency, type LotStatus } from '../../schemas/proyectos/projects';
import { formatArea, formatMoney } from '../../lib/money';
import { PAYMENT_BUCKET_LABELS, PAYMENT_BUCKETS, type PaymentBucket } from '../../schemas/comercio/payment-map';
import { TITLE_STATE_LABELS, TITLE_STATES } from '../../schemas/administracion/titles';
import { LOT_STATUS_COLOR, LOT_STATUS_LABEL } from '../proyectos/lot-status';
import { LotMapLoading, MapToolbarView } from './map-skeleton';
import '../../styles/maps.css';

/**
 * The lot map (issue "Proyectos", docs/domain.md "Maps"; technology chosen by measurement in
 * docs/maps.md: one `<svg>`, a `<g>` zoomed and panned by d3-zoom, one `<path>` per lot).
 * Renders the state of a running lot map machine and sends its events:
 * - every lot with a polygon is drawn, filled by status (LOT_STATUS_COLOR) or by the heat metric;
 *   lots outside the filters are drawn faded; the plan image lies under the lots when there is one;
 * - hover (one listener on the `<g>`, event delegation) → `map.hover` and a tooltip with code,
 *   area, list price and status; click/tap → `map.select`;
 * - a search box ("MZ A - LT 12" or "A-12") → `map.search`, which zooms to the lot (machine
 *   `focus`); +/−/"Ajustar" buttons; mouse wheel, drag and pinch through d3-zoom;
 * - a legend (counts per status, or the continuous heat scale).
 * `publicView` limits the legend to Disponible / Separado / Vendido and hides prices that are null.
 */
export interface LotMapProps {
  actor: LotMapActorRef;
  /** Only the public statuses in the legend (public and customer maps). */
  publicView?: boolean;
  /** Extra controls at the right of the toolbar (e.g. "Copiar enlace", the heat metric). */
  toolbarExtra?: ReactNode;
  /** Shown over the map's right side (lot panel). */
  children?: ReactNode;
}

const selectSubdivision = (s: LotMapSnapshot) => s.context.subdivision;

/** The whole map: loading / failure states, toolbar, drawing, tooltip, legend. */
export function LotMap({ actor, publicView = false, toolbarExtra, children }: LotMapProps) {
  const loading = useSelector(actor, (s) => s.matches('loading'));
  const failure = useSelector(
    actor,
    (s) => (s.matches('failure') ? { message: s.context.error, notFound: s.context.notFound } : null),
    (a, b) => a?.message === b?.message && a?.notFound === b?.notFound,
  );
  if (loading) return <LotMapLoading extra={toolbarExtra} />;
  if (failure) {
    if (failure.notFound)
      return (
        <NonIdealState
          icon="map"
          title="Este mapa no está disponible"
          description="El enlace puede haber cambiado o el proyecto ya no está publicado."
        />
      );
    return (
      <Callout intent="danger" title="No se pudo cargar el mapa">
        <p>{failure.message}</p>
        <Button text="Reintentar" onClick={() => actor.send({ type: 'map.retry' })} />
      </Callout>
    );
  }
  return (
    <div className="lot-map">
      <MapToolbar actor={actor} extra={toolbarExtra} />
      <div className="lot-map__body">
        <MapCanvas actor={actor} publicView={publicView} />
        {children}
      </div>
      <MapLegend actor={actor} publicView={publicView} />
    </div>
  );
}

function MapToolbar({ actor, extra }: { actor: LotMapActorRef; extra?: ReactNode }) {
  const text = useSelector(actor, (s) => s.context.searchText);
  const message = useSelector(actor, (s) => s.context.searchMessage);
  return (
    <MapToolbarView
      text={text}
      message={message}
      extra={extra}
      onTextChange={(v) => actor.send({ type: 'map.searchTyped', text: v })}
      onSearch={() => actor.send({ type: 'map.search' })}
    />
  );
}

/**
 * Fill of a lot under the current colouring (heat: the metric's colour; payment: the bucket's colour;
 * both with the neutral "no data" fill for a lot without a value).
 */
function fillOf(lot: MapLotView, heat: { min: number; max: number } | null, colouring: MapColouring, metric: HeatMetric): string {
  if (colouring === 'heat') return heatFillOf(lot, metric, heat);
  if (colouring === 'payment') return paymentFillOf(lot);
  return LOT_STATUS_COLOR[lot.status];
}

interface ShapesProps {
  lots: readonly MapLotView[];
  paths: ReadonlyMap<string, string>;
  filters: MapFilters;
  colouring: MapColouring;
  heat: { min: number; max: number } | null;
  /** The heat metric (used when `colouring` is 'heat'; default PRICE_PER_M2). */
  metric?: HeatMetric;
}

const escapeAttr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The lots' `<path>` markup. Written into the `<g>` as one string (measured in docs/maps.md: 5 000
 * React elements cost several times one innerHTML); re-written only when lots, filters or
 * colouring change, never on hover.
 */
export function lotShapesMarkup({ lots, paths, filters, colouring, heat, metric = 'PRICE_PER_M2' }: ShapesProps): string {
  let html = '';
  for (const lot of lots) {
    const d = paths.get(lot.key);
    if (!d) continue;
    // No class and no per-path CSS: 5 000 paths matched against the app's stylesheet cost more than
    // drawing them. Stroke and cursor are inherited from the <g>; faded lots carry fill-opacity.
    const faded = passesFilters(lot, filters) ? '' : ' fill-opacity="0.18" data-faded=""';
    html += `<path data-key="${escapeAttr(lot.key)}" data-status="${lot.status}" fill="${fillOf(lot, heat, colouring, metric)}"${faded} d="${d}"></path>`;
  }
  return html;
}

const FIT_PADDING = 0.92;

function MapCanvas({ actor, publicView }: { actor: LotMapActorRef; publicView: boolean }) {
  const subdivision = useSelector(actor, selectSubdivision)!;
  const lots = useSelector(actor, (s) => s.context.lots);
  const filters = useSelector(actor, (s) => s.context.filters);
  const colouring = useSelector(actor, (s) => s.context.colouring);
  const metric = useSelector(actor, (s) => s.context.metric);
  const hoveredKey = useSelector(actor, (s) => s.context.hoveredKey);
  const selectedKey = useSelector(actor, (s) => s.context.selectedKey);
  const focus = useSelector(actor, (s) => s.context.focus);
  const planSrc = useSelector(actor, (s) => s.context.planSrc);
  const svgRef = useRef<SVGSVGElement>(null);
  const gRef = useRef<SVGGElement>(null);
  const overlayRef = useRef<SVGGElement>(null);
  const zoomRef = useRef<ZoomBehavior<SVGSVGElement, unknown> | null>(null);
  const pointer = useRef<{ x: number; y: number }>({ x: 0, y: 0 });

  const project = useMemo(() => projector(subdivision.coordinate_system, subdivision.bounds), [subdivision]);
  // Path data depend on the geometry only: computed once per answer, not on status changes.
  // (a status change replaces the lot objects but never the subdivision nor the polygons).
  const paths = useMemo(() => {
    const out = new Map<string, string>();
    for (const lot of lots) if (lot.polygon) out.set(lot.key, pathData(lot.polygon, project));
    return out;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [project]);
  const heat = useMemo(() => (colouring === 'heat' ? metricRange(lots, metric) : null), [colouring, lots, metric]);
  const byKey = useMemo(() => new Map(lots.map((l) => [l.key, l])), [lots]);
  const lotsRef = useRef<SVGGElement>(null);
  useLayoutEffect(() => {
    if (lotsRef.current) lotsRef.current.innerHTML = lotShapesMarkup({ lots, paths, filters, colouring, heat, metric });
  }, [lots, paths, filters, colouring, heat, metric]);

  useEffect(() => {
    const svg = svgRef.current;
    const g = gRef.current;
    if (!svg || !g) return undefined;
    const behaviour = zoom<SVGSVGElement, unknown>()
      .scaleExtent([0.0005, 2000])
      .extent(() => [
        [0, 0],
        [svg.clientWidth || 1, svg.clientHeight || 1],
      ])
      .on('zoom', (event: { transform: { toString(): string; k: number } }) => {
        const transform = event.transform.toString();
        g.setAttribute('transform', transform);
        overlayRef.current?.setAttribute('transform', transform);
      })
      // Outlines keep ~0.6 px on screen: the inherited stroke width is set once per gesture.
      .on('end', (event: { transform: { k: number } }) => {
        lotsRef.current?.setAttribute('stroke-width', String(0.6 / event.transform.k));
      });
    zoomRef.current = behaviour;
    select(svg).call(behaviour).on('dblclick.zoom', null);
    return () => {
      select(svg).on('.zoom', null);
      zoomRef.current = null;
    };
  }, []);

  useEffect(() => {
    const svg = svgRef.current;
    const behaviour = zoomRef.current;
    if (!svg || !behaviour || !focus) return;
    const width = svg.clientWidth;
    const height = svg.clientHeight;
    if (!width || !height) return;
    const [a, b] = [project([focus.bounds[0], focus.bounds[1]]), project([focus.bounds[2], focus.bounds[3]])];
    const minX = Math.min(a[0], b[0]);
    const maxX = Math.max(a[0], b[0]);
    const minY = Math.min(a[1], b[1]);
    const maxY = Math.max(a[1], b[1]);
    const pad = focus.pad;
    // A lot found by search is centred in the part of the map the lot panel leaves visible (the
    // panel covers the right side on desktop, the bottom on phones).
    let viewW = width;
    let viewH = height;
    const panel = pad > 0 ? svg.closest('.lot-map__body')?.querySelector('.lot-panel') : null;
    if (panel) {
      const a = svg.getBoundingClientRect();
      const b = panel.getBoundingClientRect();
      if (b.left - a.left > width * 0.3) viewW = b.left - a.left;
      else if (b.top - a.top > height * 0.3) viewH = Math.min(height, b.top - a.top);
    }
    const w = (maxX - minX) * (1 + 2 * pad) || 1;
    const h = (maxY - minY) * (1 + 2 * pad) || 1;
    const k = Math.min(viewW / w, viewH / h) * FIT_PADDING;
    const cx = (minX + maxX) / 2;
    const cy = (minY + maxY) / 2;
    select(svg).call(behaviour.transform, zoomIdentity.translate(viewW / 2 - k * cx, viewH / 2 - k * cy).scale(k));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [focus?.seq]);

  const keyAt = (target: EventTarget | null): string | null =>
    target instanceof Element && target.parentElement === lotsRef.current ? target.getAttribute('data-key') : null;
  const onMove = (e: ReactMouseEvent<SVGGElement>) => {
    const key = keyAt(e.target);
    const box = svgRef.current?.getBoundingClientRect();
    pointer.current = { x: e.clientX - (box?.left ?? 0), y: e.clientY - (box?.top ?? 0) };
    if (key !== hoveredKey) actor.send({ type: 'map.hover', key });
  };
  const zoomBy = (factor: number) => {
    const svg = svgRef.current;
    if (svg && zoomRef.current) select(svg).call(zoomRef.current.scaleBy, factor);
  };

  const hovered = hoveredKey ? byKey.get(hoveredKey) : undefined;
  const selectedPath = selectedKey ? paths.get(selectedKey) : undefined;
  const hoveredPath = hoveredKey ? paths.get(hoveredKey) : undefined;
  // The plan image carries no georeference: it is laid over the subdivision's bounds (docs/maps.md).
  const planBox = useMemo(() => {
    const b = subdivision.bounds;
    if (!planSrc || subdivision.coordinate_system !== 'PLAN' || !b) return null;
    const [x0, y0] = project([b[0], b[3]]);
    const [x1, y1] = project([b[2], b[1]]);
    return { x: Math.min(x0, x1), y: Math.min(y0, y1), width: Math.abs(x1 - x0), height: Math.abs(y1 - y0) };
  }, [planSrc, subdivision, project]);

  return (
    <div className="lot-map__canvas">
      <svg ref={svgRef} className="lot-map__svg" role="img" aria-label={`Plano de ${subdivision.name}`} data-lots={paths.size}>
        <g ref={gRef}>
          {planBox ? (
            <image
              href={planSrc!}
              x={planBox.x}
              y={planBox.y}
              width={planBox.width}
              height={planBox.height}
              preserveAspectRatio="none"
              className="lot-map__plan"
            />
          ) : null}
          <g
            ref={lotsRef}
            className="lot-map__lots"
            stroke="#ffffff"
            strokeWidth={0.6}
            onMouseMove={onMove}
            onMouseLeave={() => actor.send({ type: 'map.hover', key: null })}
            onClick={(e) => {
              const key = keyAt(e.target);
              if (key) actor.send({ type: 'map.select', key });
            }}
          />
        </g>
      </svg>
      {/* Hover and selection outlines live in their own layer: drawing them never repaints the lots. */}
      <svg className="lot-map__overlay" aria-hidden="true">
        <g ref={overlayRef}>
          {hoveredPath ? <path d={hoveredPath} className="lot-map__hover" /> : null}
          {selectedPath ? <path d={selectedPath} className="lot-map__selected" /> : null}
        </g>
      </svg>
      {paths.size === 0 ? (
        <div className="lot-map__empty">
          <NonIdealState
            icon="map"
            title="Sin lotes dibujados"
            description="Importe los polígonos de los lotes (GeoJSON o DXF) para verlos en el plano."
          />
        </div>
      ) : null}
      {hovered ? (
        <LotTooltip
          lot={hovered}
          currency={subdivision.currency}
          publicView={publicView}
          at={pointer.current}
          titleState={colouring === 'heat' && metric === 'TITLE_STATE'}
        />
      ) : null}
      <ButtonGroup vertical className="lot-map__zoom">
        <Button icon="plus" aria-label="Acercar" onClick={() => zoomBy(1.5)} />
        <Button icon="minus" aria-label="Alejar" onClick={() => zoomBy(1 / 1.5)} />
        <Button icon="zoom-to-fit" aria-label="Ajustar al plano" onClick={() => actor.send({ type: 'map.fit' })} />
      </ButtonGroup>
    </div>
  );
}

/**
 * Tooltip of the hovered lot: code, area, list price (when known), status; its payment bucket on
 * Mapa de Pagos; with `titleState` (the heat map's TITLE_STATE, once read) its title state.
 */
export function LotTooltip({
  lot,
  currency,
  publicView,
  at,
  titleState = false,
}: {
  lot: MapLotView;
  currency: Currency;
  publicView: boolean;
  at: { x: number; y: number };
  titleState?: boolean;
}) {
  return (
    <div className="lot-map__tooltip" role="tooltip" data-key={lot.key} style={{ left: at.x + 14, top: at.y + 14 }}>
      <strong>{lot.code}</strong>
      <span>{formatArea(lot.area_m2)}</span>
      {lot.status === 'NO_VENDIBLE' ? (
        lot.land_use ? (
          <span>{LAND_USE_LABEL[lot.land_use]}</span>
        ) : null
      ) : lot.list_price !== null ? (
        <span>{formatMoney(lot.list_price, currency)}</span>
      ) : publicView ? null : (
        <span>Sin precio</span>
      )}
      <span className="lot-map__tooltip-status">
        <i style={{ background: LOT_STATUS_COLOR[lot.status] }} aria-hidden="true" />
        {LOT_STATUS_LABEL[lot.status]}
      </span>
      {lot.payment ? (
        <span className="lot-map__tooltip-status" data-bucket={lot.payment.bucket}>
          <i style={{ background: PAYMENT_BUCKET_COLOR[lot.payment.bucket] }} aria-hidden="true" />
          {PAYMENT_BUCKET_LABELS[lot.payment.bucket]}
        </span>
      ) : null}
      {titleState && lot.title_state !== undefined ? (
        <span className="lot-map__tooltip-status" data-title-state={lot.title_state ?? 'NINGUNO'}>
          <i style={{ background: lot.title_state ? TITLE_STATE_COLOR[lot.title_state] : HEAT_NO_DATA }} aria-hidden="true" />
          {lot.title_state ? `Título: ${TITLE_STATE_LABELS[lot.title_state]}` : 'Sin trámite de título'}
        </span>
      ) : null}
    </div>
  );
}

/** Legend: counts per status (all statuses on staff maps, the public three otherwise) or the heat scale. */
export function MapLegend({ actor, publicView }: { actor: LotMapActorRef; publicView: boolean }) {
  const lots = useSelector(actor, (s) => s.context.lots);
  const colouring = useSelector(actor, (s) => s.context.colouring);
  const metric = useSelector(actor, (s) => s.context.metric);
  const currency = useSelector(actor, (s) => s.context.subdivision?.currency ?? 'PEN');
  const counts = useMemo(() => countByStatus(lots), [lots]);
  if (colouring === 'payment') return <PaymentLegend lots={lots} />;
  if (colouring === 'heat' && metric === 'TITLE_STATE') return <TitleStateLegend actor={actor} lots={lots} />;
  if (colouring === 'heat') {
    const range = metricRange(lots, metric);
    return (
      <div className="lot-map__legend lot-map__legend--heat" aria-label="Leyenda">
        <span className="lot-map__legend-title">{HEAT_METRIC_LABEL[metric]}</span>
        <div className="lot-map__ramp" style={{ background: `linear-gradient(to right, ${HEAT_STOPS.join(', ')})` }} aria-hidden="true" />
        {range ? (
          <div className="lot-map__ramp-labels">
            <span data-testid="heat-min">{formatMetricValue(metric, range.min, currency)}</span>
            <span data-testid="heat-max">{formatMetricValue(metric, range.max, currency)}</span>
          </div>
        ) : (
          <span>Sin datos</span>
        )}
        {metric !== 'PRICE_PER_M2' && (
          <span className="lot-map__legend-nodata">
            <i style={{ background: HEAT_NO_DATA }} aria-hidden="true" />
            Sin venta
          </span>
        )}
      </div>
    );
  }
  const statuses: readonly LotStatus[] = publicView ? PUBLIC_LOT_STATUSES : LOT_STATUSES;
  return (
    <ul className="lot-map__legend" aria-label="Leyenda">
      {statuses.map((s) => (
        <li key={s} data-status={s}>
          <i style={{ background: LOT_STATUS_COLOR[s] }} aria-hidden="true" />
          <span>{LOT_STATUS_LABEL[s]}</span>
          <strong>{counts[s]}</strong>
        </li>
      ))}
      <li className="lot-map__legend-total">
        <span>Total</span>
        <strong>{lots.length}</strong>
      </li>
    </ul>
  );
}

/**
 * The heat map's "Estado del título" legend (docs/decisions.md "Heat map: title state"): each
 * state's colour, name and lots, then the lots without a process (unsold or sold without one);
 * while the states are read, a note; when they could not be, the reason and "Reintentar".
 */
function TitleStateLegend({ actor, lots }: { actor: LotMapActorRef; lots: readonly MapLotView[] }) {
  const phase = useSelector(actor, (s) =>
    s.matches({ ready: { titles: 'loaded' } }) ? 'loaded' : s.matches({ ready: { titles: 'failure' } }) ? 'failure' : 'loading',
  );
  const error = useSelector(actor, (s) => s.context.titlesError);
  const { counts, none } = useMemo(() => countByTitleState(lots), [lots]);
  if (phase === 'failure')
    return (
      <div className="lot-map__legend" aria-label="Leyenda">
        <Callout intent="danger" title="No se pudieron cargar los estados del título" compact>
          <p>{error}</p>
          <Button text="Reintentar" onClick={() => actor.send({ type: 'map.titlesRetry' })} />
        </Callout>
      </div>
    );
  if (phase === 'loading')
    return (
      <div className="lot-map__legend" aria-label="Leyenda" aria-busy="true">
        <span className="lot-map__legend-title">Estado del título</span>
        <span>Cargando los estados del título…</span>
      </div>
    );
  return (
    <ul className="lot-map__legend lot-map__legend--titles" aria-label="Leyenda: estado del título">
      {TITLE_STATES.map((state) => (
        <li key={state} data-title-state={state}>
          <i style={{ background: TITLE_STATE_COLOR[state] }} aria-hidden="true" />
          <span>{TITLE_STATE_LABELS[state]}</span>
          <strong>{counts[state]}</strong>
        </li>
      ))}
      <li data-title-state="NINGUNO">
        <i style={{ background: HEAT_NO_DATA }} aria-hidden="true" />
        <span>Sin trámite o sin venta</span>
        <strong>{none}</strong>
      </li>
    </ul>
  );
}

/** Mapa de Pagos' legend: each bucket's colour, name and sold lots, then the lots without a live sale. */
function PaymentLegend({ lots }: { lots: readonly MapLotView[] }) {
  const counts = useMemo(() => {
    const out = Object.fromEntries(PAYMENT_BUCKETS.map((b) => [b, 0])) as Record<PaymentBucket, number>;
    for (const lot of lots) if (lot.payment) out[lot.payment.bucket] += 1;
    return out;
  }, [lots]);
  const unsold = lots.filter((l) => !l.payment).length;
  return (
    <ul className="lot-map__legend" aria-label="Leyenda">
      {PAYMENT_BUCKETS.map((b) => (
        <li key={b} data-bucket={b}>
          <i style={{ background: PAYMENT_BUCKET_COLOR[b] }} aria-hidden="true" />
          <span>{PAYMENT_BUCKET_LABELS[b]}</span>
          <strong>{counts[b]}</strong>
        </li>
      ))}
      <li data-bucket="SIN_VENTA">
        <i style={{ background: HEAT_NO_DATA }} aria-hidden="true" />
        <span>Sin venta</span>
        <strong>{unsold}</strong>
      </li>
    </ul>
  );
}
