/**
 * The map texts kept per subdivision revision (server/modules/proyectos/map-texts.ts): built once per
 * revision, shared by concurrent readers, a failed build not kept, bounded by count and size, kept
 * with their ETag.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMapTexts } from '../../server/modules/proyectos/map-texts';
import { createSubdivision } from '../../server/testing/fixtures';
import { createTestDatabase, dialects, type TestDatabase } from './harness';

describe.each(dialects)('map texts (%s)', (dialect) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(() => database.destroy());

  it('builds once per revision, shares a build in flight and drops a failed one', async () => {
    const texts = createMapTexts();
    const { id } = await createSubdivision(database.db);
    let builds = 0;
    const build = async () => `map ${++builds}`;
    expect(
      (await Promise.all([texts(database.db, 'staff', id, build), texts(database.db, 'staff', id, build)])).map((t) => t.json),
    ).toEqual(['map 1', 'map 1']);
    expect((await texts(database.db, 'public', id, build)).json).toBe('map 2'); // each kind its own
    await database.db.updateTable('subdivisions').set({ name: 'Otra' }).where('id', '=', id).execute();
    expect((await texts(database.db, 'staff', id, build)).json).toBe('map 3');
    const again = await texts(database.db, 'staff', id, build);
    expect(again.json).toBe('map 3');
    expect(again.etag).toMatch(/^W\/"[\w-]{27}"$/);
    const failing = createMapTexts();
    await expect(failing(database.db, 'staff', id, () => Promise.reject(new Error('404')))).rejects.toThrow('404');
    expect((await failing(database.db, 'staff', id, build)).json).toBe('map 4');
    // An unknown subdivision is never kept.
    expect((await texts(database.db, 'staff', 987_654, build)).json).toBe('map 5');
    expect((await texts(database.db, 'staff', 987_654, build)).json).toBe('map 6');
  });

  it('keeps at most maxEntries texts and maxBytes of text', async () => {
    const ids = [(await createSubdivision(database.db)).id, (await createSubdivision(database.db)).id];
    let builds = 0;
    const counted = createMapTexts({ maxEntries: 1 });
    const build = async () => `x${++builds}`;
    await counted(database.db, 'staff', ids[0]!, build);
    await counted(database.db, 'staff', ids[1]!, build);
    expect((await counted(database.db, 'staff', ids[0]!, build)).json).toBe('x3'); // evicted, built again
    const sized = createMapTexts({ maxBytes: 10 });
    const big = async () => 'y'.repeat(11 + builds++);
    const first = await sized(database.db, 'staff', ids[0]!, big);
    expect((await sized(database.db, 'staff', ids[0]!, big)).json).not.toBe(first.json); // over the bound: not kept
  });
});
