import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';

/**
 * Whether the app has moved between pages since it loaded (docs/decisions.md "Keyboard and
 * focus"): the shell mounts fresh after a login and must tell a client-side navigation (from the
 * login page: the new page's heading takes the focus) from the app's first load (focus left alone).
 */
let firstPath: string | null = null;
let navigated = false;

/** Records the route switch's paths (call it once, in AppRoutes). */
export function useRecordNavigation(): void {
  const [path] = useLocation();
  // A new app (one per page load; one per render in the view tests) starts with no navigation,
  // before any of its screens renders.
  useState(() => {
    firstPath = null;
    navigated = false;
    return null;
  });
  useEffect(() => {
    if (firstPath === null) firstPath = path;
    else if (path !== firstPath) navigated = true;
  }, [path]);
}

/**
 * Whether showing `path` now follows a client-side navigation: the app moved between pages
 * before, or it loaded at another path (a parent's effect runs after its children's, so the
 * navigation that mounts a screen may not be recorded yet).
 */
export function reachedByNavigation(path: string): boolean {
  return navigated || (firstPath !== null && firstPath !== path);
}
