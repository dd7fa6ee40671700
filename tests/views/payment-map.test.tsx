/**
 * Mapa de Pagos (/COMERCIO/MapaVentas/Pagos, issue 16) over its real machines with fake apis: the
 * subdivision select kept in the address, lots coloured per payment bucket with the legend's counts,
 * the summary table, the lot panel with the sale's payment facts and its link, empty and failure states.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import { createActor, createMachine } from 'xstate';
import { ApiError } from '../../src/api/client';
import { createMapsMachines } from '../../src/machines/mapas/maps.actors';
import { HEAT_NO_DATA, PAYMENT_BUCKET_COLOR } from '../../src/machines/mapas/map-geometry';
import { ServicesProvider, type ViewServices } from '../../src/views/services';
import { PaymentMapPage } from '../../src/views/mapas/PaymentMapPage';
import { PAYMENT_BUCKETS, type PaymentMap } from '../../src/schemas/comercio/payment-map';
import type { LotMap } from '../../src/schemas/proyectos/projects';
import type { SubdivisionOption } from '../../src/schemas/proyectos/subdivision-options';

const square = (x: number, y: number): [number, number][] => [
  [x, y],
  [x + 8, y],
  [x + 8, y + 15],
  [x, y + 15],
];
const staffMap = (key: string, name: string): LotMap => ({
  subdivision: {
    key,
    code: 'LV-01',
    name,
    currency: 'PEN',
    coordinate_system: 'PLAN',
    plan_url: null,
    plan_width: null,
    plan_height: null,
    bounds: [0, 0, 32, 15],
  },
  lots: [1, 2, 3, 4].map((id) => ({
    id,
    code: `MZ A - LT ${id}`,
    block: 'A',
    number: String(id),
    area_m2: 120,
    price_per_m2: 25_000,
    list_price: 3_000_000,
    status: id === 4 ? ('DISPONIBLE' as const) : ('VENDIDO' as const),
    polygon: square((id - 1) * 8, 0),
  })),
});
const summary = (rows: Partial<Record<(typeof PAYMENT_BUCKETS)[number], [number, number, number]>>) =>
  PAYMENT_BUCKETS.map((bucket) => {
    const [lots, overdue, balance] = rows[bucket] ?? [0, 0, 0];
    return { bucket, lots, overdue, balance };
  });
const PAYMENTS: PaymentMap = {
  subdivision: { key: 'k2', name: 'Los Viñedos', currency: 'PEN', grace_days: 3 },
  today: '2026-11-22',
  lots: [
    {
      lot_id: 1,
      sale_id: 11,
      sale_number: 'V-000011',
      buyer: 'Ana Torres',
      bucket: 'AL_DIA',
      days_late: 0,
      overdue: 0,
      balance: 2_000_000,
      next_due_date: '2026-12-15',
    },
    {
      lot_id: 2,
      sale_id: 12,
      sale_number: 'V-000012',
      buyer: 'Rosa Quispe, Luis Rojas',
      bucket: 'D31_60',
      days_late: 45,
      overdue: 250_000,
      balance: 1_500_000,
      next_due_date: '2026-10-01',
    },
    {
      lot_id: 3,
      sale_id: 13,
      sale_number: 'V-000013',
      buyer: 'Carla Díaz',
      bucket: 'CANCELADO',
      days_late: 0,
      overdue: 0,
      balance: 0,
      next_due_date: null,
    },
  ],
  summary: summary({ AL_DIA: [1, 0, 2_000_000], D31_60: [1, 250_000, 1_500_000], CANCELADO: [1, 0, 0] }),
};
const OPTIONS: SubdivisionOption[] = [
  { id: 1, key: 'k1', name: 'Alameda' },
  { id: 2, key: 'k2', name: 'Los Viñedos' },
  { id: 3, name: 'Sin clave (servidor antiguo)' },
];

function setup(opts: { options?: () => Promise<SubdivisionOption[]> } = {}) {
  const api = {
    staffMap: vi.fn((key: string) => Promise.resolve(staffMap(key, key === 'k1' ? 'Alameda' : 'Los Viñedos'))),
    publicMap: vi.fn(),
    planBlob: vi.fn(() => Promise.resolve(new Blob())),
    lot: vi.fn(),
  };
  const paymentMapApi = {
    get: vi.fn((key: string) =>
      Promise.resolve(
        key === 'k2' ? PAYMENTS : { ...PAYMENTS, subdivision: { ...PAYMENTS.subdivision, key }, lots: [], summary: summary({}) },
      ),
    ),
  };
  const subdivisionOptions = vi.fn(opts.options ?? (() => Promise.resolve(OPTIONS)));
  const syncPaymentMapUrl = vi.fn();
  const reportApiError = vi.fn();
  const machines = createMapsMachines({
    api: api as never,
    lotsApi: {} as never,
    customersApi: {} as never,
    reservationsApi: {} as never,
    quotesApi: {} as never,
    salesApi: {} as never,
    paymentMapApi,
    subdivisionOptions,
    syncPaymentMapUrl,
    reportApiError,
    toaster: { show: vi.fn() },
  });
  const session = createActor(createMachine({ context: { permissions: ['Acceso módulo comercial', 'Acceso submódulo ventas'] } })).start();
  const services = {
    session,
    machines: {},
    navigate: vi.fn(),
    toaster: { show: vi.fn() },
    today: () => '2026-11-22',
  } as unknown as ViewServices;
  render(
    <ServicesProvider value={services}>
      <OverlaysProvider>
        <PaymentMapPage machines={machines} />
      </OverlaysProvider>
    </ServicesProvider>,
  );
  return { api, paymentMapApi, subdivisionOptions, syncPaymentMapUrl, reportApiError, user: userEvent.setup() };
}

const pathOf = (key: string) => document.querySelector(`.lot-map__lots > path[data-key="${key}"]`) as SVGPathElement;

describe('Mapa de Pagos', () => {
  beforeEach(() => window.history.replaceState(null, '', '/COMERCIO/MapaVentas/Pagos?lotizacion=k2'));
  afterEach(() => window.history.replaceState(null, '', '/'));

  it('opens the subdivision of the address, colours sold lots by bucket with the legend counts and sums per bucket', async () => {
    const { api, paymentMapApi, syncPaymentMapUrl } = setup();
    await screen.findByRole('img', { name: 'Plano de Los Viñedos' });
    expect(api.staffMap).toHaveBeenCalledWith('k2');
    expect(paymentMapApi.get).toHaveBeenCalledWith('k2');
    expect(syncPaymentMapUrl).toHaveBeenCalledWith('k2');
    // The select offers the subdivisions with a key.
    const select = screen.getByLabelText('Lotización') as HTMLSelectElement;
    expect(select.value).toBe('k2');
    expect([...select.options].map((o) => o.textContent)).toEqual(['Alameda', 'Los Viñedos']);

    expect(pathOf('1').getAttribute('fill')).toBe(PAYMENT_BUCKET_COLOR.AL_DIA);
    expect(pathOf('2').getAttribute('fill')).toBe(PAYMENT_BUCKET_COLOR.D31_60);
    expect(pathOf('3').getAttribute('fill')).toBe(PAYMENT_BUCKET_COLOR.CANCELADO);
    expect(pathOf('4').getAttribute('fill')).toBe(HEAT_NO_DATA);

    const legend = screen.getByRole('list', { name: 'Leyenda' });
    const count = (bucket: string) => legend.querySelector(`[data-bucket="${bucket}"] strong`)?.textContent;
    expect(PAYMENT_BUCKETS.map(count)).toEqual(['1', '0', '0', '1', '0', '0', '1']);
    expect(count('SIN_VENTA')).toBe('1');

    const table = screen.getByRole('table', { name: 'Resumen por estado de pago' });
    const row = (bucket: string) =>
      [...(table.querySelector(`tr[data-bucket="${bucket}"]`)?.querySelectorAll('th, td') ?? [])].map((c) => c.textContent);
    expect(row('D31_60')).toEqual(['31–60 días de atraso', '1', 'S/ 2,500.00', 'S/ 15,000.00']);
    expect(row('VENCE_7')).toEqual(['Vence en ≤ 7 días', '0', 'S/ 0.00', 'S/ 0.00']);
    expect([...table.querySelectorAll('tfoot th, tfoot td')].map((c) => c.textContent)).toEqual([
      'Total vendidos',
      '3',
      'S/ 2,500.00',
      'S/ 35,000.00',
    ]);
  });

  it('shows a lot’s sale: number, buyer, bucket, days late, overdue amount, balance and a link to the sale', async () => {
    setup();
    await screen.findByRole('img', { name: 'Plano de Los Viñedos' });
    fireEvent.click(pathOf('2'));
    const panel = await screen.findByRole('region', { name: 'Lote MZ A - LT 2' });
    const sale = within(panel).getByRole('region', { name: 'Pagos de la venta' });
    const facts = [...sale.querySelectorAll('dt')].map((dt) => [dt.textContent, dt.nextElementSibling?.textContent]);
    expect(facts).toEqual([
      ['Venta', 'V-000012'],
      ['Comprador', 'Rosa Quispe, Luis Rojas'],
      ['Estado de pago', '31–60 días de atraso'],
      ['Días de atraso', '45 días'],
      ['Monto vencido', 'S/ 2,500.00'],
      ['Saldo', 'S/ 15,000.00'],
      ['Cuota pendiente más antigua', '01/10/2026'],
    ]);
    expect(within(sale).getByRole('link', { name: 'Ver venta V-000012' }).getAttribute('href')).toBe('/COMERCIO/Contrato/12');
    // An unsold lot has no sale section.
    fireEvent.click(pathOf('4'));
    const other = await screen.findByRole('region', { name: 'Lote MZ A - LT 4' });
    expect(within(other).queryByRole('region', { name: 'Pagos de la venta' })).toBeNull();
  });

  it('falls back to the first subdivision for an unknown key and reloads the map when another is chosen', async () => {
    window.history.replaceState(null, '', '/COMERCIO/MapaVentas/Pagos?lotizacion=zzz');
    const { api, paymentMapApi, syncPaymentMapUrl, user } = setup();
    await screen.findByRole('img', { name: 'Plano de Alameda' });
    expect(syncPaymentMapUrl).toHaveBeenLastCalledWith('k1');
    await user.selectOptions(screen.getByLabelText('Lotización'), 'k2');
    await screen.findByRole('img', { name: 'Plano de Los Viñedos' });
    expect(api.staffMap.mock.calls.map((c) => c[0])).toEqual(['k1', 'k2']);
    expect(paymentMapApi.get.mock.calls.map((c) => c[0])).toEqual(['k1', 'k2']);
    expect(syncPaymentMapUrl).toHaveBeenLastCalledWith('k2');
    expect(pathOf('2').getAttribute('fill')).toBe(PAYMENT_BUCKET_COLOR.D31_60);
  });

  it('says when there is no subdivision, and offers a retry when the subdivisions cannot be read', async () => {
    setup({ options: () => Promise.resolve([]) });
    expect(await screen.findByText('No hay lotizaciones')).toBeTruthy();
    document.body.innerHTML = '';

    let fail = true;
    const { subdivisionOptions, reportApiError, user } = setup({
      options: () => (fail ? Promise.reject(new ApiError(500, 'Error del servidor')) : Promise.resolve(OPTIONS)),
    });
    expect(await screen.findByText('No se pudieron cargar las lotizaciones')).toBeTruthy();
    // A 500 is the page's to show; only session errors (401/402/404) go to the session.
    expect(reportApiError).not.toHaveBeenCalled();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Reintentar' }));
    await screen.findByRole('img', { name: 'Plano de Los Viñedos' });
    await waitFor(() => expect(subdivisionOptions).toHaveBeenCalledTimes(2));
  });
});
