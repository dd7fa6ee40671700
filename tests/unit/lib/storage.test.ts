/** lib/storage (docs/product.md §3 storage keys): plain token/type, JSON values, validation on read, clear. */
import { describe, expect, it } from 'vitest';
import { STORAGE_SCHEMAS, clearStorage, readStorage, writeStorage } from '../../../src/lib/storage';
import { readPlainStorage } from '../../../src/lib/plain-storage';
import { TOKEN, locals, memoryStore, sampleUser } from '../support/fakes';

describe('storage', () => {
  it('stores token and type as plain strings, the rest as JSON', () => {
    const store = memoryStore();
    writeStorage('token', TOKEN, store);
    writeStorage('type', 'CUSTOMER', store);
    writeStorage('local_active', locals, store);
    expect(store.data.get('token')).toBe(TOKEN);
    expect(store.data.get('type')).toBe('CUSTOMER');
    expect(JSON.parse(store.data.get('local_active')!)).toEqual(locals);
  });

  it('round-trips every kind of value', () => {
    const store = memoryStore();
    writeStorage('user_details', sampleUser, store);
    writeStorage('accesos', ['Acceso módulo CRM'], store);
    writeStorage('system_styles', null, store);
    writeStorage('roles', [{ name: 'Asesor', code: 3 }], store);
    expect(readStorage('user_details', store)).toEqual(sampleUser);
    expect(readStorage('accesos', store)).toEqual(['Acceso módulo CRM']);
    expect(readStorage('system_styles', store)).toBeNull();
    expect(readStorage('roles', store)).toEqual([{ name: 'Asesor', code: 3 }]);
  });

  it('reads a missing, malformed or invalid value as null', () => {
    const store = memoryStore({ accesos: '{not json', type: '', local_active: '[{"id":"x"}]' });
    expect(readStorage('token', store)).toBeNull();
    expect(readStorage('accesos', store)).toBeNull();
    expect(readStorage('type', store)).toBeNull();
    expect(readStorage('local_active', store)).toBeNull();
  });

  it('clearStorage removes every key; a null store is a no-op', () => {
    const store = memoryStore();
    writeStorage('token', TOKEN, store);
    writeStorage('accesos', [], store);
    clearStorage(store);
    expect(store.data.size).toBe(0);
    expect(readStorage('token', null)).toBeNull();
    expect(() => writeStorage('token', TOKEN, null)).not.toThrow();
  });

  it('defaults to window.localStorage', () => {
    writeStorage('token', TOKEN);
    expect(localStorage.getItem('token')).toBe(TOKEN);
    expect(readStorage('token')).toBe(TOKEN);
    clearStorage();
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('reads token and type without zod (the login page) as their schemas do', () => {
    for (const raw of [null, '', ' ', 'abc', TOKEN, 'CUSTOMER', 'COLLABORATOR', 'ADMIN', 'customer']) {
      const store = memoryStore(raw === null ? {} : { token: raw, type: raw });
      for (const key of ['token', 'type'] as const) {
        const bySchema = raw === null ? null : STORAGE_SCHEMAS[key].safeParse(raw);
        const expected = bySchema?.success ? bySchema.data : null;
        expect(readPlainStorage(key as 'token', store), `${key} = ${String(raw)}`).toBe(expected);
        expect(readStorage(key, store)).toBe(expected);
      }
    }
  });
});
