import { sql, type Kysely, type Updateable, type UpdateResult } from 'kysely';
import type { Customer, CustomersQuery, StaffOption, StaffOptionsQuery } from '../../../src/schemas/crm/customers';
import type { CustomersTable, DB, NewCustomer } from '../../db/database';
import { paginate, parseSort, type Page } from '../../db/paging';
import { searchPatternSql, searchTextOf } from '../../db/text-search';
import { nextVersion } from '../../db/versions';
import { normalizeEmail } from '../configuracion/users.repository';

/** SQL of CRM customers (`customers`; the portal's own queries are in server/auth/customers.repository.ts). */

/** "Names Surnames" (NATURAL) or the business name (JURIDICA, surname null). */
export function displayName(row: { name: string; surname: string | null }): string {
  return row.surname ? `${row.name} ${row.surname}` : row.name;
}

/**
 * {@link displayName} folded for search (`customers.search_text`, migration 0034; the rule and its
 * pattern are server/db/text-search.ts): compare with `like ${searchPatternSql(q)}` in any query
 * joining `customers` under that name.
 */
export const displayNameSql = sql<string>`customers.search_text`;

/** One page of customer ids in order, and the total (see `customersQuerySchema`); `owner` set: only that asesor's. */
export async function listCustomerIds(db: Kysely<DB>, filters: CustomersQuery, owner: number | null = null): Promise<Page<{ id: number }>> {
  let query = db.selectFrom('customers');
  if (owner !== null) query = query.where('customers.agent_id', '=', owner);
  if (filters.q) {
    const pattern = searchPatternSql(filters.q);
    query = query.where((eb) =>
      eb.or([
        eb(displayNameSql, 'like', pattern),
        eb('customers.document_number', 'like', pattern),
        eb(sql<string>`lower(customers.email)`, 'like', pattern),
        eb('customers.phone', 'like', pattern),
        eb('customers.alternate_phone', 'like', pattern),
      ]),
    );
  }
  if (filters.status) query = query.where('customers.status', '=', filters.status);
  if (filters.person_type) query = query.where('customers.person_type', '=', filters.person_type);
  if (filters.agent_id !== undefined) query = query.where('customers.agent_id', '=', filters.agent_id);
  if (filters.collector_id !== undefined) query = query.where('customers.collector_id', '=', filters.collector_id);
  if (filters.portal_user) query = query.where('customers.password_hash', filters.portal_user === 'true' ? 'is not' : 'is', null);
  const { field, direction } = parseSort<'name' | 'surname' | 'document_number' | 'created_at'>(filters.sort, '-created_at');
  return paginate(query, filters, (q) =>
    q.select('customers.id').orderBy(`customers.${field}`, direction).orderBy('customers.id', direction),
  );
}

/** Customers by id → wire customers (spouse, agent and collector joined), in the order of `ids`. */
export async function customersByIds(db: Kysely<DB>, ids: readonly number[]): Promise<Customer[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('customers')
    .leftJoin('customers as spouse', 'spouse.id', 'customers.spouse_id')
    .leftJoin('users as agent', 'agent.id', 'customers.agent_id')
    .leftJoin('users as collector', 'collector.id', 'customers.collector_id')
    .selectAll('customers')
    .select([
      'spouse.name as spouse_name',
      'spouse.surname as spouse_surname',
      'agent.name as agent_name',
      'agent.surname as agent_surname',
      'collector.name as collector_name',
      'collector.surname as collector_surname',
    ])
    .where('customers.id', 'in', [...ids])
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    const staff = (staffId: number | null, name: string | null, surname: string | null): StaffOption | null =>
      staffId !== null && name !== null ? { id: staffId, name, surname: surname ?? '' } : null;
    return [
      {
        id: r.id,
        person_type: r.person_type,
        id_document_type: r.id_document_type,
        document_number: r.document_number,
        name: r.name,
        surname: r.surname,
        display_name: displayName(r),
        legal_representative: r.legal_representative,
        birthday_date: r.birthday_date,
        marital_status: r.marital_status as Customer['marital_status'],
        property_regime: r.property_regime,
        spouse:
          r.spouse_id !== null && r.spouse_name !== null
            ? { id: r.spouse_id, display_name: displayName({ name: r.spouse_name, surname: r.spouse_surname }) }
            : null,
        email: r.email,
        phone: r.phone,
        alternate_phone: r.alternate_phone,
        address: r.address,
        ubigeo: r.ubigeo,
        agent: staff(r.agent_id, r.agent_name, r.agent_surname),
        collector: staff(r.collector_id, r.collector_name, r.collector_surname),
        status: r.status,
        portal_user: r.password_hash !== null,
        created_at: r.created_at,
        updated_at: r.updated_at,
        version: r.version,
      },
    ];
  });
}

