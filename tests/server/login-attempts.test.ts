import { describe, expect, it } from 'vitest';
import { MINUTE_MS } from '../../server/clock';
import { LOGIN_ACCOUNT_CEILING_FACTOR } from '../../server/auth/auth.service';
import { createStaff } from '../../server/testing/fixtures';
import { dialects, useTestApp, useTestDatabase } from './harness';

/**
 * Issue 11 item 11: one failed-login counter per account (e-mail and DNI share it), kept per
 * account + client address so a stranger cannot lock the owner out, under a per-account ceiling.
 */

const LIMIT = 3;

describe.each(dialects)('login attempts per account (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db, { loginRateLimitPerAccount: LIMIT });

  const attempt = (user: string, password: string, ip: string) =>
    ctx().app.inject({ method: 'POST', url: '/api/auth/login', remoteAddress: ip, payload: { user, password, user_type: 'COLLABORATOR' } });

  it('e-mail and DNI share one counter; the blocked address does not block the owner elsewhere', async () => {
    const staff = await createStaff(db());
    const attacker = '198.51.100.7';
    expect((await attempt(staff.email, 'incorrecta-1', attacker)).statusCode).toBe(422);
    expect((await attempt(staff.email, 'incorrecta-2', attacker)).statusCode).toBe(422);
    expect((await attempt(staff.dni, 'incorrecta-3', attacker)).statusCode).toBe(422);
    expect((await attempt(staff.dni, staff.password, attacker)).statusCode).toBe(429);
    expect((await attempt(staff.email, staff.password, '203.0.113.20')).statusCode).toBe(200);
    ctx().clock.advance(15 * MINUTE_MS);
    expect((await attempt(staff.dni, staff.password, attacker)).statusCode).toBe(200);
  });

  it(`past ${LOGIN_ACCOUNT_CEILING_FACTOR} × the limit from all addresses together, every address is refused for the window`, async () => {
    const staff = await createStaff(db());
    for (let i = 0; i < LIMIT * LOGIN_ACCOUNT_CEILING_FACTOR; i++) {
      expect((await attempt(staff.dni, `mala-${i}`, `198.51.100.${Math.floor(i / LIMIT) + 1}`)).statusCode).toBe(422);
    }
    expect((await attempt(staff.dni, staff.password, '203.0.113.99')).statusCode).toBe(429);
    ctx().clock.advance(15 * MINUTE_MS);
    expect((await attempt(staff.dni, staff.password, '203.0.113.99')).statusCode).toBe(200);
  });
});
