import type { Kysely } from 'kysely';
import { SALE_DOCUMENT_MESSAGES, type SaleDocumentLink } from '../../../src/schemas/comercio/rescissions';
import type { DB } from '../../db/database';

/**
 * How a sale's answers name the documents its legal events generated (docs/domain.md "Rescission
 * and rescheduling: their documents"; made by ./sale-documents.ts): the letter of resolution and
 * each adenda with their contract, number, state, download path and, while not issued, a Spanish
 * notice. Reads only: imports no business module, so comercio's services may call it without a cycle.
 */

/** The PDF paths of the documents on the main base (Ventas' access, the sale's scope). */
export const saleLetterPath = (saleId: number) => `/api/sales/${saleId}/rescission/letter`;
export const saleAdendaPath = (saleId: number, rescheduleId: number) => `/api/sales/${saleId}/reschedules/${rescheduleId}/adenda`;

/** A sale's documents as its answers carry them. */
export interface SaleDocuments {
  /** The letter of resolution, or null. */
  letter: SaleDocumentLink | null;
  /** Its notice while not issued (for a RESUELTA sale). */
  letterPending: string;
  /** The ADENDA of each rescheduling (`sale_reschedules.id`). */
  adendas: Map<number, SaleDocumentLink>;
}

/** The live (not ANULADO) CARTA_RESOLUCION and ADENDA contracts of sale `saleId`, newest first. */
export function liveSaleDocuments(db: Kysely<DB>, saleId: number) {
  return db
    .selectFrom('contracts')
    .select(['id', 'kind', 'number', 'state', 'reschedule_id', 'issued_at'])
    .where('sale_id', '=', saleId)
    .where('kind', 'in', ['CARTA_RESOLUCION', 'ADENDA'])
    .where('state', '<>', 'ANULADO')
    .orderBy('id', 'desc')
    .execute();
}

/** Sale `saleId`'s letter of resolution and adendas (their contract, number, state and download path). */
export async function saleDocuments(db: Kysely<DB>, saleId: number): Promise<SaleDocuments> {
  const rows = await liveSaleDocuments(db, saleId);
  const link = (r: (typeof rows)[number], path: string): SaleDocumentLink => ({
    contract_id: r.id,
    number: r.number,
    state: r.state,
    download_path: r.number !== null && r.issued_at !== null ? path : null,
  });
  const letterRow = rows.find((r) => r.kind === 'CARTA_RESOLUCION');
  const letter = letterRow ? link(letterRow, saleLetterPath(saleId)) : null;
  const adendas = new Map<number, SaleDocumentLink>();
  for (const r of rows)
    if (r.kind === 'ADENDA' && r.reschedule_id !== null && !adendas.has(r.reschedule_id))
      adendas.set(r.reschedule_id, link(r, saleAdendaPath(saleId, r.reschedule_id)));
  return {
    letter,
    letterPending: letter === null ? SALE_DOCUMENT_MESSAGES.letterPending : SALE_DOCUMENT_MESSAGES.letterDraft,
    adendas,
  };
}

/** The notice of an adenda's document while not issued, or null once it is. */
export function adendaPending(link: SaleDocumentLink | null | undefined): string | null {
  if (link?.download_path) return null;
  return link ? SALE_DOCUMENT_MESSAGES.adendaDraft : SALE_DOCUMENT_MESSAGES.adendaPending;
}

/** The notice of a letter while not issued, or null once it is. */
export function letterPending(docs: SaleDocuments): string | null {
  return docs.letter?.download_path ? null : docs.letterPending;
}

/** The ADENDA document of each rescheduling of sale `saleId` (`sale_reschedules.id` → its link). */
export async function saleAdendas(db: Kysely<DB>, saleId: number): Promise<Map<number, SaleDocumentLink>> {
  return (await saleDocuments(db, saleId)).adendas;
}
