import { createServer } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import { constants as zlibConstants } from 'node:zlib';
import compress from '@fastify/compress';
import { registerSmallJsonCompression } from './platform/small-json-compression';
import helmet from '@fastify/helmet';
import underPressure from '@fastify/under-pressure';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { compiledSerializerCompiler } from './serializer';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { refuseControlCharacters } from '../src/schemas/common';
import { ACCOUNT_LIMIT_WINDOW_MINUTES, isProduction, type AppConfig } from './config';
import { MINUTE_MS, systemClock, type Clock, type ShiftedClock } from './clock';
import type { AppDeps } from './context';
import type { DB } from './db/database';
import { errorHandler, HttpError, installSpanishZodMessages } from './errors';
import { registerRefusedBodyDrain } from './platform/refused-bodies';
import { AttemptLimiter } from './auth/attempt-limiter';
import { createPasswordWork } from './auth/password-queue';
import { registerGuard } from './auth/guard';
import { registerRateLimit } from './rate-limit';
import { registerWebApp } from './web-app';
import { LOGIN_ACCOUNT_CEILING_FACTOR } from './auth/auth.service';
import { devOutboxRoutes } from './platform/dev-outbox.routes';
import { devClockRoutes } from './platform/dev-clock.routes';
import { createPusherBroadcaster, loopbackTarget, type Broadcaster } from './realtime/broadcaster';
import { ChannelHub } from './realtime/hub';
import { createOpaqueIds } from './ids';
import { realtimeRoutes } from './realtime/realtime.routes';
import { ImportCheckPool } from './modules/proyectos/lot-import/check-pool';
import { createDocumentPool } from './platform/documents';
import type { WorkerPool } from './platform/worker-pool';
import { SERVER_MODULES } from './modules';
import { BackgroundWork } from './platform/background';
import { createSmtpMailer, type Mailer } from './platform/mailer';
import { OutboxDelivery } from './platform/outbox-delivery';
import { ReservationExpiry } from './modules/comercio/reservation-expiry';
import { LateFeeJob } from './modules/finanzas/late-fee-job';
import { TitleDeadlineJob } from './modules/administracion/title-deadline-job';
import { ContractSignatureJob } from './modules/administracion/contract-signature-job';
import { CommissionAccrualJob } from './modules/administracion/commission-accrual-job';
import { registerOpenApi, registerOpenApiRoutes } from './platform/openapi';

/** Inputs of {@link createApp}. */
export interface CreateAppOptions {
  /** Migrated database (see `db/connection.ts`, `db/migrate.ts`). */
  db: Kysely<DB>;
  /** Time source; tests pass a manual clock. Default: the system clock. */
  clock?: Clock;
  config: AppConfig;
  /**
   * Realtime event publisher. Default: the official `pusher` package aimed at PUSHER_HOST when set,
   * else at this server's own trigger API once it listens (`realtime/broadcaster.ts`).
   */
  broadcaster?: Broadcaster;
  /**
   * Sends outgoing e-mail. Default: SMTP to `config.mail.smtpUrl` when e-mail is enabled, else
   * none (messages stay in the outbox). Tests pass one aimed at their own SMTP server or a fake.
   */
  mailer?: Mailer | null;
  /** Fastify/pino logger options; default off. Authorization headers are always redacted. */
  logger?: FastifyServerOptions['logger'];
  /**
   * The documents' worker pool (server/platform/documents.ts). Default: one of the app's own, closed
   * with it. Tests share one across the apps of a file (its workers stay loaded); the app does not
   * close a pool it was given.
   */
  documents?: WorkerPool;
}

/** Files waiting for an import-check worker beyond which the next is refused with 503. */
const IMPORT_CHECK_QUEUE_LIMIT = 8;
/** Heap of one import-check worker (a 20 000-lot file needs well under 200 MiB). */
const IMPORT_CHECK_MAX_MEMORY_MB = 512;

/** Log paths never written (bearer tokens). Request bodies are never logged at all. */
const REDACTED = ['req.headers.authorization', 'req.headers.cookie'];

/**
 * A request URL as logged: password-reset tokens (64 hex digits in the link's path
 * /auth/reset_password/{token}/{type} and in `?id=` of GET /api/password_reset_{type}) are
 * replaced by `[redacted]` — a logged token would let a log reader set the account's password
 * (docs/security.md "Secrets never reach a log").
 */
export function loggedUrl(url: string): string {
  return url.replace(/\b[0-9a-f]{64}\b/gi, '[redacted]');
}

