import type { ApiClient } from './client';
import { formBody, request } from './client';
import { messageResponseSchema } from '../schemas/common';
import {
  markSeenForm,
  notificationsReadSchema,
  readNotificationItems,
  sendNotificationResponseSchema,
  type NotificationsData,
  type SendNotificationRequest,
} from '../schemas/notification';
import type { UserType } from '../schemas/session';

/**
 * Notification calls (docs/product.md §7 rows 12–14) and the admin send (issue "Shell"). Every function
 * throws {@link import('./client').ApiError} on failure and returns the parsed response.
 */
export function createNotificationsApi(client: ApiClient) {
  return {
    /**
     * Rows 12 / 13: GET get_notifications_by_user on the staff base for staff, on the customer base
     * for customers. @returns { notification_quantity (unread count), notification (newest first) }.
     */
    list: async (userType: UserType): Promise<NotificationsData> => {
      const base = userType === 'CUSTOMER' ? client.customer : client.main;
      const { data } = await request(notificationsReadSchema, () => base('get_notifications_by_user'));
      return { notification_quantity: data.notification_quantity, notification: readNotificationItems(data.notification) };
    },

    /** Row 14: POST update_to_seen_notifications, form {ids_notifications: JSON list}. */
    markSeen: (ids: readonly number[]) =>
      request(messageResponseSchema, () =>
        client.main('update_to_seen_notifications', { method: 'POST', body: formBody(markSeenForm(ids)) }),
      ),

    /** POST notifications (staff with the Usuarios submodule): sends a notification to accounts or to a permission's holders. */
    send: (body: SendNotificationRequest) =>
      request(sendNotificationResponseSchema, () => client.main('notifications', { method: 'POST', body })),
  };
}
export type NotificationsApi = ReturnType<typeof createNotificationsApi>;
