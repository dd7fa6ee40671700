/**
 * Configuración → Usuarios and Roles y permisos (issue "Configuración"): the pages over their real
 * machines (createUsersMachines / createRolesMachines) with fake api calls. What the screens add to
 * the shared CRUD pattern: the columns, the user form's body, a 422 on its field, the row actions,
 * and the permission matrix's PATCH body.
 */
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import { ApiError } from '../../src/api/client';
import type { UsersApi } from '../../src/api/configuracion/users';
import type { RolesApi } from '../../src/api/configuracion/roles';
import type { StaffUser } from '../../src/schemas/configuracion/users';
import type { Role } from '../../src/schemas/configuracion/roles';
import { ACTION, ACTION_REQUIRES, MODULE, ROLE_PERMISSIONS, SCOPE, STAFF_PERMISSIONS, SUBMODULE } from '../../src/schemas/permissions';
import { createUsersMachines } from '../../src/machines/configuracion/users.actors';
import { createRolesMachines, togglePermission } from '../../src/machines/configuracion/roles.actors';
import { UsersPage } from '../../src/views/configuracion/UsersPage';
import { MATRIX_GROUPS, MATRIX_REQUIRES, RolesPage } from '../../src/views/configuracion/RolesPage';

const ana: StaffUser = {
  id: 1,
  dni: '70000001',
  email: 'admin@parcela.test',
  name: 'Ana',
  surname: 'Quispe',
  phone: null,
  status: 'ACTIVO',
  roles: [{ id: 1, name: 'Administrador' }],
  locals: [],
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};
const beto: StaffUser = {
  ...ana,
  id: 2,
  dni: '70000002',
  email: 'beto@parcela.test',
  name: 'Beto',
  surname: 'Ramos',
  status: 'INACTIVO',
  roles: [{ id: 2, name: 'Asesor de ventas' }],
};

function fakeUsersApi(overrides: Partial<UsersApi> = {}): UsersApi {
  return {
    list: vi.fn(async () => ({ data: [ana, beto], meta: { page: 1, per_page: 20, total: 2 } })),
    get: vi.fn(async () => ana),
    create: vi.fn(async (body) => ({ ...ana, id: 3, ...body, phone: null, roles: [], locals: [] }) as StaffUser),
    update: vi.fn(async () => ana),
    deactivate: vi.fn(async () => ({ ...ana, status: 'INACTIVO' as const })),
    reactivate: vi.fn(async () => ana),
    sendPasswordReset: vi.fn(async () => ({ message: 'ok' })),
    ...overrides,
  };
}

function renderUsers(api: UsersApi) {
  const toaster = { show: vi.fn() };
  const reportApiError = vi.fn();
  const machines = createUsersMachines({
    usersApi: api,
    sessionApi: {
      roleNames: vi.fn(async () => [
        { name: 'Administrador', code: 1 },
        { name: 'Asesor de ventas', code: 2 },
      ]),
      activeLocals: vi.fn(async () => [{ id: 5, name: 'Sede Central', address: 'Av. Lima 123' }]),
    },
    reportApiError,
    toaster,
  });
  render(
    <OverlaysProvider>
      <UsersPage machines={machines} />
    </OverlaysProvider>,
  );
  return { toaster, reportApiError, user: userEvent.setup() };
}

async function fillNewUser(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByRole('button', { name: 'Nuevo usuario' }));
  const dialog = await screen.findByRole('dialog', { name: 'Nuevo usuario' });
  await user.type(within(dialog).getByLabelText('DNI'), '71234567');
  await user.type(within(dialog).getByLabelText('Correo electrónico'), 'carla@parcela.test');
  await user.type(within(dialog).getByLabelText('Nombres'), 'Carla');
  await user.type(within(dialog).getByLabelText('Apellidos'), 'Soto');
  await user.click(within(dialog).getByRole('checkbox', { name: 'Asesor de ventas' }));
  await user.click(within(dialog).getByRole('checkbox', { name: 'Sede Central' }));
  return dialog;
}

