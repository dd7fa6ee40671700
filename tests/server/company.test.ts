import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { companyResponseSchema, localsPageSchema, LOGO_MAX_BYTES } from '../../src/schemas/configuracion/company';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { MESSAGES } from '../../server/errors';
import { COMPANY_MESSAGES } from '../../server/modules/configuracion/companies.service';
import { LOGO_MESSAGES, SVG_LIMITS } from '../../server/modules/configuracion/logo';
import { LOCAL_MESSAGES } from '../../server/modules/configuracion/locals.service';
import { createSession, createStaff, ensureCompany } from '../../server/testing/fixtures';
import { bearer, dialects, getWithToken, useTestApp, useTestDatabase, multipartBody } from './harness';
import { png, TINY_PNG } from './images';

/** Configuración → Empresas: /api/company, /api/company/logo, GET /logo, /api/locals. */

const COMPANY_PERMISSIONS = [MODULE.configuracion, SUBMODULE.empresas];
/** A real PNG: a logo must decode (docs/security.md 30.6). */
const PNG = TINY_PNG;
const SAFE_SVG = Buffer.from(
  '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="10" height="10" fill="#123"/></svg>',
);

/** A multipart/form-data body with one file part. */
function multipart(field: string, filename: string, contentType: string, content: Buffer) {
  return multipartBody({ field, filename, contentType, content });
}

