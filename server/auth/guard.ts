import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Permission } from '../../src/schemas/permissions';
import type { AccountType } from '../db/database';
import type { AppDeps } from '../context';
import { forbidden, subscriptionLapsed, unauthenticated } from '../errors';
import { heldPermissions } from './accounts';
import { resolveSession, type ResolvedToken } from './tokens';
import '../audit/audit'; // declares FastifyRequest.audit

/**
 * Route access control (docs/api.md "Rules every route follows": the permission is declared next
 * to the path). Every route under /api, /dev and the realtime prefixes (/app, /apps, /broadcasting)
 * declares `config.access`; one onRequest hook enforces it before the body is parsed: 401 without a
 * live token for an active account, 402 when the company's subscription lapsed, 403 when the account
 * type or one of the required permissions does not match.
 */

/**
 * Who may call a route: anyone, or bearer holders of these account types, optionally holding a
 * permission (or every permission of a list, e.g. a module and one of its submodules).
 */
export type RouteAccess =
  | 'public'
  | {
      userTypes: readonly AccountType[];
      permission?: Permission | readonly Permission[];
      /**
       * Alternatives: the caller must hold every permission of at least one of these lists (checked
       * in addition to `permission`). E.g. the lot map: lotizaciones OR the sales submodule.
       */
      anyOf?: readonly (readonly Permission[])[];
    };

/** Staff and customers alike. */
export const ANY_ACCOUNT: RouteAccess = { userTypes: ['COLLABORATOR', 'CUSTOMER'] };
/** Staff only (customers get 403). */
export const STAFF_ONLY: RouteAccess = { userTypes: ['COLLABORATOR'] };

/** Staff holding every one of `permissions` (a module and, usually, one of its submodules). */
export function staffWith(...permissions: readonly Permission[]): RouteAccess {
  return { userTypes: ['COLLABORATOR'], permission: permissions };
}

/** Staff holding every permission of at least one of `alternatives` (e.g. [[proyectos, lotizaciones], [comercial, ventas]]). */
export function staffWithAnyOf(...alternatives: readonly (readonly Permission[])[]): RouteAccess {
  return { userTypes: ['COLLABORATOR'], anyOf: alternatives };
}

/** The authenticated caller of a request. */
export type AuthContext = ResolvedToken;

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: RouteAccess;
  }
  interface FastifyInstance {
    /** Every route registered after the guard (method, url), e.g. for the OpenAPI completeness test. */
    registeredRoutes: ReadonlyArray<{ method: string; url: string }>;
  }
  interface FastifyRequest {
    /** Set by the guard on authenticated routes; null on public ones. */
    auth: AuthContext | null;
  }
}

/** Path prefixes whose routes must declare `config.access` (API bases, dev tools, realtime). */
const GUARDED_PREFIXES = ['/api', '/dev', '/broadcasting', '/app', '/apps', '/public'];

/** The bearer token of the Authorization header, if any. */
export function bearerToken(request: FastifyRequest): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
  return match?.[1] ?? null;
}

/**
 * The caller of an authenticated route.
 * @throws HttpError 401 when the route was not declared authenticated (a programming error shows as 401, never as access).
 */
export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthenticated();
  return request.auth;
}

/** Installs the guard on `app` (call before registering routes). */
export function registerGuard(app: FastifyInstance, deps: Pick<AppDeps, 'db' | 'clock' | 'config'>): void {
  app.decorateRequest('auth', null);
  app.decorateRequest('audit', null);

  const registered: Array<{ method: string; url: string }> = [];
  app.decorate('registeredRoutes', registered);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) registered.push({ method: String(method), url: route.url });
    const guarded = GUARDED_PREFIXES.some((prefix) => route.url === prefix || route.url.startsWith(`${prefix}/`));
    // The API's description browser (@fastify/swagger-ui's own routes, server/platform/openapi.ts) holds no data.
    const apiDocs = route.url === '/api/docs' || route.url.startsWith('/api/docs/');
    if (guarded && !apiDocs && route.config?.access === undefined) {
      throw new Error(`Route ${String(route.method)} ${route.url} must declare config.access`);
    }
  });

  app.addHook('onRequest', async (request) => {
    // Change-history context (server/audit/audit.ts): anonymous until a token is accepted below.
    request.audit = { actor: null, ip: request.ip, clock: deps.clock };
    const access = request.routeOptions.config.access;
    if (access === undefined || access === 'public') return;

    // One statement reads the token, its account's status and the subscription flag; a second one,
    // only on routes that name permissions, which of those the account holds.
    const raw = bearerToken(request);
    const session = raw ? await resolveSession(deps, raw) : null;
    if (!session || !session.accountActive) throw unauthenticated();
    if (!session.subscriptionActive) throw subscriptionLapsed();
    const { token } = session;

    if (!access.userTypes.includes(token.userType)) throw forbidden();
    const required = access.permission === undefined ? [] : typeof access.permission === 'string' ? [access.permission] : access.permission;
    const named = [...new Set([...required, ...(access.anyOf ?? []).flat()])];
    if (named.length > 0 || access.anyOf !== undefined) {
      const held = named.length > 0 ? await heldPermissions(deps.db, token.userType, token.accountId, named) : new Set<string>();
      if (!required.every((permission) => held.has(permission))) throw forbidden();
      if (access.anyOf !== undefined && !access.anyOf.some((list) => list.every((permission) => held.has(permission)))) throw forbidden();
    }
    request.auth = token;
    request.audit = { actor: { userType: token.userType, accountId: token.accountId }, ip: request.ip, clock: deps.clock };
  });
}
