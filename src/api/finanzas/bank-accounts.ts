import type { ApiClient } from '../client';
import { request, toApiError } from '../client';
import { listParams } from '../list-params';
import type { ListQuery } from '../../schemas/list';
import {
  bankAccountResponseSchema,
  bankAccountsPageSchema,
  type BankAccount,
  type CreateBankAccountRequest,
  type UpdateBankAccountRequest,
} from '../../schemas/finanzas/bank-accounts';

/**
 * Finanzas → Bancos (staff base, 'Acceso módulo finanzas' + 'Acceso submódulo bancos'; contract in
 * src/schemas/finanzas/bank-accounts.ts). Every function throws {@link import('../client').ApiError}
 * on failure: 422 carries field errors (the CCI's, a repeated number or CCI), 409 a stale edit.
 */
export function createBankAccountsApi(client: ApiClient) {
  const one = async (run: () => Promise<unknown>): Promise<BankAccount> => (await request(bankAccountResponseSchema, run)).data;
  return {
    /** GET bank-accounts: `q` (holder, number, CCI), filters `bank`, `kind`, `currency`, `active`; sort bank|holder|currency|kind. */
    list: (query: ListQuery) => request(bankAccountsPageSchema, () => client.main('bank-accounts', { query: listParams(query) })),
    /** GET bank-accounts/{id}. */
    get: (id: number) => one(() => client.main(`bank-accounts/${id}`)),
    /** POST bank-accounts → 201 `{data}`. */
    create: (body: CreateBankAccountRequest) => one(() => client.main('bank-accounts', { method: 'POST', body })),
    /** PATCH bank-accounts/{id} (any subset, with the `version` read). */
    update: (id: number, body: UpdateBankAccountRequest) => one(() => client.main(`bank-accounts/${id}`, { method: 'PATCH', body })),
    /** DELETE bank-accounts/{id} → 204. */
    remove: async (id: number): Promise<void> => {
      try {
        await client.main(`bank-accounts/${id}`, { method: 'DELETE' });
      } catch (e) {
        throw toApiError(e);
      }
    },
  };
}
export type BankAccountsApi = ReturnType<typeof createBankAccountsApi>;
