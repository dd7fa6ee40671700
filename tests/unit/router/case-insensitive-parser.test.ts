/** Case-insensitive parser and auth-route lookup (docs/product.md §2: both capitalisations resolve). */
import { describe, expect, it } from 'vitest';
import { caseInsensitiveParser } from '../../../src/views/router/case-insensitive-parser';
import { findAuthRoute, safeDecode } from '../../../src/views/router/route-match';
import { MENU_CATALOGUE } from '../../../src/schemas/menu-catalogue';

describe('caseInsensitiveParser', () => {
  it('adds the i flag and keeps the keys', () => {
    const { pattern, keys } = caseInsensitiveParser('/COMERCIO/MapSales/:name/:id_encrypted');
    expect(pattern.flags).toContain('i');
    expect(keys).toEqual(['name', 'id_encrypted']);
    expect(pattern.test('/comercio/mapsales/a/b')).toBe(true);
    expect(pattern.test('/comercio/mapsales/a')).toBe(false);
  });
});

describe('findAuthRoute', () => {
  it('every menu path resolves to an authenticated route', () => {
    for (const group of MENU_CATALOGUE) {
      for (const item of group.items) {
        expect(findAuthRoute(item.ruta), item.ruta).not.toBeNull();
      }
    }
  });

  it('prefers the heat map over the generic map route and decodes params', () => {
    expect(findAuthRoute('/COMERCIO/MapSales/Heat/Los%20Olivos/x1')).toMatchObject({
      key: 'mapSalesHeat',
      params: { name: 'Los Olivos', id_encrypted: 'x1' },
    });
    expect(findAuthRoute('/comercio/mapsales/Los%20Olivos/x1')?.key).toBe('mapSales');
  });

  it('unknown paths and public paths are not authenticated routes', () => {
    expect(findAuthRoute('/nada')).toBeNull();
    expect(findAuthRoute('/auth/login')).toBeNull();
  });

  it('safeDecode leaves malformed percent-encoding alone', () => {
    expect(safeDecode('%E0%A4%A')).toBe('%E0%A4%A');
  });
});
