/**
 * Consumer contract of Administración → Comisiones y Pagos (docs/domain.md "Commissions") between
 * `parcela-web` and `parcela-api`, through the real src/api module: the commissions list, the
 * policies, the agents' settings and the settlements (create, read, approve, voucher, pay, delete,
 * Excel, an agent's PDF, the voucher). Every interaction starts from an empty database (docs/contracts.md).
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { createCommissionsApi } from '../../../src/api/administracion/commissions';
import { bearer, caught, httpPact, mockClient } from './pact-helpers';
import { SALE_DATE, STAFF_TOKEN, STATES } from '../states';

const { like, integer, regex, eachLike, boolean, nullValue } = MatchersV3;

const pact = httpPact();
const api = (url: string) => createCommissionsApi(mockClient(url, STAFF_TOKEN));
const json = { ...bearer(STAFF_TOKEN), 'Content-Type': 'application/json' };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** Fixed multipart boundary, so the regenerated pact is byte-identical run after run. */
const PACT_BOUNDARY = 'parcelaPactBoundary';
const VOUCHER_PATH = path.join(mkdtempSync(path.join(tmpdir(), 'parcela-pact-')), 'voucher.pdf');
writeFileSync(VOUCHER_PATH, Buffer.from('%PDF-1.4\n%%EOF\n'));

/** Commission 1 of sale 1 as the server answers it, in `state`. */
const commission = (state: string) => ({
  id: integer(1),
  sale: {
    id: integer(1),
    number: like('V-000001'),
    status: like('REGISTRADA'),
    lot_code: like('MZ A - LT 1'),
    subdivision_id: integer(1),
    subdivision_name: like('Lotización'),
    net_price: integer(3_000_000),
  },
  agent: { id: integer(1), name: like('Ana Ruiz') },
  role: like('ASESOR'),
  tranche: integer(1),
  tranche_count: integer(1),
  tranche_share_bp: integer(10_000),
  tranche_at: like('TRIGGER'),
  trigger: like('INICIAL_APROBADA'),
  base: like('PORCENTAJE'),
  percent_bp: integer(300),
  amount: integer(90_000),
  currency: regex(/^(PEN|USD)$/, 'PEN'),
  state: like(state),
  projected_on: regex(DATE, SALE_DATE),
  accrued_on: regex(DATE, SALE_DATE),
  version: integer(1),
});

const policy = {
  id: integer(1),
  subdivision: { id: integer(1), name: like('Lotización'), currency: regex(/^(PEN|USD)$/, 'PEN') },
  role: like('ASESOR'),
  base: like('PORCENTAJE'),
  percent_bp: integer(300),
  trigger: like('INICIAL_APROBADA'),
  tranches: eachLike({ share_bp: integer(10_000), at: like('TRIGGER') }),
  active: boolean(true),
  version: integer(1),
};

/** Settlement 1 in `state` with its agent's totals and its line in `lineState`. */
const settlement = (state: string, lineState: string, version = 1) => ({
  id: integer(1),
  number: regex(/^LQ-\d{6}$/, 'LQ-000001'),
  state: like(state),
  currency: regex(/^(PEN|USD)$/, 'PEN'),
  period_from: regex(DATE, SALE_DATE),
  period_to: regex(DATE, SALE_DATE),
  total: integer(90_000),
  withholding: integer(0),
  net: integer(90_000),
  agents_count: integer(1),
  lines_count: integer(1),
  created_at: regex(ISO, '2026-11-20T17:00:00.000Z'),
  version: integer(version),
  agents: eachLike({
    agent: { id: integer(1), name: like('Ana Ruiz') },
    issues_fee_receipts: boolean(false),
    lines: integer(1),
    gross: integer(90_000),
    withholding: integer(0),
    net: integer(90_000),
  }),
  lines: eachLike(commission(lineState)),
});

