import { describe, expect, it } from 'vitest';
import { dialects, buildTestApp, useTestApp, useTestDatabase } from './harness';

/**
 * The OpenAPI 3.1 description (issue "API throughput" item 4; server/platform/openapi.ts): served
 * at /api/openapi.json and browsable at /api/docs, it lists every API route with its parameters,
 * bodies, answers and access; off in production unless API_DOCS=on.
 */
describe.each(dialects)('OpenAPI (%s)', (dialect) => {
  const db = useTestDatabase(dialect);
  const ctx = useTestApp(db);

  /** Fastify's `/api/users/:id` as OpenAPI's `/api/users/{id}`. */
  const openApiPath = (url: string) => url.replace(/:([A-Za-z_]+)/g, '{$1}');

  it('describes every API route: method, path, access', async () => {
    const res = await ctx().app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as {
      openapi: string;
      paths: Record<string, Record<string, { description?: string; 'x-parcela-access'?: unknown }>>;
    };
    expect(doc.openapi).toBe('3.1.0');
    const api = ctx().app.registeredRoutes.filter(
      (r) =>
        r.method !== 'HEAD' &&
        /^\/(api|public|broadcasting|apps?)\//.test(r.url) &&
        !r.url.startsWith('/api/docs') &&
        r.url !== '/api/openapi.json',
    );
    expect(api.length).toBeGreaterThan(50);
    const missing = api.filter((r) => !doc.paths[openApiPath(r.url)]?.[r.method.toLowerCase()]);
    expect(missing).toEqual([]);
    // The access each needs, in its description.
    expect(doc.paths['/api/users']!.get!.description).toContain('Token de colaboradores. Permisos:');
    expect(doc.paths['/api/auth/login']!.post!['x-parcela-access']).toBe('public');
  });

  it('pins bodies and answers from the zod schemas', async () => {
    const doc = (await ctx().app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
      paths: Record<
        string,
        Record<string, { requestBody?: unknown; responses?: Record<string, unknown>; parameters?: Array<{ name: string }> }>
      >;
    };
    const patch = doc.paths['/api/lots/{id}']!.patch!;
    expect(JSON.stringify(patch.requestBody)).toContain('price_per_m2');
    expect(Object.keys(patch.responses ?? {})).toContain('200');
    expect(doc.paths['/api/subdivisions']!.get!.parameters!.map((p) => p.name)).toEqual(
      expect.arrayContaining(['page', 'per_page', 'sort', 'q']),
    );
  });

  it('serves the browser at /api/docs', async () => {
    const entry = await ctx().app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(entry.statusCode);
    const page = await ctx().app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('swagger');
  });

  it('is off in production unless API_DOCS=on', async () => {
    const production = await buildTestApp(db(), { apiDocs: false });
    try {
      expect((await production.app.inject({ method: 'GET', url: '/api/openapi.json' })).statusCode).toBe(404);
      expect((await production.app.inject({ method: 'GET', url: '/api/docs/' })).statusCode).toBe(404);
    } finally {
      await production.app.close();
    }
  });
});
