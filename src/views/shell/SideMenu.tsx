import { useEffect, useMemo } from 'react';
import { Collapse, Icon, type IconName } from '@blueprintjs/core';
import { Link, useLocation } from 'wouter';
import { selectPermissions, selectUser } from '../../machines/session/session.selectors';
import { selectOpenGroups } from '../../machines/layout/layout.selectors';
import { useSession } from '../services';
import { useChangePasswordEvents, useLayout, useLayoutEvents, useShellSessionEvents, useThemeEvents } from './shell-context';
import { MenuSearch } from './MenuSearch';
import { ancestorGroupKeys, buildMenuModel, findActiveKey, type MenuNode, type MenuSection } from './menu-model';

/** Accessible name of the menu's navigation landmark. */
export const MENU_NAV_LABEL = 'Menú principal';

/**
 * The side menu (docs/product.md §2 "Side menu"; docs/product.md §2, section titles 0.857rem upper
 * case bold): the shortcut search box, then the sections INICIO, MENÚ and ANALÍTICAS Y AUDITORÍAS
 * built from the user's `permissions_names` and `accesos` (menu-model.ts). Exactly one link is
 * active, the one matching the current path (case-insensitive); the groups holding it open when the
 * location changes (`menu.activeGroupsChanged`); clicking a group toggles it; choosing a link sends
 * `menu.linkChosen`, which closes an overlay or mobile menu. Separators render as dividers; disabled
 * and hidden entries and commands are supported.
 */
export function SideMenu() {
  const user = useSession(selectUser);
  const permissions = useSession(selectPermissions);
  const sections = useMemo(() => buildMenuModel(user?.permissions_names ?? [], permissions), [user, permissions]);
  const [location] = useLocation();
  const activeKey = findActiveKey(sections, location);
  const { activeGroupsChanged } = useLayoutEvents();

  // Whenever the active link changes, exactly the groups holding it are open (docs/product.md §2).
  const activeGroups = ancestorGroupKeys(activeKey).join(' ');
  useEffect(() => {
    activeGroupsChanged(activeGroups ? activeGroups.split(' ') : []);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the intent is stable in effect; run on change of the keys only
  }, [activeGroups]);

  return (
    <nav className="layout-menu-container" aria-label={MENU_NAV_LABEL}>
      <MenuSearch />
      <MenuTree sections={sections} activeKey={activeKey} />
    </nav>
  );
}

/**
 * The menu's tree (docs/product.md §2 "Side menu"): section titles, then their entries — links (the active
 * one highlighted with aria-current="page"), group headers that toggle, separators as dividers,
 * disabled entries greyed out, hidden ones left out, commands as buttons (`logout`,
 * `changePassword`, `themeConfigurator`).
 */
export function MenuTree({ sections, activeKey }: { sections: readonly MenuSection[]; activeKey: string | null }) {
  return (
    <ul className="layout-menu">
      {sections.map((section) => (
        <li key={section.key} className="layout-root-menuitem">
          <div className="layout-menuitem-root-text" id={`menu-section-${section.key}`}>
            {section.label}
          </div>
          <ul aria-labelledby={`menu-section-${section.key}`}>
            {section.children.map((node) => (
              <MenuEntry key={node.key} node={node} activeKey={activeKey} />
            ))}
          </ul>
        </li>
      ))}
    </ul>
  );
}

/** Runs a menu command (an entry with `command` instead of a route). */
function useMenuCommands(): (command: string) => void {
  const { logout } = useShellSessionEvents();
  const { open: openChangePassword } = useChangePasswordEvents();
  const { openConfigurator } = useThemeEvents();
  const commands: Record<string, () => void> = {
    logout,
    changePassword: openChangePassword,
    themeConfigurator: openConfigurator,
  };
  return (command) => commands[command]?.();
}

/** One entry of the tree: link, group, command or separator. */
function MenuEntry({ node, activeKey }: { node: MenuNode; activeKey: string | null }) {
  const openGroups = useLayout(selectOpenGroups);
  const { toggleGroup, linkChosen } = useLayoutEvents();
  const runCommand = useMenuCommands();

  // A divider between groups, hidden from assistive technology: a list holds only list items, and
  // an `<li role="separator">` (or role none) is not one (docs/decisions.md "Accessible names and ARIA references").
  if (node.kind === 'separator') return <li className="menu-separator" aria-hidden="true" />;
  if (node.hidden) return null;
  const icon = node.icon ? <Icon icon={node.icon as IconName} className="layout-menuitem-icon" /> : null;

  if (node.kind === 'link') {
    if (node.disabled) {
      return (
        <li>
          <span className="layout-menuitem-link is-disabled" aria-disabled="true">
            {icon}
            <span className="layout-menuitem-text">{node.label}</span>
          </span>
        </li>
      );
    }
    const active = node.key === activeKey;
    return (
      <li className={active ? 'active-menuitem' : undefined}>
        <Link
          href={node.to}
          className={['layout-menuitem-link', active ? 'active-route' : null].filter(Boolean).join(' ')}
          aria-current={active ? 'page' : undefined}
          onClick={linkChosen}
        >
          {icon}
          <span className="layout-menuitem-text">{node.label}</span>
        </Link>
      </li>
    );
  }

  if (node.kind === 'command') {
    return (
      <li>
        <button
          type="button"
          className="layout-menuitem-link"
          disabled={node.disabled}
          onClick={() => {
            runCommand(node.command);
            linkChosen();
          }}
        >
          {icon}
          <span className="layout-menuitem-text">{node.label}</span>
        </button>
      </li>
    );
  }

  const open = openGroups.includes(node.key);
  const holdsActive = activeKey !== null && activeKey.startsWith(`${node.key}-`);
  return (
    <li className={['layout-menuitem-group', open ? 'is-open' : null, holdsActive ? 'active-menuitem' : null].filter(Boolean).join(' ')}>
      <button
        type="button"
        className="layout-menuitem-link"
        aria-expanded={open}
        aria-controls={`menu-group-${node.key}`}
        disabled={node.disabled}
        onClick={() => toggleGroup(node.key)}
      >
        {icon}
        <span className="layout-menuitem-text">{node.label}</span>
        <Icon icon="chevron-down" className="layout-submenu-toggler" />
      </button>
      <Collapse isOpen={open}>
        <ul id={`menu-group-${node.key}`} className="layout-submenu">
          {node.children.map((child) => (
            <MenuEntry key={child.key} node={child} activeKey={activeKey} />
          ))}
        </ul>
      </Collapse>
    </li>
  );
}
