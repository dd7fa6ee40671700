import { describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../server/clock';
import { MESSAGES } from '../../server/errors';
import { createStaff } from '../../server/testing/fixtures';
import { dialects, postLogin, useTestApp, useTestDatabase } from './harness';

/** Per-account (in memory, 15 min) and per-IP (@fastify/rate-limit) limits of the public auth routes. */

const tooMany = { message: MESSAGES.tooManyRequests };

describe.each(dialects)('rate limits per account (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db, { loginRateLimitPerAccount: 3 });

  it('refuses even the right password after too many failures, until the window passes', async () => {
    const { app, clock } = ctx();
    const staff = await createStaff(db());
    for (let i = 0; i < 3; i += 1) expect((await postLogin(app, staff.dni, 'incorrecta', 'COLLABORATOR')).statusCode).toBe(422);

    const blocked = await postLogin(app, staff.dni, staff.password, 'COLLABORATOR');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(tooMany);
    // Counted per identifier: other accounts are unaffected.
    const other = await createStaff(db());
    expect((await postLogin(app, other.dni, other.password, 'COLLABORATOR')).statusCode).toBe(200);

    clock.advance(15 * MINUTE_MS);
    expect((await postLogin(app, staff.dni, staff.password, 'COLLABORATOR')).statusCode).toBe(200);
  });

  it('counts identifiers case-insensitively and forgets failures after a success', async () => {
    const { app } = ctx();
    const staff = await createStaff(db());
    await postLogin(app, staff.email.toUpperCase(), 'incorrecta', 'COLLABORATOR');
    await postLogin(app, staff.email, 'incorrecta', 'COLLABORATOR');
    expect((await postLogin(app, ` ${staff.email} `, staff.password, 'COLLABORATOR')).statusCode).toBe(200);
    await postLogin(app, staff.email, 'incorrecta', 'COLLABORATOR');
    await postLogin(app, staff.email, 'incorrecta', 'COLLABORATOR');
    expect((await postLogin(app, staff.email, staff.password, 'COLLABORATOR')).statusCode).toBe(200);
  });

  it('limits reset requests per DNI', async () => {
    const { app } = ctx();
    const request = () => app.inject({ method: 'POST', url: '/api/request_password_reset_collaborator', payload: { dni: '11112222' } });
    for (let i = 0; i < 3; i += 1) expect((await request()).statusCode).toBe(200);
    const blocked = await request();
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(tooMany);
  });
});

describe.each(dialects)('rate limits per IP (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db, { loginRateLimitPerIp: 2 });

  it('answers 429 with the Spanish message past LOGIN_RATE_LIMIT_PER_IP requests a minute', async () => {
    const { app } = ctx();
    expect((await postLogin(app, '10000001', 'x', 'COLLABORATOR')).statusCode).toBe(422);
    expect((await postLogin(app, '10000002', 'x', 'COLLABORATOR')).statusCode).toBe(422);
    const blocked = await postLogin(app, '10000003', 'x', 'COLLABORATOR');
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual(tooMany);
    expect(blocked.headers['retry-after']).toBeDefined();
    // Other routes are not limited.
    expect((await app.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
  });

  it('limits registration per IP', async () => {
    const { app } = ctx();
    const register = () => app.inject({ method: 'POST', url: '/api/customer/register_user_customer', payload: {} });
    expect((await register()).statusCode).toBe(422);
    expect((await register()).statusCode).toBe(422);
    expect((await register()).statusCode).toBe(429);
  });
});
