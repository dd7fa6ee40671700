import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../server/app';
import { testConfig } from '../../server/config';
import type { DB } from '../../server/db/database';
import { openMigratedDatabase } from '../../server/start';
import {
  commissionsCardResponseSchema,
  DASHBOARD_CHANGED_EVENT,
  dueSoonCardResponseSchema,
  expiringReservationsCardResponseSchema,
  followUpsCardResponseSchema,
  lateCustomersCardResponseSchema,
  paymentsReviewCardResponseSchema,
} from '../../src/schemas/inicio/dashboard';
import { saleResponseSchema, type Sale } from '../../src/schemas/comercio/sales';
import { paymentResponseSchema, paymentsPageSchema, type Payment } from '../../src/schemas/finanzas/payments';
import { instalmentsPageSchema, instalmentTotalsResponseSchema } from '../../src/schemas/finanzas/instalments';
import { leadsPageSchema } from '../../src/schemas/crm/leads';
import { reservationsPageSchema } from '../../src/schemas/comercio/reservations';
import { commissionsPageSchema } from '../../src/schemas/administracion/commissions';
import { ACTION, MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { MESSAGES } from '../../server/errors';
import { HOUR_MS } from '../../server/clock';
import { notificationChannelOf } from '../../server/realtime/realtime.service';
import type { BroadcastEvent } from '../../server/realtime/broadcaster';
import { lateReminderText, whatsAppReminderUrl } from '../../server/modules/inicio/dashboard-queues.service';
import {
  createCrmCustomer,
  createCustomer,
  createLot,
  createSession,
  createStaff,
  createSubdivision,
  ensureCompany,
  FIXTURE_COMPANY,
  insertCashSale,
  commissionRow,
} from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/**
 * Inicio's agent and collector cards (docs/dashboard.md "Agent and collector cards"): each figure
 * equals the total of the list its card links to, read through that list's own endpoint; the
 * caller's own follow-ups and commissions; access; the WhatsApp reminder; the realtime
 * DashboardChanged after a payment's approval commits. Test clock: 2026-03-02 10:00 Lima.
 */

const PAYMENTS = [MODULE.finanzas, SUBMODULE.pagos];
const SALES = [MODULE.comercial, SUBMODULE.ventas];
const LEADS = [MODULE.crm, SUBMODULE.leads];
const COMMISSIONS = [MODULE.administracion, SUBMODULE.comisiones];
const CARDS = ['payments-review', 'expiring-reservations', 'follow-ups', 'commissions', 'due-soon', 'late-customers'] as const;

describe('WhatsApp reminder link', () => {
  const text = 'Hola Ana, le saludamos.';
  it.each([
    ['a 9-digit mobile', '987654321', 'https://wa.me/51987654321'],
    ['a spaced mobile', '987 654 321', 'https://wa.me/51987654321'],
    ['+51 and a mobile', '+51 987 654 321', 'https://wa.me/51987654321'],
    ['51 and a mobile', '51987654321', 'https://wa.me/51987654321'],
    ['another country, international', '+34 612 345 678', 'https://wa.me/34612345678'],
    ['00 and another country', '0034 612345678', 'https://wa.me/34612345678'],
  ])('%s → %s', (_label, phone, base) => {
    expect(whatsAppReminderUrl(phone, text)).toBe(`${base}?text=${encodeURIComponent(text)}`);
  });
  it.each([
    ['no phone', null],
    ['an empty one', ''],
    ['blanks', '   '],
    ['garbage', 'llamar luego'],
    ['a Lima landline', '01 421 1234'],
    ['too short', '98765'],
    ['+51 and a landline', '+51 1 4211234'],
    ['a +sign and letters', '+abc'],
  ])('%s → null', (_label, phone) => {
    expect(whatsAppReminderUrl(phone, text)).toBeNull();
  });
  it('writes the Spanish reminder exactly (docs/dashboard.md "WhatsApp reminder")', () => {
    expect(
      lateReminderText({
        name: 'Ana',
        company: 'Inmobiliaria Sol S.A.C.',
        amounts: [
          { currency: 'PEN', amount: 125_050 },
          { currency: 'USD', amount: 30_000 },
        ],
        daysLate: 45,
      }),
    ).toBe(
      'Hola Ana, le saludamos de Inmobiliaria Sol S.A.C. Le recordamos que tiene cuotas vencidas por S/ 1,250.50 y US$ 300.00 ' +
        'desde hace 45 días. Puede pagar por Yape o Plin desde su portal. Gracias.',
    );
    expect(lateReminderText({ name: 'Eva', company: 'Lotes del Sur', amounts: [{ currency: 'USD', amount: 5_000 }], daysLate: 3 })).toBe(
      'Hola Eva, le saludamos de Lotes del Sur. Le recordamos que tiene cuotas vencidas por US$ 50.00 desde hace 3 días. Puede pagar por Yape o Plin desde su portal. Gracias.',
    );
    expect(lateReminderText({ name: 'Luis', company: '', amounts: [{ currency: 'PEN', amount: 100 }], daysLate: 1 })).toBe(
      'Hola Luis, le saludamos. Le recordamos que tiene cuotas vencidas por S/ 1.00 desde hace 1 día. Puede pagar por Yape o Plin desde su portal. Gracias.',
    );
  });
});

describe.each(dialects)('dashboard agent and collector cards (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const published: BroadcastEvent[] = [];
  /** Per published DashboardChanged: the payment's status read by another statement at that moment. */
  let atPublish: Array<Promise<string | undefined>> = [];
  let watchedPayment: number | null = null;
  const broadcaster = {
    publish: (events: readonly BroadcastEvent[]) => {
      published.push(...events);
      if (watchedPayment !== null && events.some((e) => e.event === DASHBOARD_CHANGED_EVENT)) {
        const id = watchedPayment;
        atPublish.push(
          db()
            .selectFrom('payments')
            .select('status')
            .where('id', '=', id)
            .executeTakeFirst()
            .then((r) => r?.status),
        );
      }
    },
    settled: async () => undefined,
  };
  const ctx = useTestApp(db, {}, { broadcaster });
  let n = 0;

  const get = (url: string, token: string) => ctx().app.inject({ method: 'GET', url, headers: bearer(token) });
  const send = (url: string, token: string, payload: object) => ctx().app.inject({ method: 'POST', url, headers: bearer(token), payload });
  const staffToken = async (permissions: readonly string[]) => {
    const staff = await createStaff(db(), { permissions: permissions as never });
    return { id: staff.id, token: await createSession(db(), staff) };
  };
  const ok = async (url: string, token: string) => {
    const res = await get(url, token);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as unknown;
  };

  /** A sale (S/ or US$) of a fresh lot: 20 % down payment due on the sale date, 3 instalments from `firstDue`. */
  async function sale(buyer: number, options: { firstDue: string; saleDate?: string; currency?: 'PEN' | 'USD' }): Promise<Sale> {
    const subdivision = await createSubdivision(db(), { currency: options.currency ?? 'PEN' });
    const lotId = await createLot(db(), subdivision.id, { block: 'D', number: String(++n) });
    const { token } = await staffToken(SALES);
    const res = await send('/api/sales', token, {
      lot_id: lotId,
      holders: [{ customer_id: buyer, role: 'TITULAR', share_percent: '100' }],
      down_payment_percent: '20',
      instalments: 3,
      monthly_rate_percent: '0',
      method: 'SIN_INTERES',
      first_due_date: options.firstDue,
      ...(options.saleDate ? { sale_date: options.saleDate } : {}),
    });
    expect(res.statusCode, res.body).toBe(201);
    return saleResponseSchema.parse(res.json()).data;
  }

  async function register(token: string, saleId: number, amount: number): Promise<Payment> {
    const res = await send('/api/payments', token, { sale_id: saleId, amount, method: 'EFECTIVO', operation_date: '2026-03-02' });
    expect(res.statusCode, res.body).toBe(201);
    return paymentResponseSchema.parse(res.json()).data;
  }

  /** Every row of a paged list (per_page 100). */
  async function allRows<T>(url: string, token: string, parse: (body: unknown) => { data: T[]; meta: { total: number } }) {
    const rows: T[] = [];
    for (let page = 1; ; page += 1) {
      const body = parse(await ok(`${url}${url.includes('?') ? '&' : '?'}per_page=100&page=${page}`, token));
      rows.push(...body.data);
      if (rows.length >= body.meta.total || body.data.length === 0) return rows;
    }
  }

  it('refuses without a session (401), staff without the card’s permissions and customers (403), unknown parameters (422)', async () => {
    const stranger = await staffToken([MODULE.proyectos, SUBMODULE.lotizaciones]);
    const customer = await createSession(db(), await createCustomer(db()));
    const all = await staffToken([...PAYMENTS, ...SALES, ...LEADS, ...COMMISSIONS]);
    for (const card of CARDS) {
      const url = `/api/dashboard/${card}`;
      expect((await ctx().app.inject({ method: 'GET', url })).statusCode, url).toBe(401);
      expect((await get(url, stranger.token)).statusCode, url).toBe(403);
      expect((await get(url, customer)).statusCode, url).toBe(403);
      expect((await get(url, all.token)).statusCode, url).toBe(200);
      const bad = await get(`${url}?desde=2026-01-01`, all.token);
      expect(bad.statusCode, url).toBe(422);
      expect(bad.json().errors).toEqual({ desde: [MESSAGES.unknownField] });
    }
    // One permission of the pair is not enough.
    const half = await staffToken([MODULE.finanzas]);
    expect((await get('/api/dashboard/payments-review', half.token)).statusCode).toBe(403);
  });

  it('payments-review: the Pagos list filtered status=PENDIENTE — count, Σ per currency, the five oldest', async () => {
    const reviewer = await staffToken(PAYMENTS);
    const pen = await sale(await createCrmCustomer(db()), { firstDue: '2026-04-01' });
    const usd = await sale(await createCrmCustomer(db()), { firstDue: '2026-04-01', currency: 'USD' });
    for (const [i, amount] of [10_000, 20_000, 30_000, 40_000, 50_000, 60_000].entries()) {
      await register(reviewer.token, i % 2 === 0 ? pen.id : usd.id, amount);
      ctx().clock.advance(60_000);
    }
    const card = paymentsReviewCardResponseSchema.parse(await ok('/api/dashboard/payments-review', reviewer.token)).data;
    const list = await allRows('/api/payments?status=PENDIENTE', reviewer.token, (b) => paymentsPageSchema.parse(b));
    expect(card.count).toBe(list.length);
    for (const currency of ['PEN', 'USD'] as const)
      expect(card.by_currency.find((r) => r.currency === currency)?.amount ?? 0).toBe(
        list.filter((p) => p.currency === currency).reduce((s, p) => s + p.amount, 0),
      );
    expect(card.by_currency.map((r) => r.currency)).toEqual(['PEN', 'USD']);
    expect(card.oldest.map((p) => p.id)).toEqual(list.slice(0, 5).map((p) => p.id));
    expect(card.oldest[0]).toMatchObject({ method: 'EFECTIVO', reference: expect.stringMatching(/^V-\d{6}$/) });
  });

  it('expiring-reservations: live ones expiring within 48 h, soonest first, as the reservations list shows them', async () => {
    const seller = await staffToken(SALES);
    const now = ctx().clock.now().getTime();
    const subdivision = await createSubdivision(db());
    const at = (hours: number) => new Date(now + hours * HOUR_MS).toISOString();
    const inserted: Array<[string, string]> = [
      ['VIGENTE', at(30)],
      ['PENDIENTE_PAGO', at(2)],
      ['VIGENTE', at(47.9)],
      ['VIGENTE', at(49)], // beyond 48 h
      ['ANULADA', at(5)], // not live
      ['VIGENTE', at(-1)], // already expired (the job has not run yet)
    ];
    for (const [status, expiresAt] of inserted) {
      const lotId = await createLot(db(), subdivision.id, { block: 'R', number: String(++n) });
      const stamp = new Date(now).toISOString();
      await db()
        .insertInto('reservations')
        .values({
          customer_id: await createCrmCustomer(db()),
          lot_id: lotId,
          agent_id: seller.id,
          amount: 50_000,
          currency: 'PEN',
          hold_days: 3,
          expires_at: expiresAt,
          status: status as never,
          conditions_accepted_at: stamp,
          created_by: seller.id,
          created_at: stamp,
          updated_at: stamp,
        })
        .execute();
    }
    const card = expiringReservationsCardResponseSchema.parse(await ok('/api/dashboard/expiring-reservations', seller.token)).data;
    const list = (await allRows('/api/reservations?sort=expires_at', seller.token, (b) => reservationsPageSchema.parse(b))).filter(
      (r) =>
        ['PENDIENTE_PAGO', 'VIGENTE'].includes(r.status) &&
        Date.parse(r.expires_at) > now &&
        Date.parse(r.expires_at) <= now + 48 * HOUR_MS,
    );
    expect(card.count).toBe(list.length);
    expect(card.count).toBeGreaterThanOrEqual(3);
    expect(card.reservations.map((r) => r.id)).toEqual(list.slice(0, 10).map((r) => r.id));
    expect(card.reservations[0]?.agent_name).not.toBe('');
  });

  it('follow-ups: the caller’s own open leads overdue — the Leads list mine=true&overdue=true — also for a supervisor', async () => {
    const agent = await staffToken(LEADS);
    const supervisor = await staffToken([...LEADS, ACTION.supervisarLeads]);
    const now = ctx().clock.now().getTime();
    const lead = async (agentId: number, status: string, followUp: number | null) => {
      const stamp = new Date(now - 10 * 24 * HOUR_MS).toISOString();
      await db()
        .insertInto('leads')
        .values({
          name: `Lead ${++n}`,
          phone: '987000111',
          email: null,
          id_document_type: null,
          document_number: null,
          channel: 'FACEBOOK',
          campaign: null,
          notes: null,
          agent_id: agentId,
          status: status as never,
          lost_reason: status === 'NO_CONCRETADO' ? 'Sin interés' : null,
          next_follow_up_at: followUp === null ? null : new Date(now + followUp * HOUR_MS).toISOString(),
          customer_id: null,
          last_activity_at: null,
          received_at: stamp,
          created_by: null,
          created_at: stamp,
          updated_at: stamp,
        })
        .execute();
    };
    for (const who of [agent.id, supervisor.id]) {
      await lead(who, 'POR_ATENDER', -50);
      await lead(who, 'EN_ATENCION', -2);
      await lead(who, 'EN_ATENCION', 3); // later
      await lead(who, 'NO_CONCRETADO', -5); // closed
      await lead(who, 'POR_ATENDER', null);
    }
    for (const caller of [agent, supervisor]) {
      const card = followUpsCardResponseSchema.parse(await ok('/api/dashboard/follow-ups', caller.token)).data;
      const list = await allRows('/api/leads?mine=true&overdue=true&sort=next_follow_up_at', caller.token, (b) => leadsPageSchema.parse(b));
      expect(card.count).toBe(list.length);
      expect(card.count).toBe(2);
      expect(card.leads.map((l) => l.id)).toEqual(list.slice(0, 10).map((l) => l.id));
    }
  });

  it('commissions: the caller’s own, earned (DEVENGADA not settled) and to pay (in an approved settlement), as the commissions list shows them', async () => {
    const me = await staffToken(COMMISSIONS);
    const other = await staffToken(COMMISSIONS);
    const customer = await createCrmCustomer(db());
    const s = await sale(customer, { firstDue: '2026-04-01' });
    const companyId = await ensureCompany(db());
    const settlement = async (state: string) =>
      (
        await db()
          .insertInto('commission_settlements')
          .values({
            company_id: companyId,
            currency: 'PEN',
            period_from: '2026-02-01',
            period_to: '2026-02-28',
            state,
            note: null,
            created_by: null,
            created_at: new Date().toISOString(),
            updated_at: new Date().toISOString(),
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id;
    const approved = await settlement('APROBADA');
    const draft = await settlement('BORRADOR');
    const commission = async (userId: number, state: string, amount: number, settlementId: number | null, currency = 'PEN') =>
      db()
        .insertInto('commissions')
        .values(
          commissionRow({
            sale_id: s.id,
            user_id: userId,
            amount,
            currency: currency as never,
            state,
            settlement_id: settlementId,
            projected_on: '2026-02-01',
            accrued_on: state === 'PROYECTADA' ? null : '2026-02-10',
          }),
        )
        .execute();
    await commission(me.id, 'DEVENGADA', 10_000, null);
    await commission(me.id, 'DEVENGADA', 5_000, null, 'USD');
    await commission(me.id, 'DEVENGADA', 7_000, draft); // in a draft settlement: neither
    await commission(me.id, 'LIQUIDADA', 20_000, approved);
    await commission(me.id, 'PROYECTADA', 99_000, null);
    await commission(other.id, 'DEVENGADA', 33_000, null);
    const card = commissionsCardResponseSchema.parse(await ok('/api/dashboard/commissions', me.token)).data;
    const mine = await allRows(`/api/commissions?agent_id=${me.id}`, me.token, (b) => commissionsPageSchema.parse(b));
    const expected = (['PEN', 'USD'] as const)
      .map((currency) => ({
        currency,
        earned: mine
          .filter((c) => c.currency === currency && c.state === 'DEVENGADA' && c.settlement === null)
          .reduce((t, c) => t + c.amount, 0),
        to_pay: mine.filter((c) => c.currency === currency && c.settlement?.state === 'APROBADA').reduce((t, c) => t + c.amount, 0),
      }))
      .filter((r) => r.earned !== 0 || r.to_pay !== 0);
    expect(card.by_currency).toEqual(expected);
    expect(card.by_currency).toEqual([
      { currency: 'PEN', earned: 10_000, to_pay: 20_000 },
      { currency: 'USD', earned: 5_000, to_pay: 0 },
    ]);
  });

  it('due-soon and late-customers: Registro de Cuotas totals (today … today + 7 unpaid; customer_id&status=VENCIDA), days late from the due date, the WhatsApp link', async () => {
    await ensureCompany(db());
    const collector = await staffToken(PAYMENTS);
    const late = await createCrmCustomer(db(), { phone: '987 654 321' });
    const lateNoPhone = await createCrmCustomer(db(), { phone: null });
    // Down payment due 2026-01-05 (56 days late on 2026-03-02), instalments from 2026-01-10.
    await sale(late, { firstDue: '2026-01-10', saleDate: '2026-01-05' });
    await sale(lateNoPhone, { firstDue: '2026-02-20', saleDate: '2026-02-15' });
    // Due within the week: 2026-03-05.
    const soon = await sale(await createCrmCustomer(db()), { firstDue: '2026-03-05', saleDate: '2026-03-01' });
    // Part of one paid: PARCIAL still counts as not paid off.
    const reviewer = await staffToken(PAYMENTS);
    const checker = await staffToken(PAYMENTS);
    const downPayment = (
      await db().selectFrom('sale_instalments').select('amount').where('sale_id', '=', soon.id).where('kind', '=', 'INICIAL').execute()
    ).reduce((t, r) => t + Number(r.amount), 0);
    const p = await register(reviewer.token, soon.id, downPayment + 100_000);
    const before = dueSoonCardResponseSchema.parse(await ok('/api/dashboard/due-soon', collector.token)).data;
    expect((await send(`/api/payments/${p.id}/approve`, checker.token, {})).statusCode).toBe(200);

    const dueSoon = dueSoonCardResponseSchema.parse(await ok('/api/dashboard/due-soon', collector.token)).data;
    // The answer kept per revision of the register moved with the approval: S/ 1 000.00 of the 2026-03-05 instalment paid.
    const pen = (card: typeof dueSoon) => card.by_currency.find((m) => m.currency === 'PEN')?.amount ?? 0;
    expect(pen(dueSoon)).toBe(pen(before) - 100_000);
    expect(dueSoon).toMatchObject({ from: '2026-03-02', to: '2026-03-09' });
    let count = 0;
    const amounts = new Map<string, number>();
    for (const status of ['PENDIENTE', 'PARCIAL', 'VENCIDA']) {
      const totals = instalmentTotalsResponseSchema.parse(
        await ok(`/api/instalments/totals?due_from=2026-03-02&due_to=2026-03-09&status=${status}`, collector.token),
      ).data;
      for (const t of totals) {
        count += t.count;
        amounts.set(t.currency, (amounts.get(t.currency) ?? 0) + t.balance);
      }
    }
    expect(dueSoon.count).toBe(count);
    expect(dueSoon.count).toBeGreaterThanOrEqual(1);
    expect(dueSoon.by_currency).toEqual([...amounts].map(([currency, amount]) => ({ currency, amount })));

    const card = lateCustomersCardResponseSchema.parse(await ok('/api/dashboard/late-customers', collector.token)).data;
    expect(card.customers.length).toBeGreaterThanOrEqual(2);
    expect(card.customers.length).toBeLessThanOrEqual(10);
    const days = card.customers.map((c) => c.days_late);
    expect(days).toEqual([...days].sort((a, b) => b - a));
    for (const c of card.customers) {
      const totals = instalmentTotalsResponseSchema.parse(
        await ok(`/api/instalments/totals?customer_id=${c.id}&status=VENCIDA`, collector.token),
      ).data;
      expect(c.by_currency, String(c.id)).toEqual(totals.map((t) => ({ currency: t.currency, amount: t.balance })));
      const oldest = instalmentsPageSchema.parse(
        await ok(`/api/instalments?customer_id=${c.id}&status=VENCIDA&sort=due_date&per_page=1`, collector.token),
      ).data[0];
      expect(c.days_late, String(c.id)).toBe(oldest?.days_late);
    }
    const first = card.customers.find((c) => c.id === late)!;
    expect(first.days_late).toBe(56); // 2026-01-05 → 2026-03-02
    expect(first.phone).toBe('987 654 321');
    const url = new URL(first.whatsapp_url!);
    expect(`${url.origin}${url.pathname}`).toBe('https://wa.me/51987654321');
    const amount = first.by_currency.map((m) => `S/ ${(m.amount / 100).toLocaleString('en-US', { minimumFractionDigits: 2 })}`).join(' y ');
    const customerName = (await db().selectFrom('customers').select('name').where('id', '=', late).executeTakeFirstOrThrow()).name.split(
      ' ',
    )[0];
    expect(url.searchParams.get('text')).toBe(
      `Hola ${customerName}, le saludamos de ${FIXTURE_COMPANY.businessName} Le recordamos que tiene cuotas vencidas por ${amount} desde hace 56 días. Puede pagar por Yape o Plin desde su portal. Gracias.`,
    );
    expect(card.customers.find((c) => c.id === lateNoPhone)).toMatchObject({ phone: null, whatsapp_url: null });

    // The ranking is kept per revision of the register and the sales list (docs/dashboard.md): an
    // edited phone shows at once, and a payment on an overdue instalment moves the amount.
    await db().updateTable('customers').set({ phone: '912 345 678' }).where('id', '=', late).execute();
    const rephoned = lateCustomersCardResponseSchema.parse(await ok('/api/dashboard/late-customers', collector.token)).data;
    expect(new URL(rephoned.customers.find((c) => c.id === late)!.whatsapp_url!).pathname).toBe('/51912345678');
    const owed = await db()
      .selectFrom('sale_instalments')
      .innerJoin('sale_holders', 'sale_holders.sale_id', 'sale_instalments.sale_id')
      .select(['sale_instalments.id', 'sale_instalments.paid'])
      .where('sale_holders.customer_id', '=', late)
      .where('sale_instalments.status', '=', 'VENCIDA')
      .orderBy('sale_instalments.due_date')
      .executeTakeFirstOrThrow();
    await db()
      .updateTable('sale_instalments')
      .set({ paid: Number(owed.paid) + 1_000 })
      .where('id', '=', owed.id)
      .execute();
    const paid = lateCustomersCardResponseSchema.parse(await ok('/api/dashboard/late-customers', collector.token)).data;
    const sum = (c: (typeof paid.customers)[number] | undefined) => (c?.by_currency ?? []).reduce((n, m) => n + m.amount, 0);
    expect(sum(paid.customers.find((c) => c.id === late))).toBe(sum(first) - 1_000);
  });

  it('publishes DashboardChanged to every active staff user after an approval commits, and nothing when it is refused', async () => {
    const reviewer = await staffToken(PAYMENTS);
    const checker = await staffToken(PAYMENTS);
    const inactive = await createStaff(db(), { permissions: PAYMENTS as never });
    await db().updateTable('users').set({ status: 'INACTIVO' }).where('id', '=', inactive.id).execute();
    published.length = 0;
    const s = await sale(await createCrmCustomer(db()), { firstDue: '2026-04-01' });
    // A sale registered moves the sales cards too.
    expect(published.find((e) => e.event === DASHBOARD_CHANGED_EVENT)?.data).toEqual({
      cards: expect.arrayContaining(['sales', 'top-agents', 'lots', 'due-soon']),
    });
    const payment = await register(reviewer.token, s.id, 50_000);

    published.length = 0;
    atPublish = [];
    watchedPayment = payment.id;
    const res = await send(`/api/payments/${payment.id}/approve`, checker.token, {});
    expect(res.statusCode, res.body).toBe(200);
    const changed = published.filter((e) => e.event === DASHBOARD_CHANGED_EVENT);
    const active = (await db().selectFrom('users').select('id').where('status', '=', 'ACTIVO').execute()).map((u) => u.id);
    expect(changed.map((e) => e.channel).sort()).toEqual(
      active.map((id) => notificationChannelOf({ userType: 'COLLABORATOR', accountId: id })).sort(),
    );
    expect(changed.some((e) => e.channel === notificationChannelOf({ userType: 'COLLABORATOR', accountId: inactive.id }))).toBe(false);
    expect(changed[0]?.data).toEqual({
      cards: expect.arrayContaining(['collections', 'overdue', 'payments-review', 'due-soon', 'late-customers', 'commissions']),
    });
    // Published after the commit: another statement already reads the approval.
    expect(atPublish.length).toBeGreaterThan(0);
    expect(await Promise.all(atPublish)).toEqual(atPublish.map(() => 'APROBADO'));

    // A refused approval (already reviewed) rolls back and publishes nothing.
    published.length = 0;
    watchedPayment = null;
    expect((await send(`/api/payments/${payment.id}/approve`, checker.token, {})).statusCode).toBe(409);
    expect(published.filter((e) => e.event === DASHBOARD_CHANGED_EVENT)).toEqual([]);
  });
});

describe('dashboard cards: query plans (sqlite)', () => {
  /** Tables that grow with the business (2 000 000 instalments): never read end to end by a card. */
  const BIG = ['sale_instalments', 'i', 'payments', 'reservations', 'leads', 'commissions', 'c', 'customers', 'sales', 'sale_holders'];
  it('every card reads the big tables through an index (no SCAN of a whole table)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parcela-dash-plans-'));
    const file = join(dir, 'plans.db');
    const opened = await openMigratedDatabase({ databasePath: file, databaseUrl: null });
    await opened.db.destroy();
    const sqlite = new SQLite(file);
    const statements: Array<{ sql: string; parameters: readonly unknown[] }> = [];
    const logged = new Kysely<DB>({
      dialect: new SqliteDialect({ database: sqlite }),
      log: (event) => {
        if (event.level === 'query' && /^\s*select/i.test(event.query.sql))
          statements.push({ sql: event.query.sql, parameters: event.query.parameters });
      },
    });
    const app = await createApp({ db: logged, config: testConfig() });
    try {
      const staff = await createStaff(logged, { permissions: [...PAYMENTS, ...SALES, ...LEADS, ...COMMISSIONS] as never });
      const token = await createSession(logged, staff);
      // One overdue customer, so the late-customers walk and its totals run.
      const buyer = await createCrmCustomer(logged);
      const { id: subdivisionId } = await createSubdivision(logged);
      const saleId = await insertCashSale(logged, {
        lotId: await createLot(logged, subdivisionId, { block: 'A', number: '1' }),
        subdivisionId,
        titularId: buyer,
      });
      await logged
        .insertInto('sale_instalments')
        .values({
          sale_id: saleId,
          kind: 'CUOTA',
          number: 1,
          due_date: '2026-01-01',
          amount: 10_000,
          capital: 10_000,
          interest: 0,
          status: 'VENCIDA',
        })
        .execute();
      for (const card of CARDS) {
        statements.length = 0;
        const res = await app.inject({ method: 'GET', url: `/api/dashboard/${card}`, headers: bearer(token) });
        expect(res.statusCode, card).toBe(200);
        expect(statements.length, card).toBeGreaterThan(0);
        for (const s of statements) {
          if (
            /from "?(users|companies|user_roles|role_permissions|access_tokens|list_revisions)"?\b/i.test(s.sql) &&
            !/sale_instalments|payments|leads|commissions|reservations/.test(s.sql)
          )
            continue;
          const plan = sqlite
            .prepare(`EXPLAIN QUERY PLAN ${s.sql}`)
            .all(...(s.parameters as unknown[]).map((p) => (typeof p === 'boolean' ? Number(p) : p))) as Array<{ detail: string }>;
          const scans = plan
            .map((r) => r.detail)
            .filter((d) => BIG.some((t) => new RegExp(`^SCAN ${t}\\b(?!.*USING (COVERING )?INDEX)`).test(d)));
          expect(scans, `${card}: ${s.sql}`).toEqual([]);
        }
      }
    } finally {
      await app.close();
      await logged.destroy();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