function loggerOptions(logger: CreateAppOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  return {
    ...(logger === true ? {} : logger),
    redact: { paths: REDACTED, censor: '[redacted]' },
    serializers: {
      req: (req: { method: string; url: string; hostname?: string; ip?: string; socket?: { remotePort?: number } }) => ({
        method: req.method,
        url: loggedUrl(req.url),
        hostname: req.hostname,
        remoteAddress: req.ip,
        remotePort: req.socket?.remotePort,
      }),
    },
  };
}

/**
 * WebSocket origins the page may connect to (issue 11 item 17), besides `'self'`:
 * - `PUSHER_HOST` unset (this server is its own realtime service): the browser connects to the
 *   page's own host and port, which CSP Level 3 `'self'` covers for ws:/wss: in current browsers
 *   (Chrome 71+, Safari 16+) whatever host the browser used; `PUBLIC_URL`'s host is added for older
 *   ones (it is the page's host in production; in development `'self'` does the work);
 * - `PUSHER_HOST` set: that host, on `PUSHER_PORT` or — when unset, the browser uses the page's port
 *   (src/machines/realtime/echo-options.ts) — on any port.
 * `wss:` always (a page served over https forces TLS), `ws:` too unless the realtime scheme is https.
 */
export function realtimeConnectSources(config: Pick<AppConfig, 'pusher' | 'publicUrl'>): string[] {
  const { pusher } = config;
  const schemes = pusher.scheme === 'https' ? ['wss'] : ['ws', 'wss'];
  if (!pusher.host) return schemes.map((scheme) => `${scheme}://${new URL(config.publicUrl).host}`);
  const port = pusher.port === null ? ':*' : `:${pusher.port}`;
  return schemes.map((scheme) => `${scheme}://${pusher.host}${port}`);
}

/**
 * Content-Security-Policy for the Vite-built SPA: scripts from self only; inline styles allowed
 * (Blueprint injects them); connections to this origin and the configured realtime host only
 * (docs/product.md §4; {@link realtimeConnectSources}).
 */
function contentSecurityPolicy(config: AppConfig) {
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'", ...realtimeConnectSources(config)],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  };
}

/** Answer of every request while the server is overloaded (503, with Retry-After). */
export const OVERLOAD_MESSAGE = 'El servidor está sobrecargado en este momento. Inténtelo nuevamente en unos segundos.';
/** Seconds a client is asked to wait after an overload 503 (Retry-After). */
export const OVERLOAD_RETRY_AFTER_SECONDS = 10;

/** The error every request meets while the server is overloaded ({@link registerOverloadGuard}). */
class OverloadError extends HttpError {
  constructor() {
    super(503, OVERLOAD_MESSAGE);
  }
}

/**
 * @fastify/under-pressure (issue 11 item 5): while the mean event-loop delay or the heap in use is
 * past its limit (`config.overload`), every request — /api/health and WebSocket upgrades included —
 * gets a fast 503 `{ message }` with Retry-After instead of queueing behind the backlog. The delay
 * is sampled over a window as long as its limit (at most 1 s, under-pressure's default), so a
 * limit of N ms means "the loop was N ms late on average over the last N ms". Nothing registered
 * when both limits are 0.
 */
async function registerOverloadGuard(app: FastifyInstance, overload: AppConfig['overload']): Promise<void> {
  if (overload.maxEventLoopDelayMs <= 0 && overload.maxHeapMb <= 0) return;
  await app.register(underPressure, {
    maxEventLoopDelay: overload.maxEventLoopDelayMs,
    maxHeapUsedBytes: overload.maxHeapMb * 1024 * 1024,
    sampleInterval: overload.maxEventLoopDelayMs > 0 ? Math.min(1000, Math.max(10, overload.maxEventLoopDelayMs)) : 1000,
    retryAfter: OVERLOAD_RETRY_AFTER_SECONDS,
    // under-pressure sets 503 + Retry-After and hands this error to errorHandler → { message }.
    customError: OverloadError,
  });
}

/**
 * Gives a route plugin Fastify's display name (`Symbol.for('fastify.display-name')`, read by
 * fastify/lib/plugin-utils.js `getPluginName`). Without one Fastify looks for the plugin among
 * every module in `require.cache`, once per registration: ~0.1 s an app with the test runner's
 * thousands of modules (docs/testing.md "An app per test"). The name also appears in Fastify's errors.
 * @returns the same plugin.
 */
function displayNamed<T extends object>(plugin: T, name: string): T {
  Object.defineProperty(plugin, Symbol.for('fastify.display-name'), { value: name || 'routes' });
  return plugin;
}

