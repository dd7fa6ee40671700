/**
 * CRM → Clientes (issue "CRM and sales"): the page over its real machines (createCustomersMachines)
 * with fake api calls. What the screen adds to the shared CRUD pattern: the columns, the form's
 * body per person type, the ubigeo cascade, the spouse search, a 422 on its field and the row
 * actions.
 */
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import { createActor, createMachine } from 'xstate';
import { ApiError } from '../../src/api/client';
import type { CustomersApi } from '../../src/api/crm/customers';
import type { Customer } from '../../src/schemas/crm/customers';
import { createCustomersMachines } from '../../src/machines/crm/customers.actors';
import { CustomersPage } from '../../src/views/crm/CustomersPage';
import { ServicesProvider, type ViewServices } from '../../src/views/services';

const rosa: Customer = {
  id: 1,
  person_type: 'NATURAL',
  id_document_type: '1',
  document_number: '41234567',
  name: 'Rosa',
  surname: 'Quispe',
  display_name: 'Rosa Quispe',
  legal_representative: null,
  birthday_date: null,
  marital_status: 'CASADO',
  spouse: null,
  email: 'rosa@parcela.test',
  phone: '987654321',
  alternate_phone: null,
  address: null,
  ubigeo: '150106',
  agent: { id: 7, name: 'Luis', surname: 'Ramos' },
  collector: null,
  status: 'ACTIVO',
  portal_user: true,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
  version: 3,
};
const andinas: Customer = {
  ...rosa,
  id: 2,
  person_type: 'JURIDICA',
  id_document_type: '6',
  document_number: '20100070970',
  name: 'Inversiones Andinas S.A.C.',
  surname: null,
  display_name: 'Inversiones Andinas S.A.C.',
  legal_representative: 'Carlos Rojas',
  marital_status: null,
  email: null,
  ubigeo: null,
  agent: null,
  status: 'INACTIVO',
  portal_user: false,
};

function fakeApi(overrides: Partial<CustomersApi> = {}): CustomersApi {
  return {
    list: vi.fn(async (query) =>
      query.q
        ? { data: [rosa], meta: { page: 1, per_page: 10, total: 1 } }
        : { data: [rosa, andinas], meta: { page: 1, per_page: 20, total: 2 } },
    ),
    get: vi.fn(async () => rosa),
    create: vi.fn(async () => ({ ...rosa, id: 3 })),
    update: vi.fn(async () => rosa),
    remove: vi.fn(async () => undefined),
    sendPasswordReset: vi.fn(async () => ({ message: 'ok' })),
    staffOptions: vi.fn(async () => ({ data: [{ id: 7, name: 'Luis', surname: 'Ramos' }], meta: { page: 1, per_page: 100, total: 1 } })),
    ...overrides,
  };
}

function setup(api: CustomersApi) {
  const toaster = { show: vi.fn() };
  const reportApiError = vi.fn();
  const machines = createCustomersMachines({ customersApi: api, reportApiError, toaster });
  const session = createActor(createMachine({ context: { permissions: [] } })).start();
  const services = { session, machines: {}, navigate: vi.fn(), toaster, today: () => '2026-11-22' } as unknown as ViewServices;
  const view = (node: ReactNode) =>
    render(
      <ServicesProvider value={services}>
        <OverlaysProvider>{node}</OverlaysProvider>
      </ServicesProvider>,
    );
  view(<CustomersPage machines={machines} />);
  return { toaster, user: userEvent.setup() };
}

