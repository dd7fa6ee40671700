import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  bankAccountResponseSchema,
  bankAccountsPageSchema,
  bankAccountsQuerySchema,
  createBankAccountRequestSchema,
  updateBankAccountRequestSchema,
} from '../../../src/schemas/finanzas/bank-accounts';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { idParamsSchema } from '../../../src/schemas/params';
import { auditContextOf } from '../../audit/audit';
import { staffWith } from '../../auth/guard';
import type { AppDeps } from '../../context';
import { parseId } from '../../errors';
import { MAIN_BASE } from '../../platform/bases';
import { createBankAccount, deleteBankAccount, getBankAccount, listBankAccounts, updateBankAccount } from './bank-accounts.service';

/** Who may manage the bank accounts: 'Acceso módulo finanzas' + 'Acceso submódulo bancos'. */
export const BANK_ACCOUNTS_ACCESS = staffWith(MODULE.finanzas, SUBMODULE.bancos);

/**
 * Finanzas → Bancos: GET|POST /api/bank-accounts, GET|PATCH|DELETE /api/bank-accounts/{id}
 * (deactivating is PATCH `{ active: false }`).
 */
export function bankAccountsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { access: BANK_ACCOUNTS_ACCESS };
    app.get(
      `${MAIN_BASE}/bank-accounts`,
      { config, schema: { querystring: bankAccountsQuerySchema, response: { 200: bankAccountsPageSchema } } },
      async (request) => listBankAccounts(deps.db, request.query),
    );
    app.post(
      `${MAIN_BASE}/bank-accounts`,
      { config, schema: { body: createBankAccountRequestSchema, response: { 201: bankAccountResponseSchema } } },
      async (request, reply) =>
        reply.status(201).send({ data: await createBankAccount(deps, auditContextOf(request, deps.clock), request.body) }),
    );
    app.get(
      `${MAIN_BASE}/bank-accounts/:id`,
      { config, schema: { params: idParamsSchema, response: { 200: bankAccountResponseSchema } } },
      async (request) => ({ data: await getBankAccount(deps.db, parseId(request.params.id)) }),
    );
    app.patch(
      `${MAIN_BASE}/bank-accounts/:id`,
      { config, schema: { params: idParamsSchema, body: updateBankAccountRequestSchema, response: { 200: bankAccountResponseSchema } } },
      async (request) => ({
        data: await updateBankAccount(deps, auditContextOf(request, deps.clock), parseId(request.params.id), request.body),
      }),
    );
    app.delete(`${MAIN_BASE}/bank-accounts/:id`, { config, schema: { params: idParamsSchema } }, async (request, reply) => {
      await deleteBankAccount(deps, auditContextOf(request, deps.clock), parseId(request.params.id));
      return reply.status(204).send();
    });
  };
}
