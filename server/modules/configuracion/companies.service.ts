import type { Kysely } from 'kysely';
import type { Company, UpdateCompanyRequest } from '../../../src/schemas/configuracion/company';
import { recordChange, type AuditContext } from '../../audit/audit';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import { fromFlag, isUniqueViolation, toFlag } from '../../db/portable';
import { fieldError, notFound } from '../../errors';
import { assertVersionedUpdate, nextVersion } from '../../db/versions';
import type { PdfIssuer } from '../../platform/pdf';
import { sizeWithin } from '../../platform/image-type';
import { asBuffer } from '../../worker-tasks';
import { findMainCompanyId, findPdfIssuerRow } from './companies.repository';
import { detectLogoType, LOGO_MESSAGES, LOGO_PIXEL_LIMITS, LOGO_SVG_TIMEOUT_MS, logoPdfCopy, logoSize } from './logo';

/** Configuración → Empresas: the installation's company and its logo. */

/** Spanish messages of the company form. */
export const COMPANY_MESSAGES = {
  duplicateRuc: 'El RUC ya está registrado',
} as const;

/** Public path of the logo (public base). */
export const LOGO_PATH = '/logo';

/** The company's columns without the logo bytes (the change-history snapshot). */
async function snapshot(db: Kysely<DB>, id: number) {
  return db
    .selectFrom('companies')
    .select([
      'id',
      'business_name',
      'ruc',
      'address',
      'phone',
      'email',
      'legal_representative',
      'sale_backdate_days',
      'payment_approval_segregation',
      'legal_representative_dni',
      'legal_representative_power_entry',
      'contract_place',
      'contract_signature_days',
      'logo_content_type',
      'logo_updated_at',
      'subscription_active',
      'version',
    ])
    .where('id', '=', id)
    .executeTakeFirst();
}

/** The company id, @throws HttpError 404 when the installation has none yet. */
async function companyId(db: Kysely<DB>): Promise<number> {
  const id = await findMainCompanyId(db);
  if (id === undefined) throw notFound();
  return id;
}

/** The company as the API answers it. @throws HttpError 404. */
export async function getCompany(db: Kysely<DB>): Promise<Company> {
  const row = await snapshot(db, await companyId(db));
  if (!row) throw notFound();
  return {
    id: row.id,
    business_name: row.business_name,
    ruc: row.ruc,
    address: row.address,
    phone: row.phone,
    email: row.email,
    legal_representative: row.legal_representative,
    sale_backdate_days: Number(row.sale_backdate_days),
    payment_approval_segregation: fromFlag(row.payment_approval_segregation),
    legal_representative_dni: row.legal_representative_dni,
    legal_representative_power_entry: row.legal_representative_power_entry,
    contract_place: row.contract_place,
    contract_signature_days: Number(row.contract_signature_days),
    logo_url: row.logo_updated_at ? `${LOGO_PATH}?v=${new Date(row.logo_updated_at).getTime()}` : null,
    version: row.version,
  };
}

/**
 * Updates the company (PATCH /api/company); with `version`, only that version of it
 * (server/db/versions.ts).
 * @throws HttpError 404; 422 on a RUC another company has; 409 when the company changed since
 *   `version` (STALE_RECORD_MESSAGE, nothing stored).
 */
