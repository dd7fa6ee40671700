import { describe, expect, it } from 'vitest';
import { Migrator, sql, type Kysely } from 'kysely';
import type { DB } from '../../server/db/database';
import { documentNumberError, isValidRuc } from '../../src/schemas/documents';
import { isDistrictCode } from '../../src/lib/ubigeo';
import { cciError } from '../../src/schemas/finanzas/banks';
import { DEMO_CUSTOMER_COUNT } from '../../server/modules/crm/demo-customers';
import { STAFF_PERMISSIONS, MODULE } from '../../src/schemas/permissions';
import { TEST_SCRYPT_LOG_N } from '../../server/config';
import { migrateToLatest } from '../../server/db/migrate';
import { allMigrations } from '../../server/modules';
import { isUniqueViolation } from '../../server/db/portable';
import { DEMO_ACCOUNTS, DEMO_COMPANY, DEMO_ROLES, seedDemo } from '../../server/db/seed';
import {
  FIXTURE_COMPANY,
  createBlock,
  createCrmCustomer,
  createCustomer,
  createLot,
  createStaff,
  createSubdivision,
} from '../../server/testing/fixtures';
import { buildTestApp, createTestDatabase, dialects, loginToken, getWithToken } from './harness';
import { CONTRACT_KINDS } from '../../src/schemas/administracion/contract-templates';
import { CONTRACT_STATES } from '../../src/schemas/administracion/contracts';
import { TITLE_STATES } from '../../src/schemas/administracion/titles';
import { COMMISSION_STATES } from '../../src/schemas/administracion/commissions';
import { SEED_TIMEOUT_MS } from './slow-work';
import { createManualClock } from '../../server/clock';

/** Migrations, the demo seed and the portable storage conventions, on each dialect. */

/** The migrations after 0009, in order: what the tests that start from 0009 or 0011 expect to run (one list to extend per migration). */
const AFTER_0009 = [
  '0010-land-use',
  '0011-overlap-limit',
  '0012-lot-counts',
  '0013-map-revisions',
  '0014-stage-revisions',
  '0015-crm-customers',
  '0016-comercio-reservations',
  '0017-crm-leads',
  '0018-comercio-quotes',
  '0019-comercio-sales',
  '0020-comercio-sales-indexes',
  '0021-comercio-sales-list',
  '0022-finanzas-accounts',
  '0023-subdivision-late-fees',
  '0024-finanzas-payments',
  '0025-finanzas-instalment-reminders',
  '0026-finanzas-instalment-counts',
  '0027-finanzas-instalments-list',
  '0028-configuracion-sale-backdating',
  '0029-finanzas-portal-pending',
  '0030-lot-import-land-uses',
  '0031-company-logo-pdf',
  '0033-comercio-quote-sale',
  '0034-search-text',
  '0035-configuracion-payment-segregation',
  '0036-configuracion-own-records-scopes',
  '0037-lot-holds',
  '0038-comercio-sale-settlements',
  '0040-administracion-titles',
  '0041-administracion-contract-settings',
  '0042-administracion-title-delivery',
  '0043-administracion-contracts',
  '0044-administracion-commissions',
  '0045-comercio-rescission-reschedule',
  '0046-administracion-sale-documents',
  '0047-administracion-contracts-register',
  '0048-administracion-contracts-list',
  '0049-inicio-dashboard',
  '0050-reportes-expenses',
];
const AFTER_0011 = AFTER_0009.slice(2);
/** The migrations after `name` (one of {@link AFTER_0009}), in order. */
const migrationsAfter = (name: string): string[] => AFTER_0009.slice(AFTER_0009.indexOf(name) + 1);

