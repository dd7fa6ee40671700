/**
 * Live permissions (issue "Configuración and Historial de cambios"): a PermissionsChangedEvent for
 * the signed-in user refetches row 11 and the side menu and the route guard follow without a
 * reload; the screen whose permission was withdrawn shows "Sin permiso", as any forbidden route.
 */
import { describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from './render-app';
import { buildPermissionsNames } from '../../src/schemas/menu-catalogue';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { fakeSessionApi, memoryStore, sampleUser, seedSession } from '../unit/support/fakes';

const BEFORE: string[] = [MODULE.configuracion, SUBMODULE.usuarios, MODULE.finanzas, SUBMODULE.bancos];
const AFTER: string[] = [MODULE.configuracion, SUBMODULE.usuarios, MODULE.crm, SUBMODULE.clientes];

describe('live permissions', () => {
  it('the menu and the current screen change when the permissions change', async () => {
    const store = memoryStore();
    seedSession(store, { perms: BEFORE });
    store.setItem('user_details', JSON.stringify({ ...sampleUser, permissions_names: buildPermissionsNames(BEFORE) }));
    const rolePermissions = vi.fn(async (): Promise<string[]> => BEFORE);
    const { services, path } = renderApp('/Finanzas/Bancos', { store, api: fakeSessionApi({ rolePermissions }) });

    const menu = await screen.findByRole('navigation', { name: 'Menú principal' });
    expect(await within(menu).findByRole('link', { name: /Bancos/ })).toBeTruthy();
    expect(within(menu).queryByRole('link', { name: /Clientes/ })).toBeNull();
    expect(screen.queryByRole('heading', { name: 'Sin permiso' })).toBeNull();

    rolePermissions.mockResolvedValue(AFTER);
    act(() =>
      services.session.send({
        type: 'session.permissionsChanged',
        payload: { user_id: sampleUser.id, changed_at: '2026-11-22T15:00:00.000Z' },
      }),
    );

    expect(await screen.findByRole('heading', { name: 'Sin permiso' })).toBeTruthy();
    await waitFor(() => expect(within(menu).queryByRole('link', { name: /Bancos/ })).toBeNull());
    // The new CRM group arrives collapsed (nothing in it is active): open it as the user would.
    const crm = await within(menu).findByRole('button', { name: /CRM/ });
    if (crm.getAttribute('aria-expanded') !== 'true') act(() => crm.click());
    expect(await within(menu).findByRole('link', { name: /Clientes/ })).toBeTruthy();
    expect(path()).toBe('/Finanzas/Bancos');
  });
});
