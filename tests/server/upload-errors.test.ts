import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { importPreviewResponseSchema } from '../../src/schemas/proyectos/projects';
import { systemAuditContext } from '../../server/audit/audit';
import { createSale } from '../../server/modules/comercio/sales.service';
import {
  createCustomer,
  createLot,
  createPayment,
  createSession,
  createStaff,
  createSubdivision,
  createWallet,
} from '../../server/testing/fixtures';
import { MALFORMED_UPLOAD_MESSAGE } from '../../server/uploads';
import { bearer, dialects, useTestApp, useTestDatabase } from './harness';

/**
 * Issue 11 items 6–7: malformed multipart bodies on every upload route, and GeoJSON features that
 * are not objects, are Spanish 422s on the upload field — they were 500s.
 */

/**
 * POSTs `body` over a real socket (content-length set, the whole body written before the answer is
 * read, as browsers and most clients do). `inject` hands the body over in one piece, where busboy
 * reports a truncated form differently than with a body arriving in packets.
 */
function postOverHttp(
  port: number,
  path: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, path, method: 'POST', headers: { ...headers, 'content-length': String(body.length) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const FILE_PART = 'Content-Disposition: form-data; name="FIELD"; filename="a.png"\r\nContent-Type: application/octet-stream\r\n\r\n';

describe.each(dialects)('upload errors (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  async function token(): Promise<string> {
    const staff = await createStaff(db(), {
      permissions: [MODULE.proyectos, SUBMODULE.lotizaciones, MODULE.configuracion, SUBMODULE.empresas],
    });
    return createSession(db(), staff);
  }

  it('no boundary, or no closing boundary: 422 on the file field of the plan, logo and both import routes', async () => {
    const auth = await token();
    const { key } = await createSubdivision(db());
    const routes = [
      { url: '/api/company/logo', field: 'logo' },
      { url: `/api/subdivisions/${key}/plan`, field: 'file' },
      { url: `/api/subdivisions/${key}/imports/preview`, field: 'file' },
      { url: `/api/subdivisions/${key}/imports`, field: 'file' },
    ];
    for (const { url, field } of routes) {
      const noBoundary = await ctx().app.inject({
        method: 'POST',
        url,
        payload: `--x\r\n${FILE_PART.replace('FIELD', field)}abc\r\n--x--\r\n`,
        headers: { 'content-type': 'multipart/form-data', ...bearer(auth) },
      });
      expect(noBoundary.statusCode, `${url} without boundary: ${noBoundary.body}`).toBe(422);
      expect(noBoundary.json()).toEqual({ message: MALFORMED_UPLOAD_MESSAGE, errors: { [field]: [MALFORMED_UPLOAD_MESSAGE] } });

      const unterminated = await ctx().app.inject({
        method: 'POST',
        url,
        payload: `--b\r\n${FILE_PART.replace('FIELD', field)}abc`,
        headers: { 'content-type': 'multipart/form-data; boundary=b', ...bearer(auth) },
      });
      expect(unterminated.statusCode, `${url} unterminated: ${unterminated.body}`).toBe(422);
      expect(unterminated.json()).toEqual({ message: MALFORMED_UPLOAD_MESSAGE, errors: { [field]: [MALFORMED_UPLOAD_MESSAGE] } });
    }
  });

  it('every multipart route: a body cut before its closing boundary, a boundary over 256 characters or none → 422 (docs/security.md 30.10)', async () => {
    const staff = await createStaff(db(), {
      permissions: [
        MODULE.proyectos,
        SUBMODULE.lotizaciones,
        MODULE.configuracion,
        SUBMODULE.empresas,
        MODULE.finanzas,
        SUBMODULE.pagos,
        SUBMODULE.billeteras,
        MODULE.crm,
        SUBMODULE.leads,
      ],
    });
    const auth = await createSession(db(), staff);
    const customer = await createCustomer(db());
    const customerAuth = await createSession(db(), customer);
    const { key, id: subdivisionId } = await createSubdivision(db());
    const lotId = await createLot(db(), subdivisionId, { block: 'U', number: '1' });
    const sale = await createSale({ db: db(), clock: ctx().clock }, systemAuditContext(ctx().clock), {
      lot_id: lotId,
      holders: [{ customer_id: customer.id, role: 'TITULAR', share_percent: '100' }],
      sale_date: '2026-02-01',
      down_payment_percent: '20',
      down_payment_parts: 1,
      instalments: 3,
      monthly_rate_percent: '0',
      method: 'SIN_INTERES',
      first_due_date: '2026-03-01',
    });
    const payment = await createPayment(db(), { saleId: sale.id });
    const wallet = await createWallet(db());
    const routes = [
      { url: '/api/company/logo', field: 'logo', token: auth },
      { url: `/api/subdivisions/${key}/plan`, field: 'file', token: auth },
      { url: `/api/subdivisions/${key}/imports/preview`, field: 'file', token: auth },
      { url: `/api/subdivisions/${key}/imports`, field: 'file', token: auth },
      { url: '/api/leads/imports/preview', field: 'file', token: auth },
      { url: '/api/leads/imports', field: 'file', token: auth },
      { url: `/api/payments/${payment}/vouchers`, field: 'voucher', token: auth },
      { url: `/api/customer/payments/${payment}/vouchers`, field: 'voucher', token: customerAuth },
      { url: `/api/wallets/${wallet}/qr`, field: 'qr', token: auth },
    ];
    await ctx().app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx().app.server.address() as AddressInfo;
    const longBoundary = 'z'.repeat(300);
    for (const { url, field, token } of routes) {
      const head = `--b\r\n${FILE_PART.replace('FIELD', field)}`;
      const cases = [
        // "Part terminated early due to unexpected end of multipart data" (busboy), over a socket…
        { name: 'cut short (socket)', via: 'http', type: 'multipart/form-data; boundary=b', body: `${head}abc\r\n` },
        // …and in one piece when the part is larger than busboy's first read.
        { name: 'cut short (large part)', via: 'inject', type: 'multipart/form-data; boundary=b', body: `${head}${'x'.repeat(200_000)}` },
        {
          name: 'boundary too long',
          via: 'http',
          type: `multipart/form-data; boundary=${longBoundary}`,
          body: `--${longBoundary}\r\n${FILE_PART.replace('FIELD', field)}abc\r\n--${longBoundary}--\r\n`,
        },
        { name: 'no boundary', via: 'http', type: 'multipart/form-data', body: `${head}abc\r\n--b--\r\n` },
      ];
      for (const c of cases) {
        const headers = { 'content-type': c.type, ...bearer(token) };
        const res =
          c.via === 'http'
            ? await postOverHttp(port, url, headers, Buffer.from(c.body))
            : await ctx()
                .app.inject({ method: 'POST', url, payload: c.body, headers })
                .then((r) => ({ status: r.statusCode, body: r.body }));
        expect(res.status, `${url} ${c.name}: ${res.body}`).toBe(422);
        expect(JSON.parse(res.body), `${url} ${c.name}`).toEqual({
          message: MALFORMED_UPLOAD_MESSAGE,
          errors: { [field]: [MALFORMED_UPLOAD_MESSAGE] },
        });
      }
    }
  });

  it('`{"type":"FeatureCollection","features":[null]}`: a located ERROR in the preview, a 422 on import', async () => {
    const auth = await token();
    const { key } = await createSubdivision(db());
    const boundary = 'g';
    const body = (json: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="l.geojson"\r\nContent-Type: application/geo+json\r\n\r\n${json}\r\n--${boundary}--\r\n`;
    const headers = { 'content-type': `multipart/form-data; boundary=${boundary}`, ...bearer(auth) };
    const json = '{"type":"FeatureCollection","features":[null]}';
    const preview = await ctx().app.inject({
      method: 'POST',
      url: `/api/subdivisions/${key}/imports/preview`,
      payload: body(json),
      headers,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    const issues = importPreviewResponseSchema.parse(preview.json()).data.issues;
    expect(issues[0]).toMatchObject({ severity: 'ERROR', location: 'elemento 1' });
    const commit = await ctx().app.inject({ method: 'POST', url: `/api/subdivisions/${key}/imports`, payload: body(json), headers });
    expect(commit.statusCode, commit.body).toBe(422);
    expect(commit.json().errors.file[0]).toMatch(/^elemento 1: El elemento no es un Feature de GeoJSON/);
  });
});
