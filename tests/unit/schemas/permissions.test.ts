/** Menu catalogue and permissions_names (docs/product.md §2 "Side menu", §3, §6). */
import { describe, expect, it } from 'vitest';
import { buildPermissionsNames } from '../../../src/schemas/menu-catalogue';
import { CUSTOMER_PERMISSIONS, MODULE, STAFF_PERMISSIONS, SUBMODULE } from '../../../src/schemas/permissions';

const names = (groups: ReturnType<typeof buildPermissionsNames>) => groups.map((g) => [g.nombre, g.items.map((i) => i.nombre)]);

describe('buildPermissionsNames', () => {
  it('shows a group only with its module permission and an item only with its submodule', () => {
    expect(names(buildPermissionsNames([SUBMODULE.usuarios]))).toEqual([]);
    expect(names(buildPermissionsNames([MODULE.configuracion, SUBMODULE.usuarios]))).toEqual([['Configuración', ['Usuarios']]]);
    expect(names(buildPermissionsNames([MODULE.configuracion]))).toEqual([]);
  });

  it('"pagos" also grants Registro de Cuotas', () => {
    expect(names(buildPermissionsNames([MODULE.finanzas, SUBMODULE.pagos]))).toEqual([['Finanzas', ['Pagos', 'Registro de Cuotas']]]);
  });

  it('gives staff with every staff permission each menu entry once, without the customer screens', () => {
    const groups = buildPermissionsNames(STAFF_PERMISSIONS);
    const comercial = groups.find((g) => g.nombre === 'Comercial');
    expect(comercial?.items.map((i) => i.ruta)).toEqual(['/Comercio/Ventas', '/Comercio/ReporteVentas']);
    expect(groups.map((g) => g.nombre)).toEqual([
      'Configuración',
      'Administración',
      'Finanzas',
      'CRM',
      'Proyectos',
      'Comercial',
      'Ingeniería',
      'Reportes',
      'Reportes Económicos',
      'Historial de Cambios',
    ]);
  });

  it('gives customers Ventas and Mis Compras', () => {
    expect(names(buildPermissionsNames(CUSTOMER_PERMISSIONS))).toEqual([['Comercial', ['Ventas', 'Mis Compras']]]);
  });
});
