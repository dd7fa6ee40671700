/** machines/shared/on-demand: machine modules loaded once, machines built once per app, retries. */
import { describe, expect, it, vi } from 'vitest';
import { lazyModule, onDemand } from '../../../src/machines/shared/on-demand';

describe('lazyModule', () => {
  it('imports once and exposes the module once loaded', async () => {
    const importModule = vi.fn(async () => ({ answer: 42 }));
    const module = lazyModule(importModule);
    expect(module.loaded).toBeUndefined();
    const [a, b] = await Promise.all([module.load(), module.load()]);
    expect(a).toBe(b);
    expect(importModule).toHaveBeenCalledTimes(1);
    expect(module.loaded).toEqual({ answer: 42 });
  });

  it('tries again after a failed import', async () => {
    const importModule = vi
      .fn<() => Promise<{ ok: boolean }>>()
      .mockRejectedValueOnce(new Error('offline'))
      .mockResolvedValue({ ok: true });
    const module = lazyModule(importModule);
    await expect(module.load()).rejects.toThrow('offline');
    await expect(module.load()).resolves.toEqual({ ok: true });
    expect(importModule).toHaveBeenCalledTimes(2);
  });
});

describe('onDemand', () => {
  it('returns the same promise on every call and builds once', async () => {
    const build = vi.fn((m: { n: number }) => ({ machine: m.n }));
    const load = onDemand(
      lazyModule(async () => ({ n: 1 })),
      build,
    );
    const first = load();
    expect(load()).toBe(first);
    await expect(first).resolves.toEqual({ machine: 1 });
    expect(build).toHaveBeenCalledTimes(1);
    expect((first as Promise<unknown> & { status?: string }).status).toBe('fulfilled');
  });

  it('is already fulfilled (no suspense) when the module was loaded before', async () => {
    const module = lazyModule(async () => ({ n: 2 }));
    await module.load();
    const promise = onDemand(module, (m) => m.n * 10)() as Promise<number> & { status?: string; value?: number };
    expect(promise.status).toBe('fulfilled');
    expect(promise.value).toBe(20);
  });

  it('loads again after a failure', async () => {
    const importModule = vi.fn<() => Promise<{ n: number }>>().mockRejectedValueOnce(new Error('offline')).mockResolvedValue({ n: 3 });
    const load = onDemand(lazyModule(importModule), (m) => m.n);
    await expect(load()).rejects.toThrow('offline');
    await expect(load()).resolves.toBe(3);
  });
});
