import { sql, type Kysely, type RawBuilder } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { ENDED_SALE_STATUSES } from '../../../src/schemas/comercio/sales';
import { salesMonthLabel } from '../../../src/schemas/comercio/sales-report';
import { REPORT_MESSAGES, REPORT_TITLES, type ReportChart, type ReportColumn, type ReportRow } from '../../../src/schemas/reportes/report';
import { CURRENCY_SYMBOL, formatMoney } from '../../../src/lib/money';
import type { DB } from '../../db/database';
import { isSqlite } from '../../db/portable';
import { fieldError } from '../../errors';
import type { ReportContext, ReportDefinition } from './report-definition';

/**
 * Flujo de caja proyectado (docs/reports.md "Flujo de caja proyectado"): per month × subdivision ×
 * currency, the money expected from the open schedules over the next 24 months, the same adjusted by
 * the historical collection rate, and — for the last 12 months and the current one — what was
 * actually collected beside what had fallen due, so the forecast's error shows month by month.
 * Five grouped queries (schedule by month, arrears, the rates' two, payments by month) and the
 * subdivisions' names; money in integer céntimos, never added across currencies.
 */

type Currency = 'PEN' | 'USD';

/** Months of the projection, the current one included. */
export const CASH_FLOW_FORECAST_MONTHS = 24;
/** Closed months shown before the current one (forecast against what was collected). */
export const CASH_FLOW_PAST_MONTHS = 12;
/** Days after the due date within which the historical rates count a collection. */
export const CASH_FLOW_RATE_DAYS = [30, 60, 90] as const;

/** Which part of the report a row belongs to: arrears, a closed month, the current month or a future one. */
export type CashFlowSegment = 'VENCIDO' | 'HISTORICO' | 'EN_CURSO' | 'PROYECCION';
export const CASH_FLOW_SEGMENT_LABELS: Record<CashFlowSegment, string> = {
  VENCIDO: 'Vencido',
  HISTORICO: 'Histórico',
  EN_CURSO: 'Mes en curso',
  PROYECCION: 'Proyección',
};

const COLUMNS: ReportColumn[] = [
  { key: 'segment', label: 'Tramo', kind: 'text' },
  { key: 'month', label: 'Mes', kind: 'month' },
  { key: 'subdivision', label: 'Lotización', kind: 'text' },
  { key: 'expected', label: 'Esperado', kind: 'money' },
  { key: 'projected', label: 'Proyectado (ajustado)', kind: 'money' },
  { key: 'collected', label: 'Cobrado', kind: 'money' },
  { key: 'difference', label: 'Diferencia', kind: 'money' },
];

/**
 * The historical collection rate of one currency: over `due` céntimos of instalments that fell due
 * in the window `from`…`to` (both included), `collected[d]` céntimos were collected within `d` days
 * of their due date (d = 30, 60, 90). A rate is `collected[d] / due`; null when nothing fell due.
 */
export interface CollectionRate {
  currency: Currency;
  from: string;
  to: string;
  due: number;
  collected: Record<(typeof CASH_FLOW_RATE_DAYS)[number], number>;
}

/** `rate.collected[days] / rate.due` (0..1), or null when nothing fell due in the window. */
export function collectionRatio(rate: CollectionRate, days: (typeof CASH_FLOW_RATE_DAYS)[number]): number | null {
  return rate.due > 0 ? rate.collected[days] / rate.due : null;
}

/**
 * The adjusted projection of `expected` céntimos: `expected × collected90 / due` rounded half-up to
 * the céntimo, in integer arithmetic (BigInt: no float error on large sums); null when the currency
 * has no history (`due` 0). Never above `expected` (collected within 90 days ≤ what fell due).
 */
export function adjustByRate(expected: number, rate: CollectionRate | undefined): number | null {
  if (!rate || rate.due <= 0) return null;
  const e = BigInt(expected);
  const num = BigInt(rate.collected[90]);
  const den = BigInt(rate.due);
  const twice = 2n * e * num;
  const rounded = twice >= 0n ? (twice + den) / (2n * den) : -((-twice + den) / (2n * den));
  return Number(rounded);
}

