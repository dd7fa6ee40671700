#!/usr/bin/env node
// `npm run bench`: builds the app, starts the real server on a temp database (127.0.0.1 only) and
// prints (not part of `npm test`; figures, not pass/fail):
// (`--bundle-only` stops after items 1–2 and the bytes on the wire; `--no-build` reuses dist/.)
// 1. the gzip size of every script Chromium loads up front for /auth/login (target ≤ 130 KB);
// 2. the gzip size of the scripts loaded up front after a staff login (target ≤ 200 KB);
// 3. the time from a server trigger to the receipt on a WebSocket client, with 200 sockets
//    connected (target p95 ≤ 100 ms; issue "Shell");
// 4. the DXF import of 5 000 lots (target ≤ 5 s) and the lot map with 5 000 lots (first paint
//    ≤ 500 ms after the data arrives, hover ≤ 16 ms), from scripts/bench-import.mjs and
//    scripts/bench-maps.mjs (issue "Proyectos"); API load: scripts/bench-api.mjs (issue "API throughput");
// 5. a contract PDF with a 360-instalment schedule (target ≤ 500 ms), scripts/bench-contracts.ts.
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { createHmac } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import Pusher from 'pusher';
import WebSocket from 'ws';
import { demoAdminSubdivisions, startServer } from './lib/server-process.mjs';

const root = path.resolve(import.meta.dirname, '..');

if (!process.argv.includes('--no-build')) {
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const bundleOnly = process.argv.includes('--bundle-only');
const server = await startServer({ env: { PUSHER_APP_ID: 'parcela', PUSHER_APP_KEY: 'bench-key', PUSHER_APP_SECRET: 'bench-secret' } });
const port = server.port;

try {
  const base = server.baseUrl;
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const loginPage = await scriptsLoaded(browser, `${base}/auth/login`);
  report('JS loaded up front for /auth/login', loginPage, 130);
  const afterLogin = await scriptsLoaded(browser, `${base}/auth/login`, async (page) => {
    await page.getByLabel('DNI o correo electrónico').fill('70000001');
    await page.getByLabel('Contraseña', { exact: true }).fill('Parcela#2026');
    await page.getByRole('button', { name: 'Ingresar' }).click();
    await page.waitForURL(`${base}/`);
    await page.waitForLoadState('networkidle');
  });
  report('JS loaded up front after a staff login (login page + Inicio)', afterLogin, 200);
  await browser.close();
  await compressedSizes(base, loginPage.find(([file]) => /\/index-/.test(file))?.[0]);
  if (!bundleOnly) {
    // A baseline with one socket in the same run: the ratio is what compares across noisy machines.
    const alone = await realtimeLatency(port, 1);
    const loaded = await realtimeLatency(port, 200);
    console.log(`p95 ratio 200 sockets / 1 socket: ${(loaded / alone).toFixed(2)}×`);
  }
} finally {
  await server.stop();
}
if (bundleOnly) process.exit(0);

/**
 * Bytes on the wire as the server sends them (issue "Production grade"): the login page's entry
 * chunk and the staff map of the 1 200-lot demo subdivision, for Accept-Encoding br, gzip and none.
 */
async function compressedSizes(base, entryPath) {
  const { token, subdivisions } = await demoAdminSubdivisions(base);
  const big = subdivisions.reduce((a, b) => (b.lots_total > a.lots_total ? b : a), subdivisions[0]);
  const targets = [
    ['entry chunk ' + entryPath, `${base}${entryPath}`, {}],
    [`staff map of "${big.name}"`, `${base}/api/subdivisions/${big.key}/map`, { authorization: `Bearer ${token}` }],
  ];
  console.log('\nBytes on the wire (as served)');
  console.log('what'.padEnd(58), 'none KB'.padStart(9), 'gzip KB'.padStart(9), 'br KB'.padStart(9));
  for (const [what, url, headers] of targets) {
    const sizes = [];
    for (const encoding of ['identity', 'gzip', 'br']) {
      // undici decompresses bodies, so count the compressed bytes through a raw HTTP request.
      sizes.push(await wireBytes(url, { ...headers, 'accept-encoding': encoding }));
    }
    console.log(what.slice(0, 58).padEnd(58), ...sizes.map((b) => (b / 1024).toFixed(1).padStart(9)));
  }
}

/** Body bytes of a GET exactly as they arrive (no decompression). */
function wireBytes(url, headers) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        let bytes = 0;
        res.on('data', (chunk) => (bytes += chunk.length));
        res.on('end', () => resolve(bytes));
      })
      .on('error', reject);
  });
}

// Lighthouse (issue "Production grade"): its own script, on the build made above.
console.log('\nLighthouse');
{
  const run = spawnSync(process.execPath, ['scripts/bench-lighthouse.mjs', '--no-build'], { cwd: root, stdio: 'inherit' });
  if (run.status !== 0) process.exitCode = run.status ?? 1;
}

