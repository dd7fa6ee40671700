/**
 * Provider verification of pacts/parcela-web-parcela-events.json: each message is produced by the
 * real server code path on a fresh temporary database, and the event the server hands to its
 * broadcaster is what is verified:
 * - NotificationsMessageEvent: an administrator sends a notification through POST /api/notifications;
 * - PermissionsChangedEvent: an administrator changes a role's permissions through PATCH
 *   /api/roles/{id}, and the event pushed on the holder's private channel is taken;
 * - the lead-assigned and reservation-expiring NotificationsMessageEvents: POST /api/leads for an
 *   agent, and the expiry job's reminder step.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { MessageProviderPact, providerWithMetadata } from '@pact-foundation/pact';
import { Temporal } from 'temporal-polyfill';
import { createApp } from '../../../server/app';
import { testConfig } from '../../../server/config';
import type { BroadcastEvent } from '../../../server/realtime/broadcaster';
import { notificationChannelOf } from '../../../server/realtime/realtime.service';
import {
  createCrmCustomer,
  createLot,
  createRole,
  createSession,
  createStaff,
  createSubdivision,
  ensureCompany,
} from '../../../server/testing/fixtures';
import { createReservation, remindReservation } from '../../../server/modules/comercio/reservations.service';
import { createSale } from '../../../server/modules/comercio/sales.service';
import { createSaleRequestSchema } from '../../../src/schemas/comercio/sales';
import { systemAuditContext } from '../../../server/audit/audit';
import { createManualClock, systemClock, todayInLimaBy } from '../../../server/clock';
import { LateFeeJob } from '../../../server/modules/finanzas/late-fee-job';
import { MODULE, STAFF_PERMISSIONS, SUBMODULE } from '../../../src/schemas/permissions';
import { NOTIFICATIONS_EVENT_NAME } from '../../../src/schemas/notification';
import { PERMISSIONS_CHANGED_EVENT } from '../../../src/schemas/configuracion/roles';
import { DASHBOARD_CHANGED_EVENT } from '../../../src/schemas/inicio/dashboard';
import { NOTIFICATION_NEW, STAFF } from '../states';
import { openMigratedDatabase } from '../../../server/start';

const root = path.resolve(import.meta.dirname, '../../..');
const dir = mkdtempSync(path.join(tmpdir(), 'parcela-events-'));
let generation = 0;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

type App = Awaited<ReturnType<typeof createApp>>;
type Db = Awaited<ReturnType<typeof openMigratedDatabase>>['db'];

/**
 * Runs `scenario` on a fresh server (migrated temporary database, a company, the Administrador role
 * and an administrator with a session) whose broadcaster records what it is handed.
 * @returns what `scenario` returns; the server and database are closed afterwards.
 */
async function onFreshServer<T>(
  scenario: (server: { app: App; db: Db; adminToken: string; published: BroadcastEvent[] }) => Promise<T>,
): Promise<T> {
  generation += 1;
  const config = testConfig({ databasePath: path.join(dir, `events-${generation}.db`), databaseUrl: null });
  const handle = await openMigratedDatabase(config);
  const published: BroadcastEvent[] = [];
  const app = await createApp({
    db: handle.db,
    config,
    broadcaster: { publish: (events) => void published.push(...events), settled: async () => {} },
  });
  try {
    await ensureCompany(handle.db);
    await createRole(handle.db, 'Administrador', STAFF_PERMISSIONS);
    const admin = await createStaff(handle.db, { roleNames: ['Administrador'] });
    const adminToken = await createSession(handle.db, admin);
    return await scenario({ app, db: handle.db, adminToken, published });
  } finally {
    await app.close();
    await handle.db.destroy();
  }
}

/** The payload of a broadcast event (the broadcaster may be handed it as a JSON string). */
const payloadOf = (event: BroadcastEvent): unknown => (typeof event.data === 'string' ? JSON.parse(event.data) : event.data);

