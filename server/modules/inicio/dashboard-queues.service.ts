import { sql, type Kysely, type SqlBool } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { OPEN_LEAD_STATUSES } from '../../../src/schemas/crm/leads';
import { LIVE_RESERVATION_STATUSES } from '../../../src/schemas/comercio/reservations';
import { ENDED_SALE_STATUSES } from '../../../src/schemas/comercio/sales';
import type {
  CommissionsCard,
  DashboardCurrency,
  DashboardMoney,
  DueSoonCard,
  ExpiringReservationsCard,
  FollowUpsCard,
  LateCustomersCard,
  PaymentsReviewCard,
} from '../../../src/schemas/inicio/dashboard';
import type { InstalmentStatusCode } from '../../../src/schemas/finanzas/instalments';
import { formatMoney } from '../../../src/lib/money';
import { todayInLimaBy, HOUR_MS } from '../../clock';
import type { AppDeps } from '../../context';
import type { DB } from '../../db/database';
import { isSqlite } from '../../db/portable';
import { displayName } from '../crm/customers.repository';
import { saleNumber } from '../comercio/sales.service';
import { reservationNumber } from '../comercio/reservations.repository';
import { daysLateOn, instalmentTotals } from '../finanzas/instalments.service';

/**
 * Inicio's agent and collector cards (docs/dashboard.md "Agent and collector cards";
 * src/schemas/inicio/dashboard.ts): payments to review, reservations about to expire, the caller's
 * follow-ups and commissions, instalments due in the next 7 days and the customers most days late.
 * Each figure is read with the filters of the list its card links to, so both show the same total;
 * every query is bounded (capped lists, index ranges): none reads the whole instalments table.
 * Money in integer céntimos per currency (PEN first), never added across currencies.
 */

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/** Rows the payments-review card lists (the oldest). */
export const PAYMENTS_REVIEW_SHOWN = 5;
/** Rows the expiring-reservations and follow-ups cards list. */
export const QUEUE_ROWS_SHOWN = 10;
/** Customers the late-customers card lists. */
export const LATE_CUSTOMERS_SHOWN = 10;
/** Hours ahead the expiring-reservations card looks. */
export const EXPIRING_WITHIN_HOURS = 48;
/** Days after today the due-soon card reaches (today … today + 7, both included). */
export const DUE_SOON_DAYS = 7;
/** Instalments read per step while looking for the customers most days late, and the most steps. */
const LATE_WALK_BATCH = 500;
const LATE_WALK_MAX_STEPS = 20;

const currencyOf = (value: unknown): DashboardCurrency => (value === 'USD' ? 'USD' : 'PEN');
const byCurrency = <T extends { currency: DashboardCurrency }>(rows: T[]): T[] =>
  rows.sort((a, b) => (a.currency === b.currency ? 0 : a.currency === 'PEN' ? -1 : 1));
/** A stored instant as ISO text (PostgreSQL hands back a Date). */
const instantText = (value: unknown): string => (value instanceof Date ? value.toISOString() : String(value));

/**
 * GET /api/dashboard/payments-review: payments PENDIENTE — the Pagos list filtered status=PENDIENTE
 * (server/modules/finanzas/payments.repository.ts `listPaymentIds`, which answers every staff user
 * holding Pagos: no own-records scope) — their count, Σ amount per currency and the five oldest by
 * registration (`created_at`, then id). Reads the index `payments_status_created_idx`.
 */
