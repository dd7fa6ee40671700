import type { KeyboardEvent, ReactNode } from 'react';
import { selectLayoutClasses, selectMaskShown, selectMenuOpen } from '../../machines/layout/layout.selectors';
import { useLayout, useLayoutEvents } from './shell-context';
import { TopBar } from './TopBar';
import { SideMenu } from './SideMenu';
import { Footer } from './Footer';
import { ChangePasswordDialog } from './ChangePasswordDialog';
import { ThemeConfigurator } from './ThemeConfigurator';

/** id of the sidebar, which the menu toggle controls. */
export const SIDEBAR_ID = 'layout-sidebar';

/**
 * The authenticated layout (issue "Shell"; SPEC §1 footer, §2 "Layout"; design SHELL.md geometry
 * and behaviour): the fixed top bar, the sidebar with the side menu (static, overlay or mobile, as
 * the layout machine says), the main container with the screen and the footer, the mask under an
 * overlay or mobile menu (a click on it, or Escape, closes the menu), the change-password dialog
 * and the theme configurator. Renders the layout machine's state as classes of the wrapper.
 */
export function AppLayout({ children }: { children: ReactNode }) {
  const classes = useLayout(selectLayoutClasses);
  const maskShown = useLayout(selectMaskShown);
  const menuOpen = useLayout(selectMenuOpen);
  const { outsideClicked } = useLayoutEvents();
  const onKeyDown = (event: KeyboardEvent) => {
    if (maskShown && event.key === 'Escape') outsideClicked();
  };

  return (
    <div className={classes} onKeyDown={onKeyDown}>
      <TopBar sidebarId={SIDEBAR_ID} />
      <aside id={SIDEBAR_ID} className="layout-sidebar" aria-label="Menú lateral" inert={!menuOpen}>
        <SideMenu />
      </aside>
      <div className="layout-main-container">
        <main className="layout-main">{children}</main>
        <Footer />
      </div>
      {maskShown ? <div className="layout-mask" data-testid="layout-mask" aria-hidden="true" onClick={outsideClicked} /> : null}
      <ChangePasswordDialog />
      <ThemeConfigurator />
    </div>
  );
}
