import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { negotiate } from '@fastify/accept-negotiator';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LruMap } from './lru-map';

/**
 * Large, rarely changing JSON answers (the lot maps: ~270 KB for 1 200 lots) sent with a validator
 * and their compressed bytes reused (issue "API throughput"; docs/performance.md "Maps: ETag and
 * compressed answers kept"):
 * - a weak ETag from the SHA-1 of the JSON text: content-addressed, so it changes whenever any byte
 *   of the answer does — no version to bump on each of the many writes that change a map;
 * - `If-None-Match` with that ETag → 304 and no body (the browser reuses its copy);
 * - Brotli (quality 5) or gzip bytes of the answer, by `Accept-Encoding`, made once off the event
 *   loop (zlib's thread pool) and kept in a small LRU keyed by ETag and encoding, so N readers of
 *   the same map cost one compression instead of N (@fastify/compress then leaves the answer alone,
 *   as it already has a Content-Encoding).
 * The JSON text and its ETag come from the caller ({@link jsonText}; the maps and some lists keep
 * both per revision: ./revision-texts.ts).
 */

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Answers below this are sent as they are (as @fastify/compress's threshold). */
const MIN_COMPRESS_BYTES = 1024;

/** Options of {@link createJsonCache}. */
export interface JsonCacheOptions {
  /** Compressed answers kept (most recently used); default 64. */
  maxEntries?: number;
  /** Answers larger than this (bytes of JSON) are compressed but not kept; default 16 MiB. */
  maxCachedBytes?: number;
}

/** A JSON answer's text with its weak ETag (the SHA-1 of the text). */
export interface JsonText {
  json: string;
  etag: string;
}

/** `json` with its ETag, computed once: callers that keep the text keep both (the maps, per revision). */
export function jsonText(json: string): JsonText {
  return { json, etag: `W/"${createHash('sha1').update(json).digest('base64url')}"` };
}

/**
 * `payload` as the route's own serializer writes it (server/serializer.ts: fast-json-stringify
 * from the response schema; outside production it also checks the payload against the zod schema).
 * @throws Error when the serializer gives something other than text (ours never does).
 */
export function serializedText(reply: FastifyReply, payload: unknown): string {
  const text = reply.serialize(payload);
  if (typeof text !== 'string') throw new Error('The route serializer did not give text');
  return text;
}

/** Sends JSON text as described above. `scope`: `private` for answers that need a session, `public` otherwise. */
export type CachedJsonSender = (
  request: FastifyRequest,
  reply: FastifyReply,
  text: JsonText,
  scope: 'private' | 'public',
) => Promise<FastifyReply>;

/** A sender with its own LRU of compressed answers (one per server). */
export function createJsonCache({ maxEntries = 64, maxCachedBytes = 16 * 1024 * 1024 }: JsonCacheOptions = {}): CachedJsonSender {
  const cache = new LruMap<string, Buffer>(maxEntries);

  const compressed = async (etag: string, encoding: 'br' | 'gzip', json: string): Promise<Buffer> => {
    const key = `${encoding} ${etag}`;
    const hit = cache.get(key);
    if (hit) return hit;
    const body = Buffer.from(json);
    const bytes =
      encoding === 'br'
        ? await brotli(body, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5, [zlibConstants.BROTLI_PARAM_SIZE_HINT]: body.length } })
        : await gzipAsync(body);
    if (body.length <= maxCachedBytes) cache.set(key, bytes);
    return bytes;
  };

  return async (request, reply, { json, etag }, scope) => {
    reply.header('etag', etag).header('cache-control', `${scope}, no-cache`).header('vary', 'accept-encoding');
    if (matches(request.headers['if-none-match'], etag)) return reply.code(304).send();
    reply.type('application/json; charset=utf-8');
    const encoding = json.length >= MIN_COMPRESS_BYTES ? negotiate(request.headers['accept-encoding'] ?? '', ['br', 'gzip']) : null;
    if (encoding !== 'br' && encoding !== 'gzip') return reply.send(json);
    return reply.header('content-encoding', encoding).send(await compressed(etag, encoding, json));
  };
}

/** True when an `If-None-Match` header names `etag` (weak comparison, RFC 9110 §13.1.2), or is `*`. */
function matches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}
