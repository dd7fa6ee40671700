import { describe, expect, it } from 'vitest';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { PERMISSIONS_CHANGED_EVENT } from '../../src/schemas/configuracion/roles';
import { staffUserResponseSchema, usersPageSchema } from '../../src/schemas/configuracion/users';
import { MESSAGES } from '../../server/errors';
import { notificationChannelOf } from '../../server/realtime/realtime.service';
import { ADMIN_ROLE_NAME, USER_MESSAGES } from '../../server/modules/configuracion/users.service';
import { createLocal, createRole, createSession, createStaff, FIXTURE_PASSWORD, type StaffFixture } from '../../server/testing/fixtures';
import { bearer, dialects, getWithToken, postLogin, recordingBroadcaster, useTestApp, useTestDatabase } from './harness';

/** Configuración → Usuarios: /api/users. */

const USERS_PERMISSIONS = [MODULE.configuracion, SUBMODULE.usuarios];
let n = 0;

/** A valid POST /api/users body with a unique DNI and e-mail. */
function newUserBody(overrides: Record<string, unknown> = {}) {
  n += 1;
  return {
    dni: `4${String(n).padStart(7, '0')}`,
    email: `Nuevo${n}@Parcela.test`,
    name: 'Luis',
    surname: `Ramos ${n}`,
    role_ids: [] as number[],
    ...overrides,
  };
}