/** Runs the admin send on a fresh server and returns the broadcast NotificationsMessageEvent payload. */
function notificationSentToStaff(): Promise<unknown> {
  return onFreshServer(async ({ app, db, adminToken: token, published }) => {
    const recipient = await createStaff(db, { ...STAFF });
    const res = await app.inject({
      method: 'POST',
      url: '/api/notifications',
      headers: { authorization: `Bearer ${token}` },
      payload: {
        recipients: { user_type: 'COLLABORATOR', ids: [recipient.id] },
        type: NOTIFICATION_NEW.type,
        title: NOTIFICATION_NEW.title,
        detail: NOTIFICATION_NEW.detail,
        route: NOTIFICATION_NEW.route,
      },
    });
    if (res.statusCode !== 201) throw new Error(`send failed: ${res.statusCode} ${res.body}`);
    const event = published.find((e) => e.event === NOTIFICATIONS_EVENT_NAME);
    if (!event) throw new Error('the server broadcast no NotificationsMessageEvent');
    return payloadOf(event);
  });
}

/** An administrator (a lead supervisor) creates a lead for an agent (POST /api/leads). @returns the broadcast payload. */
function leadAssigned(): Promise<unknown> {
  return onFreshServer(async ({ app, db, adminToken, published }) => {
    const agent = await createStaff(db, { ...STAFF });
    const res = await app.inject({
      method: 'POST',
      url: '/api/leads',
      headers: { authorization: `Bearer ${adminToken}` },
      payload: { name: 'Gabriela Torres', phone: '987000111', channel: 'FACEBOOK', agent_id: agent.id },
    });
    if (res.statusCode !== 201) throw new Error(`lead failed: ${res.statusCode} ${res.body}`);
    const event = published.find((e) => e.event === NOTIFICATIONS_EVENT_NAME);
    if (!event) throw new Error('the server broadcast no NotificationsMessageEvent for the lead');
    return payloadOf(event);
  });
}

/**
 * A one-day reservation made by an agent is reminded by the expiry job's step
 * (`remindReservation`, what ReservationExpiry.runPass publishes). @returns the reminder's payload.
 */
function reservationExpiring(): Promise<unknown> {
  return onFreshServer(async ({ db }) => {
    const agent = await createStaff(db, { ...STAFF });
    const subdivision = await createSubdivision(db);
    const lotId = await createLot(db, subdivision.id, { block: 'A', number: '1' });
    const customerId = await createCrmCustomer(db);
    const audit = { ...systemAuditContext(systemClock), actor: { userType: 'COLLABORATOR' as const, accountId: agent.id } };
    const reservation = await createReservation({ db, clock: systemClock }, audit, {
      customer_id: customerId,
      lot_id: lotId,
      amount: 50_000,
      hold_days: 1,
      conditions_accepted: true,
    });
    const { events } = await remindReservation(db, systemClock, reservation.id);
    const event = events.find((e) => e.event === NOTIFICATIONS_EVENT_NAME);
    if (!event) throw new Error('the reminder raised no NotificationsMessageEvent');
    return payloadOf(event);
  });
}

/**
 * An administrator grants CRM to the role "Ventas" held by a staff user (PATCH /api/roles/{id}) on a
 * fresh server. @returns the PermissionsChangedEvent payload broadcast on that user's private channel.
 */
function rolePermissionsChanged(): Promise<unknown> {
  return onFreshServer(async ({ app, db, adminToken, published }) => {
    const roleId = await createRole(db, 'Ventas', [MODULE.comercial, SUBMODULE.ventas]);
    const holder = await createStaff(db, { ...STAFF, roleNames: ['Ventas'] });
    const res = await app.inject({
      method: 'PATCH',
      url: `/api/roles/${roleId}`,
      headers: { authorization: `Bearer ${adminToken}` },
      payload: { permissions: [MODULE.comercial, SUBMODULE.ventas, MODULE.crm, SUBMODULE.clientes] },
    });
    if (res.statusCode !== 200) throw new Error(`role update failed: ${res.statusCode} ${res.body}`);
    const channel = notificationChannelOf({ userType: 'COLLABORATOR', accountId: holder.id });
    const event = published.find((e) => e.event === PERMISSIONS_CHANGED_EVENT && e.channel === channel);
    if (!event) throw new Error(`the server broadcast no PermissionsChangedEvent on ${channel}`);
    return payloadOf(event);
  });
}

