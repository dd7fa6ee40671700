import { describe, expect, it } from 'vitest';
import {
  COMMISSION_MESSAGES,
  commissionAgentResponseSchema,
  commissionPolicyResponseSchema,
  commissionsPageSchema,
  settlementResponseSchema,
  settlementsPageSchema,
  type Commission,
} from '../../src/schemas/administracion/commissions';
import { saleResponseSchema, type Sale } from '../../src/schemas/comercio/sales';
import { paymentResponseSchema } from '../../src/schemas/finanzas/payments';
import { ACTION, MODULE, SCOPE, SUBMODULE, type Permission } from '../../src/schemas/permissions';
import { DAY_MS } from '../../server/clock';
import { CommissionAccrualJob } from '../../server/modules/administracion/commission-accrual-job';
import { createCrmCustomer, createLot, createSession, createStaff, createSubdivision, ensureCompany } from '../../server/testing/fixtures';
import { bearer, dialects, multipartBody, useTestApp, useTestDatabase } from './harness';
import { png } from './images';
import { pdfText } from './pdf-text';

/**
 * Commissions (docs/domain.md "Commissions"): projected when the sale is registered, earned by the
 * down payment's approval (tranches at the trigger and at CANCELADA), settled, approved and paid
 * with a voucher; a paid commission of an annulled sale comes back as a negative line in the next
 * settlement; agents see their own (heads their team's); bad inputs are Spanish 4xx with nothing
 * half-written. Test clock: 2026-03-02 (Lima).
 */

const MANAGER: readonly Permission[] = [MODULE.administracion, SUBMODULE.comisiones, ACTION.gestionarComisiones];
const SELLER: readonly Permission[] = [MODULE.comercial, SUBMODULE.ventas];
const REVIEWER: readonly Permission[] = [MODULE.finanzas, SUBMODULE.pagos];
const SCOPED: readonly Permission[] = [MODULE.administracion, SUBMODULE.comisiones, SCOPE.soloSusComisiones, ...SELLER];
const TODAY = '2026-03-02';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');

