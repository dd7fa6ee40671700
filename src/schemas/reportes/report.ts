import { z } from 'zod';
import { calendarDateProblem, calendarDateSchema } from '../dates';
import { dataResponseSchema } from '../paging';
import { Temporal } from 'temporal-polyfill';

/**
 * /Reportes and /ReportesEconomicos (docs/reports.md): every report answers one shape, so one
 * screen, one pair of exports (Excel, PDF) and one printed header serve them all.
 *
 * GET /api/reports/{report}          → {@link reportResponseSchema}
 * GET /api/reports/{report}.xlsx     → the same rows as a workbook (header rows: company, title, filters, date, user)
 * GET /api/reports/{report}.pdf      → the same rows as an A4 PDF with the printed header
 * GET /api/reports/options           → the filters' choices ({@link reportOptionsSchema})
 *
 * Money is integer céntimos and never added across currencies: every money cell sits in a row with
 * its `currency` (PEN or USD). Dates are ISO `YYYY-MM-DD` (Lima), months `YYYY-MM`.
 */

/** The operational reports (/Reportes, 'Acceso módulo reportes'). Ventas is the sales report (GET /api/sales/report). */
export const OPERATIONAL_REPORTS = ['cobranza', 'cartera-morosa', 'inventario', 'conversion-leads', 'reservas', 'comisiones'] as const;
/** The financial reports (/ReportesEconomicos, 'Acceso módulo reportes económicos'). */
export const FINANCIAL_REPORTS = ['flujo-caja', 'ingresos-egresos', 'valor-cartera'] as const;
export const REPORT_IDS = [...OPERATIONAL_REPORTS, ...FINANCIAL_REPORTS] as const;
export type ReportId = (typeof REPORT_IDS)[number];

/** Each report's title: the tab, the printed header and the file's title. */
export const REPORT_TITLES: Record<ReportId, string> = {
  cobranza: 'Cobranza',
  'cartera-morosa': 'Cartera morosa',
  inventario: 'Inventario',
  'conversion-leads': 'Conversión de leads',
  reservas: 'Reservas',
  comisiones: 'Comisiones',
  'flujo-caja': 'Flujo de caja proyectado',
  'ingresos-egresos': 'Ingresos vs egresos',
  'valor-cartera': 'Valor de cartera',
};

/** The filters of the query a report reads ({@link reportQuerySchema}'s keys), in the order the screen shows them. */
export type ReportFilterField = 'from' | 'to' | 'group' | 'subdivision_id' | 'agent_id' | 'currency';
export const REPORT_FILTERS: Record<ReportId, readonly ReportFilterField[]> = {
  cobranza: ['from', 'to', 'group', 'subdivision_id', 'agent_id', 'currency'],
  'cartera-morosa': ['subdivision_id', 'agent_id', 'currency'],
  inventario: ['subdivision_id', 'currency'],
  'conversion-leads': ['from', 'to', 'subdivision_id', 'agent_id'],
  reservas: ['from', 'to', 'subdivision_id', 'agent_id'],
  comisiones: ['from', 'to', 'subdivision_id', 'agent_id'],
  'flujo-caja': ['subdivision_id', 'currency'],
  'ingresos-egresos': ['from', 'to', 'subdivision_id'],
  'valor-cartera': ['subdivision_id', 'currency'],
};

/** Longest period a report may cover, in years (bounds one request's work; a 20-year range is a 422). */
export const REPORT_MAX_YEARS = 5;
/** Rows one export may hold; a report with more says so before the export starts (409 from the server). */
export const REPORT_EXPORT_ROW_CAP = 100_000;
/** Rows one PDF may print (a longer report is exported to Excel; the server refuses it with 409 first). */
export const REPORT_PDF_ROW_CAP = 5_000;
/** Rows the screen's table shows; the export carries every row up to {@link REPORT_EXPORT_ROW_CAP}. */
export const REPORT_SCREEN_ROWS = 500;

export const REPORT_MESSAGES = {
  from: 'Indique la fecha inicial (Desde)',
  to: 'Indique la fecha final (Hasta)',
  order: 'La fecha final debe ser igual o posterior a la inicial',
  tooLong: `El período no puede superar ${REPORT_MAX_YEARS} años`,
  tooManyDays: 'Agrupe por mes un período de más de un año',
  unknownReport: 'Reporte no encontrado',
  unknownSubdivision: 'La lotización no existe',
  unknownAgent: 'El asesor no existe',
  tooManyRows: (rows: number) =>
    `El reporte tiene ${rows.toLocaleString('es-PE')} filas y la exportación admite hasta ${REPORT_EXPORT_ROW_CAP.toLocaleString('es-PE')}: acote el período o los filtros`,
  pdfTooManyRows: (rows: number) =>
    `El reporte tiene ${rows.toLocaleString('es-PE')} filas y el PDF admite hasta ${REPORT_PDF_ROW_CAP.toLocaleString('es-PE')}: expórtelo a Excel o acote los filtros`,
  loadFailed: 'No se pudo cargar el reporte',
  exportFailed: 'No se pudo exportar el reporte',
} as const;

