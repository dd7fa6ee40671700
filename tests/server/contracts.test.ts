import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../../src/lib/money';
import {
  CONTRACT_MESSAGES,
  contractPreviewResponseSchema,
  contractResponseSchema,
  contractsPageSchema,
} from '../../src/schemas/administracion/contracts';
import { contractTemplateSchema, type TemplateNode } from '../../src/schemas/administracion/contract-templates';
import { purchaseDetailResponseSchema } from '../../src/schemas/comercio/purchases';
import { MODULE, SUBMODULE, type Permission } from '../../src/schemas/permissions';
import { systemAuditContext } from '../../server/audit/audit';
import { createManualClock, DAY_MS } from '../../server/clock';
import { resolveSaleContract } from '../../server/modules/administracion/contract-lifecycle';
import { ContractSignatureJob } from '../../server/modules/administracion/contract-signature-job';
import { annulSale, createSale } from '../../server/modules/comercio/sales.service';
import {
  createCustomer,
  createLot,
  createSession,
  createStaff,
  createSubdivision,
  ensureCompany,
  type CustomerFixture,
} from '../../server/testing/fixtures';
import { bearer, dialects, multipartBody, recordingBroadcaster, useTestApp, useTestDatabase } from './harness';
import { png } from './images';

/**
 * Contracts (docs/domain.md "Contracts"): made from a sale and its subdivision's published
 * template; missing data asked for, never printed blank; issued with a gapless number per company
 * and year and its PDF stored as issued (byte-identical after the template changes); FIRMADO with
 * a sniffed scan; annulled with the sale before signing; the register's filters and the overdue
 * signature's flag and notice; the customer's own contract PDF. The test clock's today (Lima) is
 * 2026-03-02.
 */

const GENERATE: readonly Permission[] = [MODULE.administracion, SUBMODULE.generarContrato];

/** A template of a compraventa a plazos that names the buyer, the lot, the price (figures and words), the schedule and its total. */
function contractDoc(): TemplateNode {
  const v = (key: string): TemplateNode => ({ type: 'variable', attrs: { key } });
  const t = (text: string): TemplateNode => ({ type: 'text', text });
  return {
    type: 'doc',
    content: [
      { type: 'heading', attrs: { level: 1, textAlign: 'center' }, content: [t('CONTRATO DE COMPRAVENTA '), v('contrato.numero')] },
      {
        type: 'orderedList',
        content: [
          {
            type: 'listItem',
            content: [
              { type: 'paragraph', content: [t('EL COMPRADOR: '), { ...v('comprador.nombre'), marks: [{ type: 'bold' }] }, t('.')] },
            ],
          },
          {
            type: 'listItem',
            content: [{ type: 'paragraph', content: [t('EL LOTE: manzana '), v('lote.manzana'), t(', lote '), v('lote.numero'), t('.')] }],
          },
          {
            type: 'listItem',
            content: [{ type: 'paragraph', content: [t('EL PRECIO: '), v('venta.precio'), t(' ('), v('venta.precio_letras'), t(').')] }],
          },
          {
            type: 'listItem',
            content: [{ type: 'paragraph', content: [t('REPRESENTANTE CON DNI '), v('empresa.representante_dni'), t('.')] }],
          },
        ],
      },
      { type: 'paragraph', content: [t('CRONOGRAMA:'), v('venta.cronograma'), t('TOTAL DEL CRONOGRAMA: '), v('venta.cronograma_total')] },
      { type: 'pageBreak' },
      {
        type: 'paragraph',
        attrs: { textAlign: 'right' },
        content: [{ type: 'text', text: 'Firmas', marks: [{ type: 'underline' }, { type: 'italic' }] }],
      },
    ],
  };
}

