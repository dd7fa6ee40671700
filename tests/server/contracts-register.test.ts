import {
  CompiledQuery,
  createQueryId,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
} from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { contractsPageSchema, type Contract } from '../../src/schemas/administracion/contracts';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { foldSearch, searchText } from '../../server/db/text-search';
import {
  createCrmCustomer,
  createLot,
  createSession,
  createStaff,
  createSubdivision,
  ensureCompany,
  insertCashSale,
} from '../../server/testing/fixtures';
import { bearer, buildTestApp, dialects, useTestDatabase, type TestApp } from './harness';

/**
 * Registro de Contratos as served (docs/performance.md "Registro de Contratos"): a page reads no
 * document bytes and a fixed number of statements whatever its size, and it is kept per revision of
 * the register (migration 0048) and Lima day: a second read runs no query of the contracts, and
 * every write a page shows — the contract, its sale, the titular, the names, codes, template and
 * signature days it repeats — moves the revision, so the next read shows it.
 */

/** The statements a Kysely instance runs (their operation nodes), recorded while `on`. */
function recorder() {
  const nodes: RootOperationNode[] = [];
  const plugin: KyselyPlugin = {
    transformQuery(args: PluginTransformQueryArgs) {
      nodes.push(args.node);
      return args.node;
    },
    transformResult: async (args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> => args.result,
  };
  return { plugin, nodes };
}

/** The table and column names a statement mentions (its operation node as JSON). */
const mentions = (node: RootOperationNode, name: string) => JSON.stringify(node).includes(`"name":"${name}"`);

const PDF = Buffer.from('%PDF-1.4\n' + 'x'.repeat(4096), 'latin1');

describe.each(dialects)('Registro de Contratos as served (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  let current: TestApp | undefined;
  afterEach(async () => {
    await current?.app.close();
    current = undefined;
  });
  let n = 0;

  /** `count` contracts of fresh sales of `agent` in one new subdivision (every other one issued, with its PDF and a scan). */
  async function contracts(count: number, agent: number) {
    const companyId = await ensureCompany(db());
    const subdivision = await createSubdivision(db());
    const stamp = (i: number) => new Date(Date.UTC(2026, 1, 1, 12, 0, i)).toISOString();
    const { id: templateId } = await db()
      .insertInto('contract_templates')
      .values({
        subdivision_id: subdivision.id,
        kind: 'COMPRAVENTA_CONTADO',
        name: 'Compraventa al contado',
        version_number: 1,
        state: 'PUBLICADA',
        content: JSON.stringify({ type: 'doc', content: [] }),
        published_at: stamp(0),
        published_by: null,
        created_by: null,
        created_at: stamp(0),
        updated_at: stamp(0),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const lotId = await createLot(db(), subdivision.id, { block: 'K', number: String(++n) });
      const customerId = await createCrmCustomer(db(), { name: 'Rosa', surname: `Quispe ${n}` });
      const saleId = await insertCashSale(db(), {
        lotId,
        subdivisionId: subdivision.id,
        agentId: agent,
        createdAt: stamp(i),
        titularId: customerId,
      });
      const issued = i % 2 === 0;
      const { id } = await db()
        .insertInto('contracts')
        .values({
          company_id: companyId,
          sale_id: saleId,
          template_id: templateId,
          kind: 'COMPRAVENTA_CONTADO',
          state: issued ? 'EMITIDO' : 'BORRADOR',
          number: issued ? `C-2026-${String(900_000 + n)}` : null,
          year: issued ? 2026 : null,
          pdf_data: issued ? PDF : null,
          issued_at: issued ? '2026-02-20T15:00:00.000Z' : null,
          issued_by: issued ? agent : null,
          signed_scan_data: null,
          created_by: null,
          created_at: stamp(i),
          updated_at: stamp(i),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(id);
    }
    return { ids, subdivisionId: subdivision.id, templateId, companyId };
  }

  async function reader() {
    return createSession(db(), await createStaff(db(), { permissions: [MODULE.administracion, SUBMODULE.registroContratos] }));
  }

  it('a page reads no PDF, scan or rendered document and runs as many statements for 5, 20 or 50 contracts', async () => {
    const { plugin, nodes } = recorder();
    current = await buildTestApp(db().withPlugin(plugin), { keepAnswers: false });
    const agent = await createStaff(db(), { name: 'Ana', surname: 'Torres' });
    const { ids, subdivisionId } = await contracts(50, agent.id);
    const token = await reader();
    const statements: number[] = [];
    for (const perPage of [5, 20, 50]) {
      nodes.length = 0;
      const res = await current.app.inject({ method: 'GET', url: `/api/contracts?page=1&per_page=${perPage}`, headers: bearer(token) });
      expect(res.statusCode, res.body).toBe(200);
      const page = contractsPageSchema.parse(res.json());
      expect(page.data).toHaveLength(perPage);
      expect(page.data.filter((c) => c.has_pdf)).not.toHaveLength(0);
      for (const column of ['pdf_data', 'signed_scan_data', 'rendered_doc', 'rendered_values'])
        expect(
          nodes.filter((node) => mentions(node, column)),
          column,
        ).toEqual([]);
      statements.push(nodes.length);
    }
    expect(new Set(statements).size, `statements per page of 5, 20, 50: ${statements.join(', ')}`).toBe(1);
    // The subdivision and agent filters (the sales' ids, on the contracts alone) find exactly these contracts, newest first.
    const other = await createSubdivision(db());
    for (const [filter, expected] of [
      [`subdivision_id=${subdivisionId}`, ids],
      [`agent_id=${agent.id}`, ids],
      [`subdivision_id=${other.id}`, []],
      [`subdivision_id=${subdivisionId}&agent_id=${agent.id}&state=EMITIDO`, ids.filter((_, i) => i % 2 === 0)],
    ] as const) {
      const res = await current.app.inject({ method: 'GET', url: `/api/contracts?per_page=100&${filter}`, headers: bearer(token) });
      const page = contractsPageSchema.parse(res.json());
      expect(
        page.data.map((c) => c.id),
        filter,
      ).toEqual([...expected].reverse());
      expect(page.meta.total, filter).toBe(expected.length);
    }
  });

  it('a page is kept until a write it shows: a second read queries no contract; each source moves the revision and the next read shows it', async () => {
    const { plugin, nodes } = recorder();
    current = await buildTestApp(db().withPlugin(plugin));
    const app = current.app;
    const agent = await createStaff(db(), { name: 'Ana', surname: 'Torres' });
    const { ids, subdivisionId, templateId, companyId } = await contracts(3, agent.id);
    const token = await reader();
    const url = `/api/contracts?subdivision_id=${subdivisionId}&sort=created_at`;
    const page = async (): Promise<Contract[]> => {
      const res = await app.inject({ method: 'GET', url, headers: bearer(token) });
      expect(res.statusCode, res.body).toBe(200);
      return contractsPageSchema.parse(res.json()).data;
    };
    const revision = async () =>
      Number(
        (await db().selectFrom('list_revisions').select('revision').where('name', '=', 'contracts').executeTakeFirstOrThrow()).revision,
      );

    const first = await page();
    expect(first.map((c) => c.id)).toEqual(ids);
    nodes.length = 0;
    expect(await page()).toEqual(first);
    expect(nodes.filter((node) => mentions(node, 'contracts'))).toEqual([]);

    const [issuedId, draftId] = ids as [number, number, number];
    const saleOf = async (id: number) =>
      (await db().selectFrom('contracts').select('sale_id').where('id', '=', id).executeTakeFirstOrThrow()).sale_id;
    const saleId = await saleOf(issuedId);
    const lotId = (await db().selectFrom('sales').select('lot_id').where('id', '=', saleId).executeTakeFirstOrThrow()).lot_id;
    const titularId = (await db().selectFrom('sale_holders').select('customer_id').where('sale_id', '=', saleId).executeTakeFirstOrThrow())
      .customer_id;
    const otherBuyer = await createCrmCustomer(db(), { name: 'Luis', surname: 'Mamani Ccori' });

    /** [what is written, the write, what the next page shows] */
    const writes: Array<[string, () => Promise<unknown>, (rows: Contract[]) => void]> = [
      [
        'the contract annulled',
        () => db().updateTable('contracts').set({ state: 'ANULADO', annul_reason: 'Datos errados' }).where('id', '=', draftId).execute(),
        (rows) => expect(rows.find((c) => c.id === draftId)).toMatchObject({ state: 'ANULADO', annul_reason: 'Datos errados' }),
      ],
      [
        'its sale’s status',
        () => db().updateTable('sales').set({ status: 'CANCELADA' }).where('id', '=', saleId).execute(),
        (rows) => expect(rows[0]!.sale.status).toBe('CANCELADA'),
      ],
      [
        'the titular renamed',
        () => db().updateTable('customers').set({ name: 'Rosa María' }).where('id', '=', titularId).execute(),
        (rows) => expect(rows[0]!.sale.titular).toMatch(/^Rosa María Quispe/),
      ],
      [
        'another titular',
        () => db().updateTable('sale_holders').set({ customer_id: otherBuyer }).where('sale_id', '=', saleId).execute(),
        (rows) => expect(rows[0]!.sale.titular).toBe('Luis Mamani Ccori'),
      ],
      [
        'the lot’s code',
        () => db().updateTable('lots').set({ code: 'MZ Z - LT 99' }).where('id', '=', lotId).execute(),
        (rows) => expect(rows[0]!.lot.code).toBe('MZ Z - LT 99'),
      ],
      [
        'the subdivision renamed',
        () => db().updateTable('subdivisions').set({ name: 'Los Álamos II' }).where('id', '=', subdivisionId).execute(),
        (rows) => expect(rows[0]!.lot.subdivision_name).toBe('Los Álamos II'),
      ],
      [
        'the template renamed',
        () => db().updateTable('contract_templates').set({ name: 'Compraventa 2026' }).where('id', '=', templateId).execute(),
        (rows) => expect(rows[0]!.template.name).toBe('Compraventa 2026'),
      ],
      [
        'the agent renamed',
        () => db().updateTable('users').set({ name: 'Ana Lucía' }).where('id', '=', agent.id).execute(),
        (rows) => expect(rows[0]!.sale.agent?.name).toBe('Ana Lucía Torres'),
      ],
      [
        'the signature days',
        () => db().updateTable('companies').set({ contract_signature_days: 3 }).where('id', '=', companyId).execute(),
        (rows) => expect(rows[0]).toMatchObject({ signature_due_on: '2026-02-23', signature_overdue: true }),
      ],
    ];
    for (const [label, write, shows] of writes) {
      const before = await revision();
      await write();
      expect(await revision(), label).toBeGreaterThan(before);
      shows(await page());
    }

    // A write the register does not show leaves the revision (and the kept page) alone.
    const kept = await revision();
    await db().updateTable('customers').set({ phone: '999888777' }).where('id', '=', otherBuyer).execute();
    expect(await revision()).toBe(kept);

    // The Lima day is part of the key: the overdue flag follows the clock without a write.
    await db().updateTable('companies').set({ contract_signature_days: 30 }).where('id', '=', companyId).execute();
    expect((await page())[0]).toMatchObject({ signature_due_on: '2026-03-22', signature_overdue: false });
    current.clock.set('2026-03-23T15:00:00.000Z');
    expect((await page())[0]).toMatchObject({ signature_due_on: '2026-03-22', signature_overdue: true });
  });
  it('q finds exactly the contracts of a buyer (any holder: name or document), a lot, a number or a sale — folded as the sales list — without reading every contract', async () => {
    const { plugin, nodes } = recorder();
    current = await buildTestApp(db().withPlugin(plugin), { keepAnswers: false });
    const agent = await createStaff(db());
    const { ids } = await contracts(5, agent.id);
    const [a, b, c, d] = ids as [number, number, number, number, number];
    const saleOf = async (id: number) =>
      (await db().selectFrom('contracts').select('sale_id').where('id', '=', id).executeTakeFirstOrThrow()).sale_id;
    /** Renames the titular of contract `id`'s sale. */
    const titular = async (id: number, name: string, surname: string | null, document: string) => {
      const holder = await db()
        .selectFrom('sale_holders')
        .select('customer_id')
        .where('sale_id', '=', await saleOf(id))
        .executeTakeFirstOrThrow();
      await db()
        .updateTable('customers')
        .set({ name, surname, document_number: document, ...(surname === null ? { person_type: 'JURIDICA', id_document_type: '6' } : {}) })
        .where('id', '=', holder.customer_id)
        .execute();
    };
    await titular(a, 'José', 'Ñahui Díaz', '41234567');
    await titular(b, 'Rosa', 'Peña Quispe', '41234568');
    await titular(c, 'Rosa', 'Pena Huamán', '41234569');
    await titular(d, 'Inversiones Ñaña SAC', null, '20555444331');
    // A second holder (the titular's spouse) of b's sale: found by name and document too.
    const spouse = await createCrmCustomer(db(), { name: 'Martín', surname: 'Gonçalves Müller', document_number: '09876543' });
    await db()
      .insertInto('sale_holders')
      .values({ sale_id: await saleOf(b), customer_id: spouse, role: 'CONYUGE', share_percent: '50.00', position: 1 })
      .execute();

    // The reference: every contract of the database with its number, sale, lot code and buyers.
    const rows = await db()
      .selectFrom('contracts')
      .innerJoin('sales', 'sales.id', 'contracts.sale_id')
      .innerJoin('lots', 'lots.id', 'sales.lot_id')
      .select(['contracts.id', 'contracts.number', 'contracts.created_at', 'sales.id as sale_id', 'lots.code'])
      .execute();
    const holders = await db()
      .selectFrom('sale_holders')
      .innerJoin('customers', 'customers.id', 'sale_holders.customer_id')
      .select(['sale_holders.sale_id', 'customers.name', 'customers.surname', 'customers.document_number'])
      .execute();
    const matches = (q: string) => {
      const text = q.trim();
      const folded = foldSearch(text);
      const number = text.toUpperCase().replace(/[\\%_]/g, '');
      const saleId = /^v?-?0*(\d{1,9})$/i.exec(text)?.[1];
      return rows
        .filter(
          (r) =>
            (r.number !== null && r.number.includes(number)) ||
            searchText(r.code).includes(folded) ||
            holders.some(
              (h) =>
                h.sale_id === r.sale_id &&
                (searchText(`${h.name}${h.surname === null ? '' : ` ${h.surname}`}`).includes(folded) ||
                  h.document_number.includes(folded)),
            ) ||
            (saleId !== undefined && r.sale_id === Number(saleId)),
        )
        .sort((x, y) => (x.created_at === y.created_at ? y.id - x.id : x.created_at < y.created_at ? 1 : -1))
        .map((r) => r.id);
    };
    const lotCode = rows.find((r) => r.id === d)!.code;
    const numbered = rows.find((r) => r.id === a)!.number!;
    const token = await reader();
    const cases: Array<[q: string, includes: number[], excludes: number[]]> = [
      ['Díaz', [a], [b, c, d]],
      ['DIAZ', [a], [b, c, d]],
      ['ñahui', [a], [b, c, d]],
      ['Nahui', [a], [b, c, d]],
      ['peña', [b], [a, c, d]],
      ['pena', [b, c], [a, d]],
      ['ña', [a, b, d], [c]],
      ['josé ñahui', [a], [b, c, d]],
      ['huaman', [c], [a, b, d]],
      ['quispe', [b], [a, c, d]],
      ['41234567', [a], [b, c, d]],
      ['4123456', [a, b, c], [d]],
      ['20555444331', [d], [a, b, c]],
      ['inversiones ñaña', [d], [a, b, c]],
      ['gonçalves', [b], [a, c, d]],
      ['MULLER', [b], [a, c, d]],
      ['09876543', [b], [a, c, d]],
      [lotCode, [d], [a, b, c]],
      [lotCode.toLowerCase(), [d], [a, b, c]],
      [numbered, [a], [b, c, d]],
      [numbered.toLowerCase(), [a], [b, c, d]],
      [`V-${String(await saleOf(c)).padStart(6, '0')}`, [c], [a, b, d]],
      ['nadie se llama así', [], [a, b, c, d]],
    ];
    for (const [q, includes, excludes] of cases) {
      const expected = matches(q);
      expect(expected, `${q}: the reference`).toEqual(expect.arrayContaining(includes));
      for (const id of excludes) expect(expected, `${q}: the reference`).not.toContain(id);
      const res = await current.app.inject({
        method: 'GET',
        url: `/api/contracts?per_page=100&q=${encodeURIComponent(q)}`,
        headers: bearer(token),
      });
      expect(res.statusCode, res.body).toBe(200);
      const page = contractsPageSchema.parse(res.json());
      expect(
        page.data.map((r) => r.id),
        q,
      ).toEqual(expected);
      expect(page.meta.total, q).toBe(expected.length);
    }

    // SQLite: the count and the page's ids read the trigram tables and the contracts through their
    // sale_id index, never every contract (no `SCAN c`); the rows of the page by their ids.
    if (dialect === 'sqlite') {
      for (const q of ['quispe', 'MZ K', 'ña']) {
        nodes.length = 0;
        const res = await current.app.inject({ method: 'GET', url: `/api/contracts?q=${encodeURIComponent(q)}`, headers: bearer(token) });
        expect(res.statusCode, res.body).toBe(200);
        const plans: string[][] = [];
        for (const node of nodes.filter((n) => n.kind === 'SelectQueryNode' && mentions(n, 'contracts'))) {
          const compiled = db().getExecutor().compileQuery(node, createQueryId());
          const plan = await db().executeQuery<{ detail: string }>(
            CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
          );
          const steps = plan.rows.map((r) => r.detail);
          plans.push(steps);
          expect(
            steps.filter((step) => /^SCAN (c|sales|sale_holders)\b/.test(step)),
            `${q}\n${compiled.sql}\n${steps.join('\n')}`,
          ).toEqual([]);
        }
        expect(plans.length, q).toBeGreaterThanOrEqual(2);
        const all = plans.flat().join('\n');
        expect(all, q).toMatch(/SEARCH c USING (COVERING )?INDEX \S+ \(sale_id=\?/);
        if ([...q].length >= 3) expect(all, q).toMatch(/(lot_search|customer_search) VIRTUAL TABLE/);
      }
    }
  });
});
