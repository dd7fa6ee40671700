import { describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { isValidRuc } from '../../src/schemas/documents';
import { STAFF_PERMISSIONS, MODULE } from '../../src/schemas/permissions';
import { TEST_SCRYPT_LOG_N } from '../../server/config';
import { migrateToLatest } from '../../server/db/migrate';
import { isUniqueViolation } from '../../server/db/portable';
import { DEMO_ACCOUNTS, DEMO_COMPANY, DEMO_ROLES, seedDemo } from '../../server/db/seed';
import { FIXTURE_COMPANY, createStaff } from '../../server/testing/fixtures';
import { buildTestApp, createTestDatabase, dialects, loginToken, getWithToken } from './harness';

/** Migrations, the demo seed and the portable storage conventions, on each dialect. */

describe.each(dialects)('database (%s)', (dialect) => {
  it('migrates idempotently and seeds the demo data once', async () => {
    const database = await createTestDatabase(dialect);
    try {
      expect(await migrateToLatest(database)).toEqual([]);
      const { db } = database;
      expect(await seedDemo(db, { scryptLogN: TEST_SCRYPT_LOG_N })).toBe(true);
      expect(await seedDemo(db, { scryptLogN: TEST_SCRYPT_LOG_N })).toBe(false);

      const companies = await db.selectFrom('companies').selectAll().execute();
      expect(companies).toHaveLength(1);
      expect(companies[0]).toMatchObject({ business_name: DEMO_COMPANY.businessName, ruc: DEMO_COMPANY.ruc, subscription_active: 1 });
      expect(companies[0]!.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect(await db.selectFrom('roles').select('name').orderBy('id').execute()).toEqual(
        Object.keys(DEMO_ROLES).map((name) => ({ name })),
      );
      expect(await db.selectFrom('users').select('dni').orderBy('id').execute()).toEqual([{ dni: '70000001' }, { dni: '70000002' }]);
      const customer = await db.selectFrom('customers').selectAll().executeTakeFirstOrThrow();
      expect(customer).toMatchObject({ document_number: '45454545', birthday_date: '1990-05-14', email: 'cliente@parcela.test' });

      const { app } = await buildTestApp(db);
      try {
        const locals = await app.inject({ method: 'GET', url: '/api/private/ver_locales_activos' });
        expect(locals.json().message.map((l: { name: string }) => l.name)).toEqual(['Sede Central - Lima', 'Oficina Chiclayo']);

        const { admin, asesor, customer: demoCustomer } = DEMO_ACCOUNTS;
        const adminToken = await loginToken(app, admin.email, admin.password, 'COLLABORATOR');
        const adminPermissions = (await getWithToken(app, '/api/private/api/roles_permissions', adminToken)).json().permissions;
        expect([...adminPermissions].sort()).toEqual([...STAFF_PERMISSIONS].sort());
        const asesorToken = await loginToken(app, asesor.dni, asesor.password, 'COLLABORATOR');
        const asesorPermissions = (await getWithToken(app, '/api/private/api/roles_permissions', asesorToken)).json().permissions;
        expect(asesorPermissions).toContain(MODULE.crm);
        expect(asesorPermissions).not.toContain(MODULE.configuracion);
        await loginToken(app, demoCustomer.documentNumber, demoCustomer.password, 'CUSTOMER');
      } finally {
        await app.close();
      }
    } finally {
      await database.destroy();
    }
  });

  it('enforces unique e-mails case-insensitively and reports it as a unique violation', async () => {
    const database = await createTestDatabase(dialect);
    try {
      await createStaff(database.db, { email: 'Repetido@parcela.test' });
      const error = await createStaff(database.db, { email: 'repetido@PARCELA.test' }).catch((e: unknown) => e);
      expect(isUniqueViolation(error)).toBe(true);
    } finally {
      await database.destroy();
    }
  });

  it('keeps foreign keys on', async () => {
    const database = await createTestDatabase(dialect);
    try {
      const error = await database.db
        .insertInto('locals')
        .values({ company_id: 999, name: 'Huérfano', address: 'x', active: 1 })
        .execute()
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(Error);
      if (dialect === 'sqlite') {
        const { rows } = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(database.db);
        expect(rows[0]?.journal_mode).toBe('wal');
      }
    } finally {
      await database.destroy();
    }
  });
});

describe('seed constants', () => {
  it('uses valid RUCs', () => {
    expect(isValidRuc(DEMO_COMPANY.ruc)).toBe(true);
    expect(isValidRuc(FIXTURE_COMPANY.ruc)).toBe(true);
  });
});
