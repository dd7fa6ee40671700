/**
 * Resolves after the browser has painted its next frame and begun the one after (the first frame's
 * pixels reach the screen a little after its main-thread work): issue "Production grade", content
 * before chrome on the staff's home. `requestAnimationFrame` runs just before a frame is painted; a
 * tab in the background gets no frames, so a plain timeout of `fallbackMs` (default 200 ms; browsers
 * stretch it to ≥ 1 s in background tabs) resolves anyway. Never rejects. src/boot.ts does the same
 * before loading the app (it has no imports, to stay tiny).
 */
export function afterNextPaint(fallbackMs = 200): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)));
    setTimeout(resolve, fallbackMs);
  });
}
