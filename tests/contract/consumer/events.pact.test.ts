/**
 * Message contracts of the realtime events between the web app (`parcela-web`) and the server's
 * broadcasts (`parcela-events`), each handled by its real consumer:
 * - NotificationsMessageEvent (docs/product.md §3, §4): the notifications machine, which must prepend the
 *   pushed notification for its user;
 * - PermissionsChangedEvent (src/schemas/configuracion/roles.ts): the session machine, which must refetch the
 *   user's permissions (row 11) and rebuild the menu, and ignore a payload for someone else;
 * - DashboardChanged (src/schemas/inicio/dashboard.ts): Inicio's dashboard machine, which must fetch
 *   again exactly the cards named that it shows.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { MatchersV3, MessageConsumerPact, synchronousBodyHandler } from '@pact-foundation/pact';
import { createActor, fromPromise, waitFor } from 'xstate';
import { notificationsMachine } from '../../../src/machines/notifications/notifications.machine';
import { dashboardEventOf, notificationEventOf, permissionsEventOf } from '../../../src/machines/realtime/realtime-events';
import { createDashboardMachines } from '../../../src/machines/inicio/dashboard.actors';
import type { DashboardApi } from '../../../src/api/inicio/dashboard';
import { DASHBOARD_CARDS, DASHBOARD_CHANGED_EVENT, type DashboardChangedEvent } from '../../../src/schemas/inicio/dashboard';
import { sessionMachine, type RolePermissions } from '../../../src/machines/session/session.machine';
import type { Notification } from '../../../src/schemas/notification';
import { buildPermissionsNames } from '../../../src/schemas/menu-catalogue';
import { MODULE, STAFF_PERMISSIONS, SUBMODULE } from '../../../src/schemas/permissions';
import { PERMISSIONS_CHANGED_EVENT } from '../../../src/schemas/configuracion/roles';
import type { SessionUser } from '../../../src/schemas/session';
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
  // As the realtime connection hands it on: parsed by its schema first (src/machines/realtime/realtime-events.ts).
  const event = notificationEventOf(payload);
  expect(event).not.toBeNull();
  actor.send({ type: 'notification.received', payload: event!.payload });
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
            type: { icon: like('person'), color_icon: regex(/^#[0-9a-fA-F]{6}$/, '#10b981') }, // docs/product.md §3 fixes icon and color_icon only (tolerant reader)
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

/**
 * The notifications the server raises by itself for Comercial and CRM (issue "CRM and sales"): a lead
 * assigned to an agent and a reservation expiring tomorrow, each a NotificationsMessageEvent with a
 * route into the app, handled by the same notifications machine.
 */
describe('NotificationsMessageEvent raised by the server', () => {
  const notification = (title: string, route: string) => ({
    tipo_operacion: like('NEW_NOTIFICATION'),
    message: {
      ids_users: eachLike(integer(2)),
      notification: {
        id_notification: integer(1),
        type: { icon: like('new-person'), color_icon: regex(/^#[0-9a-fA-F]{6}$/, '#0ea5e9') },
        title: like(title),
        detail: like('<p>…</p>'),
        created_at_formatted: regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, '2026-11-20 10:15:00'),
        fecha_creacion: regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/, '2026-11-20T15:15:00.000Z'),
        new: boolean(true),
        route: regex(
          route === '/CRM/LEADS' ? /^\/CRM\/LEADS\?lead=\d+$/ : /^\/COMERCIO\/ventas/,
          route === '/CRM/LEADS' ? '/CRM/LEADS?lead=1' : route,
        ),
      },
    },
  });

  it('a lead assigned to an agent reaches the agent with a route to the lead', async () => {
    await messagePact
      .given('a supervisor assigns a new lead to an agent')
      .expectsToReceive('a NotificationsMessageEvent of a lead assigned')
      .withContent(notification('Nuevo lead asignado', '/CRM/LEADS'))
      .withMetadata({ event: 'NotificationsMessageEvent' })
      .verify(
        synchronousBodyHandler(async (body: { message: { ids_users: number[] } }) => {
          const context = await deliver(body, body.message.ids_users[0]!);
          expect(context.items[0]?.title).toBe('Nuevo lead asignado');
        }),
      );
  });

  it('a reservation expiring tomorrow reaches its agent', async () => {
    await messagePact
      .given('a reservation of one of its agents expires tomorrow')
      .expectsToReceive('a NotificationsMessageEvent of a reservation expiring')
      .withContent({ ...notification('Separación vence mañana', '/COMERCIO/ventas') })
      .withMetadata({ event: 'NotificationsMessageEvent' })
      .verify(
        synchronousBodyHandler(async (body: { message: { ids_users: number[] } }) => {
          const context = await deliver(body, body.message.ids_users[0]!);
          expect(context.items[0]?.title).toBe('Separación vence mañana');
        }),
      );
  });
});

