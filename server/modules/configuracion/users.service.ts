import type { Kysely } from 'kysely';
import type { Clock } from '../../clock';
import type { AccountStatus, DB } from '../../db/database';
import { inTransaction } from '../../db/portable';
import { hashPassword } from '../../auth/password';
import { findRoleByName } from './roles.repository';
import { recordChange, systemAuditContext, type AuditContext } from '../../audit/audit';
import type { StaffUser, UsersQuery, createUserRequestSchema, updateUserRequestSchema } from '../../../src/schemas/configuracion/users';
import type { z } from 'zod';
import type { AppDeps } from '../../context';
import type { Page } from '../../db/paging';
import { isUniqueViolation } from '../../db/portable';
import { conflict, notFound, validationError, type FieldErrors } from '../../errors';
import { assertVersionedUpdate } from '../../db/versions';
import { generateSecret, revokeAccountSessions } from '../../auth/tokens';
import { sendPasswordResetLink } from '../../auth/password-reset.service';
import { permissionsChangedEvents } from './permissions-events';
import {
  assignRoles,
  countActiveHolders,
  findUserById,
  findUserConflicts,
  insertUser,
  listUserIds,
  normalizeEmail,
  replaceLocals,
  replaceRoles,
  rolesAndLocalsOf,
  updateUserColumns,
  userSnapshot,
} from './users.repository';

/** Parsed POST /api/users body. */
export type CreateUserBody = z.output<typeof createUserRequestSchema>;
/** Parsed PATCH /api/users/{id} body. */
export type UpdateUserBody = z.output<typeof updateUserRequestSchema>;

/** Staff account creation, shared by the demo seed and test fixtures (the Usuarios screen will reuse it). */

/** A staff user to create; `password` is plain text and is hashed here. */
export interface NewStaffInput {
  dni: string;
  email: string;
  name: string;
  surname: string;
  phone?: string | null;
  status?: AccountStatus;
  password: string;
  /** Names of existing roles. */
  roleNames?: readonly string[];
}

/**
 * Creates a staff user with its roles atomically (joins the caller's transaction if any).
 * @returns the new user id.
 * @throws Error when a role name does not exist; the database error on a duplicate DNI or e-mail.
 */
export async function createStaffUser(
  db: Kysely<DB>,
  input: NewStaffInput,
  options: { scryptLogN: number; clock: Clock; audit?: AuditContext },
): Promise<number> {
  const audit = options.audit ?? systemAuditContext(options.clock);
  const passwordHash = await hashPassword(input.password, options.scryptLogN);
  const now = options.clock.now().toISOString();
  return inTransaction(db, async (trx) => {
    const roleIds: number[] = [];
    for (const name of input.roleNames ?? []) {
      const role = await findRoleByName(trx, name);
      if (!role) throw new Error(`Unknown role: ${name}`);
      roleIds.push(role.id);
    }
    const id = await insertUser(trx, {
      dni: input.dni,
      email: input.email,
      name: input.name,
      surname: input.surname,
      phone: input.phone ?? null,
      status: input.status ?? 'ACTIVO',
      password_hash: passwordHash,
      system_styles: null,
      created_at: now,
      updated_at: now,
    });
    await assignRoles(trx, id, roleIds);
    await recordChange(trx, audit, {
      entity: 'users',
      recordId: id,
      action: 'CREATE',
      after: { ...(await findUserById(trx, id)), role_ids: roleIds },
    });
    return id;
  });
}

/** Spanish messages of the Usuarios screen. */
export const USER_MESSAGES = {
  duplicateDni: 'El DNI ya está registrado',
  duplicateEmail: 'El correo electrónico ya está registrado',
  unknownRole: 'Uno de los roles no existe',
  unknownLocal: 'Uno de los locales no existe',
  lastAdministrator: 'Debe quedar al menos un usuario activo con el rol Administrador',
  selfDeactivation: 'No puede desactivar su propio usuario',
  alreadyActive: 'El usuario ya está activo',
  alreadyInactive: 'El usuario ya está inactivo',
  inactiveReset: 'No se puede enviar el enlace a un usuario inactivo',
  resetSent: 'Se envió el enlace para establecer la contraseña',
} as const;

/** The role that must always keep one active holder (seeded; cannot be renamed or deleted). */
export const ADMIN_ROLE_NAME = 'Administrador';

