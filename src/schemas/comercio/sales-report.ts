import { z } from 'zod';
import { calendarDateProblem, calendarDateSchema } from '../dates';
import { LEAD_CHANNELS, LEAD_CHANNEL_LABELS } from '../crm/leads';
import { dataResponseSchema } from '../paging';

/**
 * Comercial → Reporte de Ventas (issue "CRM and sales": "sales by period, subdivision, agent and
 * channel: totals, count, average price per m², a chart per month, Excel and PDF export"):
 * GET /api/sales/report (the figures), GET /api/sales/report.xlsx and GET /api/sales/report.pdf
 * (the same figures as files) and GET /api/sales/report/options (the filters' choices). Access:
 * 'Acceso módulo comercial' + 'Acceso submódulo reporte ventas'.
 *
 * Rules (docs/decisions.md "Sales report"): annulled sales (ANULADA) are left out; a sale falls in
 * the Lima calendar month of its `sale_date`; money in integer céntimos, never added across
 * currencies (every figure carries its `currency`, PEN or USD: the subdivision's); the average price
 * per m² is Σ final_price ÷ Σ area_m2 of the sold lots, in céntimos per m² rounded to the céntimo;
 * a sale's channel is the channel of the buyers' concluded lead (CONCRETADO, `customer_id` a
 * holder), or {@link DIRECT_CHANNEL} when there is none.
 */

/** The channel of a sale no concluded lead led to. */
export const DIRECT_CHANNEL = 'DIRECTO';
/** Every channel code a sale may have: the leads' ones and {@link DIRECT_CHANNEL}. */
export const SALES_REPORT_CHANNELS = [...LEAD_CHANNELS, DIRECT_CHANNEL] as const;
export type SalesReportChannel = (typeof SALES_REPORT_CHANNELS)[number];

/** Spanish label of a channel code; another server's unknown code is shown as is. */
export function salesChannelLabel(code: string): string {
  if (code === DIRECT_CHANNEL) return 'Directo';
  return (LEAD_CHANNEL_LABELS as Record<string, string>)[code] ?? code;
}

const MONTH_NAMES = ['ene', 'feb', 'mar', 'abr', 'may', 'jun', 'jul', 'ago', 'sep', 'oct', 'nov', 'dic'];

/** "nov 2026" from "2026-11" (the chart's axis and the files' month column); another text as is. */
export function salesMonthLabel(month: string): string {
  const match = /^(\d{4})-(\d{2})$/.exec(month);
  const name = match ? MONTH_NAMES[Number(match[2]) - 1] : undefined;
  return match && name ? `${name} ${match[1]}` : month;
}

/** The exports' formats: GET /api/sales/report.xlsx and GET /api/sales/report.pdf. */
export type SalesReportFormat = 'xlsx' | 'pdf';

/** The name of an export, the same on the server's Content-Disposition and the browser's download: `reporte-ventas_2026-01-01_2026-11-27.xlsx`. */
export const salesReportFileName = (period: { from: string; to: string }, format: SalesReportFormat) =>
  `reporte-ventas_${period.from}_${period.to}.${format}`;

/** Longest period one report may cover, in years (bounds the work of one request). */
export const SALES_REPORT_MAX_YEARS = 5;

export const SALES_REPORT_MESSAGES = {
  from: 'Indique la fecha inicial (Desde)',
  to: 'Indique la fecha final (Hasta)',
  order: 'La fecha final debe ser igual o posterior a la inicial',
  tooLong: `El período no puede superar ${SALES_REPORT_MAX_YEARS} años`,
  channel: 'Canal no válido',
  loadFailed: 'No se pudo cargar el reporte de ventas',
  exportFailed: 'No se pudo exportar el reporte de ventas',
} as const;

/**
 * `date` plus `years` calendar years as an ISO date text (29 Feb → 29 Feb of a non-leap year
 * compares as the day after 28 Feb, which keeps the bound exact for text comparison).
 */
