import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '../../server/errors';
import { NOT_BUILT_HTML } from '../../server/web-app';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { createSession, createStaff } from '../../server/testing/fixtures';
import { bearer, buildTestApp, dialects, useTestDatabase, type TestApp } from './harness';

/** Cross-cutting HTTP behaviour: health, 404s, headers, /dev/outbox visibility, static files and the SPA fallback. */

const ENTRY_SCRIPT = '<script type="module" crossorigin src="/assets/index-abc123.js"></script>';
const INDEX_HTML = `<!doctype html><html><head><title>Parcela</title>${ENTRY_SCRIPT}</head><body><div id="root"></div></body></html>`;
const HTML = { accept: 'text/html,application/xhtml+xml' };

describe.each(dialects)('http (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  let dist: string;
  let built: TestApp;
  let unbuilt: TestApp;

  beforeAll(async () => {
    dist = await mkdtemp(join(tmpdir(), 'parcela-dist-'));
    await writeFile(join(dist, 'index.html'), INDEX_HTML);
    await mkdir(join(dist, 'assets'));
    await writeFile(join(dist, 'assets', 'index-abc123.js'), 'console.log("parcela")');
    // Vite's build manifest (server/preload-hints.ts reads it for the routes' preload hints).
    await mkdir(join(dist, '.vite'));
    await writeFile(
      join(dist, '.vite', 'manifest.json'),
      JSON.stringify({
        'index.html': { file: 'assets/index-abc123.js', isEntry: true, imports: ['_runtime.js'] },
        'src/boot.ts': { file: 'assets/boot-b1.js', isEntry: true },
        '_runtime.js': { file: 'assets/runtime-r1.js' },
        '_shared.js': { file: 'assets/shared-s1.js', imports: ['_runtime.js', 'index.html'] },
        'src/views/landing/LandingPage.tsx': {
          file: 'assets/LandingPage-l1.js',
          imports: ['index.html', '_shared.js'],
          css: ['assets/LandingPage-l1.css'],
        },
        'src/views/mapas/PublicMapPage.tsx': { file: 'assets/PublicMapPage-p1.js', imports: ['index.html'], css: ['assets/maps-c1.css'] },
        'src/views/shell/AuthenticatedShell.tsx': { file: 'assets/AuthenticatedShell-a1.js', imports: ['index.html', '_shared.js'] },
        'src/views/inicio/HomePage.tsx': { file: 'assets/HomePage-h1.js', imports: ['index.html'] },
        'src/views/proyectos/SubdivisionsPage.tsx': { file: 'assets/SubdivisionsPage-s1.js', imports: ['index.html'] },
        'src/machines/proyectos/projects.actors.ts': { file: 'assets/projects.actors-m1.js', imports: ['index.html'] },
        // A module imported both statically and dynamically is a shared chunk named after it
        // (server/preload-hints.ts manifestKeyOf), and a dependency is keyed by its real path
        // (node_modules linked from elsewhere).
        '_menu-catalogue-c1.js': { file: 'assets/menu-catalogue-c1.js', name: 'menu-catalogue', imports: ['index.html'] },
        '../../elsewhere/node_modules/ofetch/dist/index.mjs': { file: 'assets/ofetch-o1.js' },
        // Two chunks of one name (an icon at two sizes): neither is taken for a module of that name.
        '_icon-paths-a.js': { file: 'assets/icon-paths-a.js', name: 'icon-paths' },
        '_icon-paths-b.js': { file: 'assets/icon-paths-b.js', name: 'icon-paths' },
      }),
    );
    // A build-time Brotli/gzip variant beside one asset (vite.config.ts precompress); the other has none.
    await writeFile(join(dist, 'assets', 'app-def456.js'), 'console.log("plain")');
    await writeFile(join(dist, 'assets', 'app-def456.js.br'), brotliCompressSync('console.log("plain")'));
    await writeFile(join(dist, 'assets', 'app-def456.js.gz'), gzipSync('console.log("plain")'));
    built = await buildTestApp(db(), { distDir: dist, publicDir: resolve('public') });
    unbuilt = await buildTestApp(db(), { distDir: join(dist, 'missing'), publicDir: resolve('public') });
  });
  afterAll(async () => {
    await built.app.close();
    await unbuilt.app.close();
    await rm(dist, { recursive: true, force: true });
  });

  it('answers GET /api/health', async () => {
    const res = await built.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('answers unknown API routes with the JSON 404, even for browsers', async () => {
    for (const [method, url] of [
      ['GET', '/api/nada'],
      ['POST', '/api/nada'],
      ['GET', '/dev/nada'],
      ['GET', '/broadcasting/auth'],
    ] as const) {
      const res = await built.app.inject({ method, url, headers: HTML });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: MESSAGES.notFound });
    }
  });

  it('sends security headers with a CSP fit for the SPA', async () => {
    const res = await built.app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
    expect(csp).toMatch(/connect-src 'self' ws:\/\/localhost:\d+ wss:\/\/localhost:\d+(;|$)/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves built files, with long caching for fingerprinted assets', async () => {
    const res = await built.app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('parcela');
    expect(res.headers['cache-control']).toContain('immutable');
    const missing = await built.app.inject({ method: 'GET', url: '/assets/nada.js' });
    expect(missing.statusCode).toBe(404);
  });

  it('sends the build-time Brotli or gzip variant to browsers that accept it, the plain file otherwise', async () => {
    const br = await built.app.inject({ method: 'GET', url: '/assets/app-def456.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toContain('immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe('console.log("plain")');
    const gz = await built.app.inject({ method: 'GET', url: '/assets/app-def456.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe('console.log("plain")');
    const plain = await built.app.inject({ method: 'GET', url: '/assets/app-def456.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log("plain")');
    // A file without a variant is still served to a browser that accepts br (not a 404).
    const noVariant = await built.app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(noVariant.statusCode).toBe(200);
    expect(noVariant.body).toContain('parcela');
    const logo = await built.app.inject({ method: 'GET', url: '/logo.svg', headers: { 'accept-encoding': 'br, gzip' } });
    expect(logo.statusCode).toBe(200);
  });

  it('compresses JSON answers over 1 KiB and leaves small ones alone', async () => {
    const token = await createSession(db(), await createStaff(db(), { permissions: [MODULE.configuracion, SUBMODULE.roles] }));
    for (let i = 0; i < 12; i++) {
      const payload = {
        name: `Rol de compresión ${dialect} ${i}`,
        permissions: [MODULE.configuracion, SUBMODULE.roles, SUBMODULE.usuarios],
      };
      expect((await built.app.inject({ method: 'POST', url: '/api/roles', headers: bearer(token), payload })).statusCode).toBe(201);
    }
    const plain = await built.app.inject({
      method: 'GET',
      url: '/api/roles?per_page=50',
      headers: { ...bearer(token), 'accept-encoding': 'identity' },
    });
    expect(plain.statusCode).toBe(200);
    expect(plain.rawPayload.length).toBeGreaterThan(1024);
    const big = await built.app.inject({
      method: 'GET',
      url: '/api/roles?per_page=50',
      headers: { ...bearer(token), 'accept-encoding': 'br' },
    });
    expect(big.headers['content-encoding']).toBe('br');
    expect(big.rawPayload.length).toBeLessThan(plain.rawPayload.length);
    expect(JSON.parse(brotliDecompressSync(big.rawPayload).toString())).toEqual(plain.json());
    const small = await built.app.inject({ method: 'GET', url: '/api/health', headers: { 'accept-encoding': 'br, gzip' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.json()).toEqual({ status: 'ok' });
  });

  it('announces the chunks of /auth/loginclientes, public maps and the pages the server draws in their HTML (build manifest)', async () => {
    const customers = await built.app.inject({ method: 'GET', url: '/auth/loginclientes', headers: HTML });
    expect(customers.statusCode).toBe(200);
    expect(customers.headers['cache-control']).toBe('no-cache');
    expect(customers.body).toContain(ENTRY_SCRIPT);
    // The public map is drawn by the server (its frame, no data) with its stylesheet linked in the
    // HTML (the frame needs it), and loads the app after that paint.
    const map = (await built.app.inject({ method: 'GET', url: '/mapa/los-olivos/Ab3?x=1', headers: HTML })).body;
    expect(appModules(map)).toEqual({
      entry: '/assets/index-abc123.js',
      js: ['/assets/PublicMapPage-p1.js', '/assets/ofetch-o1.js'],
      css: [],
    });
    expect(map).toContain('<link rel="stylesheet" crossorigin href="/assets/maps-c1.css">');
    expect(map).toContain('<h1 id="map-title" class="map-page__title">Mapa de ventas</h1>');
    expect(map).toContain('placeholder="Buscar lote (MZ A - LT 12 o A-12)"');
    // /landing is drawn by the server and loads the app after that paint: its chunks (not the
    // entry's own imports) are listed for src/boot.ts.
    const landing = await built.app.inject({ method: 'GET', url: '/landing', headers: HTML });
    expect(landing.headers['cache-control']).toBe('no-cache');
    expect(appModules(landing.body)).toEqual({
      entry: '/assets/index-abc123.js',
      js: ['/assets/LandingPage-l1.js', '/assets/shared-s1.js'],
      css: ['/assets/LandingPage-l1.css'],
    });
    expect(landing.body).not.toContain(ENTRY_SCRIPT);
    expect(landing.body).not.toContain('runtime-r1.js'); // the entry's own import, in index.html already
    // Authenticated routes load the app after the skeleton's first paint (src/boot.ts): the entry
    // script becomes the boot chunk, and the entry, the shell and the screen the screen table names
    // (src/config/screens.ts) are listed for it instead of preloaded with the HTML.
    const subdivisions = (await built.app.inject({ method: 'GET', url: '/proyectos/Lotizaciones', headers: HTML })).body;
    expect(appModules(subdivisions)).toEqual({
      entry: '/assets/index-abc123.js',
      js: [
        '/assets/AuthenticatedShell-a1.js',
        '/assets/shared-s1.js',
        '/assets/ofetch-o1.js',
        '/assets/SubdivisionsPage-s1.js',
        '/assets/projects.actors-m1.js',
      ],
      css: [],
    });
    expect(subdivisions).toContain('<script type="module" crossorigin src="/assets/boot-b1.js"></script>');
    expect(subdivisions).not.toContain(ENTRY_SCRIPT);
    expect(subdivisions).not.toContain('modulepreload');
    // Inicio: its own chunk first; the app fetches the shell after Inicio's first paint.
    const home = await built.app.inject({ method: 'GET', url: '/', headers: HTML });
    expect(home.headers['cache-control']).toBe('no-cache');
    // With what its first calls need: ofetch and the menu catalogue.
    expect(appModules(home.body).js).toEqual(['/assets/HomePage-h1.js', '/assets/ofetch-o1.js', '/assets/menu-catalogue-c1.js']);
    // A placeholder route gets the shell only.
    const placeholder = appModules((await built.app.inject({ method: 'GET', url: '/COMERCIO/ventas', headers: HTML })).body);
    expect(placeholder.js).toEqual(['/assets/AuthenticatedShell-a1.js', '/assets/shared-s1.js', '/assets/ofetch-o1.js']);
    // The staff login is index.html unchanged (everything it needs is the entry).
    expect((await built.app.inject({ method: 'GET', url: '/auth/login', headers: HTML })).body).toBe(INDEX_HTML);
  });

  it('draws the shell skeleton with the route title in the HTML of authenticated routes only (src/lib/shell-skeleton.tsx)', async () => {
    const subdivisions = (await built.app.inject({ method: 'GET', url: '/PROYECTOS/lotizaciones', headers: HTML })).body;
    const root = rootOf(subdivisions);
    expect(root).toContain('<div class="layout-wrapper shell-skeleton" aria-busy="true">');
    expect(root).toContain('<header class="layout-topbar">');
    expect(root).toContain('<h1 class="bp6-heading page-title">Lotizaciones</h1>');
    expect(root).toContain('<img src="/logo.svg" alt="" width="32" height="32" class="brand-logo"/>');
    // The title of a route with parameters is the route's own, never the URL's text.
    const lots = (await built.app.inject({ method: 'GET', url: '/PROYECTOS/Lotes/%3Cscript%3E/x1', headers: HTML })).body;
    expect(lots).toContain('<h1 class="bp6-heading page-title">Lotes</h1>');
    expect(lots).not.toContain('<script>');
    const home = (await built.app.inject({ method: 'GET', url: '/', headers: HTML })).body;
    expect(home).toContain('page-title">Inicio</h1>');
    // …and Inicio's templates, which src/boot.ts fills from the stored session (src/lib/session-first-paint.ts).
    const templates = (appModules(home) as { home?: Record<string, string> }).home;
    expect(Object.keys(templates ?? {})).toEqual(['address', 'local', 'none']);
    expect(templates!.address).toContain('<h2 class="bp6-heading home-greeting">Hola, ⟦name⟧</h2>');
    expect(templates!.address).toContain('<div class="home-local-address">⟦local_address⟧</div>');
    expect(templates!.local).not.toContain('⟦local_address⟧');
    expect(templates!.none).toContain('Sin local activo');
    expect(templates!.none).toContain('<svg data-icon="office"'); // drawn with its paths, as the app does
    expect(appModules(lots)).not.toHaveProperty('home');
    for (const url of ['/auth/login', '/auth/loginclientes', '/pages/notfound', '/no/such/route']) {
      expect((await built.app.inject({ method: 'GET', url, headers: HTML })).body).toContain('<div id="root"></div>');
    }
  });

  it('draws the whole landing page in its HTML (src/views/landing/LandingPage.tsx, static markup)', async () => {
    const landing = (await built.app.inject({ method: 'GET', url: '/landing', headers: HTML })).body;
    const root = rootOf(landing);
    expect(root).toContain('<h1 class="bp6-heading landing-title">Lotes para construir tu futuro</h1>');
    expect(root).toContain('<p class="landing-lead">Compra tu lote con servicios');
    // Its links work before the app has loaded: plain anchors to the two logins.
    expect(root).toContain('href="/auth/login"');
    expect(root).toContain('href="/auth/loginclientes"');
    expect(root).not.toContain('shell-skeleton');
  });

  it('serves /logo.svg from public/ with or without a build', async () => {
    for (const { app } of [built, unbuilt]) {
      const res = await app.inject({ method: 'GET', url: '/logo.svg' });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('image/svg+xml');
    }
  });

  it('falls back to index.html for client-side routes', async () => {
    for (const url of ['/', '/auth/login', '/COMERCIO/ventas?x=1', '/auth/reset_password/abc/customer']) {
      const res = await built.app.inject({ method: 'GET', url, headers: HTML });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
      // index.html, with the preload hints, the deferred app and the skeleton of authenticated routes (tested above).
      expect(
        res.body
          .replace(/<link rel="modulepreload"[^>]*>/g, '')
          .replace(/<script type="application\/json" id="app-modules">.*?<\/script><script[^>]*boot-b1\.js"><\/script>/, ENTRY_SCRIPT)
          .replace(/<div id="root">.*<\/div>(?=\s*<\/body>)/s, '<div id="root"></div>'),
      ).toBe(INDEX_HTML);
    }
    // Not a browser navigation: JSON 404.
    const api = await built.app.inject({ method: 'GET', url: '/auth/login', headers: { accept: 'application/json' } });
    expect(api.statusCode).toBe(404);
  });

  it('explains how to build when dist/ is missing', async () => {
    const res = await unbuilt.app.inject({ method: 'GET', url: '/auth/login', headers: HTML });
    expect(res.statusCode).toBe(503);
    expect(res.body).toBe(NOT_BUILT_HTML);
    expect(res.body).toContain('npm run build');
  });

  it('exposes /dev/outbox outside production only', async () => {
    expect((await built.app.inject({ method: 'GET', url: '/dev/outbox' })).statusCode).toBe(200);
    const production = await buildTestApp(db(), { nodeEnv: 'production' });
    try {
      const res = await production.app.inject({ method: 'GET', url: '/dev/outbox' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: MESSAGES.notFound });
    } finally {
      await production.app.close();
    }
  });

  it('exposes POST /dev/clock under NODE_ENV=test only (never in development or production)', async () => {
    for (const nodeEnv of ['development', 'production'] as const) {
      const other = await buildTestApp(db(), { nodeEnv });
      try {
        const res = await other.app.inject({ method: 'POST', url: '/dev/clock', payload: { advance_ms: 1000 } });
        expect(res.statusCode).toBe(404);
      } finally {
        await other.app.close();
      }
    }
  });

  it('answers unsupported content types and oversized bodies with 4xx JSON', async () => {
    const media = await built.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: '<user/>',
      headers: { 'content-type': 'application/xml' },
    });
    expect(media.statusCode).toBe(415);
    expect(media.json()).toEqual({ message: MESSAGES.unsupportedMediaType });
    const big = await built.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: JSON.stringify({ user: 'x'.repeat(2_000_000), password: 'x', user_type: 'CUSTOMER' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toEqual({ message: MESSAGES.payloadTooLarge });
  });
});

/** The `{ entry, js, css }` an authenticated route's HTML lists for src/boot.ts. */
function appModules(html: string): { entry: string; js: string[]; css: string[] } {
  const json = /<script type="application\/json" id="app-modules">(.*?)<\/script>/.exec(html)?.[1];
  if (!json) throw new Error('no app-modules block');
  return JSON.parse(json) as { entry: string; js: string[]; css: string[] };
}

/** What an HTML page carries inside `<div id="root">` (the markup the server drew), or ''. */
function rootOf(html: string): string {
  return /<div id="root">(.*)<\/div>\s*<\/body>/s.exec(html)?.[1] ?? '';
}
