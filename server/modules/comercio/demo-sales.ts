import type { Insertable, Kysely } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import type { Clock } from '../../clock';
import type { DB, QuotesTable } from '../../db/database';
import { insertInChunks, rowsPerStatement } from '../../db/bulk';
import { planQuote } from '../../../src/lib/comercio/quote-plan';
import { todayInLima } from '../../../src/lib/dates';
import { saleStatusFor } from '../../../src/lib/finanzas/sale-ledger';

/**
 * Demo sales (issue "CRM and sales", demo seed): every VENDIDO lot of the demo subdivisions gets a
 * sale with its schedule — a mix of contado and financiado (SIN_INTERES and FRANCES, 12–120
 * months), made 0–36 months before the seed. The demo customer (DNI 45454545) holds the first
 * financed sale of Los Viñedos de Carabayllo, so the customer screens have something to show.
 * Instalments due before the seed are paid for most sales and left unpaid for some (late payers
 * of every ageing bucket); the sale's status follows (`saleStatusFor`: REGISTRADA, INICIAL_PENDIENTE, EN_CUOTAS, CANCELADA).
 * The payments behind what is paid are seeded by server/modules/finanzas/demo-payments.ts.
 * Each sale carries its selling agent (docs/domain.md "Sales"), taken in turn among the active
 * staff users (the demo agent first), so the report's "Por asesor" has several; one financed sale
 * in five (and the demo customer's) comes from a quote of the same terms, made three days before
 * and now ACEPTADA with that sale.
 * Deterministic. No change history: seed data. Built in memory and inserted in bulk (a few
 * multi-row statements, server/db/bulk.ts): one statement per sale cost ~5 s on PostgreSQL.
 */

/** One demo sale before it is inserted: its row, its holder, its schedule's rows (without sale_id). */
interface PlannedSale {
  sale: Insertable<DB['sales']> & { lot_id: number };
  customerId: number;
  /** The quote the sale came from (ACEPTADA), without its sale_id. */
  quote: Omit<Insertable<QuotesTable>, 'sale_id'> | null;
  instalments: Omit<Insertable<DB['sale_instalments']>, 'sale_id'>[];
}

/**
 * Inserts the demo sales. @param agentId the demo agent (the first of the sellers taken in turn), or null.
 * @returns how many sales were made.
 */