/**
 * The notifications of payments (issue 16 "Money in"): a payment to review reaches the reviewers
 * (Finanzas + Pagos) with a route to the queue; its approval or rejection reaches the payer — a
 * customer — with a route to their statement. Each is a NotificationsMessageEvent handled by the
 * same notifications machine (staff and customers alike).
 */
describe('NotificationsMessageEvent of payments', () => {
  const paymentNotification = (title: string, route: RegExp, example: string) => ({
    tipo_operacion: like('NEW_NOTIFICATION'),
    message: {
      ids_users: eachLike(integer(2)),
      notification: {
        id_notification: integer(1),
        type: { icon: like('dollar'), color_icon: regex(/^#[0-9a-fA-F]{6}$/, '#14b8a6') },
        title: like(title),
        detail: like('<p>…</p>'),
        created_at_formatted: regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, '2026-11-20 10:15:00'),
        fecha_creacion: regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/, '2026-11-20T15:15:00.000Z'),
        new: boolean(true),
        route: regex(route, example),
      },
    },
  });
  const cases: Array<[string, string, string, RegExp, string]> = [
    [
      'a payment to review reaches the reviewers',
      'a payment is registered for review',
      'Pago por revisar',
      /^\/FINANZAS\/Pagos$/,
      '/FINANZAS/Pagos',
    ],
    [
      'an approved payment reaches its payer',
      'a pending payment is approved',
      'Pago aprobado',
      /^\/COMERCIO\/DetalleCompra\?venta=\d+$/,
      '/COMERCIO/DetalleCompra?venta=1',
    ],
    [
      'a rejected payment reaches its payer',
      'a pending payment is rejected',
      'Pago rechazado',
      /^\/COMERCIO\/DetalleCompra\?venta=\d+$/,
      '/COMERCIO/DetalleCompra?venta=1',
    ],
  ];
  it.each(cases)('%s', async (_name, state, title, route, example) => {
    await messagePact
      .given(state)
      .expectsToReceive(`a NotificationsMessageEvent: ${title}`)
      .withContent(paymentNotification(title, route, example))
      .withMetadata({ event: 'NotificationsMessageEvent' })
      .verify(
        synchronousBodyHandler(async (body: { message: { ids_users: number[] } }) => {
          const context = await deliver(body, body.message.ids_users[0]!);
          expect(context.items[0]?.title).toBe(title);
          expect(context.items[0]?.route).toMatch(route);
        }),
      );
  });
});

/**
 * The daily job's reminders of instalments (issue 16 "Overdue reminders"): due within 3 days, and
 * overdue, each to the sale's collector (a staff user, with a route to the sale's instalments in
 * Registro de Cuotas) and to its customers (with a route to Mis Compras).
 */
