import type { Kysely } from 'kysely';
import { accrueContractSignedCommissions } from './commission-lifecycle';
import type { ContractState } from '../../../src/schemas/administracion/contracts';
import { recordChange, staffActorId, type AuditContext } from '../../audit/audit';
import { systemClock, todayInLimaBy } from '../../clock';
import type { DB } from '../../db/database';
import { nextVersion } from '../../db/versions';

/**
 * The contracts' state changes that other modules' transactions make (docs/domain.md "Contracts"):
 * a sale annulled before its contract is signed annuls the contract; a rescission resolves it; and
 * the one place a contract becomes FIRMADO ({@link contractSigned}), where later rules hook in.
 * This module imports no other business module, so comercio (sales) may call it without a cycle.
 */

/** The row as the change history keeps it (no bytes, no rendered document). */
export async function contractSnapshot(db: Kysely<DB>, id: number): Promise<Record<string, unknown>> {
  const row = await db
    .selectFrom('contracts')
    .select([
      'id',
      'company_id',
      'sale_id',
      'template_id',
      'kind',
      'number',
      'year',
      'state',
      'overrides',
      'signed_scan_content_type',
      'signed_scan_name',
      'issued_at',
      'issued_by',
      'signed_at',
      'annul_reason',
      'reschedule_id',
      'created_at',
      'updated_at',
      'version',
    ])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return row as Record<string, unknown>;
}

/**
 * Moves contract `id` from `from` to `to` inside the caller's transaction with its event and its
 * change-history row. The UPDATE is conditional on `from` (and on `version` when given), so two
 * racing moves change it once. @returns whether it moved.
 */
export async function moveContract(
  trx: Kysely<DB>,
  audit: AuditContext,
  id: number,
  move: { from: ContractState; to: ContractState; note?: string | null; version?: number; set?: Partial<Record<string, unknown>> },
): Promise<boolean> {
  const stamp = audit.clock.now().toISOString();
  const before = await contractSnapshot(trx, id);
  const result = await trx
    .updateTable('contracts')
    .set({ ...(move.set ?? {}), state: move.to, updated_at: stamp, version: nextVersion() })
    .where('id', '=', id)
    .where('state', '=', move.from)
    .$if(move.version !== undefined, (q) => q.where('version', '=', move.version ?? 0))
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return false;
  await trx
    .insertInto('contract_events')
    .values({
      contract_id: id,
      from_state: move.from,
      to_state: move.to,
      note: move.note ?? null,
      user_id: staffActorId(audit),
      created_at: stamp,
    })
    .execute();
  await recordChange(trx, audit, { entity: 'contracts', recordId: id, action: 'UPDATE', before, after: await contractSnapshot(trx, id) });
  return true;
}

/**
 * Annuls, inside the sale annulment's transaction (server/modules/comercio/sales.service.ts
 * `annulSale`), every contract of sale `saleId` not yet signed (BORRADOR or EMITIDO → ANULADO with
 * the sale's reason). A FIRMADO contract is left as it is (a signed contract is undone by
 * rescission, not by annulment). @returns how many were annulled.
 */
export async function annulContractsOfSale(trx: Kysely<DB>, audit: AuditContext, saleId: number, reason: string): Promise<number> {
  const live = await trx
    .selectFrom('contracts')
    .select(['id', 'state'])
    .where('sale_id', '=', saleId)
    .where('state', 'in', ['BORRADOR', 'EMITIDO'])
    .execute();
  let annulled = 0;
  for (const c of live) {
    const note = `Venta anulada: ${reason}`;
    if (await moveContract(trx, audit, c.id, { from: c.state as ContractState, to: 'ANULADO', note, set: { annul_reason: note } }))
      annulled += 1;
  }
  return annulled;
}

/**
 * Resolves the sale's contract inside the rescission's transaction (docs/domain.md "Rescission"):
 * its EMITIDO or FIRMADO compraventa → RESUELTO with `reason`, its event and change history, by
 * user `userId` (null: the system; `audit`, when given, is used instead — the caller's clock and IP).
 * A BORRADOR one is annulled instead (it was never issued).
 * @returns the contract's id, or null when the sale has no live compraventa contract.
 */
export async function resolveSaleContract(
  trx: Kysely<DB>,
  saleId: number,
  userId: number | null,
  reason: string,
  audit?: AuditContext,
): Promise<number | null> {
  const contract = await trx
    .selectFrom('contracts')
    .select(['id', 'state'])
    .where('sale_id', '=', saleId)
    .where('kind', 'in', ['COMPRAVENTA_CONTADO', 'COMPRAVENTA_PLAZOS'])
    .where('state', 'in', ['BORRADOR', 'EMITIDO', 'FIRMADO'])
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!contract) return null;
  const context: AuditContext = audit ?? {
    actor: userId !== null ? { userType: 'COLLABORATOR', accountId: userId } : null,
    ip: null,
    clock: systemClock,
  };
  const from = contract.state as ContractState;
  const to: ContractState = from === 'BORRADOR' ? 'ANULADO' : 'RESUELTO';
  await moveContract(trx, context, contract.id, { from, to, note: reason, ...(to === 'ANULADO' ? { set: { annul_reason: reason } } : {}) });
  return contract.id;
}

/**
 * Runs inside the transaction that made contract `contractId` FIRMADO (the signed scan's upload),
 * after the move was written: the place where rules triggered by a signed contract hook in (the
 * commissions whose trigger is "contract FIRMADO" accrue here: commission-lifecycle.ts).
 */
export async function contractSigned(trx: Kysely<DB>, audit: AuditContext, _contractId: number, saleId: number): Promise<void> {
  await accrueContractSignedCommissions(trx, saleId, todayInLimaBy(audit.clock));
}

/** The sale's latest EMITIDO or FIRMADO compraventa contract (id, number, PDF bytes), or undefined. */
export function issuedSaleContract(db: Kysely<DB>, saleId: number) {
  return db
    .selectFrom('contracts')
    .select(['id', 'number', 'pdf_data'])
    .where('sale_id', '=', saleId)
    .where('kind', 'in', ['COMPRAVENTA_CONTADO', 'COMPRAVENTA_PLAZOS'])
    .where('state', 'in', ['EMITIDO', 'FIRMADO'])
    .orderBy('id', 'desc')
    .executeTakeFirst();
}

/**
 * The customer's path of their purchase's contract PDF (GET /api/customer/purchases/{id}/contract,
 * the `contract_pdf_url` of Detalle de Compra), or null when the sale has no EMITIDO/FIRMADO
 * compraventa contract.
 */
export async function customerContractPdfUrl(db: Kysely<DB>, saleId: number): Promise<string | null> {
  const row = await db
    .selectFrom('contracts')
    .select('id')
    .where('sale_id', '=', saleId)
    .where('kind', 'in', ['COMPRAVENTA_CONTADO', 'COMPRAVENTA_PLAZOS'])
    .where('state', 'in', ['EMITIDO', 'FIRMADO'])
    .executeTakeFirst();
  return row ? `/api/customer/purchases/${saleId}/contract` : null;
}
