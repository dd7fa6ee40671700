import { AUTH_ROUTES } from '../../../src/config/paths';
import { nameSegment } from '../../../src/lib/proyectos/name-segment';
import { LOT_STATUS_LABEL, LOT_STATUSES, type Currency, type LotStatus } from '../../../src/schemas/proyectos/projects';
import { REPORT_MESSAGES, REPORT_TITLES, type ReportChart, type ReportOutput, type ReportRow } from '../../../src/schemas/reportes/report';
import { fieldError } from '../../errors';
import type { OpaqueIds } from '../../ids';
import type { ReportContext, ReportDefinition, ReportDeps } from './report-definition';

/**
 * Inventario (docs/reports.md "Inventario"): a picture of the lots at today, one row per
 * subdivision × lot status with the lots, their area and their list value — what Proyectos → Lotes
 * shows of that subdivision filtered by that status.
 */

/** Spanish words of a currency filter (the printed header). */
export const CURRENCY_WORDS: Readonly<Record<Currency, string>> = { PEN: 'Soles (PEN)', USD: 'Dólares (USD)' };

/** The table's columns: subdivision, status, lots (count), area m², list value (céntimos of the row's currency). */
const COLUMNS: ReportOutput['columns'] = [
  { key: 'subdivision', label: 'Lotización', kind: 'text' },
  { key: 'status', label: 'Estado', kind: 'text' },
  { key: 'lots', label: 'Lotes', kind: 'count' },
  { key: 'area_m2', label: 'Área (m²)', kind: 'area' },
  { key: 'list_value', label: 'Valor de lista', kind: 'money' },
];

const NOTES = [
  'Foto al día de hoy: cada lote cuenta en su estado actual.',
  'Valor de lista: suma del precio de lista vigente de cada lote (no el precio de venta), en la moneda de su lotización.',
  'Soles y dólares se totalizan por separado.',
];

/** m² with the 2 decimals areas are stored with (the kept sums are floating point). */
const round2 = (value: number) => Math.round(value * 100) / 100;

/**
 * The deps Inventario reads: the report's, plus the opaque ids (server/ids.ts) that the lots
 * list's address carries — when the caller passes none, rows have no link.
 */
export type InventoryDeps = ReportDeps & { ids?: OpaqueIds };

/**
 * The address of Proyectos → Lotes of a subdivision filtered by a status:
 * `/PROYECTOS/Lotes/<name>/<id_encrypted>?status=<status>` (the list reads `status` from its
 * address; src/views/proyectos/LotsPage.tsx `allowedFilters`), as Inicio's lots card links it.
 */
export function lotsListLink(subdivision: { name: string; key: string }, status: LotStatus): string {
  const path = AUTH_ROUTES.lotes.path
    .replace(':name', nameSegment(subdivision.name))
    .replace(':id_encrypted', encodeURIComponent(subdivision.key));
  return `${path}?${new URLSearchParams({ status }).toString()}`;
}

/** One subdivision × status: lots, area m² and list value in céntimos of `currency`. */
interface InventoryCell {
  subdivisionId: number;
  name: string;
  currency: Currency;
  status: LotStatus;
  lots: number;
  area: number;
  value: number;
}

/**
 * The figures of every subdivision × status with lots, subdivisions by name (Spanish order, the
 * same on both databases) and statuses in {@link LOT_STATUSES} order: counts and areas
 * from the kept counts (`subdivision_lot_counts`, migration 0012, exact by trigger), the list value
 * Σ `lots.list_price` in one grouped query. Two reads whatever the number of lots.
 */
async function inventoryCells(deps: ReportDeps, filter: { subdivisionId?: number; currency?: Currency }): Promise<InventoryCell[]> {
  const subdivisions = deps.db
    .selectFrom('subdivisions')
    .select('id')
    .$if(filter.subdivisionId !== undefined, (q) => q.where('id', '=', filter.subdivisionId!))
    .$if(filter.currency !== undefined, (q) => q.where('currency', '=', filter.currency!));
  const [counts, values] = await Promise.all([
    deps.db
      .selectFrom('subdivision_lot_counts as k')
      .innerJoin('subdivisions as s', 's.id', 'k.subdivision_id')
      .select(['k.subdivision_id', 'k.status', 'k.lots', 'k.area_m2', 's.name', 's.currency'])
      .where('k.subdivision_id', 'in', subdivisions)
      .where('k.lots', '>', 0)
      .execute(),
    deps.db
      .selectFrom('lots')
      .select((eb) => ['subdivision_id', 'status', eb.fn.sum<number | string>('list_price').as('value')])
      .where('subdivision_id', 'in', subdivisions)
      .groupBy(['subdivision_id', 'status'])
      .execute(),
  ]);
  const valueOf = new Map(values.map((v) => [`${v.subdivision_id}:${v.status}`, Number(v.value ?? 0)]));
  const order = (status: string) => (LOT_STATUSES as readonly string[]).indexOf(status);
  return counts
    .filter((c) => order(c.status) >= 0)
    .map((c) => ({
      subdivisionId: c.subdivision_id,
      name: c.name,
      currency: c.currency,
      status: c.status as LotStatus,
      lots: Number(c.lots),
      area: round2(Number(c.area_m2)),
      value: valueOf.get(`${c.subdivision_id}:${c.status}`) ?? 0,
    }))
    .sort((a, b) => a.name.localeCompare(b.name, 'es') || a.subdivisionId - b.subdivisionId || order(a.status) - order(b.status));
}

