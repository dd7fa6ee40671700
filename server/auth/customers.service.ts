import type { Kysely } from 'kysely';
import { createRegistrationSchema } from '../../src/schemas/session';
import type { AppDeps } from '../context';
import { todayInLimaBy, type Clock } from '../clock';
import type { AccountStatus, DB, NewCustomer } from '../db/database';
import { inTransaction, isUniqueViolation } from '../db/portable';
import { validationError, zodValidationError, type FieldErrors } from '../errors';
import { hashPassword } from './password';
import { notifyNewCustomer } from '../notifications/notifications.service';
import { findCustomerById, findRegistrationConflicts, insertCustomer } from './customers.repository';
import { recordChange, systemAuditContext, type AuditContext } from '../audit/audit';

/** Customer accounts: self-registration (docs/product.md §7 row 1; docs/domain.md "Catalogues"). */

/** Spanish messages of registration. */
export const REGISTRATION_MESSAGES = {
  success: 'Registro exitoso. Ya puede iniciar sesión.',
  duplicateDocument: 'El número de documento ya está registrado',
  duplicateEmail: 'El correo electrónico ya está registrado',
} as const;

/** A customer to create; `password` is plain text and is hashed here. */
export interface NewCustomerInput {
  /** SUNAT catalogue 06 code. */
  idDocumentType: string;
  documentNumber: string;
  name: string;
  surname: string;
  /** YYYY-MM-DD. */
  birthdayDate: string;
  email: string;
  phone: string;
  status?: AccountStatus;
  password: string;
}

/** The row of a new customer, its password hashed (slow: do it before opening a transaction). */
async function customerRow(input: NewCustomerInput, options: { scryptLogN: number; clock: Clock }): Promise<NewCustomer> {
  const passwordHash = await hashPassword(input.password, options.scryptLogN);
  const now = options.clock.now().toISOString();
  return {
    id_document_type: input.idDocumentType,
    document_number: input.documentNumber,
    name: input.name,
    surname: input.surname,
    birthday_date: input.birthdayDate,
    email: input.email,
    phone: input.phone,
    status: input.status ?? 'ACTIVO',
    password_hash: passwordHash,
    system_styles: null,
    created_at: now,
    updated_at: now,
  };
}

/**
 * Creates a customer account (no validation: callers pass checked data).
 * @returns the new id. @throws the database error on a duplicate document or e-mail.
 */
export async function createCustomerAccount(
  db: Kysely<DB>,
  input: NewCustomerInput,
  options: { scryptLogN: number; clock: Clock },
): Promise<number> {
  return insertCustomer(db, await customerRow(input, options));
}

async function conflictErrors(db: Kysely<DB>, documentNumber: string, email: string): Promise<FieldErrors | null> {
  const taken = await findRegistrationConflicts(db, documentNumber, email);
  const errors: FieldErrors = {};
  if (taken.documentNumber) errors.document_number = [REGISTRATION_MESSAGES.duplicateDocument];
  if (taken.email) errors.email = [REGISTRATION_MESSAGES.duplicateEmail];
  return Object.keys(errors).length > 0 ? errors : null;
}

/**
 * Registers a customer with an active portal login. The body is validated with
 * `createRegistrationSchema(today in America/Lima)` (document, phone, adult, password rules).
 * In the same transaction every active staff user holding 'Acceso módulo CRM' and 'Acceso
 * submódulo clientes' gets the notification "Nuevo cliente registrado", broadcast after commit.
 * Nothing is stored when anything fails.
 * @returns the new customer's id.
 * @throws HttpError 422 with field errors (rules, or document/e-mail already registered).
 */
export async function registerCustomer(
  { db, clock, config, broadcaster }: AppDeps,
  body: unknown,
  audit: AuditContext = systemAuditContext(clock),
): Promise<number> {
  const parsed = createRegistrationSchema(todayInLimaBy(clock)).safeParse(body);
  if (!parsed.success) throw zodValidationError(parsed.error);
  const input = parsed.data;

  const conflicts = await conflictErrors(db, input.document_number, input.email);
  if (conflicts) throw validationError(conflicts);

  const row = await customerRow(
    {
      idDocumentType: input.id_document_type,
      documentNumber: input.document_number,
      name: input.name,
      surname: input.surname,
      birthdayDate: input.birthday_date,
      email: input.email,
      phone: input.phone,
      password: input.password,
    },
    { scryptLogN: config.scryptLogN, clock },
  );
  try {
    const { id, events } = await inTransaction(db, async (trx) => {
      const customerId = await insertCustomer(trx, row);
      // Self-registration: the new customer is the change's actor.
      await recordChange(
        trx,
        { ...audit, actor: { userType: 'CUSTOMER', accountId: customerId } },
        {
          entity: 'customers',
          recordId: customerId,
          action: 'CREATE',
          after: await findCustomerById(trx, customerId),
        },
      );
      const notified = await notifyNewCustomer(trx, clock, {
        name: row.name,
        surname: row.surname ?? '',
        documentNumber: row.document_number,
      });
      return { id: customerId, events: notified.events };
    });
    broadcaster.publish(events);
    return id;
  } catch (error) {
    // Lost a race with a concurrent registration of the same document or e-mail.
    const raced = isUniqueViolation(error) ? await conflictErrors(db, input.document_number, input.email) : null;
    if (raced) throw validationError(raced);
    throw error;
  }
}
