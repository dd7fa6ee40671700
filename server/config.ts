import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { DEFAULT_ID_ALPHABET } from './ids';

/**
 * Server configuration read from the environment (docs/architecture.md "The server").
 * Every variable is optional; an empty string counts as unset.
 */
/** scrypt cost (log2 N) of password hashes when SCRYPT_LOG_N is not set: 2^17, OWASP's minimum for scrypt. */
export const DEFAULT_SCRYPT_LOG_N = 17;

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65_535).default(8080),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_PATH: z.string().min(1).default('./data/parcela.db'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must be a postgres:// URL')
    .optional(),
  SEED: z.enum(['demo', 'none']).default('demo'),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PUBLIC_URL: z.url().optional(),
  /** SMTP server of outgoing e-mail, `smtp://user:password@host:587` or `smtps://…:465` (issue 11 item 10). */
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\/[^/\s]+\/?$/, 'SMTP_URL must be smtp://[user:password@]host[:port] or smtps://…')
    .optional(),
  /** Sender of outgoing e-mail, e.g. `Parcela <no-reply@example.com>`. */
  MAIL_FROM: z.string().min(3).max(320).optional(),
  /** `off` starts without sending e-mail (production included; see loadConfig). */
  MAIL: z.enum(['on', 'off']).optional(),
  DIST_DIR: z.string().min(1).default('./dist'),
  PUBLIC_DIR: z.string().min(1).default('./public'),
  TOKEN_IDLE_HOURS: z.coerce.number().positive().default(8),
  TOKEN_ABSOLUTE_DAYS: z.coerce.number().positive().default(7),
  SCRYPT_LOG_N: z.coerce.number().int().min(10).max(22).default(DEFAULT_SCRYPT_LOG_N),
  LOGIN_RATE_LIMIT_PER_IP: z.coerce.number().int().positive().default(20),
  LOGIN_RATE_LIMIT_PER_ACCOUNT: z.coerce.number().int().positive().default(10),
  /** Fastify trustProxy: 'true', a hop count, or a comma list of proxy addresses/CIDRs; default off. */
  TRUST_PROXY: z
    .string()
    .regex(/^(true|false|\d{1,2}|[0-9a-fA-F.:/]+(\s*,\s*[0-9a-fA-F.:/]+)*)$/, "'true', 'false', a hop count or a comma list of addresses")
    .optional(),
  REQUEST_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(120),
  CONNECTION_TIMEOUT_SECONDS: z.coerce.number().positive().max(3600).default(60),
  REALTIME_MAX_CONNECTIONS: z.coerce.number().int().min(1).max(1_000_000).optional(),
  REALTIME_MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(1).max(1_000_000).default(250),
  REALTIME_UNAUTHENTICATED_TIMEOUT_SECONDS: z.coerce.number().min(0).max(3600).default(30),
  OVERLOAD_MAX_EVENT_LOOP_DELAY_MS: z.coerce.number().int().min(0).max(60_000).default(1000),
  OVERLOAD_MAX_HEAP_MB: z.coerce.number().int().min(0).max(1_000_000).default(0),
  /** The OpenAPI description and its browser (/api/openapi.json, /api/docs): on/off; default on outside production. */
  API_DOCS: z.enum(['on', 'off']).optional(),
  ANSWER_CACHE: z.enum(['on', 'off']).default('on'),
  /** Portal payments (PagoYape) one customer may send in a day (Lima). */
  PORTAL_PAYMENTS_PER_DAY: z.coerce.number().int().min(1).max(1000).default(10),
  /** Reservation requests one customer may send from the portal in a day (Lima). */
  PORTAL_RESERVATION_REQUESTS_PER_DAY: z.coerce.number().int().min(1).max(1000).default(5),
  IMPORT_CHECK_WORKERS: z.coerce.number().int().min(1).max(16).default(1),
  IMPORT_CHECK_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(20),
  DOCUMENT_WORKERS: z.coerce.number().int().min(1).max(16).default(2),
  DOCUMENT_TIMEOUT_SECONDS: z.coerce.number().positive().max(600).default(60),
  PUSHER_APP_ID: z.string().min(1).default('parcela'),
  PUSHER_APP_KEY: z.string().min(1).default('parcela-key'),
  PUSHER_APP_SECRET: z.string().min(1).optional(),
  PUSHER_HOST: z.string().min(1).optional(),
  PUSHER_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  PUSHER_SCHEME: z.enum(['http', 'https']).optional(),
  PUSHER_CLUSTER: z.string().min(1).default('mt1'),
  /** Alphabet of the opaque ids in routes (server/ids.ts); fixed per installation. */
  ID_ALPHABET: z
    .string()
    .regex(/^[A-Za-z0-9]{16,62}$/, 'between 16 and 62 letters or digits')
    .refine((v) => new Set(v).size === v.length, 'characters must not repeat')
    .optional(),
});

