import type { ReactNode } from 'react';
import { Button, Icon, Navbar, NavbarDivider, NavbarGroup } from '@blueprintjs/core';
import { Link } from 'wouter';
import { selectIsLoggingOut, selectUser } from '../../machines/session/session.selectors';
import { useSession, useSessionEvents } from '../services';
import { Brand } from '../shared/Brand';
import { APP_VERSION, DEVELOPER_CREDIT } from '../shared/version';

/**
 * Authenticated layout (issue "Foundation"; SPEC §1 footer and top bar; design SHELL.md
 * geometry): a fixed 4rem top bar with the logo linking to / and "Parcela", the user's first name
 * and surname (`user_details`) and "Cerrar sesión"; the main content padded 6rem 2rem 0; a footer
 * with the product, the developer credit and the version v0.6.0a. The side menu, notifications and
 * theme arrive with the shell issue.
 */
export function AppLayout({ children }: { children: ReactNode }) {
  const user = useSession(selectUser);
  const loggingOut = useSession(selectIsLoggingOut);
  const { logout } = useSessionEvents();
  const fullName = user ? `${user.name} ${user.surname}` : '';

  return (
    <div className="app-shell">
      <Navbar className="app-topbar" fixedToTop>
        <NavbarGroup align="start" className="app-topbar-group">
          <Link href="/" className="app-topbar-brand" aria-label="Parcela, ir al inicio">
            <Brand size={32} />
          </Link>
        </NavbarGroup>
        <NavbarGroup align="end" className="app-topbar-group">
          {fullName ? (
            <span className="app-topbar-user" title={fullName}>
              <Icon icon="user" />
              <span className="app-topbar-user-name">{fullName}</span>
            </span>
          ) : null}
          <NavbarDivider />
          <Button
            className="app-logout"
            variant="minimal"
            icon="log-out"
            text="Cerrar sesión"
            aria-label="Cerrar sesión"
            loading={loggingOut}
            onClick={logout}
          />
        </NavbarGroup>
      </Navbar>
      <main className="app-main">
        <div className="app-content">{children}</div>
      </main>
      <footer className="app-footer">
        <span className="app-footer-company">Parcela</span>
        <span aria-hidden="true">·</span>
        <span>{DEVELOPER_CREDIT}</span>
        <span aria-hidden="true">·</span>
        <span>{APP_VERSION}</span>
      </footer>
    </div>
  );
}