/**
 * A payment of S/ 100.00 registered at the office (POST /api/payments) towards a fresh sale, then
 * approved or rejected when `review` says so. @returns the broadcast payload of `title`.
 */
function paymentNotification(review: 'none' | 'approve' | 'reject', title: string): () => Promise<unknown> {
  return paymentReviewed(review, `NotificationsMessageEvent "${title}"`, (published) =>
    published.find((e) => e.event === NOTIFICATIONS_EVENT_NAME && JSON.stringify(payloadOf(e)).includes(title)),
  );
}

/** The DashboardChanged the approval of a payment raises for a staff user (docs/dashboard.md "Realtime: DashboardChanged"). */
function dashboardChangedAfterApproval(): Promise<unknown> {
  return paymentReviewed('approve', 'DashboardChanged', (published) => published.find((e) => e.event === DASHBOARD_CHANGED_EVENT))();
}

/**
 * {@link paymentNotification}'s payment, reviewed as `review` says. @returns the payload of the
 * broadcast `find` picks (`what` names it in the error when there is none).
 */
function paymentReviewed(
  review: 'none' | 'approve' | 'reject',
  what: string,
  find: (published: BroadcastEvent[]) => BroadcastEvent | undefined,
): () => Promise<unknown> {
  return () =>
    onFreshServer(async ({ app, db, adminToken, published }) => {
      const subdivision = await createSubdivision(db);
      const lotId = await createLot(db, subdivision.id, { block: 'P', number: '1' });
      const customerId = await createCrmCustomer(db);
      const sale = await createSale(
        { db, clock: systemClock },
        systemAuditContext(systemClock),
        createSaleRequestSchema.parse({
          lot_id: lotId,
          holders: [{ customer_id: customerId, role: 'TITULAR', share_percent: '100' }],
          down_payment_percent: '20',
          instalments: 3,
          monthly_rate_percent: '0',
          method: 'SIN_INTERES',
          first_due_date: Temporal.PlainDate.from(todayInLimaBy(systemClock)).add({ months: 1 }).toString(),
        }),
      );
      const headers = { authorization: `Bearer ${adminToken}` };
      const created = await app.inject({
        method: 'POST',
        url: '/api/payments',
        headers,
        payload: { sale_id: sale.id, amount: 10_000, method: 'EFECTIVO', operation_date: todayInLimaBy(systemClock) },
      });
      if (created.statusCode !== 201) throw new Error(`payment failed: ${created.statusCode} ${created.body}`);
      const id = (created.json() as { data: { id: number } }).data.id;
      if (review !== 'none') {
        const res = await app.inject({
          method: 'POST',
          url: `/api/payments/${id}/${review}`,
          headers,
          // The administrator registered it too: approving is their exception to the segregation of
          // duties, with its reason (docs/domain.md "Payments: segregation of duties").
          payload:
            review === 'reject' ? { reason: 'El voucher no corresponde al monto' } : { override_reason: 'Caja sin otro revisor hoy' },
        });
        if (res.statusCode !== 200) throw new Error(`${review} failed: ${res.statusCode} ${res.body}`);
      }
      const event = find(published);
      if (!event) throw new Error(`the server broadcast no ${what}`);
      return payloadOf(event);
    });
}

/**
 * A sale whose first instalment falls due on `due`, reminded by the daily late-fee job
 * (LateFeeJob.runUntilDone, what the server runs) on `day`; @returns the payload of the reminder
 * to the collector (a staff user) or to the customer.
 */
