/**
 * What a page loads up front, computed from the build (dist/, its manifest `.vite/manifest.json`)
 * and the HTML the real server answers — the definitions of docs/performance.md "What loads up
 * front", measured the way README "Performance" reports them (each file gzip -9, summed; Brotli
 * bytes as the server sends them).
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { manifestKeyOf, type Manifest } from '../../server/preload-hints';

/** Build files (paths relative to dist/, e.g. `assets/index-abc.js`), JS and CSS apart. */
export interface Files {
  js: string[];
  css: string[];
}

/** Reads dist/.vite/manifest.json. */
export function readManifest(distDir: string): Manifest {
  return JSON.parse(readFileSync(path.join(distDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
}

/** `/assets/x.js` → `assets/x.js`; absolute URLs and other origins are not build files. */
const buildPath = (href: string) => href.replace(/^\//, '');

/**
 * The files an HTML page makes the browser fetch with no user action: its module scripts,
 * `modulepreload`, `preload as=style` and stylesheet links, and the modules src/boot.ts loads from
 * the `app-modules` block (the pages the server draws) — without their static imports.
 */
export function filesInHtml(html: string): Files {
  const js = new Set<string>();
  const css = new Set<string>();
  for (const tag of html.match(/<(?:script|link)\b[^>]*>/g) ?? []) {
    const attr = (name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
    const url = attr('src') ?? attr('href');
    if (!url?.startsWith('/')) continue;
    if (tag.startsWith('<script') && attr('type') === 'module') js.add(buildPath(url));
    else if (attr('rel') === 'modulepreload') js.add(buildPath(url));
    else if (attr('rel') === 'stylesheet' || (attr('rel') === 'preload' && attr('as') === 'style')) css.add(buildPath(url));
  }
  const block = /<script type="application\/json" id="app-modules">([^<]*)<\/script>/.exec(html)?.[1];
  if (block) {
    const modules = JSON.parse(block) as { entry: string; js: string[]; css: string[] };
    for (const url of [modules.entry, ...modules.js]) js.add(buildPath(url));
    for (const url of modules.css) css.add(buildPath(url));
  }
  return { js: [...js], css: [...css] };
}

/**
 * `files` with every chunk they import statically (transitively) and those chunks' CSS, from the
 * manifest. Modules given by source path (`modules`, e.g. `src/views/shell/AuthenticatedShell.tsx`,
 * found as the server finds them: server/preload-hints.ts `manifestKeyOf`) are added with theirs.
 * @throws Error when a file or module is not in the manifest (a renamed module must fail the
 *   budget test, not silently drop out of it)
 */
export function withStaticImports(manifest: Manifest, files: Files, modules: readonly string[] = []): Files {
  const keyOfFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));
  const keys = new Set<string>();
  const visit = (key: string) => {
    if (keys.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`bundle-budget: ${key} is not in the build manifest`);
    keys.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  const js = new Set<string>();
  for (const file of files.js) {
    const key = keyOfFile.get(file);
    if (key) visit(key);
    else js.add(file); // a file the manifest does not describe (none expected): counted as it is
  }
  for (const module of modules) visit(manifestKey(manifest, module));
  for (const key of keys) js.add(manifest[key]!.file);
  const css = new Set([...files.css, ...[...keys].flatMap((key) => manifest[key]!.css ?? [])]);
  return { js: [...js], css: [...css] };
}

/** {@link manifestKeyOf} (the server's own resolution), failing when the module is not found. */
function manifestKey(manifest: Manifest, module: string): string {
  const key = manifestKeyOf(manifest, module);
  if (key === undefined) throw new Error(`bundle-budget: ${module} is not in the build manifest`);
  return key;
}

/** The union of two file sets. */
export function union(a: Files, b: Files): Files {
  return { js: [...new Set([...a.js, ...b.js])], css: [...new Set([...a.css, ...b.css])] };
}

/** One file's sizes in bytes: raw, gzip -9 (README's measure) and as the server sends it with `Accept-Encoding: br`. */
export interface FileSize {
  file: string;
  raw: number;
  gzip: number;
  served: number;
}

/** Sizes of `files` (relative to `distDir`), the served bytes fetched from `baseUrl`. */
export async function sizesOf(distDir: string, baseUrl: string, files: readonly string[]): Promise<FileSize[]> {
  const sizes: FileSize[] = [];
  for (const file of files) {
    const body = readFileSync(path.join(distDir, file));
    sizes.push({ file, raw: body.length, gzip: gzipSync(body, { level: 9 }).length, served: await wireBytes(`${baseUrl}/${file}`) });
  }
  return sizes.sort((a, b) => b.gzip - a.gzip);
}

/** Body bytes of a GET with `Accept-Encoding: br` as they arrive (fetch would decompress them). */
function wireBytes(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': 'br' } }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`bundle-budget: ${url} answered ${res.statusCode}`));
        let bytes = 0;
        res.on('data', (chunk: Buffer) => (bytes += chunk.length));
        res.on('end', () => resolve(bytes));
      })
      .on('error', reject);
  });
}

/** Sum of one measure, in KB (1 KB = 1 024 bytes, as README counts). */
export const totalKb = (sizes: readonly FileSize[], measure: 'raw' | 'gzip' | 'served') =>
  sizes.reduce((sum, size) => sum + size[measure], 0) / 1024;

/** A table of `sizes` with its totals, for the test's output. */
export function report(title: string, sizes: readonly FileSize[]): string {
  const kb = (bytes: number) => (bytes / 1024).toFixed(1).padStart(9);
  const rows = sizes.map((s) => `${s.file.padEnd(52)}${kb(s.raw)}${kb(s.gzip)}${kb(s.served)}`);
  const total = ['raw', 'gzip', 'served']
    .map((m) =>
      totalKb(sizes, m as 'raw')
        .toFixed(1)
        .padStart(9),
    )
    .join('');
  return [
    title,
    `${'file'.padEnd(52)}${'raw KB'.padStart(9)}${'gzip KB'.padStart(9)}${'br KB'.padStart(9)}`,
    ...rows,
    `${'total'.padEnd(52)}${total}`,
  ].join('\n');
}
