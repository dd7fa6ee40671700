/**
 * The shared answer of every report as the app reads it (src/schemas/reportes/report.ts;
 * docs/reports.md, docs/contracts.md "One bad item never hides the rest"): a malformed row from
 * another server is left out and the others show; the request stays strict. The minimal answers
 * and unknown keys are checked in tests/unit/schemas/tolerant-reader.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  REPORT_MESSAGES,
  reportFileName,
  reportQuerySchema,
  reportReadResponseSchema,
  reportResponseSchema,
} from '../../../src/schemas/reportes/report';

const answer = (rows: unknown[]) => ({
  data: {
    report: 'cobranza',
    title: 'Cobranza',
    from: '2026-11-01',
    to: '2026-11-30',
    columns: [
      { key: 'period', label: 'Día', kind: 'date' },
      { key: 'total', label: 'Cobrado', kind: 'sparkline' },
    ],
    rows,
    row_count: rows.length,
  },
});

describe('reportReadResponseSchema', () => {
  it('drops a malformed row and keeps the others in order', () => {
    const good = { cells: { period: '2026-11-02', total: 150_000 }, currency: 'PEN' };
    const other = { cells: { period: '2026-11-03', total: 90_000 }, currency: 'USD', link: '/FINANZAS/Pagos?from=2026-11-03' };
    const parsed = reportReadResponseSchema.parse(
      answer([good, { cells: 'roto' }, { cells: {}, currency: 'EUR' }, { cells: {}, link: 'http://evil' }, other, 7]),
    );
    expect(parsed.data.rows).toEqual([good, other]);
    // The strict schema (what our server writes) refuses the whole answer instead.
    expect(reportResponseSchema.safeParse(answer([good, { cells: 'roto' }])).success).toBe(false);
  });

  it('reads an unknown column kind as text and fills the optional parts', () => {
    const parsed = reportReadResponseSchema.parse(answer([]));
    expect(parsed.data.columns[1]!.kind).toBe('text');
    expect(parsed.data).toMatchObject({ filters: [], notes: [], totals: [], chart: null });
  });
});

describe('reportQuerySchema', () => {
  it('refuses an unknown key and a period over 5 years in Spanish (docs/reports.md "Rules shared by every report")', () => {
    expect(reportQuerySchema.safeParse({ status: 'x' }).success).toBe(false);
    const long = reportQuerySchema.safeParse({ from: '2020-01-01', to: '2025-01-01' });
    expect(long.error?.issues.map((i) => [i.path, i.message])).toEqual([[['to'], REPORT_MESSAGES.tooLong]]);
    expect(reportQuerySchema.safeParse({ from: '2020-01-01', to: '2024-12-31' }).success).toBe(true);
  });
});

describe('reportFileName', () => {
  it('names an export after the report and its period, or its cut-off date for a report of a moment', () => {
    expect(reportFileName('cobranza', { from: '2026-01-01', to: '2026-11-30' }, 'xlsx')).toBe(
      'reporte-cobranza_2026-01-01_2026-11-30.xlsx',
    );
    expect(reportFileName('inventario', { from: null, to: '2026-11-30' }, 'pdf')).toBe('reporte-inventario_2026-11-30.pdf');
  });
});
