import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../context';

/**
 * Lot import (issue "Proyectos" → Import): POST /api/subdivisions/{key}/imports/preview and
 * POST /api/subdivisions/{key}/imports (src/schemas/projects.ts, import section).
 */
export function lotImportsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  void deps;
  return async () => {};
}
