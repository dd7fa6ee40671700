import { sql, type Kysely } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import {
  REPORT_GROUPING_LABELS,
  REPORT_TITLES,
  type ReportGrouping,
  type ReportOutput,
  type ReportRow,
} from '../../../src/schemas/reportes/report';
import { PAYMENT_METHOD_LABELS, type PaymentMethod } from '../../../src/schemas/finanzas/payments';
import { bankName } from '../../../src/schemas/finanzas/banks';
import { salesMonthLabel } from '../../../src/schemas/comercio/sales-report';
import { formatDate } from '../../../src/lib/dates';
import { AUTH_ROUTES } from '../../../src/config/paths';
import type { CurrencyCode } from '../../../src/lib/money';
import type { DB } from '../../db/database';
import { monthsOf } from '../comercio/sales-report.service';
import { reportPeriod, type ReportDefinition } from './report-definition';
import { currencyTotals, withQuery } from './report-rows';

/**
 * Reportes → Cobranza (docs/reports.md "Cobranza"): the money collected in a period — approved
 * payments (status APROBADO; only approved money is ever counted) by their operation date (Lima,
 * both ends included) — grouped by day, month, method, destination account or collector, one row
 * per group and currency. Without the subdivision and agent filters its totals per currency are the
 * Pagos list's filtered status=APROBADO&from&to (the same `operation_date` bounds).
 */

/** A payment's subdivision and agent: its sale's, or its reservation's lot and agent. */
function approvedPayments(db: Kysely<DB>, from: string, to: string) {
  return db
    .selectFrom('payments')
    .leftJoin('sales', 'sales.id', 'payments.sale_id')
    .leftJoin('reservations', 'reservations.id', 'payments.reservation_id')
    .leftJoin('lots as reserved_lots', 'reserved_lots.id', 'reservations.lot_id')
    .where('payments.status', '=', 'APROBADO')
    .where('payments.operation_date', '>=', from)
    .where('payments.operation_date', '<=', to);
}

/** The SQL key of each grouping (text on both dialects). */
function groupKey(group: ReportGrouping) {
  switch (group) {
    case 'day':
      return sql<string>`payments.operation_date`;
    case 'month':
      return sql<string>`substr(payments.operation_date, 1, 7)`;
    case 'method':
      return sql<string>`payments.method`;
    case 'account':
      return sql<string>`case when payments.bank_account_id is not null then 'B' || cast(payments.bank_account_id as varchar(12)) when payments.wallet_id is not null then 'W' || cast(payments.wallet_id as varchar(12)) else '-' end`;
    case 'collector':
      return sql<string>`case when payments.source = 'PORTAL' then 'P' when payments.registered_by_user_id is null then '-' else 'U' || cast(payments.registered_by_user_id as varchar(12)) end`;
  }
}

/** Header of the first column per grouping. */
const KEY_HEADER: Record<ReportGrouping, string> = {
  day: 'Día',
  month: 'Mes',
  method: 'Medio de pago',
  account: 'Cuenta de destino',
  collector: 'Cobrador',
};

