#!/usr/bin/env node
/**
 * Lot map benchmark (issue "Proyectos" → Performance: "Map with 5 000 lots: first paint ≤ 500 ms
 * after data arrives, hover response ≤ 16 ms"). Measures the real MapaProyectos screen:
 *
 * 1. builds the app into /tmp/bench-dist (skipped when BENCH_DIST points at an existing build);
 * 2. starts server/main.ts on a free 127.0.0.1 port with a temporary SQLite database and the demo
 *    seed, then inserts two synthetic subdivisions straight into that database: 5 000 lots (50 × 100
 *    grid of blocks of 2 × 5 lots) and 200 lots, copying the demo subdivision's row;
 * 3. signs in as the demo administrator in headless Chromium (playwright-core, /usr/bin/chromium
 *    or CHROMIUM_PATH) and opens /PROYECTOS/MapaProyectos/... for each subdivision;
 * 4. prints, per map: first paint after data arrival (ms from the map answer's `responseEnd` to the
 *    first animation frame after every lot's `<path>` is in the DOM; median of RUNS page loads),
 *    hover response p95 (ms from a `mousemove` on a lot to its tooltip and outline in the DOM, over
 *    HOVERS lots; also to the next animation frame after that), and the 5 000 / 200 ratio;
 * 5. the Lotes screen's "Ver todos" list of the same subdivisions (issue: "lots list of 5 000 rows
 *    scrolls virtualised"): /PROYECTOS/Lotes/... → "Ver todos", then `.lots-virtual-scroller` is
 *    scrolled by `scrollTop += step` once per animation frame, as tests/e2e/proyectos.e2e.test.ts
 *    does, recording each frame's duration (ms between consecutive animation frames; median, p95,
 *    max): down through the whole list at 48 and at 240 px/frame, each from a fresh page (pages of
 *    100 loading while scrolling; frames showing skeleton rows are counted), then, once every page
 *    is loaded, up through the whole list at 240 and 48 px/frame; plus the most table rows in the
 *    DOM over every frame and at the end (target < 80: virtualised), and the 5 000 / 200 ratio.
 *
 * Usage: node scripts/bench-maps.mjs [--json]   (env: BENCH_DIST, RUNS=3, HOVERS=40)
 * Exit code 1 when a figure misses its target (first paint > 500 ms, hover p95 > 16 ms or 80 or
 * more rows of the "Ver todos" list in the DOM).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { startServer } from './lib/server-process.mjs';

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(path.join(root, 'package.json'));
const { chromium } = require('playwright-core');
const Database = require('better-sqlite3');

const RUNS = Number(process.env.RUNS ?? 3);
const HOVERS = Number(process.env.HOVERS ?? 40);
const TARGET_FIRST_PAINT = 500;
const TARGET_HOVER = 16;
/** "Ver todos" must keep fewer table rows than this in the DOM (header included), as the e2e asserts. */
const TARGET_LIST_DOM_ROWS = 80;
/** Scroll steps of the "Ver todos" list, px per animation frame. */
const LIST_STEPS = [48, 240];
const json = process.argv.includes('--json');
const log = (...a) => {
  if (!json) console.error(...a);
};

