import { createHash, createHmac } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import PusherClient from 'pusher-js';
import Pusher from 'pusher';
import WebSocket from 'ws';
import { NOTIFICATIONS_EVENT_NAME, notificationsMessageEventSchema, type NotificationsMessageEvent } from '../../src/schemas/notification';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { createApp } from '../../server/app';
import { MESSAGES } from '../../server/errors';
import { loadConfig, openFileLimit, testConfig, type AppConfig } from '../../server/config';
import { NOTIFICATION_TEXTS } from '../../server/notifications/notifications.service';
import { createPusherBroadcaster } from '../../server/realtime/broadcaster';
import { createCustomer, createSession, createStaff, type CustomerFixture, type StaffFixture } from '../../server/testing/fixtures';
import { bearer, createTestDatabase, dialects, useTestDatabase } from './harness';

/**
 * Realtime over the Pusher Channels protocol with real clients against a real listening server on
 * 127.0.0.1 (random port): pusher-js for the staff and customer apps, raw `ws` sockets for forged
 * messages, and the official `pusher` package for the trigger API.
 */

const KEY = 'clave-tiempo-real';
const SECRET = 'secreto-tiempo-real-0123456789abcdef';
const APP_ID = 'parcela-test';
const WAIT_MS = 5_000;

/** Resolves when `check` returns a value other than undefined/false, polling every 10 ms. */
async function waitFor<T>(check: () => T | undefined | false, what: string, timeoutMs = WAIT_MS): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

interface PusherMessage {
  event: string;
  channel?: string;
  data?: unknown;
}

/** A raw WebSocket speaking the Pusher protocol by hand. */
class RawClient {
  readonly messages: PusherMessage[] = [];
  closeInfo: { code: number; reason: string } | null = null;
  private constructor(readonly ws: WebSocket) {
    ws.on('message', (raw) => this.messages.push(JSON.parse(raw.toString()) as PusherMessage));
    ws.on('close', (code, reason) => {
      this.closeInfo = { code, reason: reason.toString() };
    });
  }

  static async connect(url: string): Promise<RawClient> {
    const ws = new WebSocket(url);
    const client = new RawClient(ws);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    return client;
  }

  send(message: PusherMessage): void {
    this.ws.send(JSON.stringify(message));
  }

  /** The first message (from `from` on) matching `predicate`. */
  next(predicate: (m: PusherMessage) => boolean, what: string, from = 0): Promise<PusherMessage> {
    return waitFor(() => this.messages.slice(from).find(predicate), what);
  }

  async socketId(): Promise<string> {
    const established = await this.next((m) => m.event === 'pusher:connection_established', 'connection_established');
    return (JSON.parse(established.data as string) as { socket_id: string }).socket_id;
  }

  close(): void {
    this.ws.close();
  }
}

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const pusherConfig = (overrides: Partial<AppConfig['pusher']> = {}): AppConfig['pusher'] => ({
  ...testConfig().pusher,
  appId: APP_ID,
  key: KEY,
  secret: SECRET,
  secretConfigured: true,
  ...overrides,
});