/** Realtime (Pusher Channels protocol) settings handed to the web app by docs/product.md §7 row 3. */
export interface PusherConfig {
  appId: string;
  key: string;
  /**
   * Signs private-channel authorisations and trigger-API requests. PUSHER_APP_SECRET, or a random
   * secret per process (enough when the server is its own realtime service). Never sent in a
   * response nor logged.
   */
  secret: string;
  /** True when PUSHER_APP_SECRET was set (an external realtime service needs it). */
  secretConfigured: boolean;
  /**
   * External realtime service (Pusher-compatible: soketi, Laravel Reverb…) that the app connects to
   * and the server triggers events on; null = this server itself, on the same host as the page.
   */
  host: string | null;
  /** null = the page's port. */
  port: number | null;
  /** Defaults to the scheme of `publicUrl`. */
  scheme: 'http' | 'https';
  cluster: string;
}

/** Caps and timeouts of the built-in realtime WebSocket service (issue 11 item 5). */
export interface RealtimeLimits {
  /**
   * Most WebSockets open at once (REALTIME_MAX_CONNECTIONS). Default: 10 000, or half the process's
   * open-file limit when that is lower (Linux `/proc/self/limits`), so sockets never use up the
   * descriptors HTTP and the database need.
   */
  maxConnections: number;
  /**
   * Most WebSockets open at once from one client address (REALTIME_MAX_CONNECTIONS_PER_IP, default
   * 250: several tabs each for an office behind one NAT address; the realtime bench opens 200).
   */
  maxConnectionsPerIp: number;
  /**
   * A socket without a signed private-channel subscription this long after connecting is closed
   * with Pusher's 4009 (REALTIME_UNAUTHENTICATED_TIMEOUT_SECONDS, default 30 s; 0 = never).
   */
  unauthenticatedTimeoutMs: number;
}

/** Thresholds beyond which requests get a fast 503 instead of queueing (@fastify/under-pressure). */
export interface OverloadLimits {
  /** Mean event-loop delay over a sampling window, in ms (OVERLOAD_MAX_EVENT_LOOP_DELAY_MS, default 1000; 0 = off). */
  maxEventLoopDelayMs: number;
  /** V8 heap in use, in MiB (OVERLOAD_MAX_HEAP_MB, default 0 = off). */
  maxHeapMb: number;
}

/** Outgoing e-mail (issue 11 item 10; server/platform/outbox-delivery.ts). */
export interface MailConfig {
  /** SMTP_URL; holds a credential: never logged nor sent in a response. null = not configured. */
  smtpUrl: string | null;
  /** MAIL_FROM; default `Parcela <no-reply@localhost>` outside production. */
  from: string;
  /** True when e-mail is sent: an SMTP_URL is set and MAIL is not `off`. */
  enabled: boolean;
}

