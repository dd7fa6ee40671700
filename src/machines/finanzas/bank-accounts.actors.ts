import type { ApiClient, ApiError } from '../../api/client';
import { createBankAccountsApi, type BankAccountsApi } from '../../api/finanzas/bank-accounts';
import type { AppToaster } from '../../lib/toaster';
import type { BankAccount, CreateBankAccountRequest, UpdateBankAccountRequest } from '../../schemas/finanzas/bank-accounts';
import { cciError, digitsOnly } from '../../schemas/finanzas/banks';
import { resourceScreenMachines } from '../shared/resource-screen';
import type { EditorValues } from '../shared/resource-editor.machine';

/**
 * Finanzas → Bancos (issue 16, first slice): the CRUD pattern's list and editor over the bank
 * accounts api (save = POST or PATCH with the version read; remove = DELETE; "Recargar" after a
 * stale edit = GET one). Deactivating is the editor's "Activa" checkbox (PATCH `active`).
 */

export interface BankAccountsMachinesDeps {
  bankAccountsApi: BankAccountsApi;
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
}

/** The Bancos screen's machines, provided. */
export function createBankAccountsMachines(deps: BankAccountsMachinesDeps) {
  const api = deps.bankAccountsApi;
  return resourceScreenMachines<BankAccount, CreateBankAccountRequest, UpdateBankAccountRequest>({
    fetchPage: api.list,
    save: (input) => (input.mode === 'edit' ? api.update(input.record.id, input.body) : api.create(input.body)),
    remove: (record) => api.remove(record.id),
    fetchOne: (record) => api.get(record.id),
    reportApiError: deps.reportApiError,
    toaster: deps.toaster,
  });
}
export type BankAccountsMachines = ReturnType<typeof createBankAccountsMachines>;

/** Builds the api module on the app's client (this module is loaded on demand with the screen). */
export function createBankAccountsMachinesFor(client: ApiClient, deps: Omit<BankAccountsMachinesDeps, 'bankAccountsApi'>) {
  return createBankAccountsMachines({ ...deps, bankAccountsApi: createBankAccountsApi(client) });
}

/**
 * Selector of the editor's values: what is wrong with the CCI typed so far for the chosen bank
 * (length, the bank's entity code, the check digits; src/schemas/finanzas/banks.ts), or null while
 * it is empty or right. The form shows it as the field's hint while typing; the same rule refuses
 * the save.
 */
export function cciHint(values: EditorValues): string | null {
  const cci = typeof values.cci === 'string' ? values.cci : '';
  if (digitsOnly(cci) === '') return null;
  return cciError(cci, typeof values.bank === 'string' && values.bank !== '' ? values.bank : undefined);
}
