import { describe, expect, it } from 'vitest';
import { changeHistoryPageSchema } from '../../src/schemas/historial/change-history';
import { DEFAULT_STYLES } from '../../src/schemas/session';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { recordChange, stripSecrets, systemAuditContext, changedFields, type AuditContext } from '../../server/audit/audit';
import { createManualClock } from '../../server/clock';
import { MESSAGES } from '../../server/errors';
import { CSV_HEADERS } from '../../server/modules/historial/change-history.csv';
import { csvField } from '../../src/lib/csv';
import { iterateChangeHistory, listChangeHistory } from '../../server/modules/historial/change-history.repository';
import { createSession, createStaff } from '../../server/testing/fixtures';
import { dialects, getWithToken, postFormWithToken, useTestApp, useTestDatabase } from './harness';

/** The change-history mechanism (server/audit/audit.ts), its retrofits and GET /api/change-history(.csv). */

const LIST = '/api/change-history';
const EXPORT = '/api/change-history/export.csv';

describe('audit helpers', () => {
  it('strips every key matching password/token/secret, at any depth', () => {
    expect(
      stripSecrets({
        name: 'Ana',
        password_hash: 'x',
        token_hash: 'y',
        nested: { apiToken: 't', clientSecret: 's', ok: 1 },
        list: [{ newPassword: 'p', a: 2 }],
      }),
    ).toEqual({ name: 'Ana', nested: { ok: 1 }, list: [{ a: 2 }] });
  });

  it('lists the fields that differ, sorted', () => {
    expect(changedFields({ a: 1, b: 'x', c: null }, { a: 1, b: 'y', d: 2 })).toEqual(['b', 'd']);
    expect(changedFields(null, { z: 1, a: 2 })).toEqual(['a', 'z']);
    expect(changedFields({ q: [1, 2] }, { q: [1, 2] })).toEqual([]);
  });
});