/** Typed server configuration. Durations keep the unit in their name. */
export interface AppConfig {
  port: number;
  host: string;
  /** SQLite file (absolute path, or ':memory:'); ignored when `databaseUrl` is set. */
  databasePath: string;
  /** postgres://… switches the server to PostgreSQL. */
  databaseUrl: string | null;
  /** 'demo' seeds the demo company and accounts on first start. */
  seed: 'demo' | 'none';
  nodeEnv: 'development' | 'production' | 'test';
  /** Origin used in links sent by e-mail (password reset), without a trailing slash. */
  publicUrl: string;
  /** Built web app (Vite `dist/`), absolute. */
  distDir: string;
  /**
   * Alphabet of opaque route ids (server/ids.ts): `ID_ALPHABET`, else the default; in production
   * server/start.ts replaces the default with the installation's own (server/platform/installation.ts).
   */
  idAlphabet: string;
  /** `ID_ALPHABET` as set in the environment, or null. */
  idAlphabetFromEnv: string | null;
  /** Static files served even without a build (`public/`, e.g. /logo.svg), absolute. */
  publicDir: string;
  /** A bearer token expires after this many hours without use (sliding). */
  tokenIdleHours: number;
  /** A bearer token expires this many days after login, used or not. */
  tokenAbsoluteDays: number;
  /** scrypt cost parameter as log2(N). */
  scryptLogN: number;
  /** Requests per minute and IP on the public auth routes (login, registration, reset). */
  loginRateLimitPerIp: number;
  /** Failed logins (or reset requests) per account identifier within {@link ACCOUNT_LIMIT_WINDOW_MINUTES}. */
  loginRateLimitPerAccount: number;
  /**
   * Fastify `trustProxy` (TRUST_PROXY): false (default: `request.ip` is the socket's peer), true,
   * a hop count, or proxy addresses. Behind a proxy set it, or every per-IP limit is one global limit.
   */
  trustProxy: boolean | number | string[];
  /** Serve /api/openapi.json and /api/docs (API_DOCS; default: outside production only). */
  apiDocs: boolean;
  /**
   * Keep the maps, lot pages and subdivisions list per revision (ANSWER_CACHE, default on;
   * server/platform/revision-texts.ts). `off` builds every answer: for measuring that path
   * (`npm run bench:api`) or, should a kept answer ever be wrong, as a switch until it is fixed.
   */
  keepAnswers: boolean;
  /**
   * What one customer may send from the portal in a day (Lima), counted in the database so every
   * process and a restart see the same count (docs/security.md 30.4): payments (PORTAL_PAYMENTS_PER_DAY,
   * default 10) and reservation requests (PORTAL_RESERVATION_REQUESTS_PER_DAY, default 5). Past it → 429.
   */
  portalLimits: { paymentsPerDay: number; reservationRequestsPerDay: number };
  /**
   * Longest time a client may take to send a whole request, headers and body (REQUEST_TIMEOUT_SECONDS,
   * default 120 s: a 20 MB import over a slow line); past it the socket gets a 408 and is closed
   * (issue 11 item 5: a slow POST body stayed open > 5 min).
   */
  requestTimeoutMs: number;
  /**
   * A connection with no traffic either way for this long is closed (CONNECTION_TIMEOUT_SECONDS,
   * default 60 s; Fastify's `connectionTimeout`). WebSockets are exempt (ws clears the socket
   * timeout on upgrade; they have their own ping/pong).
   */
  connectionTimeoutMs: number;
  realtime: RealtimeLimits;
  overload: OverloadLimits;
  /** Worker threads checking lot-import files at the same time (`IMPORT_CHECK_WORKERS`, issue 11 item 1). */
  importCheckWorkers: number;
  /** Time budget of one lot-import check in ms (`IMPORT_CHECK_TIMEOUT_SECONDS`); beyond it → 422. */
  importCheckTimeoutMs: number;
  /** Worker threads making PDFs, exports and SVG logos at the same time (`DOCUMENT_WORKERS`, docs/security.md 30.7–30.8). */
  documentWorkers: number;
  /** Time budget of one PDF or export in ms (`DOCUMENT_TIMEOUT_SECONDS`); beyond it → 503. */
  documentTimeoutMs: number;
  pusher: PusherConfig;
  mail: MailConfig;
}

/** Window of the per-account attempt limit (issue "Foundation": 10 per 15 minutes). */
export const ACCOUNT_LIMIT_WINDOW_MINUTES = 15;
/** Window of the per-IP rate limit on public auth routes. */
export const IP_LIMIT_WINDOW_MINUTES = 1;

