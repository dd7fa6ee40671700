import type { FastifyReply, FastifyRequest } from 'fastify';
import { createJsonCache, jsonText, serializedText, type JsonText } from './cached-json';
import { LruMap } from './lru-map';

/**
 * JSON answers kept per revision of the data they show (issue "API throughput"; docs/performance.md
 * "Answers kept per revision"): the lot maps, a subdivision's lot pages and the subdivisions list.
 * A text is built (read from the database and serialised) only when the caller's `revision` differs
 * from the kept one; otherwise the request costs the permission check and the read of the revision.
 * The text is kept with its ETag (hashed once).
 *
 * Callers read the revision *before* building: a write committed in between makes the kept text
 * newer than its revision (the next reader, seeing the new revision, builds it again), never older.
 * Concurrent readers of a missing text share one build. A build that throws (e.g. a 404) is not
 * kept; a `null` revision (nothing to key on, e.g. an unknown subdivision) builds without keeping.
 * A process keeps its own texts; the revisions, kept by the database, keep them consistent across
 * processes.
 */
export type RevisionTexts = (key: string, revision: string | number | null, build: () => Promise<string>) => Promise<JsonText>;

/**
 * A store of texts (one per use). Bounded twice: at most `maxEntries` texts and `maxBytes` UTF-16
 * code units of kept text (least recently used dropped first; a 1 200-lot map is ~0.3 M, a
 * 20 000-lot one ~4.5 M, a page of 50 lots ~27 K). `maxEntries: 0` keeps nothing (ANSWER_CACHE=off):
 * every answer is built.
 */
export function createRevisionTexts({ maxEntries = 32, maxBytes = 32 * 1024 * 1024 } = {}): RevisionTexts {
  interface Kept {
    revision: string | number;
    text: Promise<JsonText>;
    size: number;
  }
  let total = 0;
  const kept = new LruMap<string, Kept>(maxEntries, (_, entry) => (total -= entry.size));
  return async (key, revision, build) => {
    if (revision === null) return jsonText(await build());
    const entry = kept.get(key);
    if (entry?.revision === revision) return entry.text;
    const text = build().then(jsonText);
    const created: Kept = { revision, text, size: 0 };
    kept.set(key, created);
    text.then(
      ({ json }) => {
        if (kept.get(key) !== created) return;
        created.size = json.length;
        total += json.length;
        while (total > maxBytes) kept.dropOldest();
      },
      () => {
        if (kept.get(key) === created) kept.delete(key);
      },
    );
    return text;
  };
}

/**
 * Sends one page of a list kept per revision: `name` (e.g. `lots:42`) and the parsed `query`
 * (defaults applied; keys sorted) key the text, `list` reads the page when the revision changed,
 * the route's own serializer writes it ({@link serializedText}: outside production it also checks
 * the page against the zod schema), and it goes out with an ETag and its compressed bytes kept
 * (./cached-json.ts). Pages need a session: `Cache-Control: private`.
 */
export type KeptPageSender = (
  request: FastifyRequest,
  reply: FastifyReply,
  page: { name: string; query: object; revision: string | number },
  list: () => Promise<unknown>,
) => Promise<FastifyReply>;

/**
 * A sender of kept list pages (one per route module): up to 512 pages and 16 MiB of text, and their
 * compressed bytes; `keep: false` (ANSWER_CACHE=off) builds every page.
 */
export function createKeptPages({ keep }: { keep: boolean }): KeptPageSender {
  const texts = createRevisionTexts({ maxEntries: keep ? 512 : 0, maxBytes: 16 * 1024 * 1024 });
  const send = createJsonCache({ maxEntries: 512 });
  return async (request, reply, { name, query, revision }, list) => {
    const key = `${name}?${JSON.stringify(Object.entries(query).sort(([a], [b]) => (a < b ? -1 : 1)))}`;
    const text = await texts(key, revision, async () => serializedText(reply, await list()));
    return send(request, reply, text, 'private');
  };
}
