/**
 * Comercial → Contrato (issue "CRM and sales"): the stepper over its real machines
 * (createContractMachines) with fake api calls — the reservation's customer as titular, the spouse
 * proposed, the reservation credited, the schedule edited row by row with the sums kept exact (the
 * step says by how much they are off), the POST body, the registered sale read back, a 409 shown;
 * the selling agent ("Asesor": proposed, chosen only with 'Supervisar leads') and the plan taken
 * from the buyer's quote (docs/domain.md "Sales").
 */
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import { createActor, createMachine } from 'xstate';
import { ApiError } from '../../src/api/client';
import type { Sale } from '../../src/schemas/comercio/sales';
import type { Reservation } from '../../src/schemas/comercio/reservations';
import type { Quote } from '../../src/schemas/comercio/quotes';
import { ACTION, MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { createContractMachines } from '../../src/machines/comercio/contract.actors';
import { ContractPage } from '../../src/views/comercio/ContractPage';
import { ServicesProvider, type ViewServices } from '../../src/views/services';

const when = '2026-11-20T15:00:00Z';
const lot = { id: 11, code: 'MZ B - LT 4', area_m2: 120, currency: 'PEN', list_price: 3_000_000, status: 'SEPARADO' };
const reservation: Reservation = {
  id: 8,
  number: 'SEP-000008',
  customer: { id: 1, display_name: 'Carlos Mendoza', document_number: '45454545' },
  lot: { id: 11, code: 'MZ B - LT 4', subdivision_name: 'Los Viñedos' },
  agent: null,
  amount: 50_000,
  currency: 'PEN',
  hold_days: 7,
  expires_at: '2026-11-29T15:00:00.000Z',
  status: 'VIGENTE',
  cancel_reason: null,
  conditions_accepted_at: when,
  created_at: when,
  updated_at: when,
  version: 1,
};
const sale = {
  id: 3,
  number: 'V-000003',
  sale_date: '2026-11-22',
  type: 'FINANCIADO',
  lot: { id: 11, code: 'MZ B - LT 4', subdivision_name: 'Los Viñedos', area_m2: 120 },
  holders: [{ id: 1, display_name: 'Carlos Mendoza', document_number: '45454545', role: 'TITULAR', share_percent: '100.00' }],
  guarantor: null,
  agent: null,
  reservation_id: 8,
  currency: 'PEN',
  list_price: 3_000_000,
  discount: 0,
  final_price: 3_000_000,
  down_payment: 600_000,
  reservation_credit: 50_000,
  financed: 2_400_000,
  instalments: 24,
  monthly_rate_percent: '0',
  method: 'SIN_INTERES',
  total_interest: 0,
  paid: 50_000,
  balance: 2_950_000,
  status: 'REGISTRADA',
  annul_reason: null,
  schedule: [
    {
      kind: 'INICIAL',
      number: 1,
      due_date: '2026-11-22',
      amount: 600_000,
      capital: 600_000,
      interest: 0,
      paid: 50_000,
      status: 'PARCIAL',
      late_fee_accrued: 0,
      late_fee_paid: 0,
      late_fee_waived: 0,
    },
    {
      kind: 'CUOTA',
      number: 1,
      due_date: '2026-12-01',
      amount: 100_000,
      capital: 100_000,
      interest: 0,
      paid: 0,
      status: 'PENDIENTE',
      late_fee_accrued: 0,
      late_fee_paid: 0,
      late_fee_waived: 0,
    },
  ],
  created_at: when,
  updated_at: when,
  version: 1,
} satisfies Sale;

/** A quote of the lot for Carlos Mendoza: 5 % off, 20 % down, 36 FRANCES instalments at 1.5 %. */
const quote: Quote = {
  id: 12,
  number: 'COT-000012',
  lot: { id: 11, code: 'MZ B - LT 4', subdivision_name: 'Los Viñedos', area_m2: 120 },
  customer: { id: 1, display_name: 'Carlos Mendoza', document_number: '45454545' },
  agent: null,
  currency: 'PEN',
  list_price: 3_000_000,
  discount: 150_000,
  discount_percent: '5',
  final_price: 2_850_000,
  down_payment: 570_000,
  down_payment_percent: '20',
  down_payment_parts: 1,
  financed: 2_280_000,
  instalments: 36,
  monthly_rate_percent: '1.5',
  method: 'FRANCES',
  first_due_date: '2026-12-15',
  quote_date: '2026-11-18',
  valid_until: '2026-11-25',
  status: 'BORRADOR',
  sale: null,
  down_payment_schedule: [],
  schedule: [],
  total_interest: 0,
  total_to_pay: 0,
  created_at: when,
  updated_at: when,
  version: 1,
};
const seller = { id: 7, name: 'Lucía', surname: 'Torres' };
const other = { id: 9, name: 'Marco', surname: 'Díaz' };

function setup({
  saleId = null as number | null,
  create = vi.fn(async (_body: unknown): Promise<Sale> => sale),
  live = reservation as Reservation,
  quotes = [] as Quote[],
  permissions = [MODULE.comercial, SUBMODULE.ventas] as string[],
} = {}) {
  const customers: Record<number, object> = {
    1: {
      id: 1,
      display_name: 'Carlos Mendoza',
      document_number: '45454545',
      marital_status: 'CASADO',
      spouse: { id: 2, display_name: 'Rosa Quispe' },
    },
    2: { id: 2, display_name: 'Rosa Quispe', document_number: '41234567', marital_status: 'CASADO', spouse: null },
  };
  const deps = {
    salesApi: { get: vi.fn(async () => sale), create, proposedAgent: vi.fn(async () => ({ agent: seller, source: 'RESERVA' })) },
    reservationsApi: { list: vi.fn(async () => ({ data: [live], meta: { page: 1, per_page: 20, total: 1 } })) },
    quotesApi: { list: vi.fn(async () => ({ data: quotes, meta: { page: 1, per_page: 100, total: quotes.length } })) },
    customersApi: {
      list: vi.fn(async () => ({ data: [], meta: { page: 1, per_page: 10, total: 0 } })),
      get: vi.fn(async (id: number) => customers[id]),
      staffOptions: vi.fn(async () => ({ data: [seller, other], meta: { page: 1, per_page: 100, total: 2 } })),
    },
    lotsApi: { get: vi.fn(async () => lot) },
    reportApiError: vi.fn(),
    toaster: { show: vi.fn() },
    navigate: vi.fn(),
  };
  const machines = createContractMachines(deps as never);
  const session = createActor(createMachine({ context: { permissions } })).start();
  const services = {
    session,
    machines: {},
    navigate: vi.fn(),
    toaster: deps.toaster,
    today: () => '2026-11-22',
  } as unknown as ViewServices;
  const view = (node: ReactNode) =>
    render(
      <ServicesProvider value={services}>
        <OverlaysProvider>{node}</OverlaysProvider>
      </ServicesProvider>,
    );
  view(<ContractPage machines={machines} saleId={saleId} lotId={saleId === null ? 11 : null} />);
  return { deps, user: userEvent.setup() };
}

describe('ContractPage', () => {
  it('a reservation whose payment is not approved yet is not credited: the sale waits (docs/domain.md "Sales")', async () => {
    const { deps, user } = setup({ live: { ...reservation, status: 'PENDIENTE_PAGO' } });
    expect(await screen.findByRole('heading', { name: 'Nueva venta · lote MZ B - LT 4' })).toBeTruthy();
    await user.click(await screen.findByRole('button', { name: 'Siguiente' }));
    expect(await screen.findByText(/su pago de S\/ 500.00 aún no está aprobado/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', expect.stringContaining('aún no tiene su pago aprobado'));
    expect(screen.queryByRole('group', { name: 'Plan de pago' })).toBeNull();
    expect(deps.salesApi.create).not.toHaveBeenCalled();
  });

  it('sells a reserved lot: titular from the reservation, spouse proposed, credit shown, a schedule that does not add up refused until exact', async () => {
    const { deps, user } = setup();
    expect(await screen.findByRole('heading', { name: 'Nueva venta · lote MZ B - LT 4' })).toBeTruthy();
    const buyers = screen.getByRole('table', { name: 'Compradores' });
    expect(within(buyers).getByText('Carlos Mendoza')).toBeTruthy();
    // Married: the spouse is proposed as Cónyuge; adding her splits the shares.
    await user.click(await screen.findByRole('button', { name: 'Agregar cónyuge' }));
    expect(within(buyers).getByText('Rosa Quispe')).toBeTruthy();
    expect((screen.getByLabelText('Participación de Carlos Mendoza') as HTMLInputElement).value).toBe('50');
    expect((screen.getByLabelText('Rol de Rosa Quispe') as HTMLSelectElement).value).toBe('CONYUGE');

    await user.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(
      await screen.findByText(/Separación SEP-000008 de Carlos Mendoza: S\/ 500.00 \(pago aprobado\) se abonan a la cuota inicial/),
    ).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Siguiente' }));

    // Plan: 20 % down, 24 instalments of S/ 1,000.00; one row S/ 10.00 too high.
    const amount = await screen.findByLabelText('Monto de Cuota 1');
    expect((amount as HTMLInputElement).value).toBe('1000.00');
    await user.clear(amount);
    await user.type(amount, '1010.00');
    expect(await screen.findByText('La suma de las cuotas excede en S/ 10.00 al total de S/ 24,000.00')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(screen.getByRole('group', { name: 'Plan de pago' })).toBeTruthy();
    // Take the S/ 10.00 off the next row: exact again, and the edited schedule is sent.
    const next = screen.getByLabelText('Monto de Cuota 2');
    await user.clear(next);
    await user.type(next, '990.00');
    await waitFor(() => expect(screen.queryByText(/La suma de las cuotas/)).toBeNull());
    // The plan's credit cost, of the rows as typed: interest-free, 0.00 % (docs/domain.md "Credit cost: TEA and TCEA").
    expect(screen.getByText('TEA').nextElementSibling?.textContent).toBe('0.00 %');
    expect(screen.getByText('TCEA').nextElementSibling?.textContent).toBe('0.00 %');
    await user.click(screen.getByRole('button', { name: 'Siguiente' }));

    const review = await screen.findByRole('group', { name: 'Revisión' });
    expect(within(review).getByText('Rosa Quispe (50 %)')).toBeTruthy();
    expect(within(review).getByText(/24 cuotas · Sin interés · 0 % mensual · cronograma editado/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Confirmar venta' }));
    await waitFor(() => expect(deps.salesApi.create).toHaveBeenCalledTimes(1));
    const body = deps.salesApi.create.mock.calls[0]![0] as Record<string, unknown> & { schedule: { amount: number }[] };
    expect(body).toMatchObject({
      lot_id: 11,
      reservation_id: 8,
      holders: [
        { customer_id: 1, role: 'TITULAR', share_percent: '50' },
        { customer_id: 2, role: 'CONYUGE', share_percent: '50' },
      ],
      down_payment_percent: '20',
      instalments: 24,
      first_due_date: '2026-12-01',
    });
    expect(body.schedule).toHaveLength(25);
    expect(body.schedule.slice(0, 3).map((r) => r.amount)).toEqual([600_000, 101_000, 99_000]);
    await waitFor(() => expect(deps.navigate).toHaveBeenCalledWith('/COMERCIO/Contrato/3'));
    expect(deps.toaster.show).toHaveBeenCalledWith(expect.objectContaining({ summary: 'Venta registrada' }));
  });

  it('does not leave the buyers without a titular, nor sell without the customer who holds the reservation', async () => {
    const { deps, user } = setup();
    await screen.findByRole('table', { name: 'Compradores' });
    await user.click(screen.getByRole('button', { name: 'Quitar a Carlos Mendoza' }));
    await user.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(await screen.findByText('Indique al menos un comprador')).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: /Revisión/ }));
    expect(screen.getByRole('group', { name: 'Compradores' })).toBeTruthy();
    expect(deps.salesApi.create).not.toHaveBeenCalled();
  });

  it("shows the server's refusal (the lot sold meanwhile) on the review step", async () => {
    const create = vi.fn(async () => {
      throw new ApiError(409, 'El lote ya no está disponible', {});
    });
    const { user } = setup({ create });
    await screen.findByRole('table', { name: 'Compradores' });
    await user.click(screen.getByRole('tab', { name: /Revisión/ }));
    await user.click(await screen.findByRole('button', { name: 'Confirmar venta' }));
    expect(await screen.findByText('El lote ya no está disponible')).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Revisión' })).toBeTruthy();
  });

  it("shows the proposed agent read-only to a plain seller and does not send it; the plan starts from the buyer's quote, editable", async () => {
    const { deps, user } = setup({ quotes: [quote] });
    await screen.findByRole('table', { name: 'Compradores' });
    const agent = (await screen.findByLabelText('Asesor')) as HTMLInputElement;
    await waitFor(() => expect(agent.value).toBe('Lucía Torres'));
    expect(agent.readOnly).toBe(true);
    expect(screen.getByText('Propuesto: asesor de la separación')).toBeTruthy();
    expect(deps.salesApi.proposedAgent).toHaveBeenCalledWith(11, [1]);

    await user.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(await screen.findByText('Plan tomado de la cotización COT-000012 del 18/11/2026; puede cambiarlo.')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect((await screen.findByLabelText('Cuotas mensuales')).getAttribute('value') ?? '').toBe('36');
    expect((screen.getByLabelText('Tasa mensual (%)') as HTMLInputElement).value).toBe('1.5');
    await user.click(screen.getByRole('tab', { name: /Revisión/ }));
    const review = await screen.findByRole('group', { name: 'Revisión' });
    expect(within(review).getByText('Lucía Torres')).toBeTruthy();
    expect(within(review).getByText('COT-000012')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Confirmar venta' }));
    await waitFor(() => expect(deps.salesApi.create).toHaveBeenCalledTimes(1));
    const body = deps.salesApi.create.mock.calls[0]![0] as Record<string, unknown>;
    expect(body).toMatchObject({
      quote_id: 12,
      discount_percent: '5',
      down_payment_percent: '20',
      instalments: 36,
      monthly_rate_percent: '1.5',
      method: 'FRANCES',
      first_due_date: '2026-12-15',
    });
    expect(body).not.toHaveProperty('agent_id');
  });

  it("lets a user with 'Supervisar leads' credit the sale to another agent", async () => {
    const { deps, user } = setup({ permissions: [MODULE.comercial, SUBMODULE.ventas, SUBMODULE.leads, ACTION.supervisarLeads] });
    await screen.findByRole('table', { name: 'Compradores' });
    const agent = (await screen.findByLabelText('Asesor')) as HTMLSelectElement;
    await waitFor(() => expect(agent.value).toBe('7'));
    await user.selectOptions(agent, '9');
    expect(screen.getByText('Elegido por usted')).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: /Revisión/ }));
    await user.click(await screen.findByRole('button', { name: 'Confirmar venta' }));
    await waitFor(() => expect(deps.salesApi.create).toHaveBeenCalledTimes(1));
    expect(deps.salesApi.create.mock.calls[0]![0]).toMatchObject({ agent_id: 9 });
    expect(deps.customersApi.staffOptions).toHaveBeenCalled();
  });

  it('reads a registered sale back with its schedule', async () => {
    setup({ saleId: 3 });
    expect(await screen.findByRole('heading', { name: 'Venta V-000003' })).toBeTruthy();
    const schedule = screen.getByRole('table', { name: 'Cronograma de la venta' });
    expect(within(schedule).getByText('Inicial 1')).toBeTruthy();
    expect(screen.getByText('S/ 29,500.00')).toBeTruthy();
  });
});