/**
 * The windows the report reads on `today` (Lima, `YYYY-MM-DD`): the current month, the 12 closed
 * months before it and the 23 after it (`months`, `YYYY-MM`, oldest first), the first day of the
 * oldest month and the last day of the newest, and the rates' window: the 365 days ending 90 days
 * before today (every instalment in it has had its 90 days: due date + 90 ≤ today).
 */
export function cashFlowWindows(today: string) {
  const day = Temporal.PlainDate.from(today);
  const current = day.toPlainYearMonth();
  const months = Array.from({ length: CASH_FLOW_PAST_MONTHS + CASH_FLOW_FORECAST_MONTHS }, (_, i) =>
    current.add({ months: i - CASH_FLOW_PAST_MONTHS }).toString(),
  );
  const last = Temporal.PlainYearMonth.from(months[months.length - 1]!);
  const rateTo = day.subtract({ days: 90 });
  return {
    currentMonth: current.toString(),
    currentStart: current.toPlainDate({ day: 1 }).toString(),
    currentEnd: current.toPlainDate({ day: current.daysInMonth }).toString(),
    months,
    pastStart: `${months[0]!}-01`,
    futureEnd: last.toPlainDate({ day: last.daysInMonth }).toString(),
    rateFrom: rateTo.subtract({ years: 1 }).add({ days: 1 }).toString(),
    rateTo: rateTo.toString(),
  };
}

/** What the queries share: the query's `subdivision_id` and `currency`, and the caller's agent scope (null: every agent). */
export interface CashFlowFilters {
  subdivisionId: number | undefined;
  currency: Currency | undefined;
  agentId: number | null;
}

const toCurrency = (c: string): Currency => (c === 'USD' ? 'USD' : 'PEN');

/**
 * Whole days from an instalment's due date (`i.due_date`) to a payment's operation date
 * (`p.operation_date`), both ISO text: docs/domain.md "Days late" (negative when paid early).
 */
function daysFromDue(db: Kysely<DB>): RawBuilder<number> {
  return isSqlite(db)
    ? sql<number>`(julianday(p.operation_date) - julianday(i.due_date))`
    : sql<number>`(cast(p.operation_date as date) - cast(i.due_date as date))`;
}

/** Instalments of live sales (not ANULADA/RESUELTA) joined to their sale, with the filters. */
function liveInstalments(db: Kysely<DB>, f: CashFlowFilters) {
  return db
    .selectFrom('sale_instalments as i')
    .innerJoin('sales as s', 's.id', 'i.sale_id')
    .where('s.status', 'not in', [...ENDED_SALE_STATUSES])
    .$if(f.subdivisionId !== undefined, (q) => q.where('s.subdivision_id', '=', f.subdivisionId ?? 0))
    .$if(f.currency !== undefined, (q) => q.where('s.currency', '=', f.currency ?? 'PEN'))
    .$if(f.agentId !== null, (q) => q.where('s.agent_id', '=', f.agentId ?? 0));
}

/**
 * Per month (`YYYY-MM` of the due date) × subdivision × currency, Σ amount and Σ paid (céntimos) of
 * the live sales' instalments due from `from` to `to` (both included).
 */
async function scheduleByMonth(db: Kysely<DB>, f: CashFlowFilters, from: string, to: string) {
  const month = sql<string>`substr(i.due_date, 1, 7)`;
  const rows = await liveInstalments(db, f)
    .where('i.due_date', '>=', from)
    .where('i.due_date', '<=', to)
    .select((eb) => [
      month.as('month'),
      's.subdivision_id',
      's.currency',
      eb.fn.sum<number | string>('i.amount').as('amount'),
      eb.fn.sum<number | string>('i.paid').as('paid'),
    ])
    .groupBy([month, 's.subdivision_id', 's.currency'])
    .execute();
  return rows.map((r) => ({
    month: r.month,
    subdivisionId: Number(r.subdivision_id),
    currency: toCurrency(r.currency),
    amount: Number(r.amount ?? 0),
    paid: Number(r.paid ?? 0),
  }));
}

