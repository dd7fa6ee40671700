/**
 * Proyectos → Lotizaciones and Lotes (issue "Proyectos") over their real machines
 * (createProjectsMachines) with fake api modules: the list shows counts per status and the sold
 * progress, a create through the dialog shows a 422 on its field, the status dialog offers only
 * the allowed targets and requires a reason for Bloqueado, and bulk prices need a preview first.
 */
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import { createActor, createMachine } from 'xstate';
import type { ReactNode } from 'react';
import { ApiError } from '../../src/api/client';
import type { SubdivisionsApi } from '../../src/api/proyectos/subdivisions';
import type { LotsApi } from '../../src/api/proyectos/lots';
import { createProjectsMachines } from '../../src/machines/proyectos/projects.actors';
import { ServicesProvider, type ViewServices } from '../../src/views/services';
import { SubdivisionsPage } from '../../src/views/proyectos/SubdivisionsPage';
import { LotsPage } from '../../src/views/proyectos/LotsPage';
import type { Lot, Subdivision } from '../../src/schemas/proyectos/projects';

const subdivision: Subdivision = {
  id: 1,
  key: 'k3Y',
  code: 'LV-01',
  name: 'Los Viñedos de Carabayllo',
  department: 'Lima',
  province: 'Lima',
  district: 'Carabayllo',
  ubigeo: '150106',
  address: null,
  currency: 'PEN',
  total_area_m2: 1000,
  registry_entry: null,
  licence_number: null,
  licence_date: null,
  status: 'EN_VENTA',
  published: true,
  public_prices: true,
  coordinate_system: 'PLAN',
  overlap_limit_m2: 0.05,
  late_fee_grace_days: 3,
  late_fee_kind: 'MONTO_DIARIO',
  late_fee_daily_amount: 500,
  late_fee_monthly_percent: '0',
  late_fee_cap: null,
  rescission_overdue_instalments: 3,
  rescission_paid_share_limit_pct: null,
  rescission_penalty_pct: 10,
  plan_url: null,
  lot_counts: { DISPONIBLE: 5, SEPARADO: 2, VENDIDO: 3, BLOQUEADO: 1, RESERVA_COMERCIAL: 0, CANJE: 0, NO_VENDIBLE: 0 },
  lots_total: 11,
  sold_area_m2: 250,
  created_at: '2026-11-01T10:00:00Z',
  updated_at: '2026-11-01T10:00:00Z',
};

const lot: Lot = {
  id: 7,
  subdivision_id: 1,
  block_id: 1,
  block: 'A',
  stage: null,
  number: '1',
  code: 'MZ A - LT 1',
  area_m2: 120,
  perimeter_m: 46,
  front_m: 8,
  front_neighbour: null,
  back_m: 8,
  back_neighbour: null,
  right_m: 15,
  right_neighbour: null,
  left_m: 15,
  left_neighbour: null,
  currency: 'PEN',
  price_per_m2: 25000,
  list_price: 3_000_000,
  list_price_reason: null,
  is_corner: true,
  facing_park: false,
  land_use: 'VIVIENDA',
  status: 'DISPONIBLE',
  has_polygon: false,
  registry_entry: null,
  notes: null,
  updated_at: '2026-11-20T15:00:00Z',
};

function fakeSubdivisionsApi(overrides: Partial<SubdivisionsApi> = {}): SubdivisionsApi {
  return {
    list: vi.fn(async () => ({ data: [subdivision], meta: { page: 1, per_page: 20, total: 1 } })),
    get: vi.fn(async () => subdivision),
    create: vi.fn(async () => subdivision),
    update: vi.fn(async () => subdivision),
    remove: vi.fn(async () => undefined),
    uploadPlan: vi.fn(async () => subdivision),
    planBlob: vi.fn(async () => new Blob()),
    stages: vi.fn(async () => []),
    createStage: vi.fn(),
    updateStage: vi.fn(),
    removeStage: vi.fn(),
    blocks: vi.fn(async () => [{ id: 1, name: 'A', stage_id: null, lots_count: 1 }]),
    createBlock: vi.fn(),
    updateBlock: vi.fn(),
    removeBlock: vi.fn(),
    ...overrides,
  } as SubdivisionsApi;
}

