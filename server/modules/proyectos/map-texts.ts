import type { Kysely } from 'kysely';
import type { DB } from '../../db/database';

/**
 * The lot maps' JSON texts kept per subdivision revision (issue "API throughput"; docs/performance.md
 * "Maps: ETag and compressed answers kept"). A map is read from the database and serialised only
 * when its subdivision's revision (`subdivision_revisions`, bumped by triggers on every write that
 * changes a map, migration 0013) differs from the kept one; otherwise the request costs the
 * permission check and one primary-key read.
 *
 * The revision is read before the map: a write committed in between makes the kept text newer
 * than its revision (the next reader, seeing the new revision, builds it again), never older.
 * Concurrent readers of a missing text share one build. A build that throws (404: unknown or
 * unpublished subdivision) is not kept. At most `maxEntries` texts are kept (least recently used
 * go first), one per map kind and subdivision; a process keeps its own, the revision keeps them
 * consistent across processes.
 */
export type MapTexts = (db: Kysely<DB>, kind: 'staff' | 'public', subdivisionId: number, build: () => Promise<string>) => Promise<string>;

/** A store of map texts (one per server). @param maxEntries texts kept, default 32 (a 5 000-lot map is ~1.1 MB). */
export function createMapTexts(maxEntries = 32): MapTexts {
  const kept = new Map<string, { revision: number; text: Promise<string> }>();
  return async (db, kind, subdivisionId, build) => {
    const row = await db
      .selectFrom('subdivision_revisions')
      .select('revision')
      .where('subdivision_id', '=', subdivisionId)
      .executeTakeFirst();
    if (!row) return build(); // no such subdivision: the build answers 404
    const key = `${kind}:${subdivisionId}`;
    const entry = kept.get(key);
    if (entry?.revision === row.revision) {
      kept.delete(key); // most recently used last
      kept.set(key, entry);
      return entry.text;
    }
    const text = build();
    kept.delete(key);
    kept.set(key, { revision: row.revision, text });
    if (kept.size > maxEntries) kept.delete(kept.keys().next().value!);
    text.catch(() => {
      if (kept.get(key)?.text === text) kept.delete(key);
    });
    return text;
  };
}