/** Names of the destination accounts and collectors among `keys` ("B3" bank account 3, "W1" wallet 1, "U7" user 7). */
async function keyNames(db: Kysely<DB>, group: ReportGrouping, keys: readonly string[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const ids = (prefix: string) => keys.filter((k) => k.startsWith(prefix)).map((k) => Number(k.slice(1)));
  if (group === 'account') {
    const banks = ids('B');
    const wallets = ids('W');
    if (banks.length)
      for (const b of await db.selectFrom('bank_accounts').select(['id', 'bank', 'number']).where('id', 'in', banks).execute())
        names.set(`B${b.id}`, `${bankName(b.bank)} · ${b.number}`);
    if (wallets.length)
      for (const w of await db.selectFrom('wallets').select(['id', 'kind', 'phone']).where('id', 'in', wallets).execute())
        names.set(`W${w.id}`, `${w.kind === 'YAPE' ? 'Yape' : 'Plin'} · ${w.phone}`);
    names.set('-', 'Sin cuenta (efectivo u otro)');
  }
  if (group === 'collector') {
    const users = ids('U');
    if (users.length)
      for (const u of await db.selectFrom('users').select(['id', 'name', 'surname']).where('id', 'in', users).execute())
        names.set(`U${u.id}`, `${u.name} ${u.surname}`.trim());
    names.set('P', 'Portal del cliente');
    names.set('-', 'Sin registrar');
  }
  return names;
}

/** The first column's text of a key. */
function keyLabel(group: ReportGrouping, key: string, names: Map<string, string>): string {
  if (group === 'day') return key;
  if (group === 'month') return key;
  if (group === 'method') return PAYMENT_METHOD_LABELS[key as PaymentMethod] ?? key;
  return names.get(key) ?? `#${key.slice(1)}`;
}

/** Every day (`YYYY-MM-DD`) from `from` to `to`. */
function daysOf(from: string, to: string): string[] {
  const days: string[] = [];
  const last = Temporal.PlainDate.from(to);
  for (let d = Temporal.PlainDate.from(from); Temporal.PlainDate.compare(d, last) <= 0; d = d.add({ days: 1 })) days.push(d.toString());
  return days;
}

/** The Pagos list of a row: approved, in the row's days (a month clipped to the period), of its method. */
function rowLink(group: ReportGrouping, key: string, period: { from: string; to: string }): string {
  let from = period.from;
  let to = period.to;
  if (group === 'day') from = to = key;
  if (group === 'month') {
    const month = Temporal.PlainYearMonth.from(key);
    const first = month.toPlainDate({ day: 1 }).toString();
    const last = month.toPlainDate({ day: month.daysInMonth }).toString();
    from = first > period.from ? first : period.from;
    to = last < period.to ? last : period.to;
  }
  return withQuery(AUTH_ROUTES.pagos.path, { status: 'APROBADO', from, to, ...(group === 'method' ? { method: key } : {}) });
}

/** Reportes → Cobranza (see the module comment). */
export const collectionsReport: ReportDefinition = {
  id: 'cobranza',
  kind: 'operational',
  period: true,
  async build({ deps, query, today }): Promise<ReportOutput> {
    const period = reportPeriod(query, today);
    const group: ReportGrouping = query.group ?? 'day';
    const key = groupKey(group);
    const grouped = await approvedPayments(deps.db, period.from, period.to)
      .select([
        key.as('key'),
        'payments.currency',
        sql<number | string>`count(*)`.as('count'),
        sql<number | string>`sum(payments.amount)`.as('amount'),
      ])
      .$if(query.currency !== undefined, (q) => q.where('payments.currency', '=', query.currency ?? 'PEN'))
      .$if(query.subdivision_id !== undefined, (q) =>
        q.where(sql<number>`coalesce(sales.subdivision_id, reserved_lots.subdivision_id)`, '=', query.subdivision_id ?? 0),
      )
      .$if(query.agent_id !== undefined, (q) =>
        q.where(sql<number>`coalesce(sales.agent_id, reservations.agent_id)`, '=', query.agent_id ?? 0),
      )
      .groupBy([key, 'payments.currency'])
      .execute();
    const cells = grouped.map((r) => ({
      key: String(r.key),
      currency: r.currency as CurrencyCode,
      count: Number(r.count),
      amount: Number(r.amount),
    }));
    const names = await keyNames(deps.db, group, [...new Set(cells.map((c) => c.key))]);
    const totals = currencyTotals(cells);
    const share = (c: { currency: CurrencyCode; amount: number }) => {
      const total = totals.find((t) => t.currency === c.currency)?.amount ?? 0;
      return total > 0 ? Math.round((c.amount / total) * 10_000) / 10_000 : null;
    };
    const timeGrouped = group === 'day' || group === 'month';
    const order = (a: (typeof cells)[number], b: (typeof cells)[number]) =>
      timeGrouped
        ? a.key.localeCompare(b.key) || a.currency.localeCompare(b.currency)
        : a.currency.localeCompare(b.currency) || b.amount - a.amount;
    const rows: ReportRow[] = [...cells].sort(order).map((c) => ({
      cells: { key: keyLabel(group, c.key, names), count: c.count, amount: c.amount, share: share(c) },
      currency: c.currency,
      link: rowLink(group, c.key, period),
    }));
    const categoryKeys =
      group === 'day'
        ? daysOf(period.from, period.to)
        : group === 'month'
          ? monthsOf(period.from, period.to)
          : [...new Set(rows.length ? [...cells].sort(order).map((c) => c.key) : [])];
    const currencies = totals.map((t) => t.currency);
    const amountOf = new Map(cells.map((c) => [`${c.key}|${c.currency}`, c.amount]));
    return {
      report: 'cobranza',
      title: REPORT_TITLES.cobranza,
      from: period.from,
      to: period.to,
      filters: [{ label: 'Agrupado', value: REPORT_GROUPING_LABELS[group] }],
      notes: ['Solo pagos aprobados, por su fecha de operación', 'Soles y dólares por separado'],
      columns: [
        { key: 'key', label: KEY_HEADER[group], kind: group === 'day' ? 'date' : group === 'month' ? 'month' : 'text' },
        { key: 'count', label: 'Pagos', kind: 'count' },
        { key: 'amount', label: 'Cobrado', kind: 'money' },
        { key: 'share', label: 'Participación', kind: 'percent' },
      ],
      rows,
      row_count: rows.length,
      totals: totals.map((t) => ({
        cells: { key: 'Total', count: t.count, amount: t.amount, share: t.amount > 0 ? 1 : null },
        currency: t.currency,
      })),
      chart: {
        kind: 'bar',
        unit: 'money',
        categories: categoryKeys.map((k) =>
          group === 'day' ? formatDate(k) : group === 'month' ? salesMonthLabel(k) : keyLabel(group, k, names),
        ),
        series: currencies.map((currency) => ({
          name: currency === 'PEN' ? 'Cobrado (S/)' : 'Cobrado (US$)',
          currency,
          values: categoryKeys.map((k) => amountOf.get(`${k}|${currency}`) ?? 0),
        })),
      },
    };
  },
};
