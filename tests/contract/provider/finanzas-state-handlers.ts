import type { Kysely } from 'kysely';
import type { DB } from '../../../server/db/database';
import { createBankAccount, createSession, createSubdivision, createWallet, type StaffFixture } from '../../../server/testing/fixtures';
import { BANK_ACCOUNT, EXPENSE, STATES, WALLET } from '../states';

/** A 1×1 PNG, the QR of STATES.walletExists. */
const QR_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** What the Finanzas handlers need from the verification harness. */
export interface FinanzasStateDeps {
  /** The fresh database of the interaction. */
  db: () => Kysely<DB>;
  /** Creates STAFF (Administrador, with the company) and returns it. */
  staff: () => Promise<StaffFixture>;
  /** The state's `token` parameter (throws when missing). */
  tokenParam: (params: unknown) => string;
}

/** The provider states of Finanzas → Bancos and Billetera Digital, and of Reportes económicos → Egresos (tests/contract/states.ts). */
export function finanzasStateHandlers(deps: FinanzasStateDeps): Record<string, (params?: unknown) => Promise<void>> {
  return {
    [STATES.bankAccountExists]: async (params) => {
      await createSession(deps.db(), await deps.staff(), { token: deps.tokenParam(params) });
      await createBankAccount(deps.db(), { ...BANK_ACCOUNT });
    },
    [STATES.walletExists]: async (params) => {
      await createSession(deps.db(), await deps.staff(), { token: deps.tokenParam(params) });
      await createWallet(deps.db(), { ...WALLET, qr: { contentType: 'image/png', data: QR_PNG } });
    },
    [STATES.expenseExists]: async (params) => {
      const staff = await deps.staff();
      await createSession(deps.db(), staff, { token: deps.tokenParam(params) });
      const subdivision = await createSubdivision(deps.db(), { currency: 'PEN' });
      const now = new Date().toISOString();
      await deps
        .db()
        .insertInto('expenses')
        .values({ ...EXPENSE, subdivision_id: subdivision.id, created_by: staff.id, created_at: now, updated_at: now })
        .execute();
    },
  };
}