const id = z.coerce.number().int().positive().max(2_147_483_647);

/** `date` plus `years` calendar years as an ISO date text (text-comparable bound). */
const plusYears = (date: string, years: number) => `${String(Number(date.slice(0, 4)) + years).padStart(4, '0')}${date.slice(4)}`;

/** How Cobranza groups its rows: by day or month of the operation, by method, by destination account, by collector. */
export const REPORT_GROUPINGS = ['day', 'month', 'method', 'account', 'collector'] as const;
export type ReportGrouping = (typeof REPORT_GROUPINGS)[number];
export const REPORT_GROUPING_LABELS: Record<ReportGrouping, string> = {
  day: 'Por día',
  month: 'Por mes',
  method: 'Por medio de pago',
  account: 'Por cuenta de destino',
  collector: 'Por cobrador',
};
/** Longest period grouped by day, in days (a longer one is grouped by month: 422 otherwise). */
export const REPORT_MAX_DAYS_BY_DAY = 366;

/**
 * The query every report takes (strict: an unknown key is a 422 in Spanish). `from`/`to` ISO dates
 * (Lima, both included, at most {@link REPORT_MAX_YEARS} years apart; reports of a moment — Cartera
 * morosa, Inventario, Valor de cartera, Flujo de caja — ignore them or take `to` as the cut-off);
 * optional `subdivision_id`, `agent_id` (staff user), `currency` (PEN | USD), `group`
 * ({@link REPORT_GROUPINGS}, Cobranza; by day at most {@link REPORT_MAX_DAYS_BY_DAY} days). A report reads only the keys it names in its docs (docs/reports.md).
 */
export const reportQuerySchema = z
  .strictObject({
    from: calendarDateSchema(REPORT_MESSAGES.from).optional(),
    to: calendarDateSchema(REPORT_MESSAGES.to).optional(),
    subdivision_id: id.optional(),
    agent_id: id.optional(),
    currency: z.enum(['PEN', 'USD']).optional(),
    group: z.enum(REPORT_GROUPINGS).optional(),
  })
  .superRefine((v, ctx) => {
    if (![v.from, v.to].every((d) => typeof d === 'string' && calendarDateProblem(d) === null)) return;
    const from = v.from as string;
    const to = v.to as string;
    if (to < from) ctx.addIssue({ code: 'custom', path: ['to'], message: REPORT_MESSAGES.order });
    else if (to >= plusYears(from, REPORT_MAX_YEARS)) ctx.addIssue({ code: 'custom', path: ['to'], message: REPORT_MESSAGES.tooLong });
    else if (v.group === 'day' && Temporal.PlainDate.from(from).until(Temporal.PlainDate.from(to)).days >= REPORT_MAX_DAYS_BY_DAY)
      ctx.addIssue({ code: 'custom', path: ['group'], message: REPORT_MESSAGES.tooManyDays });
  });
export type ReportQuery = z.infer<typeof reportQuerySchema>;

/**
 * How a column's cells read: `money` céntimos of the row's currency, `count` an integer, `area` m²,
 * `percent` a ratio 0..1 (shown ×100 with one decimal), `days` a whole number of days, `date`
 * `YYYY-MM-DD`, `month` `YYYY-MM`, `text` as is.
 */
export const REPORT_COLUMN_KINDS = ['text', 'money', 'count', 'area', 'percent', 'days', 'date', 'month'] as const;
export type ReportColumnKind = (typeof REPORT_COLUMN_KINDS)[number];

/** A column: its cell key, Spanish header and kind; an unknown kind from another server reads as text. */
export const reportColumnSchema = z.object({
  key: z.string(),
  label: z.string(),
  kind: z.enum(REPORT_COLUMN_KINDS).catch('text'),
});
export type ReportColumn = z.infer<typeof reportColumnSchema>;

/** A cell: text, a number (céntimos, count, m², ratio, days) or empty. */
export const reportCellSchema = z.union([z.string(), z.number()]).nullable();

/**
 * A row: its `cells` by column key, the `currency` of its money cells (absent when it has none), and
 * an optional `link`, the app path of the list or record it summarises with the filters applied
 * (e.g. a late customer's schedule).
 */
