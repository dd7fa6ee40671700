import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { messageResponseSchema } from '../../src/schemas/common';
import {
  markSeenRequestSchema,
  notificationsResponseSchema,
  sendNotificationRequestSchema,
  sendNotificationResponseSchema,
} from '../../src/schemas/notification';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import type { AppDeps } from '../context';
import { ANY_ACCOUNT, requireAuth, STAFF_ONLY, type RouteAccess } from '../auth/guard';
import { CUSTOMER_BASE, MAIN_BASE } from '../platform/bases';
import { listNotifications, markNotificationsSeen, NOTIFICATION_MESSAGES, sendNotification } from './notifications.service';

/** Customers only (staff get 403). */
const CUSTOMER_ONLY: RouteAccess = { userTypes: ['CUSTOMER'] };
/**
 * Who may send notifications by hand: staff holding the Configuración module and its Usuarios
 * submodule (the administrators of accounts; docs/decisions.md "Notifications and realtime").
 */
export const SEND_NOTIFICATIONS_ACCESS: RouteAccess = {
  userTypes: ['COLLABORATOR'],
  permission: [MODULE.configuracion, SUBMODULE.usuarios],
};

/** docs/product.md §7 rows 12, 13, 14 and the admin send route POST /api/notifications. */
export function notificationsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  return async (app) => {
    const list = { schema: { response: { 200: notificationsResponseSchema } } };

    // Row 12: staff notifications.
    app.get(`${MAIN_BASE}/get_notifications_by_user`, { ...list, config: { access: STAFF_ONLY } }, async (request) => ({
      data: await listNotifications(deps, requireAuth(request)),
    }));

    // Row 13: customer notifications.
    app.get(`${CUSTOMER_BASE}/get_notifications_by_user`, { ...list, config: { access: CUSTOMER_ONLY } }, async (request) => ({
      data: await listNotifications(deps, requireAuth(request)),
    }));

    // Row 14: form {ids_notifications: JSON list}; only the caller's own notifications change.
    app.post(
      `${MAIN_BASE}/update_to_seen_notifications`,
      {
        config: { access: ANY_ACCOUNT },
        schema: { body: markSeenRequestSchema, response: { 200: messageResponseSchema } },
      },
      async (request) => {
        await markNotificationsSeen(deps, requireAuth(request), request.body.ids_notifications);
        return { message: NOTIFICATION_MESSAGES.markedSeen };
      },
    );

    // Admin: JSON {recipients, type, title, detail, route?} → 201.
    app.post(
      `${MAIN_BASE}/notifications`,
      {
        config: { access: SEND_NOTIFICATIONS_ACCESS },
        schema: { body: sendNotificationRequestSchema, response: { 201: sendNotificationResponseSchema } },
      },
      async (request, reply) => {
        const sent = await sendNotification(deps, request.body);
        return reply.status(201).send({
          message: NOTIFICATION_MESSAGES.sent,
          data: { recipients: sent.recipients, ids_notifications: sent.ids },
        });
      },
    );
  };
}
