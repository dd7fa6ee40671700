import { sql, type Kysely, type Migration } from 'kysely';
import { SCOPE } from '../../../../src/schemas/permissions';

/**
 * The "own records only" scopes (src/schemas/permissions.ts SCOPE; docs/security.md 31.11): roles
 * whose name begins with "Asesor" (any case; the demo's "Asesor de ventas" and its copies) get the
 * three scopes, so an installation's agents stop seeing every customer and sale on upgrade, as a
 * fresh seed has it. Other roles keep seeing everything; an administrator narrows them in the
 * roles screen. No permission changes for roles without the submodule a scope narrows: the scope
 * is given only with it (the exports scope with Ventas, as the matrix shows it).
 */
export function ownRecordsScopesMigration(): Migration {
  const grants: readonly [string, string][] = [
    [SCOPE.soloSusClientes, 'Acceso submódulo clientes'],
    [SCOPE.soloSusVentas, 'Acceso submódulo ventas'],
    [SCOPE.soloSusExportaciones, 'Acceso submódulo ventas'],
  ];
  return {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async up(db: Kysely<any>) {
      for (const [scope, submodule] of grants)
        await sql`insert into role_permissions (role_id, permission)
          select r.id, ${scope} from roles r where lower(r.name) like 'asesor%'
          and exists (select 1 from role_permissions g where g.role_id = r.id and g.permission = ${submodule})
          and not exists (select 1 from role_permissions p where p.role_id = r.id and p.permission = ${scope})`.execute(db);
    },

    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    async down(db: Kysely<any>) {
      await sql`delete from role_permissions where permission in (${sql.join(Object.values(SCOPE))})`.execute(db);
    },
  };
}
