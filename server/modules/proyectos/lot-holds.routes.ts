import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  decideLotHoldRequestSchema,
  lotHoldResponseSchema,
  lotHoldsPageSchema,
  lotHoldsQuerySchema,
} from '../../../src/schemas/proyectos/lot-holds';
import { ACTION, MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { idParamsSchema } from '../../../src/schemas/params';
import { auditContextOf } from '../../audit/audit';
import { heldPermissions } from '../../auth/accounts';
import { requireAuth, staffWith } from '../../auth/guard';
import type { AppDeps } from '../../context';
import { parseId } from '../../errors';
import { MAIN_BASE } from '../../platform/bases';
import { decideLotHold, listLotHolds } from './lot-holds.service';
import { PROJECTS_ACCESS } from './projects.routes';

/** Who approves or rejects hold requests: Lotizaciones + 'Aprobar bloqueos de lotes'. */
export const LOT_HOLDS_APPROVE_ACCESS = staffWith(MODULE.proyectos, SUBMODULE.lotizaciones, ACTION.aprobarBloqueos);

/**
 * Lot holds (docs/domain.md "Lot holds"; src/schemas/proyectos/lot-holds.ts): GET /api/lot-holds
 * (Lotizaciones; without 'Aprobar bloqueos de lotes' only one's own requests), POST
 * /api/lot-holds/{id}/approve and /reject (with it). The requests themselves are made by POST
 * /api/lots/{id}/status (202).
 */
export function lotHoldsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      `${MAIN_BASE}/lot-holds`,
      { config: { access: PROJECTS_ACCESS }, schema: { querystring: lotHoldsQuerySchema, response: { 200: lotHoldsPageSchema } } },
      async (request) => {
        const auth = requireAuth(request);
        const held = await heldPermissions(deps.db, auth.userType, auth.accountId, [ACTION.aprobarBloqueos]);
        return listLotHolds(deps.db, request.query, held.has(ACTION.aprobarBloqueos) ? null : auth.accountId);
      },
    );

    for (const [action, approve] of [
      ['approve', true],
      ['reject', false],
    ] as const)
      app.post(
        `${MAIN_BASE}/lot-holds/:id/${action}`,
        {
          config: { access: LOT_HOLDS_APPROVE_ACCESS },
          schema: { params: idParamsSchema, body: decideLotHoldRequestSchema, response: { 200: lotHoldResponseSchema } },
        },
        async (request) => ({
          data: await decideLotHold(deps, auditContextOf(request, deps.clock), parseId(request.params.id), {
            approve,
            reason: request.body.reason,
          }),
        }),
      );
  };
}
