#!/usr/bin/env node
// `npm run bench`: builds the app, starts the real server on a temp database (127.0.0.1 only),
// opens /auth/login in Debian's Chromium and prints the gzip size of every script the browser
// loads up front for that page (target ≤ 130 KB, issue "Foundation"). Not part of `npm test`.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';

const root = path.resolve(import.meta.dirname, '..');
const TARGET_KB = 130;

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function waitFor(url, ms = 60_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`server did not answer ${url}`);
}

if (!process.argv.includes('--no-build')) {
  const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const dir = mkdtempSync(path.join(tmpdir(), 'parcela-bench-'));
const port = await freePort();
const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_PATH: path.join(dir, 'bench.db'),
    DATABASE_URL: '',
    SEED: 'none',
    EXIT_ON_STDIN_CLOSE: '1',
  },
  stdio: ['pipe', 'ignore', 'inherit'],
});
const stop = () => {
  server.stdin.end();
  server.kill('SIGTERM');
  rmSync(dir, { recursive: true, force: true });
};
process.on('exit', stop);

try {
  const base = `http://127.0.0.1:${port}`;
  await waitFor(`${base}/api/health`);
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage();
  const scripts = [];
  page.on('response', async (res) => {
    if (res.request().resourceType() === 'script') scripts.push(res);
  });
  await page.goto(`${base}/auth/login`, { waitUntil: 'networkidle' });
  let total = 0;
  const rows = [];
  for (const res of scripts) {
    const body = await res.body();
    const gz = gzipSync(body, { level: 9 }).length;
    total += gz;
    rows.push([new URL(res.url()).pathname, (body.length / 1024).toFixed(1), (gz / 1024).toFixed(1)]);
  }
  await browser.close();
  console.log('\nJS loaded up front for /auth/login');
  console.log('file'.padEnd(48), 'raw KB'.padStart(9), 'gzip KB'.padStart(9));
  for (const [f, raw, gz] of rows) console.log(f.padEnd(48), raw.padStart(9), gz.padStart(9));
  const kb = total / 1024;
  console.log(`total gzip: ${kb.toFixed(1)} KB (target ≤ ${TARGET_KB} KB) ${kb <= TARGET_KB ? 'OK' : 'OVER TARGET'}`);
} finally {
  stop();
}
