/**
 * Consumer contract of Reportes económicos → Egresos, the expenses register, between `parcela-web`
 * and `parcela-api`, through the real src/api/reportes/expenses.ts: the list filtered by
 * subdivision and period, create 201 (céntimos, the subdivision's currency) and its 422 under the
 * field, update with the version read (PUT, every field), a stale update 409, delete 204 with
 * `?version=`. Every interaction starts from an empty database (docs/contracts.md).
 */
import { describe, expect, it } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { createExpensesApi } from '../../../src/api/reportes/expenses';
import { EXPENSE_MESSAGES } from '../../../src/schemas/reportes/expenses';
import { STALE_RECORD_MESSAGE } from '../../../src/schemas/versions';
import { bearer, caught, httpPact, mockClient } from './pact-helpers';
import { EXPENSE, STAFF_TOKEN, STATES } from '../states';

const { like, eachLike, integer, regex } = MatchersV3;

const pact = httpPact();
const expenses = (url: string) => createExpensesApi(mockClient(url, STAFF_TOKEN));
const json = { ...bearer(STAFF_TOKEN), 'Content-Type': 'application/json' };
const meta = (total: number) => ({ page: integer(1), per_page: integer(20), total: integer(total) });
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** An expense as the app reads it (src/schemas/reportes/expenses.ts): céntimos, an ISO date, the version. */
const expense = (e: { expense_date: string; concept: string; amount: number; currency: string; voucher: string }, version = 1) => ({
  id: integer(1),
  subdivision: { id: integer(1), name: like('Lotización de prueba 1') },
  expense_date: regex(/^\d{4}-\d{2}-\d{2}$/, e.expense_date),
  concept: like(e.concept),
  amount: integer(e.amount),
  currency: regex(/^(PEN|USD)$/, e.currency),
  voucher: like(e.voucher),
  created_by: like('Staff de prueba'),
  created_at: regex(ISO_INSTANT, '2026-11-05T15:00:00.000Z'),
  updated_at: regex(ISO_INSTANT, '2026-11-05T15:00:00.000Z'),
  version: integer(version),
});

/** The body of a new expense, or of an edit without its version. */
const body = {
  subdivision_id: 1,
  expense_date: '2025-06-20',
  concept: 'Postes de alumbrado',
  amount: 480_000,
  currency: 'PEN' as const,
  voucher: 'F001-000200',
};

describe('Egresos (consumer)', () => {
  it('lists the expenses of a subdivision in a period', async () => {
    await pact
      .addInteraction()
      .given(STATES.expenseExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the expenses of subdivision 1 in June 2025')
      .withRequest('GET', '/api/expenses', (b) =>
        b.headers(bearer(STAFF_TOKEN)).query({ per_page: '20', from: '2025-06-01', subdivision_id: '1', to: '2025-06-30' }),
      )
      .willRespondWith(200, (b) => b.jsonBody({ data: eachLike(expense(EXPENSE)), meta: meta(1) }))
      .executeTest(async (mock) => {
        const page = await expenses(mock.url).list({
          page: 1,
          per_page: 20,
          filters: { from: '2025-06-01', to: '2025-06-30', subdivision_id: '1' },
        });
        expect(page.data[0]?.amount).toBe(EXPENSE.amount);
        expect(page.data[0]?.subdivision.id).toBe(1);
      });
  });

  it('registers an expense (201)', async () => {
    await pact
      .addInteraction()
      .given(STATES.expenseExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to register an expense')
      .withRequest('POST', '/api/expenses', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(201, (b) => b.jsonBody({ data: { ...expense(body), id: integer(2) } }))
      .executeTest(async (mock) => {
        const created = await expenses(mock.url).create(body);
        expect(created.amount).toBe(480_000);
        expect(created.currency).toBe('PEN');
      });
  });

  it('refuses an expense in another currency than its subdivision’s (422 errors.currency)', async () => {
    const usd = { ...body, currency: 'USD' as const };
    await pact
      .addInteraction()
      .given(STATES.expenseExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to register an expense in another currency than its subdivision’s')
      .withRequest('POST', '/api/expenses', (b) => b.headers(json).jsonBody(usd))
      .willRespondWith(422, (b) =>
        b.jsonBody({ message: like('Los datos no son válidos'), errors: { currency: eachLike(like(EXPENSE_MESSAGES.currencyMismatch)) } }),
      )
      .executeTest(async (mock) => {
        const error = await caught(expenses(mock.url).create(usd));
        expect(error.status).toBe(422);
        expect(error.issues.currency?.[0]).toBe(EXPENSE_MESSAGES.currencyMismatch);
      });
  });

  it('edits an expense with the version read (PUT, every field)', async () => {
    const edit = { ...body, concept: 'Movimiento de tierras, etapa 2', version: 1 };
    await pact
      .addInteraction()
      .given(STATES.expenseExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to edit an expense')
      .withRequest('PUT', '/api/expenses/1', (b) => b.headers(json).jsonBody(edit))
      .willRespondWith(200, (b) => b.jsonBody({ data: expense(edit, 2) }))
      .executeTest(async (mock) => {
        const updated = await expenses(mock.url).update(1, edit);
        expect(updated.concept).toBe(edit.concept);
        expect(updated.version).toBe(2);
      });
  });

  it('refuses an edit of an expense another user changed since (409)', async () => {
    const edit = { ...body, version: 1 };
    await pact
      .addInteraction()
      .given(STATES.expenseExists, { token: STAFF_TOKEN })
      .given(STATES.recordChangedByAnother, { entity: 'expenses', id: 1 })
      .uponReceiving('a request to edit an expense with a stale version')
      .withRequest('PUT', '/api/expenses/1', (b) => b.headers(json).jsonBody(edit))
      .willRespondWith(409, (b) =>
        b.jsonBody({ message: like(STALE_RECORD_MESSAGE), errors: { version: eachLike(like(STALE_RECORD_MESSAGE)) } }),
      )
      .executeTest(async (mock) => {
        const error = await caught(expenses(mock.url).update(1, edit));
        expect(error.status).toBe(409);
        expect(error.issues.version?.[0]).toBe(STALE_RECORD_MESSAGE);
      });
  });

  it('deletes an expense with the version read (204)', async () => {
    await pact
      .addInteraction()
      .given(STATES.expenseExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to delete an expense')
      .withRequest('DELETE', '/api/expenses/1', (b) => b.headers(bearer(STAFF_TOKEN)).query({ version: '1' }))
      .willRespondWith(204)
      .executeTest(async (mock) => {
        await expect(expenses(mock.url).remove(1, 1)).resolves.toBeUndefined();
      });
  });
});
