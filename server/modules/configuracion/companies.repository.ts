import type { Kysely } from 'kysely';
import type { DB, Instant } from '../../db/database';
import { toFlag } from '../../db/portable';
import type { PdfIssuer } from '../../platform/pdf';

/** SQL of `companies`. The product runs one company per installation (the first row). */

/** A company to create. */
export interface NewCompany {
  businessName: string;
  ruc: string;
  address: string;
  phone?: string | null;
  email?: string | null;
  subscriptionActive?: boolean;
  createdAt: Instant;
}

/** Inserts a company. @returns its id. @throws on a duplicate RUC. */
export async function insertCompany(db: Kysely<DB>, company: NewCompany): Promise<number> {
  const { id } = await db
    .insertInto('companies')
    .values({
      business_name: company.businessName,
      ruc: company.ruc,
      address: company.address,
      phone: company.phone ?? null,
      email: company.email ?? null,
      subscription_active: toFlag(company.subscriptionActive ?? true),
      created_at: company.createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** The id of the company with this RUC. */
export async function findCompanyIdByRuc(db: Kysely<DB>, ruc: string): Promise<number | undefined> {
  const row = await db.selectFrom('companies').select('id').where('ruc', '=', ruc).executeTakeFirst();
  return row?.id;
}

/** The installation's company id (the first row), if any. */
export async function findMainCompanyId(db: Kysely<DB>): Promise<number | undefined> {
  const row = await db.selectFrom('companies').select('id').orderBy('id').limit(1).executeTakeFirst();
  return row?.id;
}

/**
 * The company's subscription flag (docs/product.md §7: 402 → /auth/pago), as a query of at most one
 * row: the guard reads it as a subquery of the session statement (server/auth/access-tokens.repository.ts
 * `findSessionByHash`). No row (SEED=none, fresh install) means nothing is lapsed.
 */
export function subscriptionFlag(db: Kysely<DB>) {
  return db.selectFrom('companies').select('subscription_active').orderBy('id').limit(1);
}

/** Sets the subscription flag of every company (one per installation). */
export async function setSubscriptionActive(db: Kysely<DB>, active: boolean): Promise<void> {
  await db
    .updateTable('companies')
    .set({ subscription_active: toFlag(active) })
    .execute();
}

/**
 * The installation's company as the header of its PDFs (the first company row; blanks when there is
 * none) without its logo, and the row's logo columns (server/modules/configuracion/companies.service.ts
 * `loadPdfIssuer` picks the PDFs' copy).
 */
export async function findPdfIssuerRow(db: Kysely<DB>) {
  const row = await db
    .selectFrom('companies')
    .select([
      'id',
      'business_name',
      'ruc',
      'address',
      'phone',
      'email',
      'logo_content_type',
      'logo_data',
      'logo_pdf_data',
      'logo_updated_at',
    ])
    .orderBy('id')
    .executeTakeFirst();
  const issuer: PdfIssuer = {
    business_name: row?.business_name ?? '',
    ruc: row?.ruc ?? '',
    address: row?.address ?? null,
    phone: row?.phone ?? null,
    email: row?.email ?? null,
    logo: null,
  };
  return { row, issuer };
}
