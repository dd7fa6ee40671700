import type { Kysely } from 'kysely';
import { SALE_DOCUMENT_MESSAGES } from '../../../src/schemas/comercio/rescissions';
import type { AuditContext } from '../../audit/audit';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import { HttpError } from '../../errors';
import { latestPublishedTemplate } from './contract-templates.repository';
import { contractPdf, createContract, issueContract } from './contracts.service';
import { liveSaleDocuments } from './sale-document-links';

/**
 * The documents a sale's legal events generate (docs/domain.md "Rescission and rescheduling: their
 * documents"): the notarial letter of resolution (CARTA_RESOLUCION, Código Civil art. 1429) after a
 * rescission, and the ADENDA after a rescheduling — each a contract of the register (Generar
 * Contrato, Registro de Contratos) made from the subdivision's latest PUBLICADA template of its
 * kind and issued at once, numbered as every contract, its PDF made on the documents' worker pool.
 *
 * They are made **after** the event's transaction commits, in the contracts module's own short
 * transactions (the PDF is rendered outside any transaction, server/modules/administracion/
 * contracts.service.ts `issueContract`): the event never waits for a PDF and never fails for its
 * document. Without a published template nothing is made; with data missing the contract stays
 * BORRADOR; either way the sale's answers carry a Spanish notice and the document can be made
 * later from Generar Contrato.
 */

type Deps = Pick<AppDeps, 'db' | 'clock' | 'documents'>;
type SaleDocumentKind = 'CARTA_RESOLUCION' | 'ADENDA';

/** What became of a generation: the contract made (issued or left BORRADOR), or none (no published template, or one already live). */
export interface SaleDocumentOutcome {
  contractId: number | null;
  issued: boolean;
}

/**
 * Makes and issues sale `saleId`'s `kind` document from its subdivision's latest PUBLICADA template
 * of that kind (an ADENDA for rescheduling `rescheduleId`). Never throws for the document's sake:
 * no template → nothing made; a live document of the kind already (409) → left as it is; values
 * missing (422) or the documents' pool busy (503) → the contract stays BORRADOR for Generar Contrato.
 * @throws only unexpected errors (a database failure).
 */
export async function generateSaleDocument(
  deps: Deps,
  audit: AuditContext,
  saleId: number,
  kind: SaleDocumentKind,
  rescheduleId?: number,
): Promise<SaleDocumentOutcome> {
  const sale = await deps.db.selectFrom('sales').select('subdivision_id').where('id', '=', saleId).executeTakeFirst();
  if (!sale) return { contractId: null, issued: false };
  const template = await latestPublishedTemplate(deps.db, sale.subdivision_id, kind);
  if (!template) return { contractId: null, issued: false };
  let contract: { id: number; version?: number };
  try {
    contract = await createContract(
      deps,
      audit,
      { sale_id: saleId, template_id: template.id },
      rescheduleId !== undefined ? { rescheduleId } : {},
    );
  } catch (error) {
    if (error instanceof HttpError) return { contractId: null, issued: false };
    throw error;
  }
  try {
    await issueContract(deps, audit, contract.id, { version: contract.version ?? 1 });
    return { contractId: contract.id, issued: true };
  } catch (error) {
    if (error instanceof HttpError) return { contractId: contract.id, issued: false };
    throw error;
  }
}

/**
 * GET /api/sales/{id}/rescission/letter: the issued letter's stored PDF.
 * @throws HttpError 404 (Spanish) while the sale has no issued letter.
 */
export async function saleLetterPdf(db: Kysely<DB>, saleId: number): Promise<{ fileName: string; bytes: Buffer }> {
  const letter = (await liveSaleDocuments(db, saleId)).find((r) => r.kind === 'CARTA_RESOLUCION' && r.number !== null);
  if (!letter) throw new HttpError(404, SALE_DOCUMENT_MESSAGES.letterNotIssued);
  return contractPdf(db, letter.id);
}

/**
 * GET /api/sales/{id}/reschedules/{rescheduleId}/adenda: that rescheduling's issued ADENDA PDF.
 * @throws HttpError 404 (Spanish) while it has none issued (or the rescheduling is another sale's).
 */
export async function saleAdendaPdf(db: Kysely<DB>, saleId: number, rescheduleId: number): Promise<{ fileName: string; bytes: Buffer }> {
  const adenda = (await liveSaleDocuments(db, saleId)).find(
    (r) => r.kind === 'ADENDA' && r.reschedule_id === rescheduleId && r.number !== null,
  );
  if (!adenda) throw new HttpError(404, SALE_DOCUMENT_MESSAGES.adendaNotIssued);
  return contractPdf(db, adenda.id);
}