/** The stored row of a customer (for the change history; the hash is stripped there). */
export function customerRow(db: Kysely<DB>, id: number) {
  return db.selectFrom('customers').selectAll().where('id', '=', id).executeTakeFirst();
}

/** Inserts a customer (e-mail stored lower-case). @returns the id. @throws on a duplicate document or e-mail (unique violation). */
export async function insertCrmCustomer(db: Kysely<DB>, values: NewCustomer): Promise<number> {
  const { id } = await db
    .insertInto('customers')
    .values({ ...values, email: values.email ? normalizeEmail(values.email) : null })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/**
 * Updates a customer's columns and raises its version; with `version`, only that version of the
 * row (server/db/versions.ts). @returns the UpdateResult (0 rows: gone or stale).
 */
export function updateCustomerColumns(
  db: Kysely<DB>,
  id: number,
  values: Updateable<CustomersTable>,
  version?: number,
): Promise<UpdateResult> {
  const set = values.email ? { ...values, email: normalizeEmail(values.email) } : values;
  return db
    .updateTable('customers')
    .set({ ...set, version: nextVersion() })
    .where('id', '=', id)
    .$if(version !== undefined, (q) => q.where('version', '=', version ?? 0))
    .executeTakeFirstOrThrow();
}

/** Which of a customer's unique fields another customer already holds (e-mail case-insensitively). */
export async function findCustomerConflicts(
  db: Kysely<DB>,
  fields: { document_number?: string; email?: string | null },
  exceptId?: number,
): Promise<{ documentNumber: boolean; email: boolean }> {
  const email = fields.email ? normalizeEmail(fields.email) : null;
  if (!fields.document_number && !email) return { documentNumber: false, email: false };
  const rows = await db
    .selectFrom('customers')
    .select(['document_number', sql<string | null>`lower(email)`.as('email')])
    .where((eb) =>
      eb.or([
        ...(fields.document_number ? [eb('document_number', '=', fields.document_number)] : []),
        ...(email ? [eb(sql<string>`lower(email)`, '=', email)] : []),
      ]),
    )
    .$if(exceptId !== undefined, (q) => q.where('id', '<>', exceptId ?? 0))
    .execute();
  return {
    documentNumber: rows.some((r) => fields.document_number !== undefined && r.document_number === fields.document_number),
    email: rows.some((r) => email !== null && r.email === email),
  };
}

/** Active staff users among `ids`. */
export async function activeStaffIds(db: Kysely<DB>, ids: readonly number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('id', 'in', [...ids])
    .where('status', '=', 'ACTIVO')
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** One page of active staff users for pickers (`q` matches names, surnames or DNI). */
export async function listStaffOptions(db: Kysely<DB>, filters: StaffOptionsQuery): Promise<Page<StaffOption>> {
  let query = db.selectFrom('users').where('users.status', '=', 'ACTIVO');
  if (filters.q) {
    const pattern = searchPatternSql(filters.q);
    query = query.where((eb) =>
      eb.or([eb(searchTextOf(db, `users.name || ' ' || users.surname`), 'like', pattern), eb('users.dni', 'like', pattern)]),
    );
  }
  const { field, direction } = parseSort<'surname' | 'name'>(filters.sort, 'surname');
  return paginate(query, filters, (q) =>
    q.select(['users.id', 'users.name', 'users.surname']).orderBy(`users.${field}`, direction).orderBy('users.id', direction),
  );
}
