import { sql, type Kysely } from 'kysely';
import type { CustomerRow, DB, Instant, NewCustomer } from '../db/database';
import { normalizeEmail } from '../modules/configuracion/users.repository';

/** SQL of customer accounts (`customers`). E-mails are stored trimmed and lower-case. */

/** Inserts a customer. @returns the new id. @throws on a duplicate document or e-mail (unique violation). */
export async function insertCustomer(db: Kysely<DB>, customer: NewCustomer): Promise<number> {
  const { id } = await db
    .insertInto('customers')
    .values({ ...customer, email: customer.email ? normalizeEmail(customer.email) : null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** The customer with this document number (customers log in with it, docs/product.md §7 row 2). */
export function findCustomerByDocument(db: Kysely<DB>, documentNumber: string): Promise<CustomerRow | undefined> {
  return db.selectFrom('customers').selectAll().where('document_number', '=', documentNumber.trim()).executeTakeFirst();
}

/** The customer with this id. */
export function findCustomerById(db: Kysely<DB>, id: number): Promise<CustomerRow | undefined> {
  return db.selectFrom('customers').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Replaces a customer's password hash. */
export async function updateCustomerPassword(db: Kysely<DB>, id: number, passwordHash: string, at: Instant): Promise<void> {
  await db.updateTable('customers').set({ password_hash: passwordHash, updated_at: at }).where('id', '=', id).execute();
}

/** Which of a registration's unique fields are already taken (e-mail compared case-insensitively). */
export async function findRegistrationConflicts(
  db: Kysely<DB>,
  documentNumber: string,
  email: string,
): Promise<{ documentNumber: boolean; email: boolean }> {
  const rows = await db
    .selectFrom('customers')
    .select(['document_number', sql<string>`lower(email)`.as('email')])
    .where((eb) => eb.or([eb('document_number', '=', documentNumber), eb(sql<string>`lower(email)`, '=', normalizeEmail(email))]))
    .execute();
  return {
    documentNumber: rows.some((r) => r.document_number === documentNumber),
    email: rows.some((r) => r.email === normalizeEmail(email)),
  };
}
