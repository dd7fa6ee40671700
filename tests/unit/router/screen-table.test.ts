import { describe, expect, it } from 'vitest';
import { AUTH_ROUTES } from '../../../src/config/paths';
import {
  PLACEHOLDER,
  SCREENS,
  SCREEN_MACHINE_MODULES,
  screenModuleFiles,
  type AuthRouteKey,
  type ScreenMachinesKey,
} from '../../../src/config/screens';
import { SCREEN_MACHINES } from '../../../src/machines/screen-machines';
import { ROUTE_MODULES } from '../../../server/preload-hints';

/**
 * The screen table (src/config/screens.ts, issue "One place per screen") is the one list of what
 * draws each authenticated route: these tests fail when a route has no entry, when an entry names a
 * file or an export that does not exist, and when the server's preload hints drift from it.
 */
describe('screen table', () => {
  const routeKeys = Object.keys(AUTH_ROUTES) as AuthRouteKey[];

  it('has an entry — a screen or an explicit placeholder — for every authenticated route, and nothing else', () => {
    expect(Object.keys(SCREENS).sort()).toEqual([...routeKeys].sort());
    for (const key of routeKeys) {
      const entry: unknown = SCREENS[key];
      expect(entry === PLACEHOLDER || (typeof entry === 'object' && entry !== null && 'view' in entry), key).toBe(true);
    }
  });

  it.each(routeKeys.filter((key) => SCREENS[key] !== PLACEHOLDER))('%s: its view module exports the component it names', async (key) => {
    const entry = SCREENS[key];
    if (entry === PLACEHOLDER) throw new Error('unreachable');
    const module = (await import(/* @vite-ignore */ `/src/views/${entry.view}.tsx`)) as Record<string, unknown>;
    expect(typeof module[entry.component], `${entry.view} → ${entry.component}`).toBe('function');
  });

  it.each(Object.keys(SCREEN_MACHINE_MODULES) as ScreenMachinesKey[])(
    'machine module %s: the path loads the module the factory is typed for',
    async (key) => {
      const loaded = await SCREEN_MACHINES[key].module.load();
      const direct: unknown = await import(/* @vite-ignore */ `/src/machines/${SCREEN_MACHINE_MODULES[key]}.ts`);
      expect(loaded).toBe(direct);
      const fakeClient = {} as Parameters<(typeof SCREEN_MACHINES)[typeof key]['build']>[1];
      // The factory is picked from the module: building with a fake client must not throw on a missing export.
      expect(() =>
        SCREEN_MACHINES[key].build(loaded, fakeClient, {
          reportApiError: () => {},
          toaster: { show: () => '' } as never,
          sessionApi: {} as never,
          navigate: () => {},
          onDashboardChanged: () => () => {},
        }),
      ).not.toThrow(/is not a function/);
    },
  );

  it('the server announces, for each authenticated route, the shell and exactly the files of its screen', () => {
    for (const key of routeKeys) {
      const example = AUTH_ROUTES[key].path.replace(/:[a-z_]+/g, 'x1');
      const route = ROUTE_MODULES.find((r) => r.pattern.test(example));
      expect(route, example).toBeDefined();
      expect(route!.modules).toEqual(expect.arrayContaining(screenModuleFiles(key)));
      // Inicio's page is drawn before the shell, which the app fetches after that paint (src/views/router/screens.ts).
      if (key === 'home') expect(route!.modules).not.toContain('src/views/shell/AuthenticatedShell.tsx');
      else expect(route!.modules).toContain('src/views/shell/AuthenticatedShell.tsx');
    }
  });
});
