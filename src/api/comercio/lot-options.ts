import type { ApiClient } from '../client';
import { request } from '../client';
import { lotOptionsResponseSchema, type LotOption } from '../../schemas/comercio/lot-options';

/**
 * GET lot-options?q= (staff base, Comercial + Ventas): the lots that can be quoted whose code or
 * subdivision matches, first 20. Throws {@link import('../client').ApiError} (422 on a blank `q`).
 */
export function createLotOptionsApi(client: ApiClient) {
  return {
    search: async (q: string): Promise<LotOption[]> =>
      (await request(lotOptionsResponseSchema, () => client.main('lot-options', { query: { q } }))).data,
  };
}
export type LotOptionsApi = ReturnType<typeof createLotOptionsApi>;
