import { describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { DB } from '../../server/db/database';
import type { VersionedTable } from '../../server/db/migrations/0007-record-versions';
import { ACTION, MODULE, SUBMODULE, type Permission } from '../../src/schemas/permissions';
import { STALE_RECORD_MESSAGE } from '../../src/schemas/versions';
import { ADMIN_ROLE_NAME } from '../../server/modules/configuracion/users.service';
import {
  changeRecordByAnotherUser,
  createBlock,
  createLocal,
  createLot,
  createRole,
  createSession,
  createStaff,
  createStage,
  createSubdivision,
  ensureCompany,
} from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/**
 * Lost updates (issue 11 item 9): every record staff edit carries `version`; a PATCH sending a
 * version the record no longer has is a 409 with the Spanish message and stores nothing;
 * a PATCH without `version` still applies (docs/decisions.md "Record versions").
 */

const EVERY_PERMISSION: Permission[] = [
  MODULE.configuracion,
  SUBMODULE.usuarios,
  SUBMODULE.roles,
  SUBMODULE.empresas,
  MODULE.proyectos,
  SUBMODULE.lotizaciones,
  ACTION.aprobarBloqueos,
];

let n = 0;
const unique = () => (n += 1);

/** One editable record: how to create it, where it is read and edited, and two different edits. */
interface EditableCase {
  name: string;
  table: VersionedTable;
  /** Creates the record. @returns its id, its GET/PATCH url and the list url that shows it. */
  create: (db: Kysely<DB>) => Promise<{ id: number; url: string; listUrl?: string }>;
  /** Two edits of one field (the first one wins, the second is stale); `field` is read back. */
  field: string;
  values: () => [unknown, unknown];
  /** Whether the route has a GET of one record (stages and blocks are read through their lists). */
  readable: boolean;
}

const CASES: EditableCase[] = [
  {
    name: 'users',
    table: 'users',
    create: async (db) => {
      const { id } = await createStaff(db, { roleNames: [ADMIN_ROLE_NAME] });
      return { id, url: `/api/users/${id}`, listUrl: '/api/users?per_page=100' };
    },
    field: 'surname',
    values: () => ['Quispe', 'Mamani'],
    readable: true,
  },
  {
    name: 'roles',
    table: 'roles',
    create: async (db) => {
      const id = await createRole(db, `Rol versionado ${unique()}`, [MODULE.crm]);
      return { id, url: `/api/roles/${id}`, listUrl: '/api/roles?per_page=100' };
    },
    field: 'name',
    values: () => [`Cobranzas ${unique()}`, `Tesorería ${unique()}`],
    readable: true,
  },
  {
    name: 'the company',
    table: 'companies',
    create: async (db) => ({ id: await ensureCompany(db), url: '/api/company' }),
    field: 'legal_representative',
    values: () => [`Rosa Huamán ${unique()}`, `Jorge Salas ${unique()}`],
    readable: true,
  },
  {
    name: 'locals',
    table: 'locals',
    create: async (db) => {
      const id = await createLocal(db, { name: `Sede ${unique()}` });
      return { id, url: `/api/locals/${id}`, listUrl: '/api/locals?per_page=100' };
    },
    field: 'address',
    values: () => ['Av. Uno 100', 'Av. Dos 200'],
    readable: true,
  },
  {
    name: 'subdivisions',
    table: 'subdivisions',
    create: async (db) => {
      const { id, key } = await createSubdivision(db);
      return { id, url: `/api/subdivisions/${key}`, listUrl: '/api/subdivisions?per_page=100' };
    },
    field: 'name',
    values: () => ['Los Olivos', 'Las Palmeras'],
    readable: true,
  },
  {
    name: 'lots',
    table: 'lots',
    create: async (db) => {
      const { id: subdivisionId, key } = await createSubdivision(db);
      const id = await createLot(db, subdivisionId);
      return { id, url: `/api/lots/${id}`, listUrl: `/api/subdivisions/${key}/lots` };
    },
    field: 'notes',
    values: () => ['Frente al parque', 'Esquina'],
    readable: true,
  },
  {
    name: 'stages',
    table: 'stages',
    create: async (db) => {
      const { id: subdivisionId, key } = await createSubdivision(db);
      const id = await createStage(db, subdivisionId, 'Etapa 1');
      return { id, url: `/api/stages/${id}`, listUrl: `/api/subdivisions/${key}/stages` };
    },
    field: 'name',
    values: () => ['Etapa Norte', 'Etapa Sur'],
    readable: false,
  },
  {
    name: 'blocks',
    table: 'blocks',
    create: async (db) => {
      const { id: subdivisionId, key } = await createSubdivision(db);
      const id = await createBlock(db, subdivisionId, 'A');
      return { id, url: `/api/blocks/${id}`, listUrl: `/api/subdivisions/${key}/blocks` };
    },
    field: 'name',
    values: () => ['C', 'D'],
    readable: false,
  },
];

describe.each(dialects)('record versions (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  /** An Administrador (so the users' last-Administrador rule holds) with every permission used here. */
  const editor = async () => {
    if (!(await db().selectFrom('roles').select('id').where('name', '=', ADMIN_ROLE_NAME).executeTakeFirst())) {
      await createRole(db(), ADMIN_ROLE_NAME, EVERY_PERMISSION);
    }
    return createSession(db(), await createStaff(db(), { roleNames: [ADMIN_ROLE_NAME], permissions: EVERY_PERMISSION }));
  };
  const patch = (url: string, token: string, payload: object) =>
    ctx().app.inject({ method: 'PATCH', url, headers: bearer(token), payload });
  const get = (url: string, token: string) => ctx().app.inject({ method: 'GET', url, headers: bearer(token) });

  /** The record as its GET (or its list) answers it. */
  const read = async (
    c: EditableCase,
    record: { id: number; url: string; listUrl?: string },
    token: string,
  ): Promise<Record<string, unknown>> => {
    if (c.readable) return (await get(record.url, token)).json().data;
    const rows = (await get(record.listUrl!, token)).json().data as Record<string, unknown>[];
    return rows.find((r) => r.id === record.id)!;
  };

  describe.each(CASES)('$name', (c) => {
    it('answers the version on GET and in the list (1 for a new record)', async () => {
      const token = await editor();
      const record = await c.create(db());
      const version = (await read(c, record, token)).version;
      // The company is the installation's single row, shared by every test of this file.
      if (c.table !== 'companies') expect(version).toBe(1);
      else expect(version).toEqual(expect.any(Number));
      if (record.listUrl) {
        const rows = (await get(record.listUrl, token)).json().data as Record<string, unknown>[];
        expect(rows.find((r) => r.id === record.id)?.version).toBe(version);
      }
    });

    it('applies an edit of the current version (200, version + 1) and refuses the stale one (409, nothing stored)', async () => {
      const token = await editor();
      const record = await c.create(db());
      const read1 = (await read(c, record, token)).version as number;
      const [first, second] = c.values();

      const fresh = await patch(record.url, token, { [c.field]: first, version: read1 });
      expect(fresh.statusCode).toBe(200);
      expect(fresh.json().data).toMatchObject({ [c.field]: first, version: read1 + 1 });

      const stale = await patch(record.url, token, { [c.field]: second, version: read1 });
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toEqual({ message: STALE_RECORD_MESSAGE, errors: { version: [STALE_RECORD_MESSAGE] } });
      expect(await read(c, record, token)).toMatchObject({ [c.field]: first, version: read1 + 1 });
    });

    it("refuses an edit of a version another user's change made stale", async () => {
      const token = await editor();
      const record = await c.create(db());
      const read1 = (await read(c, record, token)).version as number;
      await changeRecordByAnotherUser(db(), c.table, record.id);
      const res = await patch(record.url, token, { [c.field]: c.values()[0], version: read1 });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(STALE_RECORD_MESSAGE);
    });

    it('still applies an edit without a version (last write wins)', async () => {
      const token = await editor();
      const record = await c.create(db());
      const read1 = (await read(c, record, token)).version as number;
      await changeRecordByAnotherUser(db(), c.table, record.id);
      const value = c.values()[1];
      const res = await patch(record.url, token, { [c.field]: value });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ [c.field]: value, version: read1 + 2 });
    });
  });

  it('of two concurrent edits of the same lot version, exactly one is stored and the other is a 409', async () => {
    const [admin, adviser] = [await editor(), await editor()];
    const { id: subdivisionId } = await createSubdivision(db());
    const id = await createLot(db(), subdivisionId);
    const answers = await Promise.all([
      patch(`/api/lots/${id}`, admin, { notes: 'Administrador', version: 1 }),
      patch(`/api/lots/${id}`, adviser, { notes: 'Asesor', version: 1 }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const winner = answers.find((a) => a.statusCode === 200)!.json().data.notes;
    expect((await get(`/api/lots/${id}`, admin)).json().data).toMatchObject({ notes: winner, version: 2 });
  });

  it('a stale edit of a user rolls back its role and local lists too', async () => {
    const token = await editor();
    const { id } = await createStaff(db(), { roleNames: [ADMIN_ROLE_NAME] });
    const other = await createRole(db(), `Rol ${unique()}`, [MODULE.crm]);
    await changeRecordByAnotherUser(db(), 'users', id);
    const res = await patch(`/api/users/${id}`, token, { role_ids: [other], version: 1 });
    expect(res.statusCode).toBe(409);
    const roles = (await get(`/api/users/${id}`, token)).json().data.roles as { name: string }[];
    expect(roles.map((r) => r.name)).toEqual([ADMIN_ROLE_NAME]);
  });

  it('status changes, activations and price changes raise the version (an edit read before them is stale)', async () => {
    const token = await editor();
    const { id: subdivisionId, key } = await createSubdivision(db());
    const lot = await createLot(db(), subdivisionId);
    expect(
      (
        await ctx().app.inject({
          method: 'POST',
          url: `/api/lots/${lot}/status`,
          headers: bearer(token),
          payload: { status: 'BLOQUEADO', reason: 'Revisión', until: '2026-03-20' },
        })
      ).statusCode,
    ).toBe(200);
    const priced = await ctx().app.inject({
      method: 'POST',
      url: `/api/subdivisions/${key}/lots/price-update`,
      headers: bearer(token),
      payload: { selection: { lot_ids: [lot] }, change: { kind: 'PERCENT', percent: 10 }, reason: 'Ajuste' },
    });
    expect(priced.statusCode).toBe(200);
    expect((await get(`/api/lots/${lot}`, token)).json().data.version).toBe(3);
    expect((await patch(`/api/lots/${lot}`, token, { notes: 'x', version: 1 })).statusCode).toBe(409);

    const local = await createLocal(db(), { name: `Sede ${unique()}` });
    expect(
      (await ctx().app.inject({ method: 'POST', url: `/api/locals/${local}/deactivate`, headers: bearer(token) })).json().data.version,
    ).toBe(2);
    expect((await patch(`/api/locals/${local}`, token, { name: 'Otra', version: 1 })).statusCode).toBe(409);
  });

  it('a body with only `version` is refused (422: no field to change)', async () => {
    const token = await editor();
    const { key } = await createSubdivision(db());
    const res = await patch(`/api/subdivisions/${key}`, token, { version: 1 });
    expect(res.statusCode).toBe(422);
  });

  it('the change history does not record the version', async () => {
    const token = await editor();
    const local = await createLocal(db(), { name: `Sede ${unique()}` });
    expect((await patch(`/api/locals/${local}`, token, { name: 'Sede renombrada', version: 1 })).statusCode).toBe(200);
    const row = await db()
      .selectFrom('change_history')
      .select(['changed_fields', 'after'])
      .where('entity', '=', 'locals')
      .where('record_id', '=', String(local))
      .where('action', '=', 'UPDATE')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.changed_fields)).toEqual(['name']);
    expect(JSON.parse(row.after!)).not.toHaveProperty('version');
  });
});
