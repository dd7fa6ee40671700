import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterNextPaint } from '../../../src/lib/after-paint';

/** src/lib/after-paint.ts: after the next frame, or after the fallback timeout in a tab that gets no frames. */
describe('afterNextPaint', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
  });

  it('resolves after two animation frames and a task, not before', async () => {
    vi.useFakeTimers();
    const frames: FrameRequestCallback[] = [];
    vi.stubGlobal('requestAnimationFrame', (cb: FrameRequestCallback) => frames.push(cb));
    let done = false;
    void afterNextPaint(10_000).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(false);
    frames.shift()!(0); // the first frame is about to be painted
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(false);
    frames.shift()!(16); // the next one begins: the first is on screen
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(done).toBe(true);
  });

  it('resolves after the fallback when no frame comes (a background tab)', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('requestAnimationFrame', () => 0);
    let done = false;
    void afterNextPaint(200).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(199);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(done).toBe(true);
  });
});
