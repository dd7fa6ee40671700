import { lazy, Suspense, useRef, useState, type KeyboardEvent, type MouseEvent, type ReactNode } from 'react';
import { selectLayoutClasses, selectMaskShown, selectMenuOpen, selectProfileOpen } from '../../machines/layout/layout.selectors';
import { useChangePassword, useLayout, useLayoutEvents, useTheme } from './shell-context';
import { TopBar } from './TopBar';
import { SideMenu } from './SideMenu';
import { Footer } from './Footer';
import { useFocusHeadingOnNavigation } from './route-focus';
import '../../styles/keyboard.css';

/**
 * The change-password dialog and the theme configurator load when first opened (performance,
 * issue "Shell"): they bring Blueprint's Dialog, Drawer, SegmentedControl and ProgressBar, which
 * nothing else after login needs. Their machines still own whether they are open.
 */
const ChangePasswordDialog = lazy(() => import('./ChangePasswordDialog').then((m) => ({ default: m.ChangePasswordDialog })));
const ThemeConfigurator = lazy(() => import('./ThemeConfigurator').then((m) => ({ default: m.ThemeConfigurator })));
const ProfileSidebar = lazy(() => import('./ProfileSidebar').then((m) => ({ default: m.ProfileSidebar })));

/** id of the sidebar, which the menu toggle controls. */
export const SIDEBAR_ID = 'layout-sidebar';
/** id of `<main>`, the skip link's target. */
export const MAIN_ID = 'contenido';
/** Text of the skip link (docs/decisions.md "Keyboard and focus"). */
export const SKIP_LINK_TEXT = 'Saltar al contenido';

/**
 * The authenticated layout (issue "Shell"; docs/product.md §1 footer, §2 "Layout"; docs/product.md §2 geometry
 * and behaviour): the fixed top bar, the sidebar with the side menu (static, overlay or mobile, as
 * the layout machine says), the main container with the screen and the footer, the mask under an
 * overlay or mobile menu (a click on it, or Escape, closes the menu), the change-password dialog
 * and the theme configurator. Renders the layout machine's state as classes of the wrapper.
 * Keyboard (docs/decisions.md "Keyboard and focus"): the first focusable element is the skip link
 * "Saltar al contenido" (shown when focused), which moves focus to `<main>`; after a navigation
 * the new page's heading takes the focus (route-focus.ts).
 */
export function AppLayout({ children }: { children: ReactNode }) {
  const classes = useLayout(selectLayoutClasses);
  const maskShown = useLayout(selectMaskShown);
  const menuOpen = useLayout(selectMenuOpen);
  const passwordOpen = useChangePassword((s) => !s.matches('closed'));
  const configuratorOpen = useTheme((s) => s.matches({ configurator: 'open' }));
  const profileOpen = useLayout(selectProfileOpen);
  const { outsideClicked } = useLayoutEvents();
  const main = useRef<HTMLElement>(null);
  useFocusHeadingOnNavigation(main);
  const skipToContent = (event: MouseEvent<HTMLAnchorElement>) => {
    // Focus, not the URL's hash: the router owns the address.
    event.preventDefault();
    main.current?.focus();
  };
  const onKeyDown = (event: KeyboardEvent) => {
    if (maskShown && event.key === 'Escape') outsideClicked();
  };

  return (
    <div className={classes} onKeyDown={onKeyDown}>
      <a className="skip-link" href={`#${MAIN_ID}`} onClick={skipToContent}>
        {SKIP_LINK_TEXT}
      </a>
      <TopBar sidebarId={SIDEBAR_ID} />
      <aside id={SIDEBAR_ID} className="layout-sidebar" aria-label="Menú lateral" inert={!menuOpen}>
        <SideMenu />
      </aside>
      <div className="layout-main-container">
        <main ref={main} id={MAIN_ID} tabIndex={-1} className="layout-main">
          {children}
        </main>
        <Footer />
      </div>
      {maskShown ? <div className="layout-mask" data-testid="layout-mask" aria-hidden="true" onClick={outsideClicked} /> : null}
      <MountOnceOpened open={passwordOpen}>
        <ChangePasswordDialog />
      </MountOnceOpened>
      <MountOnceOpened open={configuratorOpen}>
        <ThemeConfigurator />
      </MountOnceOpened>
      <MountOnceOpened open={profileOpen}>
        <ProfileSidebar />
      </MountOnceOpened>
    </div>
  );
}

/**
 * Renders an on-demand overlay from the first time its machine opens it, and keeps it mounted
 * afterwards (so it closes with Blueprint's transition and opens again without loading).
 */
function MountOnceOpened({ open, children }: { open: boolean; children: ReactNode }) {
  const [opened, setOpened] = useState(open);
  if (open && !opened) setOpened(true);
  if (!open && !opened) return null;
  return <Suspense fallback={null}>{children}</Suspense>;
}
