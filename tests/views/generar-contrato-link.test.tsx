/**
 * /ADMINISTRACION/GenerarContrato?venta=<id> (the Ventas drawer's "Contrato" and the sale stepper
 * link there; docs/decisions.md "Contract generation screen"): the page reads the linked sale once,
 * when it opens, and gives it to the generation panel — the templates list writes its own query to
 * the address as soon as it loads, before the lazily loaded panel is ready (the panel used to read
 * the address then, found no sale and showed the sale search); and that query keeps `?venta=` in the
 * address, so a reload opens the same sale (it used to drop it, and the reload lost the sale).
 */
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import type { ContractTemplatesApi } from '../../src/api/administracion/contract-templates';
import { ServicesProvider, type ViewServices } from '../../src/views/services';
import { createContractTemplatesMachines } from '../../src/machines/administracion/contract-templates.actors';
import { GenerarContratoPage } from '../../src/views/administracion/generar-contrato/GenerarContratoPage';
import { saleIdFromSearch } from '../../src/views/administracion/generar-contrato/generar/GenerateContractPanel';
import type { ListQuery } from '../../src/schemas/list';

// The panel (its machines load with their module) stands in as the sale it was given.
vi.mock('../../src/views/administracion/generar-contrato/generar/GenerateContractPanel', async (importOriginal) => ({
  ...(await importOriginal<object>()),
  GenerateContractPanel: ({ saleId }: { saleId: number | null }) => <p>Venta enlazada: {String(saleId)}</p>,
}));

describe('Generar Contrato opened with ?venta=', () => {
  it('reads the sale id of the address', () => {
    expect(saleIdFromSearch('?venta=42')).toBe(42);
    expect(saleIdFromSearch('?per_page=20')).toBeNull();
    expect(saleIdFromSearch('?venta=abc')).toBeNull();
    expect(saleIdFromSearch('?venta=-3')).toBeNull();
  });

  /** Opens the screen on the current address, as a page load does; `list` is the templates' GET. */
  function openScreen() {
    const list = vi.fn(async (q: ListQuery) => ({ data: [], meta: { page: q.page, per_page: q.per_page, total: 0 } }));
    const machines = createContractTemplatesMachines({
      templatesApi: { list } as unknown as ContractTemplatesApi,
      subdivisionOptions: async () => [],
      reportApiError: vi.fn(),
      toaster: { show: vi.fn() },
    });
    const view = render(
      <ServicesProvider value={{} as ViewServices}>
        <OverlaysProvider>
          <GenerarContratoPage machines={machines} />
        </OverlaysProvider>
      </ServicesProvider>,
    );
    return { list, view };
  }

  it('keeps the linked sale for the Generar tab after the templates list has written its query to the address', async () => {
    window.history.replaceState(null, '', '/ADMINISTRACION/GenerarContrato?venta=3');
    const { list } = openScreen();
    expect(screen.getByRole('tab', { name: 'Generar' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('Venta enlazada: 3')).toBeTruthy();
    // The list loads and writes its query to the address.
    await waitFor(() => expect(list).toHaveBeenCalled());
    await waitFor(() => expect(new URLSearchParams(window.location.search).get('per_page')).toBe('20'));
    // The panel mounted again (back from Plantillas) still opens the linked sale.
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Plantillas' }));
    await user.click(screen.getByRole('tab', { name: 'Generar' }));
    expect(await screen.findByText('Venta enlazada: 3')).toBeTruthy();
  });

  it('a reload keeps the linked sale: the list writes its query beside ?venta=, never over it', async () => {
    window.history.replaceState(null, '', '/ADMINISTRACION/GenerarContrato?venta=3');
    const first = openScreen();
    await waitFor(() => expect(first.list).toHaveBeenCalled());
    await waitFor(() => expect(new URLSearchParams(window.location.search).get('per_page')).toBe('20'));
    expect(window.location.pathname).toBe('/ADMINISTRACION/GenerarContrato');
    expect(new URLSearchParams(window.location.search).get('venta')).toBe('3');
    // The reload: the screen opens again on the address the first one left.
    first.view.unmount();
    const second = openScreen();
    expect(screen.getByRole('tab', { name: 'Generar' }).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByText('Venta enlazada: 3')).toBeTruthy();
    await waitFor(() => expect(second.list).toHaveBeenCalled());
    expect(new URLSearchParams(window.location.search).get('venta')).toBe('3');
  });
});
