/**
 * /CONFIGURACION/empresas (CompanyPage) over its real machines with a fake company api: the form
 * filled from GET company, "Guardar" with a 422 on its field, the logo checks and upload, and the
 * locals list with create and Desactivar.
 */
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import { ApiError } from '../../src/api/client';
import { createCompanyMachines, LOGO_SIZE_MESSAGE, LOGO_TYPE_MESSAGE } from '../../src/machines/configuracion/company.actors';
import { CompanyPage } from '../../src/views/configuracion/CompanyPage';
import type { Company, LocalRecord } from '../../src/schemas/configuracion/company';
import type { ListQuery } from '../../src/schemas/list';
import { STALE_RECORD_MESSAGE } from '../../src/schemas/versions';

const COMPANY: Company = {
  id: 1,
  business_name: 'Inmobiliaria Sol S.A.C.',
  ruc: '20100000009',
  address: 'Av. Prueba 100, Lima',
  phone: null,
  email: 'contacto@sol.pe',
  legal_representative: null,
  sale_backdate_days: 60,
  payment_approval_segregation: true,
  legal_representative_dni: null,
  legal_representative_power_entry: null,
  contract_place: null,
  contract_signature_days: 15,
  logo_url: null,
};
const LOCAL: LocalRecord = { id: 4, name: 'Sede Central', address: 'Av. Javier Prado 1234', active: true };

function setup(overrides: Partial<Parameters<typeof createCompanyMachines>[0]['api']> = {}) {
  const base = {
    get: vi.fn(() => Promise.resolve(COMPANY)),
    update: vi.fn((body: object) => Promise.resolve({ ...COMPANY, ...body } as Company)),
    uploadLogo: vi.fn(() => Promise.resolve({ ...COMPANY, logo_url: '/logo' })),
    listLocals: vi.fn((q: ListQuery) => Promise.resolve({ data: [LOCAL], meta: { page: q.page, per_page: q.per_page, total: 1 } })),
    createLocal: vi.fn((body: { name: string; address: string }) => Promise.resolve({ id: 5, active: true, ...body })),
    updateLocal: vi.fn((id: number, body: object) => Promise.resolve({ ...LOCAL, id, ...body } as LocalRecord)),
    getLocal: vi.fn((id: number) => Promise.resolve({ ...LOCAL, id })),
    setLocalActive: vi.fn((id: number, active: boolean) => Promise.resolve({ ...LOCAL, id, active })),
  };
  const toaster = { show: vi.fn() };
  const machines = createCompanyMachines({ api: { ...base, ...overrides }, reportApiError: vi.fn(), toaster });
  render(
    <OverlaysProvider>
      <CompanyPage machines={machines} />
    </OverlaysProvider>,
  );
  return { api: base, toaster, user: userEvent.setup() };
}