export async function paymentsReviewCard(db: Kysely<DB>): Promise<PaymentsReviewCard> {
  const sums = await db
    .selectFrom('payments')
    .select((eb) => [
      'payments.currency',
      eb.fn.countAll<number | string>().as('n'),
      eb.fn.sum<number | string>('payments.amount').as('amount'),
    ])
    .where('payments.status', '=', 'PENDIENTE')
    .groupBy('payments.currency')
    .execute();
  const oldest = await db
    .selectFrom('payments')
    .innerJoin('customers', 'customers.id', 'payments.customer_id')
    .select([
      'payments.id',
      'payments.sale_id',
      'payments.reservation_id',
      'payments.method',
      'payments.currency',
      'payments.amount',
      'payments.created_at',
      'customers.name',
      'customers.surname',
    ])
    .where('payments.status', '=', 'PENDIENTE')
    .orderBy('payments.created_at')
    .orderBy('payments.id')
    .limit(PAYMENTS_REVIEW_SHOWN)
    .execute();
  return {
    count: sums.reduce((n, r) => n + Number(r.n), 0),
    by_currency: byCurrency(sums.map((r) => ({ currency: currencyOf(r.currency), amount: Number(r.amount ?? 0) }))),
    oldest: oldest.map((r) => ({
      id: r.id,
      customer_name: displayName({ name: r.name, surname: r.surname }),
      reference: r.sale_id !== null ? saleNumber(r.sale_id) : r.reservation_id !== null ? reservationNumber(r.reservation_id) : '',
      method: r.method,
      currency: currencyOf(r.currency),
      amount: Number(r.amount),
      created_at: instantText(r.created_at),
    })),
  };
}

/**
 * GET /api/dashboard/expiring-reservations: live reservations (PENDIENTE_PAGO, VIGENTE) whose
 * `expires_at` falls after now and at most 48 hours ahead, soonest first (then id), at most ten;
 * `count` all of them. The reservations list (GET /api/reservations) has no own-records scope, so
 * neither has the card. Reads the index `reservations_due_idx (status, expires_at)`.
 */
export async function expiringReservationsCard(deps: Deps): Promise<ExpiringReservationsCard> {
  const now = deps.clock.now();
  const from = now.toISOString();
  const until = new Date(now.getTime() + EXPIRING_WITHIN_HOURS * HOUR_MS).toISOString();
  const base = deps.db
    .selectFrom('reservations')
    .where('reservations.status', 'in', [...LIVE_RESERVATION_STATUSES])
    .where('reservations.expires_at', '>', from)
    .where('reservations.expires_at', '<=', until);
  const counted = await base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
  const rows = await base
    .innerJoin('customers', 'customers.id', 'reservations.customer_id')
    .innerJoin('lots', 'lots.id', 'reservations.lot_id')
    .innerJoin('subdivisions', 'subdivisions.id', 'lots.subdivision_id')
    .leftJoin('users as agent', 'agent.id', 'reservations.agent_id')
    .select([
      'reservations.id',
      'reservations.expires_at',
      'lots.code as lot_code',
      'subdivisions.name as subdivision_name',
      'customers.name as customer_name',
      'customers.surname as customer_surname',
      'agent.name as agent_name',
      'agent.surname as agent_surname',
    ])
    .orderBy('reservations.expires_at')
    .orderBy('reservations.id')
    .limit(QUEUE_ROWS_SHOWN)
    .execute();
  return {
    count: Number(counted?.n ?? 0),
    reservations: rows.map((r) => ({
      id: r.id,
      lot_code: r.lot_code,
      subdivision_name: r.subdivision_name,
      customer_name: displayName({ name: r.customer_name, surname: r.customer_surname }),
      agent_name: r.agent_name !== null ? `${r.agent_name} ${r.agent_surname ?? ''}`.trim() : '',
      expires_at: instantText(r.expires_at),
    })),
  };
}

/**
 * GET /api/dashboard/follow-ups: the caller's own open leads whose next follow-up is overdue — the
 * Leads list filtered `mine=true&overdue=true` (server/modules/crm/leads.repository.ts: agent is the
 * caller, status open, `next_follow_up_at` before now) — most overdue first (then id), at most ten.
 * Reads the index `leads_agent_status_idx`.
 */
export async function followUpsCard(deps: Deps, userId: number): Promise<FollowUpsCard> {
  const now = deps.clock.now().toISOString();
  const base = deps.db
    .selectFrom('leads')
    .where('leads.agent_id', '=', userId)
    .where('leads.status', 'in', [...OPEN_LEAD_STATUSES])
    .where('leads.next_follow_up_at', '<', now);
  const counted = await base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirst();
  const rows = await base
    .select(['leads.id', 'leads.name', 'leads.phone', 'leads.next_follow_up_at'])
    .orderBy('leads.next_follow_up_at')
    .orderBy('leads.id')
    .limit(QUEUE_ROWS_SHOWN)
    .execute();
  return {
    count: Number(counted?.n ?? 0),
    leads: rows.map((r) => ({ id: r.id, name: r.name, phone: r.phone, next_follow_up_at: instantText(r.next_follow_up_at) })),
  };
}

