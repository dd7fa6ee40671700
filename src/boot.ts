/**
 * Entry of the HTML of the pages the server draws (issue "Production grade", Lighthouse LCP;
 * docs/decisions.md "Skeleton first"): the authenticated routes (shell skeleton: top bar, the route's
 * title), /landing (the whole page) and the public map (its frame). The server announces the app's modules in `<script type="application/json" id="app-modules">` instead of
 * loading them with the HTML (server/preload-hints.ts): `{ entry, js, css }`, paths from the build
 * manifest. This script waits until the browser has painted that markup (its first contentful
 * paint, or an animation frame where that is not reported), then announces `js` and
 * `css` (modulepreload / preload) and imports `entry` (src/main.tsx's chunk), which draws the app
 * over it with the same boxes.
 *
 * Why after the paint: on a slow link the stylesheet and the skeleton then get the bandwidth first
 * (the page's frame shows after ~40 KB instead of ~250 KB), and the app's ~180 KB follow in one
 * wave as before. A tab opened in the background gets no animation frames: the timer starts the app
 * there after at most 200 ms (1 s in a throttled background tab) anyway.
 *
 * On "/" the block also carries Inicio's templates (`home`): with a stored session, Inicio is drawn
 * from it at once, before that paint (src/lib/session-first-paint.ts).
 *
 * Its one import has no dependencies: this chunk stays small. A page without the JSON block (not
 * expected: the server writes both) does nothing.
 */
import { drawHomeFromSession, type HomeTemplates } from './lib/session-first-paint';

interface AppModules {
  entry: string;
  js: string[];
  css: string[];
  home?: Partial<HomeTemplates>;
}

const block = document.getElementById('app-modules');
if (block?.textContent) {
  const modules = JSON.parse(block.textContent) as AppModules;
  const root = document.getElementById('root');
  if (modules.home && root) drawHomeFromSession(modules.home, () => localStorage, root);
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const href of modules.js) document.head.append(hint('modulepreload', href));
    for (const href of modules.css) document.head.append(Object.assign(hint('preload', href), { as: 'style' }));
    void import(/* @vite-ignore */ modules.entry);
  };
  // The browser reports the first contentful paint once it has been presented (Paint Timing). A
  // timeout set in an animation frame ran too early at times: the frame was not on screen yet, and
  // the app's chunks then counted as needed for that paint (/landing measured LCP 1.2 or 2.0 s by
  // turns). Browsers without paint entries fall back to that frame.
  const paints = globalThis.PerformanceObserver?.supportedEntryTypes?.includes('paint');
  if (paints) {
    const observer = new PerformanceObserver((list) => {
      if (list.getEntriesByName('first-contentful-paint').length === 0) return;
      observer.disconnect();
      start();
    });
    observer.observe({ type: 'paint', buffered: true });
  } else requestAnimationFrame(() => setTimeout(start, 0));
  setTimeout(start, 200);
}

/** `<link rel={rel} href={href} crossorigin>`, crossorigin as Vite's own module preloads (so the responses are reused). */
function hint(rel: string, href: string): HTMLLinkElement {
  const link = document.createElement('link');
  link.rel = rel;
  link.href = href;
  link.crossOrigin = '';
  return link;
}
