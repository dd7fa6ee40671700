import { AUTH_ROUTES, type RouteDef } from '../../config/paths';
import type { AuthRouteKey } from '../../config/screens';
import { caseInsensitiveParser } from './case-insensitive-parser';

/** Lookup of authenticated routes (docs/product.md §2) for the route guard; issue "Foundation". */
export type { AuthRouteKey };

export interface AuthRouteMatch {
  key: AuthRouteKey;
  route: RouteDef;
  params: Record<string, string>;
}

/**
 * Finds the authenticated route of a path, case-insensitively, in the order of the route table
 * (src/config/paths.ts).
 * @returns the route key, its definition and its decoded params; null for an unknown path.
 */
export function findAuthRoute(path: string): AuthRouteMatch | null {
  for (const [key, route] of Object.entries(AUTH_ROUTES) as [AuthRouteKey, RouteDef][]) {
    const { pattern, keys } = caseInsensitiveParser(route.path);
    const match = pattern.exec(path);
    if (!match) continue;
    const params: Record<string, string> = {};
    keys.forEach((name, i) => {
      params[name] = safeDecode(match[i + 1] ?? '');
    });
    return { key, route, params };
  }
  return null;
}

/** decodeURIComponent that returns the input unchanged when it is not valid percent-encoding. */
export function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
