import type { ApiClient } from '../client';
import { request, toApiError } from '../client';
import { listParams } from '../list-params';
import { changeHistoryPageSchema } from '../../schemas/historial/change-history';
import type { ListQuery } from '../../schemas/list';

/**
 * Historial de cambios (staff base, 'Acceso módulo historial de cambios'). Filters (in
 * `ListQuery.filters`): from, to (YYYY-MM-DD, Lima), actor_type, actor_id, entity, record_id, action.
 * Throws {@link import('../client').ApiError}.
 */
export function createChangeHistoryApi(client: ApiClient) {
  return {
    /** GET change-history, newest first: `{data, meta}`. */
    list: (query: ListQuery) => request(changeHistoryPageSchema, () => client.main('change-history', { query: listParams(query) })),
    /** GET change-history/export.csv with the same filters (paging ignored) → the CSV file. */
    exportCsv: async (query: ListQuery): Promise<Blob> => {
      const { page: _page, per_page: _perPage, ...rest } = listParams(query);
      try {
        return await client.main('change-history/export.csv', { query: rest, responseType: 'blob' });
      } catch (error) {
        throw toApiError(error);
      }
    },
  };
}
export type ChangeHistoryApi = ReturnType<typeof createChangeHistoryApi>;
