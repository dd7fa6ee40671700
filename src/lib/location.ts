import { listQueryToSearchParams, type ListQuery } from '../schemas/list';

/**
 * Writes a list's query to the address bar without a new history entry (the `syncUrl` of the CRUD
 * pattern), so reloading or sharing the link reproduces the view. wouter follows `replaceState`.
 */
export function replaceUrlQuery(query: ListQuery, win: Pick<Window, 'location' | 'history'> = window): void {
  replaceUrlSearch(listQueryToSearchParams(query), win);
}

/**
 * {@link replaceUrlQuery} for a list that shares its screen's address with other parameters: the
 * parameters named in `keep` that the address holds now stay in it (e.g. Generar Contrato's
 * `?venta=`, the linked sale, which a reload must find again).
 */
export function replaceUrlQueryKeeping(
  query: ListQuery,
  keep: readonly string[],
  win: Pick<Window, 'location' | 'history'> = window,
): void {
  const params = listQueryToSearchParams(query);
  const current = new URLSearchParams(win.location.search);
  for (const name of keep) {
    const value = current.get(name);
    if (value !== null) params.set(name, value);
  }
  replaceUrlSearch(params, win);
}

/**
 * Writes `params` as the address bar's query, without a new history entry (and without writing
 * when nothing changes): the filters of a screen that is not a list (e.g. the sales report).
 */
export function replaceUrlSearch(params: URLSearchParams, win: Pick<Window, 'location' | 'history'> = window): void {
  const search = params.toString();
  const next = `${win.location.pathname}${search ? `?${search}` : ''}${win.location.hash}`;
  if (next !== `${win.location.pathname}${win.location.search}${win.location.hash}`) win.history.replaceState(win.history.state, '', next);
}
