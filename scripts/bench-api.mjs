// API load bench (issue "API throughput"): autocannon against the real server in production mode
// (scripts/lib/server-process.mjs, SQLite), for /api/health and every list call, on the demo data and
// on a generated large database (200 subdivisions, 100 000 lots: scripts/generate-large-db.ts).
// Prints p50/p97.5/p99 latency, req/s, and each call's throughput as a ratio to /api/health
// measured in the same run — ratios, not absolute times, are what compares across machines
// (docs/performance.md).
//
//   node scripts/bench-api.mjs            (also part of `npm run bench`)
// The calls whose answers the server keeps per revision (the subdivisions list, lot pages, maps) are
// measured twice: as served (kept) and on a second server with ANSWER_CACHE=off (built every time).
//
//   env: CONNECTIONS=50, SECONDS=8, ONLY=<text> (calls whose name contains it), DATA=demo|large|both (default both)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { ROOT, demoAdminSubdivisions, startServer } from './lib/server-process.mjs';

const CONNECTIONS = Number(process.env.CONNECTIONS ?? 50);
const SECONDS = Number(process.env.SECONDS ?? 8);
const ONLY = process.env.ONLY ?? '';
const DATA = process.env.DATA ?? 'both';

/** One autocannon run. @returns {Promise<import('autocannon').Result>} */
function load(url, headers) {
  return new Promise((resolve, reject) => {
    autocannon({ url, headers, connections: CONNECTIONS, duration: SECONDS, pipelining: 1 }, (error, result) =>
      error ? reject(error) : resolve(result),
    );
  });
}

for (const data of DATA === 'both' ? ['demo', 'large'] : [DATA]) await bench(data);

/** One bench on `data` ('demo': the demo seed; 'large': the generated large database). */
async function bench(data) {
  const dir = mkdtempSync(path.join(tmpdir(), 'parcela-bench-api-'));
  let databasePath;
  if (data === 'large') {
    databasePath = path.join(dir, 'large.db');
    const generated = spawnSync('npx', ['tsx', 'scripts/generate-large-db.ts', databasePath], { cwd: ROOT, stdio: 'inherit' });
    if (generated.status !== 0) throw new Error('scripts/generate-large-db.ts failed');
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

/** The calls against `server`, and their table; with `kept` false only /api/health and the calls whose answers are kept per revision. */
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

  const rows = [];
  for (const [name, path, headers] of calls) {
    const probe = await fetch(server.baseUrl + path, { headers });
    if (!probe.ok) throw new Error(`${name}: ${probe.status} ${await probe.text()}`);
    const result = await load(server.baseUrl + path, headers);
    if (result.non2xx > 0 || result.errors > 0) console.warn(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    rows.push({ name, p50: result.latency.p50, p975: result.latency.p97_5, p99: result.latency.p99, rps: result.requests.average });
  }
  const health = rows[0].rps;
  const label = data === 'large' ? 'generated large database (200 subdivisions, 100 000 lots)' : 'demo data';
  const keeping = kept ? '' : ', nothing kept (ANSWER_CACHE=off): every answer built';
  console.log(`\nAPI load — ${CONNECTIONS} connections × ${SECONDS} s each, production mode, SQLite, ${label}${keeping}`);
  console.log(
    `${'call'.padEnd(78)} ${'p50 ms'.padStart(7)} ${'p97.5'.padStart(7)} ${'p99'.padStart(7)} ${'req/s'.padStart(8)} ${'÷ health'.padStart(9)}`,
  );
  for (const r of rows) {
    console.log(
      `${r.name.slice(0, 78).padEnd(78)} ${String(r.p50).padStart(7)} ${String(r.p975).padStart(7)} ${String(r.p99).padStart(7)} ${r.rps.toFixed(0).padStart(8)} ${`1/${(health / r.rps).toFixed(1)}`.padStart(9)}`,
    );
  }
}
