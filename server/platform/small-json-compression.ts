import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyInstance } from 'fastify';

/** Answers below this are sent as they are (as @fastify/compress's threshold in app.ts). */
export const MIN_COMPRESS_BYTES = 1024;
/**
 * Answers up to this many bytes are compressed in place, larger ones by @fastify/compress's streams.
 * Brotli at quality 4 takes ~0.1 ms for 12 KB on this project's machines, less than a stream
 * pipeline's own cost; 64 KiB bounds what one answer may hold the event loop for (~0.5 ms).
 */
export const MAX_IN_PLACE_BYTES = 64 * 1024;

/** Brotli at quality 4, as app.ts gives @fastify/compress (quality 11 costs ~50× more CPU). */
const BROTLI = { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } };

/**
 * Compresses the JSON answers of 1–64 KiB in the `onSend` hook, synchronously, before
 * @fastify/compress sees them (it leaves answers that already carry a `Content-Encoding`).
 * Why: @fastify/compress pipes every answer through streams (Readable.from, peek-stream,
 * duplexify, pump) and zlib's thread pool — on a 2 KB page of the sales list ~1.4 ms of latency and
 * ~6 % of the server's CPU under load for ~0.1 ms of actual compression (docs/performance.md "The
 * sales list", second round). Same negotiation as the plugin: `br` or `gzip` from
 * `Accept-Encoding` (none: sent as is), `x-no-compression` honoured, `Vary: Accept-Encoding` set.
 * Larger answers, streams and non-JSON bodies are left to the plugin.
 */
export function registerSmallJsonCompression(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (typeof payload !== 'string' || payload.length < MIN_COMPRESS_BYTES || payload.length > MAX_IN_PLACE_BYTES) return payload;
    if (request.headers['x-no-compression'] !== undefined || reply.hasHeader('content-encoding')) return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    if (!type.startsWith('application/json')) return payload;
    const encoding = negotiate(request.headers['accept-encoding'] ?? '', ['br', 'gzip']);
    if (encoding !== 'br' && encoding !== 'gzip') return payload;
    const body = encoding === 'br' ? brotliCompressSync(payload, BROTLI) : gzipSync(payload);
    const vary = String(reply.getHeader('vary') ?? '');
    if (!/(^|,)\s*accept-encoding\s*(,|$)/i.test(vary)) reply.header('vary', vary ? `${vary}, accept-encoding` : 'accept-encoding');
    reply.header('content-encoding', encoding).removeHeader('content-length');
    return body;
  });
}