describe.each(dialects)('database (%s)', (dialect) => {
  it(
    'migrates idempotently and seeds the demo data once',
    async () => {
      // Seeds the whole demo: a limit a slow, loaded machine does not reach (slow-work.ts).
      const database = await createTestDatabase(dialect);
      try {
        expect(await migrateToLatest(database)).toEqual([]);
        const { db } = database;
        expect(await seedDemo(db, { scryptLogN: TEST_SCRYPT_LOG_N })).toBe(true);
        expect(await seedDemo(db, { scryptLogN: TEST_SCRYPT_LOG_N })).toBe(false);
        // docs/domain.md "Rescission", "Rescheduling (adenda)": one resolved sale (its lot free again) and one adenda.
        const resolved = await db
          .selectFrom('sales')
          .innerJoin('lots', 'lots.id', 'sales.lot_id')
          .select('lots.status')
          .where('sales.status', '=', 'RESUELTA')
          .execute();
        expect(resolved).toEqual([{ status: 'DISPONIBLE' }]);
        expect(await db.selectFrom('sale_rescissions').select('id').execute()).toHaveLength(1);
        expect(await db.selectFrom('sale_reschedules').select('late_fee_mode').execute()).toEqual([{ late_fee_mode: 'CARRY' }]);
        // Finanzas: three bank accounts with valid CCIs and two wallets with a PNG QR, once.
        const accounts = await db.selectFrom('bank_accounts').select(['bank', 'cci']).orderBy('id').execute();
        expect(accounts.map((a) => a.bank)).toEqual(['BCP', 'BBVA', 'INTERBANK']);
        for (const a of accounts) expect(cciError(a.cci, a.bank)).toBeNull();
        const wallets = await db.selectFrom('wallets').select(['kind', 'qr_content_type', 'qr_data']).orderBy('id').execute();
        expect(wallets.map((w) => [w.kind, w.qr_content_type])).toEqual([
          ['YAPE', 'image/png'],
          ['PLIN', 'image/png'],
        ]);
        for (const w of wallets) expect(Buffer.from(w.qr_data!).subarray(1, 4).toString('latin1')).toBe('PNG');

        const companies = await db.selectFrom('companies').selectAll().execute();
        expect(companies).toHaveLength(1);
        expect(companies[0]).toMatchObject({ business_name: DEMO_COMPANY.businessName, ruc: DEMO_COMPANY.ruc, subscription_active: 1 });
        expect(companies[0]!.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
        expect(await db.selectFrom('roles').select('name').orderBy('id').execute()).toEqual(
          Object.keys(DEMO_ROLES).map((name) => ({ name })),
        );
        expect(await db.selectFrom('users').select('dni').orderBy('id').execute()).toEqual([{ dni: '70000001' }, { dni: '70000002' }]);
        const customer = await db.selectFrom('customers').selectAll().orderBy('id').executeTakeFirstOrThrow();
        expect(customer).toMatchObject({ document_number: '45454545', birthday_date: '1990-05-14', email: 'cliente@parcela.test' });
        // CRM demo customers: entered by staff (no portal login), valid documents and districts, couples married to each other.
        const crm = await db.selectFrom('customers').selectAll().where('password_hash', 'is', null).execute();
        expect(crm).toHaveLength(DEMO_CUSTOMER_COUNT);
        for (const c of crm) {
          expect(documentNumberError(c.id_document_type, c.document_number), c.document_number).toBeNull();
          expect(isDistrictCode(c.ubigeo ?? ''), String(c.ubigeo)).toBe(true);
          if (c.person_type === 'JURIDICA') expect(c.document_number.startsWith('20') && c.surname === null).toBe(true);
          if (c.spouse_id !== null) expect(crm.find((o) => o.id === c.spouse_id)?.spouse_id).toBe(c.id);
        }
        expect(crm.filter((c) => c.person_type === 'JURIDICA').length).toBeGreaterThan(5);
        expect(crm.filter((c) => c.spouse_id !== null).length).toBeGreaterThan(20);
        // Every Separado lot is held by exactly one live reservation, expiring within the week.
        const separated = await db.selectFrom('lots').select('id').where('status', '=', 'SEPARADO').orderBy('id').execute();
        const live = await db
          .selectFrom('reservations')
          .select(['lot_id', 'expires_at'])
          .where('status', '=', 'PENDIENTE_PAGO')
          .orderBy('lot_id')
          .execute();
        expect(separated.length).toBeGreaterThan(0);
        expect(live.map((r) => r.lot_id)).toEqual(separated.map((l) => l.id));
        for (const r of live) expect(Date.parse(r.expires_at) - Date.now()).toBeLessThanOrEqual(7 * 86_400_000);
        // Every Vendido lot is sold, its schedule adding up; the demo customer holds a financed sale of Los Viñedos.
        const sold = await db.selectFrom('lots').select('id').where('status', '=', 'VENDIDO').orderBy('id').execute();
        // (Less the resolved sale, whose lot is Disponible again.)
        const sales = await db
          .selectFrom('sales')
          .select(['id', 'lot_id', 'financed', 'type', 'down_payment'])
          .where('status', '!=', 'RESUELTA')
          .orderBy('lot_id')
          .execute();
        expect(sales.map((x) => x.lot_id)).toEqual(sold.map((l) => l.id));
        expect(new Set(sales.map((x) => x.type))).toEqual(new Set(['CONTADO', 'FINANCIADO']));
        // The sales carry their agents (several), and some come from quotes now ACEPTADA with them.
        const agents = await db.selectFrom('sales').select('agent_id').distinct().execute();
        expect(agents.filter((a) => a.agent_id !== null).length).toBeGreaterThan(1);
        const quoted = await db
          .selectFrom('sales')
          .innerJoin('quotes', 'quotes.id', 'sales.quote_id')
          .select(['sales.id', 'quotes.sale_id', 'quotes.status', 'quotes.lot_id', 'sales.lot_id as sold_lot'])
          .execute();
        expect(quoted.length).toBeGreaterThan(0);
        for (const q of quoted) expect([q.status, q.sale_id, q.lot_id]).toEqual(['ACEPTADA', q.id, q.sold_lot]);
        // An adenda's carried late fees are capital of its new schedule (docs/domain.md "Rescheduling (adenda)").
        const carried = new Map(
          (await db.selectFrom('sale_reschedules').select(['sale_id', 'late_fee_mode', 'late_fee_amount']).execute()).map((r) => [
            r.sale_id,
            r.late_fee_mode === 'CARRY' ? Number(r.late_fee_amount) : 0,
          ]),
        );
        for (const sale of sales) {
          const rows = await db.selectFrom('sale_instalments').select(['kind', 'capital']).where('sale_id', '=', sale.id).execute();
          const capital = (kind: string) => rows.filter((r) => r.kind === kind).reduce((sum, r) => sum + Number(r.capital), 0);
          expect(capital('CUOTA')).toBe(Number(sale.financed) + (carried.get(sale.id) ?? 0));
          expect(capital('INICIAL')).toBe(Number(sale.down_payment));
        }
        const demoSale = await db
          .selectFrom('sale_holders')
          .innerJoin('customers', 'customers.id', 'sale_holders.customer_id')
          .innerJoin('sales', 'sales.id', 'sale_holders.sale_id')
          .innerJoin('lots', 'lots.id', 'sales.lot_id')
          .innerJoin('subdivisions', 'subdivisions.id', 'lots.subdivision_id')
          .select(['sales.type', 'subdivisions.name'])
          .where('customers.document_number', '=', '45454545')
          .execute();
        expect(demoSale).toEqual([{ type: 'FINANCIADO', name: 'Los Viñedos de Carabayllo' }]);

        // Administración (docs/testing.md "The demo seed: Administración's documents"): per subdivision and kind, versions 1
        // and 2 PUBLICADA and 3 BORRADOR — but Brisas de Chilca's two compraventa families, which the e2e tests start.
        const subdivisionRows = await db.selectFrom('subdivisions').select(['id', 'name']).execute();
        const templates = await db.selectFrom('contract_templates').select(['subdivision_id', 'kind', 'version_number', 'state']).execute();
        const family = (t: { subdivision_id: number; kind: string; version_number: number; state: string }) =>
          `${t.subdivision_id} ${t.kind} v${t.version_number} ${t.state}`;
        expect(templates.map(family).sort()).toEqual(
          subdivisionRows
            .flatMap(({ id, name }) =>
              CONTRACT_KINDS.filter((kind) => !(name === 'Brisas de Chilca' && kind.startsWith('COMPRAVENTA_'))).flatMap((kind) =>
                (['PUBLICADA', 'PUBLICADA', 'BORRADOR'] as const).map((state, i) =>
                  family({ subdivision_id: id, kind, version_number: i + 1, state }),
                ),
              ),
            )
            .sort(),
        );
        expect(templates).toHaveLength(24);
        // The company's contract settings, and the property regime of every married demo customer.
        expect(companies[0]).toMatchObject({ contract_place: 'Lima', contract_signature_days: 15 });
        expect(companies[0]!.legal_representative).toBeTruthy();
        expect(companies[0]!.legal_representative_dni).toMatch(/^\d{8}$/);
        expect(companies[0]!.legal_representative_power_entry).toMatch(/Partida/);
        const married = crm.filter((c) => c.marital_status === 'CASADO');
        expect(married.length).toBeGreaterThan(0);
        expect(new Set(married.map((c) => c.property_regime))).toEqual(new Set(['SOCIEDAD_GANANCIALES', 'SEPARACION_PATRIMONIOS']));
        // Contracts in every state: issued ones with their PDF, signed ones with their scan, the resolved sale's RESUELTO.
        const contracts = await db
          .selectFrom('contracts')
          .innerJoin('sales', 'sales.id', 'contracts.sale_id')
          .select([
            'contracts.state',
            'contracts.kind',
            'contracts.sale_id',
            'contracts.number',
            'contracts.pdf_data',
            'contracts.signed_scan_data',
            'sales.status as sale_status',
          ])
          .execute();
        expect(new Set(contracts.map((c) => c.state))).toEqual(new Set(CONTRACT_STATES));
        expect(contracts.filter((c) => c.state === 'FIRMADO').length).toBeGreaterThanOrEqual(4);
        expect(contracts.filter((c) => c.state === 'EMITIDO').length).toBeGreaterThanOrEqual(3);
        for (const c of contracts.filter((x) => ['EMITIDO', 'FIRMADO', 'RESUELTO'].includes(x.state))) {
          expect(c.number).toMatch(/^C-\d{4}-\d{6}$/);
          expect(Buffer.from(c.pdf_data!).subarray(0, 5).toString('latin1')).toBe('%PDF-');
          if (c.state !== 'EMITIDO') expect(Buffer.from(c.signed_scan_data!).subarray(0, 5).toString('latin1')).toBe('%PDF-');
        }
        expect(contracts.filter((c) => c.state === 'RESUELTO').map((c) => c.sale_status)).toEqual(['RESUELTA']);
        // The resolved sale's notarial letter and the rescheduled sale's adenda, issued (docs/domain.md "Rescission and rescheduling: their documents").
        expect(
          contracts
            .filter((c) => c.kind === 'CARTA_RESOLUCION' || c.kind === 'ADENDA')
            .map((c) => `${c.kind} ${c.state} ${c.sale_status}`)
            .sort(),
        ).toEqual(['ADENDA EMITIDO EN_CUOTAS', 'CARTA_RESOLUCION EMITIDO RESUELTA']);
        // Title processes at SUNARP in every state, for paid-off sales or with the retention-of-title pact.
        const titles = await db
          .selectFrom('title_processes')
          .innerJoin('sales', 'sales.id', 'title_processes.sale_id')
          .select(['title_processes.state', 'title_processes.retention_pact_stated', 'sales.status', 'sales.type'])
          .execute();
        expect(new Set(titles.map((t) => t.state))).toEqual(new Set(TITLE_STATES));
        for (const t of titles) expect(t.status === 'CANCELADA' || (t.type === 'FINANCIADO' && t.retention_pact_stated === 1)).toBe(true);
        // Commissions in every state, one settlement paid.
        const commissionStates = await db.selectFrom('commissions').select('state').distinct().execute();
        expect(new Set(commissionStates.map((c) => c.state))).toEqual(new Set(COMMISSION_STATES));
        expect(await db.selectFrom('commission_settlements').select('id').where('state', '=', 'PAGADA').execute()).toHaveLength(1);

        // The app's clock at the seed's today (the register's overdue flag, the asientos' warnings).
        const { app } = await buildTestApp(db, {}, createManualClock(new Date()));
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
          const customerToken = await loginToken(app, demoCustomer.documentNumber, demoCustomer.password, 'CUSTOMER');
          // Administración: two contracts flagged as unsigned past the signature days; every title state on the board, one asiento's warning due.
          const overdue = (await getWithToken(app, '/api/contracts?overdue=true', adminToken)).json();
          expect(overdue.meta.total).toBeGreaterThanOrEqual(2);
          const board = (await getWithToken(app, '/api/title-processes/board', adminToken)).json().data;
          for (const c of board.counts) expect(c.count, c.state).toBeGreaterThan(0);
          expect(board.notice_due).toBeGreaterThanOrEqual(1);
          // The demo customer downloads their purchase's contract from the portal (Detalle de Compra).
          const purchases = (await getWithToken(app, '/api/customer/purchases', customerToken)).json();
          const withContract: string[] = [];
          for (const p of purchases.data) {
            const detail = (await getWithToken(app, `/api/customer/purchases/${p.id}`, customerToken)).json();
            if (detail.data.contract_pdf_url) withContract.push(detail.data.contract_pdf_url);
          }
          expect(withContract).toHaveLength(1);
          const pdf = await getWithToken(app, withContract[0]!, customerToken);
          expect(pdf.statusCode).toBe(200);
          expect(pdf.headers['content-type']).toContain('application/pdf');
          expect(pdf.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
          // The resolved sale answers its letter: the Ventas drawer's download.
          const resolvedSale = contracts.find((c) => c.kind === 'CARTA_RESOLUCION')!.sale_id;
          const sale = (await getWithToken(app, `/api/sales/${resolvedSale}`, adminToken)).json().data;
          expect(sale.rescission.letter).toMatchObject({ state: 'EMITIDO', number: expect.stringMatching(/^C-\d{4}-\d{6}$/) });
          expect(sale.rescission.letter_pending).toBeNull();
          const letter = await getWithToken(app, `/api/sales/${resolvedSale}/rescission/letter`, adminToken);
          expect(letter.statusCode).toBe(200);
          expect(letter.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
        } finally {
          await app.close();
        }
      } finally {
        await database.destroy();
      }
    },
    SEED_TIMEOUT_MS,
  );

  it('migrations 0010 (land use of existing lots: rows, indexes, history kept) and 0011 (overlap limit) apply and can be undone', async () => {
    const database = await createTestDatabase(dialect);
    const { db } = database;
    try {
      const migrator = new Migrator({ db, provider: { getMigrations: async () => allMigrations(dialect) } });
      expect((await migrator.migrateTo('0009-outbox-delivery')).error).toBeUndefined();
      // Inserted by hand: the service reads columns of later migrations.
      const s = { id: await subdivisionRow(db, 'MIG-10', 'Migración') };
      const block = await createBlock(db, s.id, 'A');
      const stamp = '2026-01-01T00:00:00.000Z';
      const insertLot = (number: string, status: string): Promise<number> =>
        sql<{
          id: number;
        }>`insert into lots (subdivision_id, block_id, number, code, area_m2, price_per_m2, list_price, status, created_at, updated_at)
          values (${s.id}, ${block}, ${number}, ${`MZ A - LT ${number}`}, 120, 100, 12000, ${status}, ${stamp}, ${stamp}) returning id`
          .execute(db)
          .then((r) => r.rows[0]!.id);
      const sold = await insertLot('1', 'VENDIDO');
      const free = await insertLot('2', 'DISPONIBLE');
      await db
        .insertInto('lot_status_changes')
        .values({ lot_id: sold, from_status: 'DISPONIBLE', to_status: 'VENDIDO', reason: null, user_id: null, changed_at: stamp })
        .execute();

      expect(await migrateToLatest(database)).toEqual(AFTER_0009);
      const rows = await db
        .selectFrom('lots')
        .select(['id', 'status', 'land_use', 'code'])
        .where('subdivision_id', '=', s.id)
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { id: sold, status: 'VENDIDO', land_use: 'VIVIENDA', code: 'MZ A - LT 1' },
        { id: free, status: 'DISPONIBLE', land_use: 'VIVIENDA', code: 'MZ A - LT 2' },
      ]);
      // The rule is in the database: NO_VENDIBLE exactly for a use not for sale; unknown uses refused.
      await expect(db.updateTable('lots').set({ status: 'NO_VENDIBLE' }).where('id', '=', free).execute()).rejects.toThrow(
        /lots_land_use_status_check/,
      );
      await expect(
        db
          .updateTable('lots')
          .set({ land_use: 'PARQUE' as never })
          .where('id', '=', free)
          .execute(),
      ).rejects.toThrow(/lots_land_use_check/);
      await db.updateTable('lots').set({ status: 'NO_VENDIBLE', land_use: 'RECREACION' }).where('id', '=', free).execute();
      // Unique code, history and its foreign key survive the SQLite rebuild.
      await expect(insertLot('1', 'DISPONIBLE')).rejects.toThrow(/unique/i);
      expect(await db.selectFrom('lot_status_changes').select('to_status').where('lot_id', '=', sold).execute()).toEqual([
        { to_status: 'VENDIDO' },
      ]);
      // lot_status_changes.lot_id still references the (rebuilt) lots table: deleting a lot cascades to its history.
      const gone = await insertLot('3', 'DISPONIBLE');
      await db
        .insertInto('lot_status_changes')
        .values({ lot_id: gone, from_status: null, to_status: 'DISPONIBLE', reason: null, user_id: null, changed_at: stamp })
        .execute();
      await db.deleteFrom('lots').where('id', '=', gone).execute();
      expect(await db.selectFrom('lot_status_changes').select('id').where('lot_id', '=', gone).execute()).toEqual([]);
      // 0011: every subdivision has the default overlap limit of the import, within 0–10 m².
      expect(await db.selectFrom('subdivisions').select('overlap_limit_m2').where('id', '=', s.id).executeTakeFirstOrThrow()).toEqual({
        overlap_limit_m2: 0.05,
      });
      await expect(db.updateTable('subdivisions').set({ overlap_limit_m2: 11 }).where('id', '=', s.id).execute()).rejects.toThrow(/check/i);
      if (dialect === 'sqlite') {
        const indexes = await sql<{ name: string }>`select name from pragma_index_list('lots')`.execute(db);
        expect(indexes.rows.map((r) => r.name)).toEqual(expect.arrayContaining(['lots_subdivision_status_idx', 'lots_block_idx']));
      }

      expect((await migrator.migrateTo('0009-outbox-delivery')).error).toBeUndefined();
      const back = await sql<{
        id: number;
        status: string;
      }>`select id, status from lots where subdivision_id = ${s.id} order by id`.execute(db);
      expect(back.rows).toEqual([
        { id: sold, status: 'VENDIDO' },
        { id: free, status: 'DISPONIBLE' },
      ]);
      expect(await migrateToLatest(database)).toEqual(AFTER_0009);
    } finally {
      await database.destroy();
    }
  });

  it('migration 0012 counts the existing lots, and its triggers keep the counts per subdivision and status exact on every write', async () => {
    const database = await createTestDatabase(dialect);
    const { db } = database;
    try {
      const migrator = new Migrator({ db, provider: { getMigrations: async () => allMigrations(dialect) } });
      expect((await migrator.migrateTo('0011-overlap-limit')).error).toBeUndefined();
      const stamp = '2026-01-01T00:00:00.000Z';
      const [a, b] = [await subdivisionRow(db, 'CNT-A'), await subdivisionRow(db, 'CNT-B')];
      const blocks = { [a]: await createBlock(db, a, 'A'), [b]: await createBlock(db, b, 'A') };
      let next = 0;
      const insertLot = async (subdivisionId: number, area: number, status = 'DISPONIBLE') => {
        const number = String(++next);
        return (
          await db
            .insertInto('lots')
            .values({
              ...{ subdivision_id: subdivisionId, block_id: blocks[subdivisionId]!, number, code: `MZ A - LT ${number}` },
              ...{ area_m2: area, price_per_m2: 100, list_price: 100, status: status as never, created_at: stamp, updated_at: stamp },
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id;
      };
      // Kept counts against a count of the lots themselves, rows with no lots left aside.
      const kept = async () =>
        (
          await db
            .selectFrom('subdivision_lot_counts')
            .selectAll()
            .where('lots', '>', 0)
            .orderBy('subdivision_id')
            .orderBy('status')
            .execute()
        ).map((r) => ({ ...r, lots: Number(r.lots), area_m2: Math.round(Number(r.area_m2) * 100) / 100 }));
      const actual = async () =>
        (
          await db
            .selectFrom('lots')
            .select((eb) => ['subdivision_id', 'status', eb.fn.countAll<number>().as('lots'), eb.fn.sum<number>('area_m2').as('area_m2')])
            .groupBy(['subdivision_id', 'status'])
            .orderBy('subdivision_id')
            .orderBy('status')
            .execute()
        ).map((r) => ({ ...r, lots: Number(r.lots), area_m2: Math.round(Number(r.area_m2) * 100) / 100 }));

      await insertLot(a, 120.5);
      await insertLot(a, 99.25, 'VENDIDO');
      expect(await migrateToLatest(database)).toEqual(AFTER_0011);
      expect(await kept()).toEqual([
        { subdivision_id: a, status: 'DISPONIBLE', lots: 1, area_m2: 120.5 },
        { subdivision_id: a, status: 'VENDIDO', lots: 1, area_m2: 99.25 },
      ]);
      // Inserts, a change of status, of area, of subdivision, deletes, in a transaction that fails too.
      const c = await insertLot(a, 200);
      const d = await insertLot(b, 150.1);
      await db.updateTable('lots').set({ status: 'SEPARADO' }).where('id', '=', c).execute();
      await db.updateTable('lots').set({ area_m2: 151 }).where('id', '=', d).execute();
      await db.updateTable('lots').set({ notes: 'sin cambio de conteo' }).where('id', '=', d).execute();
      await db.updateTable('lots').set({ subdivision_id: b, block_id: blocks[b]! }).where('id', '=', c).execute();
      await db.deleteFrom('lots').where('area_m2', '=', 120.5).execute();
      await db
        .transaction()
        .execute(async (trx) => {
          await trx.updateTable('lots').set({ status: 'VENDIDO' }).where('subdivision_id', '=', b).execute();
          throw new Error('rolled back');
        })
        .catch(() => undefined);
      expect(await kept()).toEqual(await actual());
      expect(await kept()).toEqual([
        { subdivision_id: a, status: 'VENDIDO', lots: 1, area_m2: 99.25 },
        { subdivision_id: b, status: 'DISPONIBLE', lots: 1, area_m2: 151 },
        { subdivision_id: b, status: 'SEPARADO', lots: 1, area_m2: 200 },
      ]);
      // A subdivision's deletion cascades to its lots and to its counts.
      await db.deleteFrom('subdivisions').where('id', '=', b).execute();
      expect(await kept()).toEqual([{ subdivision_id: a, status: 'VENDIDO', lots: 1, area_m2: 99.25 }]);
      // And it can be undone.
      expect((await migrator.migrateTo('0011-overlap-limit')).error).toBeUndefined();
      await insertLot(a, 10);
      expect(await migrateToLatest(database)).toEqual(AFTER_0011);
      expect(await kept()).toEqual(await actual());
    } finally {
      await database.destroy();
    }
  });

  it('migration 0015 keeps the portal customers (ids, fields, unique e-mail), allows customers without login, and can be undone', async () => {
    const database = await createTestDatabase(dialect);
    const { db } = database;
    try {
      const migrator = new Migrator({ db, provider: { getMigrations: async () => allMigrations(dialect) } });
      expect((await migrator.migrateTo('0014-stage-revisions')).error).toBeUndefined();
      const portal = await createCustomer(db, { scryptLogN: TEST_SCRYPT_LOG_N, email: 'Portal@parcela.test' });
      const before = await db.selectFrom('customers').selectAll().where('id', '=', portal.id).executeTakeFirstOrThrow();
      expect(await migrateToLatest(database)).toEqual(migrationsAfter('0014-stage-revisions'));
      const after = await db.selectFrom('customers').selectAll().where('id', '=', portal.id).executeTakeFirstOrThrow();
      expect(after).toMatchObject({ ...before, person_type: 'NATURAL', version: 1, spouse_id: null, agent_id: null });
      const stamp = '2026-01-01T00:00:00.000Z';
      const row = {
        id_document_type: '1',
        name: 'Sin',
        status: 'ACTIVO' as const,
        system_styles: null,
        created_at: stamp,
        updated_at: stamp,
      };
      const staffEntered = await db
        .insertInto('customers')
        .values({
          ...row,
          document_number: '71111111',
          surname: 'Login',
          birthday_date: null,
          email: null,
          phone: null,
          password_hash: null,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      const taken = await db
        .insertInto('customers')
        .values({
          ...row,
          document_number: '72222222',
          surname: 'X',
          birthday_date: null,
          email: 'PORTAL@parcela.test',
          phone: null,
          password_hash: null,
        })
        .execute()
        .catch((e: unknown) => e);
      expect(isUniqueViolation(taken)).toBe(true);
      const juridicaWithoutSurname = await db
        .insertInto('customers')
        .values({ ...row, document_number: '73333333', surname: null, birthday_date: null, email: null, phone: null, password_hash: null })
        .execute()
        .catch((e: unknown) => e);
      expect(juridicaWithoutSurname).toBeInstanceOf(Error);
      expect((await migrator.migrateTo('0014-stage-revisions')).error).toBeUndefined();
      expect(await db.selectFrom('customers').select('id').execute()).toEqual([{ id: portal.id }]);
      expect(staffEntered.id).not.toBe(portal.id);
      expect(await migrateToLatest(database)).toEqual(migrationsAfter('0014-stage-revisions'));
    } finally {
      await database.destroy();
    }
  });

  it('migration 0021 derives the sales list values from the rows there are (subdivision, paid sum, counts, search) and can be undone', async () => {
    const database = await createTestDatabase(dialect);
    const { db } = database;
    try {
      const subdivision = await createSubdivision(db, { name: 'Migración 0021' });
      const lot = await createLot(db, subdivision.id, { block: 'A', number: '1' });
      const buyer = await createCrmCustomer(db, { name: 'Teófilo', surname: 'Ccori Zevallos', document_number: '47777777' });
      const stamp = '2026-01-01T00:00:00.000Z';
      const { id: saleId } = await db
        .insertInto('sales')
        .values({
          lot_id: lot,
          subdivision_id: subdivision.id,
          agent_id: null,
          guarantor_customer_id: null,
          reservation_id: null,
          quote_id: null,
          sale_date: '2026-01-01',
          type: 'FINANCIADO',
          currency: 'PEN',
          list_price: 1_000,
          discount: 0,
          final_price: 1_000,
          down_payment: 400,
          financed: 600,
          instalments: 1,
          monthly_rate_percent: '0',
          method: 'SIN_INTERES',
          total_interest: 0,
          created_by: null,
          created_at: stamp,
          updated_at: stamp,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await db
        .insertInto('sale_holders')
        .values({ sale_id: saleId, customer_id: buyer, role: 'TITULAR', share_percent: '100.00', position: 0 })
        .execute();
      await db
        .insertInto('sale_instalments')
        .values([
          {
            sale_id: saleId,
            kind: 'INICIAL',
            number: 1,
            due_date: '2026-01-01',
            amount: 400,
            capital: 400,
            interest: 0,
            paid: 400,
            status: 'PAGADA',
          },
          {
            sale_id: saleId,
            kind: 'CUOTA',
            number: 1,
            due_date: '2026-02-01',
            amount: 600,
            capital: 600,
            interest: 0,
            paid: 0,
            status: 'PENDIENTE',
          },
        ])
        .execute();
      const migrator = new Migrator({ db, provider: { getMigrations: async () => allMigrations(dialect) } });
      expect((await migrator.migrateTo('0020-comercio-sales-indexes')).error).toBeUndefined();
      const before = await sql<Record<string, unknown>>`select * from sales`.execute(db);
      expect(Object.keys(before.rows[0]!)).not.toContain('subdivision_id');
      expect(Object.keys(before.rows[0]!)).not.toContain('paid');
      expect(await migrateToLatest(database)).toEqual(migrationsAfter('0020-comercio-sales-indexes'));
      expect(await db.selectFrom('sales').select(['id', 'subdivision_id', 'paid']).execute()).toEqual([
        { id: saleId, subdivision_id: subdivision.id, paid: 400 },
      ]);
      expect(await db.selectFrom('sale_counts').selectAll().execute()).toEqual([
        { subdivision_id: subdivision.id, status: 'REGISTRADA', type: 'FINANCIADO', sales: 1 },
      ]);
      if (dialect === 'sqlite') {
        const found = await sql<{ rowid: number }>`select rowid from customer_search where customer_search match '"ccori zev"'`.execute(db);
        expect(found.rows).toEqual([{ rowid: buyer }]);
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

/**
 * A subdivision row inserted by hand with the columns every migration since 0005 has (the
 * fixtures' service also writes columns of later migrations), status EN_VENTA, 1 000 m².
 * @returns its id.
 */
async function subdivisionRow(db: Kysely<DB>, code: string, name = code): Promise<number> {
  const stamp = '2026-01-01T00:00:00.000Z';
  const row = await db
    .insertInto('subdivisions')
    .values({
      ...{ code, name, department: 'Lima', province: 'Lima', district: 'Lurín', currency: 'PEN', total_area_m2: 1000 },
      ...{ status: 'EN_VENTA', created_at: stamp, updated_at: stamp },
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}