/** Per subdivision × currency, Σ (amount − paid) of the live sales' instalments due before `before` and still owed. */
async function arrears(db: Kysely<DB>, f: CashFlowFilters, before: string) {
  const rows = await liveInstalments(db, f)
    .where('i.status', 'in', ['PENDIENTE', 'PARCIAL', 'VENCIDA'])
    .where('i.due_date', '<', before)
    .whereRef('i.paid', '<', 'i.amount')
    .select((eb) => ['s.subdivision_id', 's.currency', eb.fn.sum<number | string>(sql<number>`i.amount - i.paid`).as('owed')])
    .groupBy(['s.subdivision_id', 's.currency'])
    .execute();
  return rows.map((r) => ({ subdivisionId: Number(r.subdivision_id), currency: toCurrency(r.currency), owed: Number(r.owed ?? 0) }));
}

/**
 * The historical collection rates per currency ({@link CollectionRate}) over the live sales'
 * instalments due from `from` to `to`: `due` = Σ amount; `collected[d]` = Σ `to_capital` of the
 * allocations of APROBADO payments whose operation date is at most `d` days after the due date
 * (paid early counts; late fees are not instalment money and are left out). Two grouped queries.
 */
export async function collectionRates(
  db: Kysely<DB>,
  f: CashFlowFilters,
  from: string,
  to: string,
): Promise<Map<Currency, CollectionRate>> {
  const dueRows = await liveInstalments(db, f)
    .where('i.due_date', '>=', from)
    .where('i.due_date', '<=', to)
    .select((eb) => ['s.currency', eb.fn.sum<number | string>('i.amount').as('due')])
    .groupBy('s.currency')
    .execute();
  const days = daysFromDue(db);
  const within = (d: number) => sql<number | string>`sum(case when ${days} <= ${sql.lit(d)} then a.to_capital else 0 end)`;
  const collectedRows = await liveInstalments(db, f)
    .innerJoin('payment_allocations as a', 'a.instalment_id', 'i.id')
    .innerJoin('payments as p', 'p.id', 'a.payment_id')
    .where('p.status', '=', 'APROBADO')
    .where('i.due_date', '>=', from)
    .where('i.due_date', '<=', to)
    .select(['s.currency', within(30).as('d30'), within(60).as('d60'), within(90).as('d90')])
    .groupBy('s.currency')
    .execute();
  const rates = new Map<Currency, CollectionRate>();
  for (const r of dueRows) {
    const currency = toCurrency(r.currency);
    rates.set(currency, { currency, from, to, due: Number(r.due ?? 0), collected: { 30: 0, 60: 0, 90: 0 } });
  }
  for (const r of collectedRows) {
    const rate = rates.get(toCurrency(r.currency));
    if (rate) rate.collected = { 30: Number(r.d30 ?? 0), 60: Number(r.d60 ?? 0), 90: Number(r.d90 ?? 0) };
  }
  return rates;
}

/**
 * Per month (`YYYY-MM` of the operation date) × subdivision × currency, Σ amount (céntimos) of the
 * APROBADO payments dated `from`…`to` — the Pagos list filtered status=APROBADO&from&to: sale
 * payments and reservation payments alike, late fees included. The subdivision is the sale's, or
 * the reserved lot's (null for neither); the agent scope reads the sale's or the reservation's agent.
 */