describe('NotificationsMessageEvent of instalments due and overdue', () => {
  const reminder = (title: string | RegExp, example: string, route: RegExp, routeExample: string, icon: string, color: string) => ({
    tipo_operacion: like('NEW_NOTIFICATION'),
    message: {
      ids_users: eachLike(integer(2)),
      notification: {
        id_notification: integer(1),
        type: { icon: like(icon), color_icon: regex(/^#[0-9a-fA-F]{6}$/, color) },
        title: typeof title === 'string' ? like(title) : regex(title, example),
        detail: like('<p>…</p><ul><li>…</li></ul>'),
        created_at_formatted: regex(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/, '2026-11-20 10:15:00'),
        fecha_creacion: regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/, '2026-11-20T15:15:00.000Z'),
        new: boolean(true),
        route: regex(route, routeExample),
      },
    },
  });
  const collectorRoute = /^\/FINANZAS\/RegistroCuotas\?sale_id=\d+$/;
  const customerRoute = /^\/COMERCIO\/MisCompras$/;
  const cases: Array<[string, string, ReturnType<typeof reminder>, RegExp]> = [
    [
      'instalments due soon reach the collector',
      'a sale has an instalment due in 2 days',
      reminder(
        /^Cuotas por vencer: venta V-\d{6}$/,
        'Cuotas por vencer: venta V-000001',
        collectorRoute,
        '/FINANZAS/RegistroCuotas?sale_id=1',
        'dollar',
        '#14b8a6',
      ),
      collectorRoute,
    ],
    [
      'instalments due soon reach the customer',
      'a sale has an instalment due in 2 days',
      reminder('Tiene cuotas por vencer', '', customerRoute, '/COMERCIO/MisCompras', 'dollar', '#14b8a6'),
      customerRoute,
    ],
    [
      'overdue instalments reach the collector',
      'a sale has an instalment that became overdue',
      reminder(
        /^Cuotas vencidas: venta V-\d{6}$/,
        'Cuotas vencidas: venta V-000001',
        collectorRoute,
        '/FINANZAS/RegistroCuotas?sale_id=1',
        'warning-sign',
        '#f59e0b',
      ),
      collectorRoute,
    ],
    [
      'overdue instalments reach the customer',
      'a sale has an instalment that became overdue',
      reminder('Tiene cuotas vencidas', '', customerRoute, '/COMERCIO/MisCompras', 'warning-sign', '#f59e0b'),
      customerRoute,
    ],
  ];
  it.each(cases)('%s', async (name, state, content, route) => {
    await messagePact
      .given(state)
      .expectsToReceive(`a NotificationsMessageEvent: ${name}`)
      .withContent(content)
      .withMetadata({ event: 'NotificationsMessageEvent' })
      .verify(
        synchronousBodyHandler(async (body: { message: { ids_users: number[] } }) => {
          const context = await deliver(body, body.message.ids_users[0]!);
          expect(context.items).toHaveLength(1);
          expect(context.items[0]?.route).toMatch(route);
        }),
      );
  });
});

/** Provider state of the PermissionsChangedEvent message (the provider verification names it too). */
const ROLE_PERMISSIONS_CHANGED = 'an administrator changes the permissions of a role a staff user holds';

/**
 * A restored staff session (user `userId`, no permissions yet) whose row 11 answers `before` at
 * start-up and `after` afterwards (notifications and realtime keep their inert defaults). Resolves
 * once the session is ready.
 */
async function readySession(userId: number, before: string[], after: string[]) {
  const user: SessionUser = {
    id: userId,
    name: 'Rosa',
    surname: 'Huamán',
    dni: '71000001',
    email: 'rosa@parcela.test',
    phone: null,
    status: 'ACTIVO',
    roles: ['Ventas'],
    permissions_names: [],
  };
  let calls = 0;
  const actor = createActor(
    sessionMachine.provide({
      actors: {
        fetchRolePermissions: fromPromise<RolePermissions, void>(async () => {
          const permissions = calls++ === 0 ? before : after;
          return { permissions, menu: buildPermissionsNames(permissions) };
        }),
      },
    }),
    { input: { token: 'a'.repeat(64), userType: 'COLLABORATOR', user, permissions: before } },
  );
  actor.start();
  await waitFor(actor, (s) => s.matches({ loggedIn: { ready: 'current' } }));
  return { actor, calls: () => calls };
}

describe('PermissionsChangedEvent', () => {
  it('tells a staff user that their permissions changed: the session refetches them and rebuilds the menu', async () => {
    await messagePact
      .given(ROLE_PERMISSIONS_CHANGED)
      .expectsToReceive('a PermissionsChangedEvent for a staff user')
      .withContent({
        user_id: integer(2),
        changed_at: regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/, '2026-11-22T15:00:00.000Z'),
      })
      .withMetadata({ event: PERMISSIONS_CHANGED_EVENT })
      .verify(
        synchronousBodyHandler(async (body: unknown) => {
          // Parsed by its schema as the realtime connection does (src/machines/realtime/realtime-events.ts).
          const payload = permissionsEventOf(body)?.payload;
          if (!payload) throw new Error('PermissionsChangedEvent: the payload does not match its schema');
          const granted = [MODULE.crm, SUBMODULE.clientes];
          const own = await readySession(payload.user_id, [], granted);
          own.actor.send({ type: 'session.permissionsChanged', payload });
          const refreshed = await waitFor(own.actor, (s) => s.matches({ loggedIn: { ready: 'current' } }));
          expect(own.calls()).toBe(2);
          expect(refreshed.context.permissions).toEqual(granted);
          expect(refreshed.context.user?.permissions_names.map((g) => g.nombre)).toEqual(['CRM']);

          const other = await readySession(payload.user_id + 1000, [], granted);
          other.actor.send({ type: 'session.permissionsChanged', payload });
          expect(other.actor.getSnapshot().matches({ loggedIn: { ready: 'current' } })).toBe(true);
          expect(other.calls()).toBe(1);
        }),
      );
  });
});

