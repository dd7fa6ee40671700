import type { ApiClient } from '../client';
import { request, toApiError } from '../client';
import {
  lotMapResponseSchema,
  lotResponseSchema,
  publicLotMapResponseSchema,
  type Lot,
  type LotMap,
  type PublicLotMap,
} from '../../schemas/proyectos/projects';
import { lotTitleStatesResponseSchema, type LotTitleState } from '../../schemas/administracion/titles';

/**
 * The lot maps' calls (issue "Proyectos", docs/domain.md "Maps"; contract in
 * src/schemas/proyectos/projects.ts "Maps"). Polygons are `[x, y]` vertices in plan units (PLAN) or
 * longitude/latitude (GEO); money in integer céntimos of the subdivision's currency; areas in m².
 * Every function throws {@link import('../client').ApiError}: 404 for an unknown key (or an
 * unpublished subdivision on the public base), 401/403 on the staff base without a session or
 * permission, status 0 when the answer does not match its schema.
 */
export function createLotMapsApi(client: ApiClient) {
  const k = encodeURIComponent;
  return {
    /**
     * GET /api/subdivisions/{key}/map (staff: 'Acceso módulo proyectos' + 'Acceso submódulo
     * lotizaciones'): the subdivision and every lot with its polygon and internal status.
     */
    staffMap: async (key: string): Promise<LotMap> =>
      (await request(lotMapResponseSchema, () => client.main(`subdivisions/${k(key)}/map`))).data,
    /**
     * GET /public/subdivisions/{key}/map (public base, no session): published subdivisions only;
     * public statuses (Disponible / Separado / Vendido), prices null unless the company allows them.
     */
    publicMap: async (key: string): Promise<PublicLotMap> =>
      (await request(publicLotMapResponseSchema, () => client.public(`/public/subdivisions/${k(key)}/map`))).data,
    /**
     * The staff plan image (`plan_url` of the staff map, e.g. "/api/subdivisions/{key}/plan?v=…")
     * as a Blob, fetched with the session's bearer token (an `<img src>` could not send it).
     */
    planBlob: async (planUrl: string): Promise<Blob> => {
      try {
        return await client.main(planUrl, { responseType: 'blob' });
      } catch (error) {
        throw toApiError(error);
      }
    },
    /**
     * GET /api/subdivisions/{key}/title-states ('Acceso módulo administración' + 'Acceso submódulo
     * registros de partidas y títulos'): the heat map's "Estado del título", the state of the title
     * process of each lot's live sale (lots without one absent).
     */
    titleStates: async (key: string): Promise<LotTitleState[]> =>
      (await request(lotTitleStatesResponseSchema, () => client.main(`subdivisions/${k(key)}/title-states`))).data,
    /** GET /api/lots/{id}: the lot panel's details (boundaries, perimeter, updated_at). */
    lot: async (id: number): Promise<Lot> => (await request(lotResponseSchema, () => client.main(`lots/${id}`))).data,
  };
}
export type LotMapsApi = ReturnType<typeof createLotMapsApi>;
