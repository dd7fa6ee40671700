import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ACTION, MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { LOT_HOLD_MESSAGES } from '../../../src/schemas/proyectos/lot-holds';
import { heldPermissions } from '../../auth/accounts';
import {
  blockRequestSchema,
  blockSchema,
  blocksResponseSchema,
  bulkPriceRequestSchema,
  changeLotStatusRequestSchema,
  createLotRequestSchema,
  createSubdivisionRequestSchema,
  lotMapResponseSchema,
  lotResponseSchema,
  lotStatusPendingResponseSchema,
  lotsPageSchema,
  lotsQuerySchema,
  lotStatusHistoryPageSchema,
  lotStatusHistoryQuerySchema,
  PLAN_MAX_BYTES,
  priceChangePreviewResponseSchema,
  priceChangeResultResponseSchema,
  publicLotMapResponseSchema,
  stageRequestSchema,
  stageSchema,
  stagesResponseSchema,
  subdivisionKeyParamsSchema,
  subdivisionResponseSchema,
  subdivisionsPageSchema,
  subdivisionsQuerySchema,
  updateBlockRequestSchema,
  updateLotRequestSchema,
  updateStageRequestSchema,
  updateSubdivisionRequestSchema,
} from '../../../src/schemas/proyectos/projects';
import { idParamsSchema } from '../../../src/schemas/params';
import { auditContextOf } from '../../audit/audit';
import { requireAuth, staffWith, staffWithAnyOf } from '../../auth/guard';
import type { AppDeps } from '../../context';
import { fieldError, HttpError, parseId } from '../../errors';
import { uploadError } from '../../uploads';
import { MAIN_BASE, PUBLIC_BASE } from '../../platform/bases';
import {
  applyPriceChange,
  changeLotStatus,
  createBlock,
  createLot,
  createStage,
  deleteBlock,
  deleteLot,
  deleteStage,
  getLot,
  listBlocks,
  listLots,
  listStages,
  listStatusHistory,
  previewPriceChange,
  updateBlock,
  updateLot,
  updateStage,
} from './lots.service';
import { getPublicMap, getStaffMap } from './maps.service';
import { salesListRevision } from '../comercio/sales.service';
import { todayInLimaBy } from '../../clock';
import { createKeptPages, createRevisionTexts } from '../../platform/revision-texts';
import { createJsonCache } from '../../platform/cached-json';
import { subdivisionRevision, subdivisionsListRevision } from './revisions.repository';
import { PLAN_MESSAGES } from './plan-image';
import {
  createSubdivision,
  deleteSubdivision,
  findPlan,
  getSubdivision,
  listSubdivisions,
  resolveSubdivisionId,
  savePlan,
  subdivisionNotFound,
  updateSubdivision,
  type StoredPlan,
} from './subdivisions.service';

/** Who manages subdivisions, stages, blocks and lots: 'Acceso módulo proyectos' + 'Acceso submódulo lotizaciones'. */
export const PROJECTS_ACCESS = staffWith(MODULE.proyectos, SUBMODULE.lotizaciones);
/**
 * Who reads the staff lot map, its plan image and the lot panel (GET lot, status history):
 * PROJECTS_ACCESS, or the sales maps' 'Acceso módulo comercial' + 'Acceso submódulo ventas'.
 */
export const LOT_MAP_ACCESS = staffWithAnyOf([MODULE.proyectos, SUBMODULE.lotizaciones], [MODULE.comercial, SUBMODULE.ventas]);

/** Reads the multipart `file` part (≤ PLAN_MAX_BYTES). @throws HttpError 422 on `file` when missing, too large or malformed (server/uploads.ts). */
async function readPlanUpload(request: FastifyRequest): Promise<Buffer> {
  try {
    const file = await request.file({ limits: { fileSize: PLAN_MAX_BYTES, files: 1, fields: 0, parts: 1 } });
    if (!file || file.fieldname !== 'file') throw fieldError('file', PLAN_MESSAGES.missing);
    return await file.toBuffer();
  } catch (error) {
    throw uploadError(error, 'file', PLAN_MESSAGES);
  }
}

/** Sends a plan image with its type and cache headers (versioned URLs: clients may cache a day). */
function sendPlan(reply: FastifyReply, plan: StoredPlan, visibility: 'private' | 'public') {
  return reply
    .header('content-type', plan.contentType)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', `${visibility}, max-age=86400`)
    .header('last-modified', new Date(plan.updatedAt).toUTCString())
    .send(plan.data);
}

