import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  annulSaleRequestSchema,
  createSaleRequestSchema,
  proposedAgentQuerySchema,
  proposedAgentResponseSchema,
  saleResponseSchema,
  salesPageSchema,
  salesQuerySchema,
  saleAnnulmentResponseSchema,
} from '../../../src/schemas/comercio/sales';
import { idParamsSchema } from '../../../src/schemas/params';
import { ACTION } from '../../../src/schemas/permissions';
import { heldPermissions } from '../../auth/accounts';
import { requireAuth } from '../../auth/guard';
import { auditContextOf } from '../../audit/audit';
import type { AppDeps } from '../../context';
import { parseId } from '../../errors';
import { MAIN_BASE } from '../../platform/bases';
import { RESERVATIONS_ACCESS } from './reservations.routes';
import { createKeptPages } from '../../platform/revision-texts';
import { annulSale, assertSaleInScope, createSale, getSale, listSales, salesListRevision } from './sales.service';
import { salesOwner } from '../../auth/scopes';
import { saleAnnulment } from './sale-settlement';
import { proposedAgent } from './sale-agent';

/**
 * Comercial → ventas: GET/POST /api/sales, GET /api/sales/proposed-agent, GET /api/sales/{id},
 * GET /api/sales/{id}/annulment (the money an annulment settles), POST /api/sales/{id}/annul.
 * Who may sell is who may reserve: 'Acceso módulo comercial' + 'Acceso submódulo ventas';
 * crediting a sale to an agent other than the proposed one also needs 'Supervisar leads' (the
 * right to assign work to agents; docs/domain.md "Sales"). With 'Solo sus ventas'
 * (server/auth/scopes.ts) a caller lists, opens and annuls only the sales whose agent they are
 * (403 on another's, as leads); the kept pages are kept per scope.
 */
export function salesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { access: RESERVATIONS_ACCESS };
    // Pages kept per revision of the list (server/platform/revision-texts.ts; docs/performance.md
    // "The sales list"): read and serialised again only after a write that changes them.
    const sendPage = createKeptPages({ keep: deps.config.keepAnswers });

    app.get(
      `${MAIN_BASE}/sales`,
      { config, schema: { querystring: salesQuerySchema, response: { 200: salesPageSchema } } },
      async (request, reply) => {
        const revision = await salesListRevision(deps.db);
        const owner = await salesOwner(deps.db, request);
        const name = owner === null ? 'sales' : `sales:agent:${owner}`;
        return sendPage(request, reply, { name, query: request.query, revision }, () => listSales(deps, request.query, owner));
      },
    );

    app.post(
      `${MAIN_BASE}/sales`,
      { config, schema: { body: createSaleRequestSchema, response: { 201: saleResponseSchema } } },
      async (request, reply) => {
        // One extra permission read, only when an agent is named.
        const auth = requireAuth(request);
        const canAssignAgent =
          request.body.agent_id != null &&
          (await heldPermissions(deps.db, auth.userType, auth.accountId, [ACTION.supervisarLeads])).has(ACTION.supervisarLeads);
        const data = await createSale(deps, auditContextOf(request, deps.clock), request.body, { canAssignAgent });
        return reply.status(201).send({ data });
      },
    );

    app.get(
      `${MAIN_BASE}/sales/proposed-agent`,
      { config, schema: { querystring: proposedAgentQuerySchema, response: { 200: proposedAgentResponseSchema } } },
      async (request) => ({ data: await proposedAgent(deps.db, auditContextOf(request, deps.clock), request.query) }),
    );

    app.get(
      `${MAIN_BASE}/sales/:id`,
      { config, schema: { params: idParamsSchema, response: { 200: saleResponseSchema } } },
      async (request) => {
        const id = parseId(request.params.id);
        await assertSaleInScope(deps.db, id, await salesOwner(deps.db, request));
        return { data: await getSale(deps, id) };
      },
    );

    app.get(
      `${MAIN_BASE}/sales/:id/annulment`,
      { config, schema: { params: idParamsSchema, response: { 200: saleAnnulmentResponseSchema } } },
      async (request) => {
        const id = parseId(request.params.id);
        await assertSaleInScope(deps.db, id, await salesOwner(deps.db, request));
        return { data: await saleAnnulment(deps, id) };
      },
    );

    app.post(
      `${MAIN_BASE}/sales/:id/annul`,
      { config, schema: { params: idParamsSchema, body: annulSaleRequestSchema, response: { 200: saleResponseSchema } } },
      async (request) => {
        const id = parseId(request.params.id);
        await assertSaleInScope(deps.db, id, await salesOwner(deps.db, request));
        return { data: await annulSale(deps, auditContextOf(request, deps.clock), id, request.body) };
      },
    );
  };
}