/**
 * GET /api/dashboard/commissions: the caller's own commissions (`commissions.user_id`; docs/domain.md
 * "Commissions"), per currency: `earned` = Σ DEVENGADA not in any settlement (`settlement_id` null)
 * and `to_pay` = Σ the lines of an APROBADA settlement (LIQUIDADA, and a REVERTIDA line's negative
 * amount that settlement takes back), gross of any withholding. Currencies with both zero are left
 * out. Reads the index `commissions_user_state_idx`.
 */
export async function commissionsCard(db: Kysely<DB>, userId: number): Promise<CommissionsCard> {
  const rows = await db
    .selectFrom('commissions as c')
    .leftJoin('commission_settlements as st', 'st.id', 'c.settlement_id')
    .select((eb) => [
      'c.currency',
      eb.fn.sum<number | string>(sql`case when c.state = 'DEVENGADA' and c.settlement_id is null then c.amount else 0 end`).as('earned'),
      eb.fn.sum<number | string>(sql`case when st.state = 'APROBADA' then c.amount else 0 end`).as('to_pay'),
    ])
    .where('c.user_id', '=', userId)
    .where('c.state', 'in', ['DEVENGADA', 'LIQUIDADA', 'REVERTIDA'])
    .groupBy('c.currency')
    .execute();
  return {
    by_currency: byCurrency(
      rows
        .map((r) => ({ currency: currencyOf(r.currency), earned: Number(r.earned ?? 0), to_pay: Number(r.to_pay ?? 0) }))
        .filter((r) => r.earned !== 0 || r.to_pay !== 0),
    ),
  };
}

/** The instalment states that are not paid off. */
const UNPAID: readonly InstalmentStatusCode[] = ['PENDIENTE', 'PARCIAL', 'VENCIDA'];

/**
 * GET /api/dashboard/due-soon: instalments due from today to today + 7 (Lima) not paid off, as
 * Registro de Cuotas totals them (server/modules/finanzas/instalments.service.ts `instalmentTotals`,
 * the register's own query: sales not ANULADA/RESUELTA) with `due_from`/`due_to` and each unpaid
 * status — PENDIENTE, PARCIAL, VENCIDA — added up per currency: `count` instalments, `amount`
 * Σ outstanding (amount − paid). The register has no own-records scope, so neither has the card.
 * Reads the index `sale_instalments_status_due_idx (status, due_date, sale_id)`: an 8-day range.
 */
export async function dueSoonCard(deps: Deps): Promise<DueSoonCard> {
  const from = todayInLimaBy(deps.clock);
  const to = Temporal.PlainDate.from(from).add({ days: DUE_SOON_DAYS }).toString();
  let count = 0;
  const amounts = new Map<DashboardCurrency, number>();
  for (const status of UNPAID) {
    for (const t of await instalmentTotals(deps, { status, due_from: from, due_to: to })) {
      count += t.count;
      amounts.set(t.currency, (amounts.get(t.currency) ?? 0) + t.balance);
    }
  }
  return { from, to, count, by_currency: byCurrency([...amounts].map(([currency, amount]) => ({ currency, amount }))) };
}

/** A late customer before the money and the link are added. */
interface LateCustomer {
  id: number;
  oldestDue: string;
}

/**
 * The customers most days late: a customer is late through any sale they hold (the register's
 * `customer_id` filter: any holder), by their oldest VENCIDA instalment. Walks VENCIDA instalments
 * of sales not ended, oldest due date first (index `sale_instalments_status_due_idx`), a batch at a
 * time, until `limit` distinct customers are found — at most {@link LATE_WALK_MAX_STEPS} batches,
 * never the whole table.
 */
