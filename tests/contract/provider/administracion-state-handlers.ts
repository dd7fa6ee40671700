import type { Kysely } from 'kysely';
import type { DB } from '../../../server/db/database';
import { newTitleProcessRow } from '../../../server/modules/administracion/titles.service';
import { ensureCompany } from '../../../server/testing/fixtures';
import { SALE_DATE, STATES } from '../states';

/** The stored acta de entrega of titleDeliveryRecordExists (a PDF header is what the server sniffs). */
const DELIVERY_PDF = Buffer.from('%PDF-1.4\n%%EOF\n', 'latin1');

/** What the Administración handlers need from the verification harness. */
export interface AdministracionStateDeps {
  db: () => Kysely<DB>;
  /** STATES.saleExists's handler (sale 1 of lot 1 to the CRM customer, STAFF signed in). */
  saleExists: (params?: unknown) => Promise<void>;
  /** STATES.customerPurchaseExists's handler (sale 1 held by CUSTOMER, signed in). */
  customerPurchaseExists?: (params?: unknown) => Promise<void>;
}

/** The contract states' template document: text and the lot's number (resolved for every sale). */
export const PACT_TEMPLATE_DOC = {
  type: 'doc',
  content: [
    {
      type: 'paragraph',
      content: [
        { type: 'text', text: 'Compraventa del lote ' },
        { type: 'variable', attrs: { key: 'lote.numero' } },
      ],
    },
  ],
};
/** A minimal PDF: the stored contract and its signed scan in the contract states. */
export const PACT_PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n', 'latin1');

/** Template 1 (PUBLICADA, COMPRAVENTA_CONTADO) of sale 1's subdivision. */
async function publishedTemplateOfSale1(db: Kysely<DB>): Promise<void> {
  // Contracts are numbered per company: the installation's company must exist.
  await ensureCompany(db);
  const stamp = `${SALE_DATE}T17:00:00.000Z`;
  const { subdivision_id } = await db.selectFrom('sales').select('subdivision_id').where('id', '=', 1).executeTakeFirstOrThrow();
  await db
    .insertInto('contract_templates')
    .values({
      subdivision_id,
      kind: 'COMPRAVENTA_CONTADO',
      name: 'Compraventa al contado',
      version_number: 1,
      state: 'PUBLICADA',
      content: JSON.stringify(PACT_TEMPLATE_DOC),
      published_at: stamp,
      published_by: null,
      created_by: null,
      created_at: stamp,
      updated_at: stamp,
    })
    .execute();
}

/** Contract 1 of sale 1 from template 1 in `state` (issued ones numbered C-2026-000001 with {@link PACT_PDF} stored). */
async function contractOfSale1(db: Kysely<DB>, state: 'BORRADOR' | 'EMITIDO' | 'FIRMADO'): Promise<void> {
  const stamp = `${SALE_DATE}T17:00:00.000Z`;
  const company = await db.selectFrom('companies').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow();
  const issued = state !== 'BORRADOR';
  await db
    .insertInto('contracts')
    .values({
      company_id: company.id,
      sale_id: 1,
      template_id: 1,
      kind: 'COMPRAVENTA_CONTADO',
      state,
      number: issued ? 'C-2026-000001' : null,
      year: issued ? 2026 : null,
      rendered_doc: issued ? JSON.stringify(PACT_TEMPLATE_DOC) : null,
      rendered_values: issued ? '{}' : null,
      pdf_data: issued ? PACT_PDF : null,
      issued_at: issued ? stamp : null,
      signed_scan_data: state === 'FIRMADO' ? PACT_PDF : null,
      signed_scan_content_type: state === 'FIRMADO' ? 'application/pdf' : null,
      signed_scan_name: state === 'FIRMADO' ? 'C-2026-000001-firmado.pdf' : null,
      signed_at: state === 'FIRMADO' ? stamp : null,
      created_by: null,
      created_at: stamp,
      updated_at: stamp,
      version: state === 'BORRADOR' ? 1 : state === 'EMITIDO' ? 2 : 3,
    })
    .execute();
  if (issued) await db.insertInto('contract_counters').values({ company_id: company.id, year: 2026, last_number: 1 }).execute();
  await db
    .insertInto('contract_events')
    .values({ contract_id: 1, from_state: null, to_state: 'BORRADOR', note: null, user_id: null, created_at: stamp })
    .execute();
}

/** The provider states of Administración → Registros de partidas y títulos and contracts (tests/contract/states.ts). */
export function administracionStateHandlers(d: AdministracionStateDeps): Record<string, (params?: unknown) => Promise<void>> {
  const inscribed = async (params?: unknown) => {
    await handlers[STATES.titleProcessExists]!(params);
    await d
      .db()
      .updateTable('title_processes')
      .set({
        state: 'INSCRITO',
        minuta_signed_on: SALE_DATE,
        notary: 'Notaría Paino',
        escritura_number: '4521',
        escritura_date: SALE_DATE,
        titulo_number: '2026-01234567',
        presented_on: SALE_DATE,
        partida: '11223344',
        asiento: 'C00002',
        inscribed_on: SALE_DATE,
      })
      .where('id', '=', 1)
      .execute();
  };
  const handlers: Record<string, (params?: unknown) => Promise<void>> = {
    [STATES.titleProcessInscribed]: inscribed,
    [STATES.titleDeliveryRecordExists]: async (params) => {
      await inscribed(params);
      await d
        .db()
        .insertInto('title_delivery_records')
        .values({
          process_id: 1,
          content_type: 'application/pdf',
          size: DELIVERY_PDF.length,
          uploaded_by: null,
          created_at: `${SALE_DATE}T17:00:00.000Z`,
          data: DELIVERY_PDF,
        })
        .execute();
    },
    [STATES.contractTemplatePublished]: async (params) => {
      await d.saleExists(params);
      await publishedTemplateOfSale1(d.db());
    },
    [STATES.contractDraftExists]: async (params) => {
      await d.saleExists(params);
      await publishedTemplateOfSale1(d.db());
      await contractOfSale1(d.db(), 'BORRADOR');
    },
    [STATES.contractIssuedExists]: async (params) => {
      await d.saleExists(params);
      await publishedTemplateOfSale1(d.db());
      await contractOfSale1(d.db(), 'EMITIDO');
    },
    [STATES.contractSignedExists]: async (params) => {
      await d.saleExists(params);
      await publishedTemplateOfSale1(d.db());
      await contractOfSale1(d.db(), 'FIRMADO');
    },
    [STATES.customerContractIssued]: async (params) => {
      if (!d.customerPurchaseExists) throw new Error('customerContractIssued needs the customerPurchaseExists handler');
      await d.customerPurchaseExists(params);
      await publishedTemplateOfSale1(d.db());
      await contractOfSale1(d.db(), 'EMITIDO');
    },
    [STATES.titleProcessExists]: async (params) => {
      await d.saleExists(params);
      await d.db().updateTable('sales').set({ status: 'CANCELADA' }).where('id', '=', 1).execute();
      const stamp = `${SALE_DATE}T17:00:00.000Z`;
      await d
        .db()
        .insertInto('title_processes')
        .values(newTitleProcessRow({ saleId: 1, stateSince: SALE_DATE, stamp, createdBy: null }))
        .execute();
      await d
        .db()
        .insertInto('title_events')
        .values({
          process_id: 1,
          from_state: null,
          to_state: 'PENDIENTE',
          date: SALE_DATE,
          details: '{}',
          note: null,
          user_id: null,
          created_at: stamp,
        })
        .execute();
    },
  };
  return handlers;
}
