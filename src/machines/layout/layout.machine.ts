import { assign, setup } from 'xstate';

/**
 * The `layout` machine (issue "Shell"; SPEC §2 "Layout", §4; design SHELL.md "Behaviour"). It
 * replaces the original's pile of booleans: the menu is in exactly one of
 *   static.open | static.closed   (desktop, menu mode Fijo: the toggle collapses/restores it)
 *   overlay.open | overlay.closed (desktop, menu mode Sobreponer: slides over the content)
 *   mobile.open | mobile.closed   (viewport ≤ 991 px, whatever the menu mode)
 * Outside clicks and choosing a link close the overlay and mobile menus (never the static one).
 * Context keeps only what no state can say: the preferred menu mode and the viewport width, plus
 * the keys of the menu groups the user opened (a group is also open while it holds the active item).
 */

/** Desktop breakpoint (SPEC §9): widths above it are desktop. */
export const DESKTOP_BREAKPOINT = 991;

export type MenuMode = 'static' | 'overlay';

export interface LayoutContext {
  /** Preferred menu mode (theme configurator "Fijo" / "Sobreponer"). */
  menuMode: MenuMode;
  /** Viewport width in CSS px. */
  width: number;
  /** Keys (tree paths such as "1-2") of the menu groups the user has opened. */
  openGroups: string[];
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
  | { type: 'menu.activeGroupsChanged'; keys: string[] };

const isDesktopWidth = (width: number) => width > DESKTOP_BREAKPOINT;

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
    toggleGroup: assign({
      openGroups: ({ context, event }) => {
        if (event.type !== 'menu.groupToggled') return context.openGroups;
        return context.openGroups.includes(event.key)
          ? context.openGroups.filter((k) => k !== event.key)
          : [...context.openGroups, event.key];
      },
    }),
    openActiveGroups: assign({
      openGroups: ({ context, event }) => {
        if (event.type !== 'menu.activeGroupsChanged') return context.openGroups;
        return [...new Set([...context.openGroups, ...event.keys])];
      },
    }),
  },
}).createMachine({
  id: 'layout',
  context: ({ input }) => ({ menuMode: input.menuMode ?? 'static', width: input.width, openGroups: [] }),
  initial: 'deciding',
  on: {
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
      always: [
        { guard: 'isMobileWidth', target: 'mobile' },
        { guard: 'isOverlayMode', target: 'overlay' },
        { target: 'static' },
      ],
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