/**
 * Parses the environment into an {@link AppConfig}.
 * @param env variables (default `process.env`); empty strings are treated as unset.
 * @throws Error listing every invalid variable.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): AppConfig {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const details = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`Invalid configuration: ${details}`);
  }
  const e = parsed.data;
  // Production must be able to send the password e-mails (a new staff user sets their first
  // password through one), with links to its real address: refuse to start without them unless
  // MAIL=off says so explicitly (docs/security.md item 10; server/main.ts then warns at start).
  if (e.NODE_ENV === 'production' && e.MAIL !== 'off') {
    const missing = (['PUBLIC_URL', 'SMTP_URL', 'MAIL_FROM'] as const).filter((name) => e[name] === undefined);
    if (missing.length > 0) {
      throw new Error(
        `Invalid configuration: in production Parcela e-mails password links; set ${missing.join(', ')} (or MAIL=off to start without e-mail)`,
      );
    }
  }
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  return {
    port: e.PORT,
    host: e.HOST,
    databasePath: e.DATABASE_PATH === ':memory:' ? e.DATABASE_PATH : resolve(e.DATABASE_PATH),
    databaseUrl: e.DATABASE_URL ?? null,
    seed: e.SEED,
    nodeEnv: e.NODE_ENV,
    publicUrl,
    distDir: resolve(e.DIST_DIR),
    publicDir: resolve(e.PUBLIC_DIR),
    idAlphabet: e.ID_ALPHABET ?? DEFAULT_ID_ALPHABET,
    idAlphabetFromEnv: e.ID_ALPHABET ?? null,
    tokenIdleHours: e.TOKEN_IDLE_HOURS,
    tokenAbsoluteDays: e.TOKEN_ABSOLUTE_DAYS,
    scryptLogN: e.SCRYPT_LOG_N,
    loginRateLimitPerIp: e.LOGIN_RATE_LIMIT_PER_IP,
    loginRateLimitPerAccount: e.LOGIN_RATE_LIMIT_PER_ACCOUNT,
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    apiDocs: e.API_DOCS === undefined ? e.NODE_ENV !== 'production' : e.API_DOCS === 'on',
    keepAnswers: e.ANSWER_CACHE === 'on',
    portalLimits: { paymentsPerDay: e.PORTAL_PAYMENTS_PER_DAY, reservationRequestsPerDay: e.PORTAL_RESERVATION_REQUESTS_PER_DAY },
    requestTimeoutMs: e.REQUEST_TIMEOUT_SECONDS * 1000,
    connectionTimeoutMs: e.CONNECTION_TIMEOUT_SECONDS * 1000,
    realtime: {
      maxConnections: e.REALTIME_MAX_CONNECTIONS ?? defaultMaxRealtimeConnections(),
      maxConnectionsPerIp: e.REALTIME_MAX_CONNECTIONS_PER_IP,
      unauthenticatedTimeoutMs: e.REALTIME_UNAUTHENTICATED_TIMEOUT_SECONDS * 1000,
    },
    overload: { maxEventLoopDelayMs: e.OVERLOAD_MAX_EVENT_LOOP_DELAY_MS, maxHeapMb: e.OVERLOAD_MAX_HEAP_MB },
    importCheckWorkers: e.IMPORT_CHECK_WORKERS,
    importCheckTimeoutMs: e.IMPORT_CHECK_TIMEOUT_SECONDS * 1000,
    documentWorkers: e.DOCUMENT_WORKERS,
    documentTimeoutMs: e.DOCUMENT_TIMEOUT_SECONDS * 1000,
    pusher: {
      appId: e.PUSHER_APP_ID,
      key: e.PUSHER_APP_KEY,
      secret: e.PUSHER_APP_SECRET ?? randomBytes(32).toString('hex'),
      secretConfigured: e.PUSHER_APP_SECRET !== undefined,
      host: e.PUSHER_HOST ?? null,
      port: e.PUSHER_PORT ?? null,
      scheme: e.PUSHER_SCHEME ?? (publicUrl.startsWith('https:') ? 'https' : 'http'),
      cluster: e.PUSHER_CLUSTER,
    },
    mail: {
      smtpUrl: e.SMTP_URL ?? null,
      from: e.MAIL_FROM ?? 'Parcela <no-reply@localhost>',
      enabled: e.SMTP_URL !== undefined && e.MAIL !== 'off',
    },
  };
}

/** Default of REALTIME_MAX_CONNECTIONS when unset. */
export const DEFAULT_MAX_REALTIME_CONNECTIONS = 10_000;

/**
 * The soft open-file limit of this process ("Max open files" in Linux's /proc/self/limits), or
 * null where it cannot be read (other systems, "unlimited").
 */
export function openFileLimit(limitsText?: string): number | null {
  let text = limitsText;
  if (text === undefined) {
    try {
      text = readFileSync('/proc/self/limits', 'utf8');
    } catch {
      return null;
    }
  }
  const match = /^Max open files\s+(\d+)/m.exec(text);
  return match ? Number(match[1]) : null;
}

/** {@link DEFAULT_MAX_REALTIME_CONNECTIONS}, or half the open-file limit when that is lower (≥ 1). */
function defaultMaxRealtimeConnections(): number {
  const files = openFileLimit();
  return files === null ? DEFAULT_MAX_REALTIME_CONNECTIONS : Math.max(1, Math.min(DEFAULT_MAX_REALTIME_CONNECTIONS, Math.floor(files / 2)));
}

/** TRUST_PROXY → Fastify's `trustProxy` option (see {@link AppConfig.trustProxy}). */
function parseTrustProxy(value: string | undefined): boolean | number | string[] {
  if (value === undefined || value === 'false') return false;
  if (value === 'true') return true;
  if (/^\d+$/.test(value)) return Number(value);
  return value.split(',').map((part) => part.trim());
}

/** scrypt cost used by tests and test fixtures (2^12: fast, same code path). */
export const TEST_SCRYPT_LOG_N = 12;

/**
 * Configuration for tests: NODE_ENV test, no seed, low scrypt cost, rate limits high enough to
 * never trigger unless a test lowers them, no overload 503s.
 */
export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    ...loadConfig({ NODE_ENV: 'test', SEED: 'none', DATABASE_PATH: ':memory:' }),
    scryptLogN: TEST_SCRYPT_LOG_N,
    loginRateLimitPerIp: 10_000,
    loginRateLimitPerAccount: 10_000,
    // Off unless a test turns it on: a test blocking its own event loop must not 503 the others.
    overload: { maxEventLoopDelayMs: 0, maxHeapMb: 0 },
    ...overrides,
  };
}

/** True when the server runs with NODE_ENV=production (hides /dev routes, stops logging reset links). */
export function isProduction(config: AppConfig): boolean {
  return config.nodeEnv === 'production';
}
