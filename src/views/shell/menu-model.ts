import { MENU_CATALOGUE, type MenuGroupEntry } from '../../schemas/menu-catalogue';
import type { MenuGroup } from '../../schemas/session';

/**
 * The side menu's model (issue "Shell"; docs/product.md §2 "Side menu", §3 permissions_names, §6; design
 * docs/product.md §2). A small typed tree: sections (INICIO, MENÚ, ANALÍTICAS Y AUDITORÍAS) of
 * entries that are links, group headers with children, separators (dividers) or commands; any
 * entry may be disabled or hidden. Entries are addressed by their path in the tree ("1-2-0":
 * section 1, entry 2, child 0), which is what the layout machine keeps in `openGroups`.
 * Pure functions, unit-tested alone.
 */

/** What every entry but a separator has. */
interface EntryBase {
  /** Path in the tree, e.g. "1-2-0". */
  key: string;
  label: string;
  /** Blueprint icon name. */
  icon?: string;
  disabled?: boolean;
  hidden?: boolean;
}
/** A link to an app route. */
export interface MenuLink extends EntryBase {
  kind: 'link';
  to: string;
}
/** A group header: clicking toggles it; it is open while it or a descendant is active. */
export interface MenuGroupNode extends EntryBase {
  kind: 'group';
  children: MenuNode[];
}
/** An entry that runs a named command instead of navigating. */
export interface MenuCommand extends EntryBase {
  kind: 'command';
  command: string;
}
/** A divider. */
export interface MenuSeparator {
  kind: 'separator';
  key: string;
}
export type MenuNode = MenuLink | MenuGroupNode | MenuCommand | MenuSeparator;

/** A titled section of the menu (titles upper case, docs/product.md §2). */
export interface MenuSection {
  key: string;
  label: string;
  children: MenuNode[];
}

export const SECTION_HOME = 'INICIO';
export const SECTION_MENU = 'MENÚ';
export const SECTION_ANALYTICS = 'ANALÍTICAS Y AUDITORÍAS';
/** The dashboard link of section INICIO. */
export const DASHBOARD_LABEL = 'Dashboard';

/** A node before keys are assigned. */
type Draft =
  | Omit<MenuLink, 'key'>
  | Omit<MenuCommand, 'key'>
  | { kind: 'separator' }
  | (Omit<MenuGroupNode, 'key' | 'children'> & { children: Draft[] });

const catalogueEntry = (nombre: string): MenuGroupEntry | undefined => MENU_CATALOGUE.find((g) => g.nombre === nombre);

/** Keeps a permitted entry: no permission list given, or the catalogue's permission is held. */
function permitted(held: ReadonlySet<string> | null, permission: string | null | undefined): boolean {
  return held === null || !permission || held.has(permission);
}

function withKeys(drafts: Draft[], prefix: string): MenuNode[] {
  return drafts.map((draft, i): MenuNode => {
    const key = `${prefix}-${i}`;
    if (draft.kind === 'group') return { ...draft, key, children: withKeys(draft.children, key) };
    return { ...draft, key } as MenuNode;
  });
}

/**
 * Builds the menu of a user (docs/product.md §2, §6).
 * - INICIO: Dashboard → "/".
 * - MENÚ and ANALÍTICAS Y AUDITORÍAS: the groups of `permissions_names`, each in the section its
 *   MENU_CATALOGUE entry names (groups the catalogue does not know go to MENÚ). A group whose only
 *   item is itself (Reportes, Reportes Económicos, Historial de Cambios) is a plain link.
 * - With `permissions` (the `accesos` strings), a group also needs its module permission and an
 *   item its submodule permission, as the catalogue says ("pagos" grants Pagos and Registro de
 *   Cuotas); items unknown to the catalogue stay.
 * - Empty sections are left out; a separator stands between consecutive sections' content.
 * @returns the sections with their keys assigned ("0-0" is Dashboard).
 */
export function buildMenuModel(groups: readonly MenuGroup[], permissions?: readonly string[] | null): MenuSection[] {
  const held = permissions ? new Set(permissions) : null;
  const bySection = new Map<string, Draft[]>([
    [SECTION_MENU, []],
    [SECTION_ANALYTICS, []],
  ]);
  for (const group of groups) {
    const entry = catalogueEntry(group.nombre);
    if (!permitted(held, entry?.module)) continue;
    const items = group.items.filter((item) =>
      permitted(held, entry?.items.find((i) => i.ruta.toLowerCase() === item.ruta.toLowerCase())?.permission),
    );
    if (items.length === 0) continue;
    const section = entry?.section ?? SECTION_MENU;
    const only = items[0]!;
    const draft: Draft =
      items.length === 1 && only.nombre === group.nombre
        ? { kind: 'link', label: only.nombre, icon: only.icono, to: only.ruta }
        : {
            kind: 'group',
            label: group.nombre,
            icon: group.icono,
            children: items.map((item) => ({ kind: 'link', label: item.nombre, icon: item.icono, to: item.ruta })),
          };
    bySection.get(section)!.push(draft);
  }
  const drafts: { label: string; children: Draft[] }[] = [
    { label: SECTION_HOME, children: [{ kind: 'link' as const, label: DASHBOARD_LABEL, icon: 'home', to: '/' }] },
    { label: SECTION_MENU, children: bySection.get(SECTION_MENU)! },
    { label: SECTION_ANALYTICS, children: bySection.get(SECTION_ANALYTICS)! },
  ].filter((s) => s.children.length > 0);
  return drafts.map((section, i) => ({
    key: String(i),
    label: section.label,
    children: withKeys(i < drafts.length - 1 ? [...section.children, { kind: 'separator' }] : section.children, String(i)),
  }));
}

/** Normalises a path for matching: lower case, no trailing slash (but "/"), no query or hash. */
function normalisePath(path: string): string {
  const bare = path.split(/[?#]/)[0] ?? '';
  const trimmed = bare.length > 1 ? bare.replace(/\/+$/, '') : bare;
  return trimmed.toLowerCase() || '/';
}

function* links(nodes: readonly MenuNode[]): Generator<MenuLink> {
  for (const node of nodes) {
    if (node.kind === 'link' && !node.hidden) yield node;
    if (node.kind === 'group' && !node.hidden) yield* links(node.children);
  }
}

/**
 * The one active entry for a location (docs/product.md §2 "only one item is active at a time"): the visible
 * link whose route equals the location, case-insensitively; else the link whose route is the
 * longest whole-segment prefix of it (/Proyectos/Lotizaciones stays active on
 * /PROYECTOS/Lotizaciones/x). "/" matches only "/".
 * @returns the entry's key, or null when no link matches.
 */
export function findActiveKey(sections: readonly MenuSection[], location: string): string | null {
  const here = normalisePath(location);
  let best: { key: string; length: number } | null = null;
  for (const section of sections) {
    for (const link of links(section.children)) {
      const route = normalisePath(link.to);
      if (route === here) return link.key;
      if (route !== '/' && here.startsWith(`${route}/`) && (!best || route.length > best.length)) {
        best = { key: link.key, length: route.length };
      }
    }
  }
  return best?.key ?? null;
}

/**
 * Keys of the groups that hold an entry (its ancestors), outermost first: "1-2-0" → ["1-2"].
 * Section keys (one segment) are not groups and are left out.
 */
export function ancestorGroupKeys(key: string | null): string[] {
  if (!key) return [];
  const parts = key.split('-');
  const keys: string[] = [];
  for (let n = 2; n < parts.length; n++) keys.push(parts.slice(0, n).join('-'));
  return keys;
}
