import { assign, setup } from 'xstate';

/**
 * The `layout` machine (issue "Shell"; docs/product.md §2 "Layout", §4; docs/product.md §2). It
 * replaces the original's pile of booleans: the menu is in exactly one of
 *   static.open | static.closed   (desktop, menu mode Fijo: the toggle collapses/restores it)
 *   overlay.open | overlay.closed (desktop, menu mode Sobreponer: slides over the content)
 *   mobile.open | mobile.closed   (viewport ≤ 991 px, whatever the menu mode)
 * Outside clicks and choosing a link close the overlay and mobile menus (never the static one).
 * Context keeps only what no state can say: the preferred menu mode and the viewport width, plus
 * the keys of the menu groups the user opened (a group is also open while it holds the active item).
 */

/** Desktop breakpoint (docs/product.md §9): widths above it are desktop. */
export const DESKTOP_BREAKPOINT = 991;

export type MenuMode = 'static' | 'overlay';

export interface LayoutContext {
  /** Preferred menu mode (theme configurator "Fijo" / "Sobreponer"). */
  menuMode: MenuMode;
  /** Viewport width in CSS px. */
  width: number;
  /** Keys (tree paths such as "1-2") of the open menu groups. */
  openGroups: string[];
  /** Keys of the groups holding the active link (the current route), outermost first. */
  activeGroups: string[];
  /** The profile sidebar (docs/product.md §2 layout: a right-hand drawer opened from the top bar's user button). */
  profileOpen: boolean;
}

export interface LayoutInput {
  menuMode?: MenuMode;
  width: number;
}

export type LayoutEvent =
  | { type: 'menu.toggle' }
  | { type: 'layout.resized'; width: number }
  | { type: 'layout.menuModeChanged'; menuMode: MenuMode }
  | { type: 'layout.outsideClicked' }
  | { type: 'menu.linkChosen' }
  | { type: 'menu.groupToggled'; key: string }
  | { type: 'menu.activeGroupsChanged'; keys: string[] }
  | { type: 'profile.opened' }
  | { type: 'profile.closed' };

const isDesktopWidth = (width: number) => width > DESKTOP_BREAKPOINT;

/** A group's key and the keys of the groups around it ("1-2-3" → "1-2", "1-2-3"; the first part is the section). */
function groupChain(key: string): string[] {
  const parts = key.split('-');
  const keys: string[] = [];
  for (let n = 2; n <= parts.length; n++) keys.push(parts.slice(0, n).join('-'));
  return keys;
}

/** Closed menus of overlay and mobile share this shape. */
const slidingMenu = {
  initial: 'closed' as const,
  states: {
    closed: { on: { 'menu.toggle': 'open' } },
    open: {
      on: {
        'menu.toggle': 'closed',
        'layout.outsideClicked': 'closed',
        'menu.linkChosen': 'closed',
      },
    },
  },
};

export const layoutMachine = setup({
  types: {
    context: {} as LayoutContext,
    events: {} as LayoutEvent,
    input: {} as LayoutInput,
  },
  guards: {
    isMobileWidth: ({ context }) => !isDesktopWidth(context.width),
    isOverlayMode: ({ context }) => context.menuMode === 'overlay',
    /** A resize that crosses the breakpoint (either way) changes the mode; others keep the state. */
    crossesBreakpoint: ({ context, event }) =>
      event.type === 'layout.resized' && isDesktopWidth(context.width) !== isDesktopWidth(event.width),
  },
  actions: {
    recordWidth: assign({ width: ({ event }) => (event.type === 'layout.resized' ? event.width : 0) }),
    recordMenuMode: assign({
      menuMode: ({ context, event }) => (event.type === 'layout.menuModeChanged' ? event.menuMode : context.menuMode),
    }),
    /**
     * docs/product.md §2 (as the original Sakai menu): closing a group closes it and the groups inside it;
     * opening one leaves open only it, the groups around it and the groups holding the active link.
     */
    toggleGroup: assign({
      openGroups: ({ context, event }) => {
        if (event.type !== 'menu.groupToggled') return context.openGroups;
        if (context.openGroups.includes(event.key))
          return context.openGroups.filter((k) => k !== event.key && !k.startsWith(`${event.key}-`));
        return [...new Set([...context.activeGroups, ...groupChain(event.key)])];
      },
    }),
    /** Navigating opens exactly the groups holding the new active link (none for a top-level link). */
    openActiveGroups: assign(({ event }) => {
      if (event.type !== 'menu.activeGroupsChanged') return {};
      return { openGroups: [...event.keys], activeGroups: [...event.keys] };
    }),
  },
}).createMachine({
  id: 'layout',
  context: ({ input }) => ({
    menuMode: input.menuMode ?? 'static',
    width: input.width,
    openGroups: [],
    activeGroups: [],
    profileOpen: false,
  }),
  initial: 'deciding',
  on: {
    'profile.opened': { actions: assign({ profileOpen: true }) },
    'profile.closed': { actions: assign({ profileOpen: false }) },
    'layout.resized': [{ guard: 'crossesBreakpoint', target: '.deciding', actions: 'recordWidth' }, { actions: 'recordWidth' }],
    // On a phone the menu mode only takes effect once the viewport is desktop-wide again.
    'layout.menuModeChanged': [
      { guard: 'isMobileWidth', actions: 'recordMenuMode' },
      { target: '.deciding', actions: 'recordMenuMode' },
    ],
    'menu.groupToggled': { actions: 'toggleGroup' },
    'menu.activeGroupsChanged': { actions: 'openActiveGroups' },
  },
  states: {
    /** Transient: picks the mode from the width and the preferred menu mode. */
    deciding: {
      always: [{ guard: 'isMobileWidth', target: 'mobile' }, { guard: 'isOverlayMode', target: 'overlay' }, { target: 'static' }],
    },
    static: {
      initial: 'open',
      states: {
        open: { on: { 'menu.toggle': 'closed' } },
        closed: { on: { 'menu.toggle': 'open' } },
      },
    },
    overlay: slidingMenu,
    mobile: slidingMenu,
  },
});

export type LayoutMachine = typeof layoutMachine;
