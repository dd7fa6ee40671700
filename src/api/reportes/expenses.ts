import type { ApiClient } from '../client';
import { request, toApiError } from '../client';
import { listParams } from '../list-params';
import type { ListQuery } from '../../schemas/list';
import {
  expenseResponseSchema,
  expensesPageSchema,
  type CreateExpenseRequest,
  type Expense,
  type UpdateExpenseRequest,
} from '../../schemas/reportes/expenses';

/**
 * Reportes económicos → Egresos, the expenses register (staff base, 'Acceso módulo reportes
 * económicos'; contract in src/schemas/reportes/expenses.ts). Money in integer céntimos of the
 * subdivision's currency, dates ISO `YYYY-MM-DD`. Every function throws
 * {@link import('../client').ApiError} on failure: 422 carries field errors (a future date, another
 * currency, an unknown subdivision), 409 a stale `version`.
 */
export function createExpensesApi(client: ApiClient) {
  const one = async (run: () => Promise<unknown>): Promise<Expense> => (await request(expenseResponseSchema, run)).data;
  return {
    /** GET expenses: filters `from`, `to` (expense dates, both included), `subdivision_id`, `currency`; `q` (concept, voucher); sort expense_date|amount|id (default newest first). */
    list: (query: ListQuery) => request(expensesPageSchema, () => client.main('expenses', { query: listParams(query) })),
    /** GET expenses/{id}. */
    get: (id: number) => one(() => client.main(`expenses/${id}`)),
    /** POST expenses → 201 `{data}`; `amount` in céntimos, `currency` the subdivision's. */
    create: (body: CreateExpenseRequest) => one(() => client.main('expenses', { method: 'POST', body })),
    /** PUT expenses/{id}: every field again plus the `version` read (stale → 409). */
    update: (id: number, body: UpdateExpenseRequest) => one(() => client.main(`expenses/${id}`, { method: 'PUT', body })),
    /** DELETE expenses/{id}?version=N → 204 (stale `version` → 409). */
    remove: async (id: number, version: number): Promise<void> => {
      try {
        await client.main(`expenses/${id}`, { method: 'DELETE', query: { version: String(version) } });
      } catch (e) {
        throw toApiError(e);
      }
    },
  };
}
export type ExpensesApi = ReturnType<typeof createExpensesApi>;