// Proyectos (issue "Proyectos" → Performance): the lot import and the lot maps, each its own script.
for (const [title, script, args] of [
  ['Lot import (DXF)', 'scripts/bench-import.mjs', []],
  ['Lot maps', 'scripts/bench-maps.mjs', []],
  // API throughput (issue "API throughput"): autocannon, ratios to /api/health in the same run.
  ['API load', 'scripts/bench-api.mjs', []],
  // Schedules (issue "CRM and sales"): a 360-row FRANCES schedule in ≤ 5 ms.
  ['Payment schedules', 'scripts/bench-schedules.ts', []],
  // Payments (issue 16): approving a payment that touches 12 instalments ≤ 20 ms server time.
  ['Payment approval', 'scripts/bench-payments.ts', []],
  // The daily late-fee job over 2 000 000 instalments ≤ 30 s (LARGE_DB=<file> reuses a generated database).
  ['Late-fee job', 'scripts/bench-late-fees.ts', []],
  // Contracts (docs/domain.md "Contracts"): a contract PDF with a 360-instalment schedule ≤ 500 ms.
  ['Contract PDF', 'scripts/bench-contracts.ts', []],
]) {
  console.log(`\n${title}`);
  // The maps bench reuses the build made above (BENCH_DIST) instead of building again.
  const env = { ...process.env, BENCH_DIST: path.join(root, 'dist') };
  const runner = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const run = spawnSync(process.execPath, [...runner, script, ...args], { cwd: root, stdio: 'inherit', env });
  if (run.status !== 0) process.exitCode = run.status ?? 1;
}

/** Opens `url` (then runs `then`) and returns every script response as [path, raw bytes, gzip bytes]. */
async function scriptsLoaded(browser, url, then) {
  const page = await browser.newPage();
  const scripts = [];
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script') scripts.push(res);
  });
  await page.goto(url, { waitUntil: 'networkidle' });
  if (then) await then(page);
  const rows = [];
  for (const res of scripts) {
    const body = await res.body();
    rows.push([new URL(res.url()).pathname, body.length, gzipSync(body, { level: 9 }).length]);
  }
  await page.close();
  return rows;
}

function report(title, rows, targetKb) {
  console.log(`\n${title}`);
  console.log('file'.padEnd(48), 'raw KB'.padStart(9), 'gzip KB'.padStart(9));
  let total = 0;
  for (const [file, raw, gz] of rows) {
    total += gz;
    console.log(file.padEnd(48), (raw / 1024).toFixed(1).padStart(9), (gz / 1024).toFixed(1).padStart(9));
  }
  const kb = total / 1024;
  console.log(`total gzip: ${kb.toFixed(1)} KB (target ≤ ${targetKb} KB) ${kb <= targetKb ? 'OK' : 'OVER TARGET'}`);
}

/**
 * `SOCKETS` WebSocket clients speak the Pusher protocol to the server, each subscribed to its own private
 * channel (signed with the bench secret); the official `pusher` package triggers 200 events, one at
 * a time on random channels, and the time to receipt is measured on the receiving socket.
 */
async function realtimeLatency(port, SOCKETS) {
  const EVENTS = 200;
  const key = 'bench-key';
  const secret = 'bench-secret';
  const sockets = await Promise.all(
    Array.from(
      { length: SOCKETS },
      (_, i) =>
        new Promise((resolve, reject) => {
          const ws = new WebSocket(`ws://127.0.0.1:${port}/app/${key}?protocol=7&client=bench&version=1.0`);
          const channel = `private-bench.${i}`;
          ws.on('error', reject);
          ws.on('message', (raw) => {
            const msg = JSON.parse(raw.toString());
            if (msg.event === 'pusher:connection_established') {
              const socketId = JSON.parse(msg.data).socket_id;
              const auth = `${key}:${createHmac('sha256', secret).update(`${socketId}:${channel}`).digest('hex')}`;
              ws.send(JSON.stringify({ event: 'pusher:subscribe', data: { channel, auth } }));
            } else if (msg.event === 'pusher_internal:subscription_succeeded') {
              resolve({ ws, channel });
            }
          });
        }),
    ),
  );
  const pusher = new Pusher({ appId: 'parcela', key, secret, host: '127.0.0.1', port: String(port), useTLS: false });
  const latencies = [];
  for (let n = 0; n < EVENTS; n++) {
    const target = sockets[Math.floor(Math.random() * SOCKETS)];
    const received = new Promise((resolve) => {
      const onMessage = (raw) => {
        const msg = JSON.parse(raw.toString());
        if (msg.event === 'bench' && JSON.parse(msg.data).n === n) {
          target.ws.off('message', onMessage);
          resolve(performance.now());
        }
      };
      target.ws.on('message', onMessage);
    });
    const sent = performance.now();
    await pusher.trigger(target.channel, 'bench', { n });
    latencies.push((await received) - sent);
  }
  for (const { ws } of sockets) ws.close();
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))];
  console.log(`\nRealtime: trigger → receipt with ${SOCKETS} sockets connected, ${EVENTS} events`);
  console.log(
    `p50 ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms, max ${latencies.at(-1).toFixed(1)} ms (target p95 ≤ 100 ms) ${at(0.95) <= 100 ? 'OK' : 'OVER TARGET'}`,
  );
  return at(0.95);
}
