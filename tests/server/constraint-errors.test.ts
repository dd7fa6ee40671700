import { describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { errorHandler, MESSAGES } from '../../server/errors';
import { createCrmCustomer, createLot, createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/**
 * The database constraint safety net (docs/security.md 30.11): a FOREIGN KEY, CHECK, NOT NULL or
 * UNIQUE violation that reaches the error handler is a Spanish 422/409, on both dialects, with the
 * drivers' real errors. Anything else stays a 500.
 */

describe.each(dialects)('database constraint violations (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  /** An app with the real error handler and routes that run violating statements. */
  async function violatingApp(): Promise<FastifyInstance> {
    const subdivision = await createSubdivision(db());
    const lotId = await createLot(db(), subdivision.id, { block: 'C', number: '1', area_m2: 100, price_per_m2: 100 });
    const lot = await db().selectFrom('lots').select('block_id').where('id', '=', lotId).executeTakeFirstOrThrow();
    await createStaff(db());
    const role = `Rol ${dialect} ${Date.now()}`;
    await db().insertInto('roles').values({ name: role }).execute();
    const app = Fastify();
    app.setErrorHandler(errorHandler);
    /** A handler running `statement`; {} when it (unexpectedly) succeeds. */
    const run = (statement: () => Promise<unknown>) => async () => {
      await statement();
      return {};
    };
    app.post(
      '/unique',
      run(() => db().insertInto('roles').values({ name: role }).execute()),
    );
    app.post(
      '/not-null',
      run(() =>
        db()
          .insertInto('roles')
          .values({ name: null as unknown as string })
          .execute(),
      ),
    );
    app.post(
      '/check',
      run(() => sql`update users set status = 'BORRADO'`.execute(db())),
    );
    // SQLite: a BEFORE UPDATE trigger raising "CHECK constraint failed: lots_limits_check".
    app.post(
      '/check-limit',
      run(() => db().updateTable('lots').set({ area_m2: 0 }).where('id', '=', lotId).execute()),
    );
    app.post(
      '/missing-reference',
      run(() => db().insertInto('role_permissions').values({ role_id: 999_999, permission: 'x' }).execute()),
    );
    app.delete(
      '/still-referenced',
      run(() => db().deleteFrom('blocks').where('id', '=', lot.block_id).execute()),
    );
    app.post(
      '/other',
      run(() => sql`select * from no_such_table`.execute(db())),
    );
    await app.ready();
    return app;
  }

  it('FOREIGN KEY / CHECK / NOT NULL / UNIQUE → Spanish 422 or 409; any other database error stays a 500', async () => {
    const app = await violatingApp();
    try {
      const expected: Array<[string, string, number, string]> = [
        ['POST', '/unique', 409, MESSAGES.alreadyExists],
        ['POST', '/not-null', 422, MESSAGES.requiredMissing],
        ['POST', '/check', 422, MESSAGES.outOfBounds],
        ['POST', '/check-limit', 422, MESSAGES.outOfBounds],
        ['POST', '/missing-reference', 422, MESSAGES.missingReference],
        ['DELETE', '/still-referenced', 409, MESSAGES.stillReferenced],
        ['POST', '/other', 500, MESSAGES.internal],
      ];
      for (const [method, url, status, message] of expected) {
        const res = await app.inject({ method: method as 'POST' | 'DELETE', url });
        expect(res.statusCode, `${url}: ${res.body}`).toBe(status);
        expect(res.json(), url).toEqual({ message });
      }
    } finally {
      await app.close();
    }
  });

  it('through the app: a sale naming a quote that does not exist is a Spanish 4xx, not a 500', async () => {
    const token = await createSession(db(), await createStaff(db(), { permissions: [MODULE.comercial, SUBMODULE.ventas] }));
    const subdivision = await createSubdivision(db());
    const lotId = await createLot(db(), subdivision.id, { block: 'Q', number: '1' });
    const res = await ctx().app.inject({
      method: 'POST',
      url: '/api/sales',
      headers: bearer(token),
      payload: {
        lot_id: lotId,
        quote_id: 999_999,
        holders: [{ customer_id: await createCrmCustomer(db()), role: 'TITULAR', share_percent: '100' }],
        down_payment_percent: '20',
        instalments: 3,
        monthly_rate_percent: '0',
        method: 'SIN_INTERES',
        first_due_date: '2026-04-01',
      },
    });
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
    expect(res.statusCode, res.body).toBeLessThan(500);
    expect((res.json() as { message: string }).message).toMatch(/[áéíóúñ]|no existe/i);
  });
});