describe('UsersPage', () => {
  it('lists the users with their roles and status', async () => {
    renderUsers(fakeUsersApi());
    expect(await screen.findByText('Quispe')).toBeTruthy();
    const table = screen.getByRole('table', { name: 'Usuarios' });
    for (const header of ['Nombres', 'Apellidos', 'DNI', 'Correo', 'Roles', 'Estado']) {
      expect(within(table).getByRole('columnheader', { name: new RegExp(header) })).toBeTruthy();
    }
    expect(within(table).getByText('Asesor de ventas')).toBeTruthy();
    expect(within(table).getByText('Inactivo')).toBeTruthy();
  });

  it('creates a user through the dialog with the right body (no password; phone null when empty)', async () => {
    const api = fakeUsersApi();
    const { user, toaster } = renderUsers(api);
    await screen.findByText('Quispe');
    const dialog = await fillNewUser(user);
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(api.create).toHaveBeenCalledTimes(1));
    expect(api.create).toHaveBeenCalledWith({
      dni: '71234567',
      email: 'carla@parcela.test',
      name: 'Carla',
      surname: 'Soto',
      phone: null,
      role_ids: [2],
      local_ids: [5],
    });
    await waitFor(() => expect(toaster.show).toHaveBeenCalledWith(expect.objectContaining({ summary: 'Registro creado' })));
    await waitFor(() => expect(api.list).toHaveBeenCalledTimes(2));
  });

  it('shows a 422 on the DNI field and a 409 as the form message', async () => {
    const create = vi
      .fn<UsersApi['create']>()
      .mockRejectedValueOnce(new ApiError(422, 'Los datos no son válidos', { dni: ['El DNI ya está registrado'] }))
      .mockRejectedValueOnce(new ApiError(409, 'Debe quedar al menos un usuario activo con el rol Administrador'));
    const { user } = renderUsers(fakeUsersApi({ create }));
    await screen.findByText('Quispe');
    const dialog = await fillNewUser(user);
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('El DNI ya está registrado')).toBeTruthy();
    expect(within(dialog).getByLabelText('DNI').getAttribute('aria-invalid')).toBe('true');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect((await within(dialog).findByRole('alert')).textContent).toContain('al menos un usuario activo');
  });

  it('deactivates after a confirmation and shows a refusal as a toast', async () => {
    const deactivate = vi.fn<UsersApi['deactivate']>().mockRejectedValueOnce(new ApiError(409, 'No puede desactivarse a sí mismo'));
    const api = fakeUsersApi({ deactivate });
    const { user, toaster } = renderUsers(api);
    await screen.findByText('Quispe');
    const row = screen.getByText('Quispe').closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Acciones' }));
    expect(screen.queryByRole('menuitem', { name: 'Reactivar' })).toBeNull();
    await user.click(await screen.findByRole('menuitem', { name: 'Desactivar' }));
    const alert = await screen.findByRole('alertdialog');
    expect(alert.textContent).toContain('¿Desactivar a Ana Quispe?');
    await user.click(within(alert).getByRole('button', { name: 'Desactivar' }));
    await waitFor(() => expect(deactivate).toHaveBeenCalledWith(1));
    await waitFor(() =>
      expect(toaster.show).toHaveBeenCalledWith(expect.objectContaining({ severity: 'error', detail: 'No puede desactivarse a sí mismo' })),
    );
  });
});

const admin: Role = { id: 1, name: 'Administrador', permissions: [...STAFF_PERMISSIONS], holders: 1 };
const ventas: Role = { id: 2, name: 'Ventas', permissions: [MODULE.comercial, SUBMODULE.ventas], holders: 3 };

function renderRoles(overrides: Partial<RolesApi> = {}) {
  const api: RolesApi = {
    list: vi.fn(async () => ({ data: [admin, ventas], meta: { page: 1, per_page: 20, total: 2 } })),
    get: vi.fn(async () => ventas),
    create: vi.fn(async () => ventas),
    update: vi.fn(async (_id, body) => ({ ...ventas, ...body }) as Role),
    copy: vi.fn(async (_id, body) => ({ ...ventas, id: 9, name: body.name, holders: 0 })),
    remove: vi.fn(async () => undefined),
    ...overrides,
  };
  const toaster = { show: vi.fn() };
  render(
    <OverlaysProvider>
      <RolesPage machines={createRolesMachines({ rolesApi: api, reportApiError: vi.fn(), toaster })} />
    </OverlaysProvider>,
  );
  return { api, toaster, user: userEvent.setup() };
}

async function openRowAction(user: ReturnType<typeof userEvent.setup>, roleName: string, action: string) {
  const row = (await screen.findByText(roleName)).closest('tr')!;
  await user.click(within(row).getByRole('button', { name: 'Acciones' }));
  await user.click(await screen.findByRole('menuitem', { name: action }));
}