function fakeLotsApi(overrides: Partial<LotsApi> = {}): LotsApi {
  return {
    list: vi.fn(async () => ({ data: [lot], meta: { page: 1, per_page: 50, total: 1 } })),
    get: vi.fn(async () => lot),
    create: vi.fn(async () => lot),
    update: vi.fn(async () => lot),
    remove: vi.fn(async () => undefined),
    changeStatus: vi.fn(async (_id, body) => ({ lot: { ...lot, status: body.status }, pending: null })),
    statusHistory: vi.fn(async () => ({ data: [], meta: { page: 1, per_page: 50, total: 0 } })),
    pricePreview: vi.fn(async () => ({ count: 1, currency: 'PEN' as const, total_before: 3_000_000, total_after: 3_300_000, rows: [] })),
    priceUpdate: vi.fn(async () => ({ updated: 1 })),
    ...overrides,
  } as LotsApi;
}

function setup(opts: { subdivisionsApi?: SubdivisionsApi; lotsApi?: LotsApi; permissions?: string[] } = {}) {
  const subdivisionsApi = opts.subdivisionsApi ?? fakeSubdivisionsApi();
  const lotsApi = opts.lotsApi ?? fakeLotsApi();
  const toaster = { show: vi.fn() };
  const reportApiError = vi.fn();
  const machines = createProjectsMachines({ subdivisionsApi, lotsApi }, { reportApiError, toaster });
  const session = createActor(
    createMachine({ context: { permissions: opts.permissions ?? ['Acceso módulo proyectos', 'Acceso submódulo lotizaciones'] } }),
  ).start();
  const navigate = vi.fn();
  const services = { session, machines: {}, navigate, toaster, today: () => '2026-11-22' } as unknown as ViewServices;
  const view = (node: ReactNode) =>
    render(
      <ServicesProvider value={services}>
        <OverlaysProvider>{node}</OverlaysProvider>
      </ServicesProvider>,
    );
  return { subdivisionsApi, lotsApi, toaster, reportApiError, machines, navigate, view, user: userEvent.setup() };
}