describe.each(dialects)('change history (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  const historyOf = (entity: string, recordId: number | string) =>
    db()
      .selectFrom('change_history')
      .selectAll()
      .where('entity', '=', entity)
      .where('record_id', '=', String(recordId))
      .orderBy('id')
      .execute();

  const reader = async () => {
    const staff = await createStaff(db(), { clock: ctx().clock, permissions: [MODULE.historial] });
    return { staff, token: await createSession(db(), staff) };
  };

  describe('recordChange', () => {
    const audit = (): AuditContext => ({ actor: { userType: 'COLLABORATOR', accountId: 7 }, ip: '10.0.0.9', clock: createManualClock() });

    it('stores actor, IP, time, the diff and never a secret', async () => {
      await db()
        .transaction()
        .execute((trx) =>
          recordChange(trx, audit(), {
            entity: 'probe',
            recordId: 1,
            action: 'UPDATE',
            before: { name: 'Ana', password_hash: 'old', status: 'ACTIVO' },
            after: { name: 'Ana María', password_hash: 'new', token: 'abc', status: 'ACTIVO' },
          }),
        );
      const [row] = await historyOf('probe', 1);
      expect(row).toMatchObject({
        actor_type: 'COLLABORATOR',
        actor_id: 7,
        ip: '10.0.0.9',
        action: 'UPDATE',
        occurred_at: '2026-03-02T15:00:00.000Z',
      });
      expect(JSON.parse(row!.before!)).toEqual({ name: 'Ana', status: 'ACTIVO' });
      expect(JSON.parse(row!.after!)).toEqual({ name: 'Ana María', status: 'ACTIVO' });
      expect(JSON.parse(row!.changed_fields)).toEqual(['name']);
      expect(`${row!.before}${row!.after}`).not.toMatch(/old|new"|abc/);
    });

    it('leaves no row when the transaction rolls back', async () => {
      await expect(
        db()
          .transaction()
          .execute(async (trx) => {
            await recordChange(trx, audit(), { entity: 'probe', recordId: 2, action: 'CREATE', after: { a: 1 } });
            throw new Error('boom');
          }),
      ).rejects.toThrow('boom');
      expect(await historyOf('probe', 2)).toEqual([]);
    });

    it('refuses to run outside a transaction', async () => {
      await expect(
        recordChange(db(), systemAuditContext(createManualClock()), { entity: 'probe', recordId: 3, action: 'DELETE', before: {} }),
      ).rejects.toThrow(/inside the transaction/);
    });
  });

  describe('existing mutations write history', () => {
    it('customer registration: CREATE by the new customer, from the caller IP, without the password', async () => {
      const res = await ctx().app.inject({
        method: 'POST',
        url: '/api/customer/register_user_customer',
        remoteAddress: '198.51.100.7',
        payload: {
          id_document_type: '1',
          document_number: '47000001',
          name: 'Rosa',
          surname: 'Quispe',
          birthday_date: '1990-05-05',
          email: 'rosa.quispe@parcela.test',
          phone: '912345670',
          password: 'Segura#2026',
        },
      });
      expect(res.statusCode).toBe(201);
      const id = res.json().data.id as number;
      const [row] = await historyOf('customers', id);
      expect(row).toMatchObject({ action: 'CREATE', actor_type: 'CUSTOMER', actor_id: id, ip: '198.51.100.7', before: null });
      expect(JSON.parse(row!.after!)).toMatchObject({ document_number: '47000001', name: 'Rosa' });
      expect(row!.after).not.toContain('password');
    });

    it('password change: UPDATE by the account with no secret field', async () => {
      const staff = await createStaff(db(), { clock: ctx().clock });
      const token = await createSession(db(), staff);
      ctx().clock.advance(60_000);
      const res = await postFormWithToken(ctx().app, '/api/change_password_user', token, {
        actual_password: staff.password,
        new_password: 'Otra#Clave2026',
      });
      expect(res.statusCode).toBe(200);
      const rows = (await historyOf('users', staff.id)).filter((r) => r.action === 'UPDATE');
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ actor_type: 'COLLABORATOR', actor_id: staff.id, ip: '127.0.0.1' });
      expect(JSON.parse(rows[0]!.changed_fields)).toEqual(['updated_at']);
      expect(`${rows[0]!.before}${rows[0]!.after}`).not.toMatch(/password|hash/i);
    });

    it('style save: UPDATE of system_styles', async () => {
      const staff = await createStaff(db(), { clock: ctx().clock });
      const token = await createSession(db(), staff);
      const res = await postFormWithToken(ctx().app, '/api/store_or_update_user_style_config', token, {
        styles: JSON.stringify({ ...DEFAULT_STYLES, darkTheme: true }),
      });
      expect(res.statusCode).toBe(200);
      const [row] = (await historyOf('users', staff.id)).filter((r) => r.action === 'UPDATE');
      expect(JSON.parse(row!.changed_fields)).toContain('system_styles');
    });

    it('staff creation (seed, fixtures) is recorded as a system CREATE with its roles', async () => {
      const staff = await createStaff(db(), { clock: ctx().clock, permissions: [MODULE.crm] });
      const [row] = await historyOf('users', staff.id);
      expect(row).toMatchObject({ action: 'CREATE', actor_type: null, actor_id: null, ip: null });
      expect(JSON.parse(row!.after!)).toMatchObject({ dni: staff.dni, role_ids: [expect.any(Number)] });
    });
  });

  describe('GET /api/change-history', () => {
    it('needs a token (401) and the history module (403)', async () => {
      expect((await ctx().app.inject({ method: 'GET', url: LIST })).statusCode).toBe(401);
      const other = await createStaff(db(), { clock: ctx().clock, permissions: [MODULE.configuracion, SUBMODULE.usuarios] });
      const res = await getWithToken(ctx().app, LIST, await createSession(db(), other));
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: MESSAGES.forbidden });
    });

    it('answers a page newest first with meta, the actor named', async () => {
      const { staff, token } = await reader();
      ctx().clock.advance(60_000);
      await postFormWithToken(ctx().app, '/api/store_or_update_user_style_config', token, { styles: JSON.stringify(DEFAULT_STYLES) });
      const res = await getWithToken(ctx().app, `${LIST}?per_page=2`, token);
      expect(res.statusCode).toBe(200);
      const body = changeHistoryPageSchema.parse(res.json());
      expect(body.meta).toMatchObject({ page: 1, per_page: 2 });
      expect(body.meta.total).toBeGreaterThanOrEqual(2);
      expect(body.data).toHaveLength(2);
      expect(body.data[0]).toMatchObject({
        entity: 'users',
        record_id: String(staff.id),
        action: 'UPDATE',
        actor: { type: 'COLLABORATOR', id: staff.id, name: expect.stringContaining('Prueba') },
      });
      expect(body.data[0]!.occurred_at >= body.data[1]!.occurred_at).toBe(true);
    });

    it('filters by entity, record, actor, action and Lima date range', async () => {
      const { staff, token } = await reader();
      const target = await createStaff(db(), { clock: ctx().clock, surname: `Buscable Historial ${dialect}` });
      const targetToken = await createSession(db(), target);
      // 2026-03-03T04:30Z is still 2026-03-02 in Lima.
      ctx().clock.set(new Date('2026-03-03T04:30:00.000Z'));
      await postFormWithToken(ctx().app, '/api/store_or_update_user_style_config', targetToken, { styles: JSON.stringify(DEFAULT_STYLES) });

      const get = async (query: string) => changeHistoryPageSchema.parse((await getWithToken(ctx().app, `${LIST}?${query}`, token)).json());
      const byRecord = await get(`entity=users&record_id=${target.id}`);
      expect(byRecord.data.map((e) => e.action)).toEqual(['UPDATE', 'CREATE']);
      expect((await get(`actor_id=${target.id}&entity=users`)).data.map((e) => e.record_id)).toEqual([String(target.id)]);
      expect((await get(`entity=users&record_id=${target.id}&action=CREATE`)).meta.total).toBe(1);
      expect((await get(`record_id=${target.id}&entity=users&from=2026-03-02&to=2026-03-02`)).meta.total).toBe(2);
      expect((await get(`record_id=${target.id}&entity=users&from=2026-03-03`)).meta.total).toBe(0);
      expect((await get(`actor_id=${staff.id}&entity=users`)).meta.total).toBe(0);
      const byName = await get(`entity=users&q=${encodeURIComponent(`buscable historial ${dialect}`)}`);
      expect(byName.data.map((e) => e.actor?.id)).toEqual([target.id]);
      // The total counts the same rows as the page (counted without the actor joins unless q needs them).
      expect(byName.meta.total).toBe(byName.data.length);
      const all = await get('per_page=100');
      expect(all.meta.total).toBe(all.data.length);
      expect(all.meta.total).toBe(
        Number(
          (
            await db()
              .selectFrom('change_history')
              .select((eb) => eb.fn.countAll().as('n'))
              .executeTakeFirstOrThrow()
          ).n,
        ),
      );
    });

    it.each([
      ['an unknown query key', 'foo=1', 'foo'],
      ['per_page over 100', 'per_page=101', 'per_page'],
      ['a bad date', 'from=02-03-2026', 'from'],
      ['from after to', 'from=2026-03-05&to=2026-03-01', 'to'],
      ['an unknown sort', 'sort=ip', 'sort'],
    ])('rejects %s with 422', async (_label, query, field) => {
      const { token } = await reader();
      const res = await getWithToken(ctx().app, `${LIST}?${query}`, token);
      expect(res.statusCode).toBe(422);
      expect(Object.keys(res.json().errors)).toContain(field);
    });
  });

  describe('GET /api/change-history/export.csv', () => {
    it('streams every matching row as CSV with the same filters', async () => {
      const { token } = await reader();
      const target = await createStaff(db(), { clock: ctx().clock, surname: '=HYPERLINK("x")' });
      const res = await getWithToken(ctx().app, `${EXPORT}?entity=users&record_id=${target.id}`, token);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toMatch(/^attachment; filename="historial-de-cambios-\d{4}-\d{2}-\d{2}\.csv"$/);
      const lines = res.body
        .replace(/^\uFEFF/, '')
        .trimEnd()
        .split('\r\n');
      expect(lines[0]).toBe(CSV_HEADERS.join(','));
      expect(lines).toHaveLength(2);
      expect(lines[1]).toContain(',users,');
      expect(lines[1]).toContain('Sistema');
    });

    it('reads in keyset batches: every row once, in the list order, across batches that split equal times', async () => {
      // 11 rows on 4 instants (ties straddle the batches of 3) in an entity of their own.
      const times = ['2026-11-20T10:00:00.000Z', '2026-11-20T11:00:00.000Z', '2026-11-21T09:00:00.000Z', '2026-11-22T08:00:00.000Z'];
      await db()
        .insertInto('change_history')
        .values(
          Array.from({ length: 11 }, (_, i) => ({
            occurred_at: times[i % times.length]!,
            actor_type: null,
            actor_id: null,
            ip: null,
            entity: 'keyset_probe',
            record_id: String(i),
            action: 'UPDATE' as const,
            before: null,
            after: null,
            changed_fields: '[]',
          })),
        )
        .execute();
      for (const sort of ['-occurred_at', 'occurred_at']) {
        const listed = await listChangeHistory(db(), { entity: 'keyset_probe', sort, page: 1, per_page: 100 });
        const read: number[] = [];
        for await (const entry of iterateChangeHistory(db(), { entity: 'keyset_probe', sort }, 3)) read.push(entry.id);
        expect(listed.data).toHaveLength(11);
        expect(read).toEqual(listed.data.map((e) => e.id));
        // Pages of 3 are the list cut in threes: by ids found first (deferred join), and with `q`
        // (the actor joins needed to filter: a plain OFFSET).
        for (const q of [undefined, 'keyset_probe']) {
          const paged: number[] = [];
          for (let page = 1; page <= 4; page++) {
            const { data, meta } = await listChangeHistory(db(), { entity: 'keyset_probe', sort, q, page, per_page: 3 });
            expect(meta.total).toBe(11);
            paged.push(...data.map((e) => e.id));
          }
          expect(paged).toEqual(listed.data.map((e) => e.id));
        }
      }
    });

    it('is forbidden without the history module', async () => {
      const other = await createStaff(db(), { clock: ctx().clock, permissions: [MODULE.crm] });
      expect((await getWithToken(ctx().app, EXPORT, await createSession(db(), other))).statusCode).toBe(403);
    });
  });
});

describe('csvField', () => {
  it('quotes separators and neutralises formulas', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=1+1')).toBe("'=1+1");
    expect(csvField(null)).toBe('');
  });
});
