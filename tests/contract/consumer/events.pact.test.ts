/**
 * Message contract of the realtime event NotificationsMessageEvent (SPEC §3, §4) between the web
 * app (`parcela-web`) and the server's broadcasts (`parcela-events`). The handler is the real
 * consumer: the notifications machine, which must prepend the pushed notification for its user.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MatchersV3, MessageConsumerPact, synchronousBodyHandler } from '@pact-foundation/pact';
import { createActor, fromPromise } from 'xstate';
import { notificationsMachine } from '../../../src/machines/notifications/notifications.machine';
import type { Notification } from '../../../src/schemas/notification';
import { NOTIFICATION_NEW } from '../states';

const { like, integer, regex, boolean, eachLike } = MatchersV3;

const messagePact = new MessageConsumerPact({
  consumer: 'parcela-web',
  provider: 'parcela-events',
  dir: path.resolve(import.meta.dirname, '../../../pacts'),
  logLevel: 'warn',
});

/** Feeds a pushed payload to the notifications machine of the staff user with id `userId`. */
async function deliver(payload: unknown, userId: number) {
  const actor = createActor(
    notificationsMachine.provide({
      actors: { fetchNotifications: fromPromise(async () => ({ notification_quantity: 0, notification: [] as Notification[] })) },
    }),
    { input: { userId } },
  );
  actor.start();
  actor.send({ type: 'notification.received', payload });
  return actor.getSnapshot().context;
}

describe('NotificationsMessageEvent', () => {
  it('a notification for a staff user reaches their notifications list', async () => {
    await messagePact
      .given('an administrator sends a notification to a staff user')
      .expectsToReceive('a NotificationsMessageEvent for a staff user')
      .withContent({
        tipo_operacion: like('NEW_NOTIFICATION'),
        message: {
          ids_users: eachLike(integer(2)),
          notification: {
            id_notification: integer(1),
            type: { code: like('CUSTOMER'), name: like('Cliente'), icon: like('person'), color_icon: regex(/^#[0-9a-fA-F]{6}$/, '#10b981') },
            title: like(NOTIFICATION_NEW.title),
            detail: like(NOTIFICATION_NEW.detail),
            created_at_formatted: regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, '2026-11-20 10:15:00'),
            fecha_creacion: regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/, '2026-11-20T15:15:00.000Z'),
            new: boolean(true),
            route: like(NOTIFICATION_NEW.route),
          },
        },
      })
      .withMetadata({ event: 'NotificationsMessageEvent' })
      .verify(
        synchronousBodyHandler(async (body: { message: { ids_users: number[] } }) => {
          const userId = body.message.ids_users[0]!;
          const context = await deliver(body, userId);
          expect(context.count).toBe(1);
          expect(context.items[0]?.title).toBe(NOTIFICATION_NEW.title);
          expect(context.items[0]?.status).toBe('new');
          const other = await deliver(body, userId + 1000);
          expect(other.items).toHaveLength(0);
        }),
      );
  });
});