describe('Empresas', () => {
  it('fills the form from the company and saves the changes with PATCH', async () => {
    const { api, toaster, user } = setup();
    const name = await screen.findByLabelText('Razón social');
    expect((name as HTMLInputElement).value).toBe(COMPANY.business_name);
    await user.type(screen.getByLabelText('Teléfono'), '014445555');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(api.update).toHaveBeenCalled());
    expect(api.update.mock.calls[0]?.[0]).toMatchObject({ phone: '014445555', legal_representative: null, email: 'contacto@sol.pe' });
    await waitFor(() => expect(toaster.show).toHaveBeenCalledWith(expect.objectContaining({ severity: 'success' })));
  });

  it('"El que registra un pago no puede aprobarlo" is a switch, on by default, saved as a boolean (docs/domain.md "Payments: segregation of duties")', async () => {
    const { api, user } = setup();
    const toggle = (await screen.findByLabelText('El que registra un pago no puede aprobarlo')) as HTMLInputElement;
    expect(toggle.checked).toBe(true);
    await user.click(toggle);
    expect(toggle.checked).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(api.update).toHaveBeenCalled());
    expect(api.update.mock.calls[0]?.[0]).toMatchObject({ payment_approval_segregation: false, sale_backdate_days: 60 });
  });

  it('sends the version it read; a stale edit shows the 409 with "Recargar", which loads the company again', async () => {
    const read = { ...COMPANY, version: 3 };
    const fresh = { ...COMPANY, phone: '017778888', version: 4 };
    const get = vi.fn().mockResolvedValueOnce(read).mockResolvedValueOnce(fresh);
    const update = vi.fn(() => Promise.reject(new ApiError(409, STALE_RECORD_MESSAGE, { version: [STALE_RECORD_MESSAGE] })));
    const { user } = setup({ get, update });
    await screen.findByLabelText('Razón social');
    await user.type(screen.getByLabelText('Teléfono'), '014445555');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(STALE_RECORD_MESSAGE);
    expect(update.mock.calls[0]).toEqual([expect.objectContaining({ phone: '014445555', version: 3 })]);
    await user.click(within(alert).getByRole('button', { name: 'Recargar' }));
    await waitFor(() => expect((screen.getByLabelText('Teléfono') as HTMLInputElement).value).toBe('017778888'));
    expect(get).toHaveBeenCalledTimes(2);
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("shows the server's 422 under its field", async () => {
    const { user } = setup({
      update: vi.fn(() => Promise.reject(new ApiError(422, 'Los datos no son válidos', { ruc: ['El RUC ya está registrado'] }))),
    });
    await screen.findByLabelText('Razón social');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('El RUC ya está registrado')).toBeTruthy();
    expect(screen.getByLabelText('RUC').getAttribute('aria-invalid')).toBe('true');
  });

  it('checks the RUC before sending', async () => {
    const { api, user } = setup();
    const ruc = await screen.findByLabelText('RUC');
    await user.clear(ruc);
    await user.type(ruc, '20100000000');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText(/El RUC no es válido/)).toBeTruthy();
    expect(api.update).not.toHaveBeenCalled();
  });

  it('refuses a logo of another type or over 1 MB, and uploads a PNG', async () => {
    const { api } = setup({});
    // The input's `accept` already hides other types in the picker; a drop or "All files" still gets here.
    const user = userEvent.setup({ applyAccept: false });
    const input = (await screen.findByLabelText('Cambiar logo')) as HTMLInputElement;
    await user.upload(input, new File(['x'], 'logo.gif', { type: 'image/gif' }));
    expect(await screen.findByText(LOGO_TYPE_MESSAGE)).toBeTruthy();
    await user.upload(input, new File([new Uint8Array(1024 * 1024 + 1)], 'big.png', { type: 'image/png' }));
    expect(await screen.findByText(LOGO_SIZE_MESSAGE)).toBeTruthy();
    expect(api.uploadLogo).not.toHaveBeenCalled();
    await user.upload(input, new File(['png'], 'logo.png', { type: 'image/png' }));
    await waitFor(() => expect(api.uploadLogo).toHaveBeenCalled());
    expect(await screen.findByRole('img', { name: /Logo de/ })).toBeTruthy();
  });

  it('shows the server message when the upload is refused', async () => {
    const { user } = setup({ uploadLogo: vi.fn(() => Promise.reject(new ApiError(422, 'El archivo no es una imagen válida'))) });
    const input = (await screen.findByLabelText('Cambiar logo')) as HTMLInputElement;
    await user.upload(input, new File(['x'], 'logo.svg', { type: 'image/svg+xml' }));
    expect(await screen.findByText('El archivo no es una imagen válida')).toBeTruthy();
  });

  it('lists the locals, creates one through the dialog and deactivates one', async () => {
    const { api, user } = setup();
    const table = await screen.findByRole('table', { name: 'Locales' });
    expect(await within(table).findByText('Sede Central')).toBeTruthy();
    expect(within(table).getByText('Activo')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Nuevo local' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nuevo local' });
    await user.type(within(dialog).getByLabelText('Nombre'), 'Sede Arequipa');
    await user.type(within(dialog).getByLabelText('Dirección'), 'Calle Mercaderes 210');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(api.createLocal).toHaveBeenCalledWith({ name: 'Sede Arequipa', address: 'Calle Mercaderes 210' }));
    await user.click(within(table).getByRole('button', { name: 'Acciones' }));
    await user.click(await screen.findByRole('menuitem', { name: /Desactivar/ }));
    await waitFor(() => expect(api.setLocalActive).toHaveBeenCalledWith(4, false));
    await waitFor(() => expect(api.listLocals.mock.calls.length).toBeGreaterThanOrEqual(3));
  });
});
