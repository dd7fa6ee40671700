import type { Kysely } from 'kysely';
import type { DB } from '../../db/database';
import { jsonText, type JsonText } from '../../platform/cached-json';
import { LruMap } from '../../platform/lru-map';

/**
 * The lot maps' JSON texts kept per subdivision revision (issue "API throughput"; docs/performance.md
 * "Maps: ETag and compressed answers kept"). A map is read from the database and serialised only
 * when its subdivision's revision (`subdivision_revisions`, bumped by triggers on every write that
 * changes a map, migration 0013) differs from the kept one; otherwise the request costs the
 * permission check and one primary-key read. The text is kept with its ETag (hashed once).
 *
 * The revision is read before the map: a write committed in between makes the kept text newer
 * than its revision (the next reader, seeing the new revision, builds it again), never older.
 * Concurrent readers of a missing text share one build. A build that throws (404: unknown or
 * unpublished subdivision) is not kept. One text per map kind and subdivision, within the bounds
 * of {@link createMapTexts}; a process keeps its own, the revision keeps them
 * consistent across processes.
 */
export type MapTexts = (db: Kysely<DB>, kind: 'staff' | 'public', subdivisionId: number, build: () => Promise<string>) => Promise<JsonText>;

/**
 * A store of map texts (one per server). Bounded twice: at most `maxEntries` texts and `maxBytes`
 * UTF-16 code units of kept text (least recently used dropped first; a 1 200-lot map is ~0.3 M, a
 * 20 000-lot one ~4.5 M).
 */
export function createMapTexts({ maxEntries = 32, maxBytes = 32 * 1024 * 1024 } = {}): MapTexts {
  interface Kept {
    revision: number;
    text: Promise<JsonText>;
    size: number;
  }
  let total = 0;
  const kept = new LruMap<string, Kept>(maxEntries, (_, entry) => (total -= entry.size));
  return async (db, kind, subdivisionId, build) => {
    const row = await db
      .selectFrom('subdivision_revisions')
      .select('revision')
      .where('subdivision_id', '=', subdivisionId)
      .executeTakeFirst();
    if (!row) return jsonText(await build()); // no such subdivision: the build answers 404
    const key = `${kind}:${subdivisionId}`;
    const entry = kept.get(key);
    if (entry?.revision === row.revision) return entry.text;
    const text = build().then(jsonText);
    const created: Kept = { revision: row.revision, text, size: 0 };
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
