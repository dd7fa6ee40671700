/**
 * Provider verification of pacts/parcela-web-parcela-events.json: each message is produced by the
 * real server code path on a fresh temporary database, and the event the server hands to its
 * broadcaster is what is verified:
 * - NotificationsMessageEvent: an administrator sends a notification through POST /api/notifications;
 * - PermissionsChangedEvent: an administrator changes a role's permissions through PATCH
 *   /api/roles/{id}, and the event pushed on the holder's private channel is taken.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { MessageProviderPact, providerWithMetadata } from '@pact-foundation/pact';
import { createApp } from '../../../server/app';
import { testConfig } from '../../../server/config';
import type { BroadcastEvent } from '../../../server/realtime/broadcaster';
import { notificationChannelOf } from '../../../server/realtime/realtime.service';
import { createRole, createSession, createStaff, ensureCompany } from '../../../server/testing/fixtures';
import { MODULE, STAFF_PERMISSIONS, SUBMODULE } from '../../../src/schemas/permissions';
import { NOTIFICATIONS_EVENT_NAME } from '../../../src/schemas/notification';
import { PERMISSIONS_CHANGED_EVENT } from '../../../src/schemas/configuracion/roles';
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
      },
      // Each message provider builds its own server and data, so the states need no handler work.
      stateHandlers: {
        'an administrator sends a notification to a staff user': async () => undefined,
        'an administrator changes the permissions of a role a staff user holds': async () => undefined,
      },
    }).verify();
  });
});
