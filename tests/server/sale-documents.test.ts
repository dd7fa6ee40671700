import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/lib/money';
import { contractsPageSchema } from '../../src/schemas/administracion/contracts';
import { contractTemplateSchema, type TemplateNode } from '../../src/schemas/administracion/contract-templates';
import { saleResponseSchema, type Sale } from '../../src/schemas/comercio/sales';
import { SALE_DOCUMENT_MESSAGES, saleSchedulesResponseSchema } from '../../src/schemas/comercio/rescissions';
import { paymentResponseSchema } from '../../src/schemas/finanzas/payments';
import { ACTION, MODULE, SCOPE, SUBMODULE } from '../../src/schemas/permissions';
import { MESSAGES } from '../../server/errors';
import {
  createCrmCustomer,
  createCustomer,
  createLot,
  createSession,
  createStaff,
  createSubdivision,
  setSaleBackdateDays,
} from '../../server/testing/fixtures';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/**
 * The documents a sale's legal events generate (docs/domain.md "Rescission and rescheduling: their
 * documents"): the notarial letter of resolution (Código Civil art. 1429) issued with the
 * rescission's stored figures and the ADENDA with the rescheduling's, each from the subdivision's
 * latest published template, numbered in the contracts register; without a template the event
 * stands and the answer says the document is pending. Test clock: 2026-03-02 (Lima); the sales as
 * in tests/server/sale-rescission.test.ts (S/ 30 000.00, S/ 6 000.00 down, 6 × S/ 4 000.00 from
 * 2025-12-01).
 */

const v = (key: string): TemplateNode => ({ type: 'variable', attrs: { key } });
const t = (text: string): TemplateNode => ({ type: 'text', text });
const p = (...content: TemplateNode[]): TemplateNode => ({ type: 'paragraph', content });

/** A letter naming the buyer, the lot, the overdue count and table, the money and the day. */
const LETTER: TemplateNode = {
  type: 'doc',
  content: [
    { type: 'heading', attrs: { level: 1 }, content: [t('CARTA NOTARIAL '), v('contrato.numero')] },
    p(t('Señor(a) '), v('comprador.nombre'), t(', comprador del lote '), v('lote.numero'), t(' de la manzana '), v('lote.manzana'), t('.')),
    p(t('CUOTAS VENCIDAS: '), v('resolucion.cuotas_vencidas'), t('.')),
    p(v('resolucion.cuotas_detalle')),
    p(
      t('PAGADO: '),
      v('resolucion.monto_pagado'),
      t(' PENALIDAD: '),
      v('resolucion.penalidad'),
      t(' DEVOLUCION: '),
      v('resolucion.devolucion'),
    ),
    p(t('FECHA: '), v('resolucion.fecha'), t(' PLAZO: '), v('resolucion.plazo_dias'), t(' días (artículo 1429).')),
  ],
};

/** An adenda naming the buyer, the balance, the terms, the new schedule and its total. */
const ADDENDUM: TemplateNode = {
  type: 'doc',
  content: [
    { type: 'heading', attrs: { level: 1 }, content: [t('ADENDA '), v('contrato.numero')] },
    p(t('COMPRADOR: '), v('comprador.nombre'), t(' MOTIVO: '), v('adenda.motivo')),
    p(t('SALDO: '), v('adenda.saldo'), t(' FINANCIADO: '), v('adenda.monto_financiado'), t(' METODO: '), v('adenda.metodo')),
    p(t('CUOTAS: '), v('adenda.numero_cuotas'), t(' TASA: '), v('adenda.tasa_mensual'), t(' % PRIMERA: '), v('adenda.primer_vencimiento')),
    p(v('adenda.cronograma_nuevo')),
    p(t('TOTAL NUEVO: '), v('adenda.total'), t(' MORA: '), v('adenda.mora')),
  ],
};

