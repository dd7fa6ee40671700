import { useEffect, useRef, type RefObject } from 'react';
import { Classes } from '@blueprintjs/core';
import { useLocation } from 'wouter';
import { focusIsLost } from '../shared/focus-return';
import { reachedByNavigation } from '../router/navigation-record';

/**
 * Focus after a client-side navigation (docs/decisions.md "Keyboard and focus"; WCAG 2.4.3): the
 * new page's heading takes the focus — its `<h1>`, or else the first heading in `<main>` — made
 * focusable with tabIndex=-1, so a screen reader announces the page and the next Tab starts at the
 * top of its content. Not on the first load (the browser's own start is kept); the shell mounting
 * after a login is a navigation (from the login page), the app's first render is not.
 */

/** How long the hook waits for a screen loaded on demand to draw its heading. */
const WAIT_FOR_HEADING_MS = 10_000;

/** The heading of the page in `main`: its h1, else its first heading. */
function pageHeading(main: HTMLElement): HTMLElement | null {
  return main.querySelector<HTMLElement>('h1') ?? main.querySelector<HTMLElement>('h2, h3, h4, h5, h6');
}

/**
 * Whether the focus is somewhere the new page put it on purpose: in an open overlay (a dialog or
 * drawer opened meanwhile), or on a control of the page itself (a field it focuses when it opens).
 */
function focusTakenByThePage(main: HTMLElement): boolean {
  const active = document.activeElement;
  if (!active) return false;
  if (active.closest(`.${Classes.OVERLAY_OPEN}`)) return true;
  return main.contains(active) && active !== main && !/^H[1-6]$/.test(active.tagName);
}

/**
 * Moves focus to the page's heading in `main` whenever the path changes after the first render.
 * The screen may still be loading (its code or its data): the heading is focused as soon as it
 * appears, and again if a loading heading is replaced by the page's own while focus sits on it.
 * The first key press or pointer press of the user ends the wait; focus that a dialog or the page
 * itself took is left alone.
 * @param main the layout's `<main>`.
 */
export function useFocusHeadingOnNavigation(main: RefObject<HTMLElement | null>): void {
  const [path] = useLocation();
  // The shell mounted by a navigation (the login page before it): its first page is a new page too.
  const firstPath = useRef(reachedByNavigation(path) ? '\0' : path);
  useEffect(() => {
    const root = main.current;
    if (!root || path === firstPath.current) return;
    firstPath.current = '\0'; // every later change of path is a navigation, back to the first path included
    let focused: HTMLElement | null = null;
    const attempt = () => {
      const heading = pageHeading(root);
      if (!heading || heading === document.activeElement || focusTakenByThePage(root)) return;
      // The first time: wherever focus was (the link that navigated, the menu); later only to
      // replace a heading that went away with the focus on it.
      if (focused && !focusIsLost()) return;
      if (!heading.hasAttribute('tabindex')) heading.tabIndex = -1;
      heading.focus();
      focused = heading;
    };
    const observer = new MutationObserver(attempt);
    const stop = () => {
      observer.disconnect();
      clearTimeout(timer);
      document.removeEventListener('keydown', stop, true);
      document.removeEventListener('pointerdown', stop, true);
    };
    observer.observe(root, { childList: true, subtree: true });
    const timer = setTimeout(stop, WAIT_FOR_HEADING_MS);
    document.addEventListener('keydown', stop, true);
    document.addEventListener('pointerdown', stop, true);
    attempt();
    return stop;
  }, [main, path]);
}
