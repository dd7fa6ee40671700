import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { SCOPE, SUBMODULE } from '../../src/schemas/permissions';
import type { DB } from '../db/database';
import { requireAuth } from './guard';

/**
 * "Own records only" scopes (src/schemas/permissions.ts SCOPE; docs/security.md 31.11). A scope
 * narrows a submodule to the caller's own records when every role of the caller that grants the
 * submodule holds the scope: roles add up, so one role granting the submodule without the scope
 * widens again.
 */

/** The scope permissions and the submodule whose roles each is read among. */
type ScopeName = (typeof SCOPE)[keyof typeof SCOPE];

/**
 * Whether staff user `userId` is narrowed by `scope` within `submodule` (see the module's comment).
 * False when no role grants `submodule` (the route guard refuses that caller anyway).
 */
export async function narrowedBy(db: Kysely<DB>, userId: number, submodule: string, scope: ScopeName): Promise<boolean> {
  const rows = await db
    .selectFrom('user_roles')
    .innerJoin('role_permissions as granted', 'granted.role_id', 'user_roles.role_id')
    .leftJoin('role_permissions as scoped', (join) =>
      join.onRef('scoped.role_id', '=', 'user_roles.role_id').on('scoped.permission', '=', scope),
    )
    .select('scoped.permission as scope')
    .where('user_roles.user_id', '=', userId)
    .where('granted.permission', '=', submodule)
    .execute();
  return rows.length > 0 && rows.every((r) => r.scope !== null);
}

/**
 * The staff user whose records alone a request may reach under `scope` within `submodule`, or
 * null when it reaches everyone's (not narrowed, or a customer account: their own routes scope them).
 */
export async function ownerScope(db: Kysely<DB>, request: FastifyRequest, submodule: string, scope: ScopeName): Promise<number | null> {
  const auth = requireAuth(request);
  if (auth.userType !== 'COLLABORATOR') return null;
  return (await narrowedBy(db, auth.accountId, submodule, scope)) ? auth.accountId : null;
}

/** The caller's customers scope (CRM → Clientes): the asesor whose customers alone it reaches, or null. */
export const customersOwner = (db: Kysely<DB>, request: FastifyRequest) =>
  ownerScope(db, request, SUBMODULE.clientes, SCOPE.soloSusClientes);

/** The caller's sales scope (Comercial → Ventas): the agent whose sales alone it reaches, or null. */
export const salesOwner = (db: Kysely<DB>, request: FastifyRequest) => ownerScope(db, request, SUBMODULE.ventas, SCOPE.soloSusVentas);

/**
 * The caller's exports scope for a file or report of `submodule` (Reporte de ventas, Registro de
 * cuotas): the agent whose sales alone it contains, or null. Narrowed when the roles granting that
 * submodule all hold 'Solo sus exportaciones', or when the caller's sales are narrowed (a report
 * never shows sales the list would hide).
 */
export async function exportsOwner(db: Kysely<DB>, request: FastifyRequest, submodule: string): Promise<number | null> {
  return (await ownerScope(db, request, submodule, SCOPE.soloSusExportaciones)) ?? (await salesOwner(db, request));
}

/**
 * The caller's commissions scope (Administración → Comisiones y Pagos): the staff user whose own
 * and whose team's commissions alone it reaches ('Solo sus comisiones y las de su equipo'), or null.
 */
export const commissionsOwner = (db: Kysely<DB>, request: FastifyRequest) =>
  ownerScope(db, request, SUBMODULE.comisiones, SCOPE.soloSusComisiones);
