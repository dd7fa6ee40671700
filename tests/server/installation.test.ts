import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testConfig } from '../../server/config';
import { createOpaqueIds, DEFAULT_ID_ALPHABET } from '../../server/ids';
import { installationIdAlphabet } from '../../server/platform/installation';
import { startApp } from '../../server/start';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, useTestDatabase } from './harness';

/**
 * Issue 11 item 16: opaque ids made with the alphabet from the source code are predictable, so a
 * production installation gets its own, generated at first start and stored (or ID_ALPHABET).
 */
describe.each(dialects)('installation ID alphabet (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const stored = () => db().selectFrom('installation_settings').select('value').where('name', '=', 'id_alphabet').executeTakeFirst();

  it('outside production: the default, nothing stored; ID_ALPHABET wins anywhere', async () => {
    expect(await installationIdAlphabet(db(), { production: false, fromEnv: null })).toEqual({
      alphabet: DEFAULT_ID_ALPHABET,
      source: 'default',
    });
    expect(await installationIdAlphabet(db(), { production: true, fromEnv: 'abcdefghijklmnopqrstuvwxyz' })).toEqual({
      alphabet: 'abcdefghijklmnopqrstuvwxyz',
      source: 'env',
    });
    expect(await stored()).toBeUndefined();
  });

  it('an installation that already shared links keeps the default (stored), a new one gets its own', async () => {
    await createSubdivision(db());
    expect(await installationIdAlphabet(db(), { production: true, fromEnv: null })).toEqual({
      alphabet: DEFAULT_ID_ALPHABET,
      source: 'default-kept',
    });
    expect((await stored())?.value).toBe(DEFAULT_ID_ALPHABET);
    expect((await installationIdAlphabet(db(), { production: true, fromEnv: null })).source).toBe('stored');
  });
});

describe('installation ID alphabet: a new production installation', () => {
  it('generates a random alphabet at first start, stores it, keeps it, and the API keys use it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parcela-install-'));
    const config = testConfig({ nodeEnv: 'production', databasePath: join(dir, 'p.db'), databaseUrl: null });
    try {
      const first = await startApp(config);
      expect(first.idAlphabet).toBe('generated');
      const row = await first.database.db
        .selectFrom('installation_settings')
        .select('value')
        .where('name', '=', 'id_alphabet')
        .executeTakeFirstOrThrow();
      const alphabet = row.value;
      expect(alphabet).toHaveLength(62);
      expect(new Set(alphabet).size).toBe(62);
      expect(alphabet).not.toBe(DEFAULT_ID_ALPHABET);

      const staff = await createStaff(first.database.db, { permissions: [MODULE.proyectos, SUBMODULE.lotizaciones] });
      const token = await createSession(first.database.db, staff);
      const { id } = await createSubdivision(first.database.db);
      const list = await first.app.inject({ method: 'GET', url: '/api/subdivisions', headers: bearer(token) });
      const key = (list.json() as { data: Array<{ id: number; key: string }> }).data.find((s) => s.id === id)!.key;
      expect(key).toBe(createOpaqueIds(alphabet).encode(id));
      expect(key).not.toBe(createOpaqueIds(DEFAULT_ID_ALPHABET).encode(id));
      await first.app.close();
      await first.database.db.destroy();

      const second = await startApp(config);
      expect(second.idAlphabet).toBe('stored');
      const again = await second.app.inject({ method: 'GET', url: '/api/subdivisions', headers: bearer(token) });
      expect((again.json() as { data: Array<{ id: number; key: string }> }).data.find((s) => s.id === id)!.key).toBe(key);
      await second.app.close();
      await second.database.db.destroy();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
