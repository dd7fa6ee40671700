import { assign, not, raise, setup } from 'xstate';
import type { ToastMessage } from '../../lib/toaster';
import { DEFAULT_STYLES, type StyleSettings, type UserType } from '../../schemas/session';
import { placeholder } from '../shared/placeholder';
import { isSessionError } from '../shared/api-errors';

/**
 * The `theme` machine (issue "Shell"; docs/product.md §2 "Theme configurator", §3 layoutConfig, §4 "Theme",
 * §6, §8, §9). Two regions:
 * - `configurator`: closed | open (the config sidebar);
 * - `persistence`: idle | savingFromTopbar | savingFromConfigurator.
 * Every choice is applied at once (CSS variables and the `app-dark` class, injected `apply`) and
 * kept in storage (`system_styles`). Staff save to the server (row 8): toggling dark mode in the
 * top bar saves at once (docs/product.md §4: any change of darkTheme triggers saving) and a failure toasts
 * "Estilos no guardados" (1 s); "Guardar" in the configurator saves, toasts "Estilos guardados"
 * (1 s) and closes the panel, and its failure is silent (docs/product.md §8). Customers never save to the
 * server (docs/product.md §6). Styles are restored at login from `system_styles`.
 * A 401/402/404 answer to the save is the session's (docs/product.md §7, issue 12 item 2): the api client has
 * already sent the user to /auth/access, /auth/error or /auth/pago, so the top bar's failure
 * toast is not shown over that page (the failure is still logged).
 */

/** Lifetime of the style toasts (docs/product.md §9). */
export const STYLE_TOAST_LIFE_MS = 1000;
export const SAVED_TOAST: ToastMessage = { severity: 'success', summary: 'Estilos guardados', life: STYLE_TOAST_LIFE_MS };
export const NOT_SAVED_TOAST: ToastMessage = { severity: 'error', summary: 'Estilos no guardados', life: STYLE_TOAST_LIFE_MS };

export interface ThemeContext {
  styles: StyleSettings;
  userType: UserType | null;
}

export interface ThemeInput {
  styles?: StyleSettings | null;
  userType?: UserType | null;
}

export type ThemeEvent =
  | { type: 'theme.primaryChosen'; primary: string }
  | { type: 'theme.surfaceChosen'; surface: string }
  | { type: 'theme.presetChosen'; preset: StyleSettings['preset'] }
  | { type: 'theme.menuModeChosen'; menuMode: StyleSettings['menuMode'] }
  | { type: 'theme.darkToggled' }
  | { type: 'theme.configuratorOpened' }
  | { type: 'theme.configuratorClosed' }
  | { type: 'theme.saveRequested' }
  | { type: 'theme.restored'; styles: StyleSettings | null; userType: UserType | null };

/** After every change: apply to the document and keep in storage. */
const APPLY_AND_KEEP = [
  { type: 'apply', params: ({ context }: { context: ThemeContext }) => context.styles },
  { type: 'persistLocal', params: ({ context }: { context: ThemeContext }) => context.styles },
] as const;