/** A PDF's text, whitespace collapsed. */
async function pdfWords(bytes: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

describe.each(dialects)('sale documents: letter of resolution and adenda (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);
  let n = 0;

  const send = (method: 'POST' | 'GET', url: string, token: string, payload?: unknown) =>
    ctx().app.inject({ method, url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });
  const staff = async (extra: string[] = [ACTION.resolverContratos, ACTION.reprogramarVentas]) =>
    createSession(
      db(),
      await createStaff(db(), {
        permissions: [
          MODULE.comercial,
          SUBMODULE.ventas,
          MODULE.finanzas,
          SUBMODULE.pagos,
          MODULE.administracion,
          SUBMODULE.generarContrato,
          SUBMODULE.registroContratos,
          ...(extra as never[]),
        ],
      }),
    );

  /** A published template of `kind` in `subdivisionId`. */
  async function publish(token: string, subdivisionId: number, kind: 'CARTA_RESOLUCION' | 'ADENDA', content: TemplateNode) {
    let res = await send('POST', '/api/contract-templates', token, { subdivision_id: subdivisionId, kind, name: kind, content });
    expect(res.statusCode, res.body).toBe(201);
    const draft = contractTemplateSchema.parse(res.json().data);
    res = await send('POST', `/api/contract-templates/${draft.id}/publish`, token, { version: draft.version });
    expect(res.statusCode, res.body).toBe(200);
  }

  /** A sale of Rosa Quispe Mamani (or of customer `buyer`), lot R-n, in a new subdivision (with the templates given). */
  async function sale(token: string, templates: { letter?: boolean; adenda?: boolean } = {}, buyer?: number): Promise<Sale> {
    await setSaleBackdateDays(db(), 366);
    const subdivision = await createSubdivision(db());
    if (templates.letter) await publish(token, subdivision.id, 'CARTA_RESOLUCION', LETTER);
    if (templates.adenda) await publish(token, subdivision.id, 'ADENDA', ADDENDUM);
    const lotId = await createLot(db(), subdivision.id, { block: 'R', number: String(++n) });
    const res = await send('POST', '/api/sales', token, {
      lot_id: lotId,
      holders: [
        {
          customer_id: buyer ?? (await createCrmCustomer(db(), { name: 'Rosa', surname: 'Quispe Mamani' })),
          role: 'TITULAR',
          share_percent: '100',
        },
      ],
      sale_date: '2025-11-02',
      down_payment_percent: '20',
      instalments: 6,
      monthly_rate_percent: '0',
      method: 'SIN_INTERES',
      first_due_date: '2025-12-01',
    });
    expect(res.statusCode, res.body).toBe(201);
    return saleResponseSchema.parse(res.json()).data;
  }

  async function pay(token: string, saleId: number, amount: number, date: string): Promise<void> {
    const registered = await send('POST', '/api/payments', token, { sale_id: saleId, amount, method: 'EFECTIVO', operation_date: date });
    expect(registered.statusCode, registered.body).toBe(201);
    const id = paymentResponseSchema.parse(registered.json()).data.id;
    const approved = await send('POST', `/api/payments/${id}/approve`, await staff([]), {});
    expect(approved.statusCode, approved.body).toBe(200);
  }

  /**
   * POST sales/{id}/reschedule with the sale's current version: SIN_INTERES at 0 %, late fees waived,
   * the given count, first due date and reason. @returns the raw answer.
   */
  async function reschedule(token: string, saleId: number, terms: { instalments: number; first_due_date: string; reason: string }) {
    const current = saleResponseSchema.parse((await send('GET', `/api/sales/${saleId}`, token)).json()).data;
    return send('POST', `/api/sales/${saleId}/reschedule`, token, {
      method: 'SIN_INTERES',
      instalments: terms.instalments,
      monthly_rate_percent: '0',
      first_due_date: terms.first_due_date,
      late_fees: 'WAIVE',
      reason: terms.reason,
      version: current.version,
    });
  }

  const pdfOf = async (token: string, path: string) => {
    const res = await send('GET', path, token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('application/pdf');
    return pdfWords(res.rawPayload);
  };

  it('rescission with a published letter template: the letter issued and numbered, its PDF names buyer, lot, unpaid count, paid, penalty and refund as stored', async () => {
    const token = await staff();
    const s = await sale(token, { letter: true });
    await pay(token, s.id, 600_000, '2025-11-02');
    await pay(token, s.id, 400_000, '2025-12-01');
    // The seller keeps less than the policy's 10 %: the letter says what the rescission stored.
    const res = await send('POST', `/api/sales/${s.id}/rescind`, token, { reason: 'Incumplimiento de tres cuotas', penalty: 75_000 });
    expect(res.statusCode, res.body).toBe(200);
    const resolved = saleResponseSchema.parse(res.json()).data;
    const letter = resolved.rescission?.letter;
    expect(letter).toMatchObject({ state: 'EMITIDO', download_path: `/api/sales/${s.id}/rescission/letter` });
    expect(letter?.number).toMatch(/^C-2026-\d{6}$/);
    expect(resolved.rescission?.letter_pending).toBeNull();

    const words = await pdfOf(token, letter!.download_path!);
    expect(words).toContain(`CARTA NOTARIAL ${letter!.number}`);
    expect(words).toContain('Rosa Quispe Mamani');
    expect(words).toContain(`comprador del lote ${n} de la manzana R`);
    expect(words).toContain('CUOTAS VENCIDAS: 3.');
    expect(words).toContain(`PAGADO: ${formatMoney(1_000_000, 'PEN')}`);
    expect(words).toContain(`PENALIDAD: ${formatMoney(75_000, 'PEN')}`);
    expect(words).toContain(`DEVOLUCION: ${formatMoney(925_000, 'PEN')}`);
    expect(words).toContain('FECHA: 02/03/2026');
    expect(words).toContain('PLAZO: 15 días');
    // The overdue rows of the table: instalments 2, 3 and 4 (S/ 4,000.00 each unpaid).
    expect(words).toContain(formatMoney(1_200_000, 'PEN'));

    // In the register under its kind, and the same PDF through GET /api/contracts/{id}/pdf.
    const register = contractsPageSchema.parse((await send('GET', `/api/contracts?kind=CARTA_RESOLUCION&sale_id=${s.id}`, token)).json());
    expect(register.data.map((c) => [c.id, c.number, c.state])).toEqual([[letter!.contract_id, letter!.number, 'EMITIDO']]);
    const direct = await send('GET', `/api/contracts/${letter!.contract_id}/pdf`, token);
    const viaSale = await send('GET', letter!.download_path!, token);
    expect(Buffer.compare(direct.rawPayload, viaSale.rawPayload)).toBe(0);
    // GET one carries it too.
    const again = saleResponseSchema.parse((await send('GET', `/api/sales/${s.id}`, token)).json()).data;
    expect(again.rescission?.letter?.contract_id).toBe(letter!.contract_id);
  });

  it('rescission without a published template: RESUELTA all the same, the letter pending in Spanish (404 to download), generated later from Generar Contrato', async () => {
    const token = await staff();
    const s = await sale(token);
    await pay(token, s.id, 600_000, '2025-11-02');
    const res = await send('POST', `/api/sales/${s.id}/rescind`, token, { reason: 'Incumplimiento de pago' });
    expect(res.statusCode, res.body).toBe(200);
    const resolved = saleResponseSchema.parse(res.json()).data;
    expect(resolved.status).toBe('RESUELTA');
    expect(resolved.rescission).toMatchObject({ letter: null, letter_pending: SALE_DOCUMENT_MESSAGES.letterPending });
    const missing = await send('GET', `/api/sales/${s.id}/rescission/letter`, token);
    expect(missing.statusCode).toBe(404);
    expect((missing.json() as { message: string }).message).toBe(SALE_DOCUMENT_MESSAGES.letterNotIssued);
    expect(await db().selectFrom('contracts').select('id').where('sale_id', '=', s.id).execute()).toEqual([]);

    // Later: the template published, the letter made and issued from Generar Contrato with the stored figures.
    const subdivisionId = (await db().selectFrom('sales').select('subdivision_id').where('id', '=', s.id).executeTakeFirstOrThrow())
      .subdivision_id;
    await publish(token, subdivisionId, 'CARTA_RESOLUCION', LETTER);
    const templateId = (
      await db().selectFrom('contract_templates').select('id').where('subdivision_id', '=', subdivisionId).executeTakeFirstOrThrow()
    ).id;
    const made = await send('POST', '/api/contracts', token, { sale_id: s.id, template_id: templateId });
    expect(made.statusCode, made.body).toBe(201);
    const draft = made.json().data as { id: number; version: number };
    const issued = await send('POST', `/api/contracts/${draft.id}/issue`, token, { version: draft.version });
    expect(issued.statusCode, issued.body).toBe(200);
    const after = saleResponseSchema.parse((await send('GET', `/api/sales/${s.id}`, token)).json()).data;
    expect(after.rescission?.letter_pending).toBeNull();
    const words = await pdfOf(token, after.rescission!.letter!.download_path!);
    // Paid S/ 6,000.00 (the down payment), penalty 10 % = S/ 600.00, refund S/ 5,400.00; all four instalments overdue.
    expect(words).toContain('CUOTAS VENCIDAS: 4.');
    expect(words).toContain(`PENALIDAD: ${formatMoney(60_000, 'PEN')}`);
    expect(words).toContain(`DEVOLUCION: ${formatMoney(540_000, 'PEN')}`);
  });

  it('reschedule with a published adenda template: the ADENDA issued, its PDF names the new schedule’s total and instalment count; without one it is pending', async () => {
    const token = await staff();
    const s = await sale(token, { adenda: true });
    await pay(token, s.id, 600_000, '2025-11-02');
    await pay(token, s.id, 400_000, '2025-12-01');
    const res = await reschedule(token, s.id, { instalments: 10, first_due_date: '2026-04-01', reason: 'Pérdida de empleo del titular' });
    expect(res.statusCode, res.body).toBe(200);
    const after = saleResponseSchema.parse(res.json()).data;
    const stored = await db().selectFrom('sale_reschedules').selectAll().where('sale_id', '=', s.id).executeTakeFirstOrThrow();
    expect(after.adenda).toMatchObject({
      reschedule_id: stored.id,
      schedule_number: 2,
      document: { state: 'EMITIDO', download_path: `/api/sales/${s.id}/reschedules/${stored.id}/adenda` },
      document_pending: null,
    });
    const words = await pdfOf(token, after.adenda!.document!.download_path!);
    expect(words).toContain(`ADENDA ${after.adenda!.document!.number}`);
    expect(words).toContain('Rosa Quispe Mamani');
    expect(words).toContain('MOTIVO: Pérdida de empleo del titular');
    expect(words).toContain('CUOTAS: 10 ');
    expect(words).toContain(`TOTAL NUEVO: ${formatMoney(Number(stored.total), 'PEN')}`);
    expect(words).toContain(`SALDO: ${formatMoney(Number(stored.balance), 'PEN')}`);
    expect(words).toContain('PRIMERA: 01/04/2026');
    expect(words).toContain('METODO: Sin interés');
    // The table: the ten new rows (numbered after the kept instalment 1: 2 … 11) and their total at the foot.
    const fresh = after.schedule.filter((r) => r.schedule_number === 2);
    expect(fresh.map((r) => r.number)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    const total = formatMoney(Number(stored.total), 'PEN');
    expect(words).toContain(`Total ${total} ${formatMoney(0, 'PEN')} ${total}`);

    // The schedules read carries it on the superseded schedule's adenda; the register under ADENDA.
    const schedules = saleSchedulesResponseSchema.parse((await send('GET', `/api/sales/${s.id}/schedules`, token)).json()).data;
    expect(schedules[1]!.replaced_by?.document?.contract_id).toBe(after.adenda!.document!.contract_id);
    const register = contractsPageSchema.parse((await send('GET', `/api/contracts?kind=ADENDA&sale_id=${s.id}`, token)).json());
    expect(register.data).toHaveLength(1);

    // A second rescheduling gets its own adenda (one live ADENDA per rescheduling).
    const second = await reschedule(token, s.id, { instalments: 5, first_due_date: '2026-05-01', reason: 'Segunda reprogramación' });
    expect(second.statusCode, second.body).toBe(200);
    const twice = saleResponseSchema.parse(second.json()).data;
    expect(twice.adenda?.document?.state).toBe('EMITIDO');
    expect(twice.adenda?.document?.contract_id).not.toBe(after.adenda!.document!.contract_id);
    expect(await pdfOf(token, twice.adenda!.document!.download_path!)).toContain('CUOTAS: 5 ');
    // The first adenda's PDF is still served as issued.
    expect(await pdfOf(token, after.adenda!.document!.download_path!)).toContain('CUOTAS: 10 ');

    // Without a template: rescheduled all the same, the adenda pending.
    const plain = await sale(token);
    await pay(token, plain.id, 600_000, '2025-11-02');
    const done = await reschedule(token, plain.id, { instalments: 8, first_due_date: '2026-04-01', reason: 'Acuerdo con el cliente' });
    expect(done.statusCode, done.body).toBe(200);
    expect(saleResponseSchema.parse(done.json()).data.adenda).toMatchObject({
      document: null,
      document_pending: SALE_DOCUMENT_MESSAGES.adendaPending,
    });
  });

  it('a user with Ventas but no contracts screens downloads the letter; another agent’s sale under «Solo sus ventas» is refused', async () => {
    const token = await staff();
    const s = await sale(token, { letter: true });
    await pay(token, s.id, 600_000, '2025-11-02');
    const res = await send('POST', `/api/sales/${s.id}/rescind`, token, { reason: 'Incumplimiento de pago' });
    const path = saleResponseSchema.parse(res.json()).data.rescission!.letter!.download_path!;
    const seller = await createSession(db(), await createStaff(db(), { permissions: [MODULE.comercial, SUBMODULE.ventas] }));
    expect((await send('GET', path, seller)).statusCode).toBe(200);
    expect((await send('GET', `/api/contracts?kind=CARTA_RESOLUCION`, seller)).statusCode).toBe(403);
    const own = await createSession(
      db(),
      await createStaff(db(), { permissions: [MODULE.comercial, SUBMODULE.ventas, SCOPE.soloSusVentas] }),
    );
    expect((await send('GET', path, own)).statusCode).toBe(403);
  });

  // docs/security.md "Every bad input is a 4xx": the two downloads take two ids from the path and
  // write nothing; every malformed, unknown or mismatched id, a missing or foreign session and a
  // missing permission is a clear Spanish 4xx, never a 500.
  it('bad input on GET …/rescission/letter and …/reschedules/{rid}/adenda: malformed, unknown and another sale’s ids, no session, no permission, a customer: a Spanish 4xx, nothing written', async () => {
    const token = await staff();
    const portalBuyer = await createCustomer(db(), { name: 'Rosa', surname: 'Quispe Mamani' });
    // A rescinded sale with its letter issued (its buyer has a portal account) …
    const rescinded = await sale(token, { letter: true, adenda: true }, portalBuyer.id);
    await pay(token, rescinded.id, 600_000, '2025-11-02');
    expect((await send('POST', `/api/sales/${rescinded.id}/rescind`, token, { reason: 'Incumplimiento de pago' })).statusCode).toBe(200);
    // … and a rescheduled one with its adenda issued.
    const rescheduled = await sale(token, { letter: true, adenda: true });
    await pay(token, rescheduled.id, 600_000, '2025-11-02');
    const done = await reschedule(token, rescheduled.id, {
      instalments: 8,
      first_due_date: '2026-04-01',
      reason: 'Acuerdo con el cliente',
    });
    expect(done.statusCode, done.body).toBe(200);
    const rid = saleResponseSchema.parse(done.json()).data.adenda!.reschedule_id;
    const letterPath = `/api/sales/${rescinded.id}/rescission/letter`;
    const adendaPath = `/api/sales/${rescheduled.id}/reschedules/${rid}/adenda`;
    expect((await send('GET', letterPath, token)).statusCode).toBe(200);
    expect((await send('GET', adendaPath, token)).statusCode).toBe(200);

    // No session, an unknown token, a staff user without Ventas (the contracts screens do not
    // open it), 'Solo sus ventas' on another agent's sale, and a customer — the buyer herself.
    const sessions: [string, Record<string, string>, number, string][] = [
      ['no session', {}, 401, MESSAGES.unauthenticated],
      ['unknown token', bearer('0'.repeat(64)), 401, MESSAGES.unauthenticated],
      [
        'contracts screens without Ventas',
        bearer(
          await createSession(
            db(),
            await createStaff(db(), { permissions: [MODULE.administracion, SUBMODULE.generarContrato, SUBMODULE.registroContratos] }),
          ),
        ),
        403,
        MESSAGES.forbidden,
      ],
      ['customer (the buyer)', bearer(await createSession(db(), portalBuyer)), 403, MESSAGES.forbidden],
    ];
    const ownOnly = bearer(
      await createSession(db(), await createStaff(db(), { permissions: [MODULE.comercial, SUBMODULE.ventas, SCOPE.soloSusVentas] })),
    );
    const written = async () => ({
      contracts: await db().selectFrom('contracts').select(['id', 'state', 'version', 'updated_at']).orderBy('id').execute(),
      events: await db().selectFrom('contract_events').select('id').orderBy('id').execute(),
      history: await db().selectFrom('change_history').select('id').orderBy('id').execute(),
      sales: await db().selectFrom('sales').select(['id', 'status', 'version']).orderBy('id').execute(),
      reschedules: await db().selectFrom('sale_reschedules').select('id').orderBy('id').execute(),
    });
    const before = await written();

    /** A 4xx (`status` when given) whose JSON message is Spanish (`message` when given), never a 5xx. */
    const refused = (res: { statusCode: number; body: string }, label: string, status?: number, message?: string) => {
      expect(res.statusCode, `${label}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, `${label}: ${res.body}`).toBeLessThan(500);
      if (status !== undefined) expect(res.statusCode, `${label}: ${res.body}`).toBe(status);
      const body = JSON.parse(res.body) as { message?: unknown };
      expect(typeof body.message, `${label}: ${res.body}`).toBe('string');
      expect(body.message as string, label).not.toMatch(
        /^(Internal|Bad Request|Not Found|Unauthorized|Forbidden|querystring|body|params)\b/,
      );
      if (message !== undefined) expect(body.message, label).toBe(message);
    };

    // Malformed, zero, negative, fractional, huge (2^53, past PostgreSQL's integer) and unknown ids: 404.
    const BAD_IDS = [
      'abc',
      '0',
      '-1',
      '1.5',
      '1e3',
      '0x10',
      '+1',
      '01',
      ' 1',
      String(2 ** 53),
      '99999999999999999999',
      '2147483648',
      '999999999999999',
      '%00',
      '1;drop',
      '999999',
    ];
    for (const bad of BAD_IDS) {
      const id = encodeURIComponent(bad);
      refused(await send('GET', `/api/sales/${id}/rescission/letter`, token), `letter of sale ${bad}`, 404);
      refused(await send('GET', `/api/sales/${id}/reschedules/${rid}/adenda`, token), `adenda of sale ${bad}`, 404);
      refused(await send('GET', `/api/sales/${rescheduled.id}/reschedules/${id}/adenda`, token), `adenda of reschedule ${bad}`, 404);
    }
    for (const path of [
      `/api/sales//rescission/letter`,
      `/api/sales/${rescheduled.id}/reschedules//adenda`,
      `/api/sales//reschedules//adenda`,
    ]) {
      refused(await send('GET', path, token), path, 404);
    }
    // A sale without the document, and a rescheduling of another sale: the document's own 404.
    refused(
      await send('GET', `/api/sales/${rescheduled.id}/rescission/letter`, token),
      'letter of a sale not rescinded',
      404,
      SALE_DOCUMENT_MESSAGES.letterNotIssued,
    );
    refused(
      await send('GET', `/api/sales/${rescinded.id}/reschedules/${rid}/adenda`, token),
      'another sale’s rescheduling',
      404,
      SALE_DOCUMENT_MESSAGES.adendaNotIssued,
    );
    // Other methods on the two paths: no route.
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      for (const path of [letterPath, adendaPath]) {
        refused(await ctx().app.inject({ method, url: path, headers: bearer(token), payload: {} }), `${method} ${path}`);
      }
    }

    for (const path of [letterPath, adendaPath]) {
      for (const [label, headers, status, message] of sessions) {
        refused(await ctx().app.inject({ method: 'GET', url: path, headers }), `${label}: ${path}`, status, message);
      }
      const res = await ctx().app.inject({ method: 'GET', url: path, headers: ownOnly });
      refused(res, `'Solo sus ventas': ${path}`, 403);
    }
    refused(
      await ctx().app.inject({ method: 'GET', url: '/api/sales/999999/rescission/letter', headers: ownOnly }),
      'own only, unknown sale',
      404,
    );
    refused(
      await ctx().app.inject({ method: 'GET', url: '/api/sales/abc/reschedules/1/adenda', headers: ownOnly }),
      'own only, malformed',
      404,
    );

    expect(await written()).toEqual(before);
    // The documents are still served as issued.
    expect((await send('GET', letterPath, token)).statusCode).toBe(200);
    expect((await send('GET', adendaPath, token)).statusCode).toBe(200);
  });
});
