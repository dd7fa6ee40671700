import { Icons, type IconName, type IconPathsLoader } from '@blueprintjs/icons';

/**
 * Icon loading of the web app (performance, issue "Foundation": ≤ 130 KB of JS up front for
 * /auth/login). Blueprint's default loader fetches the paths of *every* 16 px icon (~100 KB gzip)
 * as soon as one `<Icon icon="…">` renders. This loader fetches only the icon that is asked for,
 * each in its own tiny chunk (Blueprint docs "Loading icons", custom loader for Vite).
 *
 * The list below is every icon name the app passes as a string: the literals in src/views, the
 * menu catalogue (src/schemas/menu-catalogue.ts), the module icons of the placeholders, the toast
 * severities (src/lib/blueprint-toaster.ts) and the notification types of the server's catalogue
 * (docs/decisions.md "Notifications and realtime": info-sign, tick-circle, warning-sign, error,
 * dollar, shopping-cart, new-person, lock).
 * tests/unit/lib/icons.test.ts fails when a literal or a catalogue icon is missing. An icon not
 * listed still renders: it falls back to Blueprint's loader (and warns in the console).
 */
/**
 * Loads the SVG paths of one icon at 16 or 20 px (the sizes Blueprint asks for), through the table
 * of src/lib/icon-paths.ts (its own chunk, fetched with the first icon). Unknown names fall back to
 * Blueprint's split-by-size loader (every icon of that size).
 */
export const loadIconPaths: IconPathsLoader = async (name: IconName, size) => (await import('./icon-paths')).loadIconPathsNow(name, size);

/** Starts fetching the icon table chunk (e.g. when a stored session will show the menu's icons). */
export function preloadIconTable(): void {
  import('./icon-paths').catch(() => {
    /* the first icon retries the import */
  });
}

/** Makes every `<Icon icon="name">` (and icon props) use {@link loadIconPaths}. Call once at start-up. */
export function installIconLoader(): void {
  Icons.setLoaderOptions({ loader: loadIconPaths });
}
