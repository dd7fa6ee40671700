import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, beforeEach, inject } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Kysely } from 'kysely';
import { createApp } from '../../server/app';
import { createDocumentPool } from '../../server/platform/documents';
import type { WorkerPool } from '../../server/platform/worker-pool';
import { testConfig, type AppConfig } from '../../server/config';
import { createManualClock, type ManualClock } from '../../server/clock';
import { type DatabaseHandle, type DialectName } from '../../server/db/connection';
import type { DB } from '../../server/db/database';
import type { UserType } from '../../src/schemas/session';
import type { BroadcastEvent, Broadcaster } from '../../server/realtime/broadcaster';
import { openMigratedDatabase } from '../../server/start';

/**
 * Server test harness (docs/architecture.md "Tests": HTTP through `inject`, real SQLite in a temp
 * dir). Suites run once per dialect: SQLite always, PostgreSQL too when DATABASE_URL is set (each
 * test file gets a throwaway `parcela_t_<random>` database, dropped afterwards).
 */

/** Dialects to run every suite on. */
export const dialects: DialectName[] = process.env.DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

/** A migrated throwaway database. */
export interface TestDatabase extends DatabaseHandle {
  /** PostgreSQL: the throwaway database's URL (for a second connection, e.g. with a query log). */
  url?: string;
  destroy(): Promise<void>;
}

