/**
 * The map screens over their real machines with a fake lot-maps api (issue "Proyectos"): legend
 * counts, the tooltip of a hovered lot, search, the lot panel with "Cambiar estado" updating the
 * colour and counts without reloading, the public map (no internal statuses, no price when null,
 * "Copiar enlace") and its 404 state, and the heat map's metric select and legend (the title state's too).
 */

/** The sales maps' permission (Comercial + Ventas). */
const SALES_MAP = ['Acceso módulo comercial', 'Acceso submódulo ventas'];
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import { createActor, createMachine } from 'xstate';
import { ApiError } from '../../src/api/client';
import { createMapsMachines } from '../../src/machines/mapas/maps.actors';
import { ServicesProvider, type ViewServices } from '../../src/views/services';
import { ProjectMapPage } from '../../src/views/mapas/ProjectMapPage';
import { PublicLotMapView } from '../../src/views/mapas/CustomerMapPage';
import { renderToStaticMarkup } from 'react-dom/server';
import { PublicMapFrame, PublicMapSkeleton } from '../../src/views/mapas/map-skeleton';
import { HeatMapPage, TITLE_STATE_NO_ACCESS, TITLE_STATE_PERMISSIONS } from '../../src/views/mapas/HeatMapPage';
import { HEAT_NO_DATA, TITLE_STATE_COLOR } from '../../src/machines/mapas/map-geometry';
import type { LotTitleState } from '../../src/schemas/administracion/titles';
import { SalesMapPage, SALE_NOT_REGISTERED } from '../../src/views/mapas/SalesMapPage';
import { LOT_STATUS_COLOR } from '../../src/views/proyectos/lot-status';
import type { Lot, LotMap, PublicLotMap } from '../../src/schemas/proyectos/projects';
import type { Customer } from '../../src/schemas/crm/customers';
import type { ChangeQuoteStatusRequest, CreateQuoteRequest, Quote } from '../../src/schemas/comercio/quotes';
import type { CreateReservationRequest, Reservation } from '../../src/schemas/comercio/reservations';

const SUB = {
  key: 'k1',
  code: 'LV-01',
  name: 'Los Viñedos',
  currency: 'PEN' as const,
  coordinate_system: 'PLAN' as const,
  plan_url: null,
  plan_width: null,
  plan_height: null,
  bounds: [0, 0, 16, 40] as [number, number, number, number],
};
const STAFF: LotMap = {
  subdivision: SUB,
  lots: [
    {
      id: 1,
      code: 'MZ A - LT 1',
      block: 'A',
      number: '1',
      area_m2: 120,
      price_per_m2: 25000,
      list_price: 3000000,
      status: 'DISPONIBLE',
      polygon: [
        [0, 0],
        [8, 0],
        [8, 15],
        [0, 15],
      ],
    },
    {
      id: 2,
      code: 'MZ A - LT 2',
      block: 'A',
      number: '2',
      area_m2: 120.5,
      price_per_m2: 25000,
      list_price: 3012500,
      status: 'DISPONIBLE',
      polygon: [
        [8, 0],
        [16, 0],
        [16, 15],
        [8, 15],
      ],
    },
    {
      id: 3,
      code: 'MZ B - LT 1',
      block: 'B',
      number: '1',
      area_m2: 150,
      price_per_m2: 30000,
      list_price: 4500000,
      status: 'BLOQUEADO',
      polygon: [
        [0, 25],
        [10, 25],
        [10, 40],
        [0, 40],
      ],
    },
    {
      id: 4,
      code: 'MZ B - LT 2',
      block: 'B',
      number: '2',
      area_m2: 150,
      price_per_m2: 30000,
      list_price: 4500000,
      status: 'CANJE',
      polygon: null,
    },
  ],
};
const PUBLIC: PublicLotMap = {
  subdivision: SUB,
  lots: [
    {
      code: 'MZ A - LT 1',
      block: 'A',
      number: '1',
      area_m2: 120,
      list_price: null,
      price_per_m2: null,
      status: 'DISPONIBLE',
      polygon: [
        [0, 0],
        [8, 0],
        [8, 15],
        [0, 15],
      ],
    },
    {
      code: 'MZ B - LT 1',
      block: 'B',
      number: '1',
      area_m2: 150,
      list_price: null,
      price_per_m2: null,
      status: 'VENDIDO',
      polygon: [
        [0, 25],
        [10, 25],
        [10, 40],
        [0, 40],
      ],
    },
  ],
};
const lotOf = (id: number, status: Lot['status'] = 'DISPONIBLE'): Lot => {
  const m = STAFF.lots.find((l) => l.id === id)!;
  return {
    id,
    subdivision_id: 1,
    block_id: 1,
    block: m.block,
    stage: 'Etapa 1',
    number: m.number,
    code: m.code,
    area_m2: m.area_m2,
    perimeter_m: 46,
    front_m: 8,
    front_neighbour: 'Calle Los Pinos',
    back_m: 8,
    back_neighbour: null,
    right_m: 15,
    right_neighbour: null,
    left_m: null,
    left_neighbour: null,
    currency: 'PEN',
    price_per_m2: m.price_per_m2,
    list_price: m.list_price,
    list_price_reason: null,
    is_corner: true,
    facing_park: false,
    land_use: 'VIVIENDA',
    status,
    has_polygon: true,
    registry_entry: null,
    notes: null,
    updated_at: `2026-11-20T15:00:0${status === 'DISPONIBLE' ? 0 : 1}Z`,
  };
};

