import { describe, expect, it } from 'vitest';
import { formatArea, formatMetres, formatMoney, parseMoneyInput } from '../../../src/lib/money';

describe('money and measures (es-PE)', () => {
  it('formats céntimos with the currency symbol and two decimals', () => {
    expect(formatMoney(123450, 'PEN')).toBe('S/ 1,234.50');
    expect(formatMoney(5, 'USD')).toBe('US$ 0.05');
    expect(formatMoney(300000000, 'PEN')).toBe('S/ 3,000,000.00');
  });

  it('puts the sign of a negative amount before the currency symbol, as es-PE does', () => {
    expect(formatMoney(-130275, 'PEN')).toBe('-S/ 1,302.75');
    expect(formatMoney(-5, 'USD')).toBe('-US$ 0.05');
    // The order Intl's es-PE currency style writes (with a no-break space, and "USD" for dollars:
    // hence formatMoney's own symbols).
    const intl = new Intl.NumberFormat('es-PE', { style: 'currency', currency: 'PEN' }).format(-1302.75);
    expect(formatMoney(-130275, 'PEN')).toBe(intl.replace(/\u00a0/g, ' '));
    // Less than half a céntimo below zero rounds to zero, without a sign.
    expect(formatMoney(-0.4, 'PEN')).toBe('S/ 0.00');
  });

  it('formats areas and lengths with at most two decimals', () => {
    expect(formatArea(1250.5)).toBe('1,250.50 m²');
    expect(formatArea(120)).toBe('120.00 m²');
    expect(formatMetres(12.345)).toBe('12.35 m');
  });

  it('reads amounts typed in soles into céntimos', () => {
    expect(parseMoneyInput('1,234.5')).toBe(123450);
    expect(parseMoneyInput('1234,50')).toBe(123450);
    expect(parseMoneyInput('S/ 250')).toBe(25000);
    expect(parseMoneyInput('0.05')).toBe(5);
    expect(parseMoneyInput('')).toBeNull();
    expect(parseMoneyInput('-5')).toBeNull();
    expect(parseMoneyInput('12.345')).toBe(1234500);
    expect(parseMoneyInput('abc')).toBeNull();
  });
});
