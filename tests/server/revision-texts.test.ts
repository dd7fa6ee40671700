/**
 * Answers kept per revision (server/platform/revision-texts.ts): built once per revision, shared by
 * concurrent readers, a failed build not kept, nothing kept without a revision, bounded by count
 * and size, kept with their ETag. Which revisions the routes key on, and that every write shows in
 * the next answer, is tested through the app (tests/server/projects.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { createRevisionTexts } from '../../server/platform/revision-texts';

describe('revision texts', () => {
  it('builds once per revision, shares a build in flight and drops a failed one', async () => {
    const texts = createRevisionTexts();
    let builds = 0;
    const build = async () => `map ${++builds}`;
    expect((await Promise.all([texts('staff:1', 7, build), texts('staff:1', 7, build)])).map((t) => t.json)).toEqual(['map 1', 'map 1']);
    expect((await texts('public:1', 7, build)).json).toBe('map 2'); // each key its own
    expect((await texts('staff:1', 8, build)).json).toBe('map 3');
    const again = await texts('staff:1', 8, build);
    expect(again.json).toBe('map 3');
    expect(again.etag).toMatch(/^W\/"[\w-]{27}"$/);
    expect((await texts('list', '1:1,2:5', build)).json).toBe('map 4'); // text revisions too
    expect((await texts('list', '1:1,2:5', build)).json).toBe('map 4');
    expect((await texts('list', '1:1,2:6', build)).json).toBe('map 5');
    const failing = createRevisionTexts();
    await expect(failing('staff:1', 1, () => Promise.reject(new Error('404')))).rejects.toThrow('404');
    expect((await failing('staff:1', 1, build)).json).toBe('map 6');
    // Without a revision (an unknown subdivision) nothing is kept.
    expect((await texts('staff:987654', null, build)).json).toBe('map 7');
    expect((await texts('staff:987654', null, build)).json).toBe('map 8');
  });

  it('keeps at most maxEntries texts and maxBytes of text', async () => {
    let builds = 0;
    const counted = createRevisionTexts({ maxEntries: 1 });
    const build = async () => `x${++builds}`;
    await counted('a', 1, build);
    await counted('b', 1, build);
    expect((await counted('a', 1, build)).json).toBe('x3'); // evicted, built again
    const sized = createRevisionTexts({ maxBytes: 10 });
    const big = async () => 'y'.repeat(11 + builds++);
    const first = await sized('a', 1, big);
    expect((await sized('a', 1, big)).json).not.toBe(first.json); // over the bound: not kept
  });

  it('keeps nothing with maxEntries 0 (ANSWER_CACHE=off)', async () => {
    const off = createRevisionTexts({ maxEntries: 0 });
    let builds = 0;
    const build = async () => `z${++builds}`;
    expect((await off('a', 1, build)).json).toBe('z1');
    expect((await off('a', 1, build)).json).toBe('z2');
  });
});
