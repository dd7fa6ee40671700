import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { AppConfig } from './config';
import { MESSAGES } from './errors';
import { createPreloadedHtml } from './preload-hints';

/**
 * Serves the built web app (docs/architecture.md): files from
 * `distDir` then `publicDir` (so /logo.svg works before a build), and the SPA fallback: a GET for
 * HTML outside the server's own prefixes answers dist/index.html so client-side routes load. Every
 * other unknown request is the JSON 404 of docs/api.md.
 */

/** Prefixes the server owns; they never fall back to index.html. */
const SERVER_PREFIXES = ['/api', '/dev', '/broadcasting', '/app', '/apps', '/public'];

/** Page shown instead of the app when dist/index.html is missing. */
export const NOT_BUILT_HTML =
  '<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Parcela</title></head>' +
  '<body><h1>La aplicación web no está compilada</h1>' +
  '<p>Ejecute <code>npm run build</code> y vuelva a cargar la página (o use <code>npm start</code>).</p></body></html>';

function isServerPath(path: string): boolean {
  return SERVER_PREFIXES.some((prefix) => path === prefix || path.startsWith(`${prefix}/`));
}

/** True for a browser navigation the SPA should answer: GET/HEAD, wants HTML, not a server path. */
export function isSpaNavigation(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  const path = request.url.split('?')[0] ?? '/';
  return !isServerPath(path) && (request.headers.accept ?? '').includes('text/html');
}

/** True when the web app has been built into `distDir`. */
export function isWebAppBuilt(config: Pick<AppConfig, 'distDir'>): boolean {
  return existsSync(join(config.distDir, 'index.html'));
}

/** Cache policy: Vite fingerprints everything under assets/, so those never change; the rest revalidates. */
function setCacheHeaders(res: { setHeader(name: string, value: string): unknown }, filePath: string): void {
  res.setHeader('cache-control', /[/\\]assets[/\\]/.test(filePath) ? 'public, max-age=31536000, immutable' : 'no-cache');
  // The same URL answers br, gzip or plain bytes by Accept-Encoding: caches must key on it.
  if (/\.(br|gz)$/.test(filePath)) res.setHeader('vary', 'accept-encoding');
}

/**
 * Registers static serving, the SPA fallback and the JSON 404 on `app`.
 *
 * The build (`distDir`) is served with `preCompressed`: the build writes `.br` and `.gz` beside each
 * text asset (vite.config.ts `precompress`) and browsers that accept them get those bytes as they
 * are (`Vary: Accept-Encoding`); files without a variant (images, files under 1 KiB) are sent as
 * they are. `publicDir` is a second instance serving its files by name (so /logo.svg works before a
 * build): @fastify/static 9 with several roots and `preCompressed` answers 404 for a file that has
 * no compressed variant, so the two roots are not given to one instance (docs/decisions.md
 * "Compression").
 */
export async function registerWebApp(app: FastifyInstance, config: Pick<AppConfig, 'distDir' | 'publicDir'>): Promise<void> {
  // Registered even when dist/ is missing: a build made after start is then served.
  await app.register(fastifyStatic, {
    root: config.distDir,
    serveDotFiles: false,
    preCompressed: true,
    cacheControl: false,
    setHeaders: setCacheHeaders,
  });
  if (existsSync(config.publicDir) && config.publicDir !== config.distDir) {
    // wildcard: false registers one route per file found now; those routes win over dist's wildcard.
    await app.register(fastifyStatic, {
      root: config.publicDir,
      serveDotFiles: false,
      wildcard: false,
      decorateReply: false,
      cacheControl: false,
      setHeaders: setCacheHeaders,
    });
  }

  const preloadedHtml = createPreloadedHtml(config.distDir);
  const spaFallback = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isSpaNavigation(request)) return reply.status(404).send({ message: MESSAGES.notFound });
    if (!isWebAppBuilt(config)) return reply.status(503).type('text/html; charset=utf-8').send(NOT_BUILT_HTML);
    // Pages with their own chunks: index.html announcing them (server/preload-hints.ts).
    const html = preloadedHtml(request.url.split('?')[0] ?? '/');
    if (html !== null) return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
    return reply.sendFile('index.html', config.distDir);
  };
  app.setNotFoundHandler(spaFallback);
  // "/" (the staff's home) would be the static root's index.html; it is a client-side route like the
  // others, with its preload hints.
  app.get('/', spaFallback);
}
