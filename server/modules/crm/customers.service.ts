import type { Kysely } from 'kysely';
import type { z } from 'zod';
import {
  CUSTOMER_MESSAGES,
  customerRuleErrors,
  type createCustomerRequestSchema,
  type Customer,
  type CustomersQuery,
  type MaritalStatus,
  type updateCustomerRequestSchema,
} from '../../../src/schemas/crm/customers';
import { recordChange, type AuditContext } from '../../audit/audit';
import { sendPasswordResetLink } from '../../auth/password-reset.service';
import { revokeAccountSessions } from '../../auth/tokens';
import { isDistrictCode } from '../../../src/lib/ubigeo';
import { todayInLimaBy } from '../../clock';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import type { Page } from '../../db/paging';
import { isUniqueViolation } from '../../db/portable';
import { assertVersionedUpdate } from '../../db/versions';
import { conflict, HttpError, notFound, validationError, type FieldErrors } from '../../errors';
import {
  activeStaffIds,
  customerRow,
  customersByIds,
  findCustomerConflicts,
  insertCrmCustomer,
  listCustomerIds,
  updateCustomerColumns,
} from './customers.repository';

/** Parsed POST /api/customers body. */
export type CreateCustomerBody = z.output<typeof createCustomerRequestSchema>;
/** Parsed PATCH /api/customers/{id} body. */
export type UpdateCustomerBody = z.output<typeof updateCustomerRequestSchema>;

/**
 * One page of customers (GET /api/customers). `owner` (server/auth/scopes.ts customersOwner): when
 * set, only the customers whose asesor is that user (docs/security.md 31.11).
 */
export async function listCustomers(db: Kysely<DB>, query: CustomersQuery, owner: number | null = null): Promise<Page<Customer>> {
  const page = await listCustomerIds(db, query, owner);
  return {
    data: await customersByIds(
      db,
      page.data.map((r) => r.id),
    ),
    meta: page.meta,
  };
}

/** One customer. @throws HttpError 404. */
export async function getCustomer(db: Kysely<DB>, id: number): Promise<Customer> {
  const [customer] = await customersByIds(db, [id]);
  if (!customer) throw notFound();
  return customer;
}

/**
 * Checks that customer `id` is within the caller's customers scope (`owner`, null = everyone's).
 * @throws HttpError 404 when missing; 403 {@link CUSTOMER_MESSAGES}.notYours when another asesor's
 * (as leads answer, server/modules/crm/leads.service.ts).
 */
export async function assertCustomerInScope(db: Kysely<DB>, id: number, owner: number | null): Promise<void> {
  if (owner === null) return;
  const row = await db.selectFrom('customers').select('agent_id').where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound();
  if (row.agent_id !== owner) throw new HttpError(403, CUSTOMER_MESSAGES.notYours);
}

/**
 * A create or update body as a caller with the customers scope `owner` may send it: on create the
 * asesor defaults to the caller; another asesor is a 422 on agent_id (null = no scope, unchanged).
 */
export function scopedCustomerBody<T extends { agent_id?: number | null }>(body: T, owner: number | null, creating: boolean): T {
  if (owner === null) return body;
  if (body.agent_id !== undefined && body.agent_id !== owner) throw validationError({ agent_id: [CUSTOMER_MESSAGES.onlyOwnAgent] });
  return creating ? { ...body, agent_id: owner } : body;
}

/** The fields the database-backed rules read: a body merged over the stored row. */
interface CheckedFields {
  document_number?: string;
  email?: string | null;
  spouse_id?: number | null;
  agent_id?: number | null;
  collector_id?: number | null;
  birthday_date?: string | null;
  ubigeo?: string | null;
}

/**
 * 422 field errors of the rules that need the database or the clock: document and e-mail taken by
 * another customer, spouse an existing NATURAL customer other than this one, agent and collector
 * active staff users, ubigeo a district of the dataset, birthday not after today in America/Lima.
 * @returns null when none.
 */
