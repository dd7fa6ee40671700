import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createExpenseRequestSchema,
  deleteExpenseQuerySchema,
  expenseResponseSchema,
  expensesPageSchema,
  expensesQuerySchema,
  updateExpenseRequestSchema,
} from '../../../src/schemas/reportes/expenses';
import { MODULE } from '../../../src/schemas/permissions';
import { idParamsSchema } from '../../../src/schemas/params';
import { auditContextOf } from '../../audit/audit';
import { staffWith } from '../../auth/guard';
import type { AppDeps } from '../../context';
import { parseId } from '../../errors';
import { MAIN_BASE } from '../../platform/bases';
import { createExpense, deleteExpense, getExpense, listExpenses, updateExpense } from './expenses.service';

/** Who may read and write the expenses register: staff with 'Acceso módulo reportes económicos' (customers 403). */
export const EXPENSES_ACCESS = staffWith(MODULE.reportesEconomicos);

/**
 * Reportes económicos → Egresos (src/schemas/reportes/expenses.ts): GET|POST /api/expenses,
 * GET|PUT /api/expenses/{id} (PUT with the `version` read), DELETE /api/expenses/{id}?version=N
 * (204). A stale version is a 409; bad input a Spanish 422.
 */
export function expensesRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { access: EXPENSES_ACCESS };
    app.get(
      `${MAIN_BASE}/expenses`,
      { config, schema: { querystring: expensesQuerySchema, response: { 200: expensesPageSchema } } },
      async (request) => listExpenses(deps.db, request.query),
    );
    app.post(
      `${MAIN_BASE}/expenses`,
      { config, schema: { body: createExpenseRequestSchema, response: { 201: expenseResponseSchema } } },
      async (request, reply) =>
        reply.status(201).send({ data: await createExpense(deps, auditContextOf(request, deps.clock), request.body) }),
    );
    app.get(
      `${MAIN_BASE}/expenses/:id`,
      { config, schema: { params: idParamsSchema, response: { 200: expenseResponseSchema } } },
      async (request) => ({ data: await getExpense(deps.db, parseId(request.params.id)) }),
    );
    app.put(
      `${MAIN_BASE}/expenses/:id`,
      { config, schema: { params: idParamsSchema, body: updateExpenseRequestSchema, response: { 200: expenseResponseSchema } } },
      async (request) => ({
        data: await updateExpense(deps, auditContextOf(request, deps.clock), parseId(request.params.id), request.body),
      }),
    );
    app.delete(
      `${MAIN_BASE}/expenses/:id`,
      { config, schema: { params: idParamsSchema, querystring: deleteExpenseQuerySchema } },
      async (request, reply) => {
        await deleteExpense(deps, auditContextOf(request, deps.clock), parseId(request.params.id), request.query.version);
        return reply.status(204).send();
      },
    );
  };
}
