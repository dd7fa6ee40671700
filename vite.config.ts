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

export default defineConfig({
  plugins: [react(), blueprintIconNames(), precompress()],
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
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      output: {
        // Everything the entry loads statically goes into one chunk beside it, instead of a handful
        // of small shared chunks that each cost a request and compress worse (see `npm run bench`).
        codeSplitting: { groups: [{ name: 'app', tags: ['$initial'] }] },
      },
    },
  },
});