function databaseUrlFor(base: string, name: string): string {
  const url = new URL(base);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The server project's migrated PostgreSQL template, or null (another project, or no DATABASE_URL). */
function pgTemplate(): string | null {
  try {
    const name = inject('pgTemplate');
    return typeof name === 'string' && /^parcela_tpl_[0-9a-f]{12}$/.test(name) ? name : null;
  } catch {
    return null;
  }
}

/** Creates and migrates a throwaway database of `dialect` (PostgreSQL: a copy of the run's template). */
export async function createTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const dir = await mkdtemp(join(tmpdir(), 'parcela-test-'));
    const handle = await openMigratedDatabase({ databasePath: join(dir, 'test.db'), databaseUrl: null });
    return {
      ...handle,
      destroy: async () => {
        await handle.db.destroy();
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) throw new Error('DATABASE_URL is required for the postgres dialect');
  const name = `parcela_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  // A copy of the run's migrated template (tests/setup/pg-template.ts) when there is one.
  const template = pgTemplate();
  await admin.query(template ? `CREATE DATABASE ${name} TEMPLATE ${template}` : `CREATE DATABASE ${name}`);
  await admin.end();
  const url = databaseUrlFor(adminUrl, name);
  const handle = await openMigratedDatabase({ databasePath: ':memory:', databaseUrl: url });
  return {
    ...handle,
    url,
    destroy: async () => {
      await handle.db.destroy();
      const cleanup = new pg.Client({ connectionString: adminUrl });
      await cleanup.connect();
      await cleanup.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await cleanup.end();
    },
  };
}

/** Registers beforeAll/afterAll creating one database for the enclosing describe. @returns its getter. */
export function useTestDatabase(dialect: DialectName): () => Kysely<DB> {
  let database: TestDatabase | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
  });
  afterAll(async () => {
    await database?.destroy();
  });
  return () => {
    if (!database) throw new Error('test database not ready');
    return database.db;
  };
}

/** An app under test with its clock and config. */
export interface TestApp {
  app: FastifyInstance;
  db: Kysely<DB>;
  clock: ManualClock;
  config: AppConfig;
}

/** A broadcaster that drops every event (apps whose tests do not look at realtime). */
export const silentBroadcaster: Broadcaster = { publish: () => undefined, settled: async () => undefined };

/** A broadcaster that keeps every published event in `events`, in order. */
export interface RecordingBroadcaster extends Broadcaster {
  events: BroadcastEvent[];
}

/** Creates a {@link RecordingBroadcaster}. */
export function recordingBroadcaster(): RecordingBroadcaster {
  const events: BroadcastEvent[] = [];
  return { events, publish: (published) => void events.push(...published), settled: async () => undefined };
}

/** Extra inputs of {@link buildTestApp}. */
export interface TestAppOptions {
  /** Default: the real one (`pusher` package aimed at the app itself, a no-op while not listening). */
  broadcaster?: Broadcaster;
  /** The app's own documents' pool (built from its config) instead of the file's shared one. */
  ownDocumentPool?: boolean;
}

let sharedDocuments: WorkerPool | undefined;

/**
 * The documents' pool shared by the test apps of a file (server/platform/documents.ts, sized by
 * testConfig()): an app per test would otherwise load pdfmake, exceljs or jsdom in a new worker for
 * every test. Its workers are unref'd, so they never keep the test process alive.
 */
function sharedDocumentPool(): WorkerPool {
  sharedDocuments ??= createDocumentPool(testConfig());
  return sharedDocuments;
}

/** Builds an app on `db` with a manual clock and `testConfig(overrides)`. Close it with `app.close()`. */
export async function buildTestApp(
  db: Kysely<DB>,
  overrides: Partial<AppConfig> = {},
  clock = createManualClock(),
  options: TestAppOptions = {},
): Promise<TestApp> {
  const config = testConfig(overrides);
  const ownPool = options.ownDocumentPool || 'documentWorkers' in overrides || 'documentTimeoutMs' in overrides;
  const documents = ownPool ? undefined : sharedDocumentPool();
  return { app: await createApp({ db, clock, config, broadcaster: options.broadcaster, documents }), db, clock, config };
}

/** Registers beforeEach/afterEach building a fresh app (fresh in-memory limiters) per test. @returns its getter. */
export function useTestApp(getDb: () => Kysely<DB>, overrides: Partial<AppConfig> = {}, options: TestAppOptions = {}): () => TestApp {
  let current: TestApp | undefined;
  beforeEach(async () => {
    current = await buildTestApp(getDb(), overrides, createManualClock(), options);
  });
  afterEach(async () => {
    await current?.app.close();
  });
  return () => {
    if (!current) throw new Error('test app not ready');
    return current;
  };
}

/**
 * Registers beforeAll/afterAll building one app for the enclosing describe: for suites of many
 * independent requests that share no limiter state (the role × route matrix), where an app per
 * test would cost more than the requests. @returns its getter.
 */
export function useSharedTestApp(getDb: () => Kysely<DB>, overrides: Partial<AppConfig> = {}, options: TestAppOptions = {}): () => TestApp {
  let current: TestApp | undefined;
  beforeAll(async () => {
    current = await buildTestApp(getDb(), overrides, createManualClock(), options);
  });
  afterAll(async () => {
    await current?.app.close();
  });
  return () => {
    if (!current) throw new Error('test app not ready');
    return current;
  };
}

/** Authorization header for a bearer token. */
export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

/** An x-www-form-urlencoded request body (docs/product.md §7 rows 7, 8, 15). */
export function form(fields: Record<string, string>): Pick<InjectOptions, 'payload' | 'headers'> {
  return {
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  };
}

/** POST /api/auth/login. */
export function postLogin(app: FastifyInstance, user: string, password: string, userType: UserType): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'POST', url: '/api/auth/login', payload: { user, password, user_type: userType } });
}

/** Logs in and returns the token. @throws when the login does not answer 200. */
export async function loginToken(app: FastifyInstance, user: string, password: string, userType: UserType): Promise<string> {
  const res = await postLogin(app, user, password, userType);
  if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { data: { token: string } }).data.token;
}

/** GET with a bearer token. */
export function getWithToken(app: FastifyInstance, url: string, token: string): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'GET', url, headers: bearer(token) });
}

/** POST a form with a bearer token. */
export function postFormWithToken(
  app: FastifyInstance,
  url: string,
  token: string,
  fields: Record<string, string>,
): Promise<LightMyRequestResponse> {
  const body = form(fields);
  return app.inject({ method: 'POST', url, payload: body.payload, headers: { ...body.headers, ...bearer(token) } });
}

/** One file part of {@link multipartBody}. */
export interface MultipartFile {
  /** Form field name (default `file`). */
  field?: string;
  filename: string;
  /** Default `application/octet-stream`. */
  contentType?: string;
  content: Buffer | string;
}

/**
 * A multipart/form-data body for `inject`: the text `fields` first, then one file part.
 * @returns `{ payload, headers }` with the boundary in the content type.
 */
export function multipartBody(
  file: MultipartFile,
  fields: Record<string, string> = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = '----parcelaTestBoundary';
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.filename}"\r\nContent-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
    ),
    Buffer.isBuffer(file.content) ? file.content : Buffer.from(file.content),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}
