/** i18n (docs/product.md §1 Spanish default, English available; §9 UI labels letter for letter). */
import { describe, expect, it } from 'vitest';
import { CATALOGUES, t } from '../../../src/i18n/labels';
import { es } from '../../../src/i18n/es';

describe('UI labels', () => {
  it('Spanish is the default and holds the docs/product.md §9 labels letter for letter', () => {
    expect(Object.values(es).sort()).toEqual(
      [
        'Aplicar',
        'Limpiar',
        'Cancelar',
        'Sí',
        'No',
        'Hoy',
        'Elegir fecha',
        'Débil',
        'Medio',
        'Fuerte',
        'Ingrese una contraseña',
        'No se encontraron resultados',
        'No hay opciones disponibles',
      ].sort(),
    );
    expect(t('emptySearchMessage')).toBe('No se encontraron resultados');
    expect(t('chooseDate')).toBe('Elegir fecha');
  });

  it('English has every key', () => {
    expect(Object.keys(CATALOGUES.en).sort()).toEqual(Object.keys(es).sort());
    expect(t('today', 'en')).toBe('Today');
  });
});
