import { Migrator, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { saleResponseSchema } from '../../src/schemas/comercio/sales';
import { STAFF_PERMISSIONS } from '../../src/schemas/permissions';
import { foldSearch, searchText, searchTextSql } from '../../server/db/text-search';
import {
  createBankAccount,
  createCrmCustomer,
  createLot,
  createPayment,
  createSession,
  createStaff,
  createSubdivision,
} from '../../server/testing/fixtures';
import { allMigrations } from '../../server/modules';
import { bearer, createTestDatabase, dialects, useTestApp, useTestDatabase } from './harness';

/**
 * The one folding rule of every list search (docs/domain.md "Searching lists";
 * server/db/text-search.ts): accents and case ignored, ñ kept distinct from n only where typed.
 */

describe('the folding rule', () => {
  it.each([
    ['Díaz', 'diaz'],
    ['DÍAZ', 'diaz'],
    ['Peña', 'pena\u001fpeña'],
    ['PEÑA Núñez', 'pena nunez\u001fpeña nuñez'],
    ['Gonçalves Müller', 'goncalves muller'],
    ['MZ B - LT 8', 'mz b - lt 8'],
    ['Ωmega 42', 'Ωmega 42'],
  ])('stores %s as %s', (text, stored) => expect(searchText(text)).toBe(stored));

  it.each([
    ['diaz', 'diaz'],
    ['DÍAZ', 'diaz'],
    ['PEÑA', 'peña'],
    ['a\u0000b\u001fc', 'abc'],
  ])('folds the search %s as %s', (query, folded) => expect(foldSearch(query)).toBe(folded));
});

/** Marker surnames: one with an accent, one with ñ, one with n. */
const DIAZ = 'Díaz Ccori';
const PENA_ENYE = 'Peña Huamán';
const PENA = 'Pena Quilla';
const MARKERS = [DIAZ, PENA_ENYE, PENA];

/** Search → which markers it must find. */
const EXPECTED: Array<[string, string[]]> = [
  ['diaz', [DIAZ]],
  ['DIAZ', [DIAZ]],
  ['Díaz', [DIAZ]],
  ['pena', [PENA_ENYE, PENA]],
  ['PENA', [PENA_ENYE, PENA]],
  ['peña', [PENA_ENYE]],
  ['PEÑA', [PENA_ENYE]],
  ['huaman', [PENA_ENYE]],
];

describe.each(dialects)('list searches fold accents, case and ñ (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  it('the SQL of the rule folds as the TypeScript does, character for character', async () => {
    const samples = ['Díaz', 'ÁÉÍÓÚ áéíóú Üü', 'Peña NÚÑEZ', 'Çç Ýý ÿ Åå Õõ', 'MZ B - LT 8', 'Ωmega ß Ø', "O'Higgins %_\\"];
    for (const text of samples) {
      const expression = searchTextSql(dialect, 'x');
      const row = await sql<{ folded: string }>`select ${sql.raw(expression)} as folded from (select cast(${text} as text) as x) t`.execute(
        db(),
      );
      expect(row.rows[0]?.folded, text).toBe(searchText(text));
    }
  });

  it('Clientes, Ventas, Cuotas, Pagos, Cotizaciones, Separaciones and Leads find Díaz by "diaz", Peña by "pena" and only Peña by "peña"', async () => {
    const staff = await createStaff(db(), { permissions: STAFF_PERMISSIONS, clock: ctx().clock });
    const token = await createSession(db(), staff);
    const send = async (method: 'GET' | 'POST', url: string, payload?: object) => {
      const res = await ctx().app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
      return res;
    };
    const subdivision = await createSubdivision(db(), { name: `Búsqueda ${dialect}` });
    let lotNumber = 0;
    const lot = () => createLot(db(), subdivision.id, { block: 'B', number: String(++lotNumber) });
    for (const [i, surname] of MARKERS.entries()) {
      const customerId = await createCrmCustomer(db(), { name: 'Rosa', surname, document_number: `4555000${i}` });
      const sold = await send('POST', '/api/sales', {
        lot_id: await lot(),
        holders: [{ customer_id: customerId, role: 'TITULAR', share_percent: '100' }],
        sale_date: '2026-02-10',
        down_payment_percent: '20',
        instalments: 12,
        monthly_rate_percent: '1',
        method: 'FRANCES',
        first_due_date: '2026-04-15',
      });
      await createPayment(db(), { saleId: saleResponseSchema.parse(sold.json()).data.id });
      await send('POST', '/api/quotes', { lot_id: await lot(), customer_id: customerId, instalments: 0 });
      await send('POST', '/api/reservations', { customer_id: customerId, lot_id: await lot(), amount: 50_000, conditions_accepted: true });
      await send('POST', '/api/leads', { name: `Rosa ${surname}`, phone: `98700000${i}`, channel: 'WEB' });
    }
    const lists = ['/api/customers', '/api/sales', '/api/instalments', '/api/payments', '/api/quotes', '/api/reservations', '/api/leads'];
    for (const list of lists)
      for (const [query, found] of EXPECTED) {
        const body = (await send('GET', `${list}?per_page=100&q=${encodeURIComponent(query)}`)).body;
        expect(
          MARKERS.filter((m) => body.includes(m)),
          `${list} q=${query}`,
        ).toEqual(found);
      }
  });

  it("migration 0034 folds the rows already there (and SQLite's trigram tables), and can be undone", async () => {
    const database = await createTestDatabase(dialect);
    const { db: raw } = database;
    try {
      const migrator = new Migrator({ db: raw, provider: { getMigrations: async () => allMigrations(dialect) } });
      expect((await migrator.migrateTo('0033-comercio-quote-sale')).error).toBeUndefined();
      const customer = await createCrmCustomer(raw, { name: 'José', surname: 'Peña Díaz', document_number: '45550001' });
      const stamp = '2026-01-01T00:00:00.000Z';
      // Plain inserts: the services read the latest schema, this database stands at 0033.
      const { id: subdivision } = await raw
        .insertInto('subdivisions')
        .values({
          code: 'LT-0034',
          name: 'Lotización 0034',
          department: 'Lima',
          province: 'Lima',
          district: 'Carabayllo',
          currency: 'PEN',
          total_area_m2: 10_000,
          status: 'EN_VENTA',
          created_at: stamp,
          updated_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const { id: block } = await raw
        .insertInto('blocks')
        .values({ subdivision_id: subdivision, name: 'Ñ' })
        .returning('id')
        .executeTakeFirstOrThrow();
      const { id: lot } = await raw
        .insertInto('lots')
        .values({
          subdivision_id: subdivision,
          block_id: block,
          number: '3',
          code: 'MZ Ñ - LT 3',
          area_m2: 120,
          price_per_m2: 25_000,
          list_price: 3_000_000,
          created_at: stamp,
          updated_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const { id: lead } = await raw
        .insertInto('leads')
        .values({
          name: 'Ángela Núñez',
          phone: '987000111',
          channel: 'WEB',
          campaign: 'Campaña Verano',
          received_at: stamp,
          created_at: stamp,
          updated_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      expect((await migrator.migrateTo('0034-search-text')).results?.map((r) => r.migrationName)).toEqual(['0034-search-text']);
      const folded = async () => ({
        customer: (await raw.selectFrom('customers').select('search_text').where('id', '=', customer).executeTakeFirstOrThrow())
          .search_text,
        lead: (await raw.selectFrom('leads').select('search_text').where('id', '=', lead).executeTakeFirstOrThrow()).search_text,
        lot: await raw.selectFrom('lots').select(['code', 'search_text']).where('id', '=', lot).executeTakeFirstOrThrow(),
      });
      const after = await folded();
      expect(after.customer).toBe(searchText('José Peña Díaz'));
      expect(after.lead).toBe(searchText('Ángela Núñez\nCampaña Verano'));
      expect(after.lot.search_text).toBe(searchText(after.lot.code));
      if (dialect === 'sqlite') {
        const display = await sql<{ display: string }>`select display from customer_search where rowid = ${customer}`.execute(raw);
        expect(display.rows[0]?.display).toBe(after.customer);
        const code = await sql<{ id: number }>`select rowid as id from lot_search where lot_search match ${'"lt 3"'}`.execute(raw);
        expect(code.rows.map((r) => r.id)).toEqual([lot]);
      }
      expect((await migrator.migrateTo('0033-comercio-quote-sale')).error).toBeUndefined();
      if (dialect === 'sqlite') {
        const display = await sql<{ display: string }>`select display from customer_search where rowid = ${customer}`.execute(raw);
        expect(display.rows[0]?.display).toBe('José Peña Díaz');
      }
      expect((await migrator.migrateTo('0034-search-text')).results?.map((r) => r.migrationName)).toEqual(['0034-search-text']);
      expect(await folded()).toEqual(after);
    } finally {
      await database.destroy();
    }
  });

  it('a renamed customer is found by its new name: the database keeps the folded text current', async () => {
    const staff = await createStaff(db(), { permissions: STAFF_PERMISSIONS, clock: ctx().clock });
    const token = await createSession(db(), staff);
    const id = await createCrmCustomer(db(), { name: 'Óscar', surname: 'Villanueva Ríos', document_number: '45559999' });
    await db().updateTable('customers').set({ surname: 'Ñahui Ríos' }).where('id', '=', id).execute();
    const found = async (q: string) =>
      (await ctx().app.inject({ method: 'GET', url: `/api/customers?q=${encodeURIComponent(q)}`, headers: bearer(token) })).body.includes(
        'Ñahui Ríos',
      );
    expect([await found('nahui rios'), await found('ÑAHUI'), await found('villanueva')]).toEqual([true, true, false]);
  });

  it('small lists fold in the query: Usuarios and Bancos', async () => {
    const staff = await createStaff(db(), { permissions: STAFF_PERMISSIONS, clock: ctx().clock, name: 'Íñigo', surname: 'Núñez Pérez' });
    const token = await createSession(db(), staff);
    await createBankAccount(db(), { holder: 'Inversiones Peña S.A.C.' });
    const get = async (url: string) => (await ctx().app.inject({ method: 'GET', url, headers: bearer(token) })).body;
    expect((await get('/api/users?q=inigo%20nunez')).includes('Núñez Pérez')).toBe(true);
    expect((await get('/api/users?q=nu%C3%B1ez%20perez')).includes('Núñez Pérez')).toBe(true);
    expect((await get('/api/bank-accounts?q=pena')).includes('Inversiones Peña')).toBe(true);
    expect((await get('/api/bank-accounts?q=INVERSIONES%20PE%C3%91A')).includes('Inversiones Peña')).toBe(true);
  });
});
