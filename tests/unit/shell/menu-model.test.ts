/**
 * The side menu's model (issue "Shell"; docs/product.md §2 "Side menu", §6): sections, groups by permission,
 * "pagos" grants Registro de Cuotas, exactly one active item, ancestors of the active item,
 * separators, disabled/hidden/command entries.
 */
import { describe, expect, it } from 'vitest';
import { ancestorGroupKeys, buildMenuModel, findActiveKey, type MenuNode, type MenuSection } from '../../../src/views/shell/menu-model';
import { buildPermissionsNames } from '../../../src/schemas/menu-catalogue';
import { MODULE, STAFF_PERMISSIONS, SUBMODULE } from '../../../src/schemas/permissions';

const labels = (nodes: readonly MenuNode[]) => nodes.map((n) => (n.kind === 'separator' ? '—' : n.label));
const groupNamed = (sections: MenuSection[], label: string) =>
  sections.flatMap((s) => s.children).find((n): n is Extract<MenuNode, { kind: 'group' }> => n.kind === 'group' && n.label === label);

describe('buildMenuModel', () => {
  it('puts Dashboard under INICIO, the groups under MENÚ and the analytics under ANALÍTICAS Y AUDITORÍAS', () => {
    const sections = buildMenuModel(buildPermissionsNames(STAFF_PERMISSIONS), STAFF_PERMISSIONS);
    expect(sections.map((s) => s.label)).toEqual(['INICIO', 'MENÚ', 'ANALÍTICAS Y AUDITORÍAS']);
    expect(labels(sections[0]!.children)).toEqual(['Dashboard', '—']);
    expect(sections[0]!.children[0]).toMatchObject({ kind: 'link', to: '/', key: '0-0', icon: 'home' });
    expect(labels(sections[1]!.children)).toEqual([
      'Configuración',
      'Administración',
      'Finanzas',
      'CRM',
      'Proyectos',
      'Comercial',
      'Ingeniería',
      '—',
    ]);
    // Single-item analytics groups are plain links.
    expect(sections[2]!.children).toEqual([
      { kind: 'link', key: '2-0', label: 'Reportes', icon: 'chart', to: '/Reportes' },
      { kind: 'link', key: '2-1', label: 'Reportes Económicos', icon: 'dollar', to: '/ReportesEconomicos' },
      { kind: 'link', key: '2-2', label: 'Historial de Cambios', icon: 'history', to: '/HistorialDeCambios' },
    ]);
  });

  it('keys entries by their path in the tree', () => {
    const sections = buildMenuModel(buildPermissionsNames(STAFF_PERMISSIONS), STAFF_PERMISSIONS);
    const finanzas = groupNamed(sections, 'Finanzas')!;
    expect(finanzas.key).toBe('1-2');
    expect(finanzas.children.map((c) => c.key)).toEqual(['1-2-0', '1-2-1', '1-2-2', '1-2-3']);
  });

  it('shows a group only with its module permission and an item only with its submodule', () => {
    const held = [MODULE.finanzas, SUBMODULE.bancos, MODULE.crm];
    const sections = buildMenuModel(buildPermissionsNames(STAFF_PERMISSIONS), held);
    expect(sections.map((s) => s.label)).toEqual(['INICIO', 'MENÚ']);
    expect(labels(sections[1]!.children)).toEqual(['Finanzas']);
    expect(labels(groupNamed(sections, 'Finanzas')!.children)).toEqual(['Bancos']);
  });

  it('"pagos" grants Pagos and Registro de Cuotas', () => {
    const held = [MODULE.finanzas, SUBMODULE.pagos];
    const sections = buildMenuModel(buildPermissionsNames(held), held);
    const finanzas = groupNamed(sections, 'Finanzas')!;
    expect(finanzas.children).toEqual([
      { kind: 'link', key: '1-0-0', label: 'Pagos', icon: 'dollar', to: '/Finanzas/Pagos' },
      { kind: 'link', key: '1-0-1', label: 'Registro de Cuotas', icon: 'calendar', to: '/Finanzas/RegistroCuotas' },
    ]);
  });

  it('without a permission list it shows permissions_names as is; unknown groups go to MENÚ', () => {
    const sections = buildMenuModel([
      { nombre: 'Web', icono: 'globe-network', items: [{ nombre: 'Propiedades', ruta: '/WEB/propertiesConfig', icono: 'cog' }] },
    ]);
    expect(sections.map((s) => s.label)).toEqual(['INICIO', 'MENÚ']);
    expect(sections[1]!.children[0]).toMatchObject({ kind: 'group', label: 'Web' });
  });

  it('a customer sees Comercial with Ventas and Mis Compras', () => {
    const held = [MODULE.comercial, SUBMODULE.ventasCustomers, SUBMODULE.misComprasCustomers];
    const sections = buildMenuModel(buildPermissionsNames(held), held);
    expect(labels(groupNamed(sections, 'Comercial')!.children)).toEqual(['Ventas', 'Mis Compras']);
  });
});

describe('findActiveKey (one active item)', () => {
  const sections = buildMenuModel(buildPermissionsNames(STAFF_PERMISSIONS), STAFF_PERMISSIONS);

  it('matches the route case-insensitively (route table and menu capitalisations)', () => {
    expect(findActiveKey(sections, '/FINANZAS/RegistroCuotas')).toBe('1-2-3');
    expect(findActiveKey(sections, '/finanzas/registrocuotas/')).toBe('1-2-3');
    expect(findActiveKey(sections, '/CRM/clientes')).toBe('1-3-0');
  });

  it('"/" is Dashboard only; Ventas and VentasClientes do not mix', () => {
    expect(findActiveKey(sections, '/')).toBe('0-0');
    expect(findActiveKey(sections, '/COMERCIO/ventas')).toBe('1-5-0');
    expect(findActiveKey(sections, '/Comercio/ReporteVentas')).toBe('1-5-1');
  });

  it('a sub-path keeps its link active; an unknown path has none', () => {
    expect(findActiveKey(sections, '/Proyectos/Lotizaciones/detalle')).toBe('1-4-0');
    expect(findActiveKey(sections, '/PROYECTOS/Lotes/Olivos/x')).toBeNull();
    expect(findActiveKey(sections, '/Reportes?x=1')).toBe('2-0');
  });

  it('hidden links are never active', () => {
    const hidden: MenuSection[] = [
      { key: '0', label: 'X', children: [{ kind: 'link', key: '0-0', label: 'Oculto', to: '/a', hidden: true }] },
    ];
    expect(findActiveKey(hidden, '/a')).toBeNull();
  });
});

describe('ancestorGroupKeys', () => {
  it('lists the groups that hold an entry, not its section', () => {
    expect(ancestorGroupKeys('1-2-3')).toEqual(['1-2']);
    expect(ancestorGroupKeys('1-2-3-0')).toEqual(['1-2', '1-2-3']);
    expect(ancestorGroupKeys('0-0')).toEqual([]);
    expect(ancestorGroupKeys(null)).toEqual([]);
  });
});
