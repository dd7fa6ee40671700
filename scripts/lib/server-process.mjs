// The real server (server/main.ts, the entry point of `npm start`) as a child process, for the
// benches and the e2e harness: a free port on 127.0.0.1, a temporary SQLite database seeded with the
// demo data, and a stop() that waits for the process to exit. The server also exits by itself when
// this process goes away (its stdin closes: EXIT_ON_STDIN_CLOSE).
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

/** Debian's Chromium, or CHROMIUM_PATH. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Flags for Chromium on these machines: no sandbox (root), no GPU, and none of the background
 * connections that a closed network refuses (QUIC, component updates, sync, first-run pings).
 */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** A TCP port free on 127.0.0.1 right now. @returns {Promise<number>} */
export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
    srv.on('error', reject);
  });
}

/**
 * Starts server/main.ts and resolves once GET /api/health answers 200 (polled every 200 ms, up to
 * `timeoutMs`).
 * @param {{ env?: Record<string, string>, distDir?: string, databasePath?: string, timeoutMs?: number, stdout?: 'ignore' | 'inherit' }} [options]
 *   `env` is added to (and overrides) the defaults below; `distDir` is the build to serve (default
 *   dist/); `databasePath` an SQLite file to use (default: a new one in a temporary folder, removed
 *   by stop()).
 * @returns {Promise<{ baseUrl: string, port: number, databasePath: string, stop(): Promise<void> }>}
 * @throws when dist/index.html is missing, the process exits early or health never answers.
 */
export async function startServer({
  env = {},
  distDir = path.join(ROOT, 'dist'),
  databasePath,
  timeoutMs = 60_000,
  stdout = 'ignore',
} = {}) {
  if (!existsSync(path.join(distDir, 'index.html'))) throw new Error(`${distDir} is missing: run \`npm run build\` first`);
  const dir = mkdtempSync(path.join(tmpdir(), 'parcela-server-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  databasePath ??= path.join(dir, 'parcela.db');
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: baseUrl,
      DATABASE_PATH: databasePath,
      DATABASE_URL: '',
      SEED: 'demo',
      SCRYPT_LOG_N: '14',
      EXIT_ON_STDIN_CLOSE: '1',
      DIST_DIR: distDir,
      ...env,
    },
    stdio: ['pipe', stdout, 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    child.stdin?.end();
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`server exited with code ${child.exitCode}`);
    }
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) break;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`server did not answer /api/health within ${timeoutMs / 1000} s`);
    }
    await new Promise((r) => setTimeout(r, 200)); // poll interval, not a synchronisation
  }
  return { baseUrl, port, databasePath, stop };
}

/** The demo Administrador (README "Demo accounts"). */
export const DEMO_ADMIN = { user: '70000001', password: 'Parcela#2026' };

/**
 * Signs the demo Administrador in through the API (call 2) and lists the subdivisions.
 * @returns { token, subdivisions } (the list as GET /api/subdivisions answers it, up to 100 rows).
 * @throws when the login or the list fails.
 */
export async function demoAdminSubdivisions(baseUrl) {
  const login = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ ...DEMO_ADMIN, user_type: 'COLLABORATOR' }),
  });
  if (!login.ok) throw new Error(`demo login failed: ${login.status} ${await login.text()}`);
  const { token } = (await login.json()).data;
  const list = await fetch(`${baseUrl}/api/subdivisions?per_page=100&sort=name`, { headers: { authorization: `Bearer ${token}` } });
  if (!list.ok) throw new Error(`subdivisions list failed: ${list.status}`);
  return { token, subdivisions: (await list.json()).data };
}
