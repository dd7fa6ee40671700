/** lib/dates (issue "Foundation"; SPEC §1, §9: America/Lima, dd/mm/yy). */
import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import { formatDate, todayInLima } from '../../../src/lib/dates';

describe('todayInLima', () => {
  it('uses Lima (UTC−5), not UTC', () => {
    // 03:00 UTC on 2 March is still 1 March at 22:00 in Lima.
    expect(todayInLima(new Date('2025-03-02T03:00:00Z'))).toBe('2025-03-01');
    expect(todayInLima(new Date('2025-03-02T05:00:00Z'))).toBe('2025-03-02');
  });

  it('accepts a Temporal.Instant and epoch milliseconds', () => {
    expect(todayInLima(Temporal.Instant.from('2024-12-31T23:30:00-05:00'))).toBe('2024-12-31');
    expect(todayInLima(Date.UTC(2025, 0, 1, 4, 59))).toBe('2024-12-31');
  });

  it('defaults to the system clock and returns an ISO date', () => {
    expect(todayInLima()).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});

describe('formatDate', () => {
  it('formats an ISO date as dd/mm/yy', () => {
    expect(formatDate('2025-03-07')).toBe('07/03/25');
    expect(formatDate('2000-12-31')).toBe('31/12/00');
  });

  it('converts an instant to Lima before formatting', () => {
    expect(formatDate('2025-03-02T03:00:00Z')).toBe('01/03/25');
    expect(formatDate('2025-03-02T12:00:00-05:00')).toBe('02/03/25');
  });

  it('returns an empty string for invalid input', () => {
    expect(formatDate('2025-02-30')).toBe('');
    expect(formatDate('ayer')).toBe('');
    expect(formatDate('')).toBe('');
  });
});
