import type { Kysely } from 'kysely';
import type { Company, UpdateCompanyRequest } from '../../../src/schemas/configuracion/company';
import { recordChange, type AuditContext } from '../../audit/audit';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import { isUniqueViolation } from '../../db/portable';
import { fieldError, notFound } from '../../errors';
import { assertVersionedUpdate, nextVersion } from '../../db/versions';
import { findMainCompanyId } from './companies.repository';
import { detectLogoType, LOGO_MESSAGES, sanitizeSvg } from './logo';

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
  const { version, ...body } = request;
  const values = { ...body, email: body.email === undefined || body.email === null ? body.email : body.email.trim().toLowerCase() };
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
 * Stores an uploaded logo (≤ 1 MB, PNG/JPEG/SVG by content). An SVG is stored as DOMPurify left it
 * (`sanitizeSvg`, issue 11 item 13) and refused when it held active or external content.
 * @throws HttpError 404 without a company; 422 on `logo` for a non-image or unsafe SVG.
 */
export async function saveLogo(deps: AppDeps, audit: AuditContext, uploaded: Buffer): Promise<Company> {
  const id = await companyId(deps.db);
  const type = detectLogoType(uploaded);
  if (!type) throw fieldError('logo', LOGO_MESSAGES.notImage);
  let bytes = uploaded;
  if (type === 'image/svg+xml') {
    const sanitized = await sanitizeSvg(uploaded);
    if (!sanitized.ok) throw fieldError('logo', sanitized.reason === 'unsafe' ? LOGO_MESSAGES.unsafeSvg : LOGO_MESSAGES.notImage);
    bytes = sanitized.svg;
  }
  await deps.db.transaction().execute(async (trx) => {
    const before = await snapshot(trx, id);
    await trx
      .updateTable('companies')
      .set({ logo_content_type: type, logo_data: bytes, logo_updated_at: deps.clock.now().toISOString(), version: nextVersion() })
      .where('id', '=', id)
      .execute();
    await recordChange(trx, audit, { entity: 'companies', recordId: id, action: 'UPDATE', before, after: await snapshot(trx, id) });
  });
  return getCompany(deps.db);
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