export const themeMachine = setup({
  types: {
    context: {} as ThemeContext,
    events: {} as ThemeEvent,
    input: {} as ThemeInput,
  },
  actions: {
    /** Applies the styles to the document: CSS variables, `app-dark` on <html> (view transition when supported). */
    apply: (_, _styles: StyleSettings) => {},
    /** Keeps the styles under `system_styles` (docs/product.md §3). */
    persistLocal: (_, _styles: StyleSettings) => {},
    /** Tells the layout machine the menu mode changed. */
    menuModeChanged: (_, _menuMode: StyleSettings['menuMode']) => {},
    /** Shows a toast (injected toaster). */
    notify: (_, _toast: ToastMessage) => {},
    /** Logs an error the user does not see. */
    logError: (_, _params: { what: string; error: unknown }) => {},
    update: assign({
      styles: ({ context, event }) => {
        switch (event.type) {
          case 'theme.primaryChosen':
            return { ...context.styles, primary: event.primary };
          case 'theme.surfaceChosen':
            return { ...context.styles, surface: event.surface };
          case 'theme.presetChosen':
            return { ...context.styles, preset: event.preset };
          case 'theme.menuModeChosen':
            return { ...context.styles, menuMode: event.menuMode };
          case 'theme.darkToggled':
            return { ...context.styles, darkTheme: !context.styles.darkTheme };
          case 'theme.restored':
            return event.styles ?? { ...DEFAULT_STYLES };
          default:
            return context.styles;
        }
      },
      userType: ({ context, event }) => (event.type === 'theme.restored' ? event.userType : context.userType),
    }),
  },
  actors: {
    /** Row 8: POST store_or_update_user_style_config with the styles as a JSON string (staff only). */
    saveStyles: placeholder<unknown, StyleSettings>('saveStyles'),
  },
  guards: {
    isStaff: ({ context }) => context.userType !== 'CUSTOMER', // docs/product.md §6: any type but CUSTOMER is staff
    /** The save failed with a 401/402/404, which the session handles (see api-errors.ts). */
    isSessionError: ({ event }) => isSessionError((event as { error?: unknown }).error),
  },
}).createMachine({
  id: 'theme',
  type: 'parallel',
  context: ({ input }) => ({ styles: input.styles ?? { ...DEFAULT_STYLES }, userType: input.userType ?? null }),
  entry: [
    { type: 'apply', params: ({ context }) => context.styles },
    { type: 'menuModeChanged', params: ({ context }) => context.styles.menuMode },
  ],
  on: {
    'theme.primaryChosen': { actions: ['update', ...APPLY_AND_KEEP] },
    'theme.surfaceChosen': { actions: ['update', ...APPLY_AND_KEEP] },
    'theme.presetChosen': { actions: ['update', ...APPLY_AND_KEEP] },
    'theme.menuModeChosen': {
      actions: ['update', ...APPLY_AND_KEEP, { type: 'menuModeChanged', params: ({ context }) => context.styles.menuMode }],
    },
    // Staff are handled by the persistence region (it saves); customers only apply and keep.
    'theme.darkToggled': { guard: not('isStaff'), actions: ['update', ...APPLY_AND_KEEP] },
    // Customers keep their styles in this browser only (docs/product.md §6).
    'theme.saveRequested': { guard: not('isStaff'), actions: raise({ type: 'theme.configuratorClosed' }) },
    'theme.restored': {
      actions: ['update', ...APPLY_AND_KEEP, { type: 'menuModeChanged', params: ({ context }) => context.styles.menuMode }],
    },
  },
  states: {
    configurator: {
      initial: 'closed',
      states: {
        closed: { on: { 'theme.configuratorOpened': 'open' } },
        open: { on: { 'theme.configuratorClosed': 'closed' } },
      },
    },
    persistence: {
      initial: 'idle',
      // Transitions on the region itself (not re-entering it) leave the configurator region alone.
      on: {
        'theme.darkToggled': {
          guard: 'isStaff',
          target: '.savingFromTopbar',
          actions: ['update', ...APPLY_AND_KEEP],
        },
        'theme.saveRequested': { guard: 'isStaff', target: '.savingFromConfigurator' },
      },
      states: {
        idle: {},
        /** Dark mode toggled in the top bar: saved at once; failure toasts "Estilos no guardados". */
        savingFromTopbar: {
          invoke: {
            src: 'saveStyles',
            input: ({ context }) => context.styles,
            onDone: 'idle',
            onError: [
              {
                guard: 'isSessionError',
                target: 'idle',
                actions: { type: 'logError', params: ({ event }) => ({ what: 'save styles (top bar)', error: event.error }) },
              },
              {
                target: 'idle',
                actions: [
                  { type: 'notify', params: NOT_SAVED_TOAST },
                  { type: 'logError', params: ({ event }) => ({ what: 'save styles (top bar)', error: event.error }) },
                ],
              },
            ],
          },
        },
        /** "Guardar": success toasts "Estilos guardados" and closes the configurator; failure is silent. */
        savingFromConfigurator: {
          invoke: {
            src: 'saveStyles',
            input: ({ context }) => context.styles,
            onDone: {
              target: 'idle',
              actions: [{ type: 'notify', params: SAVED_TOAST }, raise({ type: 'theme.configuratorClosed' })],
            },
            onError: {
              target: 'idle',
              actions: { type: 'logError', params: ({ event }) => ({ what: 'save styles (configurator)', error: event.error }) },
            },
          },
        },
      },
    },
  },
});

export type ThemeMachine = typeof themeMachine;