/** Users by id → wire users, in the order of `ids`. */
async function toStaffUsers(db: Kysely<DB>, ids: readonly number[]): Promise<StaffUser[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('users')
    .selectAll()
    .where('id', 'in', [...ids])
    .execute();
  const extra = await rolesAndLocalsOf(db, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    const { roles, locals } = extra.get(id) ?? { roles: [], locals: [] };
    return [
      {
        id: r.id,
        dni: r.dni,
        email: r.email,
        name: r.name,
        surname: r.surname,
        phone: r.phone,
        status: r.status,
        roles,
        locals,
        created_at: r.created_at,
        updated_at: r.updated_at,
        version: r.version,
      },
    ];
  });
}

/** One page of staff users (GET /api/users). */
export async function listStaffUsers(db: Kysely<DB>, query: UsersQuery): Promise<Page<StaffUser>> {
  const { ids, meta } = await listUserIds(db, query);
  return { data: await toStaffUsers(db, ids), meta };
}

/** One staff user. @throws HttpError 404. */
export async function getStaffUser(db: Kysely<DB>, id: number): Promise<StaffUser> {
  const [user] = await toStaffUsers(db, [id]);
  if (!user) throw notFound();
  return user;
}

/** 422 field errors for DNI/e-mail taken and unknown role/local ids; null when none. */
async function inputErrors(
  db: Kysely<DB>,
  body: { dni?: string; email?: string; role_ids?: number[]; local_ids?: number[] },
  exceptId?: number,
): Promise<FieldErrors | null> {
  const errors: FieldErrors = {};
  const taken = await findUserConflicts(db, body, exceptId);
  if (taken.dni) errors.dni = [USER_MESSAGES.duplicateDni];
  if (taken.email) errors.email = [USER_MESSAGES.duplicateEmail];
  if (body.role_ids?.length) {
    const found = await db.selectFrom('roles').select('id').where('id', 'in', body.role_ids).execute();
    if (found.length !== body.role_ids.length) errors.role_ids = [USER_MESSAGES.unknownRole];
  }
  if (body.local_ids?.length) {
    const found = await db.selectFrom('locals').select('id').where('id', 'in', body.local_ids).execute();
    if (found.length !== body.local_ids.length) errors.local_ids = [USER_MESSAGES.unknownLocal];
  }
  return Object.keys(errors).length > 0 ? errors : null;
}

/** Runs `fn` in a transaction; a unique violation (lost race on DNI/e-mail) becomes the 422 of {@link inputErrors}. */
async function withConflictCheck<T>(
  db: Kysely<DB>,
  body: { dni?: string; email?: string },
  exceptId: number | undefined,
  fn: (trx: Kysely<DB>) => Promise<T>,
): Promise<T> {
  try {
    return await db.transaction().execute(fn);
  } catch (error) {
    const raced = isUniqueViolation(error) ? await inputErrors(db, body, exceptId) : null;
    if (raced) throw validationError(raced);
    throw error;
  }
}

/** @throws HttpError 409 when no ACTIVO user holds the Administrador role any more (checked inside the transaction, so the change rolls back). */
export async function assertAdministratorRemains(trx: Kysely<DB>): Promise<void> {
  if ((await countActiveHolders(trx, ADMIN_ROLE_NAME)) === 0) throw conflict(USER_MESSAGES.lastAdministrator);
}

/**
 * Creates a staff user (POST /api/users) with no known password: a reset link is queued in the
 * outbox in the same transaction (the administrator never knows the password).
 * @throws HttpError 422 on duplicate DNI/e-mail or unknown role/local ids.
 */
export async function createUserAccount(deps: AppDeps, audit: AuditContext, body: CreateUserBody): Promise<StaffUser> {
  const errors = await inputErrors(deps.db, body);
  if (errors) throw validationError(errors);
  const passwordHash = await hashPassword(generateSecret().raw, deps.config.scryptLogN);
  const now = deps.clock.now().toISOString();
  const id = await withConflictCheck(deps.db, body, undefined, async (trx) => {
    const userId = await insertUser(trx, {
      dni: body.dni,
      email: body.email,
      name: body.name,
      surname: body.surname,
      phone: body.phone ?? null,
      status: 'ACTIVO',
      password_hash: passwordHash,
      system_styles: null,
      created_at: now,
      updated_at: now,
    });
    await assignRoles(trx, userId, body.role_ids);
    await replaceLocals(trx, userId, body.local_ids);
    await recordChange(trx, audit, { entity: 'users', recordId: userId, action: 'CREATE', after: await userSnapshot(trx, userId) });
    await sendPasswordResetLink(
      { ...deps, db: trx },
      { userType: 'COLLABORATOR', accountId: userId, email: normalizeEmail(body.email), name: body.name },
    );
    return userId;
  });
  deps.outbox.kick();
  return getStaffUser(deps.db, id);
}