describe('SubdivisionsPage', () => {
  it('lists subdivisions with location, counts per status and the sold progress', async () => {
    const { view, machines } = setup();
    view(<SubdivisionsPage machines={machines} />);
    const table = await screen.findByRole('table', { name: 'Lotizaciones' });
    await within(table).findByText('LV-01');
    expect(within(table).getByText('Carabayllo, Lima')).toBeTruthy();
    expect(within(table).getByText('En venta')).toBeTruthy();
    // Compact counts: the number shows, the label is read by screen readers (and is the tooltip).
    const counts = [...table.querySelectorAll('.lot-count-tag')].map((tag) => tag.textContent);
    expect(counts).toContain('Disponible: 5');
    expect(counts).toContain('Vendido: 3');
    expect(counts.some((text) => text?.startsWith('Canje'))).toBe(false); // statuses without lots are left out
    expect(within(table).getByText('5').closest('.lot-count-tag')?.getAttribute('title')).toBe('Disponible');
    expect(within(table).getByText('25 %')).toBeTruthy();
  });

  it('offers only the map actions the permissions allow', async () => {
    const { view, machines, user } = setup();
    view(<SubdivisionsPage machines={machines} />);
    const table = await screen.findByRole('table', { name: 'Lotizaciones' });
    await within(table).findByText('LV-01');
    await user.click(within(table).getByRole('button', { name: /Acciones/ }));
    expect(await screen.findByRole('menuitem', { name: 'Lotes' })).toBeTruthy();
    expect(screen.getByRole('menuitem', { name: 'Mapa público' })).toBeTruthy();
    expect(screen.queryByRole('menuitem', { name: 'Mapa de ventas' })).toBeNull();
  });

  it('creates through the dialog and shows a 422 on its field', async () => {
    const create = vi
      .fn<SubdivisionsApi['create']>()
      .mockRejectedValueOnce(new ApiError(422, 'Los datos no son válidos', { code: ['Ya existe una lotización con ese código'] }));
    const { view, machines, user } = setup({ subdivisionsApi: fakeSubdivisionsApi({ create }) });
    view(<SubdivisionsPage machines={machines} />);
    await screen.findByText('LV-01');
    await user.click(screen.getByRole('button', { name: 'Nueva lotización' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nueva lotización' });
    fireEvent.change(within(dialog).getByLabelText('Código'), { target: { value: 'lv-01' } });
    fireEvent.change(within(dialog).getByLabelText('Nombre'), { target: { value: 'Los Viñedos II' } });
    fireEvent.change(within(dialog).getByLabelText('Distrito'), { target: { value: 'Carabayllo' } });
    fireEvent.change(within(dialog).getByLabelText('Área total (m²)'), { target: { value: '52000' } });
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(create.mock.calls[0]![0]).toMatchObject({
      code: 'LV-01',
      name: 'Los Viñedos II',
      district: 'Carabayllo',
      total_area_m2: 52000,
      currency: 'PEN',
      ubigeo: null,
      // DOMAIN.md's late-fee defaults: 3 grace days, S/ 5.00 a day, no cap.
      late_fee_grace_days: 3,
      late_fee_kind: 'MONTO_DIARIO',
      late_fee_daily_amount: 500,
      late_fee_cap: null,
    });
    expect(await within(dialog).findByText('Ya existe una lotización con ese código')).toBeTruthy();
    expect(within(dialog).getByLabelText('Código').getAttribute('aria-invalid')).toBe('true');
  });
});

describe('SubdivisionsPage: late-fee policy', () => {
  it('edits the policy: the amount of its kind, the cap in soles sent in céntimos, a bad amount said on its field', async () => {
    const update = vi.fn<SubdivisionsApi['update']>(async () => subdivision);
    const { view, machines, user } = setup({ subdivisionsApi: fakeSubdivisionsApi({ update }) });
    view(<SubdivisionsPage machines={machines} />);
    const table = await screen.findByRole('table', { name: 'Lotizaciones' });
    await within(table).findByText('LV-01');
    await user.click(within(table).getByRole('button', { name: /Acciones/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar lotización' });
    const policy = within(dialog).getByRole('group', { name: 'Mora por atraso' });
    expect((within(policy).getByLabelText('Monto por día (S/)') as HTMLInputElement).value).toBe('5.00');
    fireEvent.change(within(policy).getByLabelText('Tope por cuota (S/)'), { target: { value: 'doscientos' } });
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(policy).findByText('Tope no válido (ej. 200.00)')).toBeTruthy();
    expect(update).not.toHaveBeenCalled();
    fireEvent.change(within(policy).getByLabelText('Tope por cuota (S/)'), { target: { value: '200.00' } });
    await user.selectOptions(within(policy).getByLabelText('Tipo de mora'), 'PORCENTAJE_MENSUAL');
    expect(within(policy).queryByLabelText('Monto por día (S/)')).toBeNull();
    fireEvent.change(within(policy).getByLabelText('Porcentaje mensual (%)'), { target: { value: '1.5' } });
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(update).toHaveBeenCalledTimes(1));
    expect(update.mock.calls[0]![1]).toMatchObject({
      late_fee_kind: 'PORCENTAJE_MENSUAL',
      late_fee_monthly_percent: '1.5',
      late_fee_cap: 20_000,
      late_fee_daily_amount: 500,
    });
  });
});

describe('SubdivisionsPage: rescission policy', () => {
  it('edits the policy (docs/domain.md "Contract variables"): the overdue instalments, a blank share limit sent as null, the penalty', async () => {
    const update = vi.fn<SubdivisionsApi['update']>(async () => subdivision);
    const { view, machines, user } = setup({ subdivisionsApi: fakeSubdivisionsApi({ update }) });
    view(<SubdivisionsPage machines={machines} />);
    const table = await screen.findByRole('table', { name: 'Lotizaciones' });
    await within(table).findByText('LV-01');
    await user.click(within(table).getByRole('button', { name: /Acciones/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar lotización' });
    const policy = within(dialog).getByRole('group', { name: 'Resolución del contrato' });
    expect((within(policy).getByLabelText('Cuotas vencidas para resolver') as HTMLInputElement).value).toBe('3');
    expect((within(policy).getByLabelText('Límite de lo pagado (%)') as HTMLInputElement).value).toBe('');
    fireEvent.change(within(policy).getByLabelText('Cuotas vencidas para resolver'), { target: { value: '4' } });
    fireEvent.change(within(policy).getByLabelText('Penalidad por resolución (%)'), { target: { value: '8' } });
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(update).toHaveBeenCalledTimes(1));
    expect(update.mock.calls[0]![1]).toMatchObject({
      rescission_overdue_instalments: 4,
      rescission_paid_share_limit_pct: null,
      rescission_penalty_pct: 8,
    });
  });
});

describe('LotsPage', () => {
  it('shows the header and the lots; the status dialog offers only allowed targets and needs a reason for Bloqueado', async () => {
    const { view, machines, user, lotsApi } = setup();
    view(<LotsPage machines={machines} subdivisionKey="k3Y" />);
    expect(await screen.findByRole('heading', { name: 'Los Viñedos de Carabayllo' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Lotes' });
    await within(table).findByText('MZ A - LT 1');
    await user.click(within(table).getByRole('button', { name: /Acciones/ }));
    await user.click(await screen.findByText('Cambiar estado'));
    const dialog = await screen.findByRole('dialog', { name: /Cambiar estado/ });
    const select = within(dialog).getByLabelText('Nuevo estado') as HTMLSelectElement;
    const options = [...select.options].map((o) => o.textContent);
    expect(options).toEqual(['Seleccione…', 'Separado', 'Bloqueado', 'Reserva comercial', 'Canje']);
    fireEvent.change(select, { target: { value: 'BLOQUEADO' } });
    await user.click(within(dialog).getByRole('button', { name: 'Cambiar estado' }));
    expect(await within(dialog).findByText('Indique el motivo del cambio de estado')).toBeTruthy();
    expect(lotsApi.changeStatus).not.toHaveBeenCalled();
    fireEvent.change(within(dialog).getByLabelText('Motivo (obligatorio)'), { target: { value: 'Observación de la municipalidad' } });
    // A hold asks for its end date (docs/domain.md "Lot holds").
    await user.click(within(dialog).getByRole('button', { name: 'Cambiar estado' }));
    expect(await within(dialog).findByText('Indique hasta qué fecha se mantiene el lote')).toBeTruthy();
    await user.type(await within(dialog).findByLabelText('Hasta (obligatorio)'), '20/03/2026');
    await user.click(within(dialog).getByRole('button', { name: 'Cambiar estado' }));
    await waitFor(() =>
      expect(lotsApi.changeStatus).toHaveBeenCalledWith(7, {
        status: 'BLOQUEADO',
        reason: 'Observación de la municipalidad',
        until: '2026-03-20',
      }),
    );
    await waitFor(() => expect(lotsApi.list).toHaveBeenCalledTimes(2));
  });

  it('"Cotizar" a Disponible lot from the list opens the quote dialog with its price, for Comercial + Ventas only', async () => {
    const { view, machines, user } = setup({
      permissions: ['Acceso módulo proyectos', 'Acceso submódulo lotizaciones', 'Acceso módulo comercial', 'Acceso submódulo ventas'],
    });
    view(<LotsPage machines={machines} subdivisionKey="k3Y" />);
    const table = await screen.findByRole('table', { name: 'Lotes' });
    await within(table).findByText('MZ A - LT 1');
    await user.click(within(table).getByRole('button', { name: /Acciones/ }));
    await user.click(await screen.findByText('Cotizar'));
    const dialog = await screen.findByRole('dialog', { name: 'Cotizar lote MZ A - LT 1' });
    expect(within(dialog).getByText(/^Precio de lista: S\/ /)).toBeTruthy();
    expect(within(dialog).getByRole('table', { name: 'Cronograma simulado' })).toBeTruthy();
  });

  it('does not offer "Cotizar" without the sales permission', async () => {
    const { view, machines, user } = setup();
    view(<LotsPage machines={machines} subdivisionKey="k3Y" />);
    const table = await screen.findByRole('table', { name: 'Lotes' });
    await within(table).findByText('MZ A - LT 1');
    await user.click(within(table).getByRole('button', { name: /Acciones/ }));
    await screen.findByText('Cambiar estado');
    expect(screen.queryByText('Cotizar')).toBeNull();
  });

  it('bulk prices: "Aplicar" only after "Vista previa", and an edit disables it again', async () => {
    const { view, machines, user, lotsApi } = setup();
    view(<LotsPage machines={machines} subdivisionKey="k3Y" />);
    await screen.findByText('MZ A - LT 1');
    await user.click(screen.getByRole('button', { name: 'Actualizar precios' }));
    const dialog = await screen.findByRole('dialog', { name: 'Actualizar precios' });
    const apply = within(dialog).getByRole('button', { name: 'Aplicar' }) as HTMLButtonElement;
    expect(apply.disabled).toBe(true);
    await user.click(within(dialog).getByRole('checkbox', { name: 'A' }));
    fireEvent.change(within(dialog).getByLabelText('Nuevo precio por m² (S/)'), { target: { value: '275' } });
    fireEvent.change(within(dialog).getByLabelText('Motivo'), { target: { value: 'Lista 2027' } });
    await user.click(within(dialog).getByRole('button', { name: 'Vista previa' }));
    expect(await within(dialog).findByText('S/ 33,000.00')).toBeTruthy();
    expect(lotsApi.pricePreview).toHaveBeenCalledWith('k3Y', {
      selection: { blocks: ['A'] },
      change: { kind: 'SET_PRICE_PER_M2', price_per_m2: 27500 },
      reason: 'Lista 2027',
    });
    await waitFor(() => expect((within(dialog).getByRole('button', { name: 'Aplicar' }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.change(within(dialog).getByLabelText('Nuevo precio por m² (S/)'), { target: { value: '280' } });
    expect((within(dialog).getByRole('button', { name: 'Aplicar' }) as HTMLButtonElement).disabled).toBe(true);
    expect(lotsApi.priceUpdate).not.toHaveBeenCalled();
  });
});
