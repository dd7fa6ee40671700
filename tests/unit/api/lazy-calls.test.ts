/** src/api/lazy-calls.ts: an api module imported with its first call (the login page's entry carries no zod). */
import { describe, expect, it, vi } from 'vitest';
import { lazyCalls } from '../../../src/api/lazy-calls';

interface Api {
  one: (n: number) => Promise<number>;
  two: () => Promise<string>;
}

describe('lazyCalls', () => {
  it('loads the module once, on the first call or preload, and calls its functions', async () => {
    const api: Api = { one: vi.fn(async (n: number) => n + 1), two: vi.fn(async () => 'dos') };
    const load = vi.fn(async () => api);
    const { calls, preload } = lazyCalls<Api>(load, { one: true, two: true });
    expect(load).not.toHaveBeenCalled();
    preload();
    expect(await calls.one(1)).toBe(2);
    expect(await calls.two()).toBe('dos');
    expect(load).toHaveBeenCalledTimes(1);
    expect(api.one).toHaveBeenCalledWith(1);
  });

  it('a failed import fails the call and is tried again by the next one', async () => {
    const api: Api = { one: async (n) => n, two: async () => 'x' };
    const load = vi.fn<() => Promise<Api>>().mockRejectedValueOnce(new TypeError('Failed to fetch')).mockResolvedValue(api);
    const { calls, preload } = lazyCalls<Api>(load, { one: true, two: true });
    await expect(calls.one(3)).rejects.toThrow('Failed to fetch');
    preload();
    expect(await calls.one(3)).toBe(3);
    expect(load).toHaveBeenCalledTimes(2);
  });
});
