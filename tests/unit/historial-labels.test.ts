/** Spanish labels and values of the change-history diff. */
import { describe, expect, it } from 'vitest';
import { entityLabel, fieldLabel, showValue } from '../../src/views/historial/labels';

describe('change-history labels', () => {
  it('names entities and fields in Spanish, raw names otherwise', () => {
    expect(entityLabel('users')).toBe('Usuario');
    expect(entityLabel('lots')).toBe('lots');
    expect(fieldLabel('surname')).toBe('Apellidos');
    expect(fieldLabel('x_y')).toBe('x_y');
  });
  it('shows values as people read them', () => {
    const instant = (iso: string) => `<${iso}>`;
    expect(showValue(null, instant)).toBe('—');
    expect(showValue(true, instant)).toBe('Sí');
    expect(showValue(false, instant)).toBe('No');
    expect(showValue('2026-11-22T14:21:26.105Z', instant)).toBe('<2026-11-22T14:21:26.105Z>');
    expect(showValue('1990-05-14', instant)).toBe('14/05/90');
    expect(showValue([3, 4], instant)).toBe('3, 4');
    expect(showValue({ a: 1 }, instant)).toBe('{"a":1}');
    expect(showValue('Lucía', instant)).toBe('Lucía');
  });
});