async function collectedByMonth(db: Kysely<DB>, f: CashFlowFilters, from: string, to: string) {
  const month = sql<string>`substr(p.operation_date, 1, 7)`;
  const subdivision = sql<number | null>`coalesce(s.subdivision_id, l.subdivision_id)`;
  const rows = await db
    .selectFrom('payments as p')
    .leftJoin('sales as s', 's.id', 'p.sale_id')
    .leftJoin('reservations as r', 'r.id', 'p.reservation_id')
    .leftJoin('lots as l', 'l.id', 'r.lot_id')
    .where('p.status', '=', 'APROBADO')
    .where('p.operation_date', '>=', from)
    .where('p.operation_date', '<=', to)
    .$if(f.subdivisionId !== undefined, (q) => q.where(subdivision, '=', f.subdivisionId ?? 0))
    .$if(f.currency !== undefined, (q) => q.where('p.currency', '=', f.currency ?? 'PEN'))
    .$if(f.agentId !== null, (q) => q.where(sql`coalesce(s.agent_id, r.agent_id)`, '=', f.agentId ?? 0))
    .select((eb) => [
      month.as('month'),
      subdivision.as('subdivision_id'),
      'p.currency',
      eb.fn.sum<number | string>('p.amount').as('amount'),
    ])
    .groupBy([month, subdivision, 'p.currency'])
    .execute();
  return rows.map((r) => ({
    month: r.month,
    subdivisionId: r.subdivision_id === null ? null : Number(r.subdivision_id),
    currency: toCurrency(r.currency),
    amount: Number(r.amount ?? 0),
  }));
}

/** A percent as the notes print it: "72.4 %" (one decimal, es-PE as every figure of the app: src/lib/money.ts); "—" when unknown. */
const percentText = (ratio: number | null) =>
  ratio === null ? '—' : `${(ratio * 100).toLocaleString('es-PE', { minimumFractionDigits: 1, maximumFractionDigits: 1 })} %`;

/** Σ of the non-null values, or null when all are null. */
const sumOrNull = (values: ReadonlyArray<number | null>) =>
  values.some((v) => v !== null) ? values.reduce<number>((n, v) => n + (v ?? 0), 0) : null;

/** The month `YYYY-MM` as a date range for a Registro de Cuotas link. */
const monthRange = (month: string) => {
  const m = Temporal.PlainYearMonth.from(month);
  return { from: `${month}-01`, to: m.toPlainDate({ day: m.daysInMonth }).toString() };
};

interface Line {
  segment: CashFlowSegment;
  month: string | null;
  subdivisionId: number | null;
  currency: Currency;
  expected: number;
  projected: number | null;
  collected: number | null;
  difference: number | null;
}

/**
 * Builds the report on `context.today` (period false: `from`/`to` are ignored). Reads
 * `subdivision_id` and `currency`, and the caller's agent scope. Rows (oldest first, then
 * subdivision name, PEN before USD):
 * - VENCIDO: per subdivision × currency, Σ (amount − paid) of the instalments due before the current
 *   month and still owed; not adjusted, not in the chart.
 * - HISTORICO (the 12 closed months): expected = Σ amount that fell due that month (the forecast
 *   one would have made, no snapshot being kept); projected = expected × the 90-day rate; collected =
 *   Σ APROBADO payments by operation date; difference = collected − projected.
 * - EN_CURSO (this month): expected = Σ (amount − paid) still owed of this month's instalments;
 *   projected as above; collected so far; difference null (the month is open).
 * - PROYECCION (the next 23 months): expected = Σ (amount − paid); projected; collected and
 *   difference null.
 * Totals: one row per currency, each column's sum. Chart: bars per month and currency (esperado,
 * proyectado) and the cobrado line. The rates go to `notes`.
 * @throws HttpError 422 on `subdivision_id` when it names no subdivision.
 */
