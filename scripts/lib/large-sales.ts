/**
 * The sales of the large database (issue "CRM and sales", its performance clause: "the sales list
 * with 100 000 sales and 2 000 000 instalments"), added by scripts/generate-large-db.ts once its
 * subdivisions exist. Straight to SQLite with better-sqlite3 — prepared statements, schedules in
 * multi-row INSERTs, everything in one transaction — so the 2 000 000 rows take tens of seconds,
 * not the hours the API would.
 *
 * What it makes (deterministic: a seeded generator):
 * - prices for the generated lots (the imports leave them at 0): S/ 180–450 per m² by subdivision;
 * - 6 staff agents (DNI 71000001…71000006, role "Asesor de ventas", the demo agent's password) who,
 *   with the demo agent (70000002), sell every generated sale;
 * - customers up to {@link LARGE_SALES}.customers in all (DNI 50000000…; 40 % of them married in
 *   pairs, `spouse_id` both ways);
 * - sales up to {@link LARGE_SALES}.sales in all, over the generated subdivisions' DISPONIBLE lots
 *   in id order: most lots one live sale (the lot VENDIDO), ~5 % an ANULADA sale and then a live
 *   one, ~1 % an ANULADA sale only and ~3 % none (those stay DISPONIBLE), so `sales_live_lot_uq`
 *   holds; dates over the last 3 years (Lima); 30 % CONTADO (one INICIAL row), the rest FINANCIADO
 *   (1–3 INICIAL parts and CUOTA rows, SIN_INTERES / INTERES_SIMPLE / FRANCES, computed by the real
 *   src/lib/comercio/quote-plan.ts), terms chosen so that the schedule rows reach
 *   {@link LARGE_SALES}.instalments exactly; a married buyer's spouse as CONYUGE (50 / 50), some
 *   COPROPIETARIO pairs and guarantors;
 * - what was due before today paid, except for one buyer in six who stopped paying three months
 *   ago; the status follows: nothing paid REGISTRADA, part of the down payment INICIAL_PENDIENTE,
 *   the down payment EN_CUOTAS, everything CANCELADA;
 * - each lot's status-history rows (DISPONIBLE → VENDIDO, and back for an annulment); no change
 *   history (seed data, as the demo's sales).
 */
import Database from 'better-sqlite3';
import { Temporal } from 'temporal-polyfill';
import { planQuote } from '../../src/lib/comercio/quote-plan';
import { todayInLima } from '../../src/lib/dates';

/** The totals the large database reaches (the demo's sales and customers count towards them). */
export const LARGE_SALES = { customers: 60_000, sales: 100_000, instalments: 2_000_000 } as const;

/** What {@link generateLargeSales} left in the database. */
export interface LargeSalesResult {
  customers: number;
  sales: number;
  /** Sales inserted by this call (0 when the database already had them). */
  created: number;
  instalments: number;
  soldLots: number;
  /** Wall time of the call, ms. */
  ms: number;
}

const FIRST_NAMES = [
  'José', 'Luis', 'Juan', 'Carlos', 'Jorge', 'Miguel', 'Víctor', 'César', 'Pedro', 'Raúl', 'Walter', 'Alberto', 'Fernando', 'Óscar',
  'María', 'Rosa', 'Carmen', 'Ana', 'Luz', 'Elena', 'Julia', 'Gladys', 'Patricia', 'Milagros', 'Yolanda', 'Sofía', 'Lucía', 'Flor',
]; // prettier-ignore
const SURNAMES = [
  'Quispe', 'Flores', 'Sánchez', 'Rodríguez', 'García', 'Huamán', 'Mamani', 'Rojas', 'Chávez', 'Vásquez', 'Ramírez', 'Torres',
  'Mendoza', 'Díaz', 'Castillo', 'Gonzales', 'Condori', 'Espinoza', 'Vargas', 'Ramos', 'Cruz', 'Gutiérrez', 'Pérez', 'Huanca',
  'Ccori', 'Salazar', 'Paredes', 'Cárdenas', 'Aguilar', 'Ticona', 'Villanueva', 'Palomino', 'Zevallos', 'Infante', 'Yupanqui',
]; // prettier-ignore
const AGENTS = [
  ['71000001', 'Jorge', 'Huamán Rojas'],
  ['71000002', 'Rosa', 'Mamani Cruz'],
  ['71000003', 'Miguel', 'Flores Torres'],
  ['71000004', 'Patricia', 'Vargas Díaz'],
  ['71000005', 'Luis', 'Castillo Ramos'],
  ['71000006', 'Sofía', 'Paredes Aguilar'],
] as const;
/** The demo's "Asesor de ventas" role and agent (server/db/seed.ts). */
const AGENT_ROLE = 'Asesor de ventas';
const DEMO_AGENT_DNI = '70000002';
/** Schedule rows per INSERT statement (9 values each). */
const ROWS_PER_INSERT = 100;
const DAYS = 3 * 365;

