import type { ApiClient } from '../client';
import { request, toApiError } from '../client';
import { listParams } from '../list-params';
import type { ListQuery } from '../../schemas/list';
import {
  blockSchema,
  blocksResponseSchema,
  stageSchema,
  stagesResponseSchema,
  subdivisionResponseSchema,
  subdivisionsPageSchema,
  type Block,
  type CreateSubdivisionRequest,
  type Stage,
  type Subdivision,
  type UpdateSubdivisionRequest,
} from '../../schemas/proyectos/projects';
import { dataResponseSchema } from '../../schemas/paging';

/**
 * Proyectos → Lotizaciones: subdivisions, their plan image, stages (etapas) and blocks (manzanas)
 * (staff base, 'Acceso módulo proyectos' + 'Acceso submódulo lotizaciones'; contract in
 * src/schemas/proyectos/projects.ts). `key` is the subdivision's opaque key (the route's `{id_encrypted}`).
 * Every function throws {@link import('../client').ApiError} on failure: 422 carries field errors,
 * 409 a Spanish refusal (a subdivision with lots cannot be deleted), 404 an unknown key.
 */
export function createSubdivisionsApi(client: ApiClient) {
  const one = async (run: () => Promise<unknown>): Promise<Subdivision> => (await request(subdivisionResponseSchema, run)).data;
  const stage = async (run: () => Promise<unknown>): Promise<Stage> => (await request(dataResponseSchema(stageSchema), run)).data;
  const block = async (run: () => Promise<unknown>): Promise<Block> => (await request(dataResponseSchema(blockSchema), run)).data;
  const empty = (run: () => Promise<unknown>): Promise<void> =>
    run().then(
      () => undefined,
      (e: unknown) => {
        throw toApiError(e);
      },
    );
  const k = encodeURIComponent;
  return {
    /** GET subdivisions: `q` (code, name, district), filters `status`, `currency`; sort code|name|status|created_at. */
    list: (query: ListQuery) => request(subdivisionsPageSchema, () => client.main('subdivisions', { query: listParams(query) })),
    /** GET subdivisions/{key} (with live lot counts and sold area). */
    get: (key: string) => one(() => client.main(`subdivisions/${k(key)}`)),
    /** POST subdivisions → 201 `{data}`. */
    create: (body: CreateSubdivisionRequest) => one(() => client.main('subdivisions', { method: 'POST', body })),
    /** PATCH subdivisions/{key} (any subset). */
    update: (key: string, body: UpdateSubdivisionRequest) => one(() => client.main(`subdivisions/${k(key)}`, { method: 'PATCH', body })),
    /** DELETE subdivisions/{key} → 204; 409 when it still has lots. */
    remove: (key: string) => empty(() => client.main(`subdivisions/${k(key)}`, { method: 'DELETE' })),
    /** POST subdivisions/{key}/plan, multipart `file` (PNG/JPEG ≤ 5 MB) → the subdivision with its new `plan_url`. */
    uploadPlan: (key: string, file: Blob, filename = 'plano') => {
      const body = new FormData();
      body.append('file', file, filename);
      return one(() => client.main(`subdivisions/${k(key)}/plan`, { method: 'POST', body }));
    },
    /**
     * GET the plan image bytes (authenticated: an `<img src>` cannot send the bearer token).
     * @param planUrl the subdivision's `plan_url` (`/api/subdivisions/{key}/plan?v=…`) or a path relative to the main base.
     */
    planBlob: async (planUrl: string): Promise<Blob> => {
      const path = planUrl.replace(/^\/?api\//, '');
      try {
        return await client.main<Blob, 'blob'>(path, { responseType: 'blob' });
      } catch (e) {
        throw toApiError(e);
      }
    },
    /** GET subdivisions/{key}/stages (ordered by position). */
    stages: async (key: string): Promise<Stage[]> =>
      (await request(stagesResponseSchema, () => client.main(`subdivisions/${k(key)}/stages`))).data,
    /** POST subdivisions/{key}/stages → 201. */
    createStage: (key: string, body: { name: string; position?: number }) =>
      stage(() => client.main(`subdivisions/${k(key)}/stages`, { method: 'POST', body })),
    /** PATCH stages/{id} (rename / reorder). */
    updateStage: (id: number, body: { name: string; position?: number; version?: number }) =>
      stage(() => client.main(`stages/${id}`, { method: 'PATCH', body })),
    /** DELETE stages/{id} → 204 (its blocks lose the stage). */
    removeStage: (id: number) => empty(() => client.main(`stages/${id}`, { method: 'DELETE' })),
    /** GET subdivisions/{key}/blocks (with lot counts). */
    blocks: async (key: string): Promise<Block[]> =>
      (await request(blocksResponseSchema, () => client.main(`subdivisions/${k(key)}/blocks`))).data,
    /** POST subdivisions/{key}/blocks → 201; `stage_id` optional. */
    createBlock: (key: string, body: { name: string; stage_id?: number | null }) =>
      block(() => client.main(`subdivisions/${k(key)}/blocks`, { method: 'POST', body })),
    /** PATCH blocks/{id} (rename, assign to a stage). */
    updateBlock: (id: number, body: { name?: string; stage_id?: number | null; version?: number }) =>
      block(() => client.main(`blocks/${id}`, { method: 'PATCH', body })),
    /** DELETE blocks/{id} → 204; 409 when it has lots. */
    removeBlock: (id: number) => empty(() => client.main(`blocks/${id}`, { method: 'DELETE' })),
  };
}
export type SubdivisionsApi = ReturnType<typeof createSubdivisionsApi>;
