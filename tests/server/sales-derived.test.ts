import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { saleResponseSchema, salesPageSchema } from '../../src/schemas/comercio/sales';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { createCrmCustomer, createLot, createRole, createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/**
 * What migration 0021 keeps in the database for the sales list (docs/performance.md "The sales
 * list"): each sale's `subdivision_id` (its lot's, by a cascading foreign key), its `paid` sum, the
 * `sale_counts` table and, on SQLite, the trigram search tables. Every write path here goes straight
 * to the database as well as through the API: the triggers, not the services, keep them exact.
 */
describe.each(dialects)('sales list: values kept by the database (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  it('the subdivision, the paid sum and the counts follow sales, payments, annulments, moved lots and deletions', async () => {
    await createRole(db(), `Derivados ${dialect}`, [MODULE.comercial, SUBMODULE.ventas]);
    const staff = await createStaff(db(), { roleNames: [`Derivados ${dialect}`], clock: ctx().clock });
    const token = await createSession(db(), staff);
    const north = await createSubdivision(db(), { name: 'Norte derivados' });
    const south = await createSubdivision(db(), { name: 'Sur derivados' });
    const lots = [
      await createLot(db(), north.id, { block: 'A', number: '1' }),
      await createLot(db(), north.id, { block: 'A', number: '2' }),
    ];
    const buyer = await createCrmCustomer(db(), { name: 'Elsa', surname: 'Ñahui Álvarez', document_number: '46666666' });
    const sell = async (lotId: number, cash: boolean) => {
      const res = await ctx().app.inject({
        method: 'POST',
        url: '/api/sales',
        headers: bearer(token),
        payload: {
          lot_id: lotId,
          holders: [{ customer_id: buyer, role: 'TITULAR', share_percent: '100' }],
          ...(cash
            ? { instalments: 0, monthly_rate_percent: '0', method: 'SIN_INTERES' }
            : { down_payment_percent: '20', instalments: 12, monthly_rate_percent: '1', method: 'FRANCES', first_due_date: '2026-04-15' }),
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      return saleResponseSchema.parse(res.json()).data;
    };
    const countsAgree = async () => {
      const kept = await db()
        .selectFrom('sale_counts')
        .select(['subdivision_id', 'status', 'type', 'sales'])
        .where('sales', '>', 0)
        .orderBy('subdivision_id')
        .orderBy('status')
        .orderBy('type')
        .execute();
      const actual = await db()
        .selectFrom('sales')
        .select(['subdivision_id', 'status', 'type', (eb) => eb.fn.countAll<number | string>().as('sales')])
        .groupBy(['subdivision_id', 'status', 'type'])
        .orderBy('subdivision_id')
        .orderBy('status')
        .orderBy('type')
        .execute();
      expect(kept).toEqual(actual.map((r) => ({ ...r, sales: Number(r.sales) })));
      return kept;
    };
    const revision = async () =>
      Number((await db().selectFrom('list_revisions').select('revision').where('name', '=', 'sales').executeTakeFirstOrThrow()).revision);
    /** Runs `write` and expects the sales list's revision to move (`moves`) or not. */
    const expectRevision = async (moves: boolean, write: () => Promise<unknown>) => {
      const before = await revision();
      await write();
      if (moves) expect(await revision()).toBeGreaterThan(before);
      else expect(await revision()).toBe(before);
    };
    const row = (id: number) => db().selectFrom('sales').select(['subdivision_id', 'paid']).where('id', '=', id).executeTakeFirstOrThrow();

    const financed = await sell(lots[0]!, false);
    const cash = await sell(lots[1]!, true);
    expect(await row(financed.id)).toEqual({ subdivision_id: north.id, paid: 0 });
    expect(await countsAgree()).toHaveLength(2);

    // Payments (issue "Money in" writes them; here straight to the rows): the sum follows each change.
    const listedPaid = async () =>
      salesPageSchema
        .parse((await ctx().app.inject({ method: 'GET', url: `/api/sales?customer_id=${buyer}`, headers: bearer(token) })).json())
        .data.find((s) => s.id === financed.id)?.paid;
    expect(await listedPaid()).toBe(0);
    const rows = await db()
      .selectFrom('sale_instalments')
      .select(['id', 'amount'])
      .where('sale_id', '=', financed.id)
      .orderBy('id')
      .execute();
    await expectRevision(true, () =>
      db()
        .updateTable('sale_instalments')
        .set({ paid: Number(rows[0]!.amount) })
        .where('id', '=', rows[0]!.id)
        .execute(),
    );
    // The page kept before the payment is not served again.
    expect(await listedPaid()).toBe(Number(rows[0]!.amount));
    await db().updateTable('sale_instalments').set({ paid: 1_000 }).where('id', '=', rows[1]!.id).execute();
    expect(Number((await row(financed.id)).paid)).toBe(Number(rows[0]!.amount) + 1_000);
    await db().updateTable('sale_instalments').set({ paid: 0 }).where('id', '=', rows[0]!.id).execute();
    expect(Number((await row(financed.id)).paid)).toBe(1_000);
    await db().deleteFrom('sale_instalments').where('id', '=', rows[1]!.id).execute();
    expect(Number((await row(financed.id)).paid)).toBe(0);
    expect(await listedPaid()).toBe(0);

    // An annulment moves the count to ANULADA; the list's totals read the counts.
    const annulled = await ctx().app.inject({
      method: 'POST',
      url: `/api/sales/${cash.id}/annul`,
      headers: bearer(token),
      payload: { reason: 'Desiste' },
    });
    expect(annulled.statusCode, annulled.body).toBe(200);
    await countsAgree();
    const total = async (query: string) =>
      salesPageSchema.parse((await ctx().app.inject({ method: 'GET', url: `/api/sales?${query}`, headers: bearer(token) })).json()).meta
        .total;
    expect(await total(`subdivision_id=${north.id}&status=ANULADA`)).toBe(1);
    expect(await total(`subdivision_id=${north.id}&type=FINANCIADO`)).toBe(1);

    // A lot moved to another subdivision carries its sales and their counts along.
    await db().updateTable('lots').set({ subdivision_id: south.id }).where('id', '=', lots[0]!).execute();
    expect((await row(financed.id)).subdivision_id).toBe(south.id);
    await countsAgree();
    expect(await total(`subdivision_id=${south.id}`)).toBe(1);
    expect(await total(`subdivision_id=${north.id}`)).toBe(1);

    // A sale cannot claim another subdivision than its lot's.
    await expect(db().updateTable('sales').set({ subdivision_id: north.id }).where('id', '=', financed.id).execute()).rejects.toThrow();

    // What a page repeats from other tables moves the revision; other writes there do not.
    const first = async () =>
      salesPageSchema.parse(
        (await ctx().app.inject({ method: 'GET', url: `/api/sales?per_page=1&subdivision_id=${south.id}`, headers: bearer(token) })).json(),
      ).data[0]!;
    expect((await first()).agent?.name).toBe('Prueba');
    await expectRevision(true, () => db().updateTable('users').set({ name: 'Renombrada' }).where('id', '=', staff.id).execute());
    expect((await first()).agent?.name).toBe('Renombrada');
    await expectRevision(true, () => db().updateTable('subdivisions').set({ name: 'Sur renombrado' }).where('id', '=', south.id).execute());
    expect((await first()).lot.subdivision_name).toBe('Sur renombrado');
    await expectRevision(false, () => db().updateTable('customers').set({ email: 'elsa@parcela.test' }).where('id', '=', buyer).execute());
    await expectRevision(false, () => db().updateTable('lots').set({ notes: 'Esquina' }).where('id', '=', lots[0]!).execute());
    await expectRevision(false, () => db().updateTable('users').set({ email: 'otra@parcela.test' }).where('id', '=', staff.id).execute());

    // Deleting a sale (its rows go with it) takes it out of the counts.
    await db().deleteFrom('sale_holders').where('sale_id', '=', cash.id).execute();
    await db().deleteFrom('sales').where('id', '=', cash.id).execute();
    await countsAgree();
    expect(await total('')).toBe(1);

    // The text search follows renamed buyers and lot codes (SQLite reads its trigram tables for it),
    // case-insensitive beyond ASCII.
    expect((await total('q=álvarez')) + (await total('q=ÑAHUI'))).toBe(2);
    await db().updateTable('customers').set({ surname: 'Ñahui Cárdenas' }).where('id', '=', buyer).execute();
    expect(await total('q=álvarez')).toBe(0);
    expect(await total('q=cárdenas')).toBe(1);
    const [{ code }] = [await db().selectFrom('lots').select('code').where('id', '=', lots[0]!).executeTakeFirstOrThrow()];
    expect(await total(`q=${encodeURIComponent(code)}`)).toBe(1);
    await db().updateTable('lots').set({ code: 'ZZ-99' }).where('id', '=', lots[0]!).execute();
    expect(await total(`q=${encodeURIComponent(code)}`)).toBe(0);
    expect(await total('q=zz-9')).toBe(1);
    // Texts under three characters and texts with LIKE's wildcards take the scan, with the same answers.
    expect(await total('q=zz')).toBe(1);
    expect(await total('q=%25')).toBe(0);
    // Any text is a search, never a 500 (FTS5's own syntax, quotes); control characters are refused before (422).
    const nul = await ctx().app.inject({ method: 'GET', url: `/api/sales?q=${encodeURIComponent('ab\u0000cd')}`, headers: bearer(token) });
    expect(nul.statusCode).toBe(422);
    for (const text of ['"a"b', 'NEAR(x y)', 'col:abc', '^abc', '***', '😀😀😀']) {
      const res = await ctx().app.inject({ method: 'GET', url: `/api/sales?q=${encodeURIComponent(text)}`, headers: bearer(token) });
      expect(res.statusCode, `${text}: ${res.body}`).toBe(200);
      expect(salesPageSchema.parse(res.json()).meta.total, text).toBe(0);
    }
    if (dialect === 'sqlite') {
      // The trigram table holds the folded display name (docs/domain.md "Searching lists").
      const indexed = await sql<{ n: number }>`select count(*) as n from customer_search where customer_search match '"cardenas"'`.execute(
        db(),
      );
      expect(Number(indexed.rows[0]?.n)).toBe(1);
    }
  });
});
