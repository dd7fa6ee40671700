/**
 * Accessible names and ARIA references (docs/decisions.md "Accessible names and ARIA references"):
 * the Spanish wrappers of Blueprint's Dialog, Drawer, HTMLSelect and NumericInput, the tab panels
 * drawn outside their Tabs, the date fields' calendar, and the landmarks of the public pages.
 */
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Tab, Tabs } from '@blueprintjs/core';
import { Dialog, Drawer, HTMLSelect, NumericInput, OutsideTabPanel } from '../../src/views/shared/BlueprintEs';
import { IsoDateInput } from '../../src/views/shared/IsoDateInput';
import { renderApp } from './render-app';

/** Every `aria-controls` id of the selected tabs and enabled buttons names an element in the document. */
function expectControlsResolve(root: ParentNode = document) {
  const controllers = [...root.querySelectorAll('[aria-controls]')].filter(
    (el) => el.getAttribute('aria-expanded') !== 'false' && el.getAttribute('aria-selected') !== 'false',
  );
  expect(controllers.length).toBeGreaterThan(0);
  for (const el of controllers) {
    for (const id of el.getAttribute('aria-controls')!.split(/\s+/)) {
      expect(document.getElementById(id), `aria-controls="${id}" of ${el.outerHTML.slice(0, 80)}`).not.toBeNull();
    }
  }
}

describe('Blueprint wrappers speak Spanish', () => {
  it('the dialog is named by its title and its close button is "Cerrar"', async () => {
    const onClose = vi.fn();
    render(
      <Dialog isOpen title="Nuevo lote" onClose={onClose}>
        <p>contenido</p>
      </Dialog>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Nuevo lote' });
    expect(within(dialog).queryByRole('button', { name: 'Close' })).toBeNull();
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Cerrar' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('a dialog whose close button is hidden draws none', async () => {
    render(
      <Dialog isOpen title="Guardando" isCloseButtonShown={false} onClose={() => {}}>
        <p>contenido</p>
      </Dialog>,
    );
    const dialog = await screen.findByRole('dialog', { name: 'Guardando' });
    expect(within(dialog).queryByRole('button')).toBeNull();
  });

  it('the drawer with a title has a "Cerrar" button', async () => {
    const onClose = vi.fn();
    render(
      <Drawer isOpen title="Detalle del cambio" onClose={onClose}>
        <p>contenido</p>
      </Drawer>,
    );
    await screen.findByText('Detalle del cambio');
    expect(screen.queryByRole('button', { name: 'Close' })).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Cerrar' }));
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('the select arrow is decorative: no "Open dropdown"', () => {
    const { container } = render(
      <label>
        Estado
        <HTMLSelect options={['A', 'B']} />
      </label>,
    );
    expect(container.textContent).not.toContain('Open dropdown');
    expect(container.querySelector('.bp6-icon')!.getAttribute('aria-hidden')).toBe('true');
  });

  it('the number field: "Aumentar"/"Disminuir" control the labelled input, step and stop at the bounds', async () => {
    function Field() {
      const [value, setValue] = useState(359);
      return (
        <>
          <label htmlFor="cuotas">Cuotas mensuales</label>
          <NumericInput id="cuotas" min={0} max={360} value={value} onValueChange={(n) => setValue(n)} />
        </>
      );
    }
    render(<Field />);
    const user = userEvent.setup();
    const input = screen.getByLabelText('Cuotas mensuales') as HTMLInputElement;
    const up = screen.getByRole('button', { name: 'Aumentar' });
    const down = screen.getByRole('button', { name: 'Disminuir' });
    expect(screen.queryByRole('button', { name: /increment|decrement/ })).toBeNull();
    expect(up.getAttribute('aria-controls')).toBe('cuotas');
    expect(down.getAttribute('aria-controls')).toBe('cuotas');
    expect(document.getElementById('cuotas')).toBe(input);

    await user.click(up);
    expect(input.value).toBe('360');
    expect(up.hasAttribute('disabled')).toBe(true);
    await user.click(down);
    await user.click(down);
    expect(input.value).toBe('358');
    expect(up.hasAttribute('disabled')).toBe(false);
  });

  it('tabs whose content is drawn outside point at an existing tab panel named by the tab', async () => {
    function Page() {
      const [tab, setTab] = useState<string>('ventas');
      return (
        <>
          <Tabs id="sales-tabs" selectedTabId={tab} onChange={(id) => setTab(String(id))}>
            <Tab id="ventas" title="Ventas" />
            <Tab id="separaciones" title="Separaciones" />
          </Tabs>
          <OutsideTabPanel tabsId="sales-tabs" selectedTabId={tab}>
            <p>{tab}</p>
          </OutsideTabPanel>
        </>
      );
    }
    render(<Page />);
    expectControlsResolve();
    expect(screen.getByRole('tabpanel', { name: 'Ventas' }).textContent).toBe('ventas');
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Separaciones' }));
    expectControlsResolve();
    expect(screen.getByRole('tabpanel', { name: 'Separaciones' }).textContent).toBe('separaciones');
  });
});

describe('the date field calendar speaks Spanish', () => {
  it('month and year selects, previous and next month, and the popup have Spanish names', async () => {
    render(
      <>
        <label htmlFor="fecha">Fecha</label>
        <IsoDateInput id="fecha" value="2026-03-15" onChange={() => {}} />
      </>,
    );
    await userEvent.setup().click(screen.getByLabelText('Fecha'));
    const popup = await screen.findByRole('dialog', { name: 'Calendario' });
    expect(within(popup).getByRole('combobox', { name: 'Mes' })).toBeTruthy();
    expect(within(popup).getByRole('combobox', { name: 'Año' })).toBeTruthy();
    expect(within(popup).getByRole('button', { name: 'Mes anterior' })).toBeTruthy();
    expect(within(popup).getByRole('button', { name: 'Mes siguiente' })).toBeTruthy();
    expect(popup.textContent).not.toMatch(/Month|Year|Go to|Open dropdown/);
    expect(popup.querySelector('title')).toBeNull();
  });
});

describe('public pages: one <main> and one <h1>', () => {
  it.each([
    ['/auth/login', 'Iniciar sesión'],
    ['/auth/loginclientes', 'Acceso de clientes'],
    ['/auth/recuperar/customer', 'Recuperar contraseña'],
    ['/auth/reset_password/tok123/collaborator', 'Recuperar cuenta'],
    ['/auth/access', 'Acceso denegado'],
    ['/auth/error', 'Error'],
    ['/auth/pago', 'Falta de pago'],
    ['/pages/notfound', 'Página no encontrada'],
  ])('%s has a main landmark and the h1 "%s"', async (path, title) => {
    renderApp(path);
    const main = await screen.findByRole('main');
    await waitFor(() => expect(within(main).getByRole('heading', { level: 1, name: title })).toBeTruthy());
    expect(screen.getAllByRole('main')).toHaveLength(1);
    expect(screen.getAllByRole('heading', { level: 1 })).toHaveLength(1);
  });
});
