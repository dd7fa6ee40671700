/**
 * Administración → Comisiones y Pagos, tab Liquidaciones (docs/domain.md "Commissions"), over its
 * real machines with fake api calls: a settlement opens in its drawer with its agents' totals and
 * lines, and closing the drawer leaves the screen working (the drawer's content used to read the
 * settlement the machine had just forgotten while Blueprint kept drawing it during the closing
 * transition, and the whole screen broke).
 */
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import type { CommissionsApi } from '../../src/api/administracion/commissions';
import { createCommissionsMachines } from '../../src/machines/administracion/commissions.actors';
import type { Settlement, SettlementDetail } from '../../src/schemas/administracion/commissions';
import { CommissionsPage } from '../../src/views/administracion/comisiones/CommissionsPage';

const SETTLEMENT: Settlement = {
  id: 3,
  number: 'LQ-000003',
  state: 'PAGADA',
  currency: 'PEN',
  period_from: '2026-11-01',
  period_to: '2026-11-29',
  company: null,
  total: 130_275,
  withholding: 0,
  net: 130_275,
  agents_count: 1,
  lines_count: 1,
  note: null,
  approved_at: '2026-11-29T15:00:00.000Z',
  operation_number: 'OP-778899',
  paid_on: '2026-11-29',
  has_voucher: true,
  created_at: '2026-11-29T15:00:00.000Z',
  version: 3,
};
const DETAIL = {
  ...SETTLEMENT,
  agents: [
    { agent: { id: 3, name: 'Rosa Vargas Huamán' }, issues_fee_receipts: false, lines: 1, gross: 130_275, withholding: 0, net: 130_275 },
  ],
  lines: [],
} as unknown as SettlementDetail;

describe('Comisiones y Pagos → Liquidaciones', () => {
  it('opens a settlement in its drawer and closes it, the screen still working', async () => {
    const page = <T,>(rows: T[]) => ({ data: rows, meta: { page: 1, per_page: 20, total: rows.length } });
    const api = {
      list: vi.fn(async () => page([])),
      settlements: vi.fn(async () => page([SETTLEMENT])),
      policies: vi.fn(async () => page([])),
      agents: vi.fn(async () => page([])),
      settlement: vi.fn(async () => DETAIL),
    } as unknown as CommissionsApi;
    const machines = createCommissionsMachines({
      commissionsApi: api,
      subdivisionOptions: async () => [],
      reportApiError: vi.fn(),
      toaster: { show: vi.fn() } as never,
    });
    render(
      <OverlaysProvider>
        <CommissionsPage machines={machines} canManage />
      </OverlaysProvider>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Liquidaciones' }));
    const table = await screen.findByRole('table', { name: 'Liquidaciones' });
    await user.click(await within(table).findByRole('button', { name: /Acciones/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Ver' }));
    const drawer = await screen.findByRole('dialog', { name: 'LQ-000003' });
    expect(await within(drawer).findByText(/operación OP-778899/)).toBeTruthy();
    expect(within(drawer).getByRole('table', { name: 'Totales por asesor' })).toBeTruthy();
    await user.click(within(drawer).getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'LQ-000003' })).toBeNull());
    // The screen is still there: its tabs answer.
    await user.click(screen.getByRole('tab', { name: 'Comisiones' }));
    expect(await screen.findByRole('table', { name: 'Comisiones' })).toBeTruthy();
  });
});
