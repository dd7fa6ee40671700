import { lazy, Suspense, useRef } from 'react';
import { Button, Overlay2, Spinner, SpinnerSize, Tag } from '@blueprintjs/core';
import { Link } from 'wouter';
import { selectIsLoggingOut, selectUser } from '../../machines/session/session.selectors';
import { selectHasUnread, selectNotificationsOpen, selectUnreadCount } from '../../machines/notifications/notifications.selectors';
import { selectMenuOpen, selectProfileOpen } from '../../machines/layout/layout.selectors';
import { useSession } from '../services';
import { Brand } from '../shared/Brand';
import {
  useLayout,
  useLayoutEvents,
  useNotifications,
  useNotificationsEvents,
  useStartRealtimeOnMount,
  useTheme,
  useThemeEvents,
} from './shell-context';
import { useReturnFocus } from '../shared/focus-return';

/** The panel's content loads when first opened (it brings DOMPurify). */
const NotificationsPanel = lazy(() => import('./NotificationsPanel').then((m) => ({ default: m.NotificationsPanel })));

/** Accessible names of the top bar's controls (e2e tests use them). */
export const TOPBAR_LABELS = {
  menuToggle: 'Menú',
  home: 'Parcela, ir al inicio',
  bell: 'Notificaciones',
  darkToggle: 'Modo oscuro',
  configurator: 'Configuración del tema',
  userMenuPrefix: 'Opciones de usuario',
  changePassword: 'Cambiar contraseña',
  logout: 'Cerrar sesión',
} as const;

/**
 * The top bar (docs/product.md §2 "Top bar"; docs/product.md §2): menu toggle, logo linking to /, the notification bell
 * with its unread badge (animated while unread exist) and the notifications dialog, the dark/light
 * toggle, the theme configurator button, and the user's first name and surname opening the profile
 * sidebar (ProfileSidebar.tsx: "Cambiar contraseña", "Cerrar sesión"). Mounting it starts the realtime connection
 * (docs/product.md §4: 5 s after the top bar appears).
 */
export function TopBar({ sidebarId }: { sidebarId: string }) {
  useStartRealtimeOnMount();
  const menuOpen = useLayout(selectMenuOpen);
  const { toggleMenu } = useLayoutEvents();
  const dark = useTheme((s) => s.context.styles.darkTheme);
  const { toggleDark, openConfigurator } = useThemeEvents();

  return (
    <header className="layout-topbar">
      <div className="layout-topbar-logo-container">
        <Button
          className="layout-menu-button"
          variant="minimal"
          icon="menu"
          aria-label={TOPBAR_LABELS.menuToggle}
          title={TOPBAR_LABELS.menuToggle}
          aria-controls={sidebarId}
          aria-expanded={menuOpen}
          onClick={toggleMenu}
        />
        <Link href="/" className="layout-topbar-logo" aria-label={TOPBAR_LABELS.home}>
          <Brand size={32} company />
        </Link>
      </div>
      <div className="layout-topbar-actions">
        <NotificationsBell />
        <Button
          className="layout-topbar-action"
          variant="minimal"
          icon={dark ? 'flash' : 'moon'}
          aria-label={TOPBAR_LABELS.darkToggle}
          aria-pressed={dark}
          title={dark ? 'Cambiar a modo claro' : 'Cambiar a modo oscuro'}
          onClick={toggleDark}
        />
        <Button
          className="layout-topbar-action"
          variant="minimal"
          icon="color-fill"
          aria-label={TOPBAR_LABELS.configurator}
          title={TOPBAR_LABELS.configurator}
          onClick={openConfigurator}
        />
        <UserMenu />
      </div>
    </header>
  );
}