describe.each(dialects)('commissions (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);
  let n = 0;

  const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, token: string, payload?: object) =>
    ctx().app.inject({ method, url, headers: bearer(token), ...(payload ? { payload } : {}) });
  const staff = async (permissions: readonly Permission[]) => {
    await ensureCompany(db());
    const s = await createStaff(db(), { permissions });
    return { id: s.id, token: await createSession(db(), s) };
  };
  const ok = <T>(res: { statusCode: number; body: string; json: () => unknown }, status: number, parse: (v: unknown) => T): T => {
    expect(res.statusCode, res.body).toBe(status);
    return parse(res.json());
  };

  /** A subdivision with the given policies (created through the API by `manager`). */
  async function subdivisionWith(manager: string, policies: object[]) {
    const subdivision = await createSubdivision(db());
    for (const p of policies)
      ok(await send('POST', '/api/commission-policies', manager, { subdivision_id: subdivision.id, ...p }), 201, (v) =>
        commissionPolicyResponseSchema.parse(v),
      );
    return subdivision.id;
  }

  /** A S/ 30 000.00 sale less S/ 1 000.00 discount (net S/ 29 000.00): down payment S/ 5 800.00 (20 %), 3 interest-free instalments. */
  async function sale(seller: string, subdivisionId: number): Promise<Sale> {
    const lotId = await createLot(db(), subdivisionId, { block: 'C', number: String(++n), area_m2: 100, price_per_m2: 30_000 });
    const buyer = await createCrmCustomer(db());
    return ok(
      await send('POST', '/api/sales', seller, {
        lot_id: lotId,
        holders: [{ customer_id: buyer, role: 'TITULAR', share_percent: '100' }],
        discount_cents: 100_000,
        down_payment_percent: '20',
        instalments: 3,
        monthly_rate_percent: '0',
        method: 'SIN_INTERES',
        first_due_date: '2026-04-01',
      }),
      201,
      (v) => saleResponseSchema.parse(v).data,
    );
  }

  async function pay(registrar: string, approver: string, saleId: number, amount: number) {
    const payment = ok(
      await send('POST', '/api/payments', registrar, { sale_id: saleId, amount, method: 'EFECTIVO', operation_date: TODAY }),
      201,
      (v) => paymentResponseSchema.parse(v).data,
    );
    ok(await send('POST', `/api/payments/${payment.id}/approve`, approver, { version: payment.version }), 200, (v) => v);
  }

  const commissionsOf = async (token: string, query = '') =>
    ok(await send('GET', `/api/commissions?per_page=100&sort=id${query}`, token), 200, (v) => commissionsPageSchema.parse(v));
  const summary = (rows: Commission[]) => rows.map((c) => [c.role, c.tranche, c.state, c.amount]);

  it('projects at registration, earns on the down payment’s approval (tranches), settles, approves and pays with a voucher', async () => {
    const manager = await staff(MANAGER);
    const head = await staff(SCOPED);
    const seller = await staff(SELLER);
    // The seller's sales head, and recibos por honorarios for the withholding.
    const agent = ok(await send('GET', `/api/commission-agents?q=${seller.id}`, manager.token), 200, (v) => v);
    expect(agent).toBeTruthy();
    const version = (await db().selectFrom('users').select('version').where('id', '=', seller.id).executeTakeFirstOrThrow()).version;
    const updated = ok(
      await send('PATCH', `/api/commission-agents/${seller.id}`, manager.token, {
        version,
        sales_head_id: head.id,
        issues_fee_receipts: true,
      }),
      200,
      (v) => commissionAgentResponseSchema.parse(v).data,
    );
    expect(updated).toMatchObject({ issues_fee_receipts: true, sales_head: { id: head.id } });

    const subdivisionId = await subdivisionWith(manager.token, [
      // 10 % of the net price, half at the down payment and half when paid off.
      {
        role: 'ASESOR',
        base: 'PORCENTAJE',
        percent_bp: 1_000,
        tranches: [
          { share_bp: 5_000, at: 'TRIGGER' },
          { share_bp: 5_000, at: 'CANCELADA' },
        ],
      },
      { role: 'JEFE_VENTAS', base: 'MONTO_FIJO', amount: 20_000 },
      { role: 'CAPTADOR', base: 'MONTO_FIJO', amount: 10_000 },
    ]);
    const s = await sale(seller.token, subdivisionId);
    expect(s.final_price).toBe(2_900_000);
    let rows = (await commissionsOf(manager.token, `&sale_id=${s.id}`)).data;
    // No lead captured the buyer: no CAPTADOR commission.
    expect(summary(rows)).toEqual([
      ['ASESOR', 1, 'PROYECTADA', 145_000],
      ['ASESOR', 2, 'PROYECTADA', 145_000],
      ['JEFE_VENTAS', 1, 'PROYECTADA', 20_000],
    ]);
    expect(rows[0]).toMatchObject({ agent: { id: seller.id }, currency: 'PEN', projected_on: TODAY, sale: { net_price: 2_900_000 } });

    // Part of the down payment: nothing earned; the rest: the trigger tranches earned.
    const registrar = await staff(REVIEWER);
    const approver = await staff(REVIEWER);
    await pay(registrar.token, approver.token, s.id, 300_000);
    expect(summary((await commissionsOf(manager.token, `&sale_id=${s.id}`)).data).map((r) => r[2])).toEqual([
      'PROYECTADA',
      'PROYECTADA',
      'PROYECTADA',
    ]);
    await pay(registrar.token, approver.token, s.id, 280_000);
    rows = (await commissionsOf(manager.token, `&sale_id=${s.id}`)).data;
    expect(summary(rows)).toEqual([
      ['ASESOR', 1, 'DEVENGADA', 145_000],
      ['ASESOR', 2, 'PROYECTADA', 145_000],
      ['JEFE_VENTAS', 1, 'DEVENGADA', 20_000],
    ]);
    expect(rows[0]!.accrued_on).toBe(TODAY);

    // The settlement: the seller's earned commission; the gross S/ 1 450.00 is under S/ 1 500: no withholding.
    let st = ok(
      await send('POST', '/api/commission-settlements', manager.token, {
        period_from: '2026-03-01',
        period_to: '2026-03-31',
        agent_ids: [seller.id, head.id],
      }),
      201,
      (v) => settlementResponseSchema.parse(v).data,
    );
    expect(st).toMatchObject({ state: 'BORRADOR', currency: 'PEN', total: 165_000, withholding: 0, lines_count: 2, agents_count: 2 });
    expect(st.number).toMatch(/^LQ-\d{6}$/);
    expect(st.agents.find((a) => a.agent.id === seller.id)).toMatchObject({
      gross: 145_000,
      withholding: 0,
      net: 145_000,
      issues_fee_receipts: true,
    });
    expect((await commissionsOf(manager.token, `&sale_id=${s.id}`)).data[0]!.settlement?.id).toBe(st.id);

    // Paying before approval, approving twice: 409.
    expect(
      (await send('POST', `/api/commission-settlements/${st.id}/pay`, manager.token, { operation_number: 'OP-1', paid_on: TODAY }))
        .statusCode,
    ).toBe(409);
    st = ok(
      await send('POST', `/api/commission-settlements/${st.id}/approve`, manager.token, { version: st.version }),
      200,
      (v) => settlementResponseSchema.parse(v).data,
    );
    expect(st.state).toBe('APROBADA');
    expect(st.lines.map((l) => l.state)).toEqual(['LIQUIDADA', 'LIQUIDADA']);
    expect((await send('POST', `/api/commission-settlements/${st.id}/approve`, manager.token, {})).statusCode).toBe(409);

    // Pay: the voucher first (a PDF sniffed; text refused), then the operation.
    const noVoucher = await send('POST', `/api/commission-settlements/${st.id}/pay`, manager.token, {
      operation_number: 'OP-1',
      paid_on: TODAY,
    });
    expect(noVoucher.statusCode).toBe(409);
    expect(noVoucher.json().message).toBe(COMMISSION_MESSAGES.voucherRequired);
    const upload = (content: Buffer) => {
      const body = multipartBody({ field: 'voucher', filename: 'voucher.pdf', contentType: 'application/pdf', content });
      return ctx().app.inject({
        method: 'POST',
        url: `/api/commission-settlements/${st.id}/voucher`,
        headers: { ...bearer(manager.token), ...body.headers },
        payload: body.payload,
      });
    };
    const text = await upload(Buffer.from('no soy un PDF'));
    expect(text.statusCode).toBe(422);
    expect(text.json().errors.voucher).toEqual([COMMISSION_MESSAGES.voucherType]);
    st = ok(await upload(PDF), 200, (v) => settlementResponseSchema.parse(v).data);
    expect(st.has_voucher).toBe(true);
    const future = await send('POST', `/api/commission-settlements/${st.id}/pay`, manager.token, {
      operation_number: 'OP-1',
      paid_on: '2026-03-03',
    });
    expect(future.statusCode).toBe(422);
    st = ok(
      await send('POST', `/api/commission-settlements/${st.id}/pay`, manager.token, {
        operation_number: 'op-778',
        paid_on: TODAY,
        version: st.version,
      }),
      200,
      (v) => settlementResponseSchema.parse(v).data,
    );
    expect(st).toMatchObject({ state: 'PAGADA', operation_number: 'OP-778', paid_on: TODAY });
    expect(st.lines.map((l) => [l.state, l.paid_on])).toEqual([
      ['PAGADA', TODAY],
      ['PAGADA', TODAY],
    ]);
    const voucher = await send('GET', `/api/commission-settlements/${st.id}/voucher`, manager.token);
    expect(voucher.headers['content-type']).toContain('application/pdf');

    // Excel and the per-agent PDF.
    const xlsx = await send('GET', `/api/commission-settlements/${st.id}/export`, manager.token);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    const pdf = await send('GET', `/api/commission-settlements/${st.id}/agents/${seller.id}/pdf`, manager.token);
    expect(pdf.statusCode).toBe(200);
    const pdfContent = await pdfText(pdf.rawPayload);
    expect(pdfContent).toContain(st.number);
    expect(pdfContent).toContain('Neto a pagar');
    expect(pdfContent).not.toContain('Retención');
    expect((await send('GET', `/api/commission-settlements/${st.id}/agents/999999/pdf`, manager.token)).statusCode).toBe(404);

    // The rest of the price paid: the second tranche earned.
    await pay(registrar.token, approver.token, s.id, 2_320_000);
    expect(summary((await commissionsOf(manager.token, `&sale_id=${s.id}`)).data)[1]).toEqual(['ASESOR', 2, 'DEVENGADA', 145_000]);
    const list = ok(await send('GET', '/api/commission-settlements?state=PAGADA', manager.token), 200, (v) =>
      settlementsPageSchema.parse(v),
    );
    expect(list.data.map((x) => x.id)).toContain(st.id);
  });

  it('a sale annulled after its commission was paid: unpaid ones ANULADA, the paid one a negative REVERTIDA line in the agent’s next settlement', async () => {
    const manager = await staff(MANAGER);
    const seller = await staff(SELLER);
    await db().updateTable('users').set({ issues_fee_receipts: 1 }).where('id', '=', seller.id).execute();
    const subdivisionId = await subdivisionWith(manager.token, [
      {
        role: 'ASESOR',
        base: 'MONTO_FIJO',
        amount: 200_000,
        tranches: [
          { share_bp: 5_000, at: 'TRIGGER' },
          { share_bp: 5_000, at: 'CANCELADA' },
        ],
      },
    ]);
    const first = await sale(seller.token, subdivisionId);
    const second = await sale(seller.token, subdivisionId);
    const registrar = await staff(REVIEWER);
    const approver = await staff(REVIEWER);
    await pay(registrar.token, approver.token, first.id, 580_000);
    const settle = async (body: object = {}) =>
      ok(
        await send('POST', '/api/commission-settlements', manager.token, {
          period_from: '2026-03-01',
          period_to: '2026-03-31',
          agent_ids: [seller.id],
          ...body,
        }),
        201,
        (v) => settlementResponseSchema.parse(v).data,
      );
    let st = await settle();
    st = ok(
      await send('POST', `/api/commission-settlements/${st.id}/approve`, manager.token, {}),
      200,
      (v) => settlementResponseSchema.parse(v).data,
    );
    const body = multipartBody({ field: 'voucher', filename: 'v.png', contentType: 'image/png', content: png(4, 4) });
    ok(
      await ctx().app.inject({
        method: 'POST',
        url: `/api/commission-settlements/${st.id}/voucher`,
        headers: { ...bearer(manager.token), ...body.headers },
        payload: body.payload,
      }),
      200,
      (v) => v,
    );
    ok(
      await send('POST', `/api/commission-settlements/${st.id}/pay`, manager.token, { operation_number: 'OP-9', paid_on: TODAY }),
      200,
      (v) => v,
    );

    // Annul the first sale (S/ 5 800.00 paid, refunded).
    const annul = await send('POST', `/api/sales/${first.id}/annul`, seller.token, {
      reason: 'Desistimiento',
      settlement: { mode: 'REEMBOLSO', penalty: 0, refund: 580_000 },
    });
    expect(annul.statusCode, annul.body).toBe(200);
    const rows = (await commissionsOf(manager.token, `&sale_id=${first.id}`)).data;
    expect(summary(rows)).toEqual([
      ['ASESOR', 1, 'PAGADA', 100_000],
      ['ASESOR', 2, 'ANULADA', 100_000],
      ['ASESOR', 1, 'REVERTIDA', -100_000],
    ]);
    expect(rows[2]).toMatchObject({ reverses_id: rows[0]!.id, settlement: null });
    expect(rows[1]!.reason).toContain('Desistimiento');

    // The second sale's commission earned (S/ 1 000.00) and the reversal (−S/ 1 000.00) in one settlement; nothing to withhold.
    await pay(registrar.token, approver.token, second.id, 2_900_000);
    ctx().clock.advance(DAY_MS);
    const next = await settle({ period_from: '2026-03-02', period_to: '2026-03-03' });
    expect(next.lines.map((l) => [l.sale.id, l.state, l.amount]).sort()).toEqual(
      [
        [first.id, 'REVERTIDA', -100_000],
        [second.id, 'DEVENGADA', 100_000],
        [second.id, 'DEVENGADA', 100_000],
      ].sort(),
    );
    expect(next).toMatchObject({ total: 100_000, withholding: 0 });

    // Annulling the first sale again changes nothing (the reversal is put once).
    expect((await commissionsOf(manager.token, `&sale_id=${first.id}&state=REVERTIDA`)).meta.total).toBe(1);
  });

  it('withholds 8 % of an agent’s settlement above S/ 1 500.00 when they issue recibos por honorarios, shown as a line of the PDF', async () => {
    const manager = await staff(MANAGER);
    const seller = await staff(SELLER);
    await db().updateTable('users').set({ issues_fee_receipts: 1 }).where('id', '=', seller.id).execute();
    const subdivisionId = await subdivisionWith(manager.token, [{ role: 'ASESOR', base: 'PORCENTAJE', percent_bp: 600 }]);
    const s = await sale(seller.token, subdivisionId);
    await pay((await staff(REVIEWER)).token, (await staff(REVIEWER)).token, s.id, 580_000);
    const st = ok(
      await send('POST', '/api/commission-settlements', manager.token, { period_from: TODAY, period_to: TODAY, agent_ids: [seller.id] }),
      201,
      (v) => settlementResponseSchema.parse(v).data,
    );
    // 6 % of S/ 29 000.00 = S/ 1 740.00; 8 % of it = S/ 139.20.
    expect(st.agents[0]).toMatchObject({ gross: 174_000, withholding: 13_920, net: 160_080 });
    const pdf = await send('GET', `/api/commission-settlements/${st.id}/agents/${seller.id}/pdf`, manager.token);
    const text = await pdfText(pdf.rawPayload);
    expect(text).toContain('Retención de 4.ª categoría');
    expect(text).toContain('139.20');
  });

  it('an agent sees only their own commissions, a sales head their team’s; without the management right no settlement', async () => {
    const manager = await staff(MANAGER);
    const head = await staff(SCOPED);
    const mine = await staff(SCOPED);
    const other = await staff(SCOPED);
    await db().updateTable('users').set({ sales_head_id: head.id }).where('id', '=', mine.id).execute();
    const subdivisionId = await subdivisionWith(manager.token, [{ role: 'ASESOR', base: 'MONTO_FIJO', amount: 5_000 }]);
    const a = await sale(mine.token, subdivisionId);
    const b = await sale(other.token, subdivisionId);
    const ids = async (token: string) => (await commissionsOf(token)).data.map((c) => c.sale.id).filter((id) => id === a.id || id === b.id);
    expect(await ids(mine.token)).toEqual([a.id]);
    expect(await ids(other.token)).toEqual([b.id]);
    expect(await ids(head.token)).toEqual([a.id]);
    expect(await ids(manager.token)).toEqual([a.id, b.id]);
    // An agent's filter by another agent finds nothing of theirs.
    expect((await commissionsOf(mine.token, `&agent_id=${other.id}`)).meta.total).toBe(0);
    expect((await send('GET', '/api/commission-settlements', mine.token)).statusCode).toBe(403);
    expect(
      (await send('POST', '/api/commission-settlements', mine.token, { period_from: TODAY, period_to: TODAY, agent_ids: [mine.id] }))
        .statusCode,
    ).toBe(403);
    expect((await send('GET', '/api/commission-policies', head.token)).statusCode).toBe(403);
  });

  it('bad inputs: Spanish 4xx and nothing half-written', async () => {
    const manager = await staff(MANAGER);
    const seller = await staff(SELLER);
    const subdivisionId = await subdivisionWith(manager.token, [{ role: 'ASESOR', base: 'MONTO_FIJO', amount: 5_000 }]);
    const s = await sale(seller.token, subdivisionId);
    await pay((await staff(REVIEWER)).token, (await staff(REVIEWER)).token, s.id, 580_000);
    const expectError = (
      res: { statusCode: number; json: () => { message: string; errors?: Record<string, string[]> } },
      status: number,
      field?: string,
    ) => {
      expect(res.statusCode).toBe(status);
      const body = res.json();
      expect(body.message).toMatch(/[a-záéíóúñ]/i);
      if (field) expect(body.errors?.[field]?.length).toBeGreaterThan(0);
      return body;
    };
    // Policies.
    expectError(
      await send('POST', '/api/commission-policies', manager.token, {
        subdivision_id: subdivisionId,
        role: 'CAPTADOR',
        base: 'PORCENTAJE',
      }),
      422,
      'percent_bp',
    );
    expectError(
      await send('POST', '/api/commission-policies', manager.token, {
        subdivision_id: subdivisionId,
        role: 'CAPTADOR',
        base: 'PORCENTAJE',
        percent_bp: 100,
        tranches: [{ share_bp: 5_000, at: 'TRIGGER' }],
      }),
      422,
      'tranches',
    );
    expectError(
      await send('POST', '/api/commission-policies', manager.token, {
        subdivision_id: subdivisionId,
        role: 'JEFE_VENTAS',
        base: 'MONTO_FIJO',
        amount: 1,
        trigger: 'PORCENTAJE_COBRADO',
      }),
      422,
      'trigger_percent_bp',
    );
    expectError(
      await send('POST', '/api/commission-policies', manager.token, {
        subdivision_id: 999_999,
        role: 'CAPTADOR',
        base: 'MONTO_FIJO',
        amount: 1,
      }),
      422,
      'subdivision_id',
    );
    const dup = expectError(
      await send('POST', '/api/commission-policies', manager.token, {
        subdivision_id: subdivisionId,
        role: 'ASESOR',
        base: 'MONTO_FIJO',
        amount: 1,
      }),
      409,
    );
    expect(dup.message).toBe(COMMISSION_MESSAGES.policyDuplicate);
    expectError(
      await send('POST', '/api/commission-policies', manager.token, {
        subdivision_id: subdivisionId,
        role: 'X',
        base: 'MONTO_FIJO',
        amount: 1,
        extra: 1,
      }),
      422,
    );

    // Agents: self head, unknown head, stale version.
    expectError(
      await send('PATCH', `/api/commission-agents/${seller.id}`, manager.token, { version: 1, sales_head_id: seller.id }),
      422,
      'sales_head_id',
    );
    expectError(
      await send('PATCH', `/api/commission-agents/${seller.id}`, manager.token, { version: 1, sales_head_id: 999_999 }),
      422,
      'sales_head_id',
    );
    expectError(
      await send('PATCH', `/api/commission-agents/${seller.id}`, manager.token, { version: 99, issues_fee_receipts: true }),
      409,
      'version',
    );

    // Settlements: another company's agent, unknown agent, bad period, nothing to settle.
    const { id: otherCompany } = await db()
      .insertInto('companies')
      .values({
        business_name: 'Otra Inmobiliaria S.A.C.',
        ruc: '20100000017',
        address: 'Av. Otra 1',
        phone: null,
        email: null,
        subscription_active: 1,
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db().selectFrom('companies').select('id').orderBy('id').executeTakeFirstOrThrow();
    const stranger = await staff(SELLER);
    const { id: localId } = await db()
      .insertInto('locals')
      .values({ company_id: otherCompany, name: 'Sede de otra empresa', address: 'Av. Otra 1', active: 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db().insertInto('user_locals').values({ user_id: stranger.id, local_id: localId }).execute();
    const before = await db()
      .selectFrom('commission_settlements')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const foreign = expectError(
      await send('POST', '/api/commission-settlements', manager.token, {
        period_from: TODAY,
        period_to: TODAY,
        agent_ids: [seller.id, stranger.id],
      }),
      422,
      'agent_ids',
    );
    expect(foreign.errors?.agent_ids?.[0]).toContain('no pertenece a la empresa');
    expectError(
      await send('POST', '/api/commission-settlements', manager.token, { period_from: TODAY, period_to: TODAY, agent_ids: [999_999] }),
      422,
      'agent_ids',
    );
    expectError(
      await send('POST', '/api/commission-settlements', manager.token, {
        period_from: '2026-03-05',
        period_to: TODAY,
        agent_ids: [seller.id],
      }),
      422,
      'period_to',
    );
    expectError(
      await send('POST', '/api/commission-settlements', manager.token, {
        period_from: '2026-02-30',
        period_to: TODAY,
        agent_ids: [seller.id],
      }),
      422,
      'period_from',
    );
    expectError(
      await send('POST', '/api/commission-settlements', manager.token, {
        period_from: '2026-01-01',
        period_to: '2026-01-31',
        agent_ids: [seller.id],
      }),
      422,
      'period_to',
    );
    const after = await db()
      .selectFrom('commission_settlements')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));

    // Already settled: the named commission is refused, and the period finds nothing left.
    const commission = (await commissionsOf(manager.token, `&sale_id=${s.id}`)).data[0]!;
    const st = ok(
      await send('POST', '/api/commission-settlements', manager.token, {
        period_from: TODAY,
        period_to: TODAY,
        agent_ids: [seller.id],
        commission_ids: [commission.id],
      }),
      201,
      (v) => settlementResponseSchema.parse(v).data,
    );
    const again = expectError(
      await send('POST', '/api/commission-settlements', manager.token, {
        period_from: TODAY,
        period_to: TODAY,
        agent_ids: [seller.id],
        commission_ids: [commission.id],
      }),
      409,
    );
    expect(again.message).toBe(COMMISSION_MESSAGES.commissionAlreadySettled(commission.id, st.number));
    expectError(
      await send('POST', '/api/commission-settlements', manager.token, { period_from: TODAY, period_to: TODAY, agent_ids: [seller.id] }),
      422,
      'period_to',
    );
    // A draft is discarded and its commission is free again.
    expect((await send('DELETE', `/api/commission-settlements/${st.id}`, manager.token)).statusCode).toBe(204);
    expect((await commissionsOf(manager.token, `&sale_id=${s.id}`)).data[0]!.settlement).toBeNull();
    expect((await send('GET', `/api/commission-settlements/${st.id}`, manager.token)).statusCode).toBe(404);
    expect((await send('GET', '/api/commission-settlements/abc', manager.token)).statusCode).toBe(404);
    expectError(await send('GET', '/api/commissions?state=NADA', manager.token), 422);
    expectError(await send('GET', '/api/commissions?period_from=2026-03-05&period_to=2026-03-01', manager.token), 422);
  });

  it('the daily job earns what the approval did not (a percent collected reached without a new approval)', async () => {
    const manager = await staff(MANAGER);
    const seller = await staff(SELLER);
    const subdivisionId = await subdivisionWith(manager.token, [
      { role: 'ASESOR', base: 'MONTO_FIJO', amount: 5_000, trigger: 'PORCENTAJE_COBRADO', trigger_percent_bp: 1_000 },
      { role: 'JEFE_VENTAS', base: 'MONTO_FIJO', amount: 5_000, trigger: 'CONTRATO_FIRMADO' },
    ]);
    await db().updateTable('users').set({ sales_head_id: manager.id }).where('id', '=', seller.id).execute();
    const s = await sale(seller.token, subdivisionId);
    // Money recorded as approved by hand (a data load): 10 % of S/ 29 000.00.
    const row = await db()
      .selectFrom('sale_instalments')
      .select('id')
      .where('sale_id', '=', s.id)
      .where('kind', '=', 'INICIAL')
      .executeTakeFirstOrThrow();
    await db().updateTable('sale_instalments').set({ paid: 290_000 }).where('id', '=', row.id).execute();
    const job = new CommissionAccrualJob({ db: db(), clock: ctx().clock, log: { error: () => undefined } });
    expect(await job.runUntilDone()).toBe(1);
    expect(await job.runUntilDone()).toBe(0);
    const rows = (await commissionsOf(manager.token, `&sale_id=${s.id}`)).data;
    expect(summary(rows)).toEqual([
      ['ASESOR', 1, 'DEVENGADA', 5_000],
      ['JEFE_VENTAS', 1, 'PROYECTADA', 5_000],
    ]);
  });
});
