import { listQueryToSearchParams, type ListQuery } from '../schemas/list';

/** A {@link ListQuery} as ofetch `query` parameters (same names the server's list routes read). */
export function listParams(query: ListQuery): Record<string, string> {
  return Object.fromEntries(listQueryToSearchParams(query));
}
