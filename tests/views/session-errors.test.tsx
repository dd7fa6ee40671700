/**
 * The global 401 rule seen by the user (docs/product.md §7 "401 → /auth/access", §8; issue 12 item 2): with a
 * revoked token, the dark-mode toggle (row 8) and "Cambiar" in the change-password dialog (row 15)
 * end the session and show the access-denied page — not "Estilos no guardados", not a
 * "Sesión no válida o expirada" toast over a dead shell. The whole app runs with its real api
 * modules and client over a fake server (tests/unit/support/fake-server.ts); the other calls are
 * covered one by one in tests/unit/machines/session-errors.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { memoryLocation } from 'wouter/memory-location';
import { fromCallback } from 'xstate';
import { App } from '../../src/app';
import { createAppServices } from '../../src/app-services';
import { readStoredSession } from '../../src/machines/session/stored-session';
import type { RealtimeEvent, RealtimeInput } from '../../src/machines/realtime/realtime.machine';
import { memoryStore, seedSession } from '../unit/support/fakes';
import { CALLS, SESSION_ERROR_ANSWERS, fakeServer, type CallNumber } from '../unit/support/fake-server';
import { resetDocumentTheme } from './shell-harness';

afterEach(() => {
  resetDocumentTheme();
  vi.restoreAllMocks();
});

/** The app at "/" for a signed-in staff user whose token the server refuses on `call`. */
async function renderRevoked(call: CallNumber) {
  vi.spyOn(console, 'error').mockImplementation(() => {}); // the failure is logged, as docs/product.md §8 allows
  const store = memoryStore();
  seedSession(store);
  const server = fakeServer({ [call]: SESSION_ERROR_ANSWERS[401] });
  const location = memoryLocation({ path: '/', record: true });
  const toaster = { show: vi.fn() };
  const services = createAppServices({
    navigate: (to, options) => location.navigate(to, options),
    store,
    storedSession: readStoredSession(store),
    fetch: server.fetch,
    toaster,
    win: { innerWidth: 1366, addEventListener: () => {} } as unknown as Pick<Window, 'innerWidth' | 'addEventListener'>,
    realtimeConnection: fromCallback<RealtimeEvent, RealtimeInput>(() => () => {}),
  });
  render(<App services={services} hook={location.hook} />);
  await screen.findByRole('button', { name: 'Modo oscuro' });
  const path = () => location.history!.at(-1)!.split('?')[0];
  return { store, server, toaster, path, user: userEvent.setup() };
}

/** What docs/product.md §7 says a 401 does, as the user sees it. */
async function expectAccessDenied({ store, toaster, path }: Awaited<ReturnType<typeof renderRevoked>>) {
  expect(await screen.findByRole('heading', { name: 'Acceso denegado' })).toBeTruthy();
  expect(screen.getByText('Su sesión no es válida o no tiene acceso a este recurso. Inicie sesión nuevamente.')).toBeTruthy();
  expect(path()).toBe('/auth/access');
  expect(store.data.size).toBe(0);
  expect(screen.queryByRole('button', { name: 'Modo oscuro' })).toBeNull();
  expect(toaster.show).not.toHaveBeenCalled();
}

describe("a revoked token on the shell's own calls (docs/product.md §7 401 → /auth/access)", () => {
  it('the dark-mode toggle (row 8) shows "Acceso denegado", not "Estilos no guardados"', async () => {
    const app = await renderRevoked(8);
    await app.user.click(screen.getByRole('button', { name: 'Modo oscuro' }));
    await expectAccessDenied(app);
    expect(app.server.seen).toContain(CALLS[8]);
  });

  it('"Cambiar" in the change-password dialog (row 15) shows "Acceso denegado", not a toast', async () => {
    const app = await renderRevoked(15);
    await app.user.click(screen.getByRole('button', { name: /Opciones de usuario/ }));
    await app.user.click(
      within(await screen.findByRole('dialog', { name: 'Mi perfil' })).getByRole('button', { name: 'Cambiar contraseña' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'CAMBIAR CONTRASEÑA' });
    fireEvent.change(within(dialog).getByLabelText('Contraseña Actual'), { target: { value: 'Vieja#2025' } });
    fireEvent.change(within(dialog).getByLabelText('Nueva Contraseña'), { target: { value: 'Nueva#2026' } });
    fireEvent.change(within(dialog).getByLabelText('Confirme la nueva contraseña'), { target: { value: 'Nueva#2026' } });
    await app.user.click(within(dialog).getByRole('button', { name: 'Cambiar' }));
    await expectAccessDenied(app);
    expect(screen.queryByRole('dialog', { name: 'CAMBIAR CONTRASEÑA' })).toBeNull();
    expect(app.server.seen).toContain(CALLS[15]);
  });
});
