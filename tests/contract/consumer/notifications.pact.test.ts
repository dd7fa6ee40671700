/**
 * Consumer contract of the notification calls (docs/product.md §7 rows 12–14 and the admin send) between
 * `parcela-web` and `parcela-api`, through the real src/api/notifications module.
 */
import { describe, expect, it } from 'vitest';
import { MatchersV3 } from '@pact-foundation/pact';
import { createNotificationsApi } from '../../../src/api/notifications';
import { bearer, caught, formRequest, httpPact, mockClient } from './pact-helpers';
import { CUSTOMER_TOKEN, NOTIFICATION_NEW, STAFF_TOKEN, STATES } from '../states';

const { like, eachLike, integer, regex, boolean, atLeastOneLike } = MatchersV3;

const pact = httpPact();
const apiFor = (url: string, token: string | null) => createNotificationsApi(mockClient(url, token));

const notification = (isNew: boolean) => ({
  id_notification: integer(12),
  type: { icon: like('person'), color_icon: regex(/^#[0-9a-fA-F]{6}$/, '#10b981') }, // docs/product.md §3 fixes icon and color_icon only (tolerant reader)
  title: like(NOTIFICATION_NEW.title),
  detail: like(NOTIFICATION_NEW.detail),
  created_at_formatted: regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, '2026-11-20 10:15:00'),
  fecha_creacion: regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/, '2026-11-20T15:15:00.000Z'),
  new: boolean(isNew),
  route: like(NOTIFICATION_NEW.route),
});

describe('notification calls (docs/product.md §7 rows 12–14)', () => {
  it('row 12: lists the staff notifications with the unread count', async () => {
    await pact
      .addInteraction()
      .given(STATES.staffWithNotifications, { token: STAFF_TOKEN })
      .uponReceiving('a request for the staff notifications')
      .withRequest('GET', '/api/get_notifications_by_user', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(200, (b) =>
        b.jsonBody({ data: { notification_quantity: integer(1), notification: atLeastOneLike(notification(true), 1) } }),
      )
      .executeTest(async (mock) => {
        const data = await apiFor(mock.url, STAFF_TOKEN).list('COLLABORATOR');
        expect(data.notification_quantity).toBe(1);
        expect(data.notification[0]?.route).toBe('/Crm/Clientes');
      });
  });

  it('row 13: lists the customer notifications on the customer base', async () => {
    await pact
      .addInteraction()
      .given(STATES.customerWithNotifications, { token: CUSTOMER_TOKEN })
      .uponReceiving('a request for the customer notifications')
      .withRequest('GET', '/api/customer/get_notifications_by_user', (b) => b.headers(bearer(CUSTOMER_TOKEN)))
      .willRespondWith(200, (b) => b.jsonBody({ data: { notification_quantity: integer(1), notification: eachLike(notification(true)) } }))
      .executeTest(async (mock) => {
        const data = await apiFor(mock.url, CUSTOMER_TOKEN).list('CUSTOMER');
        expect(data.notification.length).toBeGreaterThan(0);
      });
  });

  it('row 13: refuses a staff token on the customer base', async () => {
    await pact
      .addInteraction()
      .given(STATES.staffSignedIn, { token: STAFF_TOKEN })
      .uponReceiving('a request for the customer notifications with a staff token')
      .withRequest('GET', '/api/customer/get_notifications_by_user', (b) => b.headers(bearer(STAFF_TOKEN)))
      .willRespondWith(403, (b) => b.jsonBody({ message: like('No tiene permiso para realizar esta acción') }))
      .executeTest(async (mock) => {
        const error = await caught(apiFor(mock.url, STAFF_TOKEN).list('CUSTOMER'));
        expect(error.status).toBe(403);
      });
  });

  it('row 14: marks notifications as seen', async () => {
    await pact
      .addInteraction()
      .given(STATES.staffWithNotifications, { token: STAFF_TOKEN })
      .uponReceiving('a request to mark notifications as seen')
      .withRequest('POST', '/api/update_to_seen_notifications', (b) => formRequest(b, STAFF_TOKEN, { ids_notifications: '[2,1]' }))
      .willRespondWith(200, (b) => b.jsonBody({ message: like('Notificaciones marcadas como vistas') }))
      .executeTest(async (mock) => {
        const res = await apiFor(mock.url, STAFF_TOKEN).markSeen([2, 1]);
        expect(res.message.length).toBeGreaterThan(0);
      });
  });
});
