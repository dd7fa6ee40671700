/**
 * Provider verification of pacts/parcela-web-parcela-events.json: each message is produced by the
 * real server code path — an administrator sends a notification through POST /api/notifications on
 * a fresh temporary database, and the event the server hands to its broadcaster is what is verified.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, it } from 'vitest';
import { MessageProviderPact, providerWithMetadata } from '@pact-foundation/pact';
import { createApp } from '../../../server/app';
import { testConfig } from '../../../server/config';
import { openDatabase } from '../../../server/db/connection';
import { migrateToLatest } from '../../../server/db/migrate';
import type { BroadcastEvent } from '../../../server/realtime/broadcaster';
import { createRole, createSession, createStaff, ensureCompany } from '../../../server/testing/fixtures';
import { STAFF_PERMISSIONS } from '../../../src/schemas/permissions';
import { NOTIFICATIONS_EVENT_NAME } from '../../../src/schemas/notification';
import { NOTIFICATION_NEW, STAFF } from '../states';

const root = path.resolve(import.meta.dirname, '../../..');
const dir = mkdtempSync(path.join(tmpdir(), 'parcela-events-'));
let generation = 0;

afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the admin send on a fresh server and returns the broadcast NotificationsMessageEvent payload. */
async function notificationSentToStaff(): Promise<unknown> {
  generation += 1;
  const config = testConfig({ databasePath: path.join(dir, `events-${generation}.db`), databaseUrl: null });
  const handle = openDatabase(config);
  await migrateToLatest(handle);
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
    const recipient = await createStaff(handle.db, { ...STAFF });
    const token = await createSession(handle.db, admin);
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
    return typeof event.data === 'string' ? JSON.parse(event.data) : event.data;
  } finally {
    await app.close();
    await handle.db.destroy();
  }
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
      },
      stateHandlers: { 'an administrator sends a notification to a staff user': async () => undefined },
    }).verify();
  });
});