export async function updateCompany(deps: AppDeps, audit: AuditContext, request: UpdateCompanyRequest): Promise<Company> {
  const id = await companyId(deps.db);
  const { version, payment_approval_segregation: segregation, ...body } = request;
  const values = {
    ...body,
    email: body.email === undefined || body.email === null ? body.email : body.email.trim().toLowerCase(),
    ...(segregation === undefined ? {} : { payment_approval_segregation: toFlag(segregation) }),
  };
  if (body.ruc !== undefined) {
    const other = await deps.db.selectFrom('companies').select('id').where('ruc', '=', body.ruc).where('id', '<>', id).executeTakeFirst();
    if (other) throw fieldError('ruc', COMPANY_MESSAGES.duplicateRuc);
  }
  try {
    await deps.db.transaction().execute(async (trx) => {
      const before = await snapshot(trx, id);
      const updated = await trx
        .updateTable('companies')
        .set({ ...values, version: nextVersion() })
        .where('id', '=', id)
        .$if(version !== undefined, (q) => q.where('version', '=', version!))
        .executeTakeFirst();
      await assertVersionedUpdate(trx, 'companies', id, updated, notFound);
      await recordChange(trx, audit, { entity: 'companies', recordId: id, action: 'UPDATE', before, after: await snapshot(trx, id) });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw fieldError('ruc', COMPANY_MESSAGES.duplicateRuc);
    throw error;
  }
  return getCompany(deps.db);
}

/**
 * Stores an uploaded logo (≤ 1 MB, PNG/JPEG/SVG by content) with its copy for the PDFs
 * (`logoPdfCopy`). An SVG is checked for size (`SVG_LIMITS`) and sanitised by DOMPurify on the
 * documents' worker pool (`sanitizeSvg`, issue 11 item 13; docs/security.md 30.5), stored as
 * DOMPurify left it and refused when it held active or external content; a PNG or JPEG may measure
 * at most `LOGO_PIXEL_LIMITS` and must decode (30.6).
 * @throws HttpError 404 without a company; 422 on `logo` for a non-image, an unsafe or too complex
 *   SVG, a raster logo too large or damaged; 503 when the server is busy with other documents.
 */
export async function saveLogo(deps: AppDeps, audit: AuditContext, uploaded: Buffer): Promise<Company> {
  const id = await companyId(deps.db);
  const type = detectLogoType(uploaded);
  if (!type) throw fieldError('logo', LOGO_MESSAGES.notImage);
  let bytes = uploaded;
  if (type === 'image/svg+xml') {
    const sanitized = await deps.documents.run(
      'logo.svg',
      { bytes: new Uint8Array(uploaded) },
      {
        timeoutMs: LOGO_SVG_TIMEOUT_MS,
        onTimeout: () => fieldError('logo', LOGO_MESSAGES.svgTimeout),
        onTooComplex: () => fieldError('logo', LOGO_MESSAGES.svgTooComplex),
      },
    );
    if (!sanitized.ok) throw fieldError('logo', SVG_REFUSALS[sanitized.reason]);
    bytes = asBuffer(sanitized.svg);
  } else {
    const size = logoSize(uploaded, type);
    if (!size) throw fieldError('logo', LOGO_MESSAGES.damaged);
    if (!sizeWithin(size, LOGO_PIXEL_LIMITS)) throw fieldError('logo', LOGO_MESSAGES.tooManyPixels(size));
  }
  const pdfCopy = await logoPdfCopy(bytes, type);
  // A PNG or JPEG libvips cannot decode would not show in a browser either; an SVG librsvg cannot
  // draw is still stored (browsers draw more than librsvg), and the PDFs go without it.
  if (!pdfCopy && type !== 'image/svg+xml') throw fieldError('logo', LOGO_MESSAGES.damaged);
  await deps.db.transaction().execute(async (trx) => {
    const before = await snapshot(trx, id);
    await trx
      .updateTable('companies')
      .set({
        logo_content_type: type,
        logo_data: bytes,
        logo_pdf_data: pdfCopy,
        logo_updated_at: deps.clock.now().toISOString(),
        version: nextVersion(),
      })
      .where('id', '=', id)
      .execute();
    await recordChange(trx, audit, { entity: 'companies', recordId: id, action: 'UPDATE', before, after: await snapshot(trx, id) });
  });
  return getCompany(deps.db);
}

/** The 422 of each refused SVG. */
const SVG_REFUSALS = {
  unsafe: LOGO_MESSAGES.unsafeSvg,
  notSvg: LOGO_MESSAGES.notImage,
  tooComplex: LOGO_MESSAGES.svgTooComplex,
} as const;

/**
 * The installation's company as the header of its PDFs (quotes, receipts), its logo being the PDFs'
 * copy (a PNG ≤ 600 px a side). A logo stored before that copy existed (migration 0031) gets it now,
 * made once and stored; a logo that cannot be decoded is left out of the PDFs.
 */
export async function loadPdfIssuer(db: Kysely<DB>): Promise<PdfIssuer> {
  const { row, issuer } = await findPdfIssuerRow(db);
  let copy: Buffer | null = row?.logo_pdf_data ? Buffer.from(row.logo_pdf_data) : null;
  if (!copy && row?.logo_data && row.logo_content_type && row.logo_updated_at) {
    copy = await logoPdfCopy(Buffer.from(row.logo_data), row.logo_content_type);
    if (copy)
      await db
        .updateTable('companies')
        .set({ logo_pdf_data: copy })
        .where('id', '=', row.id)
        .where('logo_updated_at', '=', row.logo_updated_at)
        .execute();
  }
  return { ...issuer, logo: copy ? { contentType: 'image/png', data: copy } : null };
}

/** The stored logo, or null. */
export async function findLogo(db: Kysely<DB>): Promise<{ contentType: string; data: Buffer; updatedAt: string } | null> {
  const row = await db
    .selectFrom('companies')
    .select(['logo_content_type', 'logo_data', 'logo_updated_at'])
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  if (!row?.logo_content_type || !row.logo_data || !row.logo_updated_at) return null;
  return { contentType: row.logo_content_type, data: Buffer.from(row.logo_data), updatedAt: row.logo_updated_at };
}
