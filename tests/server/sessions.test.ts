import { describe, expect, it } from 'vitest';
import { HOUR_MS, DAY_MS } from '../../server/clock';
import { TOKEN_TOUCH_INTERVAL_MS } from '../../server/auth/tokens';
import { MESSAGES } from '../../server/errors';
import { AUTH_MESSAGES } from '../../server/auth/auth.service';
import { createCustomer, createStaff, setSubscription } from '../../server/testing/fixtures';
import { bearer, dialects, getWithToken, loginToken, postFormWithToken, postLogin, useTestApp, useTestDatabase } from './harness';

/** Bearer tokens: expiry, logout (row 7), password change (row 15) and the route guard. */

const PROTECTED = '/api/get_websocket_and_channels_credentials';

describe.each(dialects)('sessions (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  it('answers 401 without a token, with a malformed one and with an unknown one', async () => {
    const { app } = ctx();
    for (const headers of [{}, { authorization: 'Bearer nope' }, bearer('f'.repeat(64)), { authorization: 'Basic abc' }]) {
      const res = await app.inject({ method: 'GET', url: PROTECTED, headers });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ message: MESSAGES.unauthenticated });
    }
  });

  it('expires a token after 8 idle hours, sliding with each use', async () => {
    const { app, clock } = ctx();
    const staff = await createStaff(db(), { clock });
    const token = await loginToken(app, staff.dni, staff.password, 'COLLABORATOR');
    clock.advance(7 * HOUR_MS);
    expect((await getWithToken(app, PROTECTED, token)).statusCode).toBe(200);
    clock.advance(7 * HOUR_MS); // 14 h after login but only 7 h idle
    expect((await getWithToken(app, PROTECTED, token)).statusCode).toBe(200);
    clock.advance(8 * HOUR_MS);
    expect((await getWithToken(app, PROTECTED, token)).statusCode).toBe(401);
  });

  it('writes the sliding last use at most once a minute, not on every request', async () => {
    const { app, clock } = ctx();
    const staff = await createStaff(db(), { clock });
    const token = await loginToken(app, staff.dni, staff.password, 'COLLABORATOR');
    const lastUsed = async () =>
      (await db().selectFrom('access_tokens').select('last_used_at').orderBy('id', 'desc').executeTakeFirstOrThrow()).last_used_at;
    const loggedIn = await lastUsed();
    clock.advance(TOKEN_TOUCH_INTERVAL_MS - 1);
    expect((await getWithToken(app, PROTECTED, token)).statusCode).toBe(200);
    expect(await lastUsed()).toBe(loggedIn);
    clock.advance(1);
    expect((await getWithToken(app, PROTECTED, token)).statusCode).toBe(200);
    expect(new Date(await lastUsed()).getTime()).toBe(new Date(loggedIn).getTime() + TOKEN_TOUCH_INTERVAL_MS);
    // The idle expiry counts from the last written use: a minute's slack at most.
    clock.advance(8 * HOUR_MS - 1);
    expect((await getWithToken(app, PROTECTED, token)).statusCode).toBe(200);
    clock.advance(8 * HOUR_MS);
    expect((await getWithToken(app, PROTECTED, token)).statusCode).toBe(401);
  });

  it('expires a token 7 days after login even when used constantly', async () => {
    const { app, clock } = ctx();
    const staff = await createStaff(db());
    const token = await loginToken(app, staff.dni, staff.password, 'COLLABORATOR');
    for (let elapsed = 0; elapsed < 7 * DAY_MS - 6 * HOUR_MS; elapsed += 6 * HOUR_MS) {
      clock.advance(6 * HOUR_MS);
      expect((await getWithToken(app, PROTECTED, token)).statusCode).toBe(200);
    }
    clock.advance(6 * HOUR_MS);
    expect((await getWithToken(app, PROTECTED, token)).statusCode).toBe(401);
  });

  it('logs out: the token is revoked, other sessions stay', async () => {
    const { app } = ctx();
    const customer = await createCustomer(db());
    const token = await loginToken(app, customer.documentNumber, customer.password, 'CUSTOMER');
    const other = await loginToken(app, customer.documentNumber, customer.password, 'CUSTOMER');
    const res = await postFormWithToken(app, '/api/auth/logout', token, { user_type: 'CUSTOMER' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: AUTH_MESSAGES.loggedOut });
    expect((await getWithToken(app, PROTECTED, token)).statusCode).toBe(401);
    expect((await getWithToken(app, PROTECTED, other)).statusCode).toBe(200);
    expect((await postFormWithToken(app, '/api/auth/logout', token, { user_type: 'CUSTOMER' })).statusCode).toBe(401);
  });

  it('stops honouring tokens of an account that became inactive', async () => {
    const { app } = ctx();
    const staff = await createStaff(db());
    const token = await loginToken(app, staff.dni, staff.password, 'COLLABORATOR');
    await db().updateTable('users').set({ status: 'INACTIVO' }).where('id', '=', staff.id).execute();
    expect((await getWithToken(app, PROTECTED, token)).statusCode).toBe(401);
  });

  it('changes the password: wrong current is 422, then other sessions die and the current one lives', async () => {
    const { app } = ctx();
    const staff = await createStaff(db());
    const current = await loginToken(app, staff.dni, staff.password, 'COLLABORATOR');
    const other = await loginToken(app, staff.email, staff.password, 'COLLABORATOR');

    const wrong = await postFormWithToken(app, '/api/change_password_user', current, {
      actual_password: 'incorrecta',
      new_password: 'NuevaClave#1',
    });
    expect(wrong.statusCode).toBe(422);
    expect(wrong.json()).toEqual({
      message: AUTH_MESSAGES.wrongCurrentPassword,
      errors: { actual_password: [AUTH_MESSAGES.wrongCurrentPassword] },
    });
    expect((await getWithToken(app, PROTECTED, other)).statusCode).toBe(200);

    const short = await postFormWithToken(app, '/api/change_password_user', current, {
      actual_password: staff.password,
      new_password: 'corta',
    });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors).toEqual({ new_password: ['La contraseña debe tener al menos 8 caracteres'] });

    const ok = await postFormWithToken(app, '/api/change_password_user', current, {
      actual_password: staff.password,
      new_password: 'NuevaClave#1',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ message: AUTH_MESSAGES.passwordChanged });
    expect((await getWithToken(app, PROTECTED, current)).statusCode).toBe(200);
    expect((await getWithToken(app, PROTECTED, other)).statusCode).toBe(401);
    expect((await postLogin(app, staff.dni, staff.password, 'COLLABORATOR')).statusCode).toBe(422);
    expect((await postLogin(app, staff.dni, 'NuevaClave#1', 'COLLABORATOR')).statusCode).toBe(200);
  });

  it('lets customers change their password too', async () => {
    const { app } = ctx();
    const customer = await createCustomer(db());
    const token = await loginToken(app, customer.documentNumber, customer.password, 'CUSTOMER');
    const res = await postFormWithToken(app, '/api/change_password_user', token, {
      actual_password: customer.password,
      new_password: 'OtraClave#2',
    });
    expect(res.statusCode).toBe(200);
    expect((await postLogin(app, customer.documentNumber, 'OtraClave#2', 'CUSTOMER')).statusCode).toBe(200);
  });

  it('answers 403 to a customer on a staff-only route', async () => {
    const { app } = ctx();
    const customer = await createCustomer(db());
    const token = await loginToken(app, customer.documentNumber, customer.password, 'CUSTOMER');
    const res = await postFormWithToken(app, '/api/store_or_update_user_style_config', token, { styles: '{}' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ message: MESSAGES.forbidden });
  });

  it('answers 402 on authenticated routes while the subscription is lapsed, public routes keep working', async () => {
    const { app } = ctx();
    const staff = await createStaff(db());
    const token = await loginToken(app, staff.dni, staff.password, 'COLLABORATOR');
    await setSubscription(db(), false);
    try {
      const res = await getWithToken(app, PROTECTED, token);
      expect(res.statusCode).toBe(402);
      expect(res.json()).toEqual({ message: MESSAGES.subscriptionLapsed });
      expect((await app.inject({ method: 'GET', url: PROTECTED })).statusCode).toBe(401);
      expect((await app.inject({ method: 'GET', url: '/api/private/ver_locales_activos' })).statusCode).toBe(200);
      expect((await postLogin(app, staff.dni, staff.password, 'COLLABORATOR')).statusCode).toBe(200);
    } finally {
      await setSubscription(db(), true);
    }
    expect((await getWithToken(app, PROTECTED, token)).statusCode).toBe(200);
  });

  it('answers 401 before validating the body of a protected route', async () => {
    const res = await ctx().app.inject({ method: 'POST', url: '/api/change_password_user', payload: { nope: 1 } });
    expect(res.statusCode).toBe(401);
  });
});
