import { inspectOption } from '../inspect';
import { createActor, fromPromise, type ActorRefFrom } from 'xstate';
import type { SessionApi } from '../../api/session';
import { readStorage, writeStorage, type KeyValueStore } from '../../lib/storage';
import { applyThemeToDocument } from '../../lib/theme-dom';
import type { AppToaster } from '../../lib/toaster';
import type { MenuItem, SessionUser } from '../../schemas/session';
import { layoutMachine } from '../layout/layout.machine';
import { themeMachine } from '../theme/theme.machine';
import { changePasswordMachine } from '../change-password/change-password.machine';
import { menuSearchMachine } from '../menu-search/menu-search.machine';
import type { SessionActorRef } from '../app-actors';

/**
 * The app-wide actors of the shell (issue "Shell"; docs/product.md §2 "Layout", "Theme configurator", "Side
 * menu" search, "Change-password dialog"), wired to their effects. Created once per app, the first
 * time the authenticated area is shown (this module is loaded with it, so the login page's bundle
 * does not carry it), and kept for the life of the page:
 * - `layout`: input the viewport width and the stored menu mode; a window resize sends `layout.resized`;
 * - `theme`: input the stored `system_styles` and `type`; `apply` sets the CSS variables and the dark
 *   classes on the document, `persistLocal` keeps `system_styles` while a session exists,
 *   `menuModeChanged` tells the layout, `saveStyles` is row 8, toasts go to the toaster;
 * - `changePassword`: row 15; toasts go to the toaster;
 * - `menuSearch`: the submodules of the signed-in user (flattened `permissions_names`), kept in step
 *   with the session's user; picking one navigates.
 */

export interface ShellDeps {
  session: SessionActorRef;
  sessionApi: Pick<SessionApi, 'storeStyles' | 'changePassword'>;
  store: KeyValueStore | null;
  navigate: (to: string) => void;
  toaster: AppToaster;
  /** Logs errors the user never sees (docs/product.md §8). Defaults to console.error. */
  log?: (what: string, error: unknown) => void;
  /** The window whose width and resizes drive the layout (tests pass a stub; none: 1280 px, no listener). */
  win?: Pick<Window, 'innerWidth' | 'addEventListener'> | null;
  /** Applies the theme to the page (defaults to the document). */
  applyTheme?: typeof applyThemeToDocument;
}

export interface ShellActors {
  layout: ActorRefFrom<typeof layoutMachine>;
  theme: ActorRefFrom<typeof themeMachine>;
  changePassword: ActorRefFrom<typeof changePasswordMachine>;
  menuSearch: ActorRefFrom<typeof menuSearchMachine>;
}

/**
 * Every submodule of a user's menu (the items of `permissions_names`), once per route, in menu
 * order: what the shortcut search offers (docs/product.md §2, §5).
 */
export function menuSearchItems(user: SessionUser | null): MenuItem[] {
  const seen = new Set<string>();
  const items: MenuItem[] = [];
  for (const group of user?.permissions_names ?? []) {
    for (const item of group.items) {
      const key = item.ruta.toLowerCase();
      if (seen.has(key)) continue;
      seen.add(key);
      items.push({ nombre: item.nombre, ruta: item.ruta, icono: item.icono });
    }
  }
  return items;
}

/** Creates and starts the shell's actors. */
export function createShellActors({
  session,
  sessionApi,
  store,
  navigate,
  toaster,
  log = defaultLog,
  win = typeof window === 'undefined' ? null : window,
  applyTheme = applyThemeToDocument,
}: ShellDeps): ShellActors {
  const storedStyles = readStorage('system_styles', store);

  const layout = createActor(layoutMachine, {
    ...inspectOption(),
    input: { width: win?.innerWidth ?? 1280, menuMode: storedStyles?.menuMode ?? 'static' },
  }).start();
  win?.addEventListener('resize', () => layout.send({ type: 'layout.resized', width: win.innerWidth }));

  const theme = createActor(
    themeMachine.provide({
      actions: {
        apply: (_, styles) => applyTheme(styles),
        // Styles belong to a session: after logout (no token) nothing is written back.
        persistLocal: (_, styles) => {
          if (readStorage('token', store)) writeStorage('system_styles', styles, store);
        },
        menuModeChanged: (_, menuMode) => layout.send({ type: 'layout.menuModeChanged', menuMode }),
        notify: (_, toast) => toaster.show(toast),
        logError: (_, { what, error }) => log(what, error),
      },
      actors: { saveStyles: fromPromise(({ input }) => sessionApi.storeStyles(input)) },
    }),
    { input: { styles: storedStyles, userType: readStorage('type', store) }, ...inspectOption() },
  ).start();

  const changePassword = createActor(
    changePasswordMachine.provide({
      actions: { notify: (_, toast) => toaster.show(toast) },
      actors: {
        changePassword: fromPromise(({ input }) => sessionApi.changePassword(input.actual_password, input.new_password)),
      },
    }),
    inspectOption(),
  ).start();

  let user = session.getSnapshot().context.user;
  const menuSearch = createActor(menuSearchMachine.provide({ actions: { navigate: (_, { to }) => navigate(to) } }), {
    input: { items: menuSearchItems(user) },
    ...inspectOption(),
  }).start();
  session.subscribe((snapshot) => {
    if (snapshot.context.user === user) return;
    user = snapshot.context.user;
    menuSearch.send({ type: 'search.itemsChanged', items: menuSearchItems(user) });
  });

  return { layout, theme, changePassword, menuSearch };
}

function defaultLog(what: string, error: unknown): void {
  console.error(`[shell] ${what}:`, error);
}
