/**
 * Consumer contract of Administración → Generar Contrato and Registro de Contratos (docs/domain.md
 * "Contracts") between `parcela-web` and `parcela-api`, through the real src/api module, and the
 * customer's contract PDF of Detalle de Compra. Every interaction starts from an empty database
 * (docs/contracts.md).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { createContractsApi } from '../../../src/api/administracion/contracts';
import { createPurchasesApi } from '../../../src/api/comercio/purchases';
import { CONTRACT_MESSAGES } from '../../../src/schemas/administracion/contracts';
import { bearer, caught, httpPact, mockClient } from './pact-helpers';
import { CUSTOMER_TOKEN, STAFF_TOKEN, STATES } from '../states';

const { like, integer, regex, eachLike, boolean } = MatchersV3;

const pact = httpPact();
const api = (url: string) => createContractsApi(mockClient(url, STAFF_TOKEN));
const json = { ...bearer(STAFF_TOKEN), 'Content-Type': 'application/json' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const NUMBER = /^C-\d{4}-\d{6}$/;
/** Fixed multipart boundary, so the regenerated pact is byte-identical run after run. */
const PACT_BOUNDARY = 'parcelaPactBoundary';
/** The signed scan the app uploads: a minimal PDF. */
const SCAN_PATH = path.join(mkdtempSync(path.join(tmpdir(), 'parcela-pact-')), 'firmado.pdf');
writeFileSync(SCAN_PATH, Buffer.from('%PDF-1.4\n1 0 obj<</Type/Catalog>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n', 'latin1'));

/** A contract as the server answers it (sale 1, lot 1, template 1), in `state`. */
const contract = (state: string, version: number) => ({
  id: integer(1),
  kind: like('COMPRAVENTA_CONTADO'),
  state: like(state),
  sale: { id: integer(1), number: like('V-000001'), titular: like('Rosa Díaz') },
  lot: { id: integer(1), code: like('MZ A - LT 1'), subdivision_id: integer(1), subdivision_name: like('Lotización') },
  template: { id: integer(1), name: like('Compraventa al contado'), version_number: integer(1) },
  signature_overdue: boolean(false),
  has_pdf: boolean(state !== 'BORRADOR' && state !== 'ANULADO'),
  created_at: regex(ISO, '2026-11-20T17:00:00.000Z'),
  updated_at: regex(ISO, '2026-11-20T17:00:00.000Z'),
  version: integer(version),
});
/** One state change. */
const event = (to: string) => ({ id: integer(1), to_state: like(to), created_at: regex(ISO, '2026-11-20T17:00:00.000Z') });

