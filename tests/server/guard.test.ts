import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { testConfig } from '../../server/config';
import { createManualClock } from '../../server/clock';
import { registerGuard, requireAuth } from '../../server/auth/guard';
import { errorHandler, MESSAGES } from '../../server/errors';
import { createCustomer, createSession, createStaff } from '../../server/testing/fixtures';
import { bearer, createTestDatabase, dialects, type TestDatabase } from './harness';

/** The guard's permission check (no session route of docs/product.md §7 needs one yet, so a probe route does). */

describe.each(dialects)('route guard (%s)', (dialect) => {
  let database: TestDatabase;
  let app: FastifyInstance;

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    const clock = createManualClock();
    const config = testConfig();
    app = Fastify();
    app.setErrorHandler(errorHandler);
    registerGuard(app, { db: database.db, clock, config });
    app.get('/api/probe', { config: { access: { userTypes: ['COLLABORATOR'], permission: SUBMODULE.usuarios } } }, async (request) => ({
      accountId: requireAuth(request).accountId,
    }));
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.destroy();
  });

  it('lets a staff user with the permission through and exposes the caller', async () => {
    const staff = await createStaff(database.db, { permissions: [MODULE.configuracion, SUBMODULE.usuarios] });
    const res = await app.inject({ method: 'GET', url: '/api/probe', headers: bearer(await createSession(database.db, staff)) });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ accountId: staff.id });
  });

  it('answers 403 without the permission or to the wrong account type', async () => {
    const staff = await createStaff(database.db, { permissions: [MODULE.crm] });
    const customer = await createCustomer(database.db);
    for (const owner of [staff, customer]) {
      const res = await app.inject({ method: 'GET', url: '/api/probe', headers: bearer(await createSession(database.db, owner)) });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: MESSAGES.forbidden });
    }
  });

  it('refuses to register an /api route without declared access', async () => {
    const bare = Fastify();
    registerGuard(bare, { db: database.db, clock: createManualClock(), config: testConfig() });
    expect(() => bare.get('/api/undeclared', async () => ({}))).toThrow(/must declare config.access/);
    await bare.close();
  });
});
