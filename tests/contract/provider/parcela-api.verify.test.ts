/**
 * Provider verification of pacts/parcela-web-parcela-api.json against the real Parcela server.
 * Every interaction runs on a fresh temporary SQLite database (migrated, empty), set up by the
 * state handlers through the server's repositories (server/testing/fixtures.ts). The HTTP server
 * listens on 127.0.0.1 and is closed at the end.
 *
 * It drives pact-core's verifier with a provider-state URL, exactly as a backend team would with
 * the Pact verifier CLI (docs/contracts.md). pact-js's `Verifier` is not used because its proxy
 * re-encodes x-www-form-urlencoded bodies as JSON (pact-js issue #1233), which breaks rows 7, 8, 15.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, it } from 'vitest';
import pactCore from '@pact-foundation/pact-core';
import type { FastifyInstance } from 'fastify';
import { createApp } from '../../../server/app';
import { testConfig } from '../../../server/config';
import { type DatabaseHandle } from '../../../server/db/connection';
import {
  changeRecordByAnotherUser,
  createCustomer,
  createNotification,
  createResetToken,
  createRole,
  createSession,
  createStaff,
  ensureCompany,
  setSubscription,
} from '../../../server/testing/fixtures';
import { VERSIONED_TABLES, type VersionedTable } from '../../../server/db/versions';
import { STAFF_PERMISSIONS } from '../../../src/schemas/permissions';
import { CUSTOMER, NOTIFICATION_NEW, STAFF, STATES } from '../states';
import { projectStateHandlers } from './projects-state-handlers';
import { configuracionStateHandlers } from './configuracion-state-handlers';
import { historialStateHandlers } from './historial-state-handlers';
import { crmStateHandlers } from './crm-state-handlers';
import { finanzasStateHandlers } from './finanzas-state-handlers';
import { instalmentsStateHandlers } from './instalments-state-handlers';
import { paymentsStateHandlers } from './payments-state-handlers';
import { purchasesStateHandlers } from './purchases-state-handlers';
import { comercioStateHandlers } from './comercio-state-handlers';
import { administracionStateHandlers } from './administracion-state-handlers';
import { commissionsStateHandlers } from './commissions-state-handlers';
import { contractTemplateStateHandlers } from './contract-templates-state-handlers';
import { inicioStateHandlers } from './inicio-state-handlers';
import { inicioQueuesStateHandlers } from './inicio-queues-state-handlers';
import { openMigratedDatabase } from '../../../server/start';

const root = path.resolve(import.meta.dirname, '../../..');
const dir = mkdtempSync(path.join(tmpdir(), 'parcela-pact-'));
let generation = 0;
let current: { app: FastifyInstance; handle: DatabaseHandle } | null = null;
let http: Server;

/** Replaces the app with one on a brand-new migrated database (called before every interaction). */
async function freshProvider(): Promise<void> {
  if (current) {
    await current.app.close();
    await current.handle.db.destroy();
  }
  generation += 1;
  const config = testConfig({ databasePath: path.join(dir, `verify-${generation}.db`), databaseUrl: null });
  const handle = await openMigratedDatabase(config);
  const app = await createApp({ db: handle.db, config });
  await app.ready();
  current = { app, handle };
}

function db() {
  if (!current) throw new Error('provider not started');
  return current.handle.db;
}

async function staff() {
  await ensureCompany(db());
  await createRole(db(), 'Administrador', STAFF_PERMISSIONS);
  return createStaff(db(), { ...STAFF, roleNames: ['Administrador'] });
}

async function customer() {
  await ensureCompany(db());
  return createCustomer(db(), {
    idDocumentType: CUSTOMER.id_document_type,
    documentNumber: CUSTOMER.document_number,
    name: CUSTOMER.name,
    surname: CUSTOMER.surname,
    birthdayDate: CUSTOMER.birthday_date,
    email: CUSTOMER.email,
    phone: CUSTOMER.phone,
    password: CUSTOMER.password,
  });
}

const tokenParam = (params: unknown): string => {
  const token = (params as { token?: unknown } | undefined)?.token;
  if (typeof token !== 'string') throw new Error('state needs a token parameter');
  return token;
};

/**
 * One handler per provider state of tests/contract/states.ts and projects-states.ts: each module's
 * in its own file beside this one (proyectos, configuracion, historial, crm, comercio); the platform's (sessions,
 * notifications, subscription, record versions) here.
 */
