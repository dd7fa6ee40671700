import { describe, expect, it } from 'vitest';
import { MESSAGES } from '../../server/errors';
import { PASSWORD_BUSY_MESSAGE, WorkQueue } from '../../server/auth/password-queue';
import { createSession, createStaff } from '../../server/testing/fixtures';
import { bearer, dialects, form, postLogin, useTestApp, useTestDatabase } from './harness';

/**
 * Issue 11 item 4: wrong current passwords on POST /api/change_password_user are limited per
 * account and per token (429), and the scrypt work runs on bounded lanes so a flood of password
 * changes cannot starve logins.
 */

describe.each(dialects)('password change attempts (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db, { loginRateLimitPerAccount: 10 });

  const change = (token: string, actual: string) => {
    const body = form({ actual_password: actual, new_password: 'Nueva#Clave2026' });
    return ctx().app.inject({
      method: 'POST',
      url: '/api/change_password_user',
      payload: body.payload,
      headers: { ...body.headers, ...bearer(token) },
    });
  };

  it('wrong attempts in a row: 5 per token, 10 per account, then 429; a right password still needs a fresh window', async () => {
    const staff = await createStaff(db());
    const first = await createSession(db(), staff);
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) codes.push((await change(first, `mala-${i}-xx`)).statusCode);
    expect(codes).toEqual([422, 422, 422, 422, 422, 429]);
    const second = await createSession(db(), staff);
    const more: number[] = [];
    for (let i = 0; i < 6; i++) more.push((await change(second, `mala-${i}-yy`)).statusCode);
    expect(more).toEqual([422, 422, 422, 422, 422, 429]);
    const third = await createSession(db(), staff);
    const blocked = await change(third, staff.password);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({ message: MESSAGES.tooManyRequests });
    ctx().clock.advance(15 * 60 * 1000);
    expect((await change(third, staff.password)).statusCode).toBe(200);
  });

  it('400 concurrent wrong changes (expensive hash): at most 5 (the token limit) reach scrypt, the rest 429 at once, and a login is not held behind them', async () => {
    const victim = await createStaff(db(), { scryptLogN: 15 });
    const token = await createSession(db(), victim);
    const admin = await createStaff(db());
    // The cost of one expensive check on this machine, now (a ratio to it holds on a slow, loaded one).
    const alone = await createSession(db(), await createStaff(db(), { scryptLogN: 15 }));
    const single = performance.now();
    expect((await change(alone, 'una-sola-vez')).statusCode).toBe(422);
    const oneHashMs = performance.now() - single;
    const flood = Promise.all(Array.from({ length: 400 }, (_, i) => change(token, `adivinanza-${i}`)));
    const started = performance.now();
    const login = await postLogin(ctx().app, admin.dni, admin.password, 'COLLABORATOR');
    const loginMs = performance.now() - started;
    expect(login.statusCode, login.body).toBe(200);
    // Unbounded, 400 expensive checks ran ahead of it (63.7 s seen: hundreds of checks); bounded, at most the 5 admitted.
    expect(loginMs).toBeLessThan(10 * oneHashMs);
    const codes = (await flood).map((r) => r.statusCode);
    expect(codes.filter((c) => c === 422).length).toBeLessThanOrEqual(5);
    expect(codes.filter((c) => c === 429).length).toBeGreaterThanOrEqual(395);
  });
});

describe('WorkQueue', () => {
  it('runs `concurrency` jobs, queues `maxQueued`, and refuses the next at once with 503', async () => {
    const queue = new WorkQueue(1, 1);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const order: string[] = [];
    const first = queue.run(async () => {
      await gate;
      order.push('first');
    });
    const second = queue.run(async () => {
      order.push('second');
    });
    // Refused at once: the refusal arrives while the running job is still held by its gate (no clock involved).
    await expect(queue.run(async () => 'third')).rejects.toMatchObject({ statusCode: 503, message: PASSWORD_BUSY_MESSAGE });
    expect(order).toEqual([]);
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['first', 'second']);
    expect(await queue.run(async () => 'after')).toBe('after');
  });
});
