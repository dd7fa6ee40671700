/**
 * Entry of the HTML of the pages the server draws (issue "Production grade", Lighthouse LCP;
 * docs/decisions.md "Skeleton first"): the authenticated routes (shell skeleton: top bar, the route's
 * title), /landing (the whole page) and the public map (its frame). The server announces the app's modules in `<script type="application/json" id="app-modules">` instead of
 * loading them with the HTML (server/preload-hints.ts): `{ entry, js, css }`, paths from the build
 * manifest. This script waits until the browser has painted that markup, then announces `js` and
 * `css` (modulepreload / preload) and imports `entry` (src/main.tsx's chunk), which draws the app
 * over it with the same boxes.
 *
 * Why after the paint: on a slow link the stylesheet and the skeleton then get the bandwidth first
 * (the page's frame shows after ~40 KB instead of ~250 KB), and the app's ~180 KB follow in one
 * wave as before. A tab opened in the background gets no animation frames: the timer starts the app
 * there after at most 200 ms (1 s in a throttled background tab) anyway.
 *
 * No imports: this chunk stays a few hundred bytes. A page without the JSON block (not expected:
 * the server writes both) does nothing.
 */
interface AppModules {
  entry: string;
  js: string[];
  css: string[];
}

const block = document.getElementById('app-modules');
if (block?.textContent) {
  const modules = JSON.parse(block.textContent) as AppModules;
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    for (const href of modules.js) document.head.append(hint('modulepreload', href));
    for (const href of modules.css) document.head.append(Object.assign(hint('preload', href), { as: 'style' }));
    void import(/* @vite-ignore */ modules.entry);
  };
  // requestAnimationFrame runs just before the first frame is painted; the timeout it sets runs after it.
  requestAnimationFrame(() => setTimeout(start, 0));
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
