/**
 * `^…/?$`, case-insensitive, for a route path of src/config/paths.ts (`:param` → one segment): the
 * pages the server draws (server/preload-hints.ts) and the app's wait for their code before its first
 * render (src/views/router/screens.ts) match paths by the same rule.
 * @example routePattern('/mapa/:name/:id_encrypted').test('/MAPA/los-olivos/Ab3/') === true
 */
export function routePattern(path: string): RegExp {
  const body = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${body.replace(/\/$/, '')}/?$`, 'i');
}