function build() {
  const dist = process.env.BENCH_DIST || '/tmp/bench-dist';
  if (process.env.BENCH_DIST && existsSync(path.join(dist, 'index.html'))) return dist;
  log(`building the app into ${dist}…`);
  const r = spawnSync(
    process.execPath,
    [path.join(root, 'node_modules/vite/bin/vite.js'), 'build', '--outDir', dist, '--emptyOutDir', '--logLevel', 'error'],
    {
      cwd: root,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  if (r.status !== 0) throw new Error('vite build failed');
  return dist;
}

/**
 * Inserts a subdivision (a copy of subdivision 1 with a new code and name, no plan) with `count`
 * lots in blocks of 10 (2 rows × 5 lots of 10 m × 20 m, 12 m streets, 50 blocks per row).
 * Statuses and prices are deterministic. @returns the new subdivision's id.
 */
export function insertSubdivision(db, code, name, count) {
  const cols = db
    .prepare('PRAGMA table_info(subdivisions)')
    .all()
    .map((c) => c.name)
    .filter((c) => c !== 'id');
  const override = { code, name, plan_content_type: null, plan_data: null, plan_updated_at: null, plan_width: null, plan_height: null };
  const select = cols.map((c) => (c in override ? '?' : `"${c}"`)).join(', ');
  const params = cols.filter((c) => c in override).map((c) => override[c]);
  const info = db
    .prepare(
      `INSERT INTO subdivisions (${cols.map((c) => `"${c}"`).join(', ')}) SELECT ${select} FROM subdivisions WHERE id = (SELECT MIN(id) FROM subdivisions)`,
    )
    .run(...params);
  const subdivisionId = Number(info.lastInsertRowid);
  const now = new Date().toISOString();
  const statuses = [
    'DISPONIBLE',
    'DISPONIBLE',
    'DISPONIBLE',
    'DISPONIBLE',
    'DISPONIBLE',
    'SEPARADO',
    'VENDIDO',
    'VENDIDO',
    'BLOQUEADO',
    'RESERVA_COMERCIAL',
    'CANJE',
  ];
  const insertBlock = db.prepare('INSERT INTO blocks (subdivision_id, stage_id, name) VALUES (?, NULL, ?)');
  const insertLot = db.prepare(
    `INSERT INTO lots (subdivision_id, block_id, number, code, area_m2, perimeter_m, price_per_m2, list_price, status, polygon, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const perRow = 50;
  const tx = db.transaction(() => {
    let blockId = 0;
    for (let i = 0; i < count; i++) {
      const b = Math.floor(i / 10);
      const k = i % 10;
      const blockName = `B${b + 1}`;
      if (k === 0) blockId = Number(insertBlock.run(subdivisionId, blockName).lastInsertRowid);
      const ox = (b % perRow) * 62;
      const oy = Math.floor(b / perRow) * 52;
      const x = ox + (k % 5) * 10;
      const y = oy + Math.floor(k / 5) * 20;
      const price = 15000 + ((i * 7919) % 30000);
      insertLot.run(
        subdivisionId,
        blockId,
        String(k + 1),
        `MZ ${blockName} - LT ${k + 1}`,
        200,
        60,
        price,
        price * 200,
        statuses[i % statuses.length],
        JSON.stringify([
          [x, y],
          [x + 10, y],
          [x + 10, y + 20],
          [x, y + 20],
        ]),
        now,
        now,
      );
    }
  });
  tx();
  return subdivisionId;
}

const p95 = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.95) - 1)];
};
const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
};

/** In the page: resolves with ms from the map answer's responseEnd to the frame after `count` paths exist. */
function firstPaintProbe(count) {
  return new Promise((resolve, reject) => {
    const done = () => {
      const entry = performance.getEntriesByType('resource').find((e) => /\/api\/subdivisions\/[^/]+\/map$/.test(new URL(e.name).pathname));
      if (!entry) return reject(new Error('no map request'));
      requestAnimationFrame(() => resolve(performance.now() - entry.responseEnd));
    };
    const check = () => document.querySelectorAll('.lot-map__lots > path').length >= count;
    if (check()) return done();
    const observer = new MutationObserver(() => {
      if (check()) {
        observer.disconnect();
        done();
      }
    });
    observer.observe(document.documentElement, { childList: true, subtree: true });
    setTimeout(() => reject(new Error('lots not drawn within 30 s')), 30_000);
  });
}

/**
 * In the page: `[dom, frame]` ms from a mousemove on lot `index` to (dom) its tooltip and outline in
 * the DOM with its code (MutationObserver) and (frame) the next animation frame after that.
 */
function hoverProbe(index) {
  return new Promise((resolve, reject) => {
    const paths = document.querySelectorAll('.lot-map__lots > path');
    const target = paths[index % paths.length];
    const key = target.getAttribute('data-key');
    const box = target.getBoundingClientRect();
    const shown = () =>
      document.querySelector('.lot-map__hover') && document.querySelector('.lot-map__tooltip')?.getAttribute('data-key') === key;
    let settled = false;
    const finish = (dom) => {
      if (settled) return;
      settled = true;
      observer.disconnect();
      requestAnimationFrame(() => resolve([dom, performance.now() - t0]));
    };
    const observer = new MutationObserver(() => {
      if (shown()) finish(performance.now() - t0);
    });
    observer.observe(document.body, { childList: true, subtree: true, attributes: true });
    setTimeout(() => {
      if (!settled) reject(new Error(`no tooltip for lot ${key}`));
    }, 5000);
    const t0 = performance.now();
    target.dispatchEvent(
      new MouseEvent('mousemove', { bubbles: true, clientX: box.x + box.width / 2, clientY: box.y + box.height / 2, view: window }),
    );
    if (shown()) finish(performance.now() - t0);
  });
}

/** Signs `page` in as the demo administrator. */
async function signIn(page, baseUrl) {
  await page.goto('/auth/login');
  await page.getByLabel('DNI o correo electrónico').fill('70000001');
  await page.getByLabel('Contraseña', { exact: true }).fill('Parcela#2026');
  await page.getByRole('button', { name: 'Ingresar' }).click();
  await page.waitForURL(`${baseUrl}/`);
}

async function measure(browser, baseUrl, key, count) {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1366, height: 860 }, locale: 'es-PE' });
  const page = await context.newPage();
  await signIn(page, baseUrl);
  const firstPaints = [];
  for (let run = 0; run < RUNS; run++) {
    await page.goto(`/PROYECTOS/MapaProyectos/bench/${key}`);
    firstPaints.push(await page.evaluate(firstPaintProbe, count));
  }
  await page.mouse.move(0, 0);
  const hovers = [];
  const frames = [];
  for (let i = 0; i < HOVERS; i++) {
    const [dom, frame] = await page.evaluate(hoverProbe, (i * 7919) % count);
    hovers.push(dom);
    frames.push(frame);
  }
  await context.close();
  const r1 = (v) => Math.round(v * 10) / 10;
  return { lots: count, first_paint_ms: r1(median(firstPaints)), hover_p95_ms: r1(p95(hovers)), hover_frame_p95_ms: r1(p95(frames)) };
}

/**
 * In the page, on the "Ver todos" scroller `el`: `scrollTop += by` once per animation frame until
 * the end of the list in that direction (by > 0: bottom, by < 0: top). Resolves with each frame's
 * duration (ms between consecutive animation frames, as the e2e measures), the most rows
 * (`[role=row]`, header included) in the DOM after any frame, and how many frames showed skeleton
 * (not loaded yet) rows.
 */
function scrollProbe(el, by) {
  const rowsInDom = () => el.querySelectorAll('[role="row"]').length;
  const atEnd = () => (by > 0 ? el.scrollTop >= el.scrollHeight - el.clientHeight - 1 : el.scrollTop <= 0);
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  return (async () => {
    await frame();
    const times = [];
    let maxRows = rowsInDom();
    let skeletonFrames = 0;
    let last = performance.now();
    while (!atEnd() && times.length < 50_000) {
      el.scrollTop += by;
      await frame();
      const now = performance.now();
      times.push(now - last);
      last = now;
      maxRows = Math.max(maxRows, rowsInDom());
      if (el.querySelector('.bp6-skeleton')) skeletonFrames += 1;
    }
    return { times, maxRows, skeletonFrames };
  })();
}

/** In the page: visits every page of 100 rows of the scroller `el` until none shows a skeleton row. */
function loadAllProbe(el, rows) {
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const rowHeight = el.querySelector('.lots-virtual-body').offsetHeight / rows;
  return (async () => {
    for (let first = 0; first < rows; first += 100) {
      el.scrollTop = first * rowHeight;
      const deadline = performance.now() + 15_000;
      await frame();
      while (el.querySelector('.bp6-skeleton')) {
        if (performance.now() > deadline) throw new Error(`rows from ${first} not loaded within 15 s`);
        await frame();
      }
    }
  })();
}

/** Opens the Lotes screen of subdivision `key` and its "Ver todos" list; @returns the scroller. */
async function openAllLots(page, key, name, count) {
  await page.goto(`/PROYECTOS/Lotes/bench/${key}`);
  await page.getByRole('heading', { name, exact: true }).waitFor({ timeout: 30_000 });
  await page.getByRole('button', { name: 'Ver todos' }).click();
  await page.getByRole('table', { name: 'Todos los lotes' }).waitFor();
  await page.locator('.lots-virtual').getByText(`${count} lotes`, { exact: true }).waitFor({ timeout: 30_000 });
  const scroller = page.locator('.lots-virtual-scroller');
  // The first page is in: no skeleton rows at the top.
  await page.waitForFunction(
    () =>
      document.querySelectorAll('.lots-virtual-scroller .lots-virtual-body [role="row"]').length > 0 &&
      !document.querySelector('.lots-virtual-scroller .bp6-skeleton'),
    null,
    { timeout: 30_000 },
  );
  return scroller;
}

/** "Ver todos" of subdivision `key` (`count` lots): frame times scrolling down (loading) and up (loaded). */
async function measureList(browser, baseUrl, key, name, count) {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1366, height: 860 }, locale: 'es-PE' });
  const page = await context.newPage();
  await signIn(page, baseUrl);
  const r1 = (v) => Math.round(v * 10) / 10;
  const stats = ({ times, skeletonFrames }) => {
    const s = [...times].sort((a, b) => a - b);
    return { frames: s.length, median_ms: r1(median(s)), p95_ms: r1(p95(s)), max_ms: r1(s[s.length - 1]), skeleton_frames: skeletonFrames };
  };
  let domRowsMax = 0;
  const result = { lots: count };
  // Down through the whole list, from a fresh page each time: pages of 100 load while scrolling.
  let scroller;
  for (const step of LIST_STEPS) {
    scroller = await openAllLots(page, key, name, count);
    const run = await scroller.evaluate(scrollProbe, step);
    domRowsMax = Math.max(domRowsMax, run.maxRows);
    result[`down_${step}`] = stats(run);
  }
  // Every page loaded, then up through the whole list from the bottom.
  await scroller.evaluate(loadAllProbe, count);
  for (const step of [...LIST_STEPS].reverse()) {
    await scroller.evaluate((el) => {
      el.scrollTop = el.scrollHeight;
    });
    const run = await scroller.evaluate(scrollProbe, -step);
    domRowsMax = Math.max(domRowsMax, run.maxRows);
    result[`up_${step}`] = stats(run);
  }
  const table = page.getByRole('table', { name: 'Todos los lotes' });
  // As the e2e: lot codes are shown, and only the rows in view (plus overscan) are in the DOM.
  const codesShown = await table.getByText(/^MZ [A-Z0-9]+ - LT \d+/).count();
  if (codesShown <= 5) throw new Error(`"Ver todos" of ${count} lots shows ${codesShown} lot codes at the top`);
  result.dom_rows_end = await table.getByRole('row').count();
  result.dom_rows_max = Math.max(domRowsMax, result.dom_rows_end);
  await context.close();
  return result;
}

async function main() {
  const dist = build();
  const dir = mkdtempSync(path.join(tmpdir(), 'parcela-bench-maps-'));
  const dbPath = path.join(dir, 'bench.db');
  const server = await startServer({
    distDir: dist,
    databasePath: dbPath,
    timeoutMs: 90_000,
    env: { NODE_ENV: 'production', MAIL: 'off', LOGIN_RATE_LIMIT_PER_IP: '1000', LOGIN_RATE_LIMIT_PER_ACCOUNT: '1000' },
  });
  let browser;
  try {
    const db = new Database(dbPath);
    db.pragma('busy_timeout = 5000');
    const bigId = insertSubdivision(db, 'BENCH5K', 'Bench 5000 lotes', 5000);
    const smallId = insertSubdivision(db, 'BENCH200', 'Bench 200 lotes', 200);
    db.close();
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu'],
    });
    // The keys come from the server (its opaque ids), through the admin's subdivisions list.
    const keys = await keysFor(browser, server.baseUrl, [bigId, smallId]);
    log('measuring 5 000 lots…');
    const big = await measure(browser, server.baseUrl, keys[0], 5000);
    log('measuring 200 lots…');
    const small = await measure(browser, server.baseUrl, keys[1], 200);
    log('measuring "Ver todos" of 5 000 lots…');
    const bigList = await measureList(browser, server.baseUrl, keys[0], 'Bench 5000 lotes', 5000);
    log('measuring "Ver todos" of 200 lots…');
    const smallList = await measureList(browser, server.baseUrl, keys[1], 'Bench 200 lotes', 200);
    const ratio = (a, b) => Math.round((a / b) * 100) / 100;
    const listPasses = [...LIST_STEPS.map((s) => `down_${s}`), ...LIST_STEPS.map((s) => `up_${s}`)];
    const result = {
      map_5000: big,
      map_200: small,
      ratio_first_paint: ratio(big.first_paint_ms, small.first_paint_ms),
      ratio_hover_p95: ratio(big.hover_p95_ms, small.hover_p95_ms),
      list_5000: bigList,
      list_200: smallList,
      ratio_list: Object.fromEntries(
        listPasses.map((k) => [
          k,
          { median: ratio(bigList[k].median_ms, smallList[k].median_ms), p95: ratio(bigList[k].p95_ms, smallList[k].p95_ms) },
        ]),
      ),
      targets: { first_paint_ms: TARGET_FIRST_PAINT, hover_p95_ms: TARGET_HOVER, list_dom_rows_below: TARGET_LIST_DOM_ROWS },
      ok:
        big.first_paint_ms <= TARGET_FIRST_PAINT &&
        big.hover_p95_ms <= TARGET_HOVER &&
        bigList.dom_rows_max < TARGET_LIST_DOM_ROWS &&
        smallList.dom_rows_max < TARGET_LIST_DOM_ROWS,
    };
    if (json) console.log(JSON.stringify(result));
    else {
      console.log(
        `Mapa 5 000 lotes: primer pintado tras llegar los datos ${big.first_paint_ms} ms (meta ≤ ${TARGET_FIRST_PAINT}), hover p95 ${big.hover_p95_ms} ms (meta ≤ ${TARGET_HOVER}; hasta el siguiente cuadro ${big.hover_frame_p95_ms} ms)`,
      );
      console.log(
        `Mapa   200 lotes: primer pintado ${small.first_paint_ms} ms, hover p95 ${small.hover_p95_ms} ms (siguiente cuadro ${small.hover_frame_p95_ms} ms)`,
      );
      console.log(`Relación 5 000 / 200: primer pintado ×${result.ratio_first_paint}, hover ×${result.ratio_hover_p95}`);
      const pass = (f) =>
        `mediana ${f.median_ms} ms, p95 ${f.p95_ms} ms (máx ${f.max_ms} ms; ${f.frames} cuadros${f.skeleton_frames ? `, ${f.skeleton_frames} con filas cargando` : ''})`;
      const passes = (l) => [
        ...LIST_STEPS.map((s) => `bajando a ${s} px/cuadro (páginas cargando) ${pass(l[`down_${s}`])}`),
        ...LIST_STEPS.map((s) => `subiendo a ${s} px/cuadro (todo cargado) ${pass(l[`up_${s}`])}`),
      ];
      for (const [label, l] of [
        ['5 000', bigList],
        ['  200', smallList],
      ]) {
        console.log(
          `Lista "Ver todos" ${label} lotes: filas en el DOM máx ${l.dom_rows_max}, al final ${l.dom_rows_end} (meta < ${TARGET_LIST_DOM_ROWS}); duración de cuadro:`,
        );
        for (const line of passes(l)) console.log(`  ${line}`);
      }
      console.log(
        `Relación lista 5 000 / 200: ${listPasses.map((k) => `${k.startsWith('down') ? 'bajando' : 'subiendo'} ${k.split('_')[1]} px mediana ×${result.ratio_list[k].median}, p95 ×${result.ratio_list[k].p95}`).join('; ')}`,
      );
    }
    process.exitCode = result.ok ? 0 : 1;
  } finally {
    await browser?.close();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The opaque keys of subdivisions `ids`, read from GET /api/subdivisions in a signed-in page. */
async function keysFor(browser, baseUrl, ids) {
  const context = await browser.newContext({ baseURL: baseUrl });
  const page = await context.newPage();
  await signIn(page, baseUrl);
  const rows = await page.evaluate(async () => {
    const res = await fetch('/api/subdivisions?per_page=100', {
      headers: { Authorization: `Bearer ${localStorage.getItem('token')}`, Accept: 'application/json' },
    });
    return (await res.json()).data;
  });
  await context.close();
  return ids.map((id) => {
    const row = rows.find((r) => r.id === id);
    if (!row) throw new Error(`subdivision ${id} not listed`);
    return row.key;
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error);
    process.exitCode = 1;
  });
}