const stateHandlers: Record<string, (params?: unknown) => Promise<void>> = {
  ...projectStateHandlers({
    db,
    tokenParam,
    signIn: async (token) => {
      await createSession(db(), await staff(), { token });
    },
  }),
  ...configuracionStateHandlers({ db, staff, tokenParam }),
  ...historialStateHandlers({ db, staff, tokenParam }),
  ...crmStateHandlers({ db, staff, tokenParam }),
  ...comercioStateHandlers({ db, staff, tokenParam }),
  ...finanzasStateHandlers({ db, staff, tokenParam }),
  ...paymentsStateHandlers({ db, saleExists: comercioStateHandlers({ db, staff, tokenParam })[STATES.saleExists]! }),
  ...purchasesStateHandlers({ db, customer, tokenParam }),
  ...administracionStateHandlers({
    db,
    saleExists: comercioStateHandlers({ db, staff, tokenParam })[STATES.saleExists]!,
    customerPurchaseExists: purchasesStateHandlers({ db, customer, tokenParam })[STATES.customerPurchaseExists]!,
  }),
  ...contractTemplateStateHandlers({
    db,
    signIn: async (params) => {
      const user = await staff();
      await createSession(db(), user, { token: tokenParam(params) });
      return user.id;
    },
  }),
  ...commissionsStateHandlers({ db, saleExists: comercioStateHandlers({ db, staff, tokenParam })[STATES.saleExists]! }),
  ...inicioStateHandlers({ db, staff, tokenParam }),
  ...inicioQueuesStateHandlers({ db, saleExists: comercioStateHandlers({ db, staff, tokenParam })[STATES.saleExists]! }),
  ...instalmentsStateHandlers({
    db,
    saleOfMarch2026Exists: comercioStateHandlers({ db, staff, tokenParam })[STATES.saleOfMarch2026Exists]!,
  }),
  [STATES.staffExists]: async () => {
    await staff();
  },
  [STATES.staffSignedIn]: async (params) => {
    await createSession(db(), await staff(), { token: tokenParam(params) });
  },
  [STATES.customerExists]: async () => {
    await customer();
  },
  [STATES.customerSignedIn]: async (params) => {
    await createSession(db(), await customer(), { token: tokenParam(params) });
  },
  [STATES.noCustomerWithDocument]: async () => {
    await ensureCompany(db());
  },
  [STATES.staffResetTokenExists]: async (params) => {
    await createResetToken(db(), await staff(), { token: tokenParam(params) });
  },
  [STATES.staffWithNotifications]: async (params) => {
    const owner = await staff();
    await createSession(db(), owner, { token: tokenParam(params) });
    await createNotification(db(), owner, { title: 'Bienvenida', route: '/', createdAt: '2026-11-01T14:00:00Z', seen: true });
    await createNotification(db(), owner, { ...NOTIFICATION_NEW, createdAt: '2026-11-20T15:15:00Z' });
  },
  [STATES.customerWithNotifications]: async (params) => {
    const owner = await customer();
    await createSession(db(), owner, { token: tokenParam(params) });
    await createNotification(db(), owner, { ...NOTIFICATION_NEW, route: '/Comercio/MisCompras', createdAt: '2026-11-20T15:15:00Z' });
  },
  [STATES.subscriptionLapsed]: async () => {
    await setSubscription(db(), false);
  },
  [STATES.recordChangedByAnother]: async (params) => {
    const { entity, id } = (params ?? {}) as { entity?: unknown; id?: unknown };
    if (!VERSIONED_TABLES.includes(entity as VersionedTable) || typeof id !== 'number')
      throw new Error('state needs `entity` (a versioned table) and a numeric `id`');
    await changeRecordByAnotherUser(db(), entity as VersionedTable, id);
  },
};

beforeAll(async () => {
  await freshProvider();
  http = createServer((req, res) => {
    if (req.url === STATE_PATH && req.method === 'POST') {
      void changeState(req, res);
      return;
    }
    if (!current) throw new Error('provider not started');
    current.app.routing(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
});

afterAll(async () => {
  await new Promise<void>((resolve) => http?.close(() => resolve()));
  if (current) {
    await current.app.close();
    await current.handle.db.destroy();
  }
  rmSync(dir, { recursive: true, force: true });
});

const STATE_PATH = '/_pact/provider-states';

/**
 * The provider-state endpoint: `{ state, params, action }`. A teardown replaces the database, so
 * each interaction starts from an empty one; a setup runs the state's handler.
 */
async function changeState(req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { state: string; params?: unknown; action?: string };
    if (body.action === 'teardown') {
      await freshProvider();
    } else {
      const handler = stateHandlers[body.state];
      if (!handler) throw new Error(`no handler for provider state "${body.state}"`);
      await handler(body.params);
    }
    res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
  } catch (error) {
    res.writeHead(500, { 'Content-Type': 'text/plain' }).end(String(error));
  }
}

describe('parcela-api provider', () => {
  it('honours every interaction of pacts/parcela-web-parcela-api.json', async () => {
    const { port } = http.address() as AddressInfo;
    await pactCore.verifyPacts({
      provider: 'parcela-api',
      providerBaseUrl: `http://127.0.0.1:${port}`,
      pactUrls: [path.join(root, 'pacts', 'parcela-web-parcela-api.json')],
      providerStatesSetupUrl: `http://127.0.0.1:${port}${STATE_PATH}`,
      providerStatesSetupTeardown: true,
      providerStatesSetupBody: true,
      logLevel: 'warn',
    });
  });
});