async function mostLateCustomers(db: Kysely<DB>, limit: number): Promise<LateCustomer[]> {
  const found = new Map<number, LateCustomer>();
  const seenSales = new Set<number>();
  let cursor: { due: string; id: number } | null = null;
  for (let step = 0; step < LATE_WALK_MAX_STEPS && found.size < limit; step += 1) {
    const after: { due: string; id: number } | null = cursor;
    const batch: Array<{ id: number; sale_id: number; due_date: string }> = await db
      .selectFrom('sale_instalments as i')
      .select(['i.id', 'i.sale_id', 'i.due_date'])
      .where('i.status', '=', 'VENCIDA')
      .where('i.sale_id', 'not in', (eb) =>
        eb
          .selectFrom('sales')
          .select('sales.id')
          .where('sales.status', 'in', [...ENDED_SALE_STATUSES]),
      )
      // After the last row read: `due_date >=` keeps the index range, the `or` skips the rows already read.
      .$if(after !== null, (q) =>
        q.where('i.due_date', '>=', after!.due).where((eb) => eb.or([eb('i.due_date', '>', after!.due), eb('i.id', '>', after!.id)])),
      )
      .orderBy('i.due_date')
      .orderBy('i.id')
      .limit(LATE_WALK_BATCH)
      .execute();
    const newSales: number[] = [...new Set(batch.map((r) => r.sale_id).filter((id) => !seenSales.has(id)))];
    if (newSales.length > 0) {
      const holders = await db
        .selectFrom('sale_holders')
        .select(['sale_id', 'customer_id'])
        .where('sale_id', 'in', newSales)
        .orderBy('sale_id')
        .orderBy('position')
        .execute();
      const holdersOf = new Map<number, number[]>();
      for (const h of holders) holdersOf.set(h.sale_id, [...(holdersOf.get(h.sale_id) ?? []), h.customer_id]);
      // In the walk's order (oldest due date first): a customer's first row is their oldest.
      for (const row of batch) {
        if (seenSales.has(row.sale_id)) continue;
        seenSales.add(row.sale_id);
        for (const customerId of holdersOf.get(row.sale_id) ?? [])
          if (!found.has(customerId) && found.size < limit) found.set(customerId, { id: customerId, oldestDue: row.due_date });
      }
    }
    const last: { id: number; due_date: string } | undefined = batch.at(-1);
    if (!last || batch.length < LATE_WALK_BATCH) break;
    cursor = { due: last.due_date, id: last.id };
  }
  return [...found.values()];
}

/** The late customers in order and what each owes overdue (see {@link lateRanking}). */
interface LateRanking {
  late: LateCustomer[];
  overdue: Map<number, DashboardMoney[]>;
}

/** Per database: the last ranking built and the revisions and day it was built for. */
const lateRankings = new WeakMap<Kysely<DB>, { key: string; value: Promise<LateRanking> }>();

/**
 * The costly part of the late-customers card — the walk of the overdue instalments and the
 * customers' overdue sums ({@link mostLateCustomers}, {@link overdueByCustomer}): ~80 ms on the
 * large database — kept per database for one revision of Registro de Cuotas and of the sales list
 * (`list_revisions` rows `instalments` and `sales`, raised by triggers on every write that can move
 * it) and one Lima day, as the register keeps its totals (docs/dashboard.md "Performance"). Names,
 * phones and the company are read on every request, so an edited phone shows at once. A ranking
 * built while a write commits is kept under the revision read before it: the next request reads
 * the new revision and builds again. `keep` false (ANSWER_CACHE=off) builds every time.
 */
async function lateRanking(db: Kysely<DB>, today: string, keep: boolean): Promise<LateRanking> {
  const revisions = await db
    .selectFrom('list_revisions')
    .select(['name', 'revision'])
    .where('name', 'in', ['instalments', 'sales'])
    .execute();
  const key = `${revisions
    .map((r) => `${r.name}:${String(r.revision)}`)
    .sort()
    .join(',')}|${today}`;
  const kept = lateRankings.get(db);
  if (keep && kept?.key === key) return kept.value;
  const value = (async (): Promise<LateRanking> => {
    const late = await mostLateCustomers(db, LATE_CUSTOMERS_SHOWN);
    const overdue =
      late.length === 0
        ? new Map<number, DashboardMoney[]>()
        : await overdueByCustomer(
            db,
            late.map((c) => c.id),
          );
    return { late, overdue };
  })();
  if (keep) {
    const entry = { key, value };
    lateRankings.set(db, entry);
    // A failed build is not kept.
    value.catch(() => {
      if (lateRankings.get(db) === entry) lateRankings.delete(db);
    });
  }
  return value;
}

