import { Button, Icon } from '@blueprintjs/core';
import { Drawer } from '../shared/BlueprintEs';
import { selectActiveLocal, selectIsLoggingOut, selectUser } from '../../machines/session/session.selectors';
import { selectProfileOpen } from '../../machines/layout/layout.selectors';
import { useSession } from '../services';
import { useChangePasswordEvents, useLayout, useLayoutEvents, useShellSessionEvents } from './shell-context';
import { TOPBAR_LABELS } from './TopBar';

/** Title of the profile sidebar. */
export const PROFILE_TITLE = 'Mi perfil';

/**
 * The profile sidebar (docs/product.md §2 layout: a profile sidebar beside the config sidebar; issue "The
 * shell, exactly as specified" item 7): a right-hand Blueprint drawer opened from the top bar's
 * user button, closed by its close button, Escape or a click outside. Shows the signed-in user's
 * name, roles, document, e-mail and active location, with "Cambiar contraseña" (closes the sidebar
 * and opens the change-password dialog) and "Cerrar sesión". The layout machine owns whether it is
 * open; loaded on first open (it brings Drawer).
 */
export function ProfileSidebar() {
  const open = useLayout(selectProfileOpen);
  const user = useSession(selectUser);
  const local = useSession(selectActiveLocal);
  const loggingOut = useSession(selectIsLoggingOut);
  const { closeProfile } = useLayoutEvents();
  const { open: openChangePassword } = useChangePasswordEvents();
  const { logout } = useShellSessionEvents();
  const fullName = user ? `${user.name} ${user.surname}` : '';

  return (
    <Drawer isOpen={open} onClose={closeProfile} position="right" size="22rem" className="theme-configurator profile-sidebar">
      <div className="theme-configurator-inner" role="dialog" aria-modal="true" aria-labelledby="profile-sidebar-title">
        <header className="theme-configurator-header">
          <Icon icon="user" aria-hidden="true" />
          <h2 id="profile-sidebar-title">{PROFILE_TITLE}</h2>
          <Button variant="minimal" icon="cross" aria-label="Cerrar" onClick={closeProfile} />
        </header>
        <div className="theme-configurator-body">
          <section className="profile-sidebar-identity">
            <p className="profile-sidebar-name">{fullName}</p>
            <p className="profile-sidebar-roles">{user?.roles.length ? user.roles.join(', ') : 'Sin rol'}</p>
          </section>
          <dl className="profile-sidebar-facts">
            <dt>Documento</dt>
            <dd>{user?.dni || '—'}</dd>
            <dt>Correo electrónico</dt>
            <dd>{user?.email || '—'}</dd>
            <dt>Local activo</dt>
            <dd>{local ? [local.name, local.address].filter(Boolean).join(' · ') : 'Sin local activo'}</dd>
          </dl>
          <div className="profile-sidebar-actions">
            <Button
              icon="key"
              text={TOPBAR_LABELS.changePassword}
              fill
              onClick={() => {
                closeProfile();
                openChangePassword();
              }}
            />
            <Button
              icon="log-out"
              intent="danger"
              variant="outlined"
              text={TOPBAR_LABELS.logout}
              fill
              loading={loggingOut}
              onClick={logout}
            />
          </div>
        </div>
      </div>
    </Drawer>
  );
}