describe.each(dialects)('realtime (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const logLines: string[] = [];
  let app: FastifyInstance;
  let base: string;
  let wsBase: string;
  let port: number;
  let admin: StaffFixture;
  let staff: StaffFixture;
  let customer: CustomerFixture;
  let tokens: { admin: string; staff: string; customer: string };

  beforeAll(async () => {
    admin = await createStaff(db(), { permissions: [MODULE.configuracion, SUBMODULE.usuarios] });
    staff = await createStaff(db(), { permissions: [MODULE.crm] });
    customer = await createCustomer(db());
    tokens = {
      admin: await createSession(db(), admin),
      staff: await createSession(db(), staff),
      customer: await createSession(db(), customer),
    };
    app = await createApp({
      db: db(),
      config: testConfig({ pusher: pusherConfig() }),
      logger: { level: 'debug', stream: { write: (line: string) => void logLines.push(line) } },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
    wsBase = `ws://127.0.0.1:${port}`;
  });

  afterAll(async () => {
    await app?.close();
  });

  const post = (path: string, token: string | null, body: unknown) =>
    fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? bearer(token) : {}) },
      body: JSON.stringify(body),
    });

  /** The official server SDK aimed at this server. */
  const sdk = (secret = SECRET) => new Pusher({ appId: APP_ID, key: KEY, secret, host: '127.0.0.1', port: String(port), useTLS: false });

  /** pusher-js as the web app uses it: the server's host, bearer token on the channel authorisation. */
  function appClient(token: string): PusherClient {
    return new PusherClient(KEY, {
      cluster: 'mt1',
      wsHost: '127.0.0.1',
      wsPort: port,
      forceTLS: false,
      enabledTransports: ['ws'],
      disableStats: true,
      channelAuthorization: { endpoint: `${base}/broadcasting/auth`, transport: 'ajax', headers: { Authorization: `Bearer ${token}` } },
    });
  }

  async function subscribed(client: PusherClient, channelName: string, events: NotificationsMessageEvent[]): Promise<void> {
    const channel = client.subscribe(channelName);
    channel.bind(NOTIFICATIONS_EVENT_NAME, (data: unknown) => events.push(notificationsMessageEventSchema.parse(data)));
    await new Promise<void>((resolve, reject) => {
      channel.bind('pusher:subscription_succeeded', () => resolve());
      channel.bind('pusher:subscription_error', (error: unknown) => reject(new Error(`subscription failed: ${JSON.stringify(error)}`)));
    });
  }

  it('delivers a notification only to its recipient’s pusher-js client, over private channels', async () => {
    // Row 3 gives each account its channel names (laravel-echo adds the private- prefix).
    const credentials = (await (
      await fetch(`${base}/api/get_websocket_and_channels_credentials`, { headers: bearer(tokens.staff) })
    ).json()) as {
      data: { channels: Record<string, { channel: string }>; echo_info: Record<string, unknown> };
    };
    expect(credentials.data.echo_info).toMatchObject({ key: KEY, wsHost: null, authEndpoint: '/broadcasting/auth' });
    const staffChannel = `private-${credentials.data.channels['administration.notifications']?.channel}`;
    expect(staffChannel).toBe(`private-administration.notifications.${staff.id}`);
    const customerChannel = `private-administration.notifications_customers.${customer.id}`;

    const staffClient = appClient(tokens.staff);
    const customerClient = appClient(tokens.customer);
    const staffEvents: NotificationsMessageEvent[] = [];
    const customerEvents: NotificationsMessageEvent[] = [];
    try {
      await subscribed(staffClient, staffChannel, staffEvents);
      await subscribed(customerClient, customerChannel, customerEvents);

      const toStaff = await post('/api/notifications', tokens.admin, {
        recipients: { user_type: 'COLLABORATOR', ids: [staff.id] },
        type: 'INFO',
        title: 'Para el colaborador',
        detail: '<p>Hola</p>',
      });
      expect(toStaff.status).toBe(201);
      const [received] = await waitFor(() => staffEvents.length > 0 && staffEvents, 'the staff event');
      expect(received).toMatchObject({
        tipo_operacion: 'NEW_NOTIFICATION',
        message: { ids_users: [staff.id], notification: { title: 'Para el colaborador', detail: '<p>Hola</p>', new: true } },
      });

      // A later notification to the customer arrives first on the customer's client: the staff one never did.
      const toCustomer = await post('/api/notifications', tokens.admin, {
        recipients: { user_type: 'CUSTOMER', ids: [customer.id] },
        type: 'SALE',
        title: 'Para el cliente',
        detail: 'Su compra',
      });
      expect(toCustomer.status).toBe(201);
      await waitFor(() => customerEvents.length > 0, 'the customer event');
      expect(customerEvents.map((e) => e.message.notification.title)).toEqual(['Para el cliente']);
      expect(customerEvents[0]?.message.ids_users).toEqual([customer.id]);
      expect(staffEvents).toHaveLength(1);

      // A password change reaches its own account in real time.
      const change = await fetch(`${base}/api/change_password_user`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...bearer(tokens.staff) },
        body: new URLSearchParams({ actual_password: staff.password, new_password: 'Nueva#Clave2026' }).toString(),
      });
      expect(change.status).toBe(200);
      await waitFor(() => staffEvents.length > 1, 'the password event');
      expect(staffEvents[1]?.message.notification).toMatchObject({
        title: NOTIFICATION_TEXTS.passwordChangedTitle,
        type: { code: 'SECURITY' },
      });
      expect(customerEvents).toHaveLength(1);
    } finally {
      staffClient.disconnect();
      customerClient.disconnect();
    }
  });

  describe('POST /broadcasting/auth', () => {
    const auth = (token: string | null, body: Record<string, string>, form = true) =>
      fetch(`${base}/broadcasting/auth`, {
        method: 'POST',
        headers: {
          'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
          ...(token ? bearer(token) : {}),
        },
        body: form ? new URLSearchParams(body).toString() : JSON.stringify(body),
      });

    it('signs the caller’s own channel: key:HMAC-SHA256(secret, socket_id:channel)', async () => {
      const channel = `private-administration.notifications.${staff.id}`;
      const res = await auth(tokens.staff, { socket_id: '123.456', channel_name: channel });
      expect(res.status).toBe(200);
      const signature = createHmac('sha256', SECRET).update(`123.456:${channel}`).digest('hex');
      expect(await res.json()).toEqual({ auth: `${KEY}:${signature}` });

      const customerChannel = `private-administration.notifications_customers.${customer.id}`;
      const json = await auth(tokens.customer, { socket_id: '1.2', channel_name: customerChannel }, false);
      expect(json.status).toBe(200);
    });

    it('refuses to sign anyone else’s channel with 403', async () => {
      const cases: [string, string][] = [
        [tokens.staff, `private-administration.notifications.${admin.id}`],
        [tokens.staff, `private-administration.notifications_customers.${staff.id}`],
        [tokens.staff, `administration.notifications.${staff.id}`],
        [tokens.customer, `private-administration.notifications.${customer.id}`],
        [tokens.customer, 'private-cualquier-otro'],
      ];
      for (const [token, channel] of cases) {
        const res = await auth(token, { socket_id: '123.456', channel_name: channel });
        expect(res.status, channel).toBe(403);
        expect(await res.json()).toEqual({ message: MESSAGES.forbidden });
      }
    });

    it('needs a token (401) and a valid socket id (422)', async () => {
      expect((await auth(null, { socket_id: '1.2', channel_name: `private-administration.notifications.${staff.id}` })).status).toBe(401);
      expect(
        (await auth(tokens.staff, { socket_id: 'abc', channel_name: `private-administration.notifications.${staff.id}` })).status,
      ).toBe(422);
    });
  });

  describe('WebSocket /app/:key', () => {
    it('sends connection_established with a JSON-encoded data string, and answers ping with pong', async () => {
      const client = await RawClient.connect(`${wsBase}/app/${KEY}?protocol=7&client=js&version=8.4.0&flash=false`);
      try {
        const established = await client.next((m) => m.event === 'pusher:connection_established', 'handshake');
        expect(typeof established.data).toBe('string');
        const data = JSON.parse(established.data as string) as { socket_id: string; activity_timeout: number };
        expect(data.socket_id).toMatch(/^\d+\.\d+$/);
        expect(data.activity_timeout).toBe(120);

        client.send({ event: 'pusher:ping', data: {} });
        await client.next((m) => m.event === 'pusher:pong', 'pong');
      } finally {
        client.close();
      }
    });

    it('answers a plain HTTP GET with 426 JSON', async () => {
      const res = await fetch(`${base}/app/${KEY}`, { headers: { accept: 'text/html' } });
      expect(res.status).toBe(426);
      expect(res.headers.get('upgrade')).toBe('websocket');
      expect(await res.json()).toEqual({ message: 'Esta dirección solo acepta conexiones WebSocket' });
    });

    it('refuses an unknown app key (4001), a missing (4008) or unsupported (4007) protocol version', async () => {
      for (const [url, code] of [
        [`${wsBase}/app/otra-clave?protocol=7`, 4001],
        [`${wsBase}/app/${KEY}`, 4008],
        [`${wsBase}/app/${KEY}?protocol=3`, 4007],
      ] as const) {
        const client = await RawClient.connect(url);
        const error = await client.next((m) => m.event === 'pusher:error', 'error');
        expect((error.data as { code: number }).code).toBe(code);
        const closed = await waitFor(() => client.closeInfo ?? undefined, 'close');
        expect(closed.code).toBe(code);
      }
    });

    it('refuses forged private subscriptions with pusher:error 4009 and keeps the connection', async () => {
      const client = await RawClient.connect(`${wsBase}/app/${KEY}?protocol=7`);
      try {
        const socketId = await client.socketId();
        const channel = `private-administration.notifications.${staff.id}`;
        const sign = (id: string) => `${KEY}:${createHmac('sha256', SECRET).update(`${id}:${channel}`).digest('hex')}`;
        const forged = [
          undefined,
          `${KEY}:${'0'.repeat(64)}`,
          sign('999.999'), // a valid signature for another socket
          `otra-clave:${sign(socketId).split(':')[1]}`,
        ];
        for (const auth of forged) {
          const from = client.messages.length;
          client.send({ event: 'pusher:subscribe', data: { channel, ...(auth ? { auth } : {}) } });
          const error = await client.next((m) => m.event === 'pusher:error', 'error', from);
          expect(error.data).toEqual({ code: 4009, message: 'Connection is unauthorized' });
        }
        const from = client.messages.length;
        client.send({ event: 'pusher:subscribe', data: { channel: 'presence-sala' } });
        expect((await client.next((m) => m.event === 'pusher:error', 'presence error', from)).data).toMatchObject({ code: 4009 });

        // The socket is still usable: the signature /broadcasting/auth gives works.
        const authRes = await fetch(`${base}/broadcasting/auth`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...bearer(tokens.staff) },
          body: JSON.stringify({ socket_id: socketId, channel_name: channel }),
        });
        const { auth } = (await authRes.json()) as { auth: string };
        client.send({ event: 'pusher:subscribe', data: { channel, auth } });
        const ok = await client.next((m) => m.event === 'pusher_internal:subscription_succeeded', 'subscription');
        expect(ok.channel).toBe(channel);
        expect(client.closeInfo).toBeNull();
        expect(client.messages.some((m) => m.event === 'pusher_internal:subscription_succeeded' && m.channel !== channel)).toBe(false);
      } finally {
        client.close();
      }
    });

    it('answers client events and invalid messages with pusher:error', async () => {
      const client = await RawClient.connect(`${wsBase}/app/${KEY}?protocol=7`);
      try {
        await client.socketId();
        client.ws.send('no es json');
        expect((await client.next((m) => m.event === 'pusher:error', 'invalid message')).data).toEqual({
          code: null,
          message: 'Invalid message',
        });
        const from = client.messages.length;
        client.send({ event: 'client-hola', channel: 'publico', data: {} });
        expect((await client.next((m) => m.event === 'pusher:error', 'client event', from)).data).toMatchObject({ code: null });
      } finally {
        client.close();
      }
    });
  });

  describe('trigger API POST /apps/:appId/events', () => {
    it('accepts the official pusher package’s signed requests and delivers to subscribers until they unsubscribe', async () => {
      const client = await RawClient.connect(`${wsBase}/app/${KEY}?protocol=7`);
      try {
        await client.socketId();
        client.send({ event: 'pusher:subscribe', data: { channel: 'publico' } });
        client.send({ event: 'pusher:subscribe', data: { channel: 'otro' } });
        await client.next((m) => m.event === 'pusher_internal:subscription_succeeded' && m.channel === 'otro', 'subscriptions');

        const res = await sdk().trigger('publico', 'saludo', { hola: 'mundo' });
        expect(res.status).toBe(200);
        const message = await client.next((m) => m.event === 'saludo', 'event');
        expect(message).toEqual({ event: 'saludo', channel: 'publico', data: JSON.stringify({ hola: 'mundo' }) });

        const batch = await sdk().triggerBatch([
          { channel: 'publico', name: 'uno', data: '1' },
          { channel: 'otro', name: 'dos', data: '2' },
        ]);
        expect(batch.status).toBe(200);
        await client.next((m) => m.event === 'dos', 'batch');

        client.send({ event: 'pusher:unsubscribe', data: { channel: 'publico' } });
        client.send({ event: 'pusher:ping', data: {} });
        await client.next((m) => m.event === 'pusher:pong', 'pong');
        await sdk().trigger('publico', 'ignorado', {});
        await sdk().trigger('otro', 'ultimo', {});
        await client.next((m) => m.event === 'ultimo', 'last event');
        expect(client.messages.some((m) => m.event === 'ignorado')).toBe(false);
      } finally {
        client.close();
      }
    });

    it('rejects a bad signature, a tampered body, a stale timestamp (401) and another app id (404)', async () => {
      await expect(sdk('otro-secreto').trigger('publico', 'x', {})).rejects.toMatchObject({ status: 401 });

      const body = JSON.stringify({ name: 'x', channels: ['publico'], data: '{}' });
      const md5 = (text: string) => createHash('md5').update(text, 'utf8').digest('hex');
      const signedUrl = (path: string, text: string, timestamp: number) => {
        const query = `auth_key=${KEY}&auth_timestamp=${timestamp}&auth_version=1.0&body_md5=${md5(text)}`;
        const signature = createHmac('sha256', SECRET).update(`POST\n${path}\n${query}`).digest('hex');
        return `${base}${path}?${query}&auth_signature=${signature}`;
      };
      const now = Math.floor(Date.now() / 1000);
      const send = (url: string, text: string) =>
        fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: text });

      expect((await send(signedUrl(`/apps/${APP_ID}/events`, body, now), body)).status).toBe(200);
      const tampered = body.replace('publico', 'privado');
      expect((await send(signedUrl(`/apps/${APP_ID}/events`, body, now), tampered)).status).toBe(401);
      expect((await send(signedUrl(`/apps/${APP_ID}/events`, body, now - 3600), body)).status).toBe(401);
      expect((await send(`${base}/apps/${APP_ID}/events`, body)).status).toBe(401);
      expect((await send(signedUrl('/apps/otra-app/events', body, now), body)).status).toBe(404);
    });
  });

  it('never writes the secret to a log or a response', async () => {
    const row3 = await (await fetch(`${base}/api/get_websocket_and_channels_credentials`, { headers: bearer(tokens.customer) })).text();
    expect(row3).not.toContain(SECRET);
    expect(logLines.length).toBeGreaterThan(0);
    expect(logLines.join('\n')).not.toContain(SECRET);
  });
});

