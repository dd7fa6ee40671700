// API load bench (issue "API throughput"): autocannon against the real server in production mode
// (scripts/lib/server-process.mjs, SQLite), for /api/health and every list call, on the demo data and
// on a generated large database (200 subdivisions, 100 000 lots, 100 000 sales: scripts/generate-large-db.ts).
// Prints p50/p97.5/p99 latency (and an exact p95 for the sales list), req/s, and each call's throughput as a ratio to /api/health
// measured in the same run — ratios, not absolute times, are what compares across machines
// (docs/performance.md).
//
//   node scripts/bench-api.mjs            (also part of `npm run bench`)
// The calls whose answers the server keeps per revision (the subdivisions list, lot pages, maps) are
// measured twice: as served (kept) and on a second server with ANSWER_CACHE=off (built every time).
//
// The sales list (issue "CRM and sales": "page 1 with filters in p95 ≤ 50 ms, autocannon, 20
// concurrent, SQLite" on the large database's 100 000 sales and 2 000 000 instalments) is measured
// at SALES_CONNECTIONS (20) in a table of its own, with /api/health again at that concurrency for its
// ratios. autocannon reports p97.5 and p99 but no p95: the p95 printed is exact, the 95th
// percentile (nearest rank) of the latencies of the 2xx answers (autocannon's `response` event);
// a call that overloads the server gets fast 503s from its overload guard, counted apart
// ("non-2xx" column) so they do not pull its p95 down.
//
// Inicio's twelve cards (docs/dashboard.md: each p95 ≤ 50 ms at 20 connections), Registro de Cuotas
// and Registro de Contratos (issue "Registro de Contratos": "page 1 on the large
// database, p95 ≤ 50 ms at 20 connections", over its 84 511 contracts, scripts/lib/large-contracts.ts)
// are measured the same way on the large database only, in tables of their own.
//
//   env: CONNECTIONS=50, SECONDS=8, ONLY=<text> (calls whose name contains it), DATA=demo|large|both (default both),
//        SALES_CONNECTIONS=20, LARGE_DB=<sqlite file> (a copy of it instead of generating the large database)
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { ROOT, demoAdminSubdivisions, startServer } from './lib/server-process.mjs';

const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const SECONDS = Number(process.env.SECONDS ?? 8);
const ONLY = process.env.ONLY ?? '';
const DATA = process.env.DATA ?? 'both';
const SALES_CONNECTIONS = Number(process.env.SALES_CONNECTIONS ?? 20);
const LARGE_DB = process.env.LARGE_DB;

/**
 * One autocannon run of `connections` connections for SECONDS.
 * @returns {Promise<import('autocannon').Result & { p95: number, ok: number, refused: number }>} autocannon's
 *   result, the exact p95 latency in ms (nearest rank over the 2xx answers; NaN when there were
 *   none), and how many answers were 2xx and how many not.
 */
function load(url, headers, connections = CONNECTIONS) {
  return new Promise((resolve, reject) => {
    const latencies = [];
    let refused = 0;
    const instance = autocannon({ url, headers, connections, duration: SECONDS, pipelining: 1 }, (error, result) => {
      if (error) return reject(error);
      latencies.sort((a, b) => a - b);
      const p95 = latencies.length ? latencies[Math.max(0, Math.ceil(0.95 * latencies.length) - 1)] : NaN;
      resolve({ ...result, p95, ok: latencies.length, refused });
    });
    instance.on('response', (_client, status, _bytes, responseTime) => {
      if (status >= 200 && status < 300) latencies.push(responseTime);
      else refused++;
    });
  });
}

for (const data of DATA === 'both' ? ['demo', 'large'] : [DATA]) await bench(data);

