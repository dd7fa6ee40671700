import type { StyleSettings } from '../schemas/session';
import { themeVariables } from './theme';

/**
 * Applies the theme to the page (issue "Shell"; docs/product.md §4 "dark is applied through an app-dark class
 * on the document root … a view transition is used when supported"; docs/product.md §2). The CSS variables of
 * {@link themeVariables} go on <html>; `app-dark` on <html> drives the app's own dark styles and
 * Blueprint's `bp6-dark` on <body> its components (portals included). The implementation of the
 * theme machine's `apply` action.
 */

/** Class on <html> in dark mode (docs/product.md §4). */
export const APP_DARK_CLASS = 'app-dark';
/** Blueprint's dark theme class, on <body> so overlays in portals follow it. */
export const BLUEPRINT_DARK_CLASS = 'bp6-dark';

/**
 * Sets the variables and the dark classes. A change between light and dark runs inside
 * `document.startViewTransition` when the browser has it; anything else applies at once.
 * @param doc the document (injectable for tests).
 */
export function applyThemeToDocument(styles: StyleSettings, doc: Document = document): void {
  const root = doc.documentElement;
  const update = () => {
    for (const [name, value] of Object.entries(themeVariables(styles))) root.style.setProperty(name, value);
    root.classList.toggle(APP_DARK_CLASS, styles.darkTheme);
    doc.body?.classList.toggle(BLUEPRINT_DARK_CLASS, styles.darkTheme);
  };
  const darkChanges = root.classList.contains(APP_DARK_CLASS) !== styles.darkTheme;
  // Browsers without view transitions (and jsdom) lack the method although the DOM types declare it.
  if (darkChanges && typeof doc.startViewTransition === 'function') {
    doc.startViewTransition(update);
  } else {
    update();
  }
}
