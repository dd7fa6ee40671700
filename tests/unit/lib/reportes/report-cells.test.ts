/**
 * How a report's cell reads on screen and in the PDF (src/lib/reportes/report-cells.ts;
 * docs/reports.md "Rules shared by every report": money with its row's currency, never added across
 * currencies; percents with one decimal in es-PE, as every figure of the app).
 */
import { describe, expect, it } from 'vitest';
import { formatReportCell, isFigureColumn } from '../../../../src/lib/reportes/report-cells';
import { REPORT_COLUMN_KINDS } from '../../../../src/schemas/reportes/report';

describe('formatReportCell', () => {
  it('money in céntimos reads with its row currency symbol', () => {
    expect(formatReportCell({ kind: 'money' }, 123_450, 'PEN')).toBe('S/ 1,234.50');
    expect(formatReportCell({ kind: 'money' }, 2_500_000, 'USD')).toBe('US$ 25,000.00');
  });

  it('money in a row without currency reads "—" (never a figure of an unknown currency)', () => {
    expect(formatReportCell({ kind: 'money' }, 123_450, undefined)).toBe('—');
  });

  it('a ratio 0..1 reads as a percentage with one decimal', () => {
    expect(formatReportCell({ kind: 'percent' }, 0.724, undefined)).toBe('72.4 %');
    expect(formatReportCell({ kind: 'percent' }, 1, undefined)).toBe('100.0 %');
  });

  it('area in m² with two decimals, counts and days as whole numbers', () => {
    expect(formatReportCell({ kind: 'area' }, 120.5, undefined)).toBe('120.50 m²');
    expect(formatReportCell({ kind: 'count' }, 1234, undefined)).toBe('1,234');
    expect(formatReportCell({ kind: 'days' }, 45.4, undefined)).toBe('45');
  });

  it('dates read dd/mm/yyyy and months as "nov 2026"', () => {
    expect(formatReportCell({ kind: 'date' }, '2026-11-02', undefined)).toBe('02/11/2026');
    expect(formatReportCell({ kind: 'month' }, '2026-11', undefined)).toBe('nov 2026');
  });

  it('a text that is not a date or month reads as is (the totals row of Cobranza by day: "Total")', () => {
    expect(formatReportCell({ kind: 'date' }, 'Total', 'PEN')).toBe('Total');
    expect(formatReportCell({ kind: 'month' }, 'Total', 'PEN')).toBe('Total');
  });

  it('text reads as is, and an empty cell of any kind reads "—"', () => {
    expect(formatReportCell({ kind: 'text' }, 'Los Viñedos', undefined)).toBe('Los Viñedos');
    for (const kind of REPORT_COLUMN_KINDS) {
      expect(formatReportCell({ kind }, null, 'PEN')).toBe('—');
      expect(formatReportCell({ kind }, undefined, 'PEN')).toBe('—');
      expect(formatReportCell({ kind }, '', 'PEN')).toBe('—');
    }
  });
});

describe('isFigureColumn', () => {
  it('figures (aligned right) are money, count, area, percent and days; text, dates and months are not', () => {
    expect(REPORT_COLUMN_KINDS.filter((kind) => isFigureColumn({ kind }))).toEqual(['money', 'count', 'area', 'percent', 'days']);
  });
});
