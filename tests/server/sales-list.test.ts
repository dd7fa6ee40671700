import { describe, expect, it } from 'vitest';
import { saleResponseSchema, salesPageSchema, type Sale } from '../../src/schemas/comercio/sales';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { createCrmCustomer, createLot, createRole, createSession, createStaff, createSubdivision } from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/**
 * GET /api/sales filters (issue "CRM and sales"): the list finds its page over `sales` alone, the
 * lot and buyer filters as subqueries (docs/performance.md "The sales list"). Every filter must
 * answer what a reading of the whole list gives — the same sales, in the same order, the same total,
 * page by page.
 */

describe.each(dialects)('sales list filters (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  it('each filter, alone and combined, answers the whole list filtered: same sales, order, total and pages', async () => {
    await createRole(db(), `Lista ventas ${dialect}`, [MODULE.comercial, SUBMODULE.ventas]);
    const staff = await createStaff(db(), { roleNames: [`Lista ventas ${dialect}`], clock: ctx().clock });
    const token = await createSession(db(), staff);
    const get = async (query: string) => {
      const res = await ctx().app.inject({ method: 'GET', url: `/api/sales?${query}`, headers: bearer(token) });
      expect(res.statusCode, res.body).toBe(200);
      return salesPageSchema.parse(res.json());
    };
    const [north, south] = [
      { ...(await createSubdivision(db(), { name: 'Norte lista' })), name: 'Norte lista' },
      { ...(await createSubdivision(db(), { name: 'Sur lista' })), name: 'Sur lista' },
    ];
    const lots: number[] = [];
    for (const [subdivision, block] of [
      [north, 'N'],
      [south, 'S'],
    ] as const)
      for (const k of [1, 2, 3]) lots.push(await createLot(db(), subdivision.id, { block, number: String(k) }));
    const quispe = await createCrmCustomer(db(), { name: 'Rosa', surname: 'Quispe Mamani', document_number: '41111111' });
    const husband = await createCrmCustomer(db(), { name: 'Juan', surname: 'Flores Quispe', document_number: '42222222' });
    const torres = await createCrmCustomer(db(), { name: 'Ana', surname: 'Torres Rojas', document_number: '43333333' });
    const sell = async (lotId: number, holders: Array<[number, string, string]>, cash: boolean, saleDate: string) => {
      const res = await ctx().app.inject({
        method: 'POST',
        url: '/api/sales',
        headers: bearer(token),
        payload: {
          lot_id: lotId,
          holders: holders.map(([customer_id, role, share_percent]) => ({ customer_id, role, share_percent })),
          sale_date: saleDate,
          ...(cash
            ? { instalments: 0, monthly_rate_percent: '0', method: 'SIN_INTERES' }
            : { down_payment_percent: '20', instalments: 12, monthly_rate_percent: '1', method: 'FRANCES', first_due_date: '2026-04-15' }),
        },
      });
      expect(res.statusCode, res.body).toBe(201);
      return saleResponseSchema.parse(res.json()).data.id;
    };
    const first = await sell(lots[0]!, [[quispe, 'TITULAR', '100']], false, '2026-02-10');
    await sell(lots[1]!, [[torres, 'TITULAR', '100']], true, '2026-02-20');
    await sell(
      lots[3]!,
      [
        [husband, 'TITULAR', '50'],
        [quispe, 'CONYUGE', '50'],
      ],
      false,
      '2026-02-20',
    );
    await sell(lots[4]!, [[torres, 'TITULAR', '100']], false, '2026-01-05');
    const annulled = await ctx().app.inject({
      method: 'POST',
      url: `/api/sales/${first}/annul`,
      headers: bearer(token),
      payload: { reason: 'Desiste' },
    });
    expect(annulled.statusCode, annulled.body).toBe(200);
    await sell(lots[0]!, [[torres, 'TITULAR', '100']], true, '2026-03-01');

    const all = await get('per_page=100');
    expect(all.meta.total).toBe(5);
    const north1 = all.data.find((s) => s.lot.id === lots[0] && s.status !== 'ANULADA')!;
    const has = (s: Sale, text: string) =>
      s.lot.code.toLowerCase().includes(text) ||
      s.holders.some((h) => h.display_name.toLowerCase().includes(text) || h.document_number.includes(text));
    const cases: Array<[string, (s: Sale) => boolean]> = [
      ['status=ANULADA', (s) => s.status === 'ANULADA'],
      ['type=CONTADO', (s) => s.type === 'CONTADO'],
      [`subdivision_id=${north.id}`, (s) => s.lot.subdivision_name === north.name],
      [`subdivision_id=${south.id}&type=FINANCIADO`, (s) => s.lot.subdivision_name === south.name && s.type === 'FINANCIADO'],
      [`status=REGISTRADA&subdivision_id=${north.id}`, (s) => s.status === 'REGISTRADA' && s.lot.subdivision_name === north.name],
      [`lot_id=${lots[0]}`, (s) => s.lot.id === lots[0]],
      [`customer_id=${quispe}`, (s) => s.holders.some((h) => h.id === quispe)],
      [
        `customer_id=${torres}&subdivision_id=${north.id}`,
        (s) => s.holders.some((h) => h.id === torres) && s.lot.subdivision_name === north.name,
      ],
      [`agent_id=${staff.id}`, (s) => s.agent?.id === staff.id],
      ['q=quispe', (s) => has(s, 'quispe')],
      ['q=QUISPE%20MAMANI', (s) => has(s, 'quispe mamani')],
      ['q=4333', (s) => has(s, '4333')],
      [`q=${encodeURIComponent(north1.lot.code)}`, (s) => has(s, north1.lot.code.toLowerCase())],
      [`q=${north1.number}`, (s) => s.id === north1.id || has(s, north1.number.toLowerCase())],
      [`q=quispe&subdivision_id=${south.id}`, (s) => has(s, 'quispe') && s.lot.subdivision_name === south.name],
      ['q=nadie', () => false],
    ];
    for (const [query, keep] of cases) {
      const expected = all.data.filter(keep).map((s) => s.id);
      const pages = [
        await get(`${query}&per_page=2&page=1`),
        await get(`${query}&per_page=2&page=2`),
        await get(`${query}&per_page=2&page=3`),
      ];
      expect(
        pages.flatMap((p) => p.data.map((s) => s.id)),
        query,
      ).toEqual(expected);
      for (const page of pages) expect(page.meta.total, query).toBe(expected.length);
    }
    // Filters that pick nothing and something, so the cases above are not all empty or all full.
    expect(all.data.filter((s) => has(s, 'quispe'))).toHaveLength(2);
    expect(all.data.filter((s) => s.status === 'ANULADA')).toHaveLength(1);
  });
});