describe('RolesPage', () => {
  it('lists the roles with their holder counts', async () => {
    renderRoles();
    const row = (await screen.findByText('Ventas')).closest('tr')!;
    expect(within(row).getByText('3')).toBeTruthy();
    expect(screen.getByText('Solo lectura')).toBeTruthy();
  });

  it('matrix toggles produce the right permission list: a submodule brings its module, a module takes its submodules', async () => {
    const { api, user } = renderRoles();
    await openRowAction(user, 'Ventas', 'Permisos');
    const matrix = await screen.findByRole('region', { name: 'Permisos de Ventas' });
    // Leads checks the CRM module too.
    await user.click(within(matrix).getByRole('checkbox', { name: 'Leads' }));
    expect((within(matrix).getByRole('checkbox', { name: 'Módulo CRM' }) as HTMLInputElement).checked).toBe(true);
    await user.click(within(matrix).getByRole('checkbox', { name: 'Clientes' }));
    // Unchecking Comercial clears Ventas.
    await user.click(within(matrix).getByRole('checkbox', { name: 'Módulo Comercial' }));
    expect((within(matrix).getByRole('checkbox', { name: 'Ventas' }) as HTMLInputElement).checked).toBe(false);
    await user.click(within(matrix).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(api.update).toHaveBeenCalledTimes(1));
    const [id, body] = vi.mocked(api.update).mock.calls[0]!;
    expect(id).toBe(2);
    expect([...(body.permissions ?? [])].sort()).toEqual([MODULE.crm, SUBMODULE.clientes, SUBMODULE.leads].sort());
  });

  it('shows the Administrador role read-only', async () => {
    const { user } = renderRoles();
    await openRowAction(user, 'Administrador', 'Permisos');
    const matrix = await screen.findByRole('region', { name: 'Permisos de Administrador' });
    expect(within(matrix).getByText(/no se puede modificar/)).toBeTruthy();
    expect((within(matrix).getByRole('checkbox', { name: 'Módulo CRM' }) as HTMLInputElement).disabled).toBe(true);
    expect(within(matrix).queryByRole('button', { name: 'Guardar' })).toBeNull();
  });

  it('copies a role under the name typed, and shows the 409 of a refused delete', async () => {
    const remove = vi.fn<RolesApi['remove']>().mockRejectedValueOnce(new ApiError(409, 'El rol tiene usuarios asignados'));
    const { api, user } = renderRoles({ remove });
    await openRowAction(user, 'Ventas', 'Copiar rol');
    const dialog = await screen.findByRole('dialog', { name: 'Copiar rol' });
    const name = within(dialog).getByLabelText('Nombre del nuevo rol');
    await user.clear(name);
    await user.type(name, 'Ventas 2');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(api.copy).toHaveBeenCalledWith(2, { name: 'Ventas 2' }));

    await openRowAction(user, 'Ventas', 'Eliminar');
    const alert = await screen.findByRole('alertdialog');
    await user.click(within(alert).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(remove).toHaveBeenCalledWith(2));
    expect((await screen.findByText('El rol tiene usuarios asignados')).textContent).toBeTruthy();
  });
});

describe('togglePermission and the matrix groups', () => {
  const crm = { module: MODULE.crm, submodules: [SUBMODULE.clientes, SUBMODULE.leads] };
  it('adds the module with a submodule and clears the submodules with the module', () => {
    expect(togglePermission([], SUBMODULE.leads, true, crm).sort()).toEqual([MODULE.crm, SUBMODULE.leads].sort());
    expect(togglePermission([MODULE.crm, SUBMODULE.leads, MODULE.finanzas], MODULE.crm, false, crm)).toEqual([MODULE.finanzas]);
    expect(togglePermission([MODULE.crm, SUBMODULE.leads], SUBMODULE.leads, false, crm)).toEqual([MODULE.crm]);
  });
  it('an action permission brings its submodule and module, and goes with its submodule', () => {
    const withAction = { ...crm, submodules: [...crm.submodules, ACTION.supervisarLeads], requires: ACTION_REQUIRES };
    expect(togglePermission([], ACTION.supervisarLeads, true, withAction).sort()).toEqual(
      [MODULE.crm, SUBMODULE.leads, ACTION.supervisarLeads].sort(),
    );
    expect(togglePermission([MODULE.crm, SUBMODULE.leads, ACTION.supervisarLeads], SUBMODULE.leads, false, withAction)).toEqual([
      MODULE.crm,
    ]);
    expect(
      togglePermission([MODULE.crm, SUBMODULE.leads, ACTION.supervisarLeads], ACTION.supervisarLeads, false, withAction).sort(),
    ).toEqual([MODULE.crm, SUBMODULE.leads].sort());
  });
  it('covers every staff permission and scope exactly once, never a customer-only one', () => {
    const all = MATRIX_GROUPS.flatMap((g) => [g.module, ...g.submodules.map((s) => s.permission)]);
    expect(new Set(all).size).toBe(all.length);
    expect([...all].sort()).toEqual([...ROLE_PERMISSIONS].sort());
    expect(ROLE_PERMISSIONS.filter((p) => !STAFF_PERMISSIONS.includes(p))).toEqual(Object.values(SCOPE));
  });
  it('shows the own-records scopes right after the submodule they narrow, in Spanish (docs/security.md 31.11)', () => {
    const rows = MATRIX_GROUPS.flatMap((g) => g.submodules);
    const after = (p: string) => rows[rows.findIndex((r) => r.permission === p) + 1];
    expect(after(SUBMODULE.clientes)).toMatchObject({ permission: SCOPE.soloSusClientes, action: true });
    expect(after(SUBMODULE.clientes)?.label).toMatch(/^Clientes: solo sus propios registros/);
    expect(after(SUBMODULE.ventas)).toMatchObject({ permission: SCOPE.soloSusVentas, action: true });
    expect(after(SCOPE.soloSusVentas)).toMatchObject({ permission: SCOPE.soloSusExportaciones, action: true });
    const ventas = { module: MODULE.comercial, submodules: [SUBMODULE.ventas, SCOPE.soloSusVentas], requires: MATRIX_REQUIRES };
    expect(togglePermission([], SCOPE.soloSusVentas, true, ventas).sort()).toEqual(
      [MODULE.comercial, SUBMODULE.ventas, SCOPE.soloSusVentas].sort(),
    );
  });
});