describe.each(dialects)('users (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const broadcaster = recordingBroadcaster();
  const ctx = useTestApp(db, {}, { broadcaster });

  let adminRoleId: number | undefined;
  /** The Administrador role (created once per database). */
  async function adminRole(): Promise<number> {
    adminRoleId ??= await createRole(db(), ADMIN_ROLE_NAME, [MODULE.configuracion, SUBMODULE.usuarios]);
    return adminRoleId;
  }

  /** An active Administrador with a token. */
  async function admin(): Promise<{ staff: StaffFixture; token: string }> {
    await adminRole();
    const staff = await createStaff(db(), { roleNames: [ADMIN_ROLE_NAME], clock: ctx().clock });
    return { staff, token: await createSession(db(), staff) };
  }

  const send = (method: 'POST' | 'PATCH' | 'GET', url: string, token: string, payload?: unknown) =>
    ctx().app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });

  const historyCount = async (recordId: number) =>
    (await db().selectFrom('change_history').select('id').where('entity', '=', 'users').where('record_id', '=', String(recordId)).execute())
      .length;

  describe('POST /api/users', () => {
    it('creates the user with roles and locals, e-mails a reset link and records the CREATE', async () => {
      const { token, staff } = await admin();
      const roleId = await createRole(db(), `Ventas ${dialect}`, [MODULE.crm]);
      const localId = await createLocal(db(), { name: 'Sede Norte' });
      const body = newUserBody({ role_ids: [roleId], local_ids: [localId], phone: '987654321' });
      const res = await send('POST', '/api/users', token, body);
      expect(res.statusCode).toBe(201);
      const { data } = staffUserResponseSchema.parse(res.json());
      expect(data).toMatchObject({
        dni: body.dni,
        email: body.email.toLowerCase(),
        status: 'ACTIVO',
        roles: [{ id: roleId }],
        locals: [{ id: localId, name: 'Sede Norte' }],
      });
      expect(res.body).not.toMatch(/password/i);
      const mail = await db().selectFrom('outbox').selectAll().where('recipient', '=', data.email).executeTakeFirst();
      expect(mail?.link).toMatch(/\/auth\/reset_password\/[0-9a-f]{64}\/collaborator$/);
      const [row] = await db()
        .selectFrom('change_history')
        .selectAll()
        .where('entity', '=', 'users')
        .where('record_id', '=', String(data.id))
        .orderBy('id')
        .execute();
      expect(row).toMatchObject({ action: 'CREATE', actor_type: 'COLLABORATOR', actor_id: staff.id });
      expect(row!.after).not.toMatch(/password/);
      expect(JSON.parse(row!.after!)).toMatchObject({ role_ids: [roleId], local_ids: [localId] });
    });

    it.each([
      ['a DNI without 8 digits', { dni: '1234567' }, 'dni', 'El DNI debe tener 8 dígitos'],
      ['an invalid e-mail', { email: 'nope' }, 'email', 'Ingrese un correo electrónico válido'],
      ['no role', { role_ids: [] }, 'role_ids', 'Asigne al menos un rol'],
      ['an unknown key', { password: 'x' }, 'password', MESSAGES.unknownField],
      ['an unknown role', { role_ids: [999999] }, 'role_ids', USER_MESSAGES.unknownRole],
      ['an unknown local', { local_ids: [999999] }, 'local_ids', USER_MESSAGES.unknownLocal],
    ])('rejects %s with 422 and stores nothing', async (_label, override, field, message) => {
      const { token } = await admin();
      const body = newUserBody({ role_ids: [await adminRole()], ...override });
      const res = await send('POST', '/api/users', token, body);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors[field]).toEqual([message]);
      expect(
        await db().selectFrom('users').select('id').where('email', '=', String(body.email).toLowerCase()).executeTakeFirst(),
      ).toBeUndefined();
    });

    it('rejects a duplicate DNI and e-mail (any case) with 422', async () => {
      const { token, staff } = await admin();
      const res = await send(
        'POST',
        '/api/users',
        token,
        newUserBody({ dni: staff.dni, email: staff.email.toUpperCase(), role_ids: [await adminRole()] }),
      );
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ dni: [USER_MESSAGES.duplicateDni], email: [USER_MESSAGES.duplicateEmail] });
    });
  });

  describe('GET /api/users', () => {
    it('pages, searches and filters', async () => {
      const { token } = await admin();
      const role = await createRole(db(), `Filtro ${dialect}`, [MODULE.crm]);
      const found = await createStaff(db(), { surname: 'Zúñiga Único', roleNames: [`Filtro ${dialect}`] });
      const all = usersPageSchema.parse((await getWithToken(ctx().app, '/api/users?per_page=2', token)).json());
      expect(all.data).toHaveLength(2);
      expect(all.meta.total).toBeGreaterThan(2);
      const byQ = usersPageSchema.parse((await getWithToken(ctx().app, '/api/users?q=ZÚÑIGA', token)).json());
      const byDni = usersPageSchema.parse((await getWithToken(ctx().app, `/api/users?q=${found.dni}`, token)).json());
      const byRole = usersPageSchema.parse((await getWithToken(ctx().app, `/api/users?role_id=${role}&status=ACTIVO`, token)).json());
      expect(byDni.data.map((u) => u.id)).toEqual([found.id]);
      expect(byRole.data.map((u) => u.id)).toEqual([found.id]);
      // lower() of non-ASCII letters differs by dialect; the DNI and role filters are exact.
      expect(byQ.meta.total).toBeLessThanOrEqual(1);
      expect((await getWithToken(ctx().app, '/api/users?status=OTRO', token)).statusCode).toBe(422);
    });

    it('answers 404 for an unknown or malformed id', async () => {
      const { token } = await admin();
      expect((await getWithToken(ctx().app, '/api/users/999999', token)).statusCode).toBe(404);
      expect((await getWithToken(ctx().app, '/api/users/abc', token)).statusCode).toBe(404);
    });

    it('is 403 without the Usuarios submodule and 401 without a token', async () => {
      const other = await createStaff(db(), { permissions: [MODULE.configuracion] });
      expect((await getWithToken(ctx().app, '/api/users', await createSession(db(), other))).statusCode).toBe(403);
      expect((await ctx().app.inject({ method: 'GET', url: '/api/users' })).statusCode).toBe(401);
    });
  });

  describe('PATCH /api/users/{id}', () => {
    it('updates fields and replaces roles, records the diff and pushes PermissionsChangedEvent', async () => {
      const { token } = await admin();
      const target = await createStaff(db(), { permissions: [MODULE.crm] });
      const role = await createRole(db(), `Nuevo rol ${dialect}`, [MODULE.finanzas]);
      broadcaster.events.length = 0;
      const res = await send('PATCH', `/api/users/${target.id}`, token, { name: 'Carla', role_ids: [role] });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ name: 'Carla', roles: [{ id: role }] });
      const rows = await db()
        .selectFrom('change_history')
        .selectAll()
        .where('entity', '=', 'users')
        .where('record_id', '=', String(target.id))
        .where('action', '=', 'UPDATE')
        .orderBy('id')
        .execute();
      expect(JSON.parse(rows[0]!.changed_fields)).toEqual(expect.arrayContaining(['name', 'role_ids']));
      expect(broadcaster.events).toEqual([
        expect.objectContaining({
          channel: notificationChannelOf({ userType: 'COLLABORATOR', accountId: target.id }),
          event: PERMISSIONS_CHANGED_EVENT,
        }),
      ]);
      // Effective on the next request.
      const targetToken = await createSession(db(), target);
      const perms = await getWithToken(ctx().app, '/api/private/api/roles_permissions', targetToken);
      expect(perms.json().permissions).toEqual([MODULE.finanzas]);
    });

    it('rejects a duplicate e-mail (422) and an unknown id (404)', async () => {
      const { token, staff } = await admin();
      const target = await createStaff(db());
      const before = await historyCount(target.id);
      const res = await send('PATCH', `/api/users/${target.id}`, token, { email: staff.email });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ email: [USER_MESSAGES.duplicateEmail] });
      expect(await historyCount(target.id)).toBe(before);
      expect((await send('PATCH', '/api/users/999999', token, { name: 'X' })).statusCode).toBe(404);
    });
  });

  describe('last Administrador and deactivation', () => {
    it('refuses to demote the last active Administrador (409, nothing stored)', async () => {
      // Fresh database state for this rule: deactivate every other Administrador first.
      const { staff, token } = await admin();
      await db().updateTable('users').set({ status: 'INACTIVO' }).where('id', '<>', staff.id).execute();
      const other = await createRole(db(), `Otro ${dialect}`, [MODULE.configuracion, SUBMODULE.usuarios]);
      const before = await historyCount(staff.id);
      const res = await send('PATCH', `/api/users/${staff.id}`, token, { role_ids: [other] });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: USER_MESSAGES.lastAdministrator });
      expect(await historyCount(staff.id)).toBe(before);
      const still = await getWithToken(ctx().app, `/api/users/${staff.id}`, token);
      expect(still.json().data.roles.map((r: { name: string }) => r.name)).toEqual([ADMIN_ROLE_NAME]);
    });

    it('refuses self-deactivation (409)', async () => {
      const { staff, token } = await admin();
      const res = await send('POST', `/api/users/${staff.id}/deactivate`, token);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: USER_MESSAGES.selfDeactivation });
    });

    it('refuses to deactivate the last active Administrador (409)', async () => {
      const { staff } = await admin();
      await db().updateTable('users').set({ status: 'INACTIVO' }).where('id', '<>', staff.id).execute();
      // An inactive admin cannot call; a non-admin with the Usuarios submodule tries.
      const manager = await createStaff(db(), { permissions: USERS_PERMISSIONS });
      const res = await send('POST', `/api/users/${staff.id}/deactivate`, await createSession(db(), manager));
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ message: USER_MESSAGES.lastAdministrator });
    });

    it('deactivation ends the sessions (next request 401, login refused); reactivation allows login again', async () => {
      const { token } = await admin();
      const target = await createStaff(db(), { permissions: [MODULE.crm] });
      const targetToken = await createSession(db(), target);
      const res = await send('POST', `/api/users/${target.id}/deactivate`, token);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.status).toBe('INACTIVO');
      expect((await getWithToken(ctx().app, '/api/private/api/roles_permissions', targetToken)).statusCode).toBe(401);
      const revoked = await db()
        .selectFrom('access_tokens')
        .select('revoked_at')
        .where('account_id', '=', target.id)
        .where('user_type', '=', 'COLLABORATOR')
        .execute();
      expect(revoked.every((t) => t.revoked_at !== null)).toBe(true);
      expect((await send('POST', `/api/users/${target.id}/deactivate`, token)).statusCode).toBe(409);
      expect((await send('POST', `/api/users/${target.id}/reactivate`, token)).json().data.status).toBe('ACTIVO');
      expect((await postLogin(ctx().app, target.dni, FIXTURE_PASSWORD, 'COLLABORATOR')).statusCode).toBe(200);
    });
  });

  describe('POST /api/users/{id}/send-password-reset', () => {
    it('queues a reset e-mail for an active user; 409 for an inactive one', async () => {
      const { token } = await admin();
      const target = await createStaff(db());
      const res = await send('POST', `/api/users/${target.id}/send-password-reset`, token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ message: USER_MESSAGES.resetSent });
      expect(await db().selectFrom('outbox').select('id').where('recipient', '=', target.email).executeTakeFirst()).toBeDefined();
      await db().updateTable('users').set({ status: 'INACTIVO' }).where('id', '=', target.id).execute();
      expect((await send('POST', `/api/users/${target.id}/send-password-reset`, token)).statusCode).toBe(409);
    });
  });
});