async function storedRuleErrors(deps: AppDeps, db: Kysely<DB>, fields: CheckedFields, exceptId?: number): Promise<FieldErrors | null> {
  const errors: FieldErrors = {};
  const taken = await findCustomerConflicts(db, fields, exceptId);
  if (taken.documentNumber) errors.document_number = [CUSTOMER_MESSAGES.duplicateDocument];
  if (taken.email) errors.email = [CUSTOMER_MESSAGES.duplicateEmail];
  if (fields.spouse_id != null) {
    if (fields.spouse_id === exceptId) errors.spouse_id = [CUSTOMER_MESSAGES.spouseIsSelf];
    else {
      const spouse = await customerRow(db, fields.spouse_id);
      if (!spouse) errors.spouse_id = [CUSTOMER_MESSAGES.unknownSpouse];
      else if (spouse.person_type !== 'NATURAL') errors.spouse_id = [CUSTOMER_MESSAGES.spouseNotNatural];
    }
  }
  const staffIds = [fields.agent_id, fields.collector_id].filter((id): id is number => typeof id === 'number');
  const active = await activeStaffIds(db, staffIds);
  if (typeof fields.agent_id === 'number' && !active.has(fields.agent_id)) errors.agent_id = [CUSTOMER_MESSAGES.unknownStaff];
  if (typeof fields.collector_id === 'number' && !active.has(fields.collector_id)) errors.collector_id = [CUSTOMER_MESSAGES.unknownStaff];
  if (fields.ubigeo && !isDistrictCode(fields.ubigeo)) errors.ubigeo = [CUSTOMER_MESSAGES.unknownUbigeo];
  if (fields.birthday_date && fields.birthday_date > todayInLimaBy(deps.clock)) errors.birthday_date = [CUSTOMER_MESSAGES.futureBirthday];
  return Object.keys(errors).length > 0 ? errors : null;
}

/** Runs `fn` in a transaction; a unique violation (a lost race on document or e-mail) becomes the 422 it would have been. */
async function withConflictCheck<T>(
  deps: AppDeps,
  fields: CheckedFields,
  exceptId: number | undefined,
  fn: (trx: Kysely<DB>) => Promise<T>,
): Promise<T> {
  try {
    return await deps.db.transaction().execute(fn);
  } catch (error) {
    const raced = isUniqueViolation(error) ? await storedRuleErrors(deps, deps.db, fields, exceptId) : null;
    if (raced) throw validationError(raced);
    throw error;
  }
}

/**
 * Creates a customer entered by staff (POST /api/customers), without a portal login; the change
 * history row is written in the same transaction, and so is `link` (e.g. a lead converted into
 * this customer, server/modules/crm/leads.service.ts), which may throw to roll it all back.
 * @throws HttpError 422 on the rules of {@link storedRuleErrors}; whatever `link` throws.
 */
export async function createCustomer(
  deps: AppDeps,
  audit: AuditContext,
  body: CreateCustomerBody,
  link?: (trx: Kysely<DB>, customerId: number) => Promise<void>,
): Promise<Customer> {
  const errors = await storedRuleErrors(deps, deps.db, body);
  if (errors) throw validationError(errors);
  const now = deps.clock.now().toISOString();
  const id = await withConflictCheck(deps, body, undefined, async (trx) => {
    const customerId = await insertCrmCustomer(trx, {
      person_type: body.person_type,
      id_document_type: body.id_document_type,
      document_number: body.document_number,
      name: body.name,
      surname: body.person_type === 'JURIDICA' ? null : (body.surname ?? null),
      legal_representative: body.person_type === 'JURIDICA' ? (body.legal_representative ?? null) : null,
      birthday_date: body.birthday_date ?? null,
      marital_status: body.person_type === 'JURIDICA' ? null : (body.marital_status ?? null),
      property_regime: body.person_type === 'JURIDICA' ? null : (body.property_regime ?? null),
      spouse_id: body.spouse_id ?? null,
      email: body.email ?? null,
      phone: body.phone,
      alternate_phone: body.alternate_phone ?? null,
      address: body.address ?? null,
      ubigeo: body.ubigeo ?? null,
      agent_id: body.agent_id ?? null,
      collector_id: body.collector_id ?? null,
      status: 'ACTIVO',
      password_hash: null,
      system_styles: null,
      created_at: now,
      updated_at: now,
    });
    await recordChange(trx, audit, {
      entity: 'customers',
      recordId: customerId,
      action: 'CREATE',
      after: await customerRow(trx, customerId),
    });
    if (link) await link(trx, customerId);
    return customerId;
  });
  return getCustomer(deps.db, id);
}

