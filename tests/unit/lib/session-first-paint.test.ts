/**
 * Inicio drawn by src/boot.ts from the stored session (src/lib/session-first-paint.ts; docs/decisions.md
 * "Skeleton first"): which template, which values, and never HTML from storage.
 */
import { describe, expect, it } from 'vitest';
import { drawHomeFromSession, homeSlotsFromStorage, SESSION_KEYS, type HomeTemplates } from '../../../src/lib/session-first-paint';
import { STORAGE_SCHEMAS } from '../../../src/lib/storage';
import { memoryStore } from '../support/fakes';

const USER = { name: 'Lucía', surname: 'Quispe' };

function store(values: Record<string, unknown>) {
  const s = memoryStore();
  for (const [key, value] of Object.entries(values)) s.setItem(key, typeof value === 'string' ? value : JSON.stringify(value));
  return s;
}

const TEMPLATES: HomeTemplates = {
  address: '<p class="a">Hola, ⟦name⟧ ⟦surname⟧ — ⟦local_name⟧ (⟦local_address⟧)</p>',
  local: '<p class="l">Hola, ⟦name⟧ — ⟦local_name⟧</p>',
  none: '<p class="n">Hola, ⟦name⟧</p>',
};

describe('Inicio from the stored session', () => {
  it('reads the keys the app stores (docs/product.md §3)', () => {
    for (const key of Object.values(SESSION_KEYS)) expect(Object.keys(STORAGE_SCHEMAS)).toContain(key);
  });

  it('picks the template by the first active location', () => {
    const base = { token: 't', user_details: USER };
    expect(homeSlotsFromStorage(store({ ...base, local_active: [{ id: 1, name: 'Sede', address: 'Av. 1' }] }))?.variant).toBe('address');
    expect(homeSlotsFromStorage(store({ ...base, local_active: [{ id: 1, name: 'Sede', address: '' }] }))?.variant).toBe('local');
    expect(homeSlotsFromStorage(store({ ...base, local_active: [{ id: 1, name: 'Sede' }] }))?.variant).toBe('local');
    expect(homeSlotsFromStorage(store({ ...base, local_active: [] }))?.variant).toBe('none');
    expect(homeSlotsFromStorage(store(base))?.variant).toBe('none');
  });

  it('draws nothing without a session the app would accept', () => {
    const root = document.createElement('div');
    root.innerHTML = '<b>skeleton</b>';
    for (const values of [
      { user_details: USER },
      { token: 't' },
      { token: 't', user_details: '{broken' },
      { token: 't', user_details: { name: 'Lucía' } },
      { token: 't', user_details: USER, local_active: [{ id: 0, name: 'Sede' }] },
      { token: 't', user_details: USER, local_active: { id: 1, name: 'Sede' } },
    ]) {
      expect(drawHomeFromSession(TEMPLATES, () => store(values), root)).toBe(false);
      expect(root.innerHTML).toBe('<b>skeleton</b>');
    }
    const blocked = () => {
      throw new DOMException('blocked', 'SecurityError');
    };
    expect(drawHomeFromSession(TEMPLATES, blocked, root)).toBe(false);
  });

  it('fills the slots as text: markup in stored values is never parsed', () => {
    const root = document.createElement('div');
    const s = store({
      token: 't',
      user_details: { name: '<img src=x onerror=alert(1)>', surname: '⟦name⟧' },
      local_active: [{ id: 3, name: 'A & B', address: '<b>Av. 1</b>' }],
    });
    expect(drawHomeFromSession(TEMPLATES, () => s, root)).toBe(true);
    expect(root.querySelectorAll('img, b')).toHaveLength(0);
    expect(root.textContent).toBe('Hola, <img src=x onerror=alert(1)> ⟦name⟧ — A & B (<b>Av. 1</b>)');
    expect(root.firstElementChild!.className).toBe('a');
  });
});
