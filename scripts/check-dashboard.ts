/**
 * Inicio's twelve staff cards against the lists they link to, on any SQLite database — made for
 * the generated large one (scripts/generate-large-db.ts: 100 000 sales, 2 000 000 instalments).
 * docs/dashboard.md "Rules": each figure equals the total of the list its link opens, with the
 * link's filters. The comparisons are those of tests/server/dashboard-manager.test.ts and
 * dashboard-queues.test.ts (which run them on the demo data): the app is built in-process
 * (createApp, the system clock: "today" is today in Lima), every card and its list(s) are fetched
 * through their own endpoints. The cards scoped to the caller (sales, top-agents, leads,
 * follow-ups, commissions) are checked as every active staff user who may see them; the others as
 * the demo administrator (DNI 70000001).
 *
 *   npx tsx scripts/check-dashboard.ts <sqlite file>
 *
 * The file is written — migrated (openMigratedDatabase), one session row per staff user, and the
 * daily jobs (late fees and VENCIDA, reservations' expiry, commissions' accrual) run to the end
 * before any card is read, so the jobs the app starts never write between a card and its list:
 * run it on a copy. Prints one line per figure (card, figure, card value, list value, OK/DIFF)
 * and each card's time (the card's own request, first build in this process). Exit code 1 when
 * any figure differs, 2 on a usage error.
 */
import type { FastifyInstance } from 'fastify';
import { createApp } from '../server/app';
import { testConfig } from '../server/config';
import { openMigratedDatabase } from '../server/start';
import { systemClock } from '../server/clock';
import { LateFeeJob } from '../server/modules/finanzas/late-fee-job';
import { ReservationExpiry } from '../server/modules/comercio/reservation-expiry';
import { CommissionAccrualJob } from '../server/modules/administracion/commission-accrual-job';
import { narrowedBy } from '../server/auth/scopes';
import { createSession } from '../server/testing/fixtures';
import { SCOPE, SUBMODULE } from '../src/schemas/permissions';
import { DAYS_LATE_BUCKETS, instalmentsPageSchema, instalmentTotalsResponseSchema } from '../src/schemas/finanzas/instalments';
import { paymentsPageSchema } from '../src/schemas/finanzas/payments';
import { salesReportResponseSchema } from '../src/schemas/comercio/sales-report';
import { reservationsPageSchema } from '../src/schemas/comercio/reservations';
import { leadsPageSchema, leadsSummaryResponseSchema } from '../src/schemas/crm/leads';
import { lotsPageSchema, LOT_STATUSES } from '../src/schemas/proyectos/projects';
import { commissionsPageSchema } from '../src/schemas/administracion/commissions';
import {
  collectionsCardResponseSchema,
  commissionsCardResponseSchema,
  dueSoonCardResponseSchema,
  expiringReservationsCardResponseSchema,
  followUpsCardResponseSchema,
  lateCustomersCardResponseSchema,
  leadsCardResponseSchema,
  lotsCardResponseSchema,
  overdueCardResponseSchema,
  paymentsReviewCardResponseSchema,
  salesCardResponseSchema,
  topAgentsCardResponseSchema,
} from '../src/schemas/inicio/dashboard';

const databasePath = process.argv[2];
if (!databasePath || databasePath.startsWith('--')) {
  console.error('usage: tsx scripts/check-dashboard.ts <sqlite file>   (a copy: it is migrated and gets session rows)');
  process.exit(2);
}

type Money = { currency: string; amount: number };
/** Per currency amounts as a map, currencies without money left out (the tests' `byCurrency`). */
const byCurrency = (rows: readonly Money[]) => Object.fromEntries(rows.filter((r) => r.amount !== 0).map((r) => [r.currency, r.amount]));
const HOUR_MS = 3_600_000;

let differences = 0;
let compared = 0;
/** JSON with object keys sorted (a map's order is not a figure); arrays keep their order. */
const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );
/** Prints one compared figure; values are compared as canonical JSON. */
function compare(card: string, figure: string, cardValue: unknown, listValue: unknown): void {
  const [a, b] = [canonical(cardValue), canonical(listValue)];
  compared += 1;
  if (a !== b) differences += 1;
  console.log(`${card.padEnd(22)} ${figure.padEnd(44)} ${a.padStart(28)} ${b.padStart(28)}  ${a === b ? 'OK' : 'DIFF'}`);
}

