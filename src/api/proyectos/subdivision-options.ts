import type { ApiClient } from '../client';
import { request } from '../client';
import { subdivisionOptionsResponseSchema, type SubdivisionOption } from '../../schemas/proyectos/subdivision-options';

/**
 * GET subdivision-options (staff base; whoever works subdivisions, leads, customers or sales): the
 * subdivisions by name, for pickers and list filters of other screens.
 */
export function createSubdivisionOptionsApi(client: ApiClient) {
  return {
    /** Every subdivision's id and name, by name. */
    list: async (): Promise<SubdivisionOption[]> =>
      (await request(subdivisionOptionsResponseSchema, () => client.main('subdivision-options'))).data,
  };
}