/**
 * What each customer owes overdue, per currency: Σ (amount − paid) of the VENCIDA instalments of
 * the sales not ANULADA/RESUELTA they hold (any holder) — exactly Registro de Cuotas' totals
 * filtered `customer_id=<id>&status=VENCIDA` (instalments.service.ts `filtered`; the test compares
 * them through the register's endpoint), read from the customers' own sales: their holders
 * (`sale_holders_customer_idx`), then those sales' rows by `sale_id` (`sale_instalments_sale_uq`),
 * never the whole VENCIDA range once per customer. On SQLite `+i.status` keeps the planner on the
 * sale's rows (as the register does for its day-late filter).
 */
async function overdueByCustomer(db: Kysely<DB>, customerIds: readonly number[]): Promise<Map<number, DashboardMoney[]>> {
  const result = new Map<number, DashboardMoney[]>(customerIds.map((id) => [id, []]));
  if (customerIds.length === 0) return result;
  const holders = await db
    .selectFrom('sale_holders')
    .select(['sale_id', 'customer_id'])
    .where('customer_id', 'in', [...customerIds])
    .execute();
  const saleIds = [...new Set(holders.map((h) => h.sale_id))];
  if (saleIds.length === 0) return result;
  const rows = await db
    .selectFrom('sale_instalments as i')
    .innerJoin('sales', 'sales.id', 'i.sale_id')
    .select((eb) => [
      'i.sale_id',
      'sales.currency',
      eb.fn.sum<number | string>('i.amount').as('amount'),
      eb.fn.sum<number | string>('i.paid').as('paid'),
    ])
    .where('i.sale_id', 'in', saleIds)
    .where(isSqlite(db) ? sql<SqlBool>`+i.status = 'VENCIDA'` : sql<SqlBool>`i.status = 'VENCIDA'`)
    .where('sales.status', 'not in', [...ENDED_SALE_STATUSES])
    .groupBy(['i.sale_id', 'sales.currency'])
    .execute();
  const bySale = new Map(
    rows.map((r) => [r.sale_id, { currency: currencyOf(r.currency), owed: Number(r.amount ?? 0) - Number(r.paid ?? 0) }]),
  );
  for (const customerId of customerIds) {
    const sums = new Map<DashboardCurrency, number>();
    for (const h of holders) {
      const sale = h.customer_id === customerId ? bySale.get(h.sale_id) : undefined;
      if (sale) sums.set(sale.currency, (sums.get(sale.currency) ?? 0) + sale.owed);
    }
    result.set(customerId, byCurrency([...sums].map(([currency, amount]) => ({ currency, amount })).filter((m) => m.amount > 0)));
  }
  return result;
}

/**
 * The WhatsApp chat of `phone` with `text` typed in (docs/dashboard.md "WhatsApp reminder"):
 * `https://wa.me/<digits>?text=<text URL-encoded>`. A Peruvian mobile (9 digits from 9, spaces and
 * dashes ignored) gets the country code 51; a number written internationally ("+51 987…",
 * "0034 6…", or 51 and a 9-digit mobile) keeps its digits (8 to 15, E.164). No phone, or one that
 * is neither (a landline, too short or long, letters only) → null.
 */
