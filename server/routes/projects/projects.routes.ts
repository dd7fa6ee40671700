import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppDeps } from '../../context';

/**
 * Proyectos (issue "Proyectos"): subdivisions, stages, blocks, lots, status changes, bulk prices,
 * plan image and the staff and public maps. The calls are listed in src/schemas/projects.ts.
 */
export function projectsRoutes(deps: AppDeps): FastifyPluginAsyncZod {
  void deps;
  return async () => {};
}
