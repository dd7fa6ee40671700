import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import type { SnapshotFrom } from 'xstate';
import type { ShellActors } from '../../machines/shell/shell.actors';
import type { NotificationsSnapshot } from '../../machines/notifications/notifications.selectors';
import type { LayoutSnapshot } from '../../machines/layout/layout.selectors';
import type { PasswordField } from '../../machines/change-password/change-password.machine';
import type { ThemeMachine } from '../../machines/theme/theme.machine';
import type { ChangePasswordMachine } from '../../machines/change-password/change-password.machine';
import type { MenuSearchMachine } from '../../machines/menu-search/menu-search.machine';
import type { MenuItem, StyleSettings } from '../../schemas/session';
import { useServices, useSession } from '../services';

/**
 * The shell's actors in the view tree (issue "Shell"; docs/architecture.md "views read the machine
 * through selectors and call named-intent hooks"). The authenticated area provides the app-wide
 * `layout`, `theme`, `changePassword` and `menuSearch` actors; `notifications` and `realtime` are
 * the session's children while logged in (undefined otherwise). Each `use…` hook reads through a
 * selector; each `use…Events` hook returns the named intents the views call.
 */

const ShellContext = createContext<ShellActors | null>(null);

/** Provides the shell's actors to the authenticated area. */
export function ShellProvider({ value, children }: { value: ShellActors; children: ReactNode }) {
  return <ShellContext.Provider value={value}>{children}</ShellContext.Provider>;
}

/** The shell's actors; throws outside a ShellProvider. */
export function useShellActors(): ShellActors {
  const actors = useContext(ShellContext);
  if (!actors) throw new Error('useShellActors must be used inside <ShellProvider>');
  return actors;
}

// ---------- layout ----------

/** Reads the layout machine. */
export function useLayout<T>(selector: (s: LayoutSnapshot) => T): T {
  return useSelector(useShellActors().layout, selector);
}

/** Layout intents (docs/product.md §2). */
export function useLayoutEvents() {
  const { layout } = useShellActors();
  return {
    toggleMenu: () => layout.send({ type: 'menu.toggle' }),
    outsideClicked: () => layout.send({ type: 'layout.outsideClicked' }),
    linkChosen: () => layout.send({ type: 'menu.linkChosen' }),
    toggleGroup: (key: string) => layout.send({ type: 'menu.groupToggled', key }),
    openProfile: () => layout.send({ type: 'profile.opened' }),
    closeProfile: () => layout.send({ type: 'profile.closed' }),
    activeGroupsChanged: (keys: string[]) => layout.send({ type: 'menu.activeGroupsChanged', keys }),
  };
}

// ---------- theme ----------

/** Reads the theme machine. */
export function useTheme<T>(selector: (s: SnapshotFrom<ThemeMachine>) => T): T {
  return useSelector(useShellActors().theme, selector);
}

/**
 * Whether the dark theme is on, or null outside the shell: Inicio is drawn inside the shell
 * skeleton before the shell's code (and its theme actor) has arrived (src/views/router/AppRoutes.tsx).
 */
export function useOptionalDarkTheme(): boolean | null {
  const actors = useContext(ShellContext);
  return useSelector(actors?.theme, (s) => (s ? s.context.styles.darkTheme : null));
}

/** Theme intents (docs/product.md §2 "Theme configurator", top bar dark/light toggle). */
export function useThemeEvents() {
  const { theme } = useShellActors();
  return {
    toggleDark: () => theme.send({ type: 'theme.darkToggled' }),
    openConfigurator: () => theme.send({ type: 'theme.configuratorOpened' }),
    closeConfigurator: () => theme.send({ type: 'theme.configuratorClosed' }),
    choosePrimary: (primary: string) => theme.send({ type: 'theme.primaryChosen', primary }),
    chooseSurface: (surface: string) => theme.send({ type: 'theme.surfaceChosen', surface }),
    choosePreset: (preset: StyleSettings['preset']) => theme.send({ type: 'theme.presetChosen', preset }),
    chooseMenuMode: (menuMode: StyleSettings['menuMode']) => theme.send({ type: 'theme.menuModeChosen', menuMode }),
    save: () => theme.send({ type: 'theme.saveRequested' }),
  };
}

// ---------- change password ----------

/** Reads the change-password machine. */
export function useChangePassword<T>(selector: (s: SnapshotFrom<ChangePasswordMachine>) => T): T {
  return useSelector(useShellActors().changePassword, selector);
}

/** Change-password intents (docs/product.md §2 "Change-password dialog"). */
export function useChangePasswordEvents() {
  const { changePassword } = useShellActors();
  return {
    open: () => changePassword.send({ type: 'password.open' }),
    close: () => changePassword.send({ type: 'password.close' }),
    change: (field: PasswordField, value: string) => changePassword.send({ type: 'password.changed', field, value }),
    submit: () => changePassword.send({ type: 'password.submit' }),
  };
}

// ---------- menu search ----------

/** Reads the menu-search machine. */
export function useMenuSearch<T>(selector: (s: SnapshotFrom<MenuSearchMachine>) => T): T {
  return useSelector(useShellActors().menuSearch, selector);
}

/** Shortcut search intents (docs/product.md §2 "Shortcut search box"). */
export function useMenuSearchEvents() {
  const { menuSearch } = useShellActors();
  return {
    type: (query: string) => menuSearch.send({ type: 'search.typed', query }),
    pick: (item: MenuItem) => menuSearch.send({ type: 'search.picked', item }),
    /** Enter: filter by what is typed now, before Blueprint picks the active item on key-up. */
    flush: () => menuSearch.send({ type: 'search.flush' }),
  };
}

// ---------- notifications and realtime (children of the session) ----------

/** Reads the notifications machine (the selector gets undefined while it is not running). */
export function useNotifications<T>(selector: (s: NotificationsSnapshot | undefined) => T): T {
  const ref = useSession((s) => s.children.notifications);
  return useSelector(ref, selector as (s: unknown) => T);
}

/** Notification intents (docs/product.md §2 "Notifications panel"); no-ops while logged out. */
export function useNotificationsEvents() {
  const ref = useSession((s) => s.children.notifications);
  return {
    open: () => ref?.send({ type: 'notifications.opened' }),
    close: () => ref?.send({ type: 'notifications.closed' }),
    choose: (id: number) => ref?.send({ type: 'notification.chosen', id }),
  };
}

/**
 * Starts the realtime connection when the calling component (the top bar) mounts and whenever a
 * new session's realtime actor appears (docs/product.md §4: "set up 5 seconds after the top bar appears"; the
 * delay is the machine's).
 */
export function useStartRealtimeOnMount(): void {
  const ref = useSession((s) => s.children.realtime);
  useEffect(() => {
    ref?.send({ type: 'realtime.start' });
  }, [ref]);
}

/** The session's intents the shell uses. */
export function useShellSessionEvents() {
  const { session } = useServices();
  return { logout: () => session.send({ type: 'session.logout' }) };
}
