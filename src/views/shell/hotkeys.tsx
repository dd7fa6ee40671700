import { lazy, Suspense, useCallback, useMemo, useReducer, useState, type ReactNode } from 'react';
import { HotkeysContext, type HotkeyConfig, type HotkeysContextInstance } from '@blueprintjs/core';

/**
 * The hotkeys provider of the authenticated area (performance, issue "Shell"): Blueprint's
 * `HotkeysProvider` with the same context and state (`useHotkeys` works as with it), but its help
 * dialog (Dialog, Hotkeys, KeyComboTag and their icons) is loaded the first time it opens instead
 * of with the shell: Blueprint's provider imports that dialog statically.
 */

type HotkeysState = HotkeysContextInstance[0];
type HotkeysAction = Parameters<HotkeysContextInstance[1]>[0];

const HotkeysDialog = lazy(() => import('./HotkeysDialog').then((m) => ({ default: m.HotkeysDialog })));

/** Blueprint's `shallowCompareKeys(a, b, { exclude: ['onKeyDown', 'onKeyUp'] })`. */
function sameHotkey(a: HotkeyConfig, b: HotkeyConfig): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  keys.delete('onKeyDown');
  keys.delete('onKeyUp');
  for (const key of keys) {
    if (a[key as keyof HotkeyConfig] !== b[key as keyof HotkeyConfig]) return false;
  }
  return true;
}

/** Blueprint's hotkeys reducer (core 6, context/hotkeys/hotkeysProvider). */
export function hotkeysReducer(state: HotkeysState, action: HotkeysAction): HotkeysState {
  switch (action.type) {
    case 'ADD_HOTKEYS': {
      // Only the hotkeys not registered yet.
      const added = action.payload.filter((a) => !state.hotkeys.some((b) => sameHotkey(a, b)));
      return { ...state, hotkeys: [...state.hotkeys, ...added] };
    }
    case 'REMOVE_HOTKEYS':
      return { ...state, hotkeys: state.hotkeys.filter((key) => !action.payload.includes(key)) };
    case 'OPEN_DIALOG':
      return { ...state, isDialogOpen: true };
    case 'CLOSE_DIALOG':
      return { ...state, isDialogOpen: false };
    default:
      return state;
  }
}

const INITIAL: HotkeysState = { hasProvider: true, hotkeys: [], isDialogOpen: false };

export function AppHotkeysProvider({ children }: { children: ReactNode }) {
  const [state, dispatch] = useReducer(hotkeysReducer, INITIAL);
  const value = useMemo<HotkeysContextInstance>(() => [state, dispatch], [state, dispatch]);
  const close = useCallback(() => dispatch({ type: 'CLOSE_DIALOG' }), []);
  // Mounted from the first opening on, so it closes with Blueprint's transition.
  const [dialogShown, setDialogShown] = useState(false);
  if (state.isDialogOpen && !dialogShown) setDialogShown(true);
  return (
    <HotkeysContext.Provider value={value}>
      {children}
      {dialogShown ? (
        <Suspense fallback={null}>
          <HotkeysDialog isOpen={state.isDialogOpen} hotkeys={state.hotkeys} onClose={close} />
        </Suspense>
      ) : null}
    </HotkeysContext.Provider>
  );
}
