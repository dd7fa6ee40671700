import type { Kysely } from 'kysely';
import type { Clock } from '../../clock';
import type { AccountStatus, DB } from '../../db/database';
import { inTransaction } from '../../db/portable';
import { hashPassword } from '../../auth/password';
import { findRoleByName } from '../roles/roles.repository';
import { assignRoles, insertUser } from './users.repository';

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
  options: { scryptLogN: number; clock: Clock },
): Promise<number> {
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
    return id;
  });
}