/** Provider state of the DashboardChanged message (the provider verification names it too). */
const PAYMENT_APPROVED = 'a payment registered at the office is approved';

describe('DashboardChanged', () => {
  it('tells a staff user which cards moved: Inicio fetches those it shows again, and only those', async () => {
    await messagePact
      .given(PAYMENT_APPROVED)
      .expectsToReceive('a DashboardChanged for a staff user after a payment is approved')
      .withContent({ cards: eachLike(regex(/^[a-z-]+$/, 'collections')) })
      .withMetadata({ event: DASHBOARD_CHANGED_EVENT })
      .verify(
        synchronousBodyHandler(async (body: unknown) => {
          // Parsed by its schema as the realtime connection does (src/machines/realtime/realtime-events.ts).
          const payload = dashboardEventOf(body)?.payload;
          if (!payload) throw new Error('DashboardChanged: the payload does not match its schema');
          const calls = new Map<string, number>();
          const api = Object.fromEntries(
            DASHBOARD_CARDS.map((card) => [
              card,
              async () => {
                calls.set(card, (calls.get(card) ?? 0) + 1);
                return {};
              },
            ]),
          ) as unknown as DashboardApi;
          let deliver: (payload: DashboardChangedEvent) => void = () => {};
          const machines = createDashboardMachines({
            api,
            onDashboardChanged: (listener) => {
              deliver = listener;
              return () => {};
            },
          });
          const actor = createActor(machines.dashboard, { input: { permissions: [...STAFF_PERMISSIONS] } });
          actor.start();
          const ready = () =>
            Promise.all(actor.getSnapshot().context.cards.map((c) => waitFor(c.ref, (s) => s.matches({ ready: 'idle' }))));
          await ready();
          deliver(payload);
          await ready();
          for (const card of actor.getSnapshot().context.cards.map((c) => c.id))
            expect(calls.get(card), card).toBe((payload.cards as string[]).includes(card) ? 2 : 1);
          expect(payload.cards.some((card) => calls.get(card) === 2)).toBe(true);
          actor.stop();
        }),
      );
  });
});
