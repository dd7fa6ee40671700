import { describe, expect, it } from 'vitest';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { PERMISSIONS_CHANGED_EVENT, roleResponseSchema, rolesPageSchema } from '../../src/schemas/configuracion/roles';
import { MESSAGES } from '../../server/errors';
import { notificationChannelOf } from '../../server/realtime/realtime.service';
import { ROLE_MESSAGES } from '../../server/modules/configuracion/roles.service';
import { ADMIN_ROLE_NAME } from '../../server/modules/configuracion/users.service';
import { createRole, createSession, createStaff } from '../../server/testing/fixtures';
import { bearer, dialects, getWithToken, recordingBroadcaster, useTestApp, useTestDatabase } from './harness';

/** Configuración → Roles y permisos: /api/roles. */

const ROLES_PERMISSIONS = [MODULE.configuracion, SUBMODULE.roles];
let n = 0;
const uniqueName = (prefix: string) => `${prefix} ${(n += 1)}`;

describe.each(dialects)('roles (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const broadcaster = recordingBroadcaster();
  const ctx = useTestApp(db, {}, { broadcaster });

  const manager = async () => createSession(db(), await createStaff(db(), { permissions: ROLES_PERMISSIONS }));
  const send = (method: 'POST' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
    ctx().app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const history = (id: number) =>
    db().selectFrom('change_history').selectAll().where('entity', '=', 'roles').where('record_id', '=', String(id)).orderBy('id').execute();

  it('creates a role with permissions (201) and records the CREATE', async () => {
    const token = await manager();
    const name = uniqueName('Tesorería');
    const res = await send('POST', '/api/roles', token, { name, permissions: [MODULE.finanzas, SUBMODULE.bancos] });
    expect(res.statusCode).toBe(201);
    const { data } = roleResponseSchema.parse(res.json());
    expect(data).toMatchObject({ name, permissions: [SUBMODULE.bancos, MODULE.finanzas].sort(), holders: 0 });
    const [row] = await history(data.id);
    expect(row).toMatchObject({ action: 'CREATE' });
  });

  it.each([
    ['an unknown permission', { permissions: ['Acceso módulo inventado'] }, 'permissions.0', 'Permiso desconocido'],
    ['a customer-only permission', { permissions: [SUBMODULE.misComprasCustomers] }, 'permissions.0', 'Permiso desconocido'],
    ['an empty name', { name: ' ' }, 'name', 'Ingrese el nombre del rol'],
    ['an unknown key', { color: 'red' }, 'color', MESSAGES.unknownField],
  ])('rejects %s with 422', async (_label, override, field, message) => {
    const token = await manager();
    const res = await send('POST', '/api/roles', token, { name: uniqueName('Rol'), permissions: [], ...override });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors[field]).toEqual([message]);
  });

  it('rejects a duplicate name with 422 (create, rename, copy)', async () => {
    const token = await manager();
    const name = uniqueName('Duplicado');
    const other = await createRole(db(), uniqueName('Otro'), []);
    await createRole(db(), name, []);
    for (const res of [
      await send('POST', '/api/roles', token, { name, permissions: [] }),
      await send('PATCH', `/api/roles/${other}`, token, { name }),
      await send('POST', `/api/roles/${other}/copy`, token, { name }),
    ]) {
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ name: [ROLE_MESSAGES.duplicateName] });
    }
  });

  it('lists roles paged with holder counts and searches by name', async () => {
    const token = await manager();
    const name = uniqueName('Buscable');
    await createStaff(db(), { permissions: [MODULE.crm] });
    const roleId = await createRole(db(), name, [MODULE.crm]);
    await createStaff(db(), { roleNames: [name] });
    const page = rolesPageSchema.parse(
      (await getWithToken(ctx().app, `/api/roles?q=${encodeURIComponent('buscable')}&per_page=100`, token)).json(),
    );
    expect(page.data.find((r) => r.id === roleId)).toMatchObject({ holders: 1, permissions: [MODULE.crm] });
    expect(page.meta).toMatchObject({ page: 1, per_page: 100 });
  });

  it('a permission change applies on the holders next request and pushes PermissionsChangedEvent', async () => {
    const token = await manager();
    const name = uniqueName('Cambiante');
    const roleId = await createRole(db(), name, [MODULE.crm, SUBMODULE.clientes]);
    const holder = await createStaff(db(), { roleNames: [name] });
    const holderToken = await createSession(db(), holder);
    // The holder may read history only after the change.
    expect((await getWithToken(ctx().app, '/api/change-history', holderToken)).statusCode).toBe(403);
    broadcaster.events.length = 0;
    const res = await send('PATCH', `/api/roles/${roleId}`, token, { permissions: [MODULE.historial] });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.permissions).toEqual([MODULE.historial]);
    expect((await getWithToken(ctx().app, '/api/change-history', holderToken)).statusCode).toBe(200);
    expect(broadcaster.events).toEqual([
      {
        channel: notificationChannelOf({ userType: 'COLLABORATOR', accountId: holder.id }),
        event: PERMISSIONS_CHANGED_EVENT,
        data: { user_id: holder.id, changed_at: expect.any(String) },
      },
    ]);
    const rows = await history(roleId);
    expect(JSON.parse(rows.at(-1)!.changed_fields)).toEqual(['permissions']);
  });

  it('copies a role with its permissions', async () => {
    const token = await manager();
    const source = await createRole(db(), uniqueName('Origen'), [MODULE.reportes]);
    const res = await send('POST', `/api/roles/${source}/copy`, token, { name: uniqueName('Copia') });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ permissions: [MODULE.reportes], holders: 0 });
    expect((await send('POST', '/api/roles/999999/copy', token, { name: uniqueName('X') })).statusCode).toBe(404);
  });

  it('deletes a role nobody holds (204, DELETE recorded); 409 when held; 404 unknown', async () => {
    const token = await manager();
    const free = await createRole(db(), uniqueName('Libre'), [MODULE.crm]);
    const heldName = uniqueName('Ocupado');
    const held = await createRole(db(), heldName, []);
    await createStaff(db(), { roleNames: [heldName] });
    expect((await send('DELETE', `/api/roles/${free}`, token)).statusCode).toBe(204);
    expect((await history(free)).at(-1)).toMatchObject({ action: 'DELETE', after: null });
    const res = await send('DELETE', `/api/roles/${held}`, token);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: ROLE_MESSAGES.held });
    expect((await send('DELETE', `/api/roles/${free}`, token)).statusCode).toBe(404);
  });

  it('the Administrador role cannot be renamed, changed or deleted (409)', async () => {
    const token = await manager();
    const admin =
      (await db().selectFrom('roles').select('id').where('name', '=', ADMIN_ROLE_NAME).executeTakeFirst())?.id ??
      (await createRole(db(), ADMIN_ROLE_NAME, []));
    expect((await send('PATCH', `/api/roles/${admin}`, token, { name: 'Jefe' })).statusCode).toBe(409);
    expect((await send('DELETE', `/api/roles/${admin}`, token)).json()).toEqual({ message: ROLE_MESSAGES.adminLocked });
  });

  it('is 403 without the Roles submodule', async () => {
    const other = await createStaff(db(), { permissions: [MODULE.configuracion, SUBMODULE.usuarios] });
    expect((await getWithToken(ctx().app, '/api/roles', await createSession(db(), other))).statusCode).toBe(403);
  });
});