/**
 * Builds the API server (docs/architecture.md "The server") without listening, so tests use
 * `app.inject`. Routes: docs/product.md §7 rows 1–15, POST /api/notifications, GET /api/health, the realtime
 * service (WebSocket /app/:key, POST /broadcasting/auth, POST /apps/:appId/events), GET /dev/outbox
 * (not in production), POST /dev/clock (NODE_ENV=test with a movable clock), static files and the SPA fallback.
 * @returns a ready Fastify instance; close it with `app.close()` (waits for pending broadcasts and
 *   closes the WebSockets; the database stays open).
 */
export async function createApp({
  db,
  clock = systemClock,
  config,
  broadcaster,
  mailer,
  documents,
  logger = false,
}: CreateAppOptions): Promise<FastifyInstance> {
  installSpanishZodMessages();
  const hops = config.trustProxy;
  const trustProxy = typeof hops === 'number' ? (_address: string, hop: number) => hop < hops : hops;
  // The request timeout bounds slow headers and bodies (408, socket closed; issue 11 item 5). It
  // is set on a server made here because Node checks it only every `connectionsCheckingInterval`
  // (30 s by default), which Fastify's own `requestTimeout` option leaves as it is.
  const app = Fastify({
    logger: loggerOptions(logger),
    trustProxy,
    // Fastify applies `connectionTimeout` only to servers it makes itself, so it is set here: a
    // socket silent both ways for that long is destroyed (WebSockets are exempt, ws clears it).
    serverFactory: (handler) =>
      createServer(
        {
          requestTimeout: config.requestTimeoutMs,
          connectionsCheckingInterval: Math.min(30_000, Math.max(100, Math.floor(config.requestTimeoutMs / 4))),
        },
        handler,
      ).setTimeout(config.connectionTimeoutMs),
  }).withTypeProvider<ZodTypeProvider>();
  // API answers (data, the login's token) are never stored by browsers or proxies (issue 11 item
  // 17); routes that set their own Cache-Control (plan and logo images) keep it.
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) void reply.header('cache-control', 'no-store');
    return payload;
  });
  // Every route's body, querystring and params schema also refuses control characters in any
  // text field (issue 11 item 14; one shared refinement, src/schemas/common.ts).
  app.setValidatorCompiler((route) => {
    const schema: unknown = route.schema;
    // `.check` exists on classic and zod/mini schemas alike (both kinds serve as route schemas).
    const refined = schema instanceof z.core.$ZodType ? (schema as z.ZodType).check(z.superRefine(refuseControlCharacters)) : route.schema;
    return validatorCompiler({ ...route, schema: refined as z.ZodType });
  });
  // Answers are written by fast-json-stringify from the zod schemas' JSON Schema; outside
  // production each one is also checked by zod and compared with zod's text (server/serializer.ts).
  app.setSerializerCompiler(compiledSerializerCompiler({ validate: config.nodeEnv !== 'production' }));
  app.setErrorHandler(errorHandler);
  // An answer sent while the body still arrives (413 over the limit…) keeps its connection and the
  // rest of the body is read, bounded, so that the client reads the answer (docs/security.md 30.15).
  registerRefusedBodyDrain(app);

  const accountWindowMs = ACCOUNT_LIMIT_WINDOW_MINUTES * MINUTE_MS;
  const publisher =
    broadcaster ?? createPusherBroadcaster({ pusher: config.pusher, selfTarget: () => loopbackTarget(app.server.address()), log: app.log });
  // Broadcasts still in flight finish before the server stops accepting connections.
  app.addHook('preClose', async () => {
    await publisher.settled();
  });
  const deps: AppDeps = {
    db,
    clock,
    config,
    limiters: {
      login: new AttemptLimiter(config.loginRateLimitPerAccount, accountWindowMs, clock),
      loginAccountCeiling: new AttemptLimiter(config.loginRateLimitPerAccount * LOGIN_ACCOUNT_CEILING_FACTOR, accountWindowMs, clock),
      resetRequest: new AttemptLimiter(config.loginRateLimitPerAccount, accountWindowMs, clock),
      changePasswordAccount: new AttemptLimiter(config.loginRateLimitPerAccount, accountWindowMs, clock),
      changePasswordToken: new AttemptLimiter(Math.ceil(config.loginRateLimitPerAccount / 2), accountWindowMs, clock),
    },
    passwordWork: createPasswordWork(),
    background: new BackgroundWork(app.log),
    outbox: new OutboxDelivery({
      db,
      clock,
      log: app.log,
      mailer:
        mailer !== undefined
          ? mailer
          : config.mail.enabled && config.mail.smtpUrl
            ? createSmtpMailer(config.mail.smtpUrl, config.mail.from)
            : null,
    }),
    broadcaster: publisher,
    ids: createOpaqueIds(config.idAlphabet),
    importChecks: new ImportCheckPool({
      workers: config.importCheckWorkers,
      queueLimit: IMPORT_CHECK_QUEUE_LIMIT,
      timeoutMs: config.importCheckTimeoutMs,
      maxMemoryMb: IMPORT_CHECK_MAX_MEMORY_MB,
    }),
    documents: documents ?? createDocumentPool(config),
  };
  // Work requests left running (e-mails) finishes before the database closes; then the outbox's
  // delivery stops (a message being sent is finished; the rest waits, PENDING, for the next start).
  // The reservations' expiry job (server/modules/comercio/reservation-expiry.ts): its queue is the
  // database, so stopping loses nothing.
  const reservationExpiry = new ReservationExpiry({ db, clock, broadcaster: publisher, log: app.log });
  // The daily late-fee job and instalment reminders (server/modules/finanzas/late-fee-job.ts): the same.
  const lateFeeJob = new LateFeeJob({ db, clock, broadcaster: publisher, log: app.log });
  // The asiento de presentación's warnings (server/modules/administracion/title-deadline-job.ts): the same.
  const titleDeadlineJob = new TitleDeadlineJob({ db, clock, broadcaster: publisher, log: app.log });
  // The overdue contract signatures' notices (server/modules/administracion/contract-signature-job.ts): the same.
  const contractSignatureJob = new ContractSignatureJob({ db, clock, broadcaster: publisher, log: app.log });
  // The commissions' daily accrual (server/modules/administracion/commission-accrual-job.ts): the same.
  const commissionAccrualJob = new CommissionAccrualJob({ db, clock, log: app.log });
  app.addHook('preClose', async () => {
    await deps.background.settled();
    await deps.outbox.stop();
    await reservationExpiry.stop();
    await lateFeeJob.stop();
    await titleDeadlineJob.stop();
    await contractSignatureJob.stop();
    await commissionAccrualJob.stop();
  });
  app.addHook('onReady', async () => {
    deps.outbox.start();
    reservationExpiry.start();
    lateFeeJob.start();
    titleDeadlineJob.start();
    contractSignatureJob.start();
    commissionAccrualJob.start();
  });
  // The documents' workers load pdfmake and exceljs once the server listens, so the first PDF or
  // export does not pay ~1 s for it (not under tests: inject never listens, and a test server needs no warm-up).
  if (config.nodeEnv !== 'test')
    app.addHook('onListen', async () => {
      void deps.documents
        .warmUp()
        .then(() => Promise.all(Array.from({ length: config.documentWorkers }, () => deps.documents.run('warm', {}))))
        .catch((error: unknown) => app.log.warn({ err: error }, 'Document workers could not be warmed up'));
    });
  app.addHook('onClose', async () => {
    await deps.importChecks.close();
    if (!documents) await deps.documents.close();
  });

  await registerOverloadGuard(app, config.overload);

  const https = config.publicUrl.startsWith('https:');
  await app.register(helmet, {
    contentSecurityPolicy: contentSecurityPolicy(config),
    hsts: https ? undefined : false,
  });
  // JSON answers of 1–64 KiB are compressed in place, before the plugin below (it leaves them):
  // cheaper than its stream pipeline for the common small page (server/platform/small-json-compression.ts).
  registerSmallJsonCompression(app);
  // Larger JSON answers (lists, maps, exports) are compressed on the fly; Brotli at quality 4
  // costs about what gzip does, where its default of 11 would cost ~50× more CPU per answer. Static
  // files arrive pre-compressed from the build (web-app.ts) and are left alone (docs/decisions.md).
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await app.register(formbody);
  // Uploads (logo; later vouchers, plans): each route passes its own size and count limits.
  await app.register(multipart, { limits: { fileSize: 1024 * 1024, files: 1, fields: 10, parts: 11 } });
  await registerRateLimit(app);
  registerGuard(app, deps);
  if (config.apiDocs) await registerOpenApi(app);

  // Every module's routes, from the one list of modules (server/modules/index.ts).
  for (const module of SERVER_MODULES) {
    for (const routes of module.routes) await app.register(displayNamed(routes(deps), routes.name));
  }
  await app.register(displayNamed(realtimeRoutes(deps, new ChannelHub()), 'realtimeRoutes'));
  if (!isProduction(config)) await app.register(displayNamed(devOutboxRoutes(deps), 'devOutboxRoutes'));
  // A clock tests may move (main.ts gives one under NODE_ENV=test): POST /dev/clock.
  if (config.nodeEnv === 'test' && 'advance' in clock)
    await app.register(displayNamed(devClockRoutes(deps, clock as ShiftedClock, [reservationExpiry, lateFeeJob]), 'devClockRoutes'));
  if (config.apiDocs) await registerOpenApiRoutes(app);
  await registerWebApp(app, config);

  await app.ready();
  return app;
}
