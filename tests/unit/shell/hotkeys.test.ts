import { describe, expect, it } from 'vitest';
import type { HotkeyConfig } from '@blueprintjs/core';
import { hotkeysReducer } from '../../../src/views/shell/hotkeys';

const empty = { hasProvider: true, hotkeys: [] as HotkeyConfig[], isDialogOpen: false };
const search: HotkeyConfig = { combo: 'mod+k', label: 'Buscar en el menú', global: true, onKeyDown: () => {} };

describe('AppHotkeysProvider reducer (Blueprint semantics)', () => {
  it('adds a hotkey once, ignoring its handlers when comparing, and removes it', () => {
    const added = hotkeysReducer(empty, { type: 'ADD_HOTKEYS', payload: [search] });
    expect(added.hotkeys).toEqual([search]);
    const again = hotkeysReducer(added, { type: 'ADD_HOTKEYS', payload: [{ ...search, onKeyDown: () => {} }] });
    expect(again.hotkeys).toHaveLength(1);
    const other = hotkeysReducer(again, { type: 'ADD_HOTKEYS', payload: [{ ...search, combo: 'mod+j' }] });
    expect(other.hotkeys).toHaveLength(2);
    expect(hotkeysReducer(other, { type: 'REMOVE_HOTKEYS', payload: [search] }).hotkeys.map((h) => h.combo)).toEqual(['mod+j']);
  });

  it('opens and closes the help dialog', () => {
    const open = hotkeysReducer(empty, { type: 'OPEN_DIALOG' });
    expect(open.isDialogOpen).toBe(true);
    expect(hotkeysReducer(open, { type: 'CLOSE_DIALOG' }).isDialogOpen).toBe(false);
  });
});
