import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { RouteAccess } from '../auth/guard';

/**
 * The OpenAPI 3.1 description of the API (issue "API throughput" item 4), generated from the same
 * zod schemas the routes validate and answer with (fastify-type-provider-zod's transforms for
 * @fastify/swagger): every route with its parameters, bodies, answers and the permission it needs
 * (`x-parcela-access`, also written in the operation's description). Served at
 * /api/openapi.json and browsable at /api/docs (@fastify/swagger-ui, its files fetched only by
 * that page) when the `apiDocs` setting is on (API_DOCS; default: outside production).
 * The backend team gets it beside the pacts (docs/contracts.md "OpenAPI").
 */

/** Where the description and its browser are served. */
export const OPENAPI_PATH = '/api/openapi.json';
export const API_DOCS_PREFIX = '/api/docs';

/** Who may call a route, in words (Spanish, as the rest of the API's texts). */
export function accessText(access: RouteAccess | undefined): string {
  if (access === undefined || access === 'public') return 'Público (sin token).';
  const who = access.userTypes.map((t) => (t === 'COLLABORATOR' ? 'colaboradores' : 'clientes')).join(' y ');
  const all = access.permission === undefined ? [] : typeof access.permission === 'string' ? [access.permission] : access.permission;
  const parts = [`Token de ${who}.`];
  if (all.length) parts.push(`Permisos: ${all.join(', ')}.`);
  if (access.anyOf?.length) parts.push(`Alguno de: ${access.anyOf.map((list) => list.join(' + ')).join(' | ')}.`);
  return parts.join(' ');
}

/**
 * Registers the collection of route schemas. Call it BEFORE the routes are registered (it listens
 * to `onRoute`); {@link registerOpenApiRoutes} serves the result once the routes are in.
 */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Parcela API',
        version: '1',
        description:
          'API de Parcela: bases /api (colaboradores), /api/customer (clientes), /api/private y /public. Errores: `{ message, errors? }` en español.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    },
    transform: (input) => {
      const transformed = jsonSchemaTransform(input);
      const access = (input.route.config as { access?: RouteAccess } | undefined)?.access;
      const schema = { ...(transformed.schema as Record<string, unknown>) };
      schema.description = [schema.description, accessText(access)].filter(Boolean).join('\n\n');
      if (access !== undefined && access !== 'public') schema.security = [{ bearer: [] }];
      (schema as Record<string, unknown>)['x-parcela-access'] = access ?? 'public';
      return { ...transformed, schema };
    },
    transformObject: jsonSchemaTransformObject,
  });
}

/** Serves /api/openapi.json and the browser at /api/docs. */
export async function registerOpenApiRoutes(app: FastifyInstance): Promise<void> {
  app.get(OPENAPI_PATH, { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());
  await app.register(swaggerUi, { routePrefix: API_DOCS_PREFIX, uiConfig: { url: OPENAPI_PATH, docExpansion: 'list' } });
}
