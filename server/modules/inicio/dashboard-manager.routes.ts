import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import {
  collectionsCardResponseSchema,
  leadsCardResponseSchema,
  lotsCardResponseSchema,
  overdueCardResponseSchema,
  salesCardResponseSchema,
  topAgentsCardResponseSchema,
} from '../../../src/schemas/inicio/dashboard';
import { ACTION, SUBMODULE } from '../../../src/schemas/permissions';
import { heldPermissions } from '../../auth/accounts';
import { requireAuth } from '../../auth/guard';
import { exportsOwner } from '../../auth/scopes';
import { todayInLimaBy } from '../../clock';
import type { AppDeps } from '../../context';
import { MAIN_BASE } from '../../platform/bases';
import { createKeptPages } from '../../platform/revision-texts';
import type { LeadScope } from '../crm/leads.repository';
import { dashboardCardAccess, dashboardCardQuerySchema } from './dashboard-access';
import { collectionsCard, leadsCard, listRevision, lotsCard, overdueCard, salesCard, topAgentsCard } from './dashboard-manager.service';

/**
 * Inicio's manager cards (src/schemas/inicio/dashboard.ts; docs/dashboard.md "Manager cards"):
 * GET /api/dashboard/sales, /collections, /overdue, /lots, /leads and /top-agents. The sales,
 * top-agents, collections and overdue answers are kept per revision of the lists they total and
 * per Lima day (server/platform/revision-texts.ts; `list_revisions` rows `sales`, `instalments` and
 * `payments`, migrations 0021, 0027 and 0049), keyed by the caller's scope; lots and leads are two
 * small reads each (kept counts, one grouped count).
 */
export function dashboardManagerRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  const sendPage = createKeptPages({ keep: deps.config.keepAnswers });
  const today = () => todayInLimaBy(deps.clock);
  /** The caller's Reporte de Ventas scope: the agent whose sales alone the report holds, or null (sales-report.routes.ts). */
  const reportOwner = (request: FastifyRequest) => exportsOwner(deps.db, request, SUBMODULE.reporteVentas);
  /** The caller's Leads scope (leads.routes.ts): own leads unless they hold 'Supervisar leads'. */
  const leadScope = async (request: FastifyRequest): Promise<LeadScope> => {
    const auth = requireAuth(request);
    const held = await heldPermissions(deps.db, auth.userType, auth.accountId, [ACTION.supervisarLeads]);
    return { userId: auth.accountId, supervisor: held.has(ACTION.supervisarLeads) };
  };

  return async (app) => {
    app.get(
      `${MAIN_BASE}/dashboard/sales`,
      {
        config: { access: dashboardCardAccess('sales') },
        schema: { querystring: dashboardCardQuerySchema, response: { 200: salesCardResponseSchema } },
      },
      async (request, reply) => {
        const owner = await reportOwner(request);
        const revision = `${await listRevision(deps.db, 'sales')}:${today()}`;
        return sendPage(request, reply, { name: `dashboard-sales:${owner ?? 'all'}`, query: {}, revision }, async () => ({
          data: await salesCard(deps, owner),
        }));
      },
    );

    app.get(
      `${MAIN_BASE}/dashboard/top-agents`,
      {
        config: { access: dashboardCardAccess('top-agents') },
        schema: { querystring: dashboardCardQuerySchema, response: { 200: topAgentsCardResponseSchema } },
      },
      async (request, reply) => {
        const owner = await reportOwner(request);
        const revision = `${await listRevision(deps.db, 'sales')}:${today()}`;
        return sendPage(request, reply, { name: `dashboard-top-agents:${owner ?? 'all'}`, query: {}, revision }, async () => ({
          data: await topAgentsCard(deps, owner),
        }));
      },
    );

    app.get(
      `${MAIN_BASE}/dashboard/collections`,
      {
        config: { access: dashboardCardAccess('collections') },
        schema: { querystring: dashboardCardQuerySchema, response: { 200: collectionsCardResponseSchema } },
      },
      async (request, reply) => {
        const revision = `${await listRevision(deps.db, 'payments')}:${await listRevision(deps.db, 'instalments')}:${today()}`;
        return sendPage(request, reply, { name: 'dashboard-collections', query: {}, revision }, async () => ({
          data: await collectionsCard(deps),
        }));
      },
    );

    app.get(
      `${MAIN_BASE}/dashboard/overdue`,
      {
        config: { access: dashboardCardAccess('overdue') },
        schema: { querystring: dashboardCardQuerySchema, response: { 200: overdueCardResponseSchema } },
      },
      async (request, reply) => {
        const revision = `${await listRevision(deps.db, 'instalments')}:${today()}`;
        return sendPage(request, reply, { name: 'dashboard-overdue', query: {}, revision }, async () => ({
          data: await overdueCard(deps),
        }));
      },
    );

    app.get(
      `${MAIN_BASE}/dashboard/lots`,
      {
        config: { access: dashboardCardAccess('lots') },
        schema: { querystring: dashboardCardQuerySchema, response: { 200: lotsCardResponseSchema } },
      },
      async () => ({ data: await lotsCard(deps) }),
    );

    app.get(
      `${MAIN_BASE}/dashboard/leads`,
      {
        config: { access: dashboardCardAccess('leads') },
        schema: { querystring: dashboardCardQuerySchema, response: { 200: leadsCardResponseSchema } },
      },
      async (request) => ({ data: await leadsCard(deps, await leadScope(request)) }),
    );
  };
}
