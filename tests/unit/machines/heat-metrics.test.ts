import { describe, expect, it } from 'vitest';
import {
  formatMetricValue,
  HEAT_NO_DATA,
  heatFillOf,
  metricRange,
  metricValue,
  type MapLotView,
} from '../../../src/machines/mapas/map-geometry';
import { dateOfEpochDay, daysBetween, epochDay } from '../../../src/lib/dates';

/** The heat map's sales metrics (docs/decisions.md "Heat map metrics"): values, range, legend text and the "no data" fill. */

const lot = (key: string, extra: Partial<MapLotView> = {}): MapLotView => ({
  key,
  id: Number(key),
  code: `MZ A - LT ${key}`,
  block: 'A',
  number: key,
  area_m2: 120,
  price_per_m2: 25000,
  list_price: 3000000,
  status: 'VENDIDO',
  polygon: null,
  ...extra,
});

describe('heat map metrics', () => {
  const lots = [
    lot('1', { sale_date: '2024-12-31', days_late: 0 }),
    lot('2', { sale_date: '2026-03-02', days_late: 120 }),
    lot('3', { status: 'DISPONIBLE', sale_date: null, days_late: null }),
    lot('4', { status: 'DISPONIBLE' }), // a server that does not send the fields
  ];

  it('reads days late as days and the sale date as days since 1970; null without a live sale', () => {
    expect(lots.map((l) => metricValue(l, 'DAYS_LATE'))).toEqual([0, 120, null, null]);
    expect(metricValue(lots[0]!, 'SALE_DATE')).toBe(epochDay('2024-12-31'));
    expect(metricValue(lots[2]!, 'SALE_DATE')).toBeNull();
    expect(metricValue(lots[3]!, 'SALE_DATE')).toBeNull();
    expect(metricValue(lot('5', { sale_date: '2026-02-30' }), 'SALE_DATE')).toBeNull();
    expect(metricRange(lots, 'DAYS_LATE')).toEqual({ min: 0, max: 120 });
    expect(metricRange(lots, 'SALE_DATE')).toEqual({ min: epochDay('2024-12-31'), max: epochDay('2026-03-02') });
    expect(metricRange(lots.slice(2), 'SALE_DATE')).toBeNull();
  });

  it('writes the legend: money per m², days, dates dd/mm/yy', () => {
    expect(formatMetricValue('PRICE_PER_M2', 25000, 'PEN')).toBe('S/ 250.00/m²');
    expect(formatMetricValue('DAYS_LATE', 0, 'PEN')).toBe('0 días');
    expect(formatMetricValue('DAYS_LATE', 1, 'PEN')).toBe('1 día');
    expect(formatMetricValue('DAYS_LATE', 45, 'USD')).toBe('45 días');
    expect(formatMetricValue('SALE_DATE', epochDay('2024-12-31')!, 'PEN')).toBe('31/12/2024');
  });

  it('fills lots on the ramp by their value and lots without one in the neutral grey', () => {
    const range = metricRange(lots, 'DAYS_LATE');
    expect(lots.map((l) => heatFillOf(l, 'DAYS_LATE', range))).toEqual(['#ffffb2', '#bd0026', HEAT_NO_DATA, HEAT_NO_DATA]);
    expect(heatFillOf(lots[0]!, 'SALE_DATE', null)).toBe(HEAT_NO_DATA);
    // One value only: the middle colour.
    expect(heatFillOf(lots[0]!, 'DAYS_LATE', { min: 0, max: 0 })).toBe('#fd8d3c');
  });

  it('counts calendar days across months and leap years', () => {
    expect(daysBetween('2026-05-01', '2026-06-09')).toBe(39);
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2);
    expect(daysBetween('2026-03-02', '2026-03-01')).toBe(-1);
    expect(() => daysBetween('2026-02-30', '2026-03-01')).toThrow(RangeError);
    expect(epochDay('1970-01-02')).toBe(1);
    expect(dateOfEpochDay(epochDay('2028-02-29')!)).toBe('2028-02-29');
  });
});