/**
 * Updates a customer (PATCH /api/customers/{id}). The rules between fields are checked on the body
 * merged over the stored record (a JURIDICA keeps no surname or marital status). INACTIVO ends the
 * customer's portal sessions. With `version`, only that version is changed.
 * @throws HttpError 404; 422 on the rules; 409 when stale (nothing stored).
 */
export async function updateCustomer(deps: AppDeps, audit: AuditContext, id: number, body: UpdateCustomerBody): Promise<Customer> {
  const stored = await customerRow(deps.db, id);
  if (!stored) throw notFound();
  const { version, ...changes } = body;
  // Keys the body leaves out keep the stored value; an explicit null clears it.
  const merged = {
    ...stored,
    ...changes,
    marital_status: ('marital_status' in changes ? changes.marital_status : stored.marital_status) as MaritalStatus | null,
  };
  if (merged.person_type === 'JURIDICA')
    Object.assign(changes, { surname: null, marital_status: null, spouse_id: null, property_regime: null });
  // A customer no longer married loses the stored regime unless the body sends one (then the rule says no).
  else if (merged.marital_status !== 'CASADO' && !('property_regime' in changes) && stored.property_regime !== null)
    changes.property_regime = null;
  else if (changes.person_type === 'NATURAL') changes.legal_representative = null;
  const ruleErrors = customerRuleErrors({ ...merged, ...changes });
  const errors: FieldErrors = Object.fromEntries(Object.entries(ruleErrors).map(([k, m]) => [k, [m]]));
  Object.assign(errors, await storedRuleErrors(deps, deps.db, changes, id));
  if (Object.keys(errors).length > 0) throw validationError(errors);
  await withConflictCheck(deps, changes, id, async (trx) => {
    const before = await customerRow(trx, id);
    const updated = await updateCustomerColumns(trx, id, { ...changes, updated_at: deps.clock.now().toISOString() }, version);
    await assertVersionedUpdate(trx, 'customers', id, updated, notFound);
    if (changes.status === 'INACTIVO' && before?.status !== 'INACTIVO') {
      await revokeAccountSessions({ db: trx, clock: deps.clock }, { userType: 'CUSTOMER', accountId: id });
    }
    await recordChange(trx, audit, { entity: 'customers', recordId: id, action: 'UPDATE', before, after: await customerRow(trx, id) });
  });
  return getCustomer(deps.db, id);
}

/**
 * Deletes a customer without a portal login (DELETE /api/customers/{id}); a spouse reference to
 * them is cleared by the database (on delete set null).
 * @throws HttpError 404; 409 when the customer has a portal login (deactivate them instead).
 */
export async function deleteCustomer(deps: AppDeps, audit: AuditContext, id: number): Promise<void> {
  await deps.db.transaction().execute(async (trx) => {
    const before = await customerRow(trx, id);
    if (!before) throw notFound();
    if (before.password_hash !== null) throw conflict(CUSTOMER_MESSAGES.portalUserDelete);
    await trx.deleteFrom('customers').where('id', '=', id).execute();
    await recordChange(trx, audit, { entity: 'customers', recordId: id, action: 'DELETE', before });
  });
}

/**
 * E-mails an active customer a link to set their portal password (queued in the outbox): how a
 * customer entered by staff gets a portal login (docs/decisions.md).
 * @throws HttpError 404; 409 when inactive or without e-mail.
 */
export async function sendCustomerPortalLink(deps: AppDeps, id: number): Promise<void> {
  const customer = await customerRow(deps.db, id);
  if (!customer) throw notFound();
  if (customer.status !== 'ACTIVO') throw conflict(CUSTOMER_MESSAGES.inactiveReset);
  if (!customer.email) throw conflict(CUSTOMER_MESSAGES.noEmailForReset);
  await sendPasswordResetLink(deps, { userType: 'CUSTOMER', accountId: id, email: customer.email, name: customer.name });
  deps.outbox.kick();
}