/**
 * Proyectos (issue "Proyectos"): every call listed in src/schemas/proyectos/projects.ts except the two import
 * calls (server/modules/proyectos/). Staff routes need PROJECTS_ACCESS (the staff map also takes
 * the sales permission); the public map and plan are open but only for published subdivisions.
 * Every mutation writes its change history in its own transaction.
 */
export function projectsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { access: PROJECTS_ACCESS };
    const audit = (request: FastifyRequest) => auditContextOf(request, deps.clock);
    const keyed = { params: subdivisionKeyParamsSchema };
    const subdivisionId = (request: { params: { key: string } }) => resolveSubdivisionId(deps, request.params.key);
    /** The id and revision of the subdivision a key names (one primary-key read). @throws HttpError 404. */
    const subdivisionAt = async (key: string) => {
      const id = deps.ids.decode(key);
      const revision = id === null ? null : await subdivisionRevision(deps.db, id);
      if (id === null || revision === null) throw subdivisionNotFound();
      return { id, revision };
    };
    // The subdivisions list and the lot pages are kept per revision, as the maps (server/platform/revision-texts.ts,
    // docs/performance.md "Answers kept per revision"): read and serialised again only after a write.
    const sendPage = createKeptPages({ keep: deps.config.keepAnswers });

    // ----- Subdivisions -----------------------------------------------------------------------
    app.get(
      `${MAIN_BASE}/subdivisions`,
      { config, schema: { querystring: subdivisionsQuerySchema, response: { 200: subdivisionsPageSchema } } },
      async (request, reply) => {
        const revision = await subdivisionsListRevision(deps.db);
        return sendPage(request, reply, { name: 'subdivisions', query: request.query, revision }, () =>
          listSubdivisions(deps, request.query),
        );
      },
    );
    app.post(
      `${MAIN_BASE}/subdivisions`,
      { config, schema: { body: createSubdivisionRequestSchema, response: { 201: subdivisionResponseSchema } } },
      async (request, reply) => reply.status(201).send({ data: await createSubdivision(deps, audit(request), request.body) }),
    );
    app.get(
      `${MAIN_BASE}/subdivisions/:key`,
      { config, schema: { ...keyed, response: { 200: subdivisionResponseSchema } } },
      async (request) => ({
        data: await getSubdivision(deps, await subdivisionId(request)),
      }),
    );
    app.patch(
      `${MAIN_BASE}/subdivisions/:key`,
      { config, schema: { ...keyed, body: updateSubdivisionRequestSchema, response: { 200: subdivisionResponseSchema } } },
      async (request) => ({ data: await updateSubdivision(deps, audit(request), await subdivisionId(request), request.body) }),
    );
    app.delete(`${MAIN_BASE}/subdivisions/:key`, { config, schema: keyed }, async (request, reply) => {
      await deleteSubdivision(deps, audit(request), await subdivisionId(request));
      return reply.status(204).send();
    });

    // ----- Plan image ---------------------------------------------------------------------------
    app.post(
      `${MAIN_BASE}/subdivisions/:key/plan`,
      { config, schema: { ...keyed, response: { 200: subdivisionResponseSchema } } },
      async (request) => {
        const id = await subdivisionId(request);
        const bytes = await readPlanUpload(request);
        return { data: await savePlan(deps, audit(request), id, bytes) };
      },
    );
    app.get(`${MAIN_BASE}/subdivisions/:key/plan`, { config: { access: LOT_MAP_ACCESS }, schema: keyed }, async (request, reply) => {
      const plan = await findPlan(deps.db, await subdivisionId(request));
      if (!plan) throw new HttpError(404, PLAN_MESSAGES.noPlan);
      return sendPlan(reply, plan, 'private');
    });
    app.get(`${PUBLIC_BASE}/subdivisions/:key/plan`, { config: { access: 'public' }, schema: keyed }, async (request, reply) => {
      const id = deps.ids.decode(request.params.key);
      if (id === null) throw subdivisionNotFound();
      const plan = await findPlan(deps.db, id, { publishedOnly: true });
      if (!plan) throw subdivisionNotFound();
      return sendPlan(reply, plan, 'public');
    });

    // ----- Stages -------------------------------------------------------------------------------
    app.get(
      `${MAIN_BASE}/subdivisions/:key/stages`,
      { config, schema: { ...keyed, response: { 200: stagesResponseSchema } } },
      async (request) => ({
        data: await listStages(deps.db, await subdivisionId(request)),
      }),
    );
    app.post(
      `${MAIN_BASE}/subdivisions/:key/stages`,
      { config, schema: { ...keyed, body: stageRequestSchema, response: { 201: z.object({ data: stageSchema }) } } },
      async (request, reply) =>
        reply.status(201).send({ data: await createStage(deps, audit(request), await subdivisionId(request), request.body) }),
    );
    app.patch(
      `${MAIN_BASE}/stages/:id`,
      { config, schema: { params: idParamsSchema, body: updateStageRequestSchema, response: { 200: z.object({ data: stageSchema }) } } },
      async (request) => ({ data: await updateStage(deps, audit(request), parseId(request.params.id), request.body) }),
    );
    app.delete(`${MAIN_BASE}/stages/:id`, { config, schema: { params: idParamsSchema } }, async (request, reply) => {
      await deleteStage(deps, audit(request), parseId(request.params.id));
      return reply.status(204).send();
    });

    // ----- Blocks -------------------------------------------------------------------------------
    app.get(
      `${MAIN_BASE}/subdivisions/:key/blocks`,
      { config, schema: { ...keyed, response: { 200: blocksResponseSchema } } },
      async (request) => ({
        data: await listBlocks(deps.db, await subdivisionId(request)),
      }),
    );
    app.post(
      `${MAIN_BASE}/subdivisions/:key/blocks`,
      { config, schema: { ...keyed, body: blockRequestSchema, response: { 201: z.object({ data: blockSchema }) } } },
      async (request, reply) =>
        reply.status(201).send({ data: await createBlock(deps, audit(request), await subdivisionId(request), request.body) }),
    );
    app.patch(
      `${MAIN_BASE}/blocks/:id`,
      { config, schema: { params: idParamsSchema, body: updateBlockRequestSchema, response: { 200: z.object({ data: blockSchema }) } } },
      async (request) => ({ data: await updateBlock(deps, audit(request), parseId(request.params.id), request.body) }),
    );
    app.delete(`${MAIN_BASE}/blocks/:id`, { config, schema: { params: idParamsSchema } }, async (request, reply) => {
      await deleteBlock(deps, audit(request), parseId(request.params.id));
      return reply.status(204).send();
    });

    // ----- Lots ---------------------------------------------------------------------------------
    app.get(
      `${MAIN_BASE}/subdivisions/:key/lots`,
      { config, schema: { ...keyed, querystring: lotsQuerySchema, response: { 200: lotsPageSchema } } },
      async (request, reply) => {
        const { id, revision } = await subdivisionAt(request.params.key);
        return sendPage(request, reply, { name: `lots:${id}`, query: request.query, revision }, () => listLots(deps.db, id, request.query));
      },
    );
    app.post(
      `${MAIN_BASE}/subdivisions/:key/lots`,
      { config, schema: { ...keyed, body: createLotRequestSchema, response: { 201: lotResponseSchema } } },
      async (request, reply) =>
        reply.status(201).send({ data: await createLot(deps, audit(request), await subdivisionId(request), request.body) }),
    );
    // The lot panel of every map (staff and sales) reads the lot and its history: map access.
    app.get(
      `${MAIN_BASE}/lots/:id`,
      { config: { access: LOT_MAP_ACCESS }, schema: { params: idParamsSchema, response: { 200: lotResponseSchema } } },
      async (request) => ({
        data: await getLot(deps.db, parseId(request.params.id)),
      }),
    );
    app.patch(
      `${MAIN_BASE}/lots/:id`,
      { config, schema: { params: idParamsSchema, body: updateLotRequestSchema, response: { 200: lotResponseSchema } } },
      async (request) => ({ data: await updateLot(deps, audit(request), parseId(request.params.id), request.body) }),
    );
    app.delete(`${MAIN_BASE}/lots/:id`, { config, schema: { params: idParamsSchema } }, async (request, reply) => {
      await deleteLot(deps, audit(request), parseId(request.params.id));
      return reply.status(204).send();
    });
    app.post(
      `${MAIN_BASE}/lots/:id/status`,
      {
        config,
        schema: {
          params: idParamsSchema,
          body: changeLotStatusRequestSchema,
          response: { 200: lotResponseSchema, 202: lotStatusPendingResponseSchema },
        },
      },
      async (request, reply) => {
        // A hold by a caller without 'Aprobar bloqueos de lotes' waits for a supervisor: 202 (docs/domain.md "Lot holds").
        const auth = requireAuth(request);
        const approver = (await heldPermissions(deps.db, auth.userType, auth.accountId, [ACTION.aprobarBloqueos])).has(
          ACTION.aprobarBloqueos,
        );
        const { lot, hold, pending } = await changeLotStatus(deps, audit(request), parseId(request.params.id), request.body, approver);
        if (pending && hold) return reply.status(202).send({ data: lot, hold, message: LOT_HOLD_MESSAGES.pending });
        return { data: lot };
      },
    );
    app.get(
      `${MAIN_BASE}/lots/:id/status-history`,
      {
        config: { access: LOT_MAP_ACCESS },
        schema: { params: idParamsSchema, querystring: lotStatusHistoryQuerySchema, response: { 200: lotStatusHistoryPageSchema } },
      },
      async (request) => listStatusHistory(deps.db, parseId(request.params.id), request.query),
    );

    // ----- Bulk prices --------------------------------------------------------------------------
    app.post(
      `${MAIN_BASE}/subdivisions/:key/lots/price-preview`,
      { config, schema: { ...keyed, body: bulkPriceRequestSchema, response: { 200: priceChangePreviewResponseSchema } } },
      async (request) => ({ data: await previewPriceChange(deps.db, await subdivisionId(request), request.body) }),
    );
    app.post(
      `${MAIN_BASE}/subdivisions/:key/lots/price-update`,
      { config, schema: { ...keyed, body: bulkPriceRequestSchema, response: { 200: priceChangeResultResponseSchema } } },
      async (request) => ({ data: await applyPriceChange(deps, audit(request), await subdivisionId(request), request.body) }),
    );

    // ----- Maps ---------------------------------------------------------------------------------
    // The maps carry up to 20 000 lots: their answers are built by typed code from one query and
    // serialized with JSON.stringify (the zod walk of every vertex would double the response time;
    // measured 5 000 lots: ~55 ms of zod vs ~10 ms of stringify). The schemas stay for the contract.
    // They are sent with an ETag (304 when the browser's copy is current) and their compressed bytes
    // are kept per content (server/platform/cached-json.ts).
    // Their JSON texts are kept per subdivision revision (server/platform/revision-texts.ts): built again only after a write.
    const sendMap = createJsonCache();
    const mapTexts = createRevisionTexts({ maxEntries: deps.config.keepAnswers ? 32 : 0 });
    app.get(
      `${MAIN_BASE}/subdivisions/:key/map`,
      { config: { access: LOT_MAP_ACCESS }, schema: { ...keyed, response: { 200: lotMapResponseSchema } } },
      async (request, reply) => {
        const { id, revision } = await subdivisionAt(request.params.key);
        // Days late move with the date and with payments: the kept text is per Lima day and per sales
        // revision (list_revisions 'sales' moves with every write to `sales`, whose `paid` the instalments'
        // triggers keep: an approved or annulled payment) as well as per subdivision revision (a sale
        // created or annulled changes its lot); an older text is replaced.
        const kept = revision === null ? null : `${revision}@${todayInLimaBy(deps.clock)}@${await salesListRevision(deps.db)}`;
        const text = await mapTexts(`staff:${id}`, kept, async () => JSON.stringify({ data: await getStaffMap(deps, id) }));
        return sendMap(request, reply, text, 'private');
      },
    );
    app.get(
      `${PUBLIC_BASE}/subdivisions/:key/map`,
      { config: { access: 'public' }, schema: { ...keyed, response: { 200: publicLotMapResponseSchema } } },
      async (request, reply) => {
        const build = async () => JSON.stringify({ data: await getPublicMap(deps, request.params.key) });
        const id = deps.ids.decode(request.params.key);
        const revision = id === null ? null : await subdivisionRevision(deps.db, id);
        return sendMap(request, reply, await mapTexts(`public:${id}`, revision, build), 'public');
      },
    );
  };
}
