import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { companyResponseSchema, LOGO_MAX_BYTES, updateCompanyRequestSchema } from '../../../src/schemas/configuracion/company';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { auditContextOf } from '../../audit/audit';
import { staffWith } from '../../auth/guard';
import type { AppDeps } from '../../context';
import { fieldError } from '../../errors';
import { uploadError } from '../../uploads';
import { MAIN_BASE } from '../../platform/bases';
import { findLogo, getCompany, LOGO_PATH, saveLogo, updateCompany } from './companies.service';
import { LOGO_MESSAGES } from './logo';

/** Who may manage the company and its locals: 'Acceso módulo configuración' + 'Acceso submódulo empresas'. */
export const COMPANY_ACCESS = staffWith(MODULE.configuracion, SUBMODULE.empresas);

let productLogoBytes: Promise<Buffer> | undefined;
/** Parcela's logo (`public/logo.svg`, our own file), read once. @throws when the file is missing. */
function productLogo(publicDir: string): Promise<Buffer> {
  productLogoBytes ??= readFile(join(publicDir, 'logo.svg'));
  return productLogoBytes;
}

/**
 * Configuración → Empresas: GET|PATCH /api/company, POST /api/company/logo (multipart, field
 * `logo`, ≤ 1 MB, PNG/JPEG/SVG) and the public GET /logo serving it (SPEC public base).
 */
export function companiesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { access: COMPANY_ACCESS };

    app.get(`${MAIN_BASE}/company`, { config, schema: { response: { 200: companyResponseSchema } } }, async () => ({
      data: await getCompany(deps.db),
    }));

    app.patch(
      `${MAIN_BASE}/company`,
      { config, schema: { body: updateCompanyRequestSchema, response: { 200: companyResponseSchema } } },
      async (request) => ({
        data: await updateCompany(deps, auditContextOf(request, deps.clock), request.body),
      }),
    );

    app.post(`${MAIN_BASE}/company/logo`, { config, schema: { response: { 200: companyResponseSchema } } }, async (request) => {
      let bytes: Buffer;
      try {
        const file = await request.file({ limits: { fileSize: LOGO_MAX_BYTES, files: 1, fields: 0, parts: 1 } });
        if (!file || file.fieldname !== 'logo') throw fieldError('logo', LOGO_MESSAGES.missing);
        bytes = await file.toBuffer();
      } catch (error) {
        throw uploadError(error, 'logo', LOGO_MESSAGES);
      }
      return { data: await saveLogo(deps, auditContextOf(request, deps.clock), bytes) };
    });

    // Public: the logo appears on the login pages and documents. SVGs are served with a CSP that
    // forbids scripts, so even a missed vector would not run.
    app.get(LOGO_PATH, { config: { access: 'public' } }, async (_request, reply) => {
      const logo = await findLogo(deps.db);
      // No uploaded logo: Parcela's own, so pages never log a failed image load (issue 9).
      if (!logo)
        return reply
          .header('content-type', 'image/svg+xml')
          .header('cache-control', 'no-cache')
          .send(await productLogo(deps.config.publicDir));
      return reply
        .header('content-type', logo.contentType)
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'public, max-age=300')
        .header('last-modified', new Date(logo.updatedAt).toUTCString())
        .send(logo.data);
    });
  };
}
