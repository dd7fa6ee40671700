import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

/**
 * Vite build of the Parcela web app. The dev server proxies the four API bases and the
 * realtime endpoints to the API server (PORT, default 8080) so `npm run dev` works against it.
 */
const target = `http://127.0.0.1:${process.env.PORT ?? '8080'}`;

/** Text assets worth compressing ahead of time (images and fonts are compressed already). */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|wasm)$/;

/**
 * Writes `file.br` (Brotli, quality 11) and `file.gz` (gzip, level 9) beside every compressible
 * file of the build that is at least 1 KiB, so the server sends them as they are
 * (@fastify/static `preCompressed`) instead of compressing on every request (docs/decisions.md
 * "Compression"). Uses node:zlib only; runs once per `vite build`.
 */
function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'parcela:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    closeBundle() {
      const walk = (dir: string): string[] =>
        readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
          entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
        );
      for (const file of walk(outDir)) {
        if (!COMPRESSIBLE.test(file) || statSync(file).size < 1024) continue;
        const body = readFileSync(file);
        writeFileSync(
          `${file}.br`,
          brotliCompressSync(body, {
            params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length },
          }),
        );
        writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
      }
    },
  };
}

/**
 * Replaces `@blueprintjs/icons`' `iconNames` module (the ~700-name tables built at start-up) with
 * src/lib/blueprint-icon-names.ts in the browser build: 12 KB gzip less on every page, see that file.
 */
function blueprintIconNames(): Plugin {
  const replacement = fileURLToPath(new URL('./src/lib/blueprint-icon-names.ts', import.meta.url));
  return {
    name: 'parcela:blueprint-icon-names',
    enforce: 'pre',
    resolveId(source, importer) {
      if (source === './iconNames' && importer && /[/\\]@blueprintjs[/\\]icons[/\\]/.test(importer)) return replacement;
      return null;
    },
  };
}

/**
 * Icons the authenticated shell draws on every screen: the menu's own (`icono` in
 * src/schemas/menu-catalogue.ts) and the top bar's. They go into one chunk instead of one request
 * each (twenty requests queue six at a time on HTTP/1.1: issue "Production grade", Lighthouse).
 */
const SHELL_ICONS = new Set([
  ...[...readFileSync(new URL('./src/schemas/menu-catalogue.ts', import.meta.url), 'utf8').matchAll(/icono: '([a-z0-9-]+)'/g)].map(
    (m) => m[1],
  ),
  ...['menu', 'moon', 'flash', 'color-fill', 'notifications', 'user', 'caret-down', 'chevron-down', 'search'],
]);
const shellIcon = (id: string) => {
  const match = /@blueprintjs[\\/]icons[\\/]lib[\\/]esm[\\/]generated[\\/]16px[\\/]paths[\\/]([a-z0-9-]+)\.js$/.exec(id);
  return match !== null && SHELL_ICONS.has(match[1]!);
};

/**
 * src/boot.ts stays a chunk of its own, with the one module it imports (Inicio's first paint from
 * the stored session): it must not pull the app in.
 */
const BOOT = /[/\\]src[/\\](boot|lib[/\\]session-first-paint)\.ts$/;

/**
 * Drops from the preload lists of the entry's lazy imports (the screen table's views and machines)
 * the chunks the authenticated shell has already loaded — the entry's and the shell's static
 * imports (zod, Blueprint's menu and overlay, the api client…): by the time a screen's import runs
 * the shell is on screen, so listing them again only cost the entry ~35 bytes of gzip per screen
 * and per shared chunk (docs/decisions.md "Screens' preload lists"). Public pages imported by the
 * entry keep their full lists in the server's HTML hints (server/preload-hints.ts).
 * @returns the plugin that reads the bundle before Vite writes the lists, and Vite's
 *   `build.modulePreload.resolveDependencies` hook that filters them.
 */
