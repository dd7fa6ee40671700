import type { Kysely } from 'kysely';
import type { z } from 'zod';
import {
  BANK_ACCOUNT_MESSAGES,
  type BankAccount,
  type BankAccountsQuery,
  type createBankAccountRequestSchema,
  type updateBankAccountRequestSchema,
} from '../../../src/schemas/finanzas/bank-accounts';
import { cciError } from '../../../src/schemas/finanzas/banks';
import { recordChange, type AuditContext } from '../../audit/audit';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import type { Page } from '../../db/paging';
import { isUniqueViolation, toFlag } from '../../db/portable';
import { assertVersionedUpdate, nextVersion } from '../../db/versions';
import { conflict, notFound, validationError, type FieldErrors } from '../../errors';
import { findBankAccount, findBankAccountConflicts, insertBankAccount, listBankAccountsPage } from './bank-accounts.repository';

/**
 * Finanzas → Bancos (issue 16): the company's bank accounts. Every change writes its change
 * history in its transaction. Deleting is allowed while no payment names the account; DELETE of
 * a referenced one answers 409 and the account is deactivated instead (docs/decisions.md "Bank accounts and wallets").
 */

/** Parsed POST body. */
export type CreateBankAccountBody = z.output<typeof createBankAccountRequestSchema>;
/** Parsed PATCH body. */
export type UpdateBankAccountBody = z.output<typeof updateBankAccountRequestSchema>;

/** One page (GET /api/bank-accounts). */
export function listBankAccounts(db: Kysely<DB>, query: BankAccountsQuery): Promise<Page<BankAccount>> {
  return listBankAccountsPage(db, query);
}

/** One account. @throws HttpError 404. */
export async function getBankAccount(db: Kysely<DB>, id: number): Promise<BankAccount> {
  const account = await findBankAccount(db, id);
  if (!account) throw notFound();
  return account;
}

/** 422 errors of the unique keys (same bank + number, same CCI) held by another account, or null. */
async function conflictErrors(db: Kysely<DB>, fields: { bank: string; number: string; cci: string }, exceptId?: number) {
  const taken = await findBankAccountConflicts(db, fields, exceptId);
  const errors: FieldErrors = {};
  if (taken.number) errors.number = [BANK_ACCOUNT_MESSAGES.duplicateNumber];
  if (taken.cci) errors.cci = [BANK_ACCOUNT_MESSAGES.duplicateCci];
  return Object.keys(errors).length > 0 ? errors : null;
}

/** Runs `fn` in a transaction; a unique violation (a lost race) becomes the 422 it would have been. */
async function withUniqueCheck<T>(
  deps: AppDeps,
  fields: { bank: string; number: string; cci: string },
  exceptId: number | undefined,
  fn: (trx: Kysely<DB>) => Promise<T>,
): Promise<T> {
  try {
    return await deps.db.transaction().execute(fn);
  } catch (error) {
    const raced = isUniqueViolation(error) ? await conflictErrors(deps.db, fields, exceptId) : null;
    if (raced) throw validationError(raced);
    throw error;
  }
}

/**
 * Creates an account (POST /api/bank-accounts).
 * @throws HttpError 422 on `number` (same bank and number) or `cci` (same CCI) already registered.
 */
export async function createBankAccount(deps: AppDeps, audit: AuditContext, body: CreateBankAccountBody): Promise<BankAccount> {
  const errors = await conflictErrors(deps.db, body);
  if (errors) throw validationError(errors);
  const now = deps.clock.now().toISOString();
  const id = await withUniqueCheck(deps, body, undefined, async (trx) => {
    const accountId = await insertBankAccount(trx, {
      bank: body.bank,
      kind: body.kind,
      currency: body.currency,
      number: body.number,
      cci: body.cci,
      holder: body.holder,
      active: toFlag(body.active),
      created_at: now,
      updated_at: now,
    });
    await recordChange(trx, audit, {
      entity: 'bank_accounts',
      recordId: accountId,
      action: 'CREATE',
      after: await findBankAccount(trx, accountId),
    });
    return accountId;
  });
  return getBankAccount(deps.db, id);
}

/**
 * Updates an account (PATCH /api/bank-accounts/{id}); the CCI is checked against the bank of the
 * merged record. With `version`, only that version is changed.
 * @throws HttpError 404; 422 on `cci` (another bank's code) or on the unique keys; 409 when stale.
 */
export async function updateBankAccount(deps: AppDeps, audit: AuditContext, id: number, body: UpdateBankAccountBody): Promise<BankAccount> {
  const stored = await getBankAccount(deps.db, id);
  const { version, active, ...changes } = body;
  const merged = { ...stored, ...changes };
  const errors: FieldErrors = {};
  const cciProblem = cciError(merged.cci, merged.bank);
  if (cciProblem) errors.cci = [cciProblem];
  Object.assign(errors, await conflictErrors(deps.db, merged, id));
  if (Object.keys(errors).length > 0) throw validationError(errors);
  await withUniqueCheck(deps, merged, id, async (trx) => {
    const before = await findBankAccount(trx, id);
    const updated = await trx
      .updateTable('bank_accounts')
      .set({
        ...changes,
        ...(active === undefined ? {} : { active: toFlag(active) }),
        updated_at: deps.clock.now().toISOString(),
        version: nextVersion(),
      })
      .where('id', '=', id)
      .$if(version !== undefined, (q) => q.where('version', '=', version!))
      .executeTakeFirst();
    await assertVersionedUpdate(trx, 'bank_accounts', id, updated, notFound);
    await recordChange(trx, audit, {
      entity: 'bank_accounts',
      recordId: id,
      action: 'UPDATE',
      before,
      after: await findBankAccount(trx, id),
    });
  });
  return getBankAccount(deps.db, id);
}

/** Deletes an account (DELETE /api/bank-accounts/{id}). @throws HttpError 404. */
export async function deleteBankAccount(deps: AppDeps, audit: AuditContext, id: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const before = await findBankAccount(trx, id);
    if (!before) throw notFound();
    if (await trx.selectFrom('payments').select('id').where('bank_account_id', '=', id).executeTakeFirst())
      throw conflict(BANK_ACCOUNT_MESSAGES.inUse);
    await trx.deleteFrom('bank_accounts').where('id', '=', id).execute();
    await recordChange(trx, audit, { entity: 'bank_accounts', recordId: id, action: 'DELETE', before });
  });
}