async function build(context: ReportContext) {
  const { db } = context.deps;
  const { query, today } = context;
  const w = cashFlowWindows(today);
  const f: CashFlowFilters = { subdivisionId: query.subdivision_id, currency: query.currency, agentId: context.scope.agentId };

  let subdivisionName: string | null = null;
  if (f.subdivisionId !== undefined) {
    const found = await db.selectFrom('subdivisions').select('name').where('id', '=', f.subdivisionId).executeTakeFirst();
    if (!found) throw fieldError('subdivision_id', REPORT_MESSAGES.unknownSubdivision);
    subdivisionName = found.name;
  }

  const [schedule, owed, rates, payments] = await Promise.all([
    scheduleByMonth(db, f, w.pastStart, w.futureEnd),
    arrears(db, f, w.currentStart),
    collectionRates(db, f, w.rateFrom, w.rateTo),
    collectedByMonth(db, f, w.pastStart, w.currentEnd),
  ]);

  const segmentOf = (month: string): CashFlowSegment =>
    month < w.currentMonth ? 'HISTORICO' : month === w.currentMonth ? 'EN_CURSO' : 'PROYECCION';
  const lines = new Map<string, Line>();
  const lineOf = (month: string | null, subdivisionId: number | null, currency: Currency): Line => {
    const key = `${month ?? ''}|${subdivisionId ?? ''}|${currency}`;
    let line = lines.get(key);
    if (!line) {
      const segment = month === null ? 'VENCIDO' : segmentOf(month);
      line = { segment, month, subdivisionId, currency, expected: 0, projected: null, collected: null, difference: null };
      if (segment === 'HISTORICO' || segment === 'EN_CURSO') line.collected = 0;
      lines.set(key, line);
    }
    return line;
  };
  for (const r of schedule) {
    const line = lineOf(r.month, r.subdivisionId, r.currency);
    line.expected += line.segment === 'HISTORICO' ? r.amount : r.amount - r.paid;
  }
  for (const r of owed) lineOf(null, r.subdivisionId, r.currency).expected += r.owed;
  for (const r of payments) {
    const line = lineOf(r.month, r.subdivisionId, r.currency);
    line.collected = (line.collected ?? 0) + r.amount;
  }

  const kept = [...lines.values()].filter((l) => l.expected !== 0 || (l.collected ?? 0) !== 0);
  for (const line of kept) {
    if (line.segment === 'VENCIDO') continue;
    line.projected = adjustByRate(line.expected, rates.get(line.currency));
    if (line.segment === 'HISTORICO' && line.projected !== null) line.difference = (line.collected ?? 0) - line.projected;
  }

  const ids = [...new Set(kept.map((l) => l.subdivisionId).filter((id): id is number => id !== null))];
  const names = new Map<number, string>();
  if (ids.length > 0) {
    for (const s of await db.selectFrom('subdivisions').select(['id', 'name']).where('id', 'in', ids).execute()) names.set(s.id, s.name);
  }
  const nameOf = (id: number | null) => (id === null ? 'Sin lotización' : (names.get(id) ?? `#${id}`));
  kept.sort(
    (a, b) =>
      (a.month ?? '').localeCompare(b.month ?? '') ||
      nameOf(a.subdivisionId).localeCompare(nameOf(b.subdivisionId), 'es') ||
      (a.subdivisionId ?? 0) - (b.subdivisionId ?? 0) ||
      a.currency.localeCompare(b.currency),
  );

  const link = (l: Line) => {
    const params = new URLSearchParams();
    if (l.month === null) params.set('due_to', Temporal.PlainDate.from(w.currentStart).subtract({ days: 1 }).toString());
    else {
      const range = monthRange(l.month);
      params.set('due_from', range.from);
      params.set('due_to', range.to);
    }
    if (l.subdivisionId !== null) params.set('subdivision_id', String(l.subdivisionId));
    return `/FINANZAS/RegistroCuotas?${params.toString()}`;
  };
  const rows: ReportRow[] = kept.map((l) => ({
    cells: {
      segment: l.segment === 'VENCIDO' ? `Vencido (antes de ${w.currentMonth})` : CASH_FLOW_SEGMENT_LABELS[l.segment],
      month: l.month,
      subdivision: nameOf(l.subdivisionId),
      expected: l.expected,
      projected: l.projected,
      collected: l.collected,
      difference: l.difference,
    },
    currency: l.currency,
    link: link(l),
  }));

  const currencies = (['PEN', 'USD'] as const).filter((c) => kept.some((l) => l.currency === c));
  const totals: ReportRow[] = currencies.map((currency) => {
    const mine = kept.filter((l) => l.currency === currency);
    return {
      cells: {
        segment: 'Total',
        month: null,
        subdivision: null,
        expected: mine.reduce((n, l) => n + l.expected, 0),
        projected: sumOrNull(mine.map((l) => l.projected)),
        collected: sumOrNull(mine.map((l) => l.collected)),
        difference: sumOrNull(mine.map((l) => l.difference)),
      },
      currency,
    };
  });

  const chart: ReportChart = {
    kind: 'bar',
    unit: 'money',
    categories: w.months.map(salesMonthLabel),
    series: currencies.flatMap((currency) => {
      const mine = kept.filter((l) => l.currency === currency && l.month !== null);
      const perMonth = (pick: (l: Line) => number | null, open: (month: string) => boolean) =>
        w.months.map((m) => (open(m) ? (sumOrNull(mine.filter((l) => l.month === m).map(pick)) ?? 0) : null));
      const symbol = CURRENCY_SYMBOL[currency];
      const always = () => true;
      const hasRate = rates.get(currency) !== undefined && (rates.get(currency)?.due ?? 0) > 0;
      return [
        { name: `Esperado (${symbol})`, currency, values: perMonth((l) => l.expected, always) },
        {
          name: `Proyectado (${symbol})`,
          currency,
          values: perMonth(
            (l) => l.projected,
            () => hasRate,
          ),
        },
        {
          name: `Cobrado (${symbol})`,
          currency,
          line: true,
          values: perMonth(
            (l) => l.collected,
            (m) => m <= w.currentMonth,
          ),
        },
      ];
    }),
  };

  const notes: string[] = [];
  for (const currency of currencies) {
    const rate = rates.get(currency);
    const symbol = CURRENCY_SYMBOL[currency];
    if (!rate || rate.due <= 0) {
      notes.push(`Tasa histórica de cobro (${symbol}): sin cuotas vencidas del ${w.rateFrom} al ${w.rateTo}; la proyección no se ajusta`);
      continue;
    }
    const parts = CASH_FLOW_RATE_DAYS.map((d) => `${d} días ${percentText(collectionRatio(rate, d))}`);
    notes.push(`Tasa histórica de cobro (${symbol}): ${parts.join(' · ')} (cuotas vencidas del ${rate.from} al ${rate.to})`);
  }
  for (const currency of currencies) {
    const ahead = kept.filter((l) => l.currency === currency && (l.segment === 'EN_CURSO' || l.segment === 'PROYECCION'));
    const expected = ahead.reduce((n, l) => n + l.expected, 0);
    const projected = sumOrNull(ahead.map((l) => l.projected));
    notes.push(
      `Próximos ${CASH_FLOW_FORECAST_MONTHS} meses (${CURRENCY_SYMBOL[currency]}): esperado ${formatMoney(expected, currency)}` +
        (projected === null ? '' : ` · proyectado ${formatMoney(projected, currency)}`),
    );
  }
  notes.push(
    'Esperado: saldo por cobrar de las cuotas que vencen en el mes; en meses cerrados, el monto que venció en el mes',
    'Proyectado: esperado × tasa de cobro a 90 días; Diferencia: cobrado − proyectado, en meses cerrados',
    'Cobrado: pagos aprobados por fecha de operación (incluye mora y pagos de reservas)',
    'Ventas anuladas o resueltas no incluidas',
  );

  const filters = [
    ...(subdivisionName === null ? [] : [{ label: 'Lotización', value: subdivisionName }]),
    ...(f.currency === undefined ? [] : [{ label: 'Moneda', value: f.currency === 'PEN' ? 'Soles (S/)' : 'Dólares (US$)' }]),
    { label: 'Meses', value: `${w.months[0]!} a ${w.months[w.months.length - 1]!}` },
  ];

  return {
    report: 'flujo-caja',
    title: REPORT_TITLES['flujo-caja'],
    from: null,
    to: today,
    filters,
    notes,
    columns: COLUMNS,
    rows,
    row_count: rows.length,
    totals,
    chart,
  };
}

/** Flujo de caja proyectado ('flujo-caja', /ReportesEconomicos): a picture at today. */
export const cashFlowReport: ReportDefinition = { id: 'flujo-caja', kind: 'financial', period: false, build };