describe('Generar Contrato y Registro de Contratos', () => {
  it('generates the draft contract of a sale (201)', async () => {
    await pact
      .addInteraction()
      .given(STATES.contractTemplatePublished, { token: STAFF_TOKEN })
      .uponReceiving('a request to generate the contract of a sale')
      .withRequest('POST', '/api/contracts', (b) => b.headers(json).jsonBody({ sale_id: 1 }))
      .willRespondWith(201, (b) => b.jsonBody({ data: { ...contract('BORRADOR', 1), events: eachLike(event('BORRADOR')) } }))
      .executeTest(async (mock) => {
        const created = await api(mock.url).create({ sale_id: 1 });
        expect(created.state).toBe('BORRADOR');
        expect(created.number).toBeNull();
        expect(created.events[0]?.to_state).toBe('BORRADOR');
      });
  });

  it('refuses a second live contract of a sale (409)', async () => {
    await pact
      .addInteraction()
      .given(STATES.contractDraftExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to generate a second contract of a sale')
      .withRequest('POST', '/api/contracts', (b) => b.headers(json).jsonBody({ sale_id: 1 }))
      .willRespondWith(409, (b) => b.jsonBody({ message: like(CONTRACT_MESSAGES.duplicate) }))
      .executeTest(async (mock) => {
        const error = await caught(api(mock.url).create({ sale_id: 1 }));
        expect(error.status).toBe(409);
        expect(error.message).toBe(CONTRACT_MESSAGES.duplicate);
      });
  });

  it('lists the register of contracts by state', async () => {
    await pact
      .addInteraction()
      .given(STATES.contractIssuedExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the issued contracts')
      .withRequest('GET', '/api/contracts', (b) => b.headers(bearer(STAFF_TOKEN)).query({ per_page: '20', state: 'EMITIDO' }))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: eachLike({
            ...contract('EMITIDO', 2),
            number: regex(NUMBER, 'C-2026-000001'),
            issued_at: regex(ISO, '2026-11-20T17:00:00.000Z'),
          }),
          meta: { page: integer(1), per_page: integer(20), total: integer(1) },
        }),
      )
      .executeTest(async (mock) => {
        const page = await api(mock.url).list({ page: 1, per_page: 20, filters: { state: 'EMITIDO' } });
        expect(page.data[0]?.number).toBe('C-2026-000001');
        expect(page.data[0]?.signature_overdue).toBe(false);
      });
  });

  it('opens one contract with its history', async () => {
    await pact
      .addInteraction()
      .given(STATES.contractDraftExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for contract 1')
      .withRequest('GET', '/api/contracts/1', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) => b.jsonBody({ data: { ...contract('BORRADOR', 1), events: eachLike(event('BORRADOR')) } }))
      .executeTest(async (mock) => {
        const one = await api(mock.url).get(1);
        expect(one.id).toBe(1);
        expect(one.events).toHaveLength(1);
      });
  });

  it('previews a draft: the resolved document, its values and what is missing', async () => {
    await pact
      .addInteraction()
      .given(STATES.contractDraftExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the preview of contract 1')
      .withRequest('GET', '/api/contracts/1/preview', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            doc: { type: like('doc'), content: eachLike({ type: like('paragraph') }) },
            values: { 'lote.numero': { type: like('TEXT'), text: like('1') } },
            missing: [],
          },
        }),
      )
      .executeTest(async (mock) => {
        const preview = await api(mock.url).preview(1);
        expect(preview.values['lote.numero']?.text).toBe('1');
        expect(preview.missing).toEqual([]);
      });
  });

  it('supplies a value the data lacks on a draft', async () => {
    const body = { version: 1, overrides: { 'lote.lindero_frente': 'Calle Los Pinos' } };
    await pact
      .addInteraction()
      .given(STATES.contractDraftExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to supply the front boundary of contract 1')
      .withRequest('PATCH', '/api/contracts/1', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            ...contract('BORRADOR', 2),
            overrides: { 'lote.lindero_frente': like('Calle Los Pinos') },
            events: eachLike(event('BORRADOR')),
          },
        }),
      )
      .executeTest(async (mock) => {
        const updated = await api(mock.url).update(1, body);
        expect(updated.overrides['lote.lindero_frente']).toBe('Calle Los Pinos');
      });
  });

  it('issues a draft: its number and its PDF', async () => {
    await pact
      .addInteraction()
      .given(STATES.contractDraftExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to issue contract 1')
      .withRequest('POST', '/api/contracts/1/issue', (b) => b.headers(json).jsonBody({ version: 1 }))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            ...contract('EMITIDO', 2),
            number: regex(NUMBER, 'C-2026-000001'),
            issued_at: regex(ISO, '2026-11-20T17:00:00.000Z'),
            events: eachLike(event('EMITIDO')),
          },
        }),
      )
      .executeTest(async (mock) => {
        const issued = await api(mock.url).issue(1, { version: 1 });
        expect(issued.state).toBe('EMITIDO');
        expect(issued.number).toMatch(NUMBER);
      });
  });

  it('downloads an issued contract’s PDF', async () => {
    await pact
      .addInteraction()
      .given(STATES.contractIssuedExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the PDF of contract 1')
      .withRequest('GET', '/api/contracts/1/pdf', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) => b.headers({ 'Content-Type': 'application/pdf' }))
      .executeTest(async (mock) => {
        expect(await api(mock.url).pdf(1)).toBeInstanceOf(Blob);
      });
  });

  it('uploads the signed scan (multipart file) → FIRMADO', async () => {
    await pact
      .addInteraction()
      .given(STATES.contractIssuedExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to upload the signed scan of contract 1')
      .withRequest('POST', '/api/contracts/1/signed-scan', (b) =>
        b.headers(bearer(STAFF_TOKEN)).multipartBody('application/pdf', SCAN_PATH, 'file', PACT_BOUNDARY),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            ...contract('FIRMADO', 3),
            has_pdf: boolean(true),
            signed_scan: { name: like('C-2026-000001-firmado.pdf'), content_type: like('application/pdf') },
            events: eachLike(event('FIRMADO')),
          },
        }),
      )
      .executeTest(async (mock) => {
        const file = new File([readFileSync(SCAN_PATH)], 'firmado.pdf', { type: 'application/pdf' });
        const signed = await api(mock.url).uploadSignedScan(1, file, 'firmado.pdf');
        expect(signed.state).toBe('FIRMADO');
        expect(signed.signed_scan?.content_type).toBe('application/pdf');
      });
  });

  it('downloads the signed scan', async () => {
    await pact
      .addInteraction()
      .given(STATES.contractSignedExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the signed scan of contract 1')
      .withRequest('GET', '/api/contracts/1/signed-scan', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) => b.headers({ 'Content-Type': regex(/^(application\/pdf|image\/(png|jpeg))$/, 'application/pdf') }))
      .executeTest(async (mock) => {
        expect(await api(mock.url).signedScan(1)).toBeInstanceOf(Blob);
      });
  });

  it('annuls a draft with its reason', async () => {
    const body = { version: 1, reason: 'Plantilla equivocada' };
    await pact
      .addInteraction()
      .given(STATES.contractDraftExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to annul contract 1')
      .withRequest('POST', '/api/contracts/1/annul', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            ...contract('ANULADO', 2),
            has_pdf: boolean(false),
            annul_reason: like('Plantilla equivocada'),
            events: eachLike(event('ANULADO')),
          },
        }),
      )
      .executeTest(async (mock) => {
        const annulled = await api(mock.url).annul(1, body);
        expect(annulled.state).toBe('ANULADO');
        expect(annulled.annul_reason).toBe('Plantilla equivocada');
      });
  });

  it('the customer downloads their purchase’s issued contract', async () => {
    await pact
      .addInteraction()
      .given(STATES.customerContractIssued, { token: CUSTOMER_TOKEN })
      .uponReceiving('a customer request for the contract PDF of their purchase 1')
      .withRequest('GET', '/api/customer/purchases/1/contract', (b) => b.headers(bearer(CUSTOMER_TOKEN)))
      .willRespondWith(200, (b) => b.headers({ 'Content-Type': 'application/pdf' }))
      .executeTest(async (mock) => {
        const purchases = createPurchasesApi(mockClient(mock.url, CUSTOMER_TOKEN));
        expect(await purchases.file('/api/customer/purchases/1/contract')).toBeInstanceOf(Blob);
      });
  });
});