/**
 * Updates a staff user (PATCH /api/users/{id}); `role_ids`/`local_ids` replace the lists. Role
 * changes take effect on the user's next request and push `PermissionsChangedEvent`. With
 * `version`, the edit applies only to that version of the user (server/db/versions.ts).
 * @throws HttpError 404; 422 as on create; 409 when it leaves no active Administrador or when the
 *   user changed since `version` (STALE_RECORD_MESSAGE, nothing stored).
 */
export async function updateUserAccount(deps: AppDeps, audit: AuditContext, id: number, body: UpdateUserBody): Promise<StaffUser> {
  if (!(await findUserById(deps.db, id))) throw notFound();
  const errors = await inputErrors(deps.db, body, id);
  if (errors) throw validationError(errors);
  const rolesChanged = await withConflictCheck(deps.db, body, id, async (trx) => {
    const before = await userSnapshot(trx, id);
    const { role_ids: roleIds, local_ids: localIds, version, ...columns } = body;
    const updated = await updateUserColumns(trx, id, { ...columns, updated_at: deps.clock.now().toISOString() }, version);
    await assertVersionedUpdate(trx, 'users', id, updated, notFound);
    if (roleIds) await replaceRoles(trx, id, roleIds);
    if (localIds) await replaceLocals(trx, id, localIds);
    await assertAdministratorRemains(trx);
    const after = await userSnapshot(trx, id);
    await recordChange(trx, audit, { entity: 'users', recordId: id, action: 'UPDATE', before, after });
    return JSON.stringify(before?.role_ids) !== JSON.stringify(after?.role_ids);
  });
  if (rolesChanged) deps.broadcaster.publish(permissionsChangedEvents([id], deps.clock));
  return getStaffUser(deps.db, id);
}

/**
 * Deactivates (ending every session) or reactivates a staff user.
 * @throws HttpError 404; 409 on deactivating oneself, when already in that status, or when it leaves no active Administrador.
 */
export async function setUserAccountStatus(deps: AppDeps, audit: AuditContext, id: number, status: AccountStatus): Promise<StaffUser> {
  const user = await findUserById(deps.db, id);
  if (!user) throw notFound();
  if (status === 'INACTIVO' && audit.actor?.userType === 'COLLABORATOR' && audit.actor.accountId === id)
    throw conflict(USER_MESSAGES.selfDeactivation);
  if (user.status === status) throw conflict(status === 'ACTIVO' ? USER_MESSAGES.alreadyActive : USER_MESSAGES.alreadyInactive);
  await deps.db.transaction().execute(async (trx) => {
    const before = await userSnapshot(trx, id);
    await updateUserColumns(trx, id, { status, updated_at: deps.clock.now().toISOString() });
    if (status === 'INACTIVO') {
      await revokeAccountSessions({ db: trx, clock: deps.clock }, { userType: 'COLLABORATOR', accountId: id });
      await assertAdministratorRemains(trx);
    }
    await recordChange(trx, audit, { entity: 'users', recordId: id, action: 'UPDATE', before, after: await userSnapshot(trx, id) });
  });
  return getStaffUser(deps.db, id);
}

/**
 * E-mails an active staff user a password-reset link (queued in the outbox, sent by its delivery).
 * @throws HttpError 404; 409 when the user is inactive.
 */
export async function sendUserPasswordReset(deps: AppDeps, id: number): Promise<void> {
  const user = await findUserById(deps.db, id);
  if (!user) throw notFound();
  if (user.status !== 'ACTIVO') throw conflict(USER_MESSAGES.inactiveReset);
  await sendPasswordResetLink(deps, { userType: 'COLLABORATOR', accountId: id, email: user.email, name: user.name });
  deps.outbox.kick();
}