describe.each(dialects)('company and locals (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  const manager = async () => {
    await ensureCompany(db());
    return createSession(db(), await createStaff(db(), { permissions: COMPANY_PERMISSIONS }));
  };
  const upload = async (token: string, body: ReturnType<typeof multipart>) =>
    ctx().app.inject({ method: 'POST', url: '/api/company/logo', payload: body.payload, headers: { ...body.headers, ...bearer(token) } });
  const companyHistory = () => db().selectFrom('change_history').selectAll().where('entity', '=', 'companies').orderBy('id').execute();

  describe('/api/company', () => {
    it('reads and updates the company, recording the UPDATE', async () => {
      const token = await manager();
      const res = await ctx().app.inject({
        method: 'PATCH',
        url: '/api/company',
        headers: bearer(token),
        payload: {
          business_name: 'Lotes del Norte S.A.C.',
          ruc: '20605123458',
          legal_representative: 'María Pérez',
          email: 'Info@Norte.pe',
        },
      });
      expect(res.statusCode).toBe(200);
      expect(companyResponseSchema.parse(res.json()).data).toMatchObject({
        business_name: 'Lotes del Norte S.A.C.',
        ruc: '20605123458',
        legal_representative: 'María Pérez',
        email: 'info@norte.pe',
      });
      expect((await getWithToken(ctx().app, '/api/company', token)).json().data.ruc).toBe('20605123458');
      const last = (await companyHistory()).at(-1)!;
      expect(JSON.parse(last.changed_fields)).toEqual(expect.arrayContaining(['business_name', 'ruc', 'legal_representative', 'email']));
    });

    it.each([
      ['an invalid RUC', { ruc: '20605123457' }, 'ruc', 'El RUC no es válido (11 dígitos con dígito verificador)'],
      ['an unknown key', { subscription_active: 1 }, 'subscription_active', MESSAGES.unknownField],
      ['an empty body', {}, 'body', 'Indique al menos un campo'],
    ])('rejects %s with 422', async (_label, payload, field, message) => {
      const token = await manager();
      const res = await ctx().app.inject({ method: 'PATCH', url: '/api/company', headers: bearer(token), payload });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors[field]).toEqual([message]);
    });

    it('rejects a RUC another company holds with 422', async () => {
      const token = await manager();
      await db()
        .insertInto('companies')
        .values({
          business_name: 'Otra',
          ruc: '20100070970',
          address: 'x',
          phone: null,
          email: null,
          subscription_active: 1,
          created_at: new Date().toISOString(),
        })
        .execute();
      const res = await ctx().app.inject({ method: 'PATCH', url: '/api/company', headers: bearer(token), payload: { ruc: '20100070970' } });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ ruc: [COMPANY_MESSAGES.duplicateRuc] });
      await db().deleteFrom('companies').where('ruc', '=', '20100070970').execute();
    });

    it('is 403 without the Empresas submodule', async () => {
      const other = await createStaff(db(), { permissions: [MODULE.configuracion, SUBMODULE.usuarios] });
      expect((await getWithToken(ctx().app, '/api/company', await createSession(db(), other))).statusCode).toBe(403);
    });
  });

  describe('logo', () => {
    it("serves Parcela's logo at /logo while the company has none (never a 404)", async () => {
      const served = await ctx().app.inject({ method: 'GET', url: '/logo' });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/svg+xml');
      expect(served.headers['cache-control']).toBe('no-cache');
      expect(served.body).toContain('<svg');
    });

    it('stores a PNG and serves it publicly at /logo', async () => {
      const token = await manager();
      const res = await upload(token, multipart('logo', 'logo.png', 'image/png', PNG));
      expect(res.statusCode).toBe(200);
      expect(res.json().data.logo_url).toMatch(/^\/logo\?v=\d+$/);
      const served = await ctx().app.inject({ method: 'GET', url: '/logo' });
      expect(served.statusCode).toBe(200);
      expect(served.headers['content-type']).toBe('image/png');
      expect(served.rawPayload.equals(PNG)).toBe(true);
      const last = (await companyHistory()).at(-1)!;
      expect(JSON.parse(last.changed_fields)).toEqual(expect.arrayContaining(['logo_content_type', 'logo_updated_at']));
      expect(last.after).not.toContain('logo_data');
    });

    it('accepts a clean SVG and serves it with a script-blocking CSP', async () => {
      const token = await manager();
      expect((await upload(token, multipart('logo', 'logo.svg', 'image/svg+xml', SAFE_SVG))).statusCode).toBe(200);
      const served = await ctx().app.inject({ method: 'GET', url: '/logo' });
      expect(served.headers['content-type']).toBe('image/svg+xml');
      expect(served.headers['content-security-policy']).toContain("default-src 'none'");
    });

    it('stores a drawing-program SVG as DOMPurify leaves it: shapes, gradients and local <use> kept, editor metadata dropped', async () => {
      const token = await manager();
      const svg = Buffer.from(
        '<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" ' +
          'xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd" viewBox="0 0 20 10" inkscape:version="1.3"><sodipodi:namedview id="v"/>' +
          '<defs><linearGradient id="g"><stop offset="0" stop-color="#123"/></linearGradient><path id="p" d="M0 0h5v5z"/></defs>' +
          '<style>.a{fill:url(#g)}</style><use xlink:href="#p" class="a"/><text x="8" y="8">Lotes &amp; Casas</text></svg>',
      );
      expect((await upload(token, multipart('logo', 'logo.svg', 'image/svg+xml', svg))).statusCode).toBe(200);
      const served = (await ctx().app.inject({ method: 'GET', url: '/logo' })).body;
      expect(served).toContain('viewBox="0 0 20 10"');
      expect(served).toContain('<linearGradient id="g">');
      expect(served).toContain('xlink:href="#p"');
      expect(served).toContain('Lotes &amp; Casas');
      expect(served).not.toContain('sodipodi');
      expect(served).not.toContain('inkscape');
    });

    it.each([
      ['a script', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'],
      ['an event handler', '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"></svg>'],
      ['a javascript: link', '<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><rect/></a></svg>'],
      ['a foreignObject', '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><div/></foreignObject></svg>'],
      // Issue 11 item 13: the text filter let these through.
      [
        'a script in the XHTML namespace',
        '<svg xmlns="http://www.w3.org/2000/svg"><x:script xmlns:x="http://www.w3.org/1999/xhtml">alert(1)</x:script></svg>',
      ],
      ['a script tag split by a comment', '<svg xmlns="http://www.w3.org/2000/svg"><scr<!---->ipt>alert(1)</scr<!---->ipt></svg>'],
      [
        'an XML Events handler',
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:ev="http://www.w3.org/2001/xml-events"><rect ev:event="click" width="1"/></svg>',
      ],
      [
        'an xlink:href to javascript:',
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="java&#x09;script:alert(1)"><rect/></a></svg>',
      ],
      ['a <use> of an external file', '<svg xmlns="http://www.w3.org/2000/svg"><use href="https://evil.example/x.svg#a"/></svg>'],
      ['a stylesheet import', '<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(https://evil.example/x.css);</style></svg>'],
    ])('rejects an SVG with %s (422, nothing stored)', async (_label, svg) => {
      const token = await manager();
      const before = (await companyHistory()).length;
      const res = await upload(token, multipart('logo', 'x.svg', 'image/svg+xml', Buffer.from(svg)));
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ logo: [LOGO_MESSAGES.unsafeSvg] });
      expect((await companyHistory()).length).toBe(before);
    });

    it.each([
      [
        'a file over 1 MB',
        multipart('logo', 'big.png', 'image/png', Buffer.concat([PNG, Buffer.alloc(LOGO_MAX_BYTES)])),
        LOGO_MESSAGES.tooLarge,
      ],
      [
        'a non-image (named .png)',
        multipart('logo', 'fake.png', 'image/png', Buffer.from('%PDF-1.7 not an image')),
        LOGO_MESSAGES.notImage,
      ],
      ['another field name', multipart('file', 'logo.png', 'image/png', PNG), LOGO_MESSAGES.missing],
    ])('rejects %s with 422 on logo', async (_label, body, message) => {
      const token = await manager();
      const before = (await companyHistory()).length;
      const res = await upload(token, body);
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ logo: [message] });
      expect((await companyHistory()).length).toBe(before);
    });

    // docs/security.md 30.5: 20 000 nested groups (~140 KB) froze the server for six minutes, then 500.
    it('refuses an SVG of 20 000 nested groups, or of more elements than allowed, with a Spanish 422 before parsing it', async () => {
      const token = await manager();
      const nested = `<svg xmlns="http://www.w3.org/2000/svg">${'<g>'.repeat(20_000)}<rect width="1" height="1"/>${'</g>'.repeat(20_000)}</svg>`;
      const flat = `<svg xmlns="http://www.w3.org/2000/svg">${'<rect width="1" height="1"/>'.repeat(SVG_LIMITS.maxElements + 1)}</svg>`;
      for (const svg of [nested, flat]) {
        const started = performance.now();
        const res = await upload(token, multipart('logo', 'x.svg', 'image/svg+xml', Buffer.from(svg)));
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json().errors).toEqual({ logo: [LOGO_MESSAGES.svgTooComplex] });
        // Counted by a streaming tokenizer, never parsed: seconds at most even on a loaded machine (was 362 s).
        expect(performance.now() - started).toBeLessThan(10_000);
      }
      // At the limits it is still a logo.
      const deep = `<svg xmlns="http://www.w3.org/2000/svg">${'<g>'.repeat(SVG_LIMITS.maxDepth - 2)}<rect width="1" height="1"/>${'</g>'.repeat(SVG_LIMITS.maxDepth - 2)}</svg>`;
      expect((await upload(token, multipart('logo', 'deep.svg', 'image/svg+xml', Buffer.from(deep)))).statusCode).toBe(200);
    });

    // docs/security.md 30.6: a 6 000 × 6 000 logo made every receipt and quote PDF take 14 s.
    it('refuses a PNG or JPEG over 2 000 px a side (real or only declared) and a damaged one, with a Spanish 422', async () => {
      const token = await manager();
      const big = await sharp({ create: { width: 6000, height: 6000, channels: 4, background: '#123456' } })
        .png()
        .toBuffer();
      const declared = png(65_535, 65_535, 200);
      const jpeg = await sharp({ create: { width: 2001, height: 10, channels: 3, background: '#123456' } })
        .jpeg()
        .toBuffer();
      for (const [bytes, size] of [
        [big, { width: 6000, height: 6000 }],
        [declared, { width: 65_535, height: 65_535 }],
        [jpeg, { width: 2001, height: 10 }],
      ] as const) {
        const res = await upload(token, multipart('logo', 'logo.png', 'image/png', bytes));
        expect(res.statusCode, res.body).toBe(422);
        expect(res.json().errors).toEqual({ logo: [LOGO_MESSAGES.tooManyPixels(size)] });
      }
      const damaged = await upload(token, multipart('logo', 'logo.png', 'image/png', png(100, 100, 400)));
      expect(damaged.statusCode, damaged.body).toBe(422);
      expect(damaged.json().errors).toEqual({ logo: [LOGO_MESSAGES.damaged] });
    });

    it('stores, with a logo of up to 2 000 px, a PNG copy of at most 600 px for the PDFs (an SVG too)', async () => {
      const token = await manager();
      const wide = await sharp({ create: { width: 2000, height: 800, channels: 4, background: '#2d72d2' } })
        .png()
        .toBuffer();
      expect((await upload(token, multipart('logo', 'logo.png', 'image/png', wide))).statusCode).toBe(200);
      const stored = await db().selectFrom('companies').select(['logo_data', 'logo_pdf_data']).orderBy('id').executeTakeFirstOrThrow();
      expect(Buffer.from(stored.logo_data!).equals(wide)).toBe(true);
      expect(await sharp(Buffer.from(stored.logo_pdf_data!)).metadata()).toMatchObject({ format: 'png', width: 600, height: 240 });
      expect((await upload(token, multipart('logo', 'logo.svg', 'image/svg+xml', SAFE_SVG))).statusCode).toBe(200);
      const svgCopy = await db().selectFrom('companies').select('logo_pdf_data').orderBy('id').executeTakeFirstOrThrow();
      expect(await sharp(Buffer.from(svgCopy.logo_pdf_data!)).metadata()).toMatchObject({ format: 'png', width: 600, height: 600 });
    });

    it('rejects a JSON body with 422 on logo', async () => {
      const token = await manager();
      const res = await ctx().app.inject({ method: 'POST', url: '/api/company/logo', headers: bearer(token), payload: { logo: 'x' } });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toEqual({ logo: [LOGO_MESSAGES.missing] });
    });
  });

  describe('/api/locals', () => {
    it('creates, updates, deactivates and reactivates a local; row 9 follows', async () => {
      const token = await manager();
      const created = await ctx().app.inject({
        method: 'POST',
        url: '/api/locals',
        headers: bearer(token),
        payload: { name: `Sede ${dialect}`, address: 'Av. Uno 1' },
      });
      expect(created.statusCode).toBe(201);
      const id = created.json().data.id as number;
      expect(created.json().data).toMatchObject({ active: true });
      const patched = await ctx().app.inject({
        method: 'PATCH',
        url: `/api/locals/${id}`,
        headers: bearer(token),
        payload: { address: 'Av. Dos 2' },
      });
      expect(patched.json().data).toMatchObject({ address: 'Av. Dos 2' });
      expect(
        (await ctx().app.inject({ method: 'POST', url: `/api/locals/${id}/deactivate`, headers: bearer(token) })).json().data.active,
      ).toBe(false);
      const publicList = (await ctx().app.inject({ method: 'GET', url: '/api/private/ver_locales_activos' })).json().message as {
        id: number;
      }[];
      expect(publicList.map((l) => l.id)).not.toContain(id);
      const again = await ctx().app.inject({ method: 'POST', url: `/api/locals/${id}/deactivate`, headers: bearer(token) });
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ message: LOCAL_MESSAGES.alreadyInactive });
      expect(
        (await ctx().app.inject({ method: 'POST', url: `/api/locals/${id}/activate`, headers: bearer(token) })).json().data.active,
      ).toBe(true);
      const history = await db()
        .selectFrom('change_history')
        .select('action')
        .where('entity', '=', 'locals')
        .where('record_id', '=', String(id))
        .orderBy('id')
        .execute();
      expect(history.map((h) => h.action)).toEqual(['CREATE', 'UPDATE', 'UPDATE', 'UPDATE']);
    });

    it('lists with paging, search and the active filter', async () => {
      const token = await manager();
      await ctx().app.inject({
        method: 'POST',
        url: '/api/locals',
        headers: bearer(token),
        payload: { name: 'Oficina Buscada', address: 'Jr. Sol 5' },
      });
      const page = localsPageSchema.parse((await getWithToken(ctx().app, '/api/locals?q=buscada&active=true', token)).json());
      expect(page.data.map((l) => l.name)).toEqual(['Oficina Buscada']);
      expect(page.meta).toEqual({ page: 1, per_page: 20, total: 1 });
    });

    it('rejects bad input (422) and unknown ids (404)', async () => {
      const token = await manager();
      const res = await ctx().app.inject({
        method: 'POST',
        url: '/api/locals',
        headers: bearer(token),
        payload: { name: '', address: 'x', active: true },
      });
      expect(res.statusCode).toBe(422);
      expect(res.json().errors).toMatchObject({ name: ['Ingrese el nombre del local'], active: [MESSAGES.unknownField] });
      expect(
        (await ctx().app.inject({ method: 'PATCH', url: '/api/locals/999999', headers: bearer(token), payload: { name: 'X' } })).statusCode,
      ).toBe(404);
    });
  });
});
