import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createWalletRequestSchema,
  QR_MAX_BYTES,
  updateWalletRequestSchema,
  WALLET_MESSAGES,
  walletResponseSchema,
  walletsPageSchema,
  walletsQuerySchema,
} from '../../../src/schemas/finanzas/wallets';
import { MODULE, SUBMODULE } from '../../../src/schemas/permissions';
import { idParamsSchema } from '../../../src/schemas/params';
import { auditContextOf } from '../../audit/audit';
import { staffWith } from '../../auth/guard';
import type { AppDeps } from '../../context';
import { fieldError, HttpError, parseId } from '../../errors';
import { MAIN_BASE } from '../../platform/bases';
import { uploadError } from '../../uploads';
import { sendStoredImage } from '../../platform/stored-image';
import { findWalletQr } from './wallets.repository';
import { createWallet, deleteWallet, getWallet, listWallets, saveWalletQr, updateWallet } from './wallets.service';

/** Who may manage the wallets: 'Acceso módulo finanzas' + 'Acceso submódulo billeteras digitales'. */
export const WALLETS_ACCESS = staffWith(MODULE.finanzas, SUBMODULE.billeteras);

/**
 * Finanzas → Billetera Digital: GET|POST /api/wallets, GET|PATCH|DELETE /api/wallets/{id}
 * (deactivating is PATCH `{ active: false }`), POST /api/wallets/{id}/qr (multipart field `qr`,
 * PNG/JPEG by content, ≤ 1 MB; replaces the previous one) and GET /api/wallets/{id}/qr (the image,
 * to staff with the same access; 404 when there is none).
 */
export function walletsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const config = { access: WALLETS_ACCESS };
    app.get(
      `${MAIN_BASE}/wallets`,
      { config, schema: { querystring: walletsQuerySchema, response: { 200: walletsPageSchema } } },
      async (request) => listWallets(deps.db, request.query),
    );
    app.post(
      `${MAIN_BASE}/wallets`,
      { config, schema: { body: createWalletRequestSchema, response: { 201: walletResponseSchema } } },
      async (request, reply) =>
        reply.status(201).send({ data: await createWallet(deps, auditContextOf(request, deps.clock), request.body) }),
    );
    app.get(
      `${MAIN_BASE}/wallets/:id`,
      { config, schema: { params: idParamsSchema, response: { 200: walletResponseSchema } } },
      async (request) => ({ data: await getWallet(deps.db, parseId(request.params.id)) }),
    );
    app.patch(
      `${MAIN_BASE}/wallets/:id`,
      { config, schema: { params: idParamsSchema, body: updateWalletRequestSchema, response: { 200: walletResponseSchema } } },
      async (request) => ({
        data: await updateWallet(deps, auditContextOf(request, deps.clock), parseId(request.params.id), request.body),
      }),
    );
    app.delete(`${MAIN_BASE}/wallets/:id`, { config, schema: { params: idParamsSchema } }, async (request, reply) => {
      await deleteWallet(deps, auditContextOf(request, deps.clock), parseId(request.params.id));
      return reply.status(204).send();
    });

    app.post(
      `${MAIN_BASE}/wallets/:id/qr`,
      { config, schema: { params: idParamsSchema, response: { 200: walletResponseSchema } } },
      async (request) => {
        const id = parseId(request.params.id);
        let bytes: Buffer;
        try {
          const file = await request.file({ limits: { fileSize: QR_MAX_BYTES, files: 1, fields: 0, parts: 1 } });
          if (!file || file.fieldname !== 'qr') throw fieldError('qr', WALLET_MESSAGES.qrMissing);
          bytes = await file.toBuffer();
        } catch (error) {
          throw uploadError(error, 'qr', { missing: WALLET_MESSAGES.qrMissing, tooLarge: WALLET_MESSAGES.qrTooLarge });
        }
        return { data: await saveWalletQr(deps, auditContextOf(request, deps.clock), id, bytes) };
      },
    );

    app.get(`${MAIN_BASE}/wallets/:id/qr`, { config, schema: { params: idParamsSchema } }, async (request, reply) => {
      const qr = await findWalletQr(deps.db, parseId(request.params.id));
      if (!qr) throw new HttpError(404, WALLET_MESSAGES.noQr);
      return sendStoredImage(reply, qr);
    });
  };
}