function setup(
  opts: {
    publicMap?: () => Promise<PublicLotMap>;
    permissions?: string[];
    staffMap?: LotMap;
    titleStates?: () => Promise<LotTitleState[]>;
  } = {},
) {
  const api = {
    staffMap: vi.fn(() => Promise.resolve(opts.staffMap ?? STAFF)),
    titleStates: vi.fn(opts.titleStates ?? (() => Promise.resolve([] as LotTitleState[]))),
    publicMap: vi.fn(opts.publicMap ?? (() => Promise.resolve(PUBLIC))),
    planBlob: vi.fn(() => Promise.resolve(new Blob())),
    lot: vi.fn((id: number) => Promise.resolve(lotOf(id))),
  };
  const lotsApi = {
    changeStatus: vi.fn((id: number, body: { status: Lot['status'] }) => Promise.resolve({ lot: lotOf(id, body.status), pending: null })),
    statusHistory: vi.fn(() => Promise.resolve({ data: [], meta: { page: 1, per_page: 50, total: 0 } })),
  };
  const toaster = { show: vi.fn() };
  const clipboard = vi.fn(() => Promise.resolve());
  const customersApi = {
    list: vi.fn(async () => ({
      data: [{ id: 5, display_name: 'Rosa Quispe', document_number: '41234567' } as Customer],
      meta: { page: 1, per_page: 10, total: 1 },
    })),
  };
  const reservationsApi = {
    create: vi.fn(async (body: CreateReservationRequest): Promise<Reservation> => ({
      id: 1,
      number: 'SEP-000001',
      customer: { id: body.customer_id, display_name: 'Rosa Quispe', document_number: '41234567' },
      lot: { id: body.lot_id, code: `MZ A - LT ${body.lot_id}`, subdivision_name: 'Los Viñedos' },
      agent: null,
      amount: body.amount,
      currency: 'PEN',
      hold_days: body.hold_days ?? 7,
      expires_at: '2026-11-29T15:00:00.000Z',
      status: 'PENDIENTE_PAGO',
      cancel_reason: null,
      conditions_accepted_at: '2026-11-22T15:00:00.000Z',
      created_at: '2026-11-22T15:00:00.000Z',
      updated_at: '2026-11-22T15:00:00.000Z',
    })),
  };
  // After the reservation the lot reads SEPARADO.
  const lotsGet = vi.fn((id: number) =>
    Promise.resolve(lotOf(id, reservationsApi.create.mock.calls.length > 0 ? 'SEPARADO' : 'DISPONIBLE')),
  );
  const saveBlob = vi.fn();
  const salesApi = {
    list: vi.fn(async (query: { filters: Record<string, string> }) => ({
      data:
        query.filters.lot_id === '3'
          ? [
              {
                id: 12,
                number: 'V-000012',
                sale_date: '2026-10-05',
                type: 'FINANCIADO',
                lot: { id: 3, code: 'MZ B - LT 1', subdivision_name: 'Los Viñedos', area_m2: 150 },
                holders: [{ id: 5, display_name: 'Rosa Quispe', document_number: '41234567', role: 'TITULAR', share_percent: '100.00' }],
                guarantor: null,
                agent: { id: 2, name: 'Lucía', surname: 'Quispe' },
                reservation_id: null,
                currency: 'PEN' as const,
                list_price: 4_500_000,
                discount: 0,
                final_price: 4_500_000,
                down_payment: 900_000,
                reservation_credit: 0,
                financed: 3_600_000,
                instalments: 24,
                monthly_rate_percent: '0',
                method: 'SIN_INTERES',
                total_interest: 0,
                paid: 900_000,
                balance: 3_600_000,
                status: 'EN_CUOTAS' as const,
                annul_reason: null,
                schedule: [],
                created_at: '2026-10-05T15:00:00.000Z',
                updated_at: '2026-10-05T15:00:00.000Z',
              },
            ]
          : [],
      meta: { page: 1, per_page: 10, total: query.filters.lot_id === '3' ? 1 : 0 },
    })),
  };
  const quotesApi = {
    create: vi.fn(async (body: CreateQuoteRequest): Promise<Quote> => ({
      id: 7,
      number: 'COT-000007',
      lot: { id: body.lot_id, code: `MZ A - LT ${body.lot_id}`, subdivision_name: 'Los Viñedos', area_m2: 120 },
      customer: { id: body.customer_id, display_name: 'Rosa Quispe', document_number: '41234567' },
      agent: null,
      currency: 'PEN',
      list_price: 3_000_000,
      discount: 0,
      final_price: 3_000_000,
      down_payment: 600_000,
      down_payment_parts: 1,
      financed: 2_400_000,
      instalments: body.instalments,
      monthly_rate_percent: '1.5',
      method: 'FRANCES',
      first_due_date: '2026-12-01',
      valid_until: '2026-11-29',
      status: 'BORRADOR',
      down_payment_schedule: [],
      schedule: [],
      total_interest: 0,
      total_to_pay: 3_000_000,
      created_at: '2026-11-22T15:00:00.000Z',
      updated_at: '2026-11-22T15:00:00.000Z',
      version: 1,
    })),
    pdf: vi.fn(async () => new Blob(['%PDF-1.7'], { type: 'application/pdf' })),
    changeStatus: vi.fn(async (_id: number, body: ChangeQuoteStatusRequest) => ({
      ...(await quotesApi.create.mock.results[0]!.value),
      status: body.status,
      version: 2,
    })),
  };
  const machines = createMapsMachines({
    api,
    lotsApi: { ...lotsApi, get: lotsGet } as never,
    customersApi,
    reservationsApi,
    quotesApi,
    salesApi,
    saveBlob,
    reportApiError: vi.fn(),
    toaster,
    writeClipboard: clipboard,
  });
  const session = createActor(
    createMachine({ context: { permissions: opts.permissions ?? ['Acceso módulo proyectos', 'Acceso submódulo lotizaciones'] } }),
  ).start();
  const navigate = vi.fn();
  const services = { session, machines: {}, navigate, toaster, today: () => '2026-11-22' } as unknown as ViewServices;
  const view = (node: React.ReactNode) =>
    render(
      <ServicesProvider value={services}>
        <OverlaysProvider>{node}</OverlaysProvider>
      </ServicesProvider>,
    );
  return {
    api,
    lotsApi,
    customersApi,
    reservationsApi,
    quotesApi,
    salesApi,
    saveBlob,
    toaster,
    clipboard,
    machines,
    navigate,
    view,
    user: userEvent.setup(),
  };
}

