import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageResponseSchema } from '../../../src/schemas/common';
import {
  CUSTOMER_MESSAGES,
  createCustomerRequestSchema,
  customerResponseSchema,
  customersPageSchema,
  customersQuerySchema,
  staffOptionsPageSchema,
  staffOptionsQuerySchema,
  updateCustomerRequestSchema,
} from '../../../src/schemas/crm/customers';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { idParamsSchema } from '../../../src/schemas/params';
import { auditContextOf } from '../../audit/audit';
import { staffWith, staffWithAnyOf } from '../../auth/guard';
import { customersOwner } from '../../auth/scopes';
import type { AppDeps } from '../../context';
import { parseId } from '../../errors';
import { MAIN_BASE } from '../../platform/bases';
import { listStaffOptions } from './customers.repository';
import {
  assertCustomerInScope,
  createCustomer,
  deleteCustomer,
  getCustomer,
  listCustomers,
  scopedCustomerBody,
  sendCustomerPortalLink,
  updateCustomer,
} from './customers.service';

/** Who may manage customers: 'Acceso módulo CRM' + 'Acceso submódulo clientes'. */
export const CUSTOMERS_ACCESS = staffWith(MODULE.crm, SUBMODULE.clientes);

/** Who may list staff to assign (agents, collectors): whoever manages customers, leads or sales. */
export const STAFF_OPTIONS_ACCESS = staffWithAnyOf(
  [MODULE.crm, SUBMODULE.clientes],
  [MODULE.crm, SUBMODULE.leads],
  [MODULE.comercial, SUBMODULE.ventas],
);

/**
 * CRM → Clientes: GET/POST /api/customers, GET/PATCH/DELETE /api/customers/{id},
 * POST /api/customers/{id}/send-password-reset; and GET /api/staff-options (active staff for the
 * agent and collector pickers). Every mutation writes its change history in its transaction. With
 * 'Solo sus clientes' (server/auth/scopes.ts) a caller lists and reaches only the customers whose
 * asesor they are (403 on another's, as leads) and registers customers only as their asesor.
 */
export function customersCrmRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { access: CUSTOMERS_ACCESS };

    app.get(
      `${MAIN_BASE}/customers`,
      { config, schema: { querystring: customersQuerySchema, response: { 200: customersPageSchema } } },
      async (request) => listCustomers(deps.db, request.query, await customersOwner(deps.db, request)),
    );

    app.post(
      `${MAIN_BASE}/customers`,
      { config, schema: { body: createCustomerRequestSchema, response: { 201: customerResponseSchema } } },
      async (request, reply) => {
        const body = scopedCustomerBody(request.body, await customersOwner(deps.db, request), true);
        const data = await createCustomer(deps, auditContextOf(request, deps.clock), body);
        return reply.status(201).send({ data });
      },
    );

    app.get(
      `${MAIN_BASE}/customers/:id`,
      { config, schema: { params: idParamsSchema, response: { 200: customerResponseSchema } } },
      async (request) => {
        const id = parseId(request.params.id);
        await assertCustomerInScope(deps.db, id, await customersOwner(deps.db, request));
        return { data: await getCustomer(deps.db, id) };
      },
    );

    app.patch(
      `${MAIN_BASE}/customers/:id`,
      { config, schema: { params: idParamsSchema, body: updateCustomerRequestSchema, response: { 200: customerResponseSchema } } },
      async (request) => {
        const id = parseId(request.params.id);
        const owner = await customersOwner(deps.db, request);
        await assertCustomerInScope(deps.db, id, owner);
        return {
          data: await updateCustomer(deps, auditContextOf(request, deps.clock), id, scopedCustomerBody(request.body, owner, false)),
        };
      },
    );

    app.delete(`${MAIN_BASE}/customers/:id`, { config, schema: { params: idParamsSchema } }, async (request, reply) => {
      const id = parseId(request.params.id);
      await assertCustomerInScope(deps.db, id, await customersOwner(deps.db, request));
      await deleteCustomer(deps, auditContextOf(request, deps.clock), id);
      return reply.status(204).send();
    });

    app.post(
      `${MAIN_BASE}/customers/:id/send-password-reset`,
      { config, schema: { params: idParamsSchema, response: { 200: messageResponseSchema } } },
      async (request) => {
        const id = parseId(request.params.id);
        await assertCustomerInScope(deps.db, id, await customersOwner(deps.db, request));
        await sendCustomerPortalLink(deps, id);
        return { message: CUSTOMER_MESSAGES.resetSent };
      },
    );

    app.get(
      `${MAIN_BASE}/staff-options`,
      {
        config: { access: STAFF_OPTIONS_ACCESS },
        schema: { querystring: staffOptionsQuerySchema, response: { 200: staffOptionsPageSchema } },
      },
      async (request) => listStaffOptions(deps.db, request.query),
    );
  };
}