describe('Comisiones y Pagos', () => {
  it('lists the commissions in a state', async () => {
    await pact
      .addInteraction()
      .given(STATES.commissionEarned, { token: STAFF_TOKEN })
      .uponReceiving('a request for the DEVENGADA commissions')
      .withRequest('GET', '/api/commissions', (b) => b.headers(bearer(STAFF_TOKEN)).query({ per_page: '20', state: 'DEVENGADA' }))
      .willRespondWith(200, (b) =>
        b.jsonBody({ data: eachLike(commission('DEVENGADA')), meta: { page: integer(1), per_page: integer(20), total: integer(1) } }),
      )
      .executeTest(async (mock) => {
        const page = await api(mock.url).list({ page: 1, per_page: 20, filters: { state: 'DEVENGADA' } });
        expect(page.data[0]).toMatchObject({ state: 'DEVENGADA', amount: 90_000 });
      });
  });

  it('lists the policies of a subdivision', async () => {
    await pact
      .addInteraction()
      .given(STATES.commissionEarned, { token: STAFF_TOKEN })
      .uponReceiving('a request for the commission policies of subdivision 1')
      .withRequest('GET', '/api/commission-policies', (b) =>
        b.headers(bearer(STAFF_TOKEN)).query({ page: '1', per_page: '50', subdivision_id: '1' }),
      )
      .willRespondWith(200, (b) =>
        b.jsonBody({ data: eachLike(policy), meta: { page: integer(1), per_page: integer(50), total: integer(1) } }),
      )
      .executeTest(async (mock) => {
        const page = await api(mock.url).policies({ page: 1, per_page: 50, subdivision_id: 1 });
        expect(page.data[0]?.percent_bp).toBe(300);
      });
  });

  it('creates a policy (201)', async () => {
    const body = { subdivision_id: 1, role: 'JEFE_VENTAS' as const, base: 'MONTO_FIJO' as const, amount: 20_000 };
    await pact
      .addInteraction()
      .given(STATES.commissionEarned, { token: STAFF_TOKEN })
      .uponReceiving('a request to create a fixed-amount policy for the sales head')
      .withRequest('POST', '/api/commission-policies', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(201, (b) =>
        b.jsonBody({
          data: {
            ...policy,
            id: integer(2),
            role: like('JEFE_VENTAS'),
            base: like('MONTO_FIJO'),
            percent_bp: nullValue(),
            amount: integer(20_000),
          },
        }),
      )
      .executeTest(async (mock) => {
        const created = await api(mock.url).createPolicy(body);
        expect(created).toMatchObject({ role: 'JEFE_VENTAS', amount: 20_000 });
      });
  });

  it('refuses a percent policy without its percent (422 on percent_bp)', async () => {
    const body = { subdivision_id: 1, role: 'CAPTADOR' as const, base: 'PORCENTAJE' as const };
    await pact
      .addInteraction()
      .given(STATES.commissionEarned, { token: STAFF_TOKEN })
      .uponReceiving('a request to create a percent policy without its percent')
      .withRequest('POST', '/api/commission-policies', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(422, (b) =>
        b.jsonBody({ message: like('Los datos no son válidos'), errors: { percent_bp: eachLike(like('Indique el porcentaje')) } }),
      )
      .executeTest(async (mock) => {
        const error = await caught(api(mock.url).createPolicy(body));
        expect(error.status).toBe(422);
        expect(error.issues?.percent_bp).toBeDefined();
      });
  });

  it('updates a policy with the version read', async () => {
    await pact
      .addInteraction()
      .given(STATES.commissionEarned, { token: STAFF_TOKEN })
      .uponReceiving('a request to change policy 1 to 4 %')
      .withRequest('PATCH', '/api/commission-policies/1', (b) => b.headers(json).jsonBody({ version: 1, percent_bp: 400 }))
      .willRespondWith(200, (b) => b.jsonBody({ data: { ...policy, percent_bp: integer(400), version: integer(2) } }))
      .executeTest(async (mock) => {
        expect((await api(mock.url).updatePolicy(1, { version: 1, percent_bp: 400 })).percent_bp).toBe(400);
      });
  });

  it('lists the agents with their commission settings', async () => {
    await pact
      .addInteraction()
      .given(STATES.commissionEarned, { token: STAFF_TOKEN })
      .uponReceiving('a request for the agents’ commission settings')
      .withRequest('GET', '/api/commission-agents', (b) => b.headers(bearer(STAFF_TOKEN)).query({ page: '1', per_page: '100' }))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: eachLike({
            id: integer(1),
            name: like('Ana Ruiz'),
            dni: like('70000001'),
            status: like('ACTIVO'),
            issues_fee_receipts: boolean(false),
            version: integer(1),
          }),
          meta: { page: integer(1), per_page: integer(100), total: integer(1) },
        }),
      )
      .executeTest(async (mock) => {
        expect((await api(mock.url).agents({ page: 1, per_page: 100 })).data[0]?.issues_fee_receipts).toBe(false);
      });
  });

  it('marks an agent as issuing recibos por honorarios', async () => {
    await pact
      .addInteraction()
      .given(STATES.commissionEarned, { token: STAFF_TOKEN })
      .uponReceiving('a request to mark agent 1 as issuing recibos por honorarios')
      .withRequest('PATCH', '/api/commission-agents/1', (b) => b.headers(json).jsonBody({ version: 1, issues_fee_receipts: true }))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            id: integer(1),
            name: like('Ana Ruiz'),
            issues_fee_receipts: boolean(true),
            sales_head: nullValue(),
            version: integer(2),
          },
        }),
      )
      .executeTest(async (mock) => {
        expect((await api(mock.url).updateAgent(1, { version: 1, issues_fee_receipts: true })).issues_fee_receipts).toBe(true);
      });
  });

  it('creates a settlement of the period and agent (201, BORRADOR)', async () => {
    const body = { currency: 'PEN' as const, period_from: SALE_DATE, period_to: SALE_DATE, agent_ids: [1] };
    await pact
      .addInteraction()
      .given(STATES.commissionEarned, { token: STAFF_TOKEN })
      .uponReceiving('a request to settle the earned commissions of agent 1')
      .withRequest('POST', '/api/commission-settlements', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(201, (b) => b.jsonBody({ data: settlement('BORRADOR', 'DEVENGADA') }))
      .executeTest(async (mock) => {
        const created = await api(mock.url).createSettlement(body);
        expect(created).toMatchObject({ state: 'BORRADOR', total: 90_000 });
        expect(created.lines[0]?.id).toBe(1);
      });
  });

  it('refuses to settle a commission already in a settlement (409)', async () => {
    const body = { currency: 'PEN' as const, period_from: SALE_DATE, period_to: SALE_DATE, agent_ids: [1], commission_ids: [1] };
    await pact
      .addInteraction()
      .given(STATES.settlementDraftExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to settle commission 1 again')
      .withRequest('POST', '/api/commission-settlements', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(409, (b) => b.jsonBody({ message: like('La comisión 1 ya está en la liquidación LQ-000001') }))
      .executeTest(async (mock) => {
        expect((await caught(api(mock.url).createSettlement(body))).status).toBe(409);
      });
  });

  it('lists the settlements in a state', async () => {
    const { agents: _a, lines: _l, ...row } = settlement('BORRADOR', 'DEVENGADA');
    await pact
      .addInteraction()
      .given(STATES.settlementDraftExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the draft settlements')
      .withRequest('GET', '/api/commission-settlements', (b) => b.headers(bearer(STAFF_TOKEN)).query({ per_page: '20', state: 'BORRADOR' }))
      .willRespondWith(200, (b) =>
        b.jsonBody({ data: eachLike(row), meta: { page: integer(1), per_page: integer(20), total: integer(1) } }),
      )
      .executeTest(async (mock) => {
        expect((await api(mock.url).settlements({ page: 1, per_page: 20, filters: { state: 'BORRADOR' } })).data[0]?.number).toBe(
          'LQ-000001',
        );
      });
  });

  it('opens a settlement with its agents and lines', async () => {
    await pact
      .addInteraction()
      .given(STATES.settlementDraftExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for settlement 1')
      .withRequest('GET', '/api/commission-settlements/1', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) => b.jsonBody({ data: settlement('BORRADOR', 'DEVENGADA') }))
      .executeTest(async (mock) => {
        expect((await api(mock.url).settlement(1)).agents[0]?.net).toBe(90_000);
      });
  });

  it('approves a draft settlement: its lines LIQUIDADA', async () => {
    await pact
      .addInteraction()
      .given(STATES.settlementDraftExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to approve settlement 1')
      .withRequest('POST', '/api/commission-settlements/1/approve', (b) => b.headers(json).jsonBody({ version: 1 }))
      .willRespondWith(200, (b) => b.jsonBody({ data: settlement('APROBADA', 'LIQUIDADA', 2) }))
      .executeTest(async (mock) => {
        expect((await api(mock.url).approveSettlement(1, { version: 1 })).lines[0]?.state).toBe('LIQUIDADA');
      });
  });

  it('discards a draft settlement (204)', async () => {
    await pact
      .addInteraction()
      .given(STATES.settlementDraftExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to delete draft settlement 1')
      .withRequest('DELETE', '/api/commission-settlements/1', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(204)
      .executeTest(async (mock) => {
        await expect(api(mock.url).deleteSettlement(1)).resolves.toBeUndefined();
      });
  });

  it('uploads the payment voucher of an approved settlement (multipart voucher)', async () => {
    await pact
      .addInteraction()
      .given(STATES.settlementApprovedExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to upload the voucher of settlement 1')
      .withRequest('POST', '/api/commission-settlements/1/voucher', (b) =>
        b.headers(bearer(STAFF_TOKEN)).multipartBody('application/pdf', VOUCHER_PATH, 'voucher', PACT_BOUNDARY),
      )
      .willRespondWith(200, (b) => b.jsonBody({ data: { ...settlement('APROBADA', 'LIQUIDADA', 2), has_voucher: boolean(true) } }))
      .executeTest(async (mock) => {
        const file = new File([readFileSync(VOUCHER_PATH)], 'voucher.pdf', { type: 'application/pdf' });
        expect((await api(mock.url).uploadVoucher(1, file, 'voucher.pdf')).has_voucher).toBe(true);
      });
  });

  it('pays an approved settlement: operation number and date', async () => {
    const body = { version: 1, operation_number: 'OP-778', paid_on: SALE_DATE };
    await pact
      .addInteraction()
      .given(STATES.settlementApprovedExists, { token: STAFF_TOKEN })
      .uponReceiving('a request to pay settlement 1')
      .withRequest('POST', '/api/commission-settlements/1/pay', (b) => b.headers(json).jsonBody(body))
      .willRespondWith(200, (b) =>
        b.jsonBody({
          data: {
            ...settlement('PAGADA', 'PAGADA', 2),
            operation_number: like('OP-778'),
            paid_on: regex(DATE, SALE_DATE),
            has_voucher: boolean(true),
          },
        }),
      )
      .executeTest(async (mock) => {
        const paid = await api(mock.url).paySettlement(1, body);
        expect(paid).toMatchObject({ state: 'PAGADA', operation_number: 'OP-778' });
      });
  });

  it('reads the voucher of a settlement', async () => {
    await pact
      .addInteraction()
      .given(STATES.settlementApprovedExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the voucher of settlement 1')
      .withRequest('GET', '/api/commission-settlements/1/voucher', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) => b.headers({ 'Content-Type': regex(/^(application\/pdf|image\/(png|jpeg|webp))/, 'application/pdf') }))
      .executeTest(async (mock) => {
        expect((await api(mock.url).voucher(1)).size).toBeGreaterThanOrEqual(0);
      });
  });

  it('exports a settlement to Excel', async () => {
    await pact
      .addInteraction()
      .given(STATES.settlementDraftExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for settlement 1 as Excel')
      .withRequest('GET', '/api/commission-settlements/1/export', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) =>
        b.headers({
          'Content-Type': regex(
            /^application\/vnd\.openxmlformats-officedocument\.spreadsheetml\.sheet/,
            'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          ),
        }),
      )
      .executeTest(async (mock) => {
        expect(await api(mock.url).exportSettlement(1)).toBeInstanceOf(Blob);
      });
  });

  it('prints one agent’s liquidation as a PDF', async () => {
    await pact
      .addInteraction()
      .given(STATES.settlementDraftExists, { token: STAFF_TOKEN })
      .uponReceiving('a request for the PDF of agent 1 in settlement 1')
      .withRequest('GET', '/api/commission-settlements/1/agents/1/pdf', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) => b.headers({ 'Content-Type': regex(/^application\/pdf/, 'application/pdf') }))
      .executeTest(async (mock) => {
        expect(await api(mock.url).agentPdf(1, 1)).toBeInstanceOf(Blob);
      });
  });
});