const { db } = await openMigratedDatabase({ databasePath, databaseUrl: null });
// The app starts the daily jobs that move card figures (VENCIDA and late fees, reservations
// expiring, commissions accruing); on a database not figured today they would write while the
// card and its list are read. They are run to the end first, so both read the same rows.
{
  const started = performance.now();
  const deps = { db, clock: systemClock, broadcaster: { publish: () => undefined, settled: async () => undefined }, log: console };
  await new LateFeeJob(deps).runUntilDone();
  await new ReservationExpiry(deps).runUntilDone();
  await new CommissionAccrualJob(deps).runUntilDone();
  console.log(`daily jobs brought to today in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
const app: FastifyInstance = await createApp({ db, config: testConfig({ databasePath, databaseUrl: null }) });
try {
  /** GET as `token`: the parsed body, or null on 403 (the card or list is not this user's). */
  const fetch = async (url: string, token: string): Promise<unknown> => {
    const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    if (res.statusCode === 403) return null;
    if (res.statusCode !== 200) throw new Error(`${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  const ok = async (url: string, token: string): Promise<unknown> => {
    const body = await fetch(url, token);
    if (body === null) throw new Error(`${url}: 403`);
    return body;
  };
  /** Every row of a paged list (per_page 100). */
  const allRows = async <T>(url: string, token: string, parse: (b: unknown) => { data: T[]; meta: { total: number } }) => {
    const rows: T[] = [];
    for (let page = 1; ; page += 1) {
      const body = parse(await ok(`${url}${url.includes('?') ? '&' : '?'}per_page=100&page=${page}`, token));
      rows.push(...body.data);
      if (rows.length >= body.meta.total || body.data.length === 0) return rows;
    }
  };
  const times: Array<[string, number]> = [];
  /** The card's body as `token` (null when refused), its request timed. */
  const card = async (name: string, who: string, token: string): Promise<unknown> => {
    const started = performance.now();
    const body = await fetch(`/api/dashboard/${name}`, token);
    times.push([`${name} (${who})`, performance.now() - started]);
    if (body === null) console.log(`${`${name} (${who})`.padEnd(22)} refused (403): not this user's card`);
    return body;
  };
  const totals = async (query: string, token: string) =>
    instalmentTotalsResponseSchema.parse(await ok(`/api/instalments/totals?${query}`, token)).data;
  const staff = await db.selectFrom('users').select(['id', 'name', 'dni']).where('status', '=', 'ACTIVO').orderBy('id').execute();
  const admin = staff.find((u) => u.dni === '70000001') ?? staff[0];
  if (!admin) throw new Error('no active staff user');
  const tokens = new Map<number, string>();
  for (const u of staff) tokens.set(u.id, await createSession(db, { userType: 'COLLABORATOR', accountId: u.id }));
  const adminToken = tokens.get(admin.id)!;
  /** Reporte de Ventas, fetched as the administrator (as the manager test does; an agent may hold the card without the report). */
  const report = async (query: string) => salesReportResponseSchema.parse(await ok(`/api/sales/report?${query}`, adminToken)).data;

  console.log(`${'card'.padEnd(22)} ${'figure'.padEnd(44)} ${'card'.padStart(28)} ${'list'.padStart(28)}`);

  // Cards scoped to the caller: as every active staff user who may see them.
  for (const u of staff) {
    const token = tokens.get(u.id)!;
    const who = `${u.name} #${u.id}`;
    // The report's scope for this user (server/auth/scopes.ts exportsOwner): their own sales when narrowed.
    const narrowed =
      (await narrowedBy(db, u.id, SUBMODULE.reporteVentas, SCOPE.soloSusExportaciones)) ||
      (await narrowedBy(db, u.id, SUBMODULE.ventas, SCOPE.soloSusVentas));
    const salesBody = await card('sales', who, token);
    if (salesBody !== null)
      for (const p of salesCardResponseSchema.parse(salesBody).data.periods) {
        const r = await report(`from=${p.from}&to=${p.to}${narrowed ? `&agent_id=${u.id}` : ''}`);
        compare(
          `sales (${who})`,
          `${p.period} count${narrowed ? ' (own sales)' : ''}`,
          p.count,
          r.totals.reduce((n, t) => n + t.count, 0),
        );
        compare(
          `sales (${who})`,
          `${p.period} by_currency${narrowed ? ' (own sales)' : ''}`,
          p.by_currency,
          r.totals.map((t) => ({ currency: t.currency, amount: t.total, area_m2: t.area_m2, price_per_m2: t.price_per_m2 })),
        );
      }
    const topBody = await card('top-agents', who, token);
    if (topBody !== null) {
      const top = topAgentsCardResponseSchema.parse(topBody).data;
      if (narrowed) compare(`top-agents (${who})`, 'others listed (narrowed: 0)', top.agents.filter((a) => a.id !== u.id).length, 0);
      for (const a of top.agents) {
        const r = await report(`from=${top.from}&to=${top.to}&agent_id=${a.id}`);
        compare(
          `top-agents (${who})`,
          `agent ${a.id} count`,
          a.count,
          r.totals.reduce((n, t) => n + t.count, 0),
        );
        compare(
          `top-agents (${who})`,
          `agent ${a.id} by_currency`,
          a.by_currency,
          r.totals.map((t) => ({ currency: t.currency, amount: t.total })),
        );
      }
    }
    const leadsBody = await card('leads', who, token);
    if (leadsBody !== null) {
      const leads = leadsCardResponseSchema.parse(leadsBody).data;
      const summary = leadsSummaryResponseSchema.parse(await ok('/api/leads/summary', token)).data;
      compare(
        `leads (${who})`,
        'by_status',
        Object.fromEntries(leads.by_status.map((s) => [s.status, s.count])),
        Object.fromEntries(Object.entries(summary.counts).filter(([, n]) => n > 0)),
      );
      const overdue = leadsPageSchema.parse(await ok('/api/leads?overdue=true&per_page=1', token));
      compare(`leads (${who})`, 'follow_ups_due', leads.follow_ups_due, overdue.meta.total);
    }
    const followBody = await card('follow-ups', who, token);
    if (followBody !== null) {
      const follow = followUpsCardResponseSchema.parse(followBody).data;
      const list = await allRows('/api/leads?mine=true&overdue=true&sort=next_follow_up_at', token, (b) => leadsPageSchema.parse(b));
      compare(`follow-ups (${who})`, 'count', follow.count, list.length);
      compare(
        `follow-ups (${who})`,
        'ten most overdue (ids)',
        follow.leads.map((l) => l.id),
        list.slice(0, 10).map((l) => l.id),
      );
    }
    const commissionsBody = await card('commissions', who, token);
    if (commissionsBody !== null) {
      const commissions = commissionsCardResponseSchema.parse(commissionsBody).data;
      const mine = await allRows(`/api/commissions?agent_id=${u.id}`, token, (b) => commissionsPageSchema.parse(b));
      const expected = (['PEN', 'USD'] as const)
        .map((currency) => ({
          currency,
          earned: mine
            .filter((c) => c.currency === currency && c.state === 'DEVENGADA' && c.settlement === null)
            .reduce((t, c) => t + c.amount, 0),
          to_pay: mine.filter((c) => c.currency === currency && c.settlement?.state === 'APROBADA').reduce((t, c) => t + c.amount, 0),
        }))
        .filter((r) => r.earned !== 0 || r.to_pay !== 0);
      compare(`commissions (${who})`, 'earned / to_pay per currency', commissions.by_currency, expected);
    }
  }

  // Cards of lists without an own-records scope: as the administrator.
  const collections = collectionsCardResponseSchema.parse(await card('collections', admin.name, adminToken)).data;
  const approved = async (from: string, to: string) => {
    const rows = await allRows(`/api/payments?status=APROBADO&from=${from}&to=${to}`, adminToken, (b) => paymentsPageSchema.parse(b));
    const sums: Record<string, number> = {};
    for (const p of rows) sums[p.currency] = (sums[p.currency] ?? 0) + p.amount;
    return byCurrency(Object.entries(sums).map(([currency, amount]) => ({ currency, amount })));
  };
  const field = (key: 'collected' | 'expected' | 'collected_today') =>
    byCurrency(collections.by_currency.map((r) => ({ currency: r.currency, amount: r[key] })));
  compare(
    'collections',
    `collected ${collections.from}…${collections.to}`,
    field('collected'),
    await approved(collections.from, collections.to),
  );
  compare(
    'collections',
    `collected_today ${collections.as_of}`,
    field('collected_today'),
    await approved(collections.as_of, collections.as_of),
  );
  compare(
    'collections',
    'expected (due in the month)',
    field('expected'),
    byCurrency(await totals(`due_from=${collections.from}&due_to=${collections.to}`, adminToken)),
  );

  const overdue = overdueCardResponseSchema.parse(await card('overdue', admin.name, adminToken)).data;
  compare(
    'overdue',
    'buckets',
    overdue.buckets.map((b) => b.bucket),
    [...DAYS_LATE_BUCKETS],
  );
  for (const b of overdue.buckets) {
    const t = await totals(`days_late=${b.bucket}`, adminToken);
    compare(
      'overdue',
      `${b.bucket} count`,
      b.count,
      t.reduce((n, r) => n + r.count, 0),
    );
    compare(
      'overdue',
      `${b.bucket} outstanding`,
      byCurrency(b.by_currency),
      byCurrency(t.map((r) => ({ currency: r.currency, amount: r.balance }))),
    );
  }

  const lots = lotsCardResponseSchema.parse(await card('lots', admin.name, adminToken)).data;
  for (const s of lots.subdivisions)
    for (const status of LOT_STATUSES) {
      const page = lotsPageSchema.parse(await ok(`/api/subdivisions/${s.id_encrypted}/lots?status=${status}&per_page=1`, adminToken));
      if ((s.counts[status] ?? 0) !== 0 || page.meta.total !== 0)
        compare('lots', `${s.name} ${status}`, s.counts[status] ?? 0, page.meta.total);
    }

  const review = paymentsReviewCardResponseSchema.parse(await card('payments-review', admin.name, adminToken)).data;
  const pending = await allRows('/api/payments?status=PENDIENTE', adminToken, (b) => paymentsPageSchema.parse(b));
  compare('payments-review', 'count', review.count, pending.length);
  compare(
    'payments-review',
    'Σ amount per currency',
    byCurrency(review.by_currency),
    byCurrency(
      ['PEN', 'USD'].map((currency) => ({
        currency,
        amount: pending.filter((p) => p.currency === currency).reduce((s, p) => s + p.amount, 0),
      })),
    ),
  );
  compare(
    'payments-review',
    'five oldest (ids)',
    review.oldest.map((p) => p.id),
    pending.slice(0, 5).map((p) => p.id),
  );

  const now = Date.now();
  const expiring = expiringReservationsCardResponseSchema.parse(await card('expiring-reservations', admin.name, adminToken)).data;
  const reservations = (await allRows('/api/reservations?sort=expires_at', adminToken, (b) => reservationsPageSchema.parse(b))).filter(
    (r) =>
      ['PENDIENTE_PAGO', 'VIGENTE'].includes(r.status) && Date.parse(r.expires_at) > now && Date.parse(r.expires_at) <= now + 48 * HOUR_MS,
  );
  compare('expiring-reservations', 'count (within 48 h)', expiring.count, reservations.length);
  compare(
    'expiring-reservations',
    'ten soonest (ids)',
    expiring.reservations.map((r) => r.id),
    reservations.slice(0, 10).map((r) => r.id),
  );

  const dueSoon = dueSoonCardResponseSchema.parse(await card('due-soon', admin.name, adminToken)).data;
  let dueCount = 0;
  const dueAmounts: Record<string, number> = {};
  for (const status of ['PENDIENTE', 'PARCIAL', 'VENCIDA'])
    for (const t of await totals(`due_from=${dueSoon.from}&due_to=${dueSoon.to}&status=${status}`, adminToken)) {
      dueCount += t.count;
      dueAmounts[t.currency] = (dueAmounts[t.currency] ?? 0) + t.balance;
    }
  compare('due-soon', `count ${dueSoon.from}…${dueSoon.to}`, dueSoon.count, dueCount);
  compare(
    'due-soon',
    'outstanding per currency',
    byCurrency(dueSoon.by_currency),
    byCurrency(Object.entries(dueAmounts).map(([currency, amount]) => ({ currency, amount }))),
  );

  const late = lateCustomersCardResponseSchema.parse(await card('late-customers', admin.name, adminToken)).data;
  for (const c of late.customers) {
    const t = await totals(`customer_id=${c.id}&status=VENCIDA`, adminToken);
    compare(
      'late-customers',
      `customer ${c.id} overdue`,
      c.by_currency,
      t.map((r) => ({ currency: r.currency, amount: r.balance })),
    );
    const oldest = instalmentsPageSchema.parse(
      await ok(`/api/instalments?customer_id=${c.id}&status=VENCIDA&sort=due_date&per_page=1`, adminToken),
    ).data[0];
    compare('late-customers', `customer ${c.id} days late`, c.days_late, oldest?.days_late);
  }

  console.log('\ncard request times (ms):');
  for (const [name, ms] of times) console.log(`  ${name.padEnd(36)} ${ms.toFixed(0).padStart(7)}`);
  console.log(
    `\ncheck-dashboard: ${compared} figures compared, ${differences === 0 ? 'all equal' : `${differences} DIFF`} on ${databasePath}`,
  );
  if (differences > 0) process.exitCode = 1;
} finally {
  await app.close();
  await db.destroy();
}