export async function seedDemoSales(db: Kysely<DB>, clock: Clock, agentId: number | null): Promise<number> {
  const lots = await db
    .selectFrom('lots')
    .innerJoin('subdivisions', 'subdivisions.id', 'lots.subdivision_id')
    .select(['lots.id', 'lots.subdivision_id', 'lots.list_price', 'subdivisions.currency', 'subdivisions.name as subdivision_name'])
    .where('lots.status', '=', 'VENDIDO')
    .orderBy('subdivisions.id')
    .orderBy('lots.id')
    .execute();
  const customers = await db
    .selectFrom('customers')
    .select(['id', 'document_number'])
    .where('status', '=', 'ACTIVO')
    .orderBy('id')
    .execute();
  if (lots.length === 0 || customers.length === 0) return 0;
  const demoCustomer = customers.find((c) => c.document_number === '45454545');
  const others = customers.filter((c) => c !== demoCustomer);
  const staff = await db.selectFrom('users').select('id').where('status', '=', 'ACTIVO').orderBy('id').execute();
  const sellers = [...(agentId !== null ? [agentId] : []), ...staff.map((u) => u.id).filter((id) => id !== agentId)];
  const sellerOf = (i: number): number | null => (sellers.length > 0 ? sellers[i % sellers.length]! : null);
  const today = Temporal.PlainDate.from(todayInLima(clock.now()));
  const stamp = clock.now().toISOString();
  let demoGiven = false;
  const planned: PlannedSale[] = [];
  for (const [i, lot] of lots.entries()) {
    const forDemo: boolean = !demoGiven && demoCustomer !== undefined && lot.subdivision_name.startsWith('Los Viñedos');
    const cash = !forDemo && i % 10 < 3;
    const method = i % 2 === 0 ? 'FRANCES' : 'SIN_INTERES';
    const instalments = cash ? 0 : [12, 24, 36, 48, 60, 84, 120][i % 7]!;
    const saleDate = today.subtract({ months: forDemo ? 8 : i % 37, days: i % 11 });
    const result = planQuote({
      listPriceCents: Number(lot.list_price),
      discountPercent: i % 4 === 0 ? '5' : null,
      downPaymentPercent: cash ? null : String([10, 15, 20, 30][i % 4]),
      downPaymentParts: cash ? 1 : 1 + (i % 3),
      instalments,
      monthlyRatePercent: method === 'FRANCES' ? '1.25' : '0',
      method,
      firstDueDate: cash ? null : saleDate.add({ months: 1 }),
      today: saleDate,
    });
    if (!result.ok) continue;
    const { plan } = result;
    const customer = forDemo ? demoCustomer! : others[i % others.length]!;
    demoGiven ||= forDemo;
    // Most buyers paid everything due; one in six stopped paying 20, 45, 75 or 120 days ago (every
    // ageing bucket of the payments map has lots); the demo customer stopped 40 days ago (two
    // instalments overdue, for the customer screens and the late fees).
    const lateDays = forDemo ? 40 : i % 6 === 5 ? [20, 45, 75, 120][Math.floor(i / 6) % 4]! : 0;
    const lateFrom = today.subtract({ days: lateDays });
    const isPaid = (due: Temporal.PlainDate) => Temporal.PlainDate.compare(due, lateFrom) < 0;
    const rows = [
      ...plan.downPayment.map((p) => ({
        kind: 'INICIAL',
        number: p.number,
        dueDate: p.dueDate,
        amount: p.amountCents,
        capital: p.amountCents,
        interest: 0,
      })),
      ...plan.schedule.map((r) => ({
        kind: 'CUOTA',
        number: r.number,
        dueDate: r.dueDate,
        amount: r.amountCents,
        capital: r.capitalCents,
        interest: r.interestCents,
      })),
    ];
    // The state what is paid puts the sale in (docs/decisions.md "Sale states"): a sale whose
    // buyer paid nothing yet is REGISTRADA, as the sales service leaves it.
    const status = saleStatusFor(rows.map((r) => ({ kind: r.kind, amountCents: r.amount, paidCents: isPaid(r.dueDate) ? r.amount : 0 })));
    const created = `${saleDate.toString()}T15:00:00.000Z`;
    const seller = sellerOf(i);
    const quoteOf = (quoteDate: Temporal.PlainDate): Omit<Insertable<QuotesTable>, 'sale_id'> => ({
      lot_id: lot.id,
      customer_id: customer.id,
      agent_id: seller,
      currency: lot.currency,
      list_price: plan.listPriceCents,
      discount: plan.discountCents,
      discount_percent: i % 4 === 0 ? '5' : null,
      final_price: plan.finalPriceCents,
      down_payment: plan.downPaymentCents,
      down_payment_percent: String([10, 15, 20, 30][i % 4]),
      down_payment_parts: 1 + (i % 3),
      financed: plan.financedCents,
      instalments,
      monthly_rate_percent: method === 'FRANCES' ? '1.25' : '0',
      method,
      first_due_date: saleDate.add({ months: 1 }).toString(),
      quote_date: quoteDate.toString(),
      valid_until: quoteDate.add({ days: 7 }).toString(),
      status: 'ACEPTADA',
      created_by: seller,
      created_at: `${quoteDate.toString()}T15:00:00.000Z` < stamp ? `${quoteDate.toString()}T15:00:00.000Z` : stamp,
      updated_at: stamp,
    });
    const fromQuote = forDemo || (!cash && i % 5 === 1);
    planned.push({
      sale: {
        lot_id: lot.id,
        subdivision_id: lot.subdivision_id,
        agent_id: seller,
        guarantor_customer_id: null,
        reservation_id: null,
        quote_id: null,
        sale_date: saleDate.toString(),
        type: cash ? 'CONTADO' : 'FINANCIADO',
        currency: lot.currency,
        list_price: plan.listPriceCents,
        discount: plan.discountCents,
        final_price: plan.finalPriceCents,
        down_payment: plan.downPaymentCents,
        financed: plan.financedCents,
        instalments,
        monthly_rate_percent: method === 'FRANCES' ? '1.25' : '0',
        method,
        total_interest: plan.totalInterestCents,
        status,
        created_by: seller,
        created_at: created < stamp ? created : stamp,
        updated_at: stamp,
      },
      customerId: customer.id,
      quote: fromQuote ? quoteOf(saleDate.subtract({ days: 3 })) : null,
      instalments: rows.map((r) => ({
        kind: r.kind,
        number: r.number,
        due_date: r.dueDate.toString(),
        amount: r.amount,
        capital: r.capital,
        interest: r.interest,
        paid: isPaid(r.dueDate) ? r.amount : 0,
        status: isPaid(r.dueDate) ? 'PAGADA' : 'PENDIENTE',
      })),
    });
  }
  // The sales in lot order (ids follow it), each sale's id found by its lot (one sale per lot).
  const saleIdByLot = new Map<number, number>();
  const size = rowsPerStatement(Object.keys(planned[0]?.sale ?? {}).length);
  for (let k = 0; k < planned.length; k += size) {
    const made = await db
      .insertInto('sales')
      .values(planned.slice(k, k + size).map((p) => p.sale))
      .returning(['id', 'lot_id'])
      .execute();
    for (const { id, lot_id } of made) saleIdByLot.set(lot_id, id);
  }
  const saleId = (p: PlannedSale) => saleIdByLot.get(p.sale.lot_id)!;
  await insertInChunks(
    db,
    'sale_holders',
    planned.map((p) => ({ sale_id: saleId(p), customer_id: p.customerId, role: 'TITULAR', share_percent: '100.00', position: 0 })),
  );
  await insertInChunks(
    db,
    'sale_instalments',
    planned.flatMap((p) => p.instalments.map((i) => ({ sale_id: saleId(p), ...i }))),
  );
  const quotes = planned.flatMap((p) => (p.quote ? [{ ...p.quote, sale_id: saleId(p) }] : []));
  await insertInChunks(db, 'quotes', quotes);
  // Each sale names its quote: one statement for all.
  if (quotes.length > 0)
    await db
      .updateTable('sales')
      .set((eb) => ({ quote_id: eb.selectFrom('quotes').select('quotes.id').whereRef('quotes.sale_id', '=', 'sales.id').limit(1) }))
      .where('sales.id', 'in', (eb) => eb.selectFrom('quotes').select('quotes.sale_id').where('quotes.sale_id', 'is not', null))
      .execute();
  return lots.length;
}
