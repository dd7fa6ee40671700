/**
 * /HistorialDeCambios (ChangeHistoryPage) over its real machines with a fake change-history api:
 * the list with Lima dates and Spanish actions, a filter sent to the server, the before/after
 * drawer (opened and closed through its `detail` machine) and the CSV export through the server's export.csv with the filters.
 */
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import { assign } from 'xstate';
import { createChangeHistoryMachines } from '../../src/machines/historial/change-history.actors';
import { ChangeHistoryPage, formatDateTimeLima } from '../../src/views/historial/ChangeHistoryPage';
import type { ChangeHistoryEntry } from '../../src/schemas/historial/change-history';
import type { ListQuery } from '../../src/schemas/list';
import type { StaffUser } from '../../src/schemas/configuracion/users';

const ENTRY: ChangeHistoryEntry = {
  id: 7,
  occurred_at: '2026-11-20T15:05:00.000Z',
  actor: { type: 'COLLABORATOR', id: 1, name: 'Rosa Huamán' },
  ip: '10.0.0.8',
  entity: 'locals',
  record_id: '3',
  action: 'UPDATE',
  before: { name: 'Sede Lima', address: 'Av. Arequipa 100' },
  after: { name: 'Sede Central - Lima', address: 'Av. Arequipa 100' },
  changed_fields: ['name'],
};

function setup(entries: ChangeHistoryEntry[] = [ENTRY]) {
  const list = vi.fn((query: ListQuery) =>
    Promise.resolve({ data: entries, meta: { page: query.page, per_page: query.per_page, total: entries.length } }),
  );
  const exportCsv = vi.fn((_query: ListQuery) => Promise.resolve(new Blob(['Fecha\r\n'], { type: 'text/csv' })));
  const users = vi.fn(() =>
    Promise.resolve({ data: [{ id: 1, name: 'Rosa', surname: 'Huamán' } as StaffUser], meta: { page: 1, per_page: 100, total: 1 } }),
  );
  const save = vi.fn();
  const toaster = { show: vi.fn() };
  const real = createChangeHistoryMachines({ api: { list, exportCsv }, usersApi: { list: users }, reportApiError: vi.fn(), toaster, save });
  // The drawer's machine as the app has it, recording the events that reach its actions.
  const detailEvents: { type: string; id?: number }[] = [];
  const detail = real.detail.provide({
    actions: {
      show: assign(({ event }) => {
        if (event.type !== 'detail.open') return {};
        detailEvents.push({ type: event.type, id: event.entry.id });
        return { entry: event.entry };
      }),
      clear: assign(({ event }) => {
        detailEvents.push({ type: event.type });
        return { entry: null };
      }),
    },
  });
  render(
    <OverlaysProvider>
      <ChangeHistoryPage machines={{ ...real, detail }} />
    </OverlaysProvider>,
  );
  return { list, exportCsv, save, toaster, detailEvents, user: userEvent.setup() };
}

describe('formatDateTimeLima', () => {
  it('writes dd/mm/yy HH:mm in America/Lima (UTC−5)', () => {
    expect(formatDateTimeLima('2026-11-20T15:05:00.000Z')).toBe('20/11/2026 10:05');
    expect(formatDateTimeLima('2026-03-02T03:30:00Z')).toBe('01/03/2026 22:30');
  });
});

