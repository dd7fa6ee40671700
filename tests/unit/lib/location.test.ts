/**
 * lib/location (the CRUD pattern's `syncUrl`): the list query replaces the address's search,
 * keeping path and hash, without a new history entry and without a write when nothing changed.
 */
import { describe, expect, it, vi } from 'vitest';
import { replaceUrlQuery, replaceUrlQueryKeeping } from '../../../src/lib/location';

function fakeWindow(search = '') {
  const location = { pathname: '/Configuracion/Usuarios', search, hash: '' };
  const history = {
    state: null,
    replaceState: vi.fn((_: unknown, __: string, url: string) => {
      location.search = url.includes('?') ? url.slice(url.indexOf('?')) : '';
    }),
  };
  return { location, history } as unknown as Window & { history: { replaceState: ReturnType<typeof vi.fn> } };
}

describe('replaceUrlQuery', () => {
  it('writes page, sort, text and filters', () => {
    const win = fakeWindow();
    replaceUrlQuery({ page: 2, per_page: 20, sort: '-name', q: 'ana', filters: { status: 'ACTIVO' } }, win);
    expect(win.history.replaceState).toHaveBeenCalledWith(
      null,
      '',
      '/Configuracion/Usuarios?page=2&per_page=20&sort=-name&q=ana&status=ACTIVO',
    );
  });

  it('does nothing when the URL already says the same', () => {
    const win = fakeWindow('?per_page=20');
    replaceUrlQuery({ page: 1, per_page: 20, filters: {} }, win);
    expect(win.history.replaceState).not.toHaveBeenCalled();
  });
});

describe('replaceUrlQueryKeeping', () => {
  it('writes the list query and keeps the named parameters the address holds (Generar Contrato ?venta=)', () => {
    const win = fakeWindow('?venta=3&page=4');
    replaceUrlQueryKeeping({ page: 1, per_page: 20, sort: 'name', filters: {} }, ['venta', 'lote'], win);
    expect(win.history.replaceState).toHaveBeenCalledWith(null, '', '/Configuracion/Usuarios?per_page=20&sort=name&venta=3');
  });
});
