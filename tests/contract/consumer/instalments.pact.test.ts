/**
 * Consumer contract of Finanzas → Registro de Cuotas between `parcela-web` and `parcela-api`,
 * through the real src/api module: the list with filters and a sort, the totals of the filtered set,
 * "Condonar mora" (200 with the row after it, 422 with `errors.amount`). Every interaction starts
 * from an empty database (docs/contracts.md). The export (a file) is pinned by the server tests.
 */
import { describe, expect, it } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { createInstalmentsApi } from '../../../src/api/finanzas/instalments';
import { INSTALMENT_MESSAGES } from '../../../src/schemas/finanzas/instalments';
import { bearer, caught, httpPact, mockClient } from './pact-helpers';
import { STAFF_TOKEN, STATES } from '../states';

const { like, eachLike, integer, regex } = MatchersV3;

const pact = httpPact();
const instalments = (url: string) => createInstalmentsApi(mockClient(url, STAFF_TOKEN));
const json = { ...bearer(STAFF_TOKEN), 'Content-Type': 'application/json' };
const meta = (total: number) => ({ page: integer(1), per_page: integer(20), total: integer(total) });
const isoDate = (example: string) => regex(/^\d{4}-\d{2}-\d{2}$/, example);

/** A register row as the app reads it: instalment 1 of sale 1 (its INICIAL), overdue with a late fee owed. */
const row = (waived = 0) => ({
  id: integer(1),
  sale: { id: integer(1), number: regex(/^V-\d{6}$/, 'V-000001') },
  lot_code: like('A-1'),
  subdivision: { id: integer(1), name: like('Lotización de prueba') },
  customer: { id: integer(1), display_name: like('Cliente CRM Prueba'), document_number: like('70000001') },
  kind: regex(/^(INICIAL|CUOTA)$/, 'INICIAL'),
  number: integer(1),
  due_date: isoDate('2026-03-15'),
  currency: regex(/^(PEN|USD)$/, 'PEN'),
  amount: integer(3_000_000),
  paid: integer(0),
  balance: integer(3_000_000),
  status: regex(/^(PENDIENTE|PARCIAL|PAGADA|VENCIDA)$/, 'VENCIDA'),
  days_late: integer(250),
  late_fee_accrued: integer(125_000),
  late_fee_paid: integer(0),
  late_fee_waived: integer(waived),
  late_fee_due: integer(125_000 - waived),
  late_fee_as_of: isoDate('2026-11-27'),
});

describe('Registro de Cuotas (consumer)', () => {
  it('exports the filtered set as a CSV file', async () => {
    await pact
      .addInteraction()
      .given(STATES.overdueInstalmentExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the CSV export of the overdue instalments')
      .withRequest('GET', '/api/instalments/export', (b) =>
        b.headers(bearer(STAFF_TOKEN)).query({ sort: 'due_date', status: 'VENCIDA', format: 'csv' }),
      )
      .willRespondWith(200, (b) =>
        b.headers({
          'Content-Type': 'text/csv; charset=utf-8',
          'Content-Disposition': regex(/^attachment; filename="[^"]+\.csv"$/, 'attachment; filename="cuotas.csv"'),
        }),
      )
      .executeTest(async (mock) => {
        const file = await instalments(mock.url).exportFile(
          { page: 1, per_page: 20, sort: 'due_date', filters: { status: 'VENCIDA' } },
          'csv',
        );
        expect(file.format).toBe('csv');
        expect(file.blob.type).toMatch(/^text\/csv/);
      });
  });

  it('lists the overdue instalments over 90 days late by due date', async () => {
    await pact
      .addInteraction()
      .given(STATES.overdueInstalmentExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the overdue instalments over 90 days late sorted by due date')
      .withRequest('GET', '/api/instalments', (b) =>
        b.headers(bearer(STAFF_TOKEN)).query({ per_page: '20', sort: 'due_date', status: 'VENCIDA', days_late: 'MAS_90' }),
      )
      .willRespondWith(200, (b) => b.jsonBody({ data: eachLike(row()), meta: meta(1) }))
      .executeTest(async (mock) => {
        const page = await instalments(mock.url).list({
          page: 1,
          per_page: 20,
          sort: 'due_date',
          filters: { status: 'VENCIDA', days_late: 'MAS_90' },
        });
        expect(page.data[0]).toMatchObject({ status: 'VENCIDA', sale: { number: 'V-000001' } });
        expect(page.data[0]!.late_fee_due).toBeGreaterThan(0);
      });
  });

  it('reads the totals of the filtered set per currency', async () => {
    await pact
      .addInteraction()
      .given(STATES.overdueInstalmentExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the totals of the overdue instalments')
      .withRequest('GET', '/api/instalments/totals', (b) => b.headers(bearer(STAFF_TOKEN)).query({ status: 'VENCIDA' }))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: eachLike({
            currency: regex(/^(PEN|USD)$/, 'PEN'),
            count: integer(1),
            amount: integer(3_000_000),
            paid: integer(0),
            balance: integer(3_000_000),
            late_fee_accrued: integer(125_000),
            late_fee_paid: integer(0),
            late_fee_waived: integer(0),
            late_fee_due: integer(125_000),
          }),
        }),
      )
      .executeTest(async (mock) => {
        const totals = await instalments(mock.url).totals({ page: 1, per_page: 20, sort: 'due_date', filters: { status: 'VENCIDA' } });
        expect(totals[0]).toMatchObject({ currency: 'PEN', count: 1 });
      });
  });

  it('waives part of a late fee with a reason and reads the row after it', async () => {
    await pact
      .addInteraction()
      .given(STATES.overdueInstalmentExists, { token: STAFF_TOKEN })
      .uponReceiving('a waiver of S/ 1.00 of the late fee of instalment 1')
      .withRequest('POST', '/api/instalments/1/waive-late-fee', (b) =>
        b.headers(json).jsonBody({ amount: 100, reason: 'Acuerdo con el cliente' }),
      )
      .willRespondWith(200, (b) => b.jsonBody({ data: row(100) }))
      .executeTest(async (mock) => {
        const after = await instalments(mock.url).waive(1, { amount: 100, reason: 'Acuerdo con el cliente' });
        expect(after.late_fee_waived).toBe(100);
      });
  });

  it('refuses to waive more than the late fee owed (422 on amount)', async () => {
    await pact
      .addInteraction()
      .given(STATES.overdueInstalmentExists, { token: STAFF_TOKEN })
      .uponReceiving('a waiver larger than the late fee owed')
      .withRequest('POST', '/api/instalments/1/waive-late-fee', (b) =>
        b.headers(json).jsonBody({ amount: 1_000_000_000, reason: 'Condonar todo' }),
      )
      .willRespondWith(422, (b) =>
        b.jsonBody({ message: like('Los datos no son válidos'), errors: { amount: eachLike(like(INSTALMENT_MESSAGES.exceedsOwed)) } }),
      )
      .executeTest(async (mock) => {
        const error = await caught(instalments(mock.url).waive(1, { amount: 1_000_000_000, reason: 'Condonar todo' }));
        expect(error.status).toBe(422);
        expect(error.issues.amount).toEqual([INSTALMENT_MESSAGES.exceedsOwed]);
      });
  });
});
