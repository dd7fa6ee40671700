import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  changeQuoteStatusRequestSchema,
  createQuoteRequestSchema,
  quoteResponseSchema,
  quotesPageSchema,
  quotesQuerySchema,
} from '../../../src/schemas/comercio/quotes';
import { idParamsSchema } from '../../../src/schemas/params';
import { auditContextOf } from '../../audit/audit';
import type { AppDeps } from '../../context';
import { parseId } from '../../errors';
import { MAIN_BASE } from '../../platform/bases';
import { sendPdf } from '../../platform/pdf';
import { RESERVATIONS_ACCESS } from './reservations.routes';
import { changeQuoteStatus, createQuote, getQuote, listQuotes, quotePdf } from './quotes.service';

/**
 * Comercial → cotizaciones: GET/POST /api/quotes, GET /api/quotes/{id}, GET /api/quotes/{id}/pdf,
 * POST /api/quotes/{id}/status.
 * Who may quote is who may reserve: 'Acceso módulo comercial' + 'Acceso submódulo ventas'.
 */
export function quotesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { access: RESERVATIONS_ACCESS };

    app.get(
      `${MAIN_BASE}/quotes`,
      { config, schema: { querystring: quotesQuerySchema, response: { 200: quotesPageSchema } } },
      async (request) => listQuotes(deps, request.query),
    );

    app.post(
      `${MAIN_BASE}/quotes`,
      { config, schema: { body: createQuoteRequestSchema, response: { 201: quoteResponseSchema } } },
      async (request, reply) =>
        reply.status(201).send({ data: await createQuote(deps, auditContextOf(request, deps.clock), request.body) }),
    );

    app.get(
      `${MAIN_BASE}/quotes/:id`,
      { config, schema: { params: idParamsSchema, response: { 200: quoteResponseSchema } } },
      async (request) => ({ data: await getQuote(deps, parseId(request.params.id)) }),
    );

    app.get(`${MAIN_BASE}/quotes/:id/pdf`, { config, schema: { params: idParamsSchema } }, async (request, reply) => {
      return sendPdf(reply, await quotePdf(deps, parseId(request.params.id)));
    });

    app.post(
      `${MAIN_BASE}/quotes/:id/status`,
      { config, schema: { params: idParamsSchema, body: changeQuoteStatusRequestSchema, response: { 200: quoteResponseSchema } } },
      async (request) => ({
        data: await changeQuoteStatus(deps, auditContextOf(request, deps.clock), parseId(request.params.id), request.body),
      }),
    );
  };
}