function instalmentReminder(kind: 'POR_VENCER' | 'VENCIDA', to: 'collector' | 'customer'): () => Promise<unknown> {
  return () =>
    onFreshServer(async ({ db }) => {
      const agent = await createStaff(db, { ...STAFF });
      const subdivision = await createSubdivision(db);
      const lotId = await createLot(db, subdivision.id, { block: 'R', number: '1' });
      const customerId = await createCrmCustomer(db);
      const clock = createManualClock('2026-03-02T15:00:00.000Z');
      const audit = { ...systemAuditContext(clock), actor: { userType: 'COLLABORATOR' as const, accountId: agent.id } };
      await createSale(
        { db, clock },
        audit,
        createSaleRequestSchema.parse({
          lot_id: lotId,
          holders: [{ customer_id: customerId, role: 'TITULAR', share_percent: '100' }],
          down_payment_percent: '0',
          instalments: 3,
          monthly_rate_percent: '0',
          method: 'SIN_INTERES',
          first_due_date: '2026-04-01',
        }),
      );
      const published: BroadcastEvent[] = [];
      const job = new LateFeeJob({
        db,
        clock,
        broadcaster: { publish: (events) => void published.push(...events), settled: async () => {} },
        log: console,
      });
      // Due in 2 days (30/03); overdue: the first late day after the 3 grace days is 05/04.
      clock.set(kind === 'POR_VENCER' ? '2026-03-30T15:00:00.000Z' : '2026-04-06T15:00:00.000Z');
      await job.runUntilDone();
      const channel =
        to === 'collector'
          ? notificationChannelOf({ userType: 'COLLABORATOR', accountId: agent.id })
          : notificationChannelOf({ userType: 'CUSTOMER', accountId: customerId });
      const event = published.find((e) => e.event === NOTIFICATIONS_EVENT_NAME && e.channel === channel);
      if (!event) throw new Error(`the job broadcast no ${kind} reminder to the ${to}`);
      return payloadOf(event);
    });
}

describe('parcela-events provider', () => {
  it('produces every message of pacts/parcela-web-parcela-events.json', async () => {
    await new MessageProviderPact({
      provider: 'parcela-events',
      pactUrls: [path.join(root, 'pacts', 'parcela-web-parcela-events.json')],
      logLevel: 'warn',
      // The event name is the one the payload was found under in what the server broadcast.
      messageProviders: {
        'a NotificationsMessageEvent for a staff user': providerWithMetadata(notificationSentToStaff, { event: NOTIFICATIONS_EVENT_NAME }),
        'a PermissionsChangedEvent for a staff user': providerWithMetadata(rolePermissionsChanged, { event: PERMISSIONS_CHANGED_EVENT }),
        'a DashboardChanged for a staff user after a payment is approved': providerWithMetadata(dashboardChangedAfterApproval, {
          event: DASHBOARD_CHANGED_EVENT,
        }),
        'a NotificationsMessageEvent of a lead assigned': providerWithMetadata(leadAssigned, { event: NOTIFICATIONS_EVENT_NAME }),
        'a NotificationsMessageEvent of a reservation expiring': providerWithMetadata(reservationExpiring, {
          event: NOTIFICATIONS_EVENT_NAME,
        }),
        'a NotificationsMessageEvent: Pago por revisar': providerWithMetadata(paymentNotification('none', 'Pago por revisar'), {
          event: NOTIFICATIONS_EVENT_NAME,
        }),
        'a NotificationsMessageEvent: Pago aprobado': providerWithMetadata(paymentNotification('approve', 'Pago aprobado'), {
          event: NOTIFICATIONS_EVENT_NAME,
        }),
        'a NotificationsMessageEvent: Pago rechazado': providerWithMetadata(paymentNotification('reject', 'Pago rechazado'), {
          event: NOTIFICATIONS_EVENT_NAME,
        }),
        'a NotificationsMessageEvent: instalments due soon reach the collector': providerWithMetadata(
          instalmentReminder('POR_VENCER', 'collector'),
          { event: NOTIFICATIONS_EVENT_NAME },
        ),
        'a NotificationsMessageEvent: instalments due soon reach the customer': providerWithMetadata(
          instalmentReminder('POR_VENCER', 'customer'),
          { event: NOTIFICATIONS_EVENT_NAME },
        ),
        'a NotificationsMessageEvent: overdue instalments reach the collector': providerWithMetadata(
          instalmentReminder('VENCIDA', 'collector'),
          { event: NOTIFICATIONS_EVENT_NAME },
        ),
        'a NotificationsMessageEvent: overdue instalments reach the customer': providerWithMetadata(
          instalmentReminder('VENCIDA', 'customer'),
          { event: NOTIFICATIONS_EVENT_NAME },
        ),
      },
      // Each message provider builds its own server and data, so the states need no handler work.
      stateHandlers: {
        'an administrator sends a notification to a staff user': async () => undefined,
        'an administrator changes the permissions of a role a staff user holds': async () => undefined,
      },
    }).verify();
  });
});