describe('Historial de Cambios', () => {
  it('lists the changes newest first with the Lima date, the user, the action in Spanish and the count', async () => {
    const { list } = setup();
    const table = await screen.findByRole('table', { name: 'Historial de Cambios' });
    expect(await within(table).findByText('20/11/2026 10:05')).toBeTruthy();
    expect(within(table).getByText('Rosa Huamán')).toBeTruthy();
    expect(within(table).getByText('Actualización')).toBeTruthy();
    expect(within(table).getByText('10.0.0.8')).toBeTruthy();
    expect(list.mock.calls[0]?.[0].sort).toBe('-occurred_at');
  });

  it('names each record by its business label (a sale V-…, a lot MZ … - LT …), by its id when the server sends none', async () => {
    const sale: ChangeHistoryEntry = { ...ENTRY, id: 8, entity: 'sales', record_id: '344', record_label: 'V-000344' };
    const lot: ChangeHistoryEntry = { ...ENTRY, id: 9, entity: 'lots', record_id: '55', record_label: 'MZ B - LT 8' };
    const { user } = setup([sale, lot, ENTRY]);
    const table = await screen.findByRole('table', { name: 'Historial de Cambios' });
    expect(await within(table).findByText('V-000344')).toBeTruthy();
    expect(within(table).getByText('MZ B - LT 8')).toBeTruthy();
    expect(within(table).queryByText('344')).toBeNull();
    expect(within(table).getByText('3')).toBeTruthy();
    await user.click(within(table).getAllByRole('button', { name: 'Acciones' })[0]!);
    await user.click(await screen.findByRole('menuitem', { name: /Ver cambios/ }));
    expect(await screen.findByText(/de .* V-000344 ·/)).toBeTruthy();
  });

  it('sends the action and user filters to the server', async () => {
    const { list, user } = setup();
    await screen.findByText('20/11/2026 10:05');
    await user.selectOptions(screen.getByLabelText('Acción'), 'Eliminación');
    await waitFor(() => expect(list.mock.lastCall?.[0].filters).toMatchObject({ action: 'DELETE' }));
    await screen.findByRole('option', { name: 'Rosa Huamán' });
    await user.selectOptions(screen.getByLabelText('Usuario'), 'Rosa Huamán');
    await waitFor(() =>
      expect(list.mock.lastCall?.[0].filters).toMatchObject({ action: 'DELETE', actor_type: 'COLLABORATOR', actor_id: '1' }),
    );
  });

  it('opens the before/after table of a change with the changed field highlighted', async () => {
    const { user } = setup();
    await screen.findByText('20/11/2026 10:05');
    await user.click(screen.getByRole('button', { name: 'Acciones' }));
    await user.click(await screen.findByRole('menuitem', { name: /Ver cambios/ }));
    const diff = await screen.findByRole('table', { name: 'Cambios del registro' });
    const nameRow = within(diff).getByRole('rowheader', { name: 'Nombre' }).closest('tr')!;
    expect(nameRow.getAttribute('data-changed')).toBe('true');
    expect(within(nameRow).getByText('Sede Lima')).toBeTruthy();
    expect(within(nameRow).getByText('Sede Central - Lima')).toBeTruthy();
    const addressRow = within(diff).getByRole('rowheader', { name: 'Dirección' }).closest('tr')!;
    expect(addressRow.getAttribute('data-changed')).toBeNull();
  });

  it('the drawer is the detail machine\'s: "Ver cambios" sends detail.open with the row, the close button detail.close', async () => {
    const { user, detailEvents } = setup();
    await screen.findByText('20/11/2026 10:05');
    await user.click(screen.getByRole('button', { name: 'Acciones' }));
    await user.click(await screen.findByRole('menuitem', { name: /Ver cambios/ }));
    expect(await screen.findByRole('table', { name: 'Cambios del registro' })).toBeTruthy();
    expect(detailEvents).toEqual([{ type: 'detail.open', id: ENTRY.id }]);
    await user.click(screen.getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('table', { name: 'Cambios del registro' })).toBeNull());
    expect(detailEvents).toEqual([{ type: 'detail.open', id: ENTRY.id }, { type: 'detail.close' }]);
  });

  it('exports CSV through the server with the current filters', async () => {
    const { exportCsv, save, user } = setup();
    await screen.findByText('20/11/2026 10:05');
    await user.selectOptions(screen.getByLabelText('Acción'), 'Creación');
    await user.click(screen.getByRole('button', { name: /Exportar/ }));
    await user.click(await screen.findByRole('menuitem', { name: /Exportar a CSV/ }));
    await waitFor(() => expect(exportCsv).toHaveBeenCalled());
    expect(exportCsv.mock.calls[0]?.[0].filters).toMatchObject({ action: 'CREATE' });
    await waitFor(() => expect(save).toHaveBeenCalled());
    expect(save.mock.calls[0]?.[0].fileName).toMatch(/^historial-de-cambios-\d{4}-\d{2}-\d{2}\.csv$/);
  });
});