export function whatsAppReminderUrl(phone: string | null | undefined, text: string): string | null {
  const trimmed = (phone ?? '').trim();
  if (trimmed === '' || /[a-z]/i.test(trimmed)) return null;
  let digits = trimmed.replace(/\D/g, '');
  let international = false;
  if (trimmed.startsWith('+')) international = true;
  else if (trimmed.startsWith('00')) {
    international = true;
    digits = digits.slice(2);
  }
  let target: string | null = null;
  if (international) {
    if (digits.startsWith('51')) target = /^519\d{8}$/.test(digits) ? digits : null;
    else target = /^[1-9]\d{7,14}$/.test(digits) ? digits : null;
  } else if (/^9\d{8}$/.test(digits)) target = `51${digits}`;
  else if (/^519\d{8}$/.test(digits)) target = digits;
  return target === null ? null : `https://wa.me/${target}?text=${encodeURIComponent(text)}`;
}

/**
 * The Spanish reminder of docs/dashboard.md "WhatsApp reminder": "Hola <name>, le saludamos
 * de <company>. Le recordamos que tiene cuotas vencidas por <amounts> desde hace <n> días. Puede
 * pagar por Yape o Plin desde su portal. Gracias." — amounts per currency ("S/ 1,250.00 y US$
 * 300.00"), "1 día" in the singular; without a company name "de <company>" is left out. `name`:
 * the customer's first name (a company's business name). A company name ending in a period
 * ("S.A.C.") ends the sentence itself (no second period).
 */
export function lateReminderText(input: { name: string; company: string; amounts: DashboardMoney[]; daysLate: number }): string {
  const company = input.company.trim();
  // "… de Inmobiliaria Sol S.A.C." ends the sentence with the abbreviation's own period.
  const greeting = `Hola ${input.name.trim()}${company ? `, le saludamos de ${company}` : ', le saludamos'}${company.endsWith('.') ? '' : '.'}`;
  const amounts = input.amounts.map((m) => formatMoney(m.amount, m.currency)).join(' y ');
  const days = input.daysLate === 1 ? '1 día' : `${input.daysLate} días`;
  return `${greeting} Le recordamos que tiene cuotas vencidas por ${amounts} desde hace ${days}. Puede pagar por Yape o Plin desde su portal. Gracias.`;
}

/**
 * GET /api/dashboard/late-customers: the ten customers most days late ({@link mostLateCustomers};
 * days late counted from the due date, instalments.service.ts `daysLateOn`, docs/domain.md
 * "Instalments, days late and late fees"), most late first (then id), each with their phone, the
 * amount overdue per currency — Σ outstanding (amount − paid) of Registro de Cuotas filtered
 * `customer_id=<id>&status=VENCIDA` ({@link overdueByCustomer}) — and the WhatsApp
 * reminder link. The register has no own-records scope, so neither has the card.
 */
export async function lateCustomersCard(deps: Deps, options: { keep?: boolean } = {}): Promise<LateCustomersCard> {
  const today = todayInLimaBy(deps.clock);
  const { late, overdue } = await lateRanking(deps.db, today, options.keep ?? true);
  if (late.length === 0) return { customers: [] };
  const people = new Map(
    (
      await deps.db
        .selectFrom('customers')
        .select(['id', 'name', 'surname', 'phone'])
        .where(
          'id',
          'in',
          late.map((c) => c.id),
        )
        .execute()
    ).map((c) => [c.id, c]),
  );
  const company =
    (await deps.db.selectFrom('companies').select('business_name').orderBy('id').limit(1).executeTakeFirst())?.business_name ?? '';
  const customers: LateCustomersCard['customers'] = [];
  for (const c of late) {
    const person = people.get(c.id);
    if (!person) continue;
    const amounts = overdue.get(c.id) ?? [];
    const daysLate = daysLateOn({ status: 'VENCIDA', due_date: c.oldestDue }, today);
    const name = displayName(person);
    // A person is greeted by their first name, a company (no surname) by its business name.
    const greeted = person.surname ? (person.name.trim().split(/\s+/)[0] ?? '') : person.name;
    const text = lateReminderText({ name: greeted, company, amounts, daysLate });
    customers.push({
      id: c.id,
      name,
      phone: person.phone,
      days_late: daysLate,
      by_currency: amounts,
      whatsapp_url: amounts.length > 0 ? whatsAppReminderUrl(person.phone, text) : null,
    });
  }
  return { customers: customers.sort((a, b) => b.days_late - a.days_late || a.id - b.id) };
}
