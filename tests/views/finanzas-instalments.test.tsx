/**
 * /FINANZAS/RegistroCuotas (InstalmentsPage) over its real machines with fake apis: the rows with
 * their late fees, the filters read from and written to the address, the totals of the filtered set
 * (read again when a filter changes), "Condonar mora" (checked against the fee owed, a 422 under its
 * field, then the list and the totals read again) and "Exportar" (the server's file).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import { ApiError } from '../../src/api/client';
import type { InstalmentsApi } from '../../src/api/finanzas/instalments';
import { createInstalmentsMachines } from '../../src/machines/finanzas/instalments.actors';
import { InstalmentsPage } from '../../src/views/finanzas/InstalmentsPage';
import { INSTALMENT_MESSAGES, type InstalmentRow, type InstalmentTotals } from '../../src/schemas/finanzas/instalments';
import type { ListQuery } from '../../src/schemas/list';

const page = <T,>(rows: T[], q: ListQuery) => ({ data: rows, meta: { page: q.page, per_page: q.per_page, total: rows.length } });

const ROW: InstalmentRow = {
  id: 41,
  sale: { id: 7, number: 'V-000007' },
  lot_code: 'A-12',
  subdivision: { id: 2, name: 'Los Viñedos' },
  customer: { id: 5, display_name: 'Rosa Quispe', document_number: '45454545' },
  kind: 'CUOTA',
  number: 3,
  due_date: '2026-01-01',
  currency: 'PEN',
  amount: 120_000,
  paid: 20_000,
  balance: 100_000,
  status: 'VENCIDA',
  days_late: 57,
  late_fee_accrued: 28_500,
  late_fee_paid: 0,
  late_fee_waived: 0,
  late_fee_due: 28_500,
  late_fee_as_of: '2026-03-02',
};
const PAID: InstalmentRow = {
  ...ROW,
  id: 40,
  number: 2,
  due_date: '2025-12-01',
  paid: 120_000,
  balance: 0,
  status: 'PAGADA',
  days_late: 0,
  late_fee_accrued: 0,
  late_fee_due: 0,
};
const TOTALS: InstalmentTotals[] = [
  {
    currency: 'PEN',
    count: 2,
    amount: 240_000,
    paid: 140_000,
    balance: 100_000,
    late_fee_accrued: 28_500,
    late_fee_paid: 0,
    late_fee_waived: 0,
    late_fee_due: 28_500,
  },
];

beforeEach(() => window.history.replaceState(null, '', '/FINANZAS/RegistroCuotas?status=VENCIDA&sale_id=7'));

function setup(overrides: Partial<InstalmentsApi> = {}) {
  const api: InstalmentsApi = {
    list: vi.fn(async (q: ListQuery) => page([PAID, ROW], q)),
    totals: vi.fn(async () => TOTALS),
    waive: vi.fn(async (_id, body) => ({ ...ROW, late_fee_waived: body.amount, late_fee_due: ROW.late_fee_due - body.amount })),
    exportFile: vi.fn(async (_q, format) => ({ blob: new Blob(['Venta,Lote\r\n'], { type: 'text/csv' }), format })),
    ...overrides,
  };
  const toaster = { show: vi.fn() };
  const machines = createInstalmentsMachines({
    instalmentsApi: api,
    subdivisionOptions: async () => [{ id: 2, name: 'Los Viñedos' }] as never,
    reportApiError: vi.fn(),
    toaster,
  });
  render(
    <OverlaysProvider>
      <InstalmentsPage machines={machines} />
    </OverlaysProvider>,
  );
  return { api, toaster, user: userEvent.setup() };
}

async function openRowAction(user: ReturnType<typeof userEvent.setup>, row: HTMLElement, action: string) {
  await user.click(within(row).getByRole('button', { name: 'Acciones' }));
  await user.click(await screen.findByRole('menuitem', { name: action }));
  await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
}

describe('Registro de Cuotas', () => {
  it('lists instalments with status, days late and late fees, reading the filters from the address, and shows the totals', async () => {
    const { api, user } = setup();
    const cell = await screen.findByText('Cuota 3');
    const row = cell.closest('tr')!;
    expect(within(row).getByText('Vencida')).toBeTruthy();
    expect(within(row).getByText('57')).toBeTruthy();
    // Late fee generated and owed.
    expect(within(row).getAllByText('S/ 285.00')).toHaveLength(2);
    expect(within(row).getByText('Rosa Quispe')).toBeTruthy();
    expect(vi.mocked(api.list).mock.calls[0]?.[0]).toMatchObject({ filters: { status: 'VENCIDA', sale_id: '7' } });
    // The sale's filter arrived with the link: shown as a tag.
    expect(screen.getByText('Venta V-000007')).toBeTruthy();

    const totals = screen.getByRole('table', { name: 'Totales del filtro' });
    expect(within(totals).getByText('Soles')).toBeTruthy();
    expect(within(totals).getByText('S/ 2,400.00')).toBeTruthy();
    expect(vi.mocked(api.totals).mock.calls[0]?.[0].filters).toEqual({ status: 'VENCIDA', sale_id: '7' });

    // A filter changes the list, the address and the totals.
    await user.selectOptions(screen.getByLabelText('Días de atraso'), '31–60 días');
    await waitFor(() =>
      expect(vi.mocked(api.totals).mock.lastCall?.[0].filters).toEqual({ status: 'VENCIDA', sale_id: '7', days_late: '31_60' }),
    );
    expect(vi.mocked(api.list).mock.lastCall?.[0].filters).toMatchObject({ days_late: '31_60' });
    expect(window.location.search).toContain('days_late=31_60');
    // The due-date range is typed the Spanish way (dd/mm/yyyy) and sent as ISO dates.
    await user.type(screen.getByLabelText('Vence desde'), '05/01/2026');
    await user.tab();
    await waitFor(() => expect(vi.mocked(api.list).mock.lastCall?.[0].filters).toMatchObject({ due_from: '2026-01-05' }));
    // Only instalments with a fee owed offer "Condonar mora".
    await user.click(within(screen.getByText('Cuota 2').closest('tr')!).getByRole('button', { name: 'Acciones' }));
    expect(await screen.findByRole('menu')).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: 'Condonar mora' })).toBeNull();
  });

  it('waives part of a late fee with a reason: checked against the fee owed, a 422 under its field, then list and totals again', async () => {
    const waive = vi
      .fn<InstalmentsApi['waive']>()
      .mockRejectedValueOnce(new ApiError(422, 'Los datos no son válidos', { amount: [INSTALMENT_MESSAGES.exceedsOwed] }))
      .mockImplementation(async (_id, body) => ({ ...ROW, late_fee_waived: body.amount, late_fee_due: ROW.late_fee_due - body.amount }));
    const { api, toaster, user } = setup({ waive });
    await openRowAction(user, (await screen.findByText('Cuota 3')).closest('tr')!, 'Condonar mora');
    const dialog = await screen.findByRole('dialog', { name: 'Condonar mora' });
    const amount = within(dialog).getByLabelText('Monto a condonar (S/)');
    expect((amount as HTMLInputElement).value).toBe('285.00');

    // More than owed, and no reason: refused before any call.
    await user.clear(amount);
    await user.type(amount, '300');
    await user.click(within(dialog).getByRole('button', { name: 'Condonar' }));
    expect(within(dialog).getByText(INSTALMENT_MESSAGES.exceedsOwed)).toBeTruthy();
    expect(within(dialog).getByText(INSTALMENT_MESSAGES.reason)).toBeTruthy();
    expect(waive).not.toHaveBeenCalled();

    await user.clear(amount);
    await user.type(amount, '100');
    await user.type(within(dialog).getByLabelText('Motivo'), 'Acuerdo de pago');
    await user.click(within(dialog).getByRole('button', { name: 'Condonar' }));
    // The server's 422 lands under the amount; the dialog stays.
    expect(await within(dialog).findByText(INSTALMENT_MESSAGES.exceedsOwed)).toBeTruthy();
    expect(waive).toHaveBeenLastCalledWith(41, { amount: 10_000, reason: 'Acuerdo de pago' });

    const lists = vi.mocked(api.list).mock.calls.length;
    const totals = vi.mocked(api.totals).mock.calls.length;
    await user.click(within(dialog).getByRole('button', { name: 'Condonar' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Condonar mora' })).toBeNull());
    expect(toaster.show).toHaveBeenCalledWith(expect.objectContaining({ severity: 'success', summary: INSTALMENT_MESSAGES.waived }));
    await waitFor(() => expect(vi.mocked(api.list).mock.calls.length).toBeGreaterThan(lists));
    await waitFor(() => expect(vi.mocked(api.totals).mock.calls.length).toBeGreaterThan(totals));
  });

  it('opens in the register’s default order (no sort sent: open by due date, paid last, docs/domain.md); "Vence" sorts by due date', async () => {
    const { api, user } = setup();
    await screen.findByText('Cuota 3');
    expect(vi.mocked(api.list).mock.calls[0]?.[0].sort).toBeUndefined();
    const header = screen.getByRole('columnheader', { name: /Vence/ });
    expect(header.getAttribute('aria-sort')).toBe('none');
    await user.click(within(header).getByRole('button', { name: /Vence/ }));
    await waitFor(() => expect(vi.mocked(api.list)).toHaveBeenLastCalledWith(expect.objectContaining({ sort: 'due_date', page: 1 })));
    expect(window.location.search).toContain('sort=due_date');
  });

  it('exports the filtered set through the server', async () => {
    const { api, user } = setup();
    await screen.findByText('Cuota 3');
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    await user.click(screen.getByRole('button', { name: 'Exportar' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Exportar a CSV' }));
    await waitFor(() => expect(api.exportFile).toHaveBeenCalled());
    expect(vi.mocked(api.exportFile).mock.calls[0]?.[0].filters).toEqual({ status: 'VENCIDA', sale_id: '7' });
    expect(vi.mocked(api.exportFile).mock.calls[0]?.[1]).toBe('csv');
  });
});