function shellPreloads(): {
  plugin: Plugin;
  resolveDependencies: (file: string, deps: string[], context: { hostId: string; hostType: 'html' | 'js' }) => string[];
} {
  // The shell and what an authenticated start loads beside it (server/preload-hints.ts SHELL_MODULES).
  const SHELL = [
    /[/\\]src[/\\]views[/\\]shell[/\\]AuthenticatedShell\.tsx$/,
    /[/\\]src[/\\]machines[/\\]shell[/\\]shell\.actors\.ts$/,
    /[/\\]src[/\\]machines[/\\]session[/\\]stored-session\.ts$/,
    /[/\\]src[/\\]api[/\\](session|notifications)\.ts$/,
  ];
  const loaded = new Set<string>();
  const plugin: Plugin = {
    name: 'parcela:shell-preloads',
    apply: 'build',
    generateBundle: {
      order: 'pre',
      handler(_options, bundle) {
        loaded.clear();
        const chunks = Object.values(bundle).flatMap((output) => (output.type === 'chunk' ? [output] : []));
        const visit = (fileName: string) => {
          if (loaded.has(fileName)) return;
          loaded.add(fileName);
          const chunk = bundle[fileName];
          if (chunk?.type === 'chunk') for (const dep of chunk.imports) visit(dep);
        };
        for (const chunk of chunks)
          if (chunk.isEntry || chunk.moduleIds.some((id) => SHELL.some((re) => re.test(id)))) visit(chunk.fileName);
      },
    },
  };
  return {
    plugin,
    resolveDependencies: (_file, deps, { hostId, hostType }) =>
      hostType === 'js' && loaded.has(hostId) ? deps.filter((dep) => !loaded.has(dep)) : deps,
  };
}
const shellPreloadLists = shellPreloads();

export default defineConfig({
  plugins: [react(), blueprintIconNames(), shellPreloadLists.plugin, precompress()],
  server: {
    port: 5173,
    proxy: {
      '/api': target,
      '/dev': target,
      '/broadcasting': target,
      '/app': { target, ws: true },
    },
  },
  build: {
    outDir: 'dist',
    // dist/.vite/manifest.json: which chunks a source module needs, read by the server to announce a
    // route's chunks in its HTML (server/preload-hints.ts).
    manifest: true,
    // No modulepreload polyfill in the entry (0.4 KB gzip of the login page's budget): every browser
    // the app supports has `<link rel="modulepreload">` (Chromium 66, Firefox 115, Safari 17); an older
    // one only fetches the preloaded chunks later (docs/decisions.md "Compression and the login budget").
    modulePreload: { polyfill: false, resolveDependencies: shellPreloadLists.resolveDependencies },
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      // src/boot.ts: the authenticated routes' entry, which loads index.html's after the skeleton's
      // first paint (server/preload-hints.ts, docs/decisions.md "Skeleton first").
      input: {
        index: fileURLToPath(new URL('./index.html', import.meta.url)),
        boot: fileURLToPath(new URL('./src/boot.ts', import.meta.url)),
      },
      output: {
        // Lazy chunks are named by a 7-character hash alone (Rolldown's minimum here): the entry lists every screen's chunks for its
        // preloads and the icon table one loader per icon, and the module names in those file names
        // cost ~2 KB gzip after a login (docs/decisions.md "Screens' preload lists"). The manifest
        // (dist/.vite/manifest.json) still names each chunk.
        chunkFileNames: 'assets/[hash:7].js',
        // Everything the entry loads statically goes into one chunk beside it, instead of a handful
        // of small shared chunks that each cost a request and compress worse (see `npm run bench`).
        // The shell's icons go into one chunk too: one request instead of twenty after the first paint.
        codeSplitting: {
          groups: [
            { name: 'app', tags: ['$initial'], test: (id: string) => !BOOT.test(id) },
            { name: 'shell-icons', test: shellIcon },
          ],
        },
      },
    },
  },
});
