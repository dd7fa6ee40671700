import { sql } from 'kysely';
import { ENDED_SALE_STATUSES } from '../../../src/schemas/comercio/sales';
import { REPORT_MESSAGES, REPORT_TITLES, type ReportChart, type ReportColumn, type ReportRow } from '../../../src/schemas/reportes/report';
import type { CurrencyCode } from '../../db/database';
import { isSqlite } from '../../db/portable';
import { fieldError } from '../../errors';
import { filteredExpenses } from './expenses.service';
import { reportPeriod, type ReportContext, type ReportDefinition } from './report-definition';

/**
 * Ingresos vs egresos (/ReportesEconomicos; docs/reports.md "Ingresos vs egresos and the expenses
 * register"): per subdivision and currency over the period (`from`/`to`, default this month;
 * optional `subdivision_id`):
 * - `income`: Σ approved payments (status APROBADO) whose operation date falls in the period, of
 *   the subdivision's sales and reservations (a payment's subdivision: its sale's, or its
 *   reservation's lot's) — the same payments GET /api/payments?status=APROBADO&from&to lists;
 * - `expenses`: Σ the expenses register (GET /api/expenses?from&to&subdivision_id) of the period;
 * - `margin` = income − expenses; `area_m2`: m² of the lots of the sales dated in the period that
 *   did not end (ANULADA, RESUELTA left out; CANCELADA counts: it is sold and paid off), as
 *   Reporte de Ventas counts it; `margin_per_m2`: margin ÷ area sold in céntimos per m² (rounded),
 *   null without area.
 * Money in céntimos of the row's currency, never added across currencies: totals are one row per
 * currency. Three grouped queries (payments, expenses, sales) whatever the rows; a caller narrowed
 * to their own sales sees only their sales' area (income and expenses have no own-records scope,
 * like their lists).
 */

/** The report's columns. */
const COLUMNS: ReportColumn[] = [
  { key: 'subdivision', label: 'Lotización', kind: 'text' },
  { key: 'currency', label: 'Moneda', kind: 'text' },
  { key: 'income', label: 'Ingresos', kind: 'money' },
  { key: 'expenses', label: 'Egresos', kind: 'money' },
  { key: 'margin', label: 'Margen', kind: 'money' },
  { key: 'area_m2', label: 'Área vendida (m²)', kind: 'area' },
  { key: 'margin_per_m2', label: 'Margen por m² vendido', kind: 'money' },
];

/** Figures of one subdivision in one currency (money in céntimos, area in m²). */
interface Figures {
  subdivisionId: number;
  currency: CurrencyCode;
  income: number;
  expenses: number;
  area: number;
}

const currencyOf = (value: string): CurrencyCode => (value === 'USD' ? 'USD' : 'PEN');
/** `YYYY-MM-DD` → `DD/MM/YYYY` (the printed header's dates). */
const shown = (date: string) => `${date.slice(8, 10)}/${date.slice(5, 7)}/${date.slice(0, 4)}`;
/** m² rounded to hundredths. */
const roundArea = (area: number) => Math.round(area * 100) / 100;
/** Céntimos per m², null without area. */
const perM2 = (money: number, area: number) => (area > 0 ? Math.round(money / area) : null);