/** The stacked chart: subdivisions along the axis, one series of lots per status that has any. */
function inventoryChart(cells: readonly InventoryCell[]): ReportChart {
  const categories: { id: number; name: string }[] = [];
  for (const c of cells) if (categories.at(-1)?.id !== c.subdivisionId) categories.push({ id: c.subdivisionId, name: c.name });
  const lotsOf = new Map(cells.map((c) => [`${c.subdivisionId}:${c.status}`, c.lots]));
  return {
    kind: 'stacked',
    unit: 'count',
    categories: categories.map((c) => c.name),
    series: LOT_STATUSES.filter((status) => cells.some((c) => c.status === status)).map((status) => ({
      name: LOT_STATUS_LABEL[status],
      values: categories.map((c) => lotsOf.get(`${c.id}:${status}`) ?? null),
    })),
  };
}

/**
 * Inventario: reads `subdivision_id` and `currency` (no period: the lots as they are today).
 * Rows: subdivision × status (statuses in {@link LOT_STATUSES} order, those without lots left out)
 * with `lots` (count), `area_m2` (m², 2 decimals) and `list_value` (Σ list price, céntimos of the
 * subdivision's currency, the row's `currency`); `link` the lots list of that subdivision and
 * status. Totals: one row per currency. Chart: stacked lots per status and subdivision. `to` is
 * `today` (the picture's date, in the file's name), `from` null.
 * @throws HttpError 422 on `subdivision_id` when the subdivision does not exist.
 */
async function buildInventory({ deps, query, today }: ReportContext): Promise<ReportOutput> {
  const filters: ReportOutput['filters'] = [];
  if (query.subdivision_id !== undefined) {
    const subdivision = await deps.db.selectFrom('subdivisions').select('name').where('id', '=', query.subdivision_id).executeTakeFirst();
    if (!subdivision) throw fieldError('subdivision_id', REPORT_MESSAGES.unknownSubdivision);
    filters.push({ label: 'Lotización', value: subdivision.name });
  }
  if (query.currency) filters.push({ label: 'Moneda', value: CURRENCY_WORDS[query.currency] });
  const cells = await inventoryCells(deps, { subdivisionId: query.subdivision_id, currency: query.currency });
  const ids = (deps as InventoryDeps).ids;
  const rows: ReportRow[] = cells.map((c) => ({
    cells: { subdivision: c.name, status: LOT_STATUS_LABEL[c.status], lots: c.lots, area_m2: c.area, list_value: c.value },
    currency: c.currency,
    ...(ids ? { link: lotsListLink({ name: c.name, key: ids.encode(c.subdivisionId) }, c.status) } : {}),
  }));
  const totals = (['PEN', 'USD'] as const).flatMap((currency): ReportRow[] => {
    const mine = cells.filter((c) => c.currency === currency);
    if (mine.length === 0) return [];
    return [
      {
        cells: {
          subdivision: 'Total',
          status: null,
          lots: mine.reduce((n, c) => n + c.lots, 0),
          area_m2: round2(mine.reduce((n, c) => n + c.area, 0)),
          list_value: mine.reduce((n, c) => n + c.value, 0),
        },
        currency,
      },
    ];
  });
  return {
    report: 'inventario',
    title: REPORT_TITLES.inventario,
    from: null,
    to: today,
    filters,
    notes: NOTES,
    columns: COLUMNS,
    rows,
    row_count: rows.length,
    totals,
    chart: inventoryChart(cells),
  };
}

/** /Reportes → Inventario (operational, a picture at today). */
export const inventoryReport: ReportDefinition = {
  id: 'inventario',
  kind: 'operational',
  period: false,
  build: buildInventory,
};