export const reportRowSchema = z.object({
  cells: z.record(z.string(), reportCellSchema),
  currency: z.enum(['PEN', 'USD']).optional(),
  link: z.string().regex(/^\//).optional(),
});
export type ReportRow = z.infer<typeof reportRowSchema>;

/** The chart's kinds: bars, bars stacked per category, lines, a funnel. */
export const REPORT_CHART_KINDS = ['bar', 'stacked', 'line', 'funnel'] as const;

/**
 * The chart: `categories` along the axis (months, subdivisions, stages…), one `series` per line or
 * bar group with a value per category (null where none), in the `unit` of the axis (`money` series
 * carry their `currency`: soles and dollars are separate series). A series may be drawn as a `line`
 * over bars (e.g. actual collections over the forecast).
 */
export const reportChartSchema = z.object({
  kind: z.enum(REPORT_CHART_KINDS).catch('bar'),
  unit: z.enum(['money', 'count', 'percent', 'area', 'days']).catch('count'),
  categories: z.array(z.string()),
  series: z.array(
    z.object({
      name: z.string(),
      currency: z.enum(['PEN', 'USD']).optional(),
      line: z.boolean().optional(),
      values: z.array(z.number().nullable()).default([]),
    }),
  ),
});
export type ReportChart = z.infer<typeof reportChartSchema>;

/**
 * A report's answer: which `report`, its `title`, the `filters` applied in words (the printed
 * header: [{label: 'Lotización', value: 'Los Viñedos'}]), `notes` on what it leaves out
 * ("Ventas anuladas no incluidas"), the table (`columns`, `rows` — at most {@link REPORT_SCREEN_ROWS}
 * on screen — and `row_count`, every row the export would carry), `totals` (rows per currency, the
 * same columns), and the `chart` (absent when the report has none). One bad row from another
 * server is dropped, never the whole report ({@link reportReadResponseSchema}).
 */
export const reportSchema = z.object({
  report: z.string(),
  title: z.string(),
  from: z.string().nullable().default(null),
  to: z.string().nullable().default(null),
  filters: z.array(z.object({ label: z.string(), value: z.string() })).default([]),
  notes: z.array(z.string()).default([]),
  columns: z.array(reportColumnSchema),
  rows: z.array(reportRowSchema),
  row_count: z.number().int(),
  totals: z.array(reportRowSchema).default([]),
  chart: reportChartSchema.nullable().default(null),
});
export type Report = z.infer<typeof reportSchema>;
/** The server's own type of a report (what it writes). */
export type ReportOutput = z.input<typeof reportSchema>;
/** GET /api/reports/{report} answer, as our server writes it. */
export const reportResponseSchema = dataResponseSchema(reportSchema);

/**
 * GET /api/reports/{report} answer as the app reads it: a row that is not a row (another server's
 * bug) is left out and the others show (docs/contracts.md "One bad item never hides the rest").
 */
export const reportReadResponseSchema = dataResponseSchema(
  reportSchema.extend({
    rows: z.array(z.unknown()).transform((rows) =>
      rows.flatMap((row) => {
        const parsed = reportRowSchema.safeParse(row);
        return parsed.success ? [parsed.data] : [];
      }),
    ),
  }),
);

/** The filters' choices: subdivisions (with their currency) and staff agents. */
export const reportOptionsSchema = z.object({
  subdivisions: z.array(z.object({ id: z.number().int(), name: z.string(), currency: z.enum(['PEN', 'USD']).optional() })),
  agents: z.array(z.object({ id: z.number().int(), name: z.string() })),
});
export type ReportOptions = z.infer<typeof reportOptionsSchema>;
/** GET /api/reports/options answer. */
export const reportOptionsResponseSchema = dataResponseSchema(reportOptionsSchema);

/** An export's name: `reporte-cobranza_2026-01-01_2026-11-30.xlsx` (the moment's reports: `reporte-inventario_2026-11-30.pdf`). */
export const reportFileName = (report: string, period: { from: string | null; to: string | null }, format: 'xlsx' | 'pdf') =>
  `reporte-${report}_${[period.from, period.to].filter(Boolean).join('_')}.${format}`;

/** Age buckets of an overdue amount: the Registro de Cuotas' own (src/schemas/finanzas/instalments.ts DAYS_LATE_BUCKETS), so a report's bucket links to that list's filter. */
export { DAYS_LATE_BUCKETS, DAYS_LATE_BUCKET_LABELS, DAYS_LATE_RANGES } from '../finanzas/instalments';
