import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CONTRACT_TEMPLATE_MESSAGES,
  TEMPLATE_LIMITS,
  contractTemplateSchema,
  contractTemplatesPageSchema,
  contractTemplatesQuerySchema,
  createContractTemplateRequestSchema,
  templateVersionActionRequestSchema,
  updateContractTemplateRequestSchema,
} from '../../../src/schemas/administracion/contract-templates';
import { idParamsSchema } from '../../../src/schemas/params';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { auditContextOf } from '../../audit/audit';
import { staffWith } from '../../auth/guard';
import type { AppDeps } from '../../context';
import { errorHandler, HttpError, parseId } from '../../errors';
import { MAIN_BASE } from '../../platform/bases';
import {
  createContractTemplate,
  getContractTemplate,
  listContractTemplates,
  newContractTemplateVersion,
  publishContractTemplate,
  updateContractTemplate,
} from './contract-templates.service';

/** Administración → Generar contrato (templates tab): 'Acceso módulo administración' + 'Acceso submódulo generar contrato'. */
export const CONTRACT_TEMPLATES_ACCESS = staffWith(MODULE.administracion, SUBMODULE.generarContrato);

/**
 * Bytes a template's JSON body may have: the document's 1 MB cap (TEMPLATE_LIMITS.maxJsonBytes,
 * checked on the parsed document → 422 on `content`) plus room for the name and the wire's
 * whitespace. A larger body (a 5 MB paste) is refused with 413 {@link CONTRACT_TEMPLATE_MESSAGES}.tooLarge
 * before it is parsed (docs/security.md 33.11).
 */
export const TEMPLATE_BODY_LIMIT = TEMPLATE_LIMITS.maxJsonBytes + 200_000;

/** The app's error handler, with a template's own 413 text for a body past {@link TEMPLATE_BODY_LIMIT}. */
function templateErrorHandler(error: FastifyError | HttpError, request: FastifyRequest, reply: FastifyReply): void {
  if (!(error instanceof HttpError) && (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || error.statusCode === 413)) {
    void reply.status(413).send({ message: CONTRACT_TEMPLATE_MESSAGES.tooLarge });
    return;
  }
  errorHandler(error, request, reply);
}

const templateResponseSchema = z.object({ data: contractTemplateSchema });

/**
 * Contract templates (docs/domain.md "Contract templates"; src/schemas/administracion/
 * contract-templates.ts): GET/POST /api/contract-templates, GET/PATCH /api/contract-templates/{id},
 * POST /api/contract-templates/{id}/publish, POST /api/contract-templates/{id}/new-version.
 */
export function contractTemplatesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { access: CONTRACT_TEMPLATES_ACCESS };
    const write = { config, bodyLimit: TEMPLATE_BODY_LIMIT, errorHandler: templateErrorHandler };

    app.get(
      `${MAIN_BASE}/contract-templates`,
      { config, schema: { querystring: contractTemplatesQuerySchema, response: { 200: contractTemplatesPageSchema } } },
      async (request) => listContractTemplates(deps, request.query),
    );

    app.post(
      `${MAIN_BASE}/contract-templates`,
      { ...write, schema: { body: createContractTemplateRequestSchema, response: { 201: templateResponseSchema } } },
      async (request, reply) =>
        reply.status(201).send({ data: await createContractTemplate(deps, auditContextOf(request, deps.clock), request.body) }),
    );

    app.get(
      `${MAIN_BASE}/contract-templates/:id`,
      { config, schema: { params: idParamsSchema, response: { 200: templateResponseSchema } } },
      async (request) => ({ data: await getContractTemplate(deps, parseId(request.params.id)) }),
    );

    app.patch(
      `${MAIN_BASE}/contract-templates/:id`,
      {
        ...write,
        schema: { params: idParamsSchema, body: updateContractTemplateRequestSchema, response: { 200: templateResponseSchema } },
      },
      async (request) => ({
        data: await updateContractTemplate(deps, auditContextOf(request, deps.clock), parseId(request.params.id), request.body),
      }),
    );

    app.post(
      `${MAIN_BASE}/contract-templates/:id/publish`,
      { config, schema: { params: idParamsSchema, body: templateVersionActionRequestSchema, response: { 200: templateResponseSchema } } },
      async (request) => ({
        data: await publishContractTemplate(deps, auditContextOf(request, deps.clock), parseId(request.params.id), request.body),
      }),
    );

    app.post(
      `${MAIN_BASE}/contract-templates/:id/new-version`,
      { config, schema: { params: idParamsSchema, body: templateVersionActionRequestSchema, response: { 201: templateResponseSchema } } },
      async (request, reply) =>
        reply.status(201).send({
          data: await newContractTemplateVersion(deps, auditContextOf(request, deps.clock), parseId(request.params.id), request.body),
        }),
    );
  };
}
