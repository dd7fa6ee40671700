/** server/platform/lru-map.ts: the bound, the order of use, and every leaving entry reported. */
import { describe, expect, it } from 'vitest';
import { LruMap } from '../../server/platform/lru-map';

describe('LruMap', () => {
  it('drops the least recently used beyond its bound, reads counting as use', () => {
    const dropped: string[] = [];
    const lru = new LruMap<string, number>(2, (key) => dropped.push(key));
    lru.set('a', 1);
    lru.set('b', 2);
    expect(lru.get('a')).toBe(1); // a is now newer than b
    lru.set('c', 3);
    expect(dropped).toEqual(['b']);
    expect(lru.get('b')).toBeUndefined();
    lru.set('a', 10); // replaced: the old value leaves
    expect(dropped).toEqual(['b', 'a']);
    lru.dropOldest();
    expect(dropped).toEqual(['b', 'a', 'c']);
    expect(lru.size).toBe(1);
    expect(lru.delete('zzz')).toBe(false);
    lru.clear();
    expect(dropped).toEqual(['b', 'a', 'c', 'a']);
    expect(lru.size).toBe(0);
  });
});
