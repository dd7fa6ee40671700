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
import type { CustomerDetailApis } from '../../src/machines/crm/customer-detail.machine';
import type { Lead } from '../../src/schemas/crm/leads';
import type { Quote } from '../../src/schemas/comercio/quotes';
import type { Reservation } from '../../src/schemas/comercio/reservations';
import type { Sale } from '../../src/schemas/comercio/sales';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
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
  property_regime: null,
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

const emptyPage = { data: [], meta: { page: 1, per_page: 50, total: 0 } };
function fakeDetailApis(overrides: Partial<CustomerDetailApis> = {}): CustomerDetailApis {
  return {
    leads: vi.fn(async () => emptyPage),
    quotes: vi.fn(async () => emptyPage),
    reservations: vi.fn(async () => emptyPage),
    sales: vi.fn(async () => emptyPage),
    ...overrides,
  };
}

function setup(
  api: CustomersApi,
  opts: {
    detailApis?: CustomerDetailApis;
    permissions?: string[];
    quotesApi?: Parameters<typeof createCustomersMachines>[0]['quotesApi'];
    lotOptions?: Parameters<typeof createCustomersMachines>[0]['lotOptions'];
  } = {},
) {
  const toaster = { show: vi.fn() };
  const reportApiError = vi.fn();
  const detailApis = opts.detailApis ?? fakeDetailApis();
  const machines = createCustomersMachines({
    customersApi: api,
    detailApis,
    reportApiError,
    toaster,
    ...(opts.quotesApi ? { quotesApi: opts.quotesApi } : {}),
    ...(opts.lotOptions ? { lotOptions: opts.lotOptions } : {}),
  });
  const session = createActor(createMachine({ context: { permissions: opts.permissions ?? [] } })).start();
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
    // A married customer's property regime (docs/domain.md "Contract variables").
    await user.selectOptions(within(dialog).getByLabelText('Régimen patrimonial'), 'SOCIEDAD_GANANCIALES');
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
      property_regime: 'SOCIEDAD_GANANCIALES',
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

const stamp = '2026-11-20T15:00:00Z';
const lead = {
  id: 41,
  name: 'Rosa Q.',
  channel: 'FACEBOOK',
  status: 'CONCRETADO',
  agent: { id: 7, name: 'Luis', surname: 'Ramos' },
  received_at: stamp,
} as Lead;
const quote = {
  id: 5,
  number: 'COT-000005',
  lot: { id: 9, code: 'MZ A - LT 9', subdivision_name: 'Los Viñedos', area_m2: 120 },
  customer: { id: 1, display_name: 'Rosa Quispe', document_number: '41234567' },
  currency: 'PEN',
  final_price: 2_700_000,
  valid_until: '2026-11-27',
  status: 'ENVIADA',
  created_at: stamp,
} as Quote;
const reservation = {
  id: 8,
  number: 'SEP-000008',
  customer: { id: 1, display_name: 'Rosa Quispe', document_number: '41234567' },
  lot: { id: 11, code: 'MZ B - LT 4', subdivision_name: 'Los Viñedos' },
  amount: 50_000,
  currency: 'PEN',
  expires_at: '2026-11-29T15:00:00.000Z',
  status: 'VIGENTE',
  created_at: stamp,
} as Reservation;
const sale = (id: number, currency: 'PEN' | 'USD', balance: number, status: Sale['status'] = 'EN_CUOTAS') =>
  ({
    id,
    number: `V-00000${id}`,
    sale_date: '2026-11-20',
    lot: { id: 20 + id, code: `MZ C - LT ${id}`, subdivision_name: 'Los Viñedos', area_m2: 120 },
    holders: [{ id: 1, display_name: 'Rosa Quispe', document_number: '41234567', role: 'TITULAR', share_percent: '100.00' }],
    currency,
    final_price: 3_000_000,
    paid: 3_000_000 - balance,
    balance,
    status,
  }) as Sale;
const page = <T,>(rows: T[], total = rows.length) => ({ data: rows, meta: { page: 1, per_page: 50, total } });
const ALL = [MODULE.crm, SUBMODULE.clientes, SUBMODULE.leads, MODULE.comercial, SUBMODULE.ventas];

describe("a customer's detail", () => {
  async function openDetail(user: ReturnType<typeof userEvent.setup>) {
    const row = (await screen.findByText('Rosa Quispe')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Acciones' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Ver' }));
    // The closing menu hands the focus back to "Acciones": go on once it is gone, or keys land there.
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    return screen.findByRole('dialog', { name: 'Rosa Quispe' });
  }

  it('shows their leads, quotes, reservations and sales, filtered by customer, and the balances of live sales per currency', async () => {
    const detailApis = fakeDetailApis({
      leads: vi.fn(async () => page([lead])),
      quotes: vi.fn(async () => page([quote])),
      reservations: vi.fn(async () => page([reservation])),
      sales: vi.fn(async () =>
        page([sale(1, 'PEN', 2_000_000), sale(2, 'PEN', 500_000), sale(3, 'USD', 1_000_000), sale(4, 'PEN', 900_000, 'ANULADA')]),
      ),
    });
    const { user } = setup(fakeApi(), { detailApis, permissions: ALL });
    const drawer = await openDetail(user);
    for (const call of [detailApis.leads, detailApis.quotes, detailApis.reservations, detailApis.sales])
      await waitFor(() => expect(call).toHaveBeenCalledWith(expect.objectContaining({ filters: { customer_id: '1' } })));
    const leads = await within(drawer).findByRole('table', { name: 'Leads' });
    expect(within(leads).getByText('Facebook')).toBeTruthy();
    expect(within(leads).getByRole('link', { name: '20/11/2026' }).getAttribute('href')).toBe('/CRM/LEADS?lead=41');
    const quotes = within(drawer).getByRole('table', { name: 'Cotizaciones' });
    expect(within(quotes).getByText('COT-000005')).toBeTruthy();
    expect(within(quotes).getByText('S/ 27,000.00')).toBeTruthy();
    expect(within(quotes).getByText('27/11/2026')).toBeTruthy();
    expect(within(quotes).getByText('Enviada')).toBeTruthy();
    const reservations = within(drawer).getByRole('table', { name: 'Separaciones' });
    expect(within(reservations).getByText('SEP-000008')).toBeTruthy();
    expect(within(reservations).getByText('S/ 500.00')).toBeTruthy();
    const sales = within(drawer).getByRole('table', { name: 'Ventas' });
    expect(within(sales).getByRole('link', { name: 'V-000001' }).getAttribute('href')).toBe('/COMERCIO/ventas?q=V-000001');
    expect(within(sales).getByText('Anulada')).toBeTruthy();
    // Σ balance of the live sales: S/ 20 000 + S/ 5 000 (the annulled one left out); US$ 10 000.
    const balances = within(drawer).getByRole('region', { name: 'Saldos' });
    expect(within(balances).getByText('S/ 25,000.00')).toBeTruthy();
    expect(within(balances).getByText('Saldo en dólares')).toBeTruthy();
    expect(within(balances).getByText('US$ 10,000.00')).toBeTruthy();
  });

  it('"Cotizar" from the detail: the lot is picked by its code, simulated, and the quote saved for this customer', async () => {
    const quotesApi = { create: vi.fn(async () => quote), changeStatus: vi.fn(), pdf: vi.fn() };
    const lotOptions = vi.fn(async () => [
      {
        id: 9,
        code: 'MZ A - LT 9',
        subdivision_name: 'Los Viñedos',
        currency: 'PEN' as const,
        list_price: 3_000_000,
        status: 'DISPONIBLE',
      },
    ]);
    // The customer's quotes: none until one is saved.
    const detailApis = fakeDetailApis({ quotes: vi.fn(async () => (quotesApi.create.mock.calls.length > 0 ? page([quote]) : emptyPage)) });
    const { user } = setup(fakeApi(), { permissions: ALL, quotesApi: quotesApi as never, lotOptions, detailApis });
    const drawer = await openDetail(user);
    expect(await within(drawer).findByText('Sin cotizaciones')).toBeTruthy();
    await user.click(await within(drawer).findByRole('button', { name: 'Cotizar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cotizar para Rosa Quispe' });
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cotización' }));
    expect(await within(dialog).findByText('Seleccione el lote')).toBeTruthy();
    await user.click(within(dialog).getByLabelText('Lote'));
    // Type once the suggestions are open (Suggest settles its query as its popover opens: a key typed before is lost).
    await screen.findByRole('option', { name: 'Escriba para buscar' });
    await user.keyboard('LT 9');
    // Enter picks the active option: wait for the search of the whole text and its answer first.
    await waitFor(() => expect(lotOptions).toHaveBeenLastCalledWith('LT 9'));
    await screen.findByRole('option', { name: /MZ A - LT 9/ });
    await waitFor(() => expect(screen.queryByText('Buscando…')).toBeNull());
    await user.keyboard('{Enter}');
    expect(await within(dialog).findByText('Precio de lista: S/ 30,000.00')).toBeTruthy();
    expect(within(dialog).getByRole('table', { name: 'Cronograma simulado' })).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cotización' }));
    await waitFor(() => expect(quotesApi.create).toHaveBeenCalledWith(expect.objectContaining({ lot_id: 9, customer_id: 1 })));
    // The detail reads its quotes again: the new one is listed behind the dialog.
    const quotes = within(drawer).getByRole('table', { name: 'Cotizaciones' });
    expect(await within(quotes).findByText(quote.number)).toBeTruthy();
  });

  it('shows no Leads section without the LEADS permission, nor the sales ones without Ventas, and never asks for them', async () => {
    const detailApis = fakeDetailApis();
    const { user } = setup(fakeApi(), { detailApis, permissions: [MODULE.crm, SUBMODULE.clientes, MODULE.comercial, SUBMODULE.ventas] });
    const drawer = await openDetail(user);
    expect(await within(drawer).findByText('Sin ventas')).toBeTruthy();
    expect(within(drawer).getByText('Sin cotizaciones')).toBeTruthy();
    expect(within(drawer).getByText('Sin saldo pendiente')).toBeTruthy();
    expect(within(drawer).queryByRole('region', { name: 'Leads' })).toBeNull();
    expect(detailApis.leads).not.toHaveBeenCalled();
    await user.click(within(drawer).getByRole('button', { name: 'Cerrar' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Rosa Quispe' })).toBeNull());
  });

  it('a CRM-only user sees the leads and no sales sections; a failed section says so and retries', async () => {
    let fail = true;
    const detailApis = fakeDetailApis({
      leads: vi.fn(async () => {
        if (fail) throw new ApiError(500, 'Error interno del servidor');
        return page([lead]);
      }),
    });
    const { user } = setup(fakeApi(), { detailApis, permissions: [MODULE.crm, SUBMODULE.clientes, SUBMODULE.leads] });
    const drawer = await openDetail(user);
    expect(await within(drawer).findByText(/Error interno del servidor/)).toBeTruthy();
    for (const name of ['Cotizaciones', 'Separaciones', 'Ventas', 'Saldos'])
      expect(within(drawer).queryByRole('region', { name })).toBeNull();
    expect(detailApis.sales).not.toHaveBeenCalled();
    fail = false;
    await user.click(within(drawer).getByRole('button', { name: 'Reintentar' }));
    expect(await within(drawer).findByRole('table', { name: 'Leads' })).toBeTruthy();
  });
});