/** Builds the report (see the file's comment). @throws HttpError 422 on `subdivision_id` when it does not exist. */
async function build({ deps, query, scope, today }: ReportContext) {
  const { db } = deps;
  const { from, to } = reportPeriod(query, today);
  const subdivisionId = query.subdivision_id;
  const filters = [{ label: 'Período', value: `${shown(from)} al ${shown(to)}` }];
  if (subdivisionId !== undefined) {
    const subdivision = await db.selectFrom('subdivisions').select('name').where('id', '=', subdivisionId).executeTakeFirst();
    if (!subdivision) throw fieldError('subdivision_id', REPORT_MESSAGES.unknownSubdivision);
    filters.push({ label: 'Lotización', value: subdivision.name });
  }

  // Income: approved payments of the period (read from the covering index of migration 0050) per
  // subdivision (the sale's, else the reservation's lot's) and currency. SQLite sums them per sale
  // or reservation first and joins those sums (its nested loops then visit each sale once);
  // PostgreSQL joins every payment by hash and aggregates once (faster there: docs/reports.md).
  const approved = db
    .selectFrom('payments')
    .where('payments.status', '=', 'APROBADO')
    .where('payments.operation_date', '>=', from)
    .where('payments.operation_date', '<=', to)
    // One subdivision: only its sales' and reservations' payments are read (not the company's).
    .$if(subdivisionId !== undefined, (q) =>
      q.where((eb) =>
        eb.or([
          eb(
            'payments.sale_id',
            'in',
            eb
              .selectFrom('sales')
              .select('sales.id')
              .where('sales.subdivision_id', '=', subdivisionId ?? 0),
          ),
          eb(
            'payments.reservation_id',
            'in',
            eb
              .selectFrom('reservations')
              .innerJoin('lots', 'lots.id', 'reservations.lot_id')
              .select('reservations.id')
              .where('lots.subdivision_id', '=', subdivisionId ?? 0),
          ),
        ]),
      ),
    );
  const paid = isSqlite(db)
    ? approved
        .select([
          'payments.sale_id',
          'payments.reservation_id',
          'payments.currency',
          sql<number | string>`sum(payments.amount)`.as('amount'),
        ])
        .groupBy(['payments.sale_id', 'payments.reservation_id', 'payments.currency'])
    : approved.select(['payments.sale_id', 'payments.reservation_id', 'payments.currency', 'payments.amount']);
  const subdivisionOf = sql<number>`coalesce(sales.subdivision_id, lots.subdivision_id)`;
  const incomeQuery = db
    .selectFrom(paid.as('p'))
    .leftJoin('sales', 'sales.id', 'p.sale_id')
    .leftJoin('reservations', 'reservations.id', 'p.reservation_id')
    .leftJoin('lots', 'lots.id', 'reservations.lot_id')
    .select([subdivisionOf.as('subdivision_id'), 'p.currency', sql<number | string>`sum(p.amount)`.as('amount')])
    .where(subdivisionOf, 'is not', null)
    .groupBy([subdivisionOf, 'p.currency']);

  const expenseQuery = filteredExpenses(db, { from, to, subdivision_id: subdivisionId })
    .select(['expenses.subdivision_id', 'expenses.currency', sql<number | string>`sum(expenses.amount)`.as('amount')])
    .groupBy(['expenses.subdivision_id', 'expenses.currency']);

  const areaQuery = db
    .selectFrom('sales')
    .innerJoin('lots', 'lots.id', 'sales.lot_id')
    .select(['sales.subdivision_id', 'sales.currency', sql<number | string>`sum(lots.area_m2)`.as('area')])
    .where('sales.status', 'not in', [...ENDED_SALE_STATUSES])
    .where('sales.sale_date', '>=', from)
    .where('sales.sale_date', '<=', to)
    .$if(subdivisionId !== undefined, (q) => q.where('sales.subdivision_id', '=', subdivisionId ?? 0))
    .$if(scope.agentId !== null, (q) => q.where('sales.agent_id', '=', scope.agentId ?? 0))
    .groupBy(['sales.subdivision_id', 'sales.currency']);

  // Three grouped statements, side by side on PostgreSQL's pool (one after the other on SQLite's connection).
  const [incomeRows, expenseRows, areaRows] = await Promise.all([incomeQuery.execute(), expenseQuery.execute(), areaQuery.execute()]);

  const figures = new Map<string, Figures>();
  const at = (subdivision: number | string, currency: string): Figures => {
    const key = `${Number(subdivision)}:${currencyOf(currency)}`;
    let row = figures.get(key);
    if (!row) {
      row = { subdivisionId: Number(subdivision), currency: currencyOf(currency), income: 0, expenses: 0, area: 0 };
      figures.set(key, row);
    }
    return row;
  };
  for (const r of incomeRows) at(r.subdivision_id, r.currency).income += Number(r.amount ?? 0);
  for (const r of expenseRows) at(r.subdivision_id, r.currency).expenses += Number(r.amount ?? 0);
  for (const r of areaRows) at(r.subdivision_id, r.currency).area += Number(r.area ?? 0);

  const ids = [...new Set([...figures.values()].map((f) => f.subdivisionId).concat(subdivisionId ?? []))];
  const subdivisions =
    ids.length === 0 ? [] : await db.selectFrom('subdivisions').select(['id', 'name', 'currency']).where('id', 'in', ids).execute();
  const names = new Map(subdivisions.map((s) => [s.id, s.name]));
  // A subdivision asked for without any movement still shows its row of zeros, in its own currency.
  if (subdivisionId !== undefined && ![...figures.values()].some((f) => f.subdivisionId === subdivisionId)) {
    const own = subdivisions.find((s) => s.id === subdivisionId);
    if (own) at(own.id, own.currency);
  }

  const ordered = [...figures.values()].sort(
    (a, b) =>
      (names.get(a.subdivisionId) ?? '').localeCompare(names.get(b.subdivisionId) ?? '', 'es') ||
      a.subdivisionId - b.subdivisionId ||
      a.currency.localeCompare(b.currency),
  );
  const link = `/FINANZAS/Pagos?status=APROBADO&from=${from}&to=${to}`;
  const rows: ReportRow[] = ordered.map((f) => ({
    currency: f.currency,
    link,
    cells: {
      subdivision: names.get(f.subdivisionId) ?? `#${f.subdivisionId}`,
      currency: f.currency,
      income: f.income,
      expenses: f.expenses,
      margin: f.income - f.expenses,
      area_m2: roundArea(f.area),
      margin_per_m2: perM2(f.income - f.expenses, f.area),
    },
  }));

  const currencies = (['PEN', 'USD'] as const).filter((c) => ordered.some((f) => f.currency === c));
  const totals: ReportRow[] = currencies.map((currency) => {
    const mine = ordered.filter((f) => f.currency === currency);
    const income = mine.reduce((s, f) => s + f.income, 0);
    const expenses = mine.reduce((s, f) => s + f.expenses, 0);
    const area = mine.reduce((s, f) => s + f.area, 0);
    return {
      currency,
      cells: {
        subdivision: 'Total',
        currency,
        income,
        expenses,
        margin: income - expenses,
        area_m2: roundArea(area),
        margin_per_m2: perM2(income - expenses, area),
      },
    };
  });

  const categoryIds = [...new Set(ordered.map((f) => f.subdivisionId))];
  const chart: ReportChart = {
    kind: 'bar',
    unit: 'money',
    categories: categoryIds.map((id) => names.get(id) ?? `#${id}`),
    series: currencies.flatMap((currency) => {
      const value = (id: number, pick: (f: Figures) => number) => {
        const f = figures.get(`${id}:${currency}`);
        return f ? pick(f) : null;
      };
      return [
        { name: 'Ingresos', currency, values: categoryIds.map((id) => value(id, (f) => f.income)) },
        { name: 'Egresos', currency, values: categoryIds.map((id) => value(id, (f) => f.expenses)) },
        { name: 'Margen', currency, values: categoryIds.map((id) => value(id, (f) => f.income - f.expenses)) },
      ];
    }),
  };

  const notes = [
    'Ingresos: pagos aprobados por su fecha de operación (no incluye pagos pendientes, rechazados ni anulados)',
    'Egresos: registro de egresos por lotización (las compras y obras de Ingeniería aún no se incluyen)',
    'Área vendida: lotes de las ventas con fecha en el período; ventas anuladas y resueltas no incluidas',
  ];
  if (scope.agentId !== null) notes.push('Área vendida: solo sus ventas');

  return {
    report: 'ingresos-egresos',
    title: REPORT_TITLES['ingresos-egresos'],
    from,
    to,
    filters,
    notes,
    columns: COLUMNS,
    rows,
    row_count: rows.length,
    totals,
    chart,
  };
}

/** Ingresos vs egresos: financial, reads a period (`from`, `to`) and `subdivision_id`. */
export const incomeExpensesReport: ReportDefinition = {
  id: 'ingresos-egresos',
  kind: 'financial',
  period: true,
  build,
};