describe('broadcast failures', () => {
  it('are logged without the secret and never fail the caller', async () => {
    const warnings: unknown[] = [];
    const log = { warn: (...args: unknown[]) => warnings.push(args), debug: () => undefined } as never;
    const broadcaster = createPusherBroadcaster({
      pusher: pusherConfig({ host: '127.0.0.1', port: await closedPort(), scheme: 'http' }),
      selfTarget: () => null,
      log,
      timeoutMs: 2_000,
    });
    broadcaster.publish([{ channel: 'private-x', event: 'e', data: { a: 1 } }]);
    await broadcaster.settled();
    expect(warnings).toHaveLength(1);
    expect(JSON.stringify(warnings)).toContain('Realtime broadcast failed');
    expect(JSON.stringify(warnings)).not.toContain(SECRET);
  });

  it('leave the request that raised them successful', async () => {
    const database = await createTestDatabase('sqlite');
    const lines: string[] = [];
    const failing = await createApp({
      db: database.db,
      config: testConfig({ pusher: pusherConfig({ host: '127.0.0.1', port: await closedPort(), scheme: 'http' }) }),
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
    });
    try {
      const sender = await createStaff(database.db, { permissions: [MODULE.configuracion, SUBMODULE.usuarios] });
      const res = await failing.inject({
        method: 'POST',
        url: '/api/notifications',
        headers: bearer(await createSession(database.db, sender)),
        payload: { recipients: { user_type: 'COLLABORATOR', ids: [sender.id] }, type: 'INFO', title: 'Hola', detail: 'Prueba' },
      });
      expect(res.statusCode).toBe(201);
    } finally {
      await failing.close();
      await database.destroy();
    }
    expect(lines.join('\n')).toContain('Realtime broadcast failed');
    expect(lines.join('\n')).not.toContain(SECRET);
  });

  it('skips quietly while the server does not listen', async () => {
    const warnings: unknown[] = [];
    const broadcaster = createPusherBroadcaster({
      pusher: pusherConfig(),
      selfTarget: () => null,
      log: { warn: (...args: unknown[]) => warnings.push(args), debug: () => undefined } as never,
    });
    broadcaster.publish([{ channel: 'private-x', event: 'e', data: {} }]);
    await broadcaster.settled();
    expect(warnings).toEqual([]);
  });
});