/** `node`'s elements with their attributes in name order and their text: markup compared regardless of attribute order. */
function canonical(node: Element): string {
  const attributes = [...node.attributes]
    .filter((a) => !(a.name === 'style' && a.value === ''))
    .map((a) => `${a.name}=${JSON.stringify(a.value)}`)
    .sort()
    .join(' ');
  const children = [...node.childNodes]
    .map((child) => (child.nodeType === Node.ELEMENT_NODE ? canonical(child as Element) : (child.textContent ?? '')))
    .join('');
  return `<${node.tagName.toLowerCase()} ${attributes}>${children}</>`;
}

const legendCount = (label: string) => {
  const legend = screen.getByRole('list', { name: 'Leyenda' });
  const item = within(legend).getByText(label).closest('li')!;
  return item.querySelector('strong')!.textContent;
};
const pathOf = (key: string) => document.querySelector(`.lot-map__lots > path[data-key="${key}"]`) as SVGPathElement;

describe('MapaProyectos', () => {
  it('draws every lot with a polygon, filled by status, with legend counts per status', async () => {
    const { view, machines } = setup();
    const { container } = view(<ProjectMapPage machines={machines} subdivisionKey="k1" />);
    await screen.findByRole('img', { name: 'Plano de Los Viñedos' });
    expect(container.querySelectorAll('.lot-map__lots > path')).toHaveLength(3);
    expect(pathOf('3').getAttribute('fill')).toBe(LOT_STATUS_COLOR.BLOQUEADO);
    expect(legendCount('Disponible')).toBe('2');
    expect(legendCount('Bloqueado')).toBe('1');
    expect(legendCount('Canje')).toBe('1');
    expect(legendCount('Total')).toBe('4');
  });

  it('shows code, area, price and status of the hovered lot', async () => {
    const { view, machines } = setup();
    view(<ProjectMapPage machines={machines} subdivisionKey="k1" />);
    await screen.findByRole('img', { name: 'Plano de Los Viñedos' });
    fireEvent.mouseMove(pathOf('2'));
    const tip = await screen.findByRole('tooltip');
    expect(tip.textContent).toContain('MZ A - LT 2');
    expect(tip.textContent).toContain('120.50 m²');
    expect(tip.textContent).toContain('S/ 30,125.00');
    expect(tip.textContent).toContain('Disponible');
    fireEvent.mouseLeave(pathOf('2').parentElement!);
    await waitFor(() => expect(screen.queryByRole('tooltip')).toBeNull());
  });

  it('fades the lots outside the status filter', async () => {
    const { view, machines, user } = setup();
    view(<ProjectMapPage machines={machines} subdivisionKey="k1" />);
    await screen.findByRole('img', { name: 'Plano de Los Viñedos' });
    await user.click(within(screen.getByRole('complementary', { name: 'Filtros del mapa' })).getByText('Bloqueado'));
    expect(pathOf('3').hasAttribute('data-faded')).toBe(false);
    expect(pathOf('1').getAttribute('fill-opacity')).toBe('0.18');
  });

  it('search selects the lot; "Cambiar estado" changes its colour and the counts without reloading the map', async () => {
    const { view, machines, user, api, lotsApi } = setup();
    view(<ProjectMapPage machines={machines} subdivisionKey="k1" />);
    await screen.findByRole('img', { name: 'Plano de Los Viñedos' });
    await user.type(screen.getByLabelText('Buscar lote'), 'B-9{Enter}');
    expect((await screen.findByRole('alert')).textContent).toBe('Lote "B-9" no encontrado');
    await user.clear(screen.getByLabelText('Buscar lote'));
    await user.type(screen.getByLabelText('Buscar lote'), 'a-2{Enter}');
    const panel = await screen.findByRole('region', { name: 'Lote MZ A - LT 2' });
    expect(await within(panel).findByText('Calle Los Pinos', { exact: false })).toBeTruthy();
    expect(api.lot).toHaveBeenCalledWith(2);
    await user.click(within(panel).getByRole('button', { name: 'Cambiar estado' }));
    const dialog = await screen.findByRole('dialog');
    await user.selectOptions(within(dialog).getByRole('combobox'), 'SEPARADO');
    await user.type(await within(dialog).findByLabelText('Hasta (obligatorio)'), '20/03/2026');
    // The calendar closes as the focus leaves the field (the next click reaches the button).
    await user.tab();
    await user.click(within(dialog).getByRole('button', { name: /Guardar|Cambiar/ }));
    await waitFor(() => expect(lotsApi.changeStatus).toHaveBeenCalledWith(2, expect.objectContaining({ status: 'SEPARADO' })));
    await waitFor(() => expect(pathOf('2').getAttribute('fill')).toBe(LOT_STATUS_COLOR.SEPARADO));
    expect(legendCount('Separado')).toBe('1');
    expect(legendCount('Disponible')).toBe('1');
    expect(api.staffMap).toHaveBeenCalledTimes(1);
  });

  it("the panel's status history loads for the selected lot, again after its status changed, and for another lot", async () => {
    const { view, machines, user, lotsApi } = setup();
    view(<ProjectMapPage machines={machines} subdivisionKey="k1" />);
    await screen.findByRole('img', { name: 'Plano de Los Viñedos' });
    await user.type(screen.getByLabelText('Buscar lote'), 'a-2{Enter}');
    const panel = await screen.findByRole('region', { name: 'Lote MZ A - LT 2' });
    await waitFor(() => expect(lotsApi.statusHistory).toHaveBeenCalledTimes(1));
    expect(lotsApi.statusHistory).toHaveBeenLastCalledWith(2, expect.anything());
    await user.click(within(panel).getByRole('button', { name: 'Cambiar estado' }));
    const dialog = await screen.findByRole('dialog');
    await user.selectOptions(within(dialog).getByRole('combobox'), 'SEPARADO');
    await user.type(await within(dialog).findByLabelText('Hasta (obligatorio)'), '20/03/2026');
    // The calendar closes as the focus leaves the field (the next click reaches the button).
    await user.tab();
    await user.click(within(dialog).getByRole('button', { name: /Guardar|Cambiar/ }));
    // The lot's new updated_at gives the history a new key: a fresh load with the change in it.
    await waitFor(() => expect(lotsApi.statusHistory).toHaveBeenCalledTimes(2));
    expect(lotsApi.statusHistory).toHaveBeenLastCalledWith(2, expect.anything());
    await user.clear(screen.getByLabelText('Buscar lote'));
    await user.type(screen.getByLabelText('Buscar lote'), 'a-1{Enter}');
    await screen.findByRole('region', { name: 'Lote MZ A - LT 1' });
    await waitFor(() => expect(lotsApi.statusHistory).toHaveBeenLastCalledWith(1, expect.anything()));
  });

  it('"Separar": customer by search, amount in soles, conditions accepted → the lot turns Separado on the map', async () => {
    const { view, machines, user, reservationsApi, customersApi } = setup({
      permissions: ['Acceso módulo comercial', 'Acceso submódulo ventas'],
    });
    view(<ProjectMapPage machines={machines} subdivisionKey="k1" />);
    await screen.findByRole('img', { name: 'Plano de Los Viñedos' });
    fireEvent.click(pathOf('1'));
    const panel = await screen.findByRole('region', { name: 'Lote MZ A - LT 1' });
    await user.click(within(panel).getByRole('button', { name: 'Separar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Separar lote MZ A - LT 1' });
    // Nothing chosen: every rule speaks on its field, nothing is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Separar' }));
    expect(await within(dialog).findByText('Debe aceptar las condiciones de la separación')).toBeTruthy();
    expect(within(dialog).getByText('Ingrese el monto')).toBeTruthy();
    expect(within(dialog).getByText('Seleccione el cliente')).toBeTruthy();
    await user.click(within(dialog).getByLabelText('Cliente'));
    // Type once the suggestions are open (Suggest settles its query as its popover opens: a key typed before is lost).
    await screen.findByRole('option', { name: 'Escriba para buscar' });
    await user.keyboard('quispe');
    await screen.findByRole('option', { name: /Rosa Quispe/ });
    await user.keyboard('{Enter}');
    expect(customersApi.list).toHaveBeenCalledWith(expect.objectContaining({ q: 'quispe', filters: { status: 'ACTIVO' } }));
    await user.type(within(dialog).getByLabelText('Monto de la separación'), '500.50');
    expect(within(dialog).getByText(/queda separado 7 días/)).toBeTruthy();
    await user.click(within(dialog).getByLabelText('El cliente leyó y acepta las condiciones'));
    await user.click(within(dialog).getByRole('button', { name: 'Separar' }));
    await waitFor(() =>
      expect(reservationsApi.create).toHaveBeenCalledWith({
        customer_id: 5,
        lot_id: 1,
        amount: 50_050,
        hold_days: 7,
        conditions_accepted: true,
      }),
    );
    await waitFor(() => expect(pathOf('1').getAttribute('fill')).toBe(LOT_STATUS_COLOR.SEPARADO));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Separar lote MZ A - LT 1' })).toBeNull());
  });

  it('"Cotizar": the simulation follows every change; saved with the customer, then marked as sent', async () => {
    const { view, machines, user, quotesApi, saveBlob } = setup({ permissions: ['Acceso módulo comercial', 'Acceso submódulo ventas'] });
    view(<ProjectMapPage machines={machines} subdivisionKey="k1" />);
    await screen.findByRole('img', { name: 'Plano de Los Viñedos' });
    fireEvent.click(pathOf('1'));
    const panel = await screen.findByRole('region', { name: 'Lote MZ A - LT 1' });
    await user.click(await within(panel).findByRole('button', { name: 'Cotizar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cotizar lote MZ A - LT 1' });
    // Defaults: 20 % down, 24 interest-free instalments from the 1st of next month.
    // Queried each time: the region is mounted again after a change that made no plan.
    const total = (label: string) =>
      within(within(dialog).getByRole('region', { name: 'Simulación' })).getByText(label).nextElementSibling?.textContent;
    expect(total('Cuota inicial')).toBe('S/ 6,000.00');
    expect(total('Saldo a financiar')).toBe('S/ 24,000.00');
    expect(within(dialog).getByRole('table', { name: 'Cronograma simulado' }).querySelectorAll('tbody tr')).toHaveLength(24);
    // Interest-free: TEA and TCEA 0.00 % (docs/domain.md "Credit cost: TEA and TCEA").
    expect(total('TEA')).toBe('0.00 %');
    expect(total('TCEA')).toBe('0.00 %');
    await user.selectOptions(within(dialog).getByLabelText('Método'), 'FRANCES');
    await user.clear(within(dialog).getByLabelText('Tasa mensual (%)'));
    await user.type(within(dialog).getByLabelText('Tasa mensual (%)'), '1.5');
    // PMT(1.5 %, 24, 24 000.00) = 1 198.18.
    expect(await within(dialog).findAllByText('S/ 1,198.18')).not.toHaveLength(0);
    // (1 + 1.5 %)^12 − 1 = 19.56 %; no charges, so the TCEA is the same.
    await waitFor(() => expect(total('TEA')).toBe('19.56 %'));
    expect(total('TCEA')).toBe('19.56 %');
    await user.clear(within(dialog).getByLabelText('Cuota inicial'));
    await user.type(within(dialog).getByLabelText('Cuota inicial'), '120');
    expect(await within(dialog).findByText('Porcentaje no válido (0 a 100)')).toBeTruthy();
    await user.clear(within(dialog).getByLabelText('Cuota inicial'));
    await user.type(within(dialog).getByLabelText('Cuota inicial'), '20');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cotización' }));
    expect(await within(dialog).findByText('Seleccione el cliente')).toBeTruthy();
    await user.click(within(dialog).getByLabelText('Cliente'));
    // Type once the suggestions are open (Suggest settles its query as its popover opens: a key typed before is lost).
    await screen.findByRole('option', { name: 'Escriba para buscar' });
    await user.keyboard('quispe');
    await screen.findByRole('option', { name: /Rosa Quispe/ });
    await user.keyboard('{Enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar cotización' }));
    await waitFor(() =>
      expect(quotesApi.create).toHaveBeenCalledWith({
        lot_id: 1,
        customer_id: 5,
        down_payment_percent: '20',
        down_payment_parts: 1,
        instalments: 24,
        monthly_rate_percent: '1.5',
        method: 'FRANCES',
        first_due_date: '2026-12-01',
        valid_days: 7,
      }),
    );
    expect(await within(dialog).findByText('Cotización COT-000007')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Marcar como enviada' }));
    await waitFor(() => expect(quotesApi.changeStatus).toHaveBeenCalledWith(7, { status: 'ENVIADA', version: 1 }));
    expect(await within(dialog).findByText('Enviada')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Descargar PDF' }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledWith(expect.any(Blob), 'COT-000007.pdf'));
    expect(quotesApi.pdf).toHaveBeenCalledWith(7);
  });

  it('hides "Cambiar estado" without the Proyectos permissions', async () => {
    const { view, machines } = setup({ permissions: ['Acceso módulo comercial'] });
    view(<ProjectMapPage machines={machines} subdivisionKey="k1" />);
    await screen.findByRole('img', { name: 'Plano de Los Viñedos' });
    fireEvent.click(pathOf('1'));
    const panel = await screen.findByRole('region', { name: 'Lote MZ A - LT 1' });
    await within(panel).findByText('Calle Los Pinos', { exact: false });
    expect(within(panel).queryByRole('button', { name: 'Cambiar estado' })).toBeNull();
    expect(within(panel).queryByRole('button', { name: 'Separar' })).toBeNull();
    expect(within(panel).queryByRole('button', { name: 'Cotizar' })).toBeNull();
    expect(within(panel).getByRole('button', { name: 'Ver en lista' })).toBeTruthy();
  });
});

describe('public and customer map', () => {
  it('shows only the public statuses, no price when the API sends none, and copies the link', async () => {
    const { view, machines, user, clipboard, toaster } = setup();
    view(<PublicLotMapView machines={machines} subdivisionKey="k1" />);
    await screen.findByRole('img', { name: 'Plano de Los Viñedos' });
    const legend = screen.getByRole('list', { name: 'Leyenda' });
    expect(within(legend).queryByText('Bloqueado')).toBeNull();
    expect(within(legend).queryByText('Reserva comercial')).toBeNull();
    expect(within(legend).queryByText('Canje')).toBeNull();
    expect(legendCount('Vendido')).toBe('1');
    fireEvent.mouseMove(pathOf('MZ B - LT 1'));
    const tip = await screen.findByRole('tooltip');
    expect(tip.textContent).toContain('Vendido');
    expect(tip.textContent).not.toMatch(/S\/|precio/i);
    fireEvent.click(pathOf('MZ A - LT 1'));
    const panel = await screen.findByRole('region', { name: 'Lote MZ A - LT 1' });
    expect(panel.textContent).not.toMatch(/S\/|Precio/);
    await user.click(screen.getByRole('button', { name: 'Copiar enlace' }));
    await waitFor(() => expect(clipboard).toHaveBeenCalledWith(`${window.location.origin}/mapa/los-vinedos/k1`));
    await waitFor(() => expect(toaster.show).toHaveBeenCalledWith(expect.objectContaining({ summary: 'Enlace copiado' })));
  });

  it('while loading draws exactly the frame the server draws at /mapa/… (map-skeleton), search and link disabled', () => {
    const { view, machines } = setup({ publicMap: () => new Promise<PublicLotMap>(() => undefined) });
    const { container } = view(
      <PublicMapFrame>
        <PublicLotMapView machines={machines} subdivisionKey="k1" />
      </PublicMapFrame>,
    );
    // Same elements, attributes and text; only InputGroup's measured padding (set after mount) differs.
    const server = document.createElement('div');
    server.innerHTML = renderToStaticMarkup(<PublicMapSkeleton />);
    container.querySelector('input')!.style.removeProperty('padding-right');
    expect(canonical(container)).toBe(canonical(server));
    expect(screen.getByRole('textbox', { name: 'Buscar lote' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Copiar enlace' }).hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Mapa de ventas');
  });

  it('says "Este mapa no está disponible" on a 404', async () => {
    const { view, machines } = setup({ publicMap: () => Promise.reject(new ApiError(404, 'No encontrado')) });
    view(<PublicLotMapView machines={machines} subdivisionKey="zz" />);
    expect(await screen.findByText('Este mapa no está disponible')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Copiar enlace' })).toBeNull();
  });
});

describe('sales and heat maps', () => {
  it("a sold lot's panel shows its buyer, agent, sale date and balance; a lot not sold shows none", async () => {
    const sold = { ...STAFF, lots: STAFF.lots.map((l) => (l.id === 2 || l.id === 3 ? { ...l, status: 'VENDIDO' as const } : l)) };
    const { view, machines, api } = setup({ staffMap: sold });
    view(<SalesMapPage machines={machines} subdivisionKey="k1" />);
    await screen.findByRole('img', { name: 'Plano de Los Viñedos' });
    fireEvent.click(pathOf('3'));
    const panel = await screen.findByRole('region', { name: 'Lote MZ B - LT 1' });
    const sale = await within(panel).findByRole('region', { name: 'Venta del lote' });
    expect(await within(sale).findByText('Rosa Quispe')).toBeTruthy();
    expect(within(sale).getByText('Lucía Quispe')).toBeTruthy();
    expect(within(sale).getByText('05/10/2026')).toBeTruthy();
    expect(within(sale).getByText('S/ 36,000.00')).toBeTruthy();
    expect(within(sale).getByText('V-000012 · En cuotas')).toBeTruthy();
    // Another sold lot without a sale on record says so.
    fireEvent.click(pathOf('2'));
    const other = await screen.findByRole('region', { name: 'Lote MZ A - LT 2' });
    expect(await within(other).findByText(SALE_NOT_REGISTERED)).toBeTruthy();
    // A lot not sold: no sale section, nothing asked.
    const calls = (api as { lot: { mock: { calls: unknown[] } } }).lot.mock.calls.length;
    fireEvent.click(pathOf('1'));
    const free = await screen.findByRole('region', { name: 'Lote MZ A - LT 1' });
    expect(within(free).queryByRole('region', { name: 'Venta del lote' })).toBeNull();
    expect(api.lot.mock.calls.length).toBe(calls);
  });

  it('the sales map offers "Cotizar" and "Separar" on a free lot to Comercial + Ventas, and nothing to others', async () => {
    const { view, machines } = setup({ permissions: ['Acceso módulo comercial', 'Acceso submódulo ventas'] });
    const { unmount } = view(<SalesMapPage machines={machines} subdivisionKey="k1" />);
    await screen.findByRole('img', { name: 'Plano de Los Viñedos' });
    fireEvent.click(pathOf('1'));
    const panel = await screen.findByRole('region', { name: 'Lote MZ A - LT 1' });
    expect(within(panel).getByRole('button', { name: 'Cotizar' })).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: 'Separar' }));
    expect(await screen.findByRole('dialog', { name: 'Separar lote MZ A - LT 1' })).toBeTruthy();
    unmount();
    const other = setup({ permissions: ['Acceso módulo proyectos', 'Acceso submódulo lotizaciones'] });
    other.view(<SalesMapPage machines={other.machines} subdivisionKey="k1" />);
    await screen.findByRole('img', { name: 'Plano de Los Viñedos' });
    fireEvent.click(pathOf('1'));
    const plain = await screen.findByRole('region', { name: 'Lote MZ A - LT 1' });
    expect(within(plain).queryByRole('button', { name: 'Separar' })).toBeNull();
    expect(within(plain).queryByRole('button', { name: 'Cotizar' })).toBeNull();
  });

  it('colours by price per m² with a continuous legend from min to max; the select offers the metrics, the title state disabled without titles access', async () => {
    const { view, machines } = setup();
    view(<HeatMapPage machines={machines} subdivisionKey="k1" />);
    await screen.findByRole('img', { name: 'Plano de Los Viñedos' });
    expect(screen.getByTestId('heat-min').textContent).toBe('S/ 250.00/m²');
    // The heat map links to Mapa de Pagos on the same subdivision.
    expect(screen.getByRole('link', { name: 'Mapa de pagos' }).getAttribute('href')).toBe('/COMERCIO/MapaVentas/Pagos?lotizacion=k1');
    expect(screen.getByTestId('heat-max').textContent).toBe('S/ 300.00/m²');
    expect(pathOf('1').getAttribute('fill')).toBe('#ffffb2');
    expect(pathOf('3').getAttribute('fill')).toBe('#bd0026');
    const options = within(screen.getByLabelText('Métrica')).getAllByRole('option') as HTMLOptionElement[];
    expect(options.map((o) => [o.value, o.textContent, o.disabled])).toEqual([
      ['PRICE_PER_M2', 'Precio por m²', false],
      ['SALE_DATE', 'Fecha de venta', false],
      ['DAYS_LATE', 'Días de atraso', false],
      ['TITLE_STATE', TITLE_STATE_NO_ACCESS, true],
    ]);
  });

  // docs/decisions.md "Heat map: title state".
  it('colours sold lots by their title state with a legend of states and counts; lots without a process in the neutral grey; the tooltip names the state', async () => {
    const sold = (id: number) => ({ ...STAFF.lots[id - 1]!, status: 'VENDIDO' as const });
    const staffMap: LotMap = { subdivision: SUB, lots: [sold(1), sold(2), sold(3), STAFF.lots[3]!] };
    let answer: (rows: LotTitleState[]) => void = () => {};
    const { view, machines, api } = setup({
      staffMap,
      permissions: [...SALES_MAP, ...TITLE_STATE_PERMISSIONS],
      titleStates: () => new Promise((resolve) => (answer = resolve)),
    });
    view(<HeatMapPage machines={machines} subdivisionKey="k1" />);
    await screen.findByRole('img', { name: 'Plano de Los Viñedos' });
    const select = screen.getByLabelText('Métrica');
    const option = within(select).getByRole('option', { name: 'Estado del título' }) as HTMLOptionElement;
    expect(option.disabled).toBe(false);
    // Nothing is asked before the metric is picked.
    expect(api.titleStates).not.toHaveBeenCalled();
    fireEvent.change(select, { target: { value: 'TITLE_STATE' } });
    expect(await screen.findByText('Cargando los estados del título…')).toBeTruthy();
    expect(api.titleStates).toHaveBeenCalledWith('k1');
    answer([
      { lot_id: 1, state: 'INSCRITO', state_since: '2026-10-01' },
      { lot_id: 2, state: 'OBSERVADO', state_since: '2026-10-02' },
    ]);
    const legend = await screen.findByRole('list', { name: 'Leyenda: estado del título' });
    const row = (state: string) => legend.querySelector(`[data-title-state="${state}"]`)!;
    expect([...legend.querySelectorAll('li span')].map((s) => s.textContent)).toEqual([
      'Pendiente',
      'Minuta firmada',
      'Escritura pública',
      'Presentado a SUNARP',
      'Observado',
      'Liquidado',
      'Tachado',
      'Inscrito',
      'Entregado',
      'Sin trámite o sin venta',
    ]);
    expect(row('INSCRITO').querySelector('strong')!.textContent).toBe('1');
    expect(row('OBSERVADO').querySelector('strong')!.textContent).toBe('1');
    expect(row('PENDIENTE').querySelector('strong')!.textContent).toBe('0');
    // Lot 3 sold without a process, lot 4 unsold (and not drawn: no polygon): both without a state.
    expect(row('NINGUNO').querySelector('strong')!.textContent).toBe('2');
    expect(pathOf('1').getAttribute('fill')).toBe(TITLE_STATE_COLOR.INSCRITO);
    expect(pathOf('2').getAttribute('fill')).toBe(TITLE_STATE_COLOR.OBSERVADO);
    expect(pathOf('3').getAttribute('fill')).toBe(HEAT_NO_DATA);
    fireEvent.mouseMove(pathOf('2'));
    expect((await screen.findByRole('tooltip')).textContent).toContain('Título: Observado');
    fireEvent.mouseMove(pathOf('3'));
    await waitFor(() => expect(screen.getByRole('tooltip').textContent).toContain('Sin trámite de título'));
    // Back to a continuous metric and to the title state again: read once.
    fireEvent.change(select, { target: { value: 'PRICE_PER_M2' } });
    await waitFor(() => expect(screen.getByTestId('heat-min').textContent).toBe('S/ 250.00/m²'));
    fireEvent.change(select, { target: { value: 'TITLE_STATE' } });
    await screen.findByRole('list', { name: 'Leyenda: estado del título' });
    expect(api.titleStates).toHaveBeenCalledTimes(1);
  });

  it('a failed read of the title states says so and retries on "Reintentar"', async () => {
    let fail = true;
    const { view, machines, api } = setup({
      permissions: [...SALES_MAP, ...TITLE_STATE_PERMISSIONS],
      titleStates: () =>
        fail ? Promise.reject(new Error('Sin conexión')) : Promise.resolve([{ lot_id: 1, state: 'ENTREGADO', state_since: '' }]),
    });
    view(<HeatMapPage machines={machines} subdivisionKey="k1" />);
    await screen.findByRole('img', { name: 'Plano de Los Viñedos' });
    fireEvent.change(screen.getByLabelText('Métrica'), { target: { value: 'TITLE_STATE' } });
    expect(await screen.findByText('No se pudieron cargar los estados del título')).toBeTruthy();
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Reintentar' }));
    const legend = await screen.findByRole('list', { name: 'Leyenda: estado del título' });
    expect(legend.querySelector('[data-title-state="ENTREGADO"] strong')!.textContent).toBe('1');
    expect(api.titleStates).toHaveBeenCalledTimes(2);
  });

  it('without titles access the title state cannot be picked and is never asked', async () => {
    const { view, machines, api } = setup({ permissions: SALES_MAP });
    view(<HeatMapPage machines={machines} subdivisionKey="k1" />);
    await screen.findByRole('img', { name: 'Plano de Los Viñedos' });
    const select = screen.getByLabelText('Métrica') as HTMLSelectElement;
    // Even a forced change (the option is disabled) keeps the metric.
    fireEvent.change(select, { target: { value: 'TITLE_STATE' } });
    await waitFor(() => expect(screen.getByTestId('heat-min').textContent).toBe('S/ 250.00/m²'));
    expect(select.value).toBe('PRICE_PER_M2');
    expect(api.titleStates).not.toHaveBeenCalled();
  });

  it('colours sold lots by sale date (legend dd/mm/yy) and by days late (legend in days); lots without a sale in the "no data" grey', async () => {
    const sold = (id: number, sale_date: string, days_late: number) => ({
      ...STAFF.lots[id - 1]!,
      status: 'VENDIDO' as const,
      sale_date,
      days_late,
    });
    const staffMap: LotMap = {
      subdivision: SUB,
      lots: [sold(1, '2025-01-15', 0), sold(2, '2026-03-02', 45), { ...STAFF.lots[2]!, sale_date: null, days_late: null }, STAFF.lots[3]!],
    };
    const { view, machines } = setup({ staffMap });
    view(<HeatMapPage machines={machines} subdivisionKey="k1" />);
    await screen.findByRole('img', { name: 'Plano de Los Viñedos' });
    const select = screen.getByLabelText('Métrica');
    fireEvent.change(select, { target: { value: 'SALE_DATE' } });
    const legend = screen.getByLabelText('Leyenda');
    await waitFor(() => expect(within(legend).getByText('Fecha de venta')).toBeTruthy());
    expect(screen.getByTestId('heat-min').textContent).toBe('15/01/2025');
    expect(screen.getByTestId('heat-max').textContent).toBe('02/03/2026');
    expect(pathOf('1').getAttribute('fill')).toBe('#ffffb2');
    expect(pathOf('2').getAttribute('fill')).toBe('#bd0026');
    expect(pathOf('3').getAttribute('fill')).toBe('#d1d5db');
    expect(within(legend).getByText('Sin venta')).toBeTruthy();

    fireEvent.change(select, { target: { value: 'DAYS_LATE' } });
    await waitFor(() => expect(within(screen.getByLabelText('Leyenda')).getByText('Días de atraso')).toBeTruthy());
    expect(screen.getByTestId('heat-min').textContent).toBe('0 días');
    expect(screen.getByTestId('heat-max').textContent).toBe('45 días');
    expect(pathOf('1').getAttribute('fill')).toBe('#ffffb2');
    expect(pathOf('2').getAttribute('fill')).toBe('#bd0026');
    expect(pathOf('3').getAttribute('fill')).toBe('#d1d5db');
  });
});