describe('CustomersPage', () => {
  it('lists the customers with document, agent, portal user and status', async () => {
    setup(fakeApi());
    const table = await screen.findByRole('table', { name: 'Clientes' });
    expect(await within(table).findByText('Rosa Quispe')).toBeTruthy();
    expect(within(table).getByText('DNI 41234567')).toBeTruthy();
    expect(within(table).getByText('RUC 20100070970')).toBeTruthy();
    expect(within(table).getByText('Luis Ramos')).toBeTruthy();
    expect(within(table).getByText('Con usuario')).toBeTruthy();
    expect(within(table).getByText('Sin usuario')).toBeTruthy();
    expect(within(table).getByText('Inactivo')).toBeTruthy();
  });

  it('creates a natural person with the ubigeo cascade, a spouse found by search and an agent', async () => {
    const api = fakeApi();
    const { user, toaster } = setup(api);
    await screen.findByText('Rosa Quispe');
    await user.click(screen.getAllByRole('button', { name: 'Nuevo cliente' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Nuevo cliente' });
    await user.type(within(dialog).getByLabelText('Número de documento'), '43334444');
    await user.type(within(dialog).getByLabelText('Nombres'), 'Juan');
    await user.type(within(dialog).getByLabelText('Apellidos'), 'Pérez');
    await user.selectOptions(within(dialog).getByLabelText('Estado civil'), 'CASADO');
    // Focus first (the popover opens), then type, as a person does.
    await user.click(within(dialog).getByLabelText('Cónyuge o conviviente'));
    await user.keyboard('rosa');
    // The first match is active: Enter picks it (as a user of the keyboard would).
    await screen.findByRole('option', { name: /Rosa Quispe/ });
    await user.keyboard('{Enter}');
    await user.type(within(dialog).getByLabelText('Celular'), '912345678');
    await user.selectOptions(within(dialog).getByLabelText('Departamento'), '15');
    await user.selectOptions(within(dialog).getByLabelText('Provincia'), '1501');
    await user.selectOptions(within(dialog).getByLabelText('Distrito'), '150106');
    await user.selectOptions(within(dialog).getByLabelText('Asesor'), '7');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(api.create).toHaveBeenCalledTimes(1));
    expect(api.create).toHaveBeenCalledWith({
      person_type: 'NATURAL',
      id_document_type: '1',
      document_number: '43334444',
      name: 'Juan',
      surname: 'Pérez',
      legal_representative: null,
      birthday_date: null,
      marital_status: 'CASADO',
      spouse_id: 1,
      email: null,
      phone: '912345678',
      alternate_phone: null,
      address: null,
      ubigeo: '150106',
      agent_id: 7,
      collector_id: null,
    });
    expect(api.list).toHaveBeenCalledWith(expect.objectContaining({ q: 'rosa', filters: { person_type: 'NATURAL' } }));
    await waitFor(() => expect(toaster.show).toHaveBeenCalledWith(expect.objectContaining({ severity: 'success' })));
  });

  it('asks for the district while the cascade is half chosen, and for a RUC 20 for a company', async () => {
    const api = fakeApi();
    const { user } = setup(api);
    await screen.findByText('Rosa Quispe');
    await user.click(screen.getAllByRole('button', { name: 'Nuevo cliente' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Nuevo cliente' });
    await user.selectOptions(within(dialog).getByLabelText('Tipo de persona'), 'JURIDICA');
    expect(within(dialog).queryByLabelText('Apellidos')).toBeNull();
    await user.type(within(dialog).getByLabelText('Número de documento'), '43334444');
    await user.type(within(dialog).getByLabelText('Razón social'), 'Andes S.A.C.');
    await user.type(within(dialog).getByLabelText('Celular'), '912345678');
    await user.selectOptions(within(dialog).getByLabelText('Departamento'), '15');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('Seleccione un distrito de la lista')).toBeTruthy();
    expect(within(dialog).getByText('Una persona jurídica se identifica con RUC que empieza con 20')).toBeTruthy();
    expect(within(dialog).getByText('Ingrese el representante legal')).toBeTruthy();
    expect(api.create).not.toHaveBeenCalled();
  });

  it("shows the server's 422 on its field", async () => {
    const api = fakeApi({
      create: vi.fn(async () => {
        throw new ApiError(422, 'Los datos no son válidos', { document_number: ['El documento ya está registrado'] });
      }),
    });
    const { user } = setup(api);
    await screen.findByText('Rosa Quispe');
    await user.click(screen.getAllByRole('button', { name: 'Nuevo cliente' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Nuevo cliente' });
    await user.type(within(dialog).getByLabelText('Número de documento'), '41234567');
    await user.type(within(dialog).getByLabelText('Nombres'), 'Rosa');
    await user.type(within(dialog).getByLabelText('Apellidos'), 'Otra');
    await user.type(within(dialog).getByLabelText('Celular'), '912345678');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('El documento ya está registrado')).toBeTruthy();
  });

  it('deactivates with the version read, after asking', async () => {
    const api = fakeApi();
    const { user } = setup(api);
    const row = (await screen.findByText('Rosa Quispe')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Acciones' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Desactivar' }));
    const alert = await screen.findByRole('alertdialog');
    expect(within(alert).getByText(/¿Desactivar a Rosa Quispe\?/)).toBeTruthy();
    await user.click(within(alert).getByRole('button', { name: 'Desactivar' }));
    await waitFor(() => expect(api.update).toHaveBeenCalledWith(1, { status: 'INACTIVO', version: 3 }));
  });
});
