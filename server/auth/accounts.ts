import type { Kysely } from 'kysely';
import { CUSTOMER_PERMISSIONS } from '../../src/schemas/permissions';
import type { AccountStatus, AccountType, CustomerRow, DB, Instant, UserRow } from '../db/database';
import { findCustomerByDocument, findCustomerById, updateCustomerPassword } from './customers.repository';
import { findUserByDni, findUserById, findUserByLogin, updateUserPassword } from '../modules/configuracion/users.repository';
import { permissionsOfUser, permissionsOfUserAmong, roleNamesOfUser } from '../modules/configuracion/roles.repository';
import { recordChange, type AuditContext } from '../audit/audit';

/**
 * One view over the two account kinds of docs/product.md §6 (staff `users`, `customers`), so login, tokens,
 * password change and password reset are written once.
 */

/** Role name every customer shows (customers hold no staff role). */
export const CUSTOMER_ROLE_NAME = 'Cliente';

/** An account of either kind. `dni` is the staff DNI or the customer's document number. */
export interface Account {
  userType: AccountType;
  id: number;
  dni: string;
  /** Empty for a customer without e-mail (staff-entered; they cannot get a reset link either). */
  email: string;
  name: string;
  /** Empty for a JURIDICA customer. */
  surname: string;
  phone: string | null;
  status: AccountStatus;
  /** Null for a customer without a portal login yet: logging in answers as a wrong password. */
  passwordHash: string | null;
  /** Saved style settings JSON, or null. */
  systemStyles: string | null;
}

function fromUser(row: UserRow): Account {
  return {
    userType: 'COLLABORATOR',
    id: row.id,
    dni: row.dni,
    email: row.email,
    name: row.name,
    surname: row.surname,
    phone: row.phone,
    status: row.status,
    passwordHash: row.password_hash,
    systemStyles: row.system_styles,
  };
}

function fromCustomer(row: CustomerRow): Account {
  return {
    userType: 'CUSTOMER',
    id: row.id,
    dni: row.document_number,
    email: row.email ?? '',
    name: row.name,
    surname: row.surname ?? '',
    phone: row.phone,
    status: row.status,
    passwordHash: row.password_hash,
    systemStyles: row.system_styles,
  };
}

const map = <R>(row: R | undefined, to: (r: R) => Account) => (row ? to(row) : undefined);

/**
 * The account a login identifier names (docs/product.md §7 row 2): staff by DNI or e-mail (case-insensitive),
 * customers by document number.
 */
export async function findAccountByLogin(db: Kysely<DB>, userType: AccountType, login: string): Promise<Account | undefined> {
  return userType === 'COLLABORATOR'
    ? map(await findUserByLogin(db, login), fromUser)
    : map(await findCustomerByDocument(db, login), fromCustomer);
}

/** The account with this DNI / document number (password reset request, docs/product.md §7 rows 4–5). */
export async function findAccountByDocument(db: Kysely<DB>, userType: AccountType, dni: string): Promise<Account | undefined> {
  return userType === 'COLLABORATOR'
    ? map(await findUserByDni(db, dni), fromUser)
    : map(await findCustomerByDocument(db, dni), fromCustomer);
}

/** The account with this id. */
export async function findAccountById(db: Kysely<DB>, userType: AccountType, id: number): Promise<Account | undefined> {
  return userType === 'COLLABORATOR' ? map(await findUserById(db, id), fromUser) : map(await findCustomerById(db, id), fromCustomer);
}

/** Change-history entity (table) of each account type. */
export const ACCOUNT_ENTITY = { COLLABORATOR: 'users', CUSTOMER: 'customers' } as const satisfies Record<AccountType, keyof DB>;

/**
 * Stores a new password hash for an account and records the UPDATE in the change history (the hash
 * itself is never recorded: the diff shows `updated_at`). Run it inside the caller's transaction.
 */
export async function setAccountPassword(
  trx: Kysely<DB>,
  ctx: AuditContext,
  userType: AccountType,
  id: number,
  passwordHash: string,
  at: Instant,
): Promise<void> {
  const before = userType === 'COLLABORATOR' ? await findUserById(trx, id) : await findCustomerById(trx, id);
  await (userType === 'COLLABORATOR' ? updateUserPassword(trx, id, passwordHash, at) : updateCustomerPassword(trx, id, passwordHash, at));
  const after = userType === 'COLLABORATOR' ? await findUserById(trx, id) : await findCustomerById(trx, id);
  await recordChange(trx, ctx, { entity: ACCOUNT_ENTITY[userType], recordId: id, action: 'UPDATE', before, after });
}

/** Role names and permission strings of an account (docs/product.md §6). */
export interface AccountAccess {
  roles: string[];
  permissions: string[];
}

/**
 * What an account may do: staff get their roles and the union of their roles' permissions;
 * customers get the role "Cliente" and {@link CUSTOMER_PERMISSIONS}.
 */
export async function accountAccess(db: Kysely<DB>, userType: AccountType, id: number): Promise<AccountAccess> {
  if (userType === 'CUSTOMER') return { roles: [CUSTOMER_ROLE_NAME], permissions: [...CUSTOMER_PERMISSIONS] };
  const [roles, permissions] = await Promise.all([roleNamesOfUser(db, id), permissionsOfUser(db, id)]);
  return { roles, permissions };
}

/**
 * Which of `among` (permission strings, not empty) an account holds: a staff user's roles grant
 * them, a customer holds CUSTOMER_PERMISSIONS (docs/product.md §6).
 */
export async function heldPermissions(db: Kysely<DB>, userType: AccountType, id: number, among: readonly string[]): Promise<Set<string>> {
  if (userType === 'CUSTOMER')
    return new Set(among.filter((permission) => (CUSTOMER_PERMISSIONS as readonly string[]).includes(permission)));
  return permissionsOfUserAmong(db, id, among);
}
