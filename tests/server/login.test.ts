import { describe, expect, it, beforeAll } from 'vitest';
import { loginResponseSchema } from '../../src/schemas/session';
import { buildPermissionsNames } from '../../src/schemas/menu-catalogue';
import { CUSTOMER_PERMISSIONS, MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { AUTH_MESSAGES } from '../../server/auth/auth.service';
import { MESSAGES } from '../../server/errors';
import { createCustomer, createStaff, type CustomerFixture, type StaffFixture } from '../../server/testing/fixtures';
import { dialects, postLogin, useTestApp, useTestDatabase } from './harness';

/** docs/product.md §7 row 2: POST /api/auth/login. */

const wrongCredentials = {
  message: AUTH_MESSAGES.wrongCredentials,
  errors: { user: [AUTH_MESSAGES.wrongCredentials] },
};

describe.each(dialects)('login (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);
  let staff: StaffFixture;
  let customer: CustomerFixture;

  beforeAll(async () => {
    staff = await createStaff(db(), {
      email: 'Rosa.Huaman@Parcela.test',
      name: 'Rosa',
      surname: 'Huamán',
      phone: '987111222',
      permissions: [MODULE.crm, SUBMODULE.clientes, MODULE.comercial, SUBMODULE.ventas],
    });
    customer = await createCustomer(db());
  });

  it('logs staff in by DNI with the login response shape', async () => {
    const res = await postLogin(ctx().app, staff.dni, staff.password, 'COLLABORATOR');
    expect(res.statusCode).toBe(200);
    const { data } = loginResponseSchema.parse(res.json());
    expect(data.token).toMatch(/^[0-9a-f]{64}$/);
    expect(data.type).toBe('COLLABORATOR');
    expect(data.system_styles).toBeNull();
    expect(data.user).toEqual({
      id: staff.id,
      name: 'Rosa',
      surname: 'Huamán',
      dni: staff.dni,
      email: 'rosa.huaman@parcela.test',
      phone: '987111222',
      status: 'ACTIVO',
      roles: [expect.stringMatching(/^Rol de prueba/)],
      permissions_names: buildPermissionsNames([MODULE.crm, SUBMODULE.clientes, MODULE.comercial, SUBMODULE.ventas]),
    });
  });

  it('logs staff in by e-mail, case-insensitively', async () => {
    const res = await postLogin(ctx().app, '  ROSA.huaman@parcela.TEST ', staff.password, 'COLLABORATOR');
    expect(res.statusCode).toBe(200);
    expect(res.json().data.user.id).toBe(staff.id);
  });

  it('logs a customer in by document number with the customer role and permissions', async () => {
    const res = await postLogin(ctx().app, customer.documentNumber, customer.password, 'CUSTOMER');
    expect(res.statusCode).toBe(200);
    const { data } = loginResponseSchema.parse(res.json());
    expect(data.type).toBe('CUSTOMER');
    expect(data.user).toMatchObject({
      id: customer.id,
      dni: customer.documentNumber,
      roles: ['Cliente'],
      permissions_names: buildPermissionsNames(CUSTOMER_PERMISSIONS),
    });
  });

  it('does not let a customer log in as staff or the other way round', async () => {
    expect((await postLogin(ctx().app, customer.documentNumber, customer.password, 'COLLABORATOR')).json()).toEqual(wrongCredentials);
    expect((await postLogin(ctx().app, staff.dni, staff.password, 'CUSTOMER')).json()).toEqual(wrongCredentials);
  });

  it('answers a wrong password and an unknown user with the same 422', async () => {
    const wrong = await postLogin(ctx().app, staff.dni, 'incorrecta', 'COLLABORATOR');
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual(wrongCredentials);
    const unknown = await postLogin(ctx().app, '99999999', 'incorrecta', 'COLLABORATOR');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json()).toEqual(wrongCredentials);
  });

  it('refuses an inactive account with the right password', async () => {
    const inactive = await createStaff(db(), { status: 'INACTIVO' });
    const res = await postLogin(ctx().app, inactive.dni, inactive.password, 'COLLABORATOR');
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: AUTH_MESSAGES.inactive, errors: { user: [AUTH_MESSAGES.inactive] } });
    // With a wrong password it stays the generic answer (no status disclosure).
    expect((await postLogin(ctx().app, inactive.dni, 'incorrecta', 'COLLABORATOR')).json()).toEqual(wrongCredentials);
  });

  it('validates the body: missing fields, unknown user_type, unknown keys', async () => {
    const res = await ctx().app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { user: '', user_type: 'ADMIN', extra: 1 },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({
      message: MESSAGES.validation,
      errors: {
        user: ['Ingrese su usuario'],
        password: ['Este campo es obligatorio'],
        user_type: ['El valor no está permitido'],
        extra: [MESSAGES.unknownField],
      },
    });
  });
});