/** A PDF's text, whitespace collapsed. */
async function pdfWords(bytes: Buffer): Promise<string> {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

const MINIMAL_PDF = Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n', 'latin1');

describe.each(dialects)('contracts (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const broadcaster = recordingBroadcaster();
  const ctx = useTestApp(db, {}, { broadcaster });
  let n = 0;

  const staffWith = async (permissions: readonly Permission[] = GENERATE) => {
    const staff = await createStaff(db(), { permissions, clock: ctx().clock });
    return { id: staff.id, token: await createSession(db(), staff) };
  };
  const send = (method: 'GET' | 'POST' | 'PATCH', url: string, token: string, payload?: object) =>
    ctx().app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload } : {}) });
  const contractOf = (res: { json: () => unknown }) => contractResponseSchema.parse(res.json()).data;

  /** A subdivision with a published COMPRAVENTA_PLAZOS template. @returns the subdivision and template ids. */
  async function publishedTemplate(token: string, kind = 'COMPRAVENTA_PLAZOS', publish = true) {
    const subdivision = await createSubdivision(db());
    let res = await send('POST', '/api/contract-templates', token, {
      subdivision_id: subdivision.id,
      kind,
      name: 'Compraventa',
      content: contractDoc(),
    });
    expect(res.statusCode, res.body).toBe(201);
    let template = contractTemplateSchema.parse(res.json().data);
    if (publish) {
      res = await send('POST', `/api/contract-templates/${template.id}/publish`, token, { version: template.version });
      expect(res.statusCode, res.body).toBe(200);
      template = contractTemplateSchema.parse(res.json().data);
    }
    return { subdivisionId: subdivision.id, template };
  }

  /** A financed sale (S/ 30 000.00: 20 % down in 2 parts, 6 instalments) of `customer` in `subdivisionId`. */
  async function financedSale(subdivisionId: number, customer?: CustomerFixture) {
    await ensureCompany(db());
    const buyer = customer ?? (await createCustomer(db(), { name: 'Rosa', surname: 'Quispe Mamani' }));
    const lotId = await createLot(db(), subdivisionId, { block: 'D', number: String(++n) });
    const onSaleDate = createManualClock('2025-10-01T17:00:00.000Z');
    const sale = await createSale({ db: db(), clock: onSaleDate }, systemAuditContext(onSaleDate), {
      lot_id: lotId,
      holders: [{ customer_id: buyer.id, role: 'TITULAR', share_percent: '100' }],
      sale_date: '2025-10-01',
      down_payment_percent: '20',
      down_payment_parts: 2,
      instalments: 6,
      monthly_rate_percent: '0',
      method: 'SIN_INTERES',
      first_due_date: '2025-11-01',
    });
    return { saleId: sale.id, lotId, buyer };
  }

  /** A BORRADOR contract of a new sale, its missing data supplied. */
  async function readyContract(token: string, subdivisionId: number, customer?: CustomerFixture) {
    const { saleId, buyer } = await financedSale(subdivisionId, customer);
    let res = await send('POST', '/api/contracts', token, { sale_id: saleId });
    expect(res.statusCode, res.body).toBe(201);
    let contract = contractOf(res);
    const preview = contractPreviewResponseSchema.parse((await send('GET', `/api/contracts/${contract.id}/preview`, token)).json()).data;
    if (preview.missing.length > 0) {
      res = await send('PATCH', `/api/contracts/${contract.id}`, token, {
        version: contract.version,
        overrides: Object.fromEntries(
          preview.missing.map((m) => [m.key, m.key === 'empresa.representante_dni' ? '40123456' : `Dato ${m.key}`]),
        ),
      });
      expect(res.statusCode, res.body).toBe(200);
      contract = contractOf(res);
    }
    return { contract, saleId, buyer };
  }

  it('generates from the published template, asks for what is missing, issues a numbered PDF naming buyer, lot, price and schedule total, byte-identical after a template change', async () => {
    const { token } = await staffWith();
    const { subdivisionId, template } = await publishedTemplate(token);
    const { saleId } = await financedSale(subdivisionId);
    let res = await send('POST', '/api/contracts', token, { sale_id: saleId });
    expect(res.statusCode, res.body).toBe(201);
    let contract = contractOf(res);
    expect(contract).toMatchObject({
      state: 'BORRADOR',
      number: null,
      kind: 'COMPRAVENTA_PLAZOS',
      template: { id: template.id, version_number: 1 },
    });
    expect(contract.sale).toMatchObject({ id: saleId, titular: 'Rosa Quispe Mamani' });

    // The company's representative has no DNI: the preview lists it, issue refuses it (nothing stored).
    res = await send('GET', `/api/contracts/${contract.id}/preview`, token);
    expect(res.statusCode, res.body).toBe(200);
    const preview = contractPreviewResponseSchema.parse(res.json()).data;
    expect(preview.missing).toContainEqual({ key: 'empresa.representante_dni', label: 'DNI del representante' });
    expect(preview.values['comprador.nombre']?.text).toBe('Rosa Quispe Mamani');
    res = await send('POST', `/api/contracts/${contract.id}/issue`, token, { version: contract.version });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toContain('DNI del representante');
    expect(res.json().errors['overrides.empresa.representante_dni']).toBeDefined();
    expect(contractOf(await send('GET', `/api/contracts/${contract.id}`, token))).toMatchObject({ state: 'BORRADOR', number: null });

    // An unknown key cannot be supplied.
    res = await send('PATCH', `/api/contracts/${contract.id}`, token, { version: contract.version, overrides: { 'comprador.apodo': 'x' } });
    expect(res.statusCode).toBe(422);
    res = await send('PATCH', `/api/contracts/${contract.id}`, token, {
      version: contract.version,
      overrides: Object.fromEntries(
        preview.missing.map((m) => [m.key, m.key === 'empresa.representante_dni' ? '40123456' : `Dato ${m.key}`]),
      ),
    });
    expect(res.statusCode, res.body).toBe(200);
    contract = contractOf(res);
    expect(contract.overrides['empresa.representante_dni']).toBe('40123456');

    res = await send('POST', `/api/contracts/${contract.id}/issue`, token, { version: contract.version });
    expect(res.statusCode, res.body).toBe(200);
    contract = contractOf(res);
    expect(contract.state).toBe('EMITIDO');
    expect(contract.number).toMatch(/^C-2026-\d{6}$/);
    expect(contract).toMatchObject({ has_pdf: true, signature_due_on: '2026-03-17', signature_overdue: false });

    res = await send('GET', `/api/contracts/${contract.id}/pdf`, token);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const issuedPdf = res.rawPayload;
    const text = await pdfWords(issuedPdf);
    const sale = await db().selectFrom('sales').select(['final_price', 'lot_id']).where('id', '=', saleId).executeTakeFirstOrThrow();
    const lot = await db()
      .selectFrom('lots')
      .innerJoin('blocks', 'blocks.id', 'lots.block_id')
      .select(['lots.number', 'blocks.name'])
      .where('lots.id', '=', sale.lot_id)
      .executeTakeFirstOrThrow();
    // The schedule of the contract: the instalments after the down payment (6 × S/ 4 000.00).
    const rows = await db()
      .selectFrom('sale_instalments')
      .select('amount')
      .where('sale_id', '=', saleId)
      .where('kind', '=', 'CUOTA')
      .execute();
    const total = rows.reduce((sum, r) => sum + Number(r.amount), 0);
    expect(total).toBe(2_400_000);
    const stored = contractPreviewResponseSchema.parse((await send('GET', `/api/contracts/${contract.id}/preview`, token)).json()).data;
    expect(text).toContain('Rosa Quispe Mamani');
    expect(text).toContain(`manzana ${lot.name}, lote ${lot.number}`);
    expect(text).toContain(formatMoney(Number(sale.final_price), 'PEN'));
    expect(text).toContain(stored.values['venta.precio_letras']!.text.replace(/\s+/g, ' '));
    expect(text).toContain(`TOTAL DEL CRONOGRAMA: ${formatMoney(total, 'PEN')}`);
    expect(text).toContain(contract.number!);
    expect(text).toContain('40123456');
    expect(text).toContain('Página 2 de 2');
    expect(stored.missing).toEqual([]);

    // A new template version, edited and published: the issued contract's PDF and document do not change.
    res = await send('POST', `/api/contract-templates/${template.id}/new-version`, token, { version: template.version });
    const v2 = contractTemplateSchema.parse(res.json().data);
    res = await send('PATCH', `/api/contract-templates/${v2.id}`, token, {
      version: v2.version,
      content: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Texto nuevo' }] }] },
    });
    expect(res.statusCode, res.body).toBe(200);
    res = await send('POST', `/api/contract-templates/${v2.id}/publish`, token, {
      version: contractTemplateSchema.parse(res.json().data).version,
    });
    expect(res.statusCode, res.body).toBe(200);
    const again = await send('GET', `/api/contracts/${contract.id}/pdf`, token);
    expect(Buffer.compare(again.rawPayload, issuedPdf)).toBe(0);
    const previewAfter = contractPreviewResponseSchema.parse(
      (await send('GET', `/api/contracts/${contract.id}/preview`, token)).json(),
    ).data;
    expect(previewAfter.doc).toEqual(stored.doc);

    // Issued: no more corrections, no second issue.
    res = await send('PATCH', `/api/contracts/${contract.id}`, token, {
      version: contract.version,
      overrides: { 'lote.lindero_frente': 'Calle 1' },
    });
    expect(res.json()).toEqual({ message: CONTRACT_MESSAGES.onlyDraftEditable });
    res = await send('POST', `/api/contracts/${contract.id}/issue`, token, { version: contract.version });
    expect(res.json()).toEqual({ message: CONTRACT_MESSAGES.onlyDraftIssues });

    // The signed scan: a text file is refused (nothing written); a PDF makes it FIRMADO.
    const upload = (content: Buffer, filename: string) =>
      ctx().app.inject({
        method: 'POST',
        url: `/api/contracts/${contract.id}/signed-scan`,
        ...(() => {
          const body = multipartBody({ filename, content, contentType: 'application/pdf' });
          return { payload: body.payload, headers: { ...body.headers, ...bearer(token) } };
        })(),
      });
    res = await upload(Buffer.from('esto no es un PDF, aunque se llame así'), 'firmado.pdf');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.file).toEqual([CONTRACT_MESSAGES.scanNotDocument]);
    expect(contractOf(await send('GET', `/api/contracts/${contract.id}`, token))).toMatchObject({ state: 'EMITIDO', signed_scan: null });
    res = await send('GET', `/api/contracts/${contract.id}/signed-scan`, token);
    expect(res.statusCode).toBe(404);
    res = await upload(Buffer.alloc(10 * 1024 * 1024 + 1, 0x25), 'grande.pdf');
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.file).toEqual([CONTRACT_MESSAGES.scanTooLarge]);
    res = await upload(MINIMAL_PDF, 'firmado.pdf');
    expect(res.statusCode, res.body).toBe(200);
    contract = contractOf(res);
    expect(contract).toMatchObject({ state: 'FIRMADO', signature_overdue: false, signed_scan: { content_type: 'application/pdf' } });
    res = await send('GET', `/api/contracts/${contract.id}/signed-scan`, token);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(Buffer.compare(res.rawPayload, MINIMAL_PDF)).toBe(0);
    // A second scan, or annulling a signed contract, is refused.
    res = await upload(MINIMAL_PDF, 'otra.pdf');
    expect(res.json()).toEqual({ message: CONTRACT_MESSAGES.scanOnlyIssued });
    res = await send('POST', `/api/contracts/${contract.id}/annul`, token, { version: contract.version, reason: 'Error' });
    expect(res.json()).toEqual({ message: CONTRACT_MESSAGES.notAnnullable });

    const detail = contractOf(await send('GET', `/api/contracts/${contract.id}`, token));
    expect(detail.events.map((e) => [e.from_state, e.to_state])).toEqual([
      [null, 'BORRADOR'],
      ['BORRADOR', 'EMITIDO'],
      ['EMITIDO', 'FIRMADO'],
    ]);
    expect(detail.events.every((e) => e.user !== null)).toBe(true);
  });

  it('a PNG scan is accepted; refusals: no published template, a draft template, another subdivision’s, an annulled sale, a second live contract', async () => {
    const { token } = await staffWith();
    const bare = await createSubdivision(db());
    const { saleId: orphan } = await financedSale(bare.id);
    let res = await send('POST', '/api/contracts', token, { sale_id: orphan });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: CONTRACT_MESSAGES.noPublishedTemplate });

    const draft = await publishedTemplate(token, 'COMPRAVENTA_PLAZOS', false);
    const { saleId: draftSale } = await financedSale(draft.subdivisionId);
    res = await send('POST', '/api/contracts', token, { sale_id: draftSale, template_id: draft.template.id });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.template_id).toEqual([CONTRACT_MESSAGES.templateNotPublished]);
    const published = await publishedTemplate(token);
    res = await send('POST', '/api/contracts', token, { sale_id: draftSale, template_id: published.template.id });
    expect(res.json().errors.template_id).toEqual([CONTRACT_MESSAGES.templateOtherSubdivision]);
    res = await send('POST', '/api/contracts', token, { sale_id: 999_999 });
    expect(res.json().errors.sale_id).toEqual([CONTRACT_MESSAGES.saleNotFound]);
    res = await send('POST', '/api/contracts', token, { sale_id: 'x' });
    expect(res.statusCode).toBe(422);

    const { contract, saleId } = await readyContract(token, published.subdivisionId);
    res = await send('POST', '/api/contracts', token, { sale_id: saleId });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: CONTRACT_MESSAGES.duplicate });
    res = await send('POST', `/api/contracts/${contract.id}/annul`, token, { version: contract.version, reason: 'Plantilla equivocada' });
    expect(res.statusCode, res.body).toBe(200);
    expect(contractOf(res)).toMatchObject({ state: 'ANULADO', annul_reason: 'Plantilla equivocada' });
    // Annulled: the sale may have its contract again.
    res = await send('POST', '/api/contracts', token, { sale_id: saleId });
    expect(res.statusCode, res.body).toBe(201);
    let again = contractOf(res);
    res = await send('PATCH', `/api/contracts/${again.id}`, token, {
      version: again.version,
      overrides: { 'empresa.representante_dni': '40123456' },
    });
    again = contractOf(res);
    const preview = contractPreviewResponseSchema.parse((await send('GET', `/api/contracts/${again.id}/preview`, token)).json()).data;
    if (preview.missing.length > 0)
      again = contractOf(
        await send('PATCH', `/api/contracts/${again.id}`, token, {
          version: again.version,
          overrides: Object.fromEntries(preview.missing.map((m) => [m.key, `Dato ${m.key}`])),
        }),
      );
    res = await send('POST', `/api/contracts/${again.id}/issue`, token, { version: again.version });
    expect(res.statusCode, res.body).toBe(200);
    const body = multipartBody({ filename: 'firma.png', content: png(40, 60), contentType: 'image/png' });
    res = await ctx().app.inject({
      method: 'POST',
      url: `/api/contracts/${again.id}/signed-scan`,
      payload: body.payload,
      headers: { ...body.headers, ...bearer(token) },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(contractOf(res).signed_scan).toMatchObject({ content_type: 'image/png' });

    // An annulled sale's contract is not generated.
    const { saleId: annulled } = await financedSale(published.subdivisionId);
    await annulSale({ db: db(), clock: ctx().clock }, systemAuditContext(ctx().clock), annulled, { reason: 'Desistimiento del cliente' });
    res = await send('POST', '/api/contracts', token, { sale_id: annulled });
    expect(res.json()).toEqual({ message: CONTRACT_MESSAGES.saleAnnulled });
  });

  it('two staff issuing one contract at once: one number; two contracts at once: consecutive numbers, no gap', async () => {
    const { token } = await staffWith();
    const { token: other } = await staffWith();
    const { subdivisionId } = await publishedTemplate(token);
    const company = await ensureCompany(db());
    const last = async () =>
      Number(
        (
          await db()
            .selectFrom('contract_counters')
            .select('last_number')
            .where('company_id', '=', company)
            .where('year', '=', 2026)
            .executeTakeFirst()
        )?.last_number ?? 0,
      );
    const start = await last();
    const { contract } = await readyContract(token, subdivisionId);
    const results = await Promise.all([
      send('POST', `/api/contracts/${contract.id}/issue`, token, { version: contract.version }),
      send('POST', `/api/contracts/${contract.id}/issue`, other, { version: contract.version }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await last()).toBe(start + 1);
    const issued = contractOf(results.find((r) => r.statusCode === 200)!);
    expect(issued.number).toBe(`C-2026-${String(start + 1).padStart(6, '0')}`);
    const events = await db()
      .selectFrom('contract_events')
      .select('to_state')
      .where('contract_id', '=', contract.id)
      .where('to_state', '=', 'EMITIDO')
      .execute();
    expect(events.length).toBe(1);

    const [a, b] = [await readyContract(token, subdivisionId), await readyContract(token, subdivisionId)];
    const pair = await Promise.all([
      send('POST', `/api/contracts/${a.contract.id}/issue`, token, { version: a.contract.version }),
      send('POST', `/api/contracts/${b.contract.id}/issue`, other, { version: b.contract.version }),
    ]);
    expect(pair.map((r) => r.statusCode)).toEqual([200, 200]);
    const numbers = pair.map((r) => contractOf(r).number).sort();
    expect(numbers).toEqual([`C-2026-${String(start + 2).padStart(6, '0')}`, `C-2026-${String(start + 3).padStart(6, '0')}`]);
    expect(await last()).toBe(start + 3);
    // Each PDF carries its own number.
    for (const r of pair) {
      const c = contractOf(r);
      const pdf = await send('GET', `/api/contracts/${c.id}/pdf`, token);
      expect(await pdfWords(pdf.rawPayload)).toContain(c.number!);
    }
  });

  it('the register filters and flags an overdue signature, notifies the agent once; a sale annulled before signing annuls its contract', async () => {
    const { token } = await staffWith();
    const agent = await staffWith([MODULE.comercial, SUBMODULE.ventas]);
    const registrar = await staffWith([MODULE.administracion, SUBMODULE.registroContratos]);
    const { subdivisionId } = await publishedTemplate(token);
    const { contract, saleId } = await readyContract(token, subdivisionId);
    await db().updateTable('sales').set({ agent_id: agent.id }).where('id', '=', saleId).execute();
    const issued = contractOf(await send('POST', `/api/contracts/${contract.id}/issue`, token, { version: contract.version }));
    const { contract: draft } = await readyContract(token, subdivisionId);

    const list = async (query: string, as = registrar.token) => {
      const res = await send('GET', `/api/contracts?${query}`, as);
      expect(res.statusCode, res.body).toBe(200);
      return contractsPageSchema.parse(res.json());
    };
    expect((await list(`subdivision_id=${subdivisionId}`)).meta.total).toBe(2);
    expect((await list(`subdivision_id=${subdivisionId}&state=EMITIDO`)).data.map((c) => c.id)).toEqual([issued.id]);
    expect((await list(`agent_id=${agent.id}`)).data.map((c) => c.id)).toEqual([issued.id]);
    expect((await list(`q=${issued.number}`)).data.map((c) => c.id)).toEqual([issued.id]);
    expect((await list(`q=Rosa&subdivision_id=${subdivisionId}`)).meta.total).toBe(2);
    expect((await list(`issued_from=2026-03-02&issued_to=2026-03-02&subdivision_id=${subdivisionId}`)).data.map((c) => c.id)).toEqual([
      issued.id,
    ]);
    expect((await list(`issued_from=2026-03-03&subdivision_id=${subdivisionId}`)).meta.total).toBe(0);
    expect((await list(`kind=COMPRAVENTA_CONTADO&subdivision_id=${subdivisionId}`)).meta.total).toBe(0);
    let res = await send('GET', '/api/contracts?issued_from=2026-02-30', registrar.token);
    expect(res.statusCode).toBe(422);
    res = await send('GET', '/api/contracts?state=VIGENTE', registrar.token);
    expect(res.statusCode).toBe(422);
    // The register's users read but do not generate.
    res = await send('POST', `/api/contracts/${draft.id}/issue`, registrar.token, { version: draft.version });
    expect(res.statusCode).toBe(403);

    const job = new ContractSignatureJob({ db: db(), clock: ctx().clock, broadcaster, log: { error: () => undefined } });
    const noticesOf = () =>
      db()
        .selectFrom('notifications')
        .select('detail')
        .where('recipient_type', '=', 'COLLABORATOR')
        .where('recipient_id', '=', agent.id)
        .execute();
    await job.runPass();
    expect(await noticesOf()).toEqual([]);
    ctx().clock.advance(16 * DAY_MS);
    const overdue = await list(`overdue=true&subdivision_id=${subdivisionId}`);
    expect(overdue.data.map((c) => [c.id, c.signature_overdue])).toEqual([[issued.id, true]]);
    expect((await list(`overdue=false&subdivision_id=${subdivisionId}`)).data.map((c) => c.id)).toEqual([draft.id]);
    expect(await job.runPass()).toBeGreaterThanOrEqual(1);
    await job.runPass();
    const notices = await noticesOf();
    expect(notices.length).toBe(1);
    expect(notices[0]!.detail).toContain(issued.number!);

    // The sale is annulled before the contract is signed: the contract is ANULADO with it.
    await annulSale({ db: db(), clock: ctx().clock }, systemAuditContext(ctx().clock), saleId, { reason: 'Desistimiento del cliente' });
    const after = contractOf(await send('GET', `/api/contracts/${issued.id}`, token));
    expect(after).toMatchObject({ state: 'ANULADO', signature_overdue: false });
    expect(after.annul_reason).toContain('Desistimiento del cliente');
  });

  it('the customer gets their own issued contract’s PDF (another customer’s is a 404)', async () => {
    const { token } = await staffWith();
    const { subdivisionId } = await publishedTemplate(token);
    const me = await createCustomer(db(), { name: 'Rosa', surname: 'Quispe Mamani' });
    const someoneElse = await createCustomer(db());
    const mine = await createSession(db(), me);
    const theirs = await createSession(db(), someoneElse);
    const { contract, saleId } = await readyContract(token, subdivisionId, me);
    const detail = async () =>
      purchaseDetailResponseSchema.parse(
        (await ctx().app.inject({ method: 'GET', url: `/api/customer/purchases/${saleId}`, headers: bearer(mine) })).json(),
      ).data;
    expect((await detail()).contract_pdf_url).toBeNull();
    let res = await ctx().app.inject({ method: 'GET', url: `/api/customer/purchases/${saleId}/contract`, headers: bearer(mine) });
    expect(res.statusCode).toBe(404);
    const issued = contractOf(await send('POST', `/api/contracts/${contract.id}/issue`, token, { version: contract.version }));
    const url = (await detail()).contract_pdf_url;
    expect(url).toBe(`/api/customer/purchases/${saleId}/contract`);
    res = await ctx().app.inject({ method: 'GET', url: url!, headers: bearer(mine) });
    expect(res.statusCode).toBe(200);
    const staffCopy = await send('GET', `/api/contracts/${issued.id}/pdf`, token);
    expect(Buffer.compare(res.rawPayload, staffCopy.rawPayload)).toBe(0);
    res = await ctx().app.inject({ method: 'GET', url: url!, headers: bearer(theirs) });
    expect(res.statusCode).toBe(404);
    // Staff tokens do not use the customer's route.
    res = await ctx().app.inject({ method: 'GET', url: url!, headers: bearer(token) });
    expect(res.statusCode).toBe(403);
  });

  it('a rescission resolves the sale’s issued contract (RESUELTO, its event), in the caller’s transaction', async () => {
    const { id: userId, token } = await staffWith();
    const { subdivisionId } = await publishedTemplate(token);
    const { contract, saleId } = await readyContract(token, subdivisionId);
    const issued = contractOf(await send('POST', `/api/contracts/${contract.id}/issue`, token, { version: contract.version }));
    const resolved = await db()
      .transaction()
      .execute((trx) => resolveSaleContract(trx, saleId, userId, 'Resolución por 3 cuotas vencidas impagas'));
    expect(resolved).toBe(issued.id);
    const after = contractOf(await send('GET', `/api/contracts/${issued.id}`, token));
    expect(after.state).toBe('RESUELTO');
    expect(after.events.at(-1)).toMatchObject({
      from_state: 'EMITIDO',
      to_state: 'RESUELTO',
      note: 'Resolución por 3 cuotas vencidas impagas',
    });
    expect(after.events.at(-1)?.user?.id).toBe(userId);
    // The change history names the contract by its number.
    const history = await send('GET', `/api/change-history?per_page=100&entity=contracts`, (await staffWith([MODULE.historial])).token);
    expect(history.statusCode, history.body).toBe(200);
    expect(JSON.stringify(history.json())).toContain(issued.number!);
    // Nothing left to resolve.
    expect(
      await db()
        .transaction()
        .execute((trx) => resolveSaleContract(trx, saleId, userId, 'Otra vez')),
    ).toBeNull();
  });
});
