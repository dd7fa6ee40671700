/** lib/dates (issue "Foundation"; docs/product.md §1, §9: America/Lima, dd/mm/yy). */
import { describe, expect, it } from 'vitest';
import { Temporal } from 'temporal-polyfill';
import {
  formatDate,
  formatDateTime,
  instantToLimaWallTime,
  limaWallTimeToInstant,
  relativeTimeEs,
  todayInLima,
} from '../../../src/lib/dates';

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
    expect(formatDate('2025-03-07')).toBe('07/03/2025');
    expect(formatDate('2000-12-31')).toBe('31/12/2000');
  });

  it('converts an instant to Lima before formatting', () => {
    expect(formatDate('2025-03-02T03:00:00Z')).toBe('01/03/2025');
    expect(formatDate('2025-03-02T12:00:00-05:00')).toBe('02/03/2025');
  });

  it('returns an empty string for invalid input', () => {
    expect(formatDate('2025-02-30')).toBe('');
    expect(formatDate('ayer')).toBe('');
    expect(formatDate('')).toBe('');
  });
});

describe('relativeTimeEs (docs/product.md §2 notifications: creation date as relative time; §3 fallbacks)', () => {
  const now = Date.parse('2025-06-15T15:00:00Z');

  it('says how long ago in Spanish', () => {
    expect(relativeTimeEs('2025-06-15T14:59:30Z', now)).toBe('ahora');
    expect(relativeTimeEs('2025-06-15T14:55:00Z', now)).toBe('hace 5 minutos');
    expect(relativeTimeEs('2025-06-15T13:00:00Z', now)).toBe('hace 2 horas');
    expect(relativeTimeEs('2025-06-14T15:00:00Z', now)).toBe('ayer');
    expect(relativeTimeEs('2025-06-12T15:00:00Z', now)).toBe('hace 3 días');
    expect(relativeTimeEs('2025-04-15T15:00:00Z', now)).toBe('hace 2 meses');
    expect(relativeTimeEs('2023-06-15T15:00:00Z', now)).toBe('hace 2 años');
  });

  it('reads offsets and treats a small clock skew as now', () => {
    expect(relativeTimeEs('2025-06-15T09:50:00-05:00', now)).toBe('hace 10 minutos');
    expect(relativeTimeEs('2025-06-15T15:00:20Z', now)).toBe('ahora');
  });

  it('"Fecha no disponible" when missing, "Fecha inválida" when unparsable', () => {
    expect(relativeTimeEs(undefined, now)).toBe('Fecha no disponible');
    expect(relativeTimeEs(null, now)).toBe('Fecha no disponible');
    expect(relativeTimeEs('  ', now)).toBe('Fecha no disponible');
    expect(relativeTimeEs('no es una fecha', now)).toBe('Fecha inválida');
    expect(relativeTimeEs('2025-13-45T99:00:00Z', now)).toBe('Fecha inválida');
  });
});

describe('Lima wall times (a lead follow-up)', () => {
  it('formats an instant in America/Lima as dd/mm/yy HH:mm', () => {
    expect(formatDateTime('2026-03-02T03:30:00Z')).toBe('01/03/2026 22:30');
    expect(formatDateTime('nope')).toBe('');
  });
  it('turns a datetime-local text into the instant (UTC−5) and back', () => {
    expect(limaWallTimeToInstant('2026-03-01T22:30')).toBe('2026-03-02T03:30:00Z');
    expect(instantToLimaWallTime('2026-03-02T03:30:00Z')).toBe('2026-03-01T22:30');
    expect(limaWallTimeToInstant('2026-02-30T10:00')).toBeNull();
    expect(limaWallTimeToInstant('')).toBeNull();
    expect(instantToLimaWallTime(null)).toBe('');
  });
});