/** One bench on `data` ('demo': the demo seed; 'large': the generated large database). */
async function bench(data) {
  const dir = mkdtempSync(path.join(tmpdir(), 'parcela-bench-api-'));
  let databasePath;
  if (data === 'large') {
    databasePath = path.join(dir, 'large.db');
    if (LARGE_DB) copyFileSync(LARGE_DB, databasePath);
    else {
      const generated = spawnSync('npx', ['tsx', 'scripts/generate-large-db.ts', databasePath], { cwd: ROOT, stdio: 'inherit' });
      if (generated.status !== 0) throw new Error('scripts/generate-large-db.ts failed');
    }
  }
  try {
    // Then the calls whose answers are kept per revision once more, with nothing kept: the cost of
    // building them (the first reader after a write pays it).
    for (const keep of ['on', 'off']) {
      const server = await startServer({
        databasePath,
        env: { NODE_ENV: 'production', MAIL: 'off', LOG_LEVEL: 'warn', ANSWER_CACHE: keep },
      });
      try {
        await run(server, data, keep === 'on');
      } finally {
        await server.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The calls against `server`, and their tables; with `kept` false only /api/health and the calls
 * whose answers are kept per revision (the subdivisions list, lot pages, maps, the sales list).
 */
async function run(server, data, kept) {
  const { token, subdivisions } = await demoAdminSubdivisions(server.baseUrl);
  const biggest = [...subdivisions].sort((a, b) => Number(b.lots_total) - Number(a.lots_total))[0];
  const auth = { authorization: `Bearer ${token}`, accept: 'application/json', 'accept-encoding': 'br, gzip' };
  const historyTotal = (await (await fetch(`${server.baseUrl}/api/change-history?per_page=1`, { headers: auth })).json()).meta.total;
  const lastHistoryPage = Math.max(1, Math.ceil(historyTotal / 20));
  const calls = [
    ['GET /api/health', '/api/health', {}],
    ['GET /api/subdivisions?per_page=20', '/api/subdivisions?per_page=20', auth],
    [
      `GET lots of ${biggest.name} (${biggest.lots_total}) per_page=50 sort=code status=DISPONIBLE`,
      `/api/subdivisions/${biggest.key}/lots?per_page=50&sort=code&status=DISPONIBLE`,
      auth,
    ],
    ['GET /api/users?per_page=20', '/api/users?per_page=20', auth],
    ['GET /api/roles?per_page=20', '/api/roles?per_page=20', auth],
    ['GET /api/locals?per_page=20', '/api/locals?per_page=20', auth],
    ['GET /api/change-history?per_page=20', '/api/change-history?per_page=20', auth],
    [
      `GET /api/change-history?per_page=20&page=${lastHistoryPage} (the last page)`,
      `/api/change-history?per_page=20&page=${lastHistoryPage}`,
      auth,
    ],
    ['GET /api/get_notifications_by_user', '/api/get_notifications_by_user', auth],
    [`GET map of ${biggest.name}`, `/api/subdivisions/${biggest.key}/map`, auth],
  ]
    .filter(([name], i) => i === 0 || name.includes(ONLY))
    .filter(([name], i) => kept || i === 0 || /^GET (\/api\/subdivisions\?|lots of|map of)/.test(name));

  const label =
    data === 'large' ? 'generated large database (200 subdivisions, 100 000 lots, 100 000 sales, 2 000 000 instalments)' : 'demo data';
  if (calls.length > 1) {
    const keeping = kept ? '' : ', nothing kept (ANSWER_CACHE=off): every answer built';
    printTable(
      `API load — ${CONNECTIONS} connections × ${SECONDS} s each, production mode, SQLite, ${label}${keeping}`,
      await measure(server, calls),
    );
  }
  // The sales list, as served (pages kept per revision of the list) and, on the second server, built
  // on every request (ANSWER_CACHE=off): the same calls, so the two tables compare.
  {
    // A generated subdivision on the large database (the demo's own sales are few, none REGISTRADA).
    const seller = [...subdivisions].filter((s) => s.code.startsWith('G')).sort((a, b) => Number(b.lots_total) - Number(a.lots_total))[0];
    const sales = (await salesCalls(server, auth, seller ?? biggest)).filter(([name], i) => i === 0 || name.includes(ONLY));
    const keeping = kept ? ', pages kept per revision (as served)' : ', nothing kept (ANSWER_CACHE=off): every page built';
    if (sales.length > 1)
      printTable(
        `Sales list — ${SALES_CONNECTIONS} connections × ${SECONDS} s each (the issue's figure: page 1 with filters, p95 ≤ 50 ms), ${label}${keeping}`,
        await measure(server, sales, SALES_CONNECTIONS),
      );
  }
  // Registro de Cuotas (issue 16 "Performance": over 2 000 000 instalments, filtered page 1, p95 ≤
  // 50 ms at 20 concurrent, SQLite), on the large database only; built on every request either way (measured once).
  if (data === 'large' && kept) {
    const seller = [...subdivisions].filter((s) => s.code.startsWith('G')).sort((a, b) => Number(b.lots_total) - Number(a.lots_total))[0];
    const register = (await instalmentCalls(server, auth, seller ?? biggest)).filter(([name], i) => i === 0 || name.includes(ONLY));
    if (register.length > 1)
      printTable(
        `Registro de Cuotas — ${SALES_CONNECTIONS} connections × ${SECONDS} s each (the issue's figure: filtered page 1, p95 ≤ 50 ms), ${label}`,
        await measure(server, register, SALES_CONNECTIONS),
      );
  }
  // Inicio's cards (docs/dashboard.md; issue "Inicio and reports": each call p95 ≤ 50 ms at 20
  // connections on the large database), as served, on the large database only.
  if (data === 'large' && kept) {
    const cards = dashboardCalls(auth).filter(([name], i) => i === 0 || name.includes(ONLY));
    if (cards.length > 1)
      printTable(
        `Inicio — ${SALES_CONNECTIONS} connections × ${SECONDS} s each (the issue's figure: each card p95 ≤ 50 ms), ${label}`,
        await measure(server, cards, SALES_CONNECTIONS),
      );
  }
  // The reports (docs/reports.md "Performance": each report page p95 ≤ 200 ms at 20 connections on
  // the large database), as served, on the large database only.
  if (data === 'large' && kept) {
    const reports = reportCalls(auth).filter(([name], i) => i === 0 || name.includes(ONLY));
    if (reports.length > 1)
      printTable(
        `Reportes — ${SALES_CONNECTIONS} connections × ${SECONDS} s each (the issue's figure: each report p95 ≤ 200 ms), ${label}`,
        await measure(server, reports, SALES_CONNECTIONS),
      );
  }
  // Registro de Contratos, as served (pages kept per revision of the register, migration 0048) and,
  // on the second server, built on every request (ANSWER_CACHE=off), on the large database only.
  if (data === 'large') {
    const seller = [...subdivisions].filter((s) => s.code.startsWith('G')).sort((a, b) => Number(b.lots_total) - Number(a.lots_total))[0];
    const contracts = (await contractCalls(server, auth, seller ?? biggest)).filter(([name], i) => i === 0 || name.includes(ONLY));
    const keeping = kept ? ', pages kept per revision (as served)' : ', nothing kept (ANSWER_CACHE=off): every page built';
    if (contracts.length > 1)
      printTable(
        `Registro de Contratos — ${SALES_CONNECTIONS} connections × ${SECONDS} s each (the issue's figure: page 1, p95 ≤ 50 ms), ${label}${keeping}`,
        await measure(server, contracts, SALES_CONNECTIONS),
      );
  }
}

/**
 * The reports' calls, after /api/health: each report of /Reportes and /ReportesEconomicos as its
 * tab first opens (its default period: this month), the sales report of this year, and Cobranza
 * over a year by month, as the demo administrator reads them.
 * @returns {Array<[string, string, Record<string, string>]>} [name, path, headers] per call.
 */
function reportCalls(auth) {
  const year = new Date().toISOString().slice(0, 4);
  const reports = [
    'cobranza',
    'cartera-morosa',
    'inventario',
    'conversion-leads',
    'reservas',
    'comisiones',
    'flujo-caja',
    'ingresos-egresos',
    'valor-cartera',
  ];
  return [
    ['GET /api/health', '/api/health', {}],
    ['GET /api/sales/report (this year)', `/api/sales/report?from=${year}-01-01&to=${year}-12-31`, auth],
    ['GET /api/reports/cobranza (a year by month)', `/api/reports/cobranza?from=${year}-01-01&to=${year}-12-31&group=month`, auth],
    ...reports.map((id) => [`GET /api/reports/${id}`, `/api/reports/${id}`, auth]),
  ];
}

/**
 * Inicio's calls, after /api/health: one per staff card (src/schemas/inicio/dashboard.ts
 * DASHBOARD_CARDS), as the demo administrator (every card's permissions) reads them.
 * @returns {Array<[string, string, Record<string, string>]>} [name, path, headers] per call.
 */
function dashboardCalls(auth) {
  const cards = ['sales', 'collections', 'overdue', 'payments-review', 'due-soon', 'late-customers', 'follow-ups'];
  const more = ['expiring-reservations', 'commissions', 'top-agents', 'leads', 'lots'];
  return [
    ['GET /api/health', '/api/health', {}],
    ...[...cards, ...more].map((card) => [`GET /api/dashboard/${card}`, `/api/dashboard/${card}`, auth]),
  ];
}

/**
 * Registro de Contratos' calls (page 1, 20 a page, newest first as the screen asks), after
 * /api/health: no filter (the issue's figure), a state, a subdivision, the signatures overdue, a
 * titular's surname. The surname is the titular of `subdivision`'s newest contract.
 * @returns {Promise<Array<[string, string, Record<string, string>]>>} [name, path, headers] per call.
 */
async function contractCalls(server, auth, subdivision) {
  const page = '/api/contracts?page=1&per_page=20';
  const first = await (await fetch(`${server.baseUrl}${page}&subdivision_id=${subdivision.id}`, { headers: auth })).json();
  const titular = first.data?.[0]?.sale.titular;
  if (!titular)
    throw new Error(`no contract in ${subdivision.name}: generate the large database again (scripts/generate-large-db.ts adds them)`);
  const surname = titular.split(' ').at(-2) ?? titular;
  return [
    ['GET /api/health', '/api/health', {}],
    ['GET /api/contracts?page=1&per_page=20 (no filter)', page, auth],
    ['GET /api/contracts … &state=EMITIDO', `${page}&state=EMITIDO`, auth],
    [`GET /api/contracts … &subdivision_id=${subdivision.id}`, `${page}&subdivision_id=${subdivision.id}`, auth],
    ['GET /api/contracts … &overdue=true', `${page}&overdue=true`, auth],
    [`GET /api/contracts … &q=${surname}`, `${page}&q=${encodeURIComponent(surname)}`, auth],
  ];
}

/**
 * Registro de Cuotas' calls (page 1, 20 a page), after /api/health: no filter, a status, a
 * subdivision, a days-late bucket, a customer, a month of due dates, a surname. The customer and
 * the surname are the first buyer of `subdivision`'s newest sale.
 * @returns {Promise<Array<[string, string, Record<string, string>]>>} [name, path, headers] per call.
 */
async function instalmentCalls(server, auth, subdivision) {
  const first = await (await fetch(`${server.baseUrl}/api/sales?per_page=1&subdivision_id=${subdivision.id}`, { headers: auth })).json();
  const holder = first.data[0]?.holders[0];
  if (!holder) throw new Error(`no sale in ${subdivision.name} to take a buyer from`);
  const surname = holder.display_name.split(' ').at(-2) ?? holder.display_name;
  const page = '/api/instalments?per_page=20';
  return [
    ['GET /api/health', '/api/health', {}],
    ['GET /api/instalments?per_page=20 (no filter)', page, auth],
    ['GET /api/instalments … &status=VENCIDA', `${page}&status=VENCIDA`, auth],
    [`GET /api/instalments … &subdivision_id=${subdivision.id}`, `${page}&subdivision_id=${subdivision.id}`, auth],
    ['GET /api/instalments … &days_late=1_30', `${page}&days_late=1_30`, auth],
    [`GET /api/instalments … &customer_id=${holder.id}`, `${page}&customer_id=${holder.id}`, auth],
    ['GET /api/instalments … &due_from=2026-12-01&due_to=2026-12-31', `${page}&due_from=2026-12-01&due_to=2026-12-31`, auth],
    [`GET /api/instalments … &q=${surname}`, `${page}&q=${encodeURIComponent(surname)}`, auth],
  ];
}

/**
 * The sales list's calls (page 1, 20 a page), after /api/health: no filter, the issue's filters (a
 * status within a subdivision, a surname, a surname pair, a customer) and a status alone. The
 * surname and the customer are the first buyer of `subdivision`'s newest sale.
 * @returns {Promise<Array<[string, string, Record<string, string>]>>} [name, path, headers] per call.
 */
async function salesCalls(server, auth, subdivision) {
  const first = await (await fetch(`${server.baseUrl}/api/sales?per_page=1&subdivision_id=${subdivision.id}`, { headers: auth })).json();
  const holder = first.data[0]?.holders[0];
  if (!holder) throw new Error(`no sale in ${subdivision.name} to take a buyer from`);
  const words = holder.display_name.split(' ');
  const pair = words.slice(-2).join(' ');
  const surname = words.at(-2) ?? words[0];
  const page = '/api/sales?per_page=20';
  return [
    ['GET /api/health', '/api/health', {}],
    ['GET /api/sales?per_page=20 (no filter)', page, auth],
    [
      `GET /api/sales … &status=REGISTRADA&subdivision_id=${subdivision.id} (${subdivision.name})`,
      `${page}&status=REGISTRADA&subdivision_id=${subdivision.id}`,
      auth,
    ],
    [`GET /api/sales … &customer_id=${holder.id}`, `${page}&customer_id=${holder.id}`, auth],
    ['GET /api/sales … &status=EN_CUOTAS', `${page}&status=EN_CUOTAS`, auth],
    // The text searches last: they can overload the server (503s) for a while after their run.
    [`GET /api/sales … &q=${pair} (both surnames)`, `${page}&q=${encodeURIComponent(pair)}`, auth],
    [`GET /api/sales … &q=${surname} (a surname)`, `${page}&q=${encodeURIComponent(surname)}`, auth],
  ];
}

/** Loads each call in turn (the first is /api/health, the ratios' base). @returns the rows of {@link printTable}. */
async function measure(server, calls, connections = CONNECTIONS) {
  const rows = [];
  for (const [name, path, headers] of calls) {
    // The previous call may have left the server overloaded (503 from its guard) for a moment: wait it out, up to 60 s.
    let probe = await fetch(server.baseUrl + path, { headers });
    for (let tries = 0; probe.status === 503 && tries < 120; tries++) {
      await new Promise((r) => setTimeout(r, 500));
      probe = await fetch(server.baseUrl + path, { headers });
    }
    if (!probe.ok) throw new Error(`${name}: ${probe.status} ${await probe.text()}`);
    const result = await load(server.baseUrl + path, headers, connections);
    if (result.non2xx > 0 || result.errors > 0) console.warn(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    rows.push({
      name,
      p50: result.latency.p50,
      p95: result.p95,
      p975: result.latency.p97_5,
      p99: result.latency.p99,
      // Answers served per second: a refused request (503 from the overload guard) is not a served one.
      rps: result.refused > 0 ? result.ok / result.duration : result.requests.average,
      refused: result.refused / Math.max(1, result.ok + result.refused),
    });
  }
  return rows;
}

/** Prints `rows` under `title`: latencies in ms, req/s and each call's throughput as a fraction of the first row's (health). */
function printTable(title, rows) {
  const health = rows[0].rps;
  console.log(`\n${title}`);
  console.log(
    `${'call'.padEnd(78)} ${'p50 ms'.padStart(7)} ${'p95'.padStart(7)} ${'p97.5'.padStart(7)} ${'p99'.padStart(7)} ${'req/s'.padStart(8)} ${'÷ health'.padStart(9)} ${'non-2xx'.padStart(8)}`,
  );
  for (const r of rows) {
    console.log(
      `${r.name.slice(0, 78).padEnd(78)} ${String(r.p50).padStart(7)} ${r.p95.toFixed(1).padStart(7)} ${String(r.p975).padStart(7)} ${String(r.p99).padStart(7)} ${r.rps.toFixed(0).padStart(8)} ${`1/${(health / r.rps).toFixed(1)}`.padStart(9)} ${`${(100 * r.refused).toFixed(0)} %`.padStart(8)}`,
    );
  }
}