/**
 * Issue 11 item 5: per-address and global caps on open WebSockets (Pusher 4100 "Over capacity"),
 * and the unauthenticated-socket timeout (4009). Small caps, real sockets on 127.0.0.1.
 */
describe('realtime connection limits', () => {
  const isRefusal = (code: number) => (m: PusherMessage) =>
    m.event === 'pusher:error' && (m.data as { code?: number } | undefined)?.code === code;

  async function listening(realtime: Partial<AppConfig['realtime']>) {
    const database = await createTestDatabase('sqlite');
    const config = testConfig({ pusher: pusherConfig(), realtime: { ...testConfig().realtime, ...realtime } });
    const app = await createApp({ db: database.db, config });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const url = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/app/${KEY}?protocol=7`;
    return {
      app,
      database,
      url,
      stop: async () => {
        await app.close();
        await database.destroy();
      },
    };
  }

  /** Resolves with the close code once `client` is closed. */
  const closed = (client: RawClient) => waitFor(() => client.closeInfo?.code, 'the socket to close');

  it('refuses sockets past REALTIME_MAX_CONNECTIONS_PER_IP with 4100 "Over capacity", and takes new ones once one closes', async () => {
    const server = await listening({ maxConnectionsPerIp: 2, maxConnections: 100 });
    const clients: RawClient[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const client = await RawClient.connect(server.url);
        clients.push(client);
        await client.socketId();
      }
      const third = await RawClient.connect(server.url);
      clients.push(third);
      const refusal = await third.next(isRefusal(4100), 'the 4100 refusal');
      expect(refusal.data).toEqual({ code: 4100, message: 'Over capacity' });
      expect(await closed(third)).toBe(4100);
      expect(third.messages.some((m) => m.event === 'pusher:connection_established')).toBe(false);

      clients[0]!.close();
      await closed(clients[0]!);
      const again = await RawClient.connect(server.url);
      clients.push(again);
      expect(await again.socketId()).toMatch(/^\d+\.\d+$/);
    } finally {
      for (const client of clients) client.close();
      await server.stop();
    }
  });

  it('refuses sockets past REALTIME_MAX_CONNECTIONS in all with 4100', async () => {
    const server = await listening({ maxConnectionsPerIp: 50, maxConnections: 3 });
    const clients: RawClient[] = [];
    try {
      for (let i = 0; i < 3; i++) {
        const client = await RawClient.connect(server.url);
        clients.push(client);
        await client.socketId();
      }
      const fourth = await RawClient.connect(server.url);
      clients.push(fourth);
      await fourth.next(isRefusal(4100), 'the 4100 refusal');
      expect(await closed(fourth)).toBe(4100);
    } finally {
      for (const client of clients) client.close();
      await server.stop();
    }
  });

  it('closes a socket without a signed private channel after REALTIME_UNAUTHENTICATED_TIMEOUT_SECONDS (4009); a subscribed one stays', async () => {
    const server = await listening({ unauthenticatedTimeoutMs: 300 });
    const database = server.database;
    const staff = await createStaff(database.db, { permissions: [MODULE.crm] });
    const token = await createSession(database.db, staff);
    const idle = await RawClient.connect(server.url);
    const publicOnly = await RawClient.connect(server.url);
    const signed = await RawClient.connect(server.url);
    try {
      const started = Date.now();
      await idle.socketId();
      await publicOnly.socketId();
      publicOnly.send({ event: 'pusher:subscribe', data: { channel: 'public-news' } });
      await publicOnly.next((m) => m.event === 'pusher_internal:subscription_succeeded', 'the public subscription');
      const socketId = await signed.socketId();
      const channel = `private-administration.notifications.${staff.id}`;
      const authAnswer = await server.app.inject({
        method: 'POST',
        url: '/broadcasting/auth',
        headers: bearer(token),
        payload: { socket_id: socketId, channel_name: channel },
      });
      signed.send({ event: 'pusher:subscribe', data: { channel, auth: (authAnswer.json() as { auth: string }).auth } });
      await signed.next((m) => m.event === 'pusher_internal:subscription_succeeded', 'the private subscription');

      expect(await closed(idle)).toBe(4009);
      expect(await closed(publicOnly)).toBe(4009);
      expect(Date.now() - started).toBeGreaterThanOrEqual(250);
      expect(idle.messages.find(isRefusal(4009))?.data).toMatchObject({ code: 4009 });
      // Past the timeout the signed socket still answers.
      const from = signed.messages.length;
      signed.send({ event: 'pusher:ping', data: {} });
      await signed.next((m) => m.event === 'pusher:pong', 'the pong', from);
      expect(signed.closeInfo).toBeNull();
    } finally {
      idle.close();
      publicOnly.close();
      signed.close();
      await server.stop();
    }
  });

  it('has defaults fit for several browser tabs per address', () => {
    const defaults = loadConfig({}).realtime;
    expect(defaults.maxConnectionsPerIp).toBe(250);
    expect(defaults.unauthenticatedTimeoutMs).toBe(30_000);
    expect(defaults.maxConnections).toBeGreaterThan(defaults.maxConnectionsPerIp);
    expect(
      loadConfig({ REALTIME_MAX_CONNECTIONS: '7', REALTIME_MAX_CONNECTIONS_PER_IP: '3', REALTIME_UNAUTHENTICATED_TIMEOUT_SECONDS: '0' })
        .realtime,
    ).toEqual({
      maxConnections: 7,
      maxConnectionsPerIp: 3,
      unauthenticatedTimeoutMs: 0,
    });
    expect(
      openFileLimit('Limit Soft Limit Hard Limit Units\nMax open files            1024                 4096                 files\n'),
    ).toBe(1024);
  });
});
