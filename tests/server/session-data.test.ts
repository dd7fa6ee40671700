import { beforeAll, describe, expect, it } from 'vitest';
import { CUSTOMER_PERMISSIONS, MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { DEFAULT_STYLES, realtimeCredentialsResponseSchema } from '../../src/schemas/session';
import { MESSAGES } from '../../server/errors';
import { STYLES_MESSAGES } from '../../server/platform/styles.service';
import { createCustomer, createLocal, createStaff, type CustomerFixture, type StaffFixture } from '../../server/testing/fixtures';
import { dialects, getWithToken, loginToken, postFormWithToken, postLogin, useTestApp, useTestDatabase } from './harness';

/** docs/product.md §7 rows 3, 8, 9, 10 and 11. */

describe.each(dialects)('session data (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db, {
    pusher: {
      appId: 'parcela',
      key: 'clave-pusher',
      secret: 'secreto-de-prueba',
      secretConfigured: true,
      host: 'ws.parcela.example',
      port: 6001,
      scheme: 'https',
      cluster: 'mt1',
    },
  });
  const asesorPermissions = [MODULE.crm, SUBMODULE.clientes, SUBMODULE.leads, MODULE.comercial, SUBMODULE.ventas];
  let staff: StaffFixture;
  let customer: CustomerFixture;

  beforeAll(async () => {
    staff = await createStaff(db(), { permissions: asesorPermissions });
    customer = await createCustomer(db());
  });

  const staffToken = () => loginToken(ctx().app, staff.dni, staff.password, 'COLLABORATOR');
  const customerToken = () => loginToken(ctx().app, customer.documentNumber, customer.password, 'CUSTOMER');

  it('gives staff the realtime credentials with their own id on the staff channel', async () => {
    const res = await getWithToken(ctx().app, '/api/get_websocket_and_channels_credentials', await staffToken());
    expect(res.statusCode).toBe(200);
    expect(realtimeCredentialsResponseSchema.parse(res.json()).data).toEqual({
      echo_info: {
        broadcaster: 'pusher',
        key: 'clave-pusher',
        cluster: 'mt1',
        encrypted: true,
        wsHost: 'ws.parcela.example',
        wsPort: 6001,
        forceTLS: true,
        authEndpoint: '/broadcasting/auth',
      },
      channels: {
        'administration.notifications': { channel: `administration.notifications.${staff.id}` },
        'administration.notifications_customers': { channel: 'administration.notifications_customers.0' },
      },
    });
  });

  it('gives customers their own id on the customer channel', async () => {
    const res = await getWithToken(ctx().app, '/api/get_websocket_and_channels_credentials', await customerToken());
    expect(res.json().data.channels).toEqual({
      'administration.notifications': { channel: 'administration.notifications.0' },
      'administration.notifications_customers': { channel: `administration.notifications_customers.${customer.id}` },
    });
  });

  it('lists active locals in registration order without auth', async () => {
    await createLocal(db(), { name: 'Zeta Local', address: 'Calle Z 1' });
    await createLocal(db(), { name: 'Alfa Local', address: 'Calle A 1' });
    await createLocal(db(), { name: 'Cerrado', address: 'Calle C 1', active: false });
    const res = await ctx().app.inject({ method: 'GET', url: '/api/private/ver_locales_activos' });
    expect(res.statusCode).toBe(200);
    expect(res.json().message.map((l: { name: string }) => l.name)).toEqual(['Zeta Local', 'Alfa Local']);
    expect(res.json().message[0]).toEqual({ id: expect.any(Number), name: 'Zeta Local', address: 'Calle Z 1' });
  });

  it('lists every role for staff as parallel lists ordered by id, nothing for customers', async () => {
    const rows = await db().selectFrom('roles').select(['id', 'name']).orderBy('id').execute();
    const staffRes = await getWithToken(ctx().app, '/api/private/roles_name', await staffToken());
    expect(staffRes.json()).toEqual({ message: rows.map((r) => r.name), id: rows.map((r) => r.id) });
    const customerRes = await getWithToken(ctx().app, '/api/private/roles_name', await customerToken());
    expect(customerRes.json()).toEqual({ message: [], id: [] });
    expect((await ctx().app.inject({ method: 'GET', url: '/api/private/roles_name' })).statusCode).toBe(401);
  });

  it("answers the caller's own permissions", async () => {
    const staffRes = await getWithToken(ctx().app, '/api/private/api/roles_permissions', await staffToken());
    expect([...staffRes.json().permissions].sort()).toEqual([...asesorPermissions].sort());
    const customerRes = await getWithToken(ctx().app, '/api/private/api/roles_permissions', await customerToken());
    expect(customerRes.json()).toEqual({ permissions: [...CUSTOMER_PERMISSIONS] });
  });

  it('saves staff styles, returned as system_styles at the next login', async () => {
    const styles = { ...DEFAULT_STYLES, primary: 'indigo', darkTheme: true, menuMode: 'overlay' as const };
    const res = await postFormWithToken(ctx().app, '/api/store_or_update_user_style_config', await staffToken(), {
      styles: JSON.stringify(styles),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: STYLES_MESSAGES.saved });
    const login = await postLogin(ctx().app, staff.dni, staff.password, 'COLLABORATOR');
    expect(login.json().data.system_styles).toEqual(styles);
  });

  it.each([
    ['not JSON', '{primary:'],
    ['not style settings', JSON.stringify({ ...DEFAULT_STYLES, preset: 'Otro' })],
    ['with unknown keys', JSON.stringify({ ...DEFAULT_STYLES, extra: 1 })],
  ])('rejects styles that are %s with 422 on `styles`', async (_label, styles) => {
    const res = await postFormWithToken(ctx().app, '/api/store_or_update_user_style_config', await staffToken(), { styles });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ message: MESSAGES.validation, errors: { styles: [STYLES_MESSAGES.invalid] } });
  });

  it('rejects unknown form fields', async () => {
    const res = await postFormWithToken(ctx().app, '/api/store_or_update_user_style_config', await staffToken(), {
      styles: JSON.stringify(DEFAULT_STYLES),
      user_id: '1',
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ user_id: [MESSAGES.unknownField] });
  });
});