/**
 * The bell (docs/product.md §2, §4): a badge with the unread count when > 0, a shake while unread exist, and
 * the notifications dialog. docs/product.md §4 places the dialog at the top right of the viewport, 350 px wide
 * (the original's PrimeVue `Dialog position="topright"`), so it is a non-modal Blueprint overlay
 * pinned there by CSS, not a popover hanging under the bell. The notifications machine opens and
 * closes it; a click outside closes it (a mousedown on the bell itself is left to the bell's click,
 * which toggles). Keyboard (docs/decisions.md "Keyboard and focus"): Enter or Space on the bell
 * opens it and the panel takes the focus (NotificationsPanel.tsx); Escape closes it and focus
 * returns to the bell (focus-return.ts: Blueprint's own return would come after its transition and
 * take the focus back from a page that a chosen notification opened).
 */
/** The badge's text: the unread count, "99+" above 99. */
function badgeText(count: number): string {
  return count > 99 ? '99+' : String(count);
}

/**
 * The bell's accessible name: "Notificaciones", and with unread ones "Notificaciones: 3 sin leer",
 * so the name contains the badge's visible text (WCAG 2.5.3 label in name; docs/decisions.md
 * "Accessible names and ARIA references").
 */
export function bellName(count: number): string {
  return count > 0 ? `${TOPBAR_LABELS.bell}: ${badgeText(count)} sin leer` : TOPBAR_LABELS.bell;
}

function NotificationsBell() {
  const count = useNotifications(selectUnreadCount);
  const unread = useNotifications(selectHasUnread);
  const open = useNotifications(selectNotificationsOpen);
  const { open: openPanel, close: closePanel } = useNotificationsEvents();
  const bell = useRef<HTMLButtonElement>(null);
  const dialog = useRef<HTMLDivElement>(null!); // Overlay2 reads it only while the dialog is mounted
  useReturnFocus(open);

  return (
    <>
      <Button
        ref={bell}
        className={['layout-topbar-action', 'notifications-bell', unread ? 'has-unread' : null].filter(Boolean).join(' ')}
        variant="minimal"
        icon="notifications"
        aria-label={bellName(count)}
        title={bellName(count)}
        aria-haspopup="dialog"
        aria-expanded={open}
        onClick={() => (open ? closePanel() : openPanel())}
      >
        {count > 0 ? (
          <Tag round intent="danger" size="medium" className="notifications-badge" data-testid="notifications-badge">
            {badgeText(count)}
          </Tag>
        ) : null}
      </Button>
      <Overlay2
        isOpen={open}
        childRef={dialog}
        hasBackdrop={false}
        autoFocus={false}
        enforceFocus={false}
        shouldReturnFocusOnClose={false}
        className="notifications-overlay"
        transitionName="notifications-dialog"
        transitionDuration={150}
        onClose={(event) => {
          if (event?.type === 'mousedown' && bell.current?.contains(event.target as Node)) return;
          closePanel();
        }}
      >
        <div ref={dialog} className="notifications-dialog">
          <Suspense
            fallback={
              <div className="notifications-panel notifications-panel-loading">
                <Spinner size={SpinnerSize.SMALL} aria-label="Cargando" />
              </div>
            }
          >
            <NotificationsPanel />
          </Suspense>
        </div>
      </Overlay2>
    </>
  );
}

/**
 * The user's first name and surname (docs/product.md §2 top bar), opening the profile sidebar (docs/product.md §2
 * layout), which holds "Cambiar contraseña" and logout.
 */
function UserMenu() {
  const user = useSession(selectUser);
  const loggingOut = useSession(selectIsLoggingOut);
  const profileOpen = useLayout(selectProfileOpen);
  const { openProfile } = useLayoutEvents();
  const fullName = user ? `${user.name} ${user.surname}` : '';

  return (
    <Button
      className="layout-topbar-user"
      variant="minimal"
      icon="user"
      endIcon="caret-down"
      loading={loggingOut}
      aria-label={`${TOPBAR_LABELS.userMenuPrefix}: ${fullName}`}
      aria-haspopup="dialog"
      aria-expanded={profileOpen}
      title={fullName}
      onClick={openProfile}
    >
      <span className="layout-topbar-user-name">{fullName}</span>
    </Button>
  );
}
