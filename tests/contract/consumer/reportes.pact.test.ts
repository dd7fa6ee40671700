/**
 * Consumer contract of /Reportes and /ReportesEconomicos between `parcela-web` and `parcela-api`,
 * through the real src/api module (src/api/reportes/reports.ts): one interaction per report of the
 * shared shape, the filters' options and both exports. Matchers are as loose as the tolerant read
 * schema (src/schemas/reportes/report.ts): rows and totals may be empty on the provider, cells are
 * any object, a column's kind one of the known ones. Each figure (equal to the list it summarises)
 * is pinned by the server tests (tests/server/reports*.test.ts). Every interaction starts from an
 * empty database with INICIO_STATES.managerFigures (an Administrador, this month's sale, payment,
 * instalments and lead; docs/contracts.md).
 */
import { describe, expect, it } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { createReportsApi } from '../../../src/api/reportes/reports';
import {
  FINANCIAL_REPORTS,
  OPERATIONAL_REPORTS,
  REPORT_COLUMN_KINDS,
  REPORT_CHART_KINDS,
  type ReportId,
} from '../../../src/schemas/reportes/report';
import { bearer, httpPact, mockClient } from './pact-helpers';
import { STAFF_TOKEN } from '../states';
import { INICIO_STATES } from '../inicio-states';

const { like, integer, regex, eachLike, atLeastLike } = MatchersV3;

const pact = httpPact();
const api = (url: string) => createReportsApi(mockClient(url, STAFF_TOKEN));
const date = (example: string) => regex(/^\d{4}-\d{2}-\d{2}$/, example);
const currency = regex(/^(PEN|USD)$/, 'PEN');
/** A list that may be empty on the provider (one example here). */
const anyOf = <T>(template: T) => atLeastLike(template, 0, 1);
const oneOf = (values: readonly string[], example: string) => regex(new RegExp(`^(${values.join('|')})$`), example);

/** Reports of a period (from/to in the answer), the others are a picture at a date (`to`). */
const PERIOD_REPORTS: readonly ReportId[] = ['cobranza', 'conversion-leads', 'reservas', 'comisiones', 'ingresos-egresos'];

describe('Reportes (consumer)', () => {
  for (const id of [...OPERATIONAL_REPORTS, ...FINANCIAL_REPORTS]) {
    it(`reads the ${id} report: columns, rows, totals per currency and its chart`, async () => {
      const period = PERIOD_REPORTS.includes(id);
      await pact
        .addInteraction()
        .given(INICIO_STATES.managerFigures, { token: STAFF_TOKEN })
        .uponReceiving(`a request for the ${id} report`)
        .withRequest('GET', `/api/reports/${id}`, (b) => b.headers(bearer(STAFF_TOKEN)))
        .willRespondWith(200, (b) =>
          b.jsonBody({
            data: {
              report: like(id),
              title: like('Reporte'),
              ...(period ? { from: date('2026-11-01') } : {}),
              to: date('2026-11-30'),
              filters: anyOf({ label: like('Agrupado'), value: like('Por día') }),
              notes: anyOf(like('Soles y dólares por separado')),
              columns: eachLike({ key: like('amount'), label: like('Cobrado'), kind: oneOf(REPORT_COLUMN_KINDS, 'money') }),
              // A row's currency is there only when it has money (Conversión de leads has none).
              rows: anyOf({ cells: like({}) }),
              row_count: integer(1),
              totals: anyOf({ cells: like({}) }),
              // A series' values may hold nulls (months without data): the reader reads any numbers or nulls.
              chart: {
                kind: oneOf(REPORT_CHART_KINDS, 'bar'),
                unit: like('money'),
                categories: anyOf(like('nov 2026')),
                series: anyOf({ name: like('Cobrado (S/)') }),
              },
            },
          }),
        )
        .executeTest(async (mock) => {
          const report = await api(mock.url).report(id, {});
          expect(report.report).toBe(id);
          expect(report.columns[0]).toEqual({ key: 'amount', label: 'Cobrado', kind: 'money' });
          expect(report.rows).toEqual([{ cells: {} }]);
          expect(report.row_count).toBe(1);
          expect(report.chart?.series[0]).toEqual({ name: 'Cobrado (S/)', values: [] });
        });
    });
  }

  it('sends the filters as query parameters (Cobranza by month of one subdivision, in soles)', async () => {
    const query = { from: '2026-01-01', to: '2026-11-30', group: 'month', subdivision_id: '1', currency: 'PEN' };
    await pact
      .addInteraction()
      .given(INICIO_STATES.managerFigures, { token: STAFF_TOKEN })
      .uponReceiving('a request for the Cobranza report by month of one subdivision')
      .withRequest('GET', '/api/reports/cobranza', (b) => b.headers(bearer(STAFF_TOKEN)).query(query))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            report: like('cobranza'),
            title: like('Cobranza'),
            from: date('2026-01-01'),
            to: date('2026-11-30'),
            columns: eachLike({ key: like('key'), label: like('Mes'), kind: oneOf(REPORT_COLUMN_KINDS, 'month') }),
            rows: anyOf({ cells: like({ key: '2026-11', count: 1, amount: 100 }), currency }),
            row_count: integer(1),
          },
        }),
      )
      .executeTest(async (mock) => {
        const report = await api(mock.url).report('cobranza', {
          from: '2026-01-01',
          to: '2026-11-30',
          group: 'month',
          subdivision_id: 1,
          currency: 'PEN',
        });
        expect(report.rows[0]?.cells).toEqual({ key: '2026-11', count: 1, amount: 100 });
        expect(report.totals).toEqual([]);
        expect(report.chart).toBeNull();
      });
  });

  it('reads the filters’ options: subdivisions and agents', async () => {
    await pact
      .addInteraction()
      .given(INICIO_STATES.managerFigures, { token: STAFF_TOKEN })
      .uponReceiving('a request for the reports’ filter options')
      .withRequest('GET', '/api/reports/options', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            subdivisions: eachLike({ id: integer(1), name: like('Lotización de prueba') }),
            agents: anyOf({ id: integer(1), name: like('Prueba Colaborador') }),
          },
        }),
      )
      .executeTest(async (mock) => {
        const options = await api(mock.url).options();
        expect(options.subdivisions[0]).toEqual({ id: 1, name: 'Lotización de prueba' });
      });
  });

  for (const [format, mime] of [
    ['xlsx', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
    ['pdf', 'application/pdf'],
  ] as const)
    it(`downloads the cash-flow report as ${format}`, async () => {
      await pact
        .addInteraction()
        .given(INICIO_STATES.managerFigures, { token: STAFF_TOKEN })
        .uponReceiving(`a request for the cash-flow report as ${format}`)
        .withRequest('GET', `/api/reports/flujo-caja.${format}`, (b) => b.headers(bearer(STAFF_TOKEN)))
        .willRespondWith(200, (b) => b.headers({ 'Content-Type': mime }))
        .executeTest(async (mock) => {
          const blob = await api(mock.url).file('flujo-caja', {}, format);
          expect(blob).toBeInstanceOf(Blob);
        });
    });
});