const plusYears = (date: string, years: number) => `${String(Number(date.slice(0, 4)) + years).padStart(4, '0')}${date.slice(4)}`;

/**
 * GET /api/sales/report (and .xlsx, .pdf) query: `from` and `to` ISO dates (Lima, both included,
 * `from` ≤ `to`, at most {@link SALES_REPORT_MAX_YEARS} years apart); optional `subdivision_id`,
 * `agent_id` (staff user) and `channel` (a {@link SALES_REPORT_CHANNELS} code). Refuses unknown keys
 * (422 in Spanish).
 */
export const salesReportQuerySchema = z
  .strictObject({
    from: calendarDateSchema(SALES_REPORT_MESSAGES.from),
    to: calendarDateSchema(SALES_REPORT_MESSAGES.to),
    subdivision_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
    agent_id: z.coerce.number().int().positive().max(2_147_483_647).optional(),
    channel: z.enum(SALES_REPORT_CHANNELS, { error: SALES_REPORT_MESSAGES.channel }).optional(),
  })
  .superRefine((v, ctx) => {
    // zod runs this after a field failed too: compare only two accepted dates.
    if (![v.from, v.to].every((d) => typeof d === 'string' && calendarDateProblem(d) === null)) return;
    if (v.to < v.from) ctx.addIssue({ code: 'custom', path: ['to'], message: SALES_REPORT_MESSAGES.order });
    else if (v.to >= plusYears(v.from, SALES_REPORT_MAX_YEARS))
      ctx.addIssue({ code: 'custom', path: ['to'], message: SALES_REPORT_MESSAGES.tooLong });
  });
export type SalesReportQuery = z.infer<typeof salesReportQuerySchema>;

/**
 * The figures of a group of sales in one currency: `count` sales, `total` Σ final_price in
 * céntimos, `area_m2` Σ of the lots' areas in m², `price_per_m2` = total ÷ area in céntimos per m²
 * (rounded; null when the area is 0).
 */
export const salesFiguresShape = {
  currency: z.enum(['PEN', 'USD']),
  count: z.number().int(),
  total: z.number().int(),
  area_m2: z.number().default(0),
  price_per_m2: z.number().int().nullable().default(null),
};
export const salesFiguresSchema = z.object(salesFiguresShape);
export type SalesFigures = z.infer<typeof salesFiguresSchema>;

/**
 * The report: the period and filters it answers, `months` (every `YYYY-MM` of the period, in order,
 * also those without sales), the `totals` per currency, and the figures by month (`month`
 * `YYYY-MM`), by subdivision (`id`, `name`), by agent (`id`, null for sales without one; `name`)
 * and by channel (`channel` code). Rows are per currency: a group holding sales in soles and in
 * dollars has two.
 */
export const salesReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  months: z.array(z.string()),
  totals: z.array(salesFiguresSchema),
  by_month: z.array(z.object({ month: z.string(), ...salesFiguresShape })),
  by_subdivision: z.array(z.object({ id: z.number().int(), name: z.string(), ...salesFiguresShape })).default([]),
  by_agent: z.array(z.object({ id: z.number().int().nullable(), name: z.string(), ...salesFiguresShape })).default([]),
  by_channel: z.array(z.object({ channel: z.string(), ...salesFiguresShape })).default([]),
});
export type SalesReport = z.infer<typeof salesReportSchema>;
/** GET /api/sales/report answer. */
export const salesReportResponseSchema = dataResponseSchema(salesReportSchema);

/** The filters' choices: every subdivision (with its currency) and every staff user who made a sale. */
export const salesReportOptionsSchema = z.object({
  subdivisions: z.array(z.object({ id: z.number().int(), name: z.string(), currency: z.enum(['PEN', 'USD']).optional() })),
  agents: z.array(z.object({ id: z.number().int(), name: z.string() })),
});
export type SalesReportOptions = z.infer<typeof salesReportOptionsSchema>;
/** GET /api/sales/report/options answer. */
export const salesReportOptionsResponseSchema = dataResponseSchema(salesReportOptionsSchema);
