import type { SnapshotFrom } from 'xstate';
import type { LayoutMachine } from './layout.machine';

/**
 * Selectors of the layout machine (issue "Shell"; docs/product.md §2 "Layout", docs/product.md §2),
 * read by the layout, the top bar and the side menu.
 */
export type LayoutSnapshot = SnapshotFrom<LayoutMachine>;

/** Which menu is in use: static (desktop, Fijo), overlay (desktop, Sobreponer) or mobile (≤ 991 px). */
export type LayoutMode = 'static' | 'overlay' | 'mobile';

export const selectLayoutMode = (s: LayoutSnapshot): LayoutMode =>
  s.matches('mobile') ? 'mobile' : s.matches('overlay') ? 'overlay' : 'static';

/** The menu is shown (static restored, or overlay/mobile slid in). */
export const selectMenuOpen = (s: LayoutSnapshot): boolean =>
  s.matches({ static: 'open' }) || s.matches({ overlay: 'open' }) || s.matches({ mobile: 'open' });

/** The overlay or mobile menu covers the page (the mask is shown; a click on it closes the menu). */
export const selectMaskShown = (s: LayoutSnapshot): boolean => s.matches({ overlay: 'open' }) || s.matches({ mobile: 'open' });

/** The profile sidebar is open. */
export const selectProfileOpen = (s: LayoutSnapshot): boolean => s.context.profileOpen;

/** Keys of the open menu groups. */
export const selectOpenGroups = (s: LayoutSnapshot): readonly string[] => s.context.openGroups;

/**
 * The classes of the layout wrapper, in Sakai's words (docs/product.md §2): `layout-static` |
 * `layout-overlay` | `layout-mobile`, plus `layout-static-inactive` (static collapsed),
 * `layout-overlay-active` or `layout-mobile-active` (sliding menu shown).
 */
export function selectLayoutClasses(s: LayoutSnapshot): string {
  const mode = selectLayoutMode(s);
  const open = selectMenuOpen(s);
  const classes = ['layout-wrapper', `layout-${mode}`];
  if (mode === 'static' && !open) classes.push('layout-static-inactive');
  if (mode !== 'static' && open) classes.push(`layout-${mode}-active`);
  return classes.join(' ');
}
