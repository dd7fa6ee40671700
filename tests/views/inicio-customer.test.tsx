/**
 * The portal's Inicio for a customer (docs/dashboard.md "The customer's Inicio") over the real Mis
 * Compras list machine with a fake api: the next instalment with "Pagar" leading to its Detalle de
 * Compra, the overdue amount per currency with its late fee, each lot with "Ver en el plano" and
 * "Ver contrato", the empty and the failed list.
 */
import { describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { ApiError } from '../../src/api/client';
import type { PurchasesApi } from '../../src/api/comercio/purchases';
import { createPurchasesMachines } from '../../src/machines/comercio/purchases.actors';
import type { Purchase } from '../../src/schemas/comercio/purchases';
import { CustomerHome } from '../../src/views/inicio/customer/CustomerHome';
import { purchaseRow } from './purchase-fixtures';

const BASE: Purchase = purchaseRow({
  overdue_instalments: 2,
  overdue_amount: 350_000,
  map: { subdivision_key: 'k3y', subdivision_name: 'Los Viñedos de Carabayllo', lot_code: 'MZ A - LT 6' },
  contract_pdf_url: '/api/customer/purchases/12/contract',
});
const DOLLARS: Purchase = {
  ...BASE,
  id: 15,
  number: 'V-000015',
  lot_code: 'MZ C - LT 2',
  subdivision_name: 'Brisas de Chilca',
  currency: 'USD',
  late_fee_due: 0,
  overdue_instalments: 1,
  overdue_amount: 50_000,
  next_instalment: { id: 150, kind: 'CUOTA', number: 4, due_date: '2026-11-15', amount_due: 50_000 },
  map: null,
  contract_pdf_url: null,
};

function setup(list: PurchasesApi['list']) {
  const api = { list } as unknown as PurchasesApi;
  const machines = createPurchasesMachines({ api, reportApiError: vi.fn(), toaster: { show: vi.fn() } });
  const { hook, history } = memoryLocation({ path: '/', record: true });
  render(
    <Router hook={hook}>
      <CustomerHome machines={machines} today="2026-10-20" />
    </Router>,
  );
  return { history, user: userEvent.setup() };
}

describe('CustomerHome', () => {
  it('shows the instalment due first with "Pagar", what is past due per currency, and each lot with its map and contract', async () => {
    const { history, user } = setup(vi.fn(async () => ({ data: [DOLLARS, BASE], meta: { page: 1, per_page: 20, total: 2 } })));
    const next = (await screen.findByRole('heading', { name: 'Próxima cuota' })).closest('.customer-home-card') as HTMLElement;
    expect(within(next).getByText('S/ 2,000.00')).toBeTruthy();
    expect(next.textContent).toContain('Cuota 2 · MZ A - LT 6 (Los Viñedos de Carabayllo) · venció el 02/10/2026');
    const overdue = screen.getByRole('heading', { name: 'Monto vencido' }).closest('.customer-home-card') as HTMLElement;
    expect(overdue.textContent).toContain('S/ 3,500.00 en 2 cuotas vencidas · mora S/ 40.00');
    expect(overdue.textContent).toContain('US$ 500.00 en 1 cuota vencida');
    expect(screen.getByRole('link', { name: 'Ver en el plano: MZ A - LT 6' }).getAttribute('href')).toBe(
      '/COMERCIO/MapSalesCustomer/los-vinedos-de-carabayllo/k3y?lote=MZ+A+-+LT+6',
    );
    expect(screen.queryByRole('link', { name: 'Ver en el plano: MZ C - LT 2' })).toBeNull();
    expect(screen.getByRole('link', { name: 'Ver contrato: MZ A - LT 6' }).getAttribute('href')).toBe('/COMERCIO/DetalleCompra?venta=12');
    expect(screen.queryByRole('link', { name: 'Ver contrato: MZ C - LT 2' })).toBeNull();
    await user.click(within(next).getByRole('link', { name: 'Pagar' }));
    expect(history.at(-1)).toBe('/COMERCIO/DetalleCompra?venta=12');
  });

  it('says a customer with nothing past due is up to date', async () => {
    setup(
      vi.fn(async () => ({
        data: [{ ...BASE, overdue_amount: 0, late_fee_due: 0, overdue_instalments: 0 }],
        meta: { page: 1, per_page: 20, total: 1 },
      })),
    );
    expect(await screen.findByText('Está al día en sus pagos.')).toBeTruthy();
  });

  it('offers the lots on sale when there is no purchase', async () => {
    setup(vi.fn(async () => ({ data: [], meta: { page: 1, per_page: 20, total: 0 } })));
    expect((await screen.findByRole('link', { name: 'Ver lotes en venta' })).getAttribute('href')).toBe('/COMERCIO/ventasClientes');
  });

  it('shows a failed list with "Reintentar", which loads it again', async () => {
    const list = vi
      .fn<PurchasesApi['list']>()
      .mockRejectedValueOnce(new ApiError(500, 'No se pudieron cargar sus compras'))
      .mockResolvedValue({ data: [BASE], meta: { page: 1, per_page: 20, total: 1 } });
    const { user } = setup(list);
    expect((await screen.findByRole('alert')).textContent).toContain('No se pudieron cargar sus compras');
    await user.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByRole('heading', { name: 'Próxima cuota' })).toBeTruthy();
  });
});