/** mulberry32: a small seeded generator of floats in [0, 1). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One sale to make, before its schedule is computed. */
interface PlannedSale {
  lotId: number;
  subdivisionId: number;
  listPrice: number;
  currency: string;
  date: Temporal.PlainDate;
  /** The day it was annulled, for an ANULADA sale. */
  annulledOn: Temporal.PlainDate | null;
  cash: boolean;
  parts: number;
  terms: number;
  method: 'SIN_INTERES' | 'INTERES_SIMPLE' | 'FRANCES';
  discount: boolean;
  downPercent: string;
  late: boolean;
  buyer: number;
  agent: number;
  roll: number;
}

/**
 * Adds the agents, customers, sales, holders and schedules described above to the SQLite database
 * at `databasePath` (migrated, with the large database's subdivisions G001…G198), in one
 * transaction. Does nothing but count when the database already has {@link LARGE_SALES}.sales sales.
 * @returns the totals afterwards and the time taken.
 * @throws when the generated subdivisions lack the DISPONIBLE lots the sales need (run the
 *   subdivisions part first), or on any database error (nothing is then written).
 */
export function generateLargeSales(databasePath: string): LargeSalesResult {
  const started = Date.now();
  const sqlite = new Database(databasePath);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('cache_size = -262144'); // 256 MiB: the schedule's (status, due_date) index is written out of order
  const count = (table: string, where = '') => (sqlite.prepare(`select count(*) as n from ${table} ${where}`).get() as { n: number }).n;
  try {
    let created = 0;
    if (count('sales') < LARGE_SALES.sales) {
      sqlite.transaction(() => {
        created = insertSales(sqlite);
      })();
    }
    return {
      customers: count('customers'),
      sales: count('sales'),
      created,
      instalments: count('sale_instalments'),
      soldLots: count('lots', `where status = 'VENDIDO'`),
      ms: Date.now() - started,
    };
  } finally {
    sqlite.close();
  }
}

