/** `path?k=v&…` with the parameters URL-encoded (none: the bare path): the app addresses Inicio's figures and the reports' rows open. */
export function withQuery(path: string, params: Record<string, string>): string {
  const query = new URLSearchParams(params).toString();
  return query ? `${path}?${query}` : path;
}