/** The body of {@link generateLargeSales}'s transaction. @returns the sales inserted. */
function insertSales(sqlite: Database.Database): number {
  const rnd = random(20261127);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)]!;
  const now = new Date().toISOString();
  const today = Temporal.PlainDate.from(todayInLima(new Date()));
  const one = <T>(query: string, ...params: unknown[]) => sqlite.prepare(query).get(...params) as T;
  sqlite.pragma('defer_foreign_keys = ON'); // spouses point at each other

  // Agents: the demo agent and six more with its role and password.
  const demoAgent = one<{ id: number; password_hash: string } | undefined>(
    `select id, password_hash from users where dni = ?`,
    DEMO_AGENT_DNI,
  );
  const role = one<{ id: number } | undefined>(`select id from roles where name = ?`, AGENT_ROLE);
  if (!demoAgent || !role) throw new Error('the demo agent or its role is missing: seed the demo data first');
  const agentIds = [demoAgent.id];
  for (const [dni, name, surname] of AGENTS) {
    let agent = one<{ id: number } | undefined>(`select id from users where dni = ?`, dni);
    if (!agent) {
      agent = one<{ id: number }>(
        `insert into users (dni, email, name, surname, phone, status, password_hash, created_at, updated_at) values (?, ?, ?, ?, ?, 'ACTIVO', ?, ?, ?) returning id`,
        dni,
        `asesor.${dni}@parcela.test`,
        name,
        surname,
        `9${dni}`,
        demoAgent.password_hash,
        now,
        now,
      );
      sqlite.prepare(`insert into user_roles (user_id, role_id) values (?, ?)`).run(agent.id, role.id);
    }
    agentIds.push(agent.id);
  }

  // Customers up to the total, married in pairs (0–1, 2–3 of every ten).
  const existingCustomers = (sqlite.prepare(`select count(*) as n from customers`).get() as { n: number }).n;
  const firstCustomerId = (one<{ m: number | null }>(`select max(id) as m from customers`).m ?? 0) + 1;
  const newCustomers = Math.max(0, LARGE_SALES.customers - existingCustomers);
  const insertCustomer = sqlite.prepare(
    `insert into customers (id, id_document_type, document_number, name, surname, birthday_date, email, phone, status, created_at, updated_at,
       person_type, marital_status, spouse_id, address, ubigeo, agent_id, version)
     values (?, '1', ?, ?, ?, ?, ?, ?, 'ACTIVO', ?, ?, 'NATURAL', ?, ?, ?, '150106', ?, 1)`,
  );
  const spouseOf = (k: number) => (k % 10 < 4 ? (k % 2 === 0 ? k + 1 : k - 1) : null);
  for (let k = 0; k < newCustomers; k++) {
    const spouse = spouseOf(k);
    const married = spouse !== null && spouse < newCustomers;
    const document = String(50_000_000 + k);
    const since = today.subtract({ days: DAYS + Math.floor(rnd() * 365) });
    insertCustomer.run(
      firstCustomerId + k,
      document,
      pick(FIRST_NAMES),
      `${pick(SURNAMES)} ${pick(SURNAMES)}`,
      `${1950 + Math.floor(rnd() * 50)}-${String(1 + Math.floor(rnd() * 12)).padStart(2, '0')}-${String(1 + Math.floor(rnd() * 28)).padStart(2, '0')}`,
      rnd() < 0.8 ? `cliente.${document}@parcela.test` : null,
      `9${String(k).padStart(8, '0')}`,
      `${since.toString()}T15:00:00.000Z`,
      `${since.toString()}T15:00:00.000Z`,
      married ? 'CASADO' : rnd() < 0.5 ? 'SOLTERO' : null,
      married ? firstCustomerId + spouse : null,
      `Av. Generada ${k % 900} Mz ${String.fromCharCode(65 + (k % 20))} Lt ${1 + (k % 30)}`,
      pick(agentIds),
    );
  }
  const customers = sqlite.prepare(`select id, spouse_id from customers where document_number like '5_______' order by id`).all() as {
    id: number;
    spouse_id: number | null;
  }[];
  if (customers.length === 0) throw new Error('no generated customers');

  // Prices: the imports leave the generated lots at 0; each subdivision gets S/ 180–450 per m².
  const unpriced = sqlite
    .prepare(
      `select distinct lots.subdivision_id as id from lots join subdivisions on subdivisions.id = lots.subdivision_id where subdivisions.code like 'G%' and lots.list_price = 0`,
    )
    .all() as { id: number }[];
  const price = sqlite.prepare(
    `update lots set price_per_m2 = ?, list_price = cast(round(area_m2 * ?) as integer), updated_at = ?, version = version + 1 where subdivision_id = ? and list_price = 0`,
  );
  for (const { id } of unpriced) {
    const perM2 = 100 * (180 + Math.floor(rnd() * 271)); // céntimos
    price.run(perM2, perM2, now, id);
  }

  // The lots to sell: the generated subdivisions' DISPONIBLE lots, in id order.
  const lots = sqlite
    .prepare(
      `select lots.id, lots.subdivision_id, lots.list_price, subdivisions.currency from lots join subdivisions on subdivisions.id = lots.subdivision_id
       where subdivisions.code like 'G%' and lots.status = 'DISPONIBLE' order by lots.id`,
    )
    .all() as { id: number; subdivision_id: number; list_price: number; currency: string }[];
  const salesBefore = (sqlite.prepare(`select count(*) as n from sales`).get() as { n: number }).n;
  const rowsBefore = (sqlite.prepare(`select count(*) as n from sale_instalments`).get() as { n: number }).n;
  const wanted = LARGE_SALES.sales - salesBefore;

  const planned: PlannedSale[] = [];
  const daysAgo = (from: number, to: number) => today.subtract({ days: from + Math.floor(rnd() * (to - from)) });
  const plan = (lot: (typeof lots)[number], date: Temporal.PlainDate, annulledOn: Temporal.PlainDate | null) => {
    const cash = rnd() < 0.3;
    const methodRoll = rnd();
    planned.push({
      lotId: lot.id,
      subdivisionId: lot.subdivision_id,
      listPrice: lot.list_price,
      currency: lot.currency,
      date,
      annulledOn,
      cash,
      parts: cash ? 1 : 1 + Math.floor(rnd() * 3),
      terms: cash ? 0 : pick([12, 12, 18, 24, 24, 36, 36, 48]),
      method: methodRoll < 0.45 ? 'FRANCES' : methodRoll < 0.65 ? 'INTERES_SIMPLE' : 'SIN_INTERES',
      discount: rnd() < 0.25,
      downPercent: pick(['10', '15', '20', '30']),
      late: rnd() < 1 / 6,
      buyer: Math.floor(rnd() * customers.length),
      agent: pick(agentIds),
      roll: rnd(),
    });
  };
  for (const lot of lots) {
    if (planned.length >= wanted) break;
    const roll = rnd();
    if (roll < 0.03) continue; // not sold
    if (roll < 0.04) {
      const sold = daysAgo(60, DAYS);
      plan(lot, sold, sold.add({ days: 20 + Math.floor(rnd() * 40) })); // annulled, the lot back on sale
    } else if (roll < 0.09) {
      const sold = daysAgo(240, DAYS);
      const annulled = sold.add({ days: 20 + Math.floor(rnd() * 40) });
      plan(lot, sold, annulled);
      if (planned.length < wanted) plan(lot, annulled.add({ days: 10 + Math.floor(rnd() * 120) }), null); // sold again
    } else plan(lot, daysAgo(0, DAYS), null);
  }
  if (planned.length < wanted) throw new Error(`only ${planned.length} of ${wanted} sales fit the generated lots`);

  // Terms one month longer or shorter until the schedule rows add up to the total exactly.
  const rowsOf = (s: PlannedSale) => s.parts + s.terms;
  let gap = LARGE_SALES.instalments - rowsBefore - planned.reduce((sum, s) => sum + rowsOf(s), 0);
  const financed = planned.filter((s) => !s.cash);
  for (let i = 0; gap !== 0; i = (i + 1) % financed.length) {
    const sale = financed[i]!;
    const step = Math.sign(gap);
    if (sale.terms + step < 6 || sale.terms + step > 120) continue;
    sale.terms += step;
    gap -= step;
  }

  const firstSaleId = (one<{ m: number | null }>(`select max(id) as m from sales`).m ?? 0) + 1;
  const insertSale = sqlite.prepare(
    `insert into sales (id, lot_id, subdivision_id, agent_id, guarantor_customer_id, sale_date, type, currency, list_price, discount, final_price, down_payment,
       reservation_credit, financed, instalments, monthly_rate_percent, method, total_interest, status, annul_reason, created_by, created_at, updated_at, version)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)`,
  );
  const insertHolder = sqlite.prepare(
    `insert into sale_holders (sale_id, customer_id, role, share_percent, position) values (?, ?, ?, ?, ?)`,
  );
  const rowValues = (n: number) => Array.from({ length: n }, () => '(?, ?, ?, ?, ?, ?, ?, ?, ?)').join(', ');
  const insertRowsStatement = (n: number) =>
    sqlite.prepare(
      `insert into sale_instalments (sale_id, kind, number, due_date, amount, capital, interest, paid, status) values ${rowValues(n)}`,
    );
  const insertRows = insertRowsStatement(ROWS_PER_INSERT);
  const moveLot = sqlite.prepare(`update lots set status = ?, updated_at = ?, version = version + 1 where id = ? and status = ?`);
  const history = sqlite.prepare(
    `insert into lot_status_changes (lot_id, from_status, to_status, reason, user_id, changed_at) values (?, ?, ?, ?, ?, ?)`,
  );
  let pending: unknown[] = [];
  const flush = (all: boolean) => {
    while (pending.length >= ROWS_PER_INSERT * 9) insertRows.run(pending.splice(0, ROWS_PER_INSERT * 9));
    if (all && pending.length > 0) insertRowsStatement(pending.length / 9).run(pending.splice(0));
  };
  const rates = { FRANCES: '1.25', INTERES_SIMPLE: '1.00', SIN_INTERES: '0' } as const;

  for (const [n, sale] of planned.entries()) {
    const id = firstSaleId + n;
    const number = `V-${String(id).padStart(6, '0')}`;
    const result = planQuote({
      listPriceCents: sale.listPrice,
      discountPercent: sale.discount ? '5' : null,
      downPaymentPercent: sale.cash ? null : sale.downPercent,
      downPaymentParts: sale.parts,
      instalments: sale.terms,
      monthlyRatePercent: sale.cash ? '0' : rates[sale.method],
      method: sale.method,
      firstDueDate: sale.cash ? null : sale.date.add({ months: sale.parts }),
      today: sale.date,
    });
    if (!result.ok) throw new Error(`sale ${number}: ${JSON.stringify(result.errors)}`);
    const { plan: terms } = result;
    // Paid: what fell due before today, or before the buyer stopped paying, or before the annulment.
    const paidBefore = sale.annulledOn ?? (sale.late ? today.subtract({ months: 3 }) : today);
    const isPaid = (due: Temporal.PlainDate) => Temporal.PlainDate.compare(due, paidBefore) < 0;
    const rows = [
      ...terms.downPayment.map((p) => ({
        kind: 'INICIAL',
        number: p.number,
        due: p.dueDate,
        amount: p.amountCents,
        capital: p.amountCents,
        interest: 0,
      })),
      ...terms.schedule.map((r) => ({
        kind: 'CUOTA',
        number: r.number,
        due: r.dueDate,
        amount: r.amountCents,
        capital: r.capitalCents,
        interest: r.interestCents,
      })),
    ];
    const down = rows.filter((r) => r.kind === 'INICIAL');
    const status = sale.annulledOn
      ? 'ANULADA'
      : rows.every((r) => isPaid(r.due))
        ? 'CANCELADA'
        : down.every((r) => isPaid(r.due))
          ? 'EN_CUOTAS'
          : down.some((r) => isPaid(r.due))
            ? 'INICIAL_PENDIENTE'
            : 'REGISTRADA';
    const buyer = customers[sale.buyer]!;
    const others = () => customers[(sale.buyer + 1 + Math.floor(rnd() * (customers.length - 1))) % customers.length]!.id;
    // Buyers: a married buyer with the spouse (50 / 50), one sale in twenty two co-owners; one financed sale in twenty a guarantor.
    const second = buyer.spouse_id ?? (sale.roll > 0.95 ? others() : null);
    const secondRole = buyer.spouse_id !== null ? 'CONYUGE' : 'COPROPIETARIO';
    const candidate = !sale.cash && sale.roll < 0.05 ? others() : null;
    const guarantor = candidate !== null && candidate !== second ? candidate : null;
    const stamp = `${sale.date.toString()}T15:00:00.000Z`;
    const updated = sale.annulledOn ? `${sale.annulledOn.toString()}T15:00:00.000Z` : stamp;
    insertSale.run(
      id,
      sale.lotId,
      sale.subdivisionId,
      sale.agent,
      guarantor,
      sale.date.toString(),
      sale.cash ? 'CONTADO' : 'FINANCIADO',
      sale.currency,
      terms.listPriceCents,
      terms.discountCents,
      terms.finalPriceCents,
      terms.downPaymentCents,
      terms.financedCents,
      sale.terms,
      sale.cash ? '0' : rates[sale.method],
      sale.cash ? 'SIN_INTERES' : sale.method,
      terms.totalInterestCents,
      status,
      sale.annulledOn ? 'Desistimiento del cliente' : null,
      sale.agent,
      stamp < now ? stamp : now,
      updated < now ? updated : now,
    );
    insertHolder.run(id, buyer.id, 'TITULAR', second !== null ? '50.00' : '100.00', 0);
    if (second !== null) insertHolder.run(id, second, secondRole, '50.00', 1);
    for (const r of rows) {
      const paid = isPaid(r.due);
      pending.push(
        id,
        r.kind,
        r.number,
        r.due.toString(),
        r.amount,
        r.capital,
        r.interest,
        paid ? r.amount : 0,
        paid ? 'PAGADA' : 'PENDIENTE',
      );
    }
    flush(false);
    // The lot: sold, and back on sale when annulled.
    if (!moveLot.run('VENDIDO', now, sale.lotId, 'DISPONIBLE').changes)
      throw new Error(`lot ${sale.lotId} is not DISPONIBLE for ${number}`);
    history.run(sale.lotId, 'DISPONIBLE', 'VENDIDO', `Venta ${number}`, sale.agent, stamp);
    if (sale.annulledOn) {
      moveLot.run('DISPONIBLE', now, sale.lotId, 'VENDIDO');
      history.run(sale.lotId, 'VENDIDO', 'DISPONIBLE', `Venta ${number} anulada: Desistimiento del cliente`, sale.agent, updated);
    }
  }
  flush(true);
  pending = [];
  return planned.length;
}
