/**
 * Comercial → Ventas (issue "CRM and sales"): the page over its real machines (createSalesMachines)
 * with fake api calls: the list with its money columns and filters, a sale's drawer with its
 * schedule, and "Anular" asking the reason first.
 */
import {
  LATE_FEE_CHOICE_LABELS,
  RESCISSION_MESSAGES,
  SALE_DOCUMENT_MESSAGES,
  type ReschedulePreview,
  type SaleRescission,
  type SaleSchedule,
} from '../../src/schemas/comercio/rescissions';
import { ACTION } from '../../src/schemas/permissions';
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import { createActor, createMachine } from 'xstate';
import type { SalesApi } from '../../src/api/comercio/sales';
import { ApiError } from '../../src/api/client';
import type { Sale } from '../../src/schemas/comercio/sales';
import type { Reservation } from '../../src/schemas/comercio/reservations';
import type { Quote } from '../../src/schemas/comercio/quotes';
import { createSalesMachines } from '../../src/machines/comercio/sales.actors';
import { SalesPage } from '../../src/views/comercio/SalesPage';
import { ServicesProvider, type ViewServices } from '../../src/views/services';

const when = '2026-11-20T15:00:00Z';
const sale: Sale = {
  id: 3,
  number: 'V-000003',
  sale_date: '2026-11-20',
  type: 'FINANCIADO',
  lot: { id: 9, code: 'MZ A - LT 9', subdivision_name: 'Los Viñedos', area_m2: 120 },
  holders: [
    { id: 1, display_name: 'Carlos Mendoza', document_number: '45454545', role: 'TITULAR', share_percent: '50.00' },
    { id: 2, display_name: 'Rosa Quispe', document_number: '41234567', role: 'CONYUGE', share_percent: '50.00' },
  ],
  guarantor: null,
  agent: { id: 7, name: 'Lucía', surname: 'Quispe' },
  reservation_id: null,
  currency: 'PEN',
  list_price: 3_000_000,
  discount: 0,
  final_price: 3_000_000,
  down_payment: 600_000,
  reservation_credit: 50_000,
  financed: 2_400_000,
  instalments: 2,
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
      due_date: '2026-11-20',
      amount: 600_000,
      capital: 600_000,
      interest: 0,
      paid: 50_000,
      status: 'VENCIDA',
      late_fee_accrued: 2_000,
      late_fee_paid: 500,
      late_fee_waived: 0,
    },
    {
      kind: 'CUOTA',
      number: 1,
      due_date: '2026-12-20',
      amount: 1_200_000,
      capital: 1_200_000,
      interest: 0,
      paid: 0,
      status: 'PENDIENTE',
      late_fee_accrued: 0,
      late_fee_paid: 0,
      late_fee_waived: 0,
    },
    {
      kind: 'CUOTA',
      number: 2,
      due_date: '2027-01-20',
      amount: 1_200_000,
      capital: 1_200_000,
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
  version: 4,
};

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
  status: 'PENDIENTE_PAGO',
  cancel_reason: null,
  conditions_accepted_at: when,
  created_at: when,
  updated_at: when,
  version: 1,
};

const draft = {
  id: 12,
  number: 'COT-000012',
  lot: { id: 9, code: 'MZ A - LT 9', subdivision_name: 'Los Viñedos', area_m2: 120 },
  customer: { id: 2, display_name: 'Rosa Quispe', document_number: '41234567' },
  agent: null,
  currency: 'PEN',
  list_price: 3_000_000,
  discount: 300_000,
  final_price: 2_700_000,
  down_payment: 500_000,
  down_payment_parts: 1,
  financed: 2_200_000,
  instalments: 24,
  monthly_rate_percent: '1.5',
  method: 'FRANCES',
  first_due_date: '2026-12-20',
  valid_until: '2026-11-27',
  status: 'BORRADOR',
  down_payment_schedule: [],
  schedule: [],
  total_interest: 0,
  total_to_pay: 0,
  created_at: when,
  updated_at: when,
  version: 2,
} satisfies Quote;
const sent: Quote = { ...draft, id: 13, number: 'COT-000013', status: 'ENVIADA' };
const accepted: Quote = { ...draft, id: 14, number: 'COT-000014', status: 'ACEPTADA' };

/** A sale that may not be resolved (GET sales/{id}/rescission). */
const notResolvable: SaleRescission = {
  sale_id: 3,
  number: 'V-000003',
  status: 'EN_CUOTAS',
  currency: 'PEN',
  allowed: false,
  reasons: ['La venta no tiene suficientes cuotas vencidas e impagas para resolver el contrato (0 de 3, art. 1561)'],
  as_of: '2026-03-02',
  required_overdue: 3,
  overdue_instalments: 0,
  instalments: [],
  unpaid_amount: 0,
  final_price: 0,
  paid: 0,
  paid_to_price: 0,
  paid_share_percent: '0.00',
  paid_share_limit_pct: null,
  penalty_pct: 10,
  penalty: 0,
  refund: 0,
};
const noReschedule: ReschedulePreview = {
  sale_id: 3,
  currency: 'PEN',
  allowed: false,
  reasons: [],
  as_of: '2026-03-02',
  balance: 0,
  late_fees: 0,
  financed: null,
  total_interest: null,
  total: null,
  rows: [],
  open_rows: [],
};

/**
 * @param permissions what the session holds ('Resolver contratos', 'Reprogramar ventas'…).
 * @param contractsOfSale the sale's contracts for the drawer (left out: none shown).
 */
function setup(
  overrides: Partial<SalesApi> = {},
  permissions: string[] = [],
  contractsOfSale?: (saleId: number) => Promise<{ id: number; number: string | null; state: string }[]>,
) {
  const quotesApi = {
    list: vi.fn(async () => ({ data: [draft, sent, accepted], meta: { page: 1, per_page: 20, total: 3 } })),
    changeStatus: vi.fn(async (id: number, body: { status: string }) => ({
      ...draft,
      id,
      status: body.status as Quote['status'],
      version: 3,
    })),
    pdf: vi.fn(async () => new Blob(['%PDF-1.4'], { type: 'application/pdf' })),
  };
  const saveBlob = vi.fn();
  const reservationsApi = {
    list: vi.fn(async () => ({ data: [reservation], meta: { page: 1, per_page: 20, total: 1 } })),
    cancel: vi.fn(async () => ({ ...reservation, status: 'ANULADA' as const, version: 2 })),
  };
  const api: SalesApi = {
    list: vi.fn(async () => ({ data: [sale], meta: { page: 1, per_page: 20, total: 1 } })),
    get: vi.fn(async () => sale),
    create: vi.fn(),
    proposedAgent: vi.fn(async () => ({ agent: null, source: 'USUARIO' as const })),
    annul: vi.fn(async () => ({ ...sale, status: 'ANULADA' as const, annul_reason: 'Desistimiento', version: 5 })),
    annulment: vi.fn(async () => ({ sale_id: 3, currency: 'PEN' as const, paid: 0, credit_targets: [] })),
    rescission: vi.fn(async () => notResolvable),
    rescind: vi.fn(async () => ({ ...sale, status: 'RESUELTA' as const, version: 6 })),
    reschedulePreview: vi.fn(async () => ({ ...noReschedule })),
    reschedule: vi.fn(async () => ({ ...sale, version: 6 })),
    schedules: vi.fn(async () => []),
    document: vi.fn(async () => new Blob(['%PDF-1.4'], { type: 'application/pdf' })),
    ...overrides,
  };
  const toaster = { show: vi.fn() };
  const machines = createSalesMachines({
    salesApi: api,
    reservationsApi,
    quotesApi,
    saveBlob,
    subdivisionOptions: async () => [{ id: 1, name: 'Los Viñedos' }],
    ...(contractsOfSale ? { contractsOfSale } : {}),
    reportApiError: vi.fn(),
    toaster,
  });
  const session = createActor(createMachine({ context: { permissions } })).start();
  const services = { session, machines: {}, navigate: vi.fn(), toaster, today: () => '2026-11-22' } as unknown as ViewServices;
  const view = (node: ReactNode) =>
    render(
      <ServicesProvider value={services}>
        <OverlaysProvider>{node}</OverlaysProvider>
      </ServicesProvider>,
    );
  view(<SalesPage machines={machines} />);
  return { api, reservationsApi, quotesApi, saveBlob, toaster, user: userEvent.setup() };
}

describe('SalesPage', () => {
  beforeEach(() => window.history.replaceState(null, '', '/COMERCIO/ventas'));

  it('lists the sales with buyer, lot, amounts and status; filters by status', async () => {
    const { api, user } = setup();
    const table = await screen.findByRole('table', { name: 'Ventas' });
    const row = (await within(table).findByText('V-000003')).closest('tr')!;
    expect(within(row).getByText('Carlos Mendoza')).toBeTruthy();
    expect(within(row).getByText('MZ A - LT 9')).toBeTruthy();
    expect(within(row).getByText('S/ 30,000.00')).toBeTruthy();
    expect(within(row).getByText('S/ 29,500.00')).toBeTruthy();
    expect(within(row).getByText('Registrada')).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Estado'), 'EN_CUOTAS');
    await waitFor(() => expect(api.list).toHaveBeenLastCalledWith(expect.objectContaining({ filters: { status: 'EN_CUOTAS' } })));
  });

  it('opens a sale with its buyers and schedule, and annuls it only with a reason', async () => {
    const { api, user, toaster } = setup();
    const table = await screen.findByRole('table', { name: 'Ventas' });
    const row = (await within(table).findByText('V-000003')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: /Acciones/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Ver' }));
    const drawer = await screen.findByRole('dialog', { name: 'Venta V-000003' });
    expect(await within(drawer).findByText('Rosa Quispe (50.00 %)')).toBeTruthy();
    const schedule = within(drawer).getByRole('table', { name: 'Cronograma de la venta' });
    expect(within(schedule).getByText('Inicial 1')).toBeTruthy();
    // The overdue down payment shows its state and the late fee still owed (accrued S/ 20.00 − paid S/ 5.00).
    const overdue = within(schedule).getByText('Inicial 1').closest('tr')!;
    expect(within(overdue).getByText('Vencida')).toBeTruthy();
    expect(within(overdue).getByText('S/ 15.00')).toBeTruthy();
    // The credit's cost: interest-free, TEA and TCEA 0.00 % (docs/domain.md "Credit cost: TEA and TCEA").
    expect(within(drawer).getByText('TEA').nextElementSibling?.textContent).toBe('0.00 %');
    expect(within(drawer).getByText('TCEA').nextElementSibling?.textContent).toBe('0.00 %');
    await user.click(within(drawer).getByRole('button', { name: 'Anular venta' }));
    const alert = await screen.findByRole('alertdialog');
    await user.click(within(alert).getByRole('button', { name: 'Anular venta' }));
    expect(await within(alert).findByText('Indique el motivo de la anulación')).toBeTruthy();
    expect(api.annul).not.toHaveBeenCalled();
    await user.type(within(alert).getByLabelText('Motivo de la anulación'), 'Desistimiento');
    await user.click(within(alert).getByRole('button', { name: 'Anular venta' }));
    await waitFor(() => expect(api.annul).toHaveBeenCalledWith(3, { reason: 'Desistimiento', version: 4 }));
    await waitFor(() => expect(toaster.show).toHaveBeenCalledWith(expect.objectContaining({ summary: 'Venta anulada' })));
    await waitFor(() => expect(api.list).toHaveBeenCalledTimes(2));
  });

  it("an annulled sale's drawer shows what was paid and where the money went", async () => {
    const annulled: Sale = {
      ...sale,
      status: 'ANULADA',
      annul_reason: 'Desistimiento',
      settlement: {
        mode: 'CREDITO',
        paid: 700_000,
        penalty: 50_000,
        refund: 0,
        credited: 650_000,
        target_sale: { id: 8, number: 'V-000008' },
      },
    };
    const { user } = setup({
      list: vi.fn(async () => ({ data: [annulled], meta: { page: 1, per_page: 20, total: 1 } })),
      get: vi.fn(async () => annulled),
    });
    const table = await screen.findByRole('table', { name: 'Ventas' });
    const row = (await within(table).findByText('V-000003')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: /Acciones/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Ver' }));
    const drawer = await screen.findByRole('dialog', { name: 'Venta V-000003' });
    expect(await within(drawer).findByText('Pagado S/ 7,000.00 · Acreditado a V-000008: S/ 6,500.00 · Penalidad S/ 500.00')).toBeTruthy();
  });

  it('a resolved and rescheduled sale\'s drawer downloads the letter of resolution and the adenda; a pending one says why (docs/domain.md "Rescission and rescheduling: their documents")', async () => {
    const resolved: Sale = {
      ...sale,
      status: 'RESUELTA',
      rescission: {
        overdue_instalments: 3,
        required_overdue: 3,
        paid: 1_000_000,
        penalty_pct: 10,
        penalty: 100_000,
        refund: 900_000,
        reason: 'Incumplimiento de pago',
        approved_by: 'Ana Torres',
        created_at: when,
        letter: { contract_id: 41, number: 'C-2026-000041', state: 'EMITIDO', download_path: '/api/sales/3/rescission/letter' },
        letter_pending: null,
      },
      adenda: {
        reschedule_id: 5,
        schedule_number: 2,
        document: { contract_id: 40, number: 'C-2026-000040', state: 'EMITIDO', download_path: '/api/sales/3/reschedules/5/adenda' },
        document_pending: null,
      },
    };
    const { api, saveBlob, toaster, user } = setup({
      list: vi.fn(async () => ({ data: [resolved], meta: { page: 1, per_page: 20, total: 1 } })),
      get: vi.fn(async () => resolved),
    });
    const table = await screen.findByRole('table', { name: 'Ventas' });
    const row = (await within(table).findByText('V-000003')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: /Acciones/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Ver' }));
    const drawer = await screen.findByRole('dialog', { name: 'Venta V-000003' });
    await user.click(await within(drawer).findByRole('button', { name: 'Descargar carta de resolución' }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledWith(expect.any(Blob), 'carta-resolucion-V-000003.pdf'));
    expect(api.document).toHaveBeenCalledWith('/api/sales/3/rescission/letter');
    expect(within(drawer).getByText('C-2026-000041')).toBeTruthy();
    await user.click(within(drawer).getByRole('button', { name: 'Descargar adenda' }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledWith(expect.any(Blob), 'adenda-V-000003-2.pdf'));
    expect(api.document).toHaveBeenLastCalledWith('/api/sales/3/reschedules/5/adenda');
    // A failed download says so.
    vi.mocked(api.document).mockRejectedValueOnce(new ApiError(404, SALE_DOCUMENT_MESSAGES.letterNotIssued));
    await user.click(within(drawer).getByRole('button', { name: 'Descargar carta de resolución' }));
    await waitFor(() =>
      expect(toaster.show).toHaveBeenCalledWith(
        expect.objectContaining({
          severity: 'error',
          summary: 'No se pudo descargar el documento',
          detail: SALE_DOCUMENT_MESSAGES.letterNotIssued,
        }),
      ),
    );
  });

  it('a resolved sale whose subdivision has no letter template: no download, the Spanish notice', async () => {
    const pending: Sale = {
      ...sale,
      status: 'RESUELTA',
      rescission: {
        overdue_instalments: 3,
        required_overdue: 3,
        paid: 0,
        penalty_pct: 10,
        penalty: 0,
        refund: 0,
        reason: 'Incumplimiento de pago',
        approved_by: null,
        created_at: when,
        letter: null,
        letter_pending: SALE_DOCUMENT_MESSAGES.letterPending,
      },
    };
    const { user } = setup({
      list: vi.fn(async () => ({ data: [pending], meta: { page: 1, per_page: 20, total: 1 } })),
      get: vi.fn(async () => pending),
    });
    const table = await screen.findByRole('table', { name: 'Ventas' });
    const row = (await within(table).findByText('V-000003')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: /Acciones/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Ver' }));
    const drawer = await screen.findByRole('dialog', { name: 'Venta V-000003' });
    expect(await within(drawer).findByText(SALE_DOCUMENT_MESSAGES.letterPending)).toBeTruthy();
    expect(within(drawer).queryByRole('button', { name: 'Descargar carta de resolución' })).toBeNull();
    expect(within(drawer).queryByRole('button', { name: 'Descargar adenda' })).toBeNull();
  });

  it('annulling a sale with money paid shows "Pagado" and requires the decision: refund less a penalty, or credit to another sale', async () => {
    const annulment = vi.fn(async () => ({
      sale_id: 3,
      currency: 'PEN' as const,
      paid: 700_000,
      credit_targets: [{ id: 8, number: 'V-000008', lot_code: 'MZ B - LT 2', subdivision_name: 'Los Viñedos', debt: 3_000_000 }],
    }));
    const { api, user } = setup({ annulment });
    const table = await screen.findByRole('table', { name: 'Ventas' });
    const row = (await within(table).findByText('V-000003')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: /Acciones/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Anular' }));
    const alert = await screen.findByRole('alertdialog');
    expect((await within(alert).findByTestId('annul-paid')).textContent).toBe('S/ 7,000.00');
    expect(within(alert).getByText('Pagado:')).toBeTruthy();
    expect(annulment).toHaveBeenCalledWith(3);
    await user.type(within(alert).getByLabelText('Motivo de la anulación'), 'Desistimiento');
    // Refund (the default): penalty S/ 700.00 → Monto a devolver S/ 6,300.00.
    const penalty = within(alert).getByLabelText('Penalidad');
    await user.clear(penalty);
    await user.type(penalty, '7000.01');
    await user.click(within(alert).getByRole('button', { name: 'Anular venta' }));
    expect(await within(alert).findByText('La penalidad no puede superar lo pagado')).toBeTruthy();
    await user.clear(penalty);
    await user.type(penalty, '700');
    expect(within(alert).getByText('Monto a devolver:')).toBeTruthy();
    expect(within(alert).getByTestId('annul-net').textContent).toBe('S/ 6,300.00');
    // Credit: the target is required, then chosen among the customer's other live sales.
    await user.click(within(alert).getByLabelText('Acreditar a otra venta'));
    expect(within(alert).getByText('Monto a acreditar:')).toBeTruthy();
    await user.click(within(alert).getByRole('button', { name: 'Anular venta' }));
    expect(await within(alert).findByText('Seleccione la venta a la que se acredita')).toBeTruthy();
    expect(api.annul).not.toHaveBeenCalled();
    await user.selectOptions(within(alert).getByLabelText('Venta destino'), '8');
    await user.click(within(alert).getByRole('button', { name: 'Anular venta' }));
    await waitFor(() =>
      expect(api.annul).toHaveBeenCalledWith(3, {
        reason: 'Desistimiento',
        version: 4,
        settlement: { mode: 'CREDITO', penalty: 70_000, target_sale_id: 8 },
      }),
    );
  });

  it('the Separaciones tab lists the reservations and annuls a live one with its reason', async () => {
    const { reservationsApi, user, toaster } = setup();
    await screen.findByRole('table', { name: 'Ventas' });
    await user.click(screen.getByRole('tab', { name: 'Separaciones' }));
    const table = await screen.findByRole('table', { name: 'Separaciones' });
    const row = (await within(table).findByText('SEP-000008')).closest('tr')!;
    expect(within(row).getByText('S/ 500.00')).toBeTruthy();
    expect(within(row).getByText('29/11/2026 10:00')).toBeTruthy();
    await user.click(within(row).getByRole('button', { name: /Acciones/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Anular' }));
    const alert = await screen.findByRole('alertdialog');
    // The closing menu hands the focus back to "Acciones": type once it is gone, or keys land there.
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    await user.type(within(alert).getByLabelText('Motivo de la anulación'), 'El cliente desistió');
    await user.click(within(alert).getByRole('button', { name: 'Anular separación' }));
    await waitFor(() => expect(reservationsApi.cancel).toHaveBeenCalledWith(8, { reason: 'El cliente desistió', version: 1 }));
    await waitFor(() => expect(toaster.show).toHaveBeenCalledWith(expect.objectContaining({ summary: 'Separación anulada' })));
    await waitFor(() => expect(reservationsApi.list).toHaveBeenCalledTimes(2));
  });

  it('the Cotizaciones tab lists the quotes with price, validity and status, filtered by estado and lotización', async () => {
    const { quotesApi, user } = setup();
    await screen.findByRole('table', { name: 'Ventas' });
    await user.click(screen.getByRole('tab', { name: 'Cotizaciones' }));
    const table = await screen.findByRole('table', { name: 'Cotizaciones' });
    const row = (await within(table).findByText('COT-000012')).closest('tr')!;
    expect(within(row).getByText('Rosa Quispe')).toBeTruthy();
    expect(within(row).getByText('MZ A - LT 9')).toBeTruthy();
    expect(within(row).getByText('S/ 27,000.00')).toBeTruthy();
    expect(within(row).getByText('27/11/2026')).toBeTruthy();
    expect(within(row).getByText('Borrador')).toBeTruthy();
    expect(within(table).getByText('Enviada')).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Estado'), 'ENVIADA');
    await waitFor(() => expect(quotesApi.list).toHaveBeenLastCalledWith(expect.objectContaining({ filters: { status: 'ENVIADA' } })));
    await user.selectOptions(await screen.findByLabelText('Lotización'), await screen.findByRole('option', { name: 'Los Viñedos' }));
    await waitFor(() =>
      expect(quotesApi.list).toHaveBeenLastCalledWith(expect.objectContaining({ filters: { status: 'ENVIADA', subdivision_id: '1' } })),
    );
  });

  it("downloads a quote's PDF as COT-….pdf; marks a draft as sent and annuls one, each asked first with the version read", async () => {
    const { quotesApi, saveBlob, user, toaster } = setup();
    await screen.findByRole('table', { name: 'Ventas' });
    await user.click(screen.getByRole('tab', { name: 'Cotizaciones' }));
    const table = await screen.findByRole('table', { name: 'Cotizaciones' });
    const rowOf = async (number: string) => (await within(table).findByText(number)).closest('tr')!;
    const menuOf = async (number: string) => {
      await user.click(within(await rowOf(number)).getByRole('button', { name: /Acciones/ }));
      return screen.findByRole('menu');
    };

    let menu = await menuOf('COT-000012');
    await user.click(within(menu).getByRole('menuitem', { name: 'Descargar PDF' }));
    await waitFor(() => expect(saveBlob).toHaveBeenCalledWith(expect.any(Blob), 'COT-000012.pdf'));
    expect(quotesApi.pdf).toHaveBeenCalledWith(12);

    menu = await menuOf('COT-000012');
    await user.click(within(menu).getByRole('menuitem', { name: 'Marcar como enviada' }));
    let alert = await screen.findByRole('alertdialog');
    expect(within(alert).getByText(/¿Marcar la cotización COT-000012 de Rosa Quispe/)).toBeTruthy();
    await user.click(within(alert).getByRole('button', { name: 'Marcar como enviada' }));
    await waitFor(() => expect(quotesApi.changeStatus).toHaveBeenCalledWith(12, { status: 'ENVIADA', version: 2 }));
    await waitFor(() => expect(toaster.show).toHaveBeenCalledWith(expect.objectContaining({ summary: 'Cotización marcada como enviada' })));
    await waitFor(() => expect(quotesApi.list).toHaveBeenCalledTimes(2));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    // A sent quote: no "Marcar como enviada", but "Anular".
    menu = await menuOf('COT-000013');
    expect(within(menu).queryByRole('menuitem', { name: 'Marcar como enviada' })).toBeNull();
    await user.click(within(menu).getByRole('menuitem', { name: 'Anular' }));
    alert = await screen.findByRole('alertdialog');
    await user.click(within(alert).getByRole('button', { name: 'Anular cotización' }));
    await waitFor(() => expect(quotesApi.changeStatus).toHaveBeenCalledWith(13, { status: 'ANULADA', version: 2 }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    // An accepted quote can only be downloaded.
    menu = await menuOf('COT-000014');
    expect(
      within(menu)
        .getAllByRole('menuitem')
        .map((m) => m.textContent),
    ).toEqual(['Descargar PDF']);
  });

  it('a failed PDF says so', async () => {
    // ?vista=cotizaciones opens the tab.
    window.history.replaceState(null, '', '/COMERCIO/ventas?vista=cotizaciones');
    const { quotesApi, toaster, user } = setup();
    quotesApi.pdf.mockRejectedValueOnce(new ApiError(500, 'No se pudo generar el PDF'));
    const table = await screen.findByRole('table', { name: 'Cotizaciones' });
    const row = (await within(table).findByText('COT-000012')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: /Acciones/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Descargar PDF' }));
    await waitFor(() =>
      expect(toaster.show).toHaveBeenCalledWith(
        expect.objectContaining({ severity: 'error', summary: 'No se pudo descargar el PDF', detail: 'No se pudo generar el PDF' }),
      ),
    );
  });
});

/** Opens V-000003's drawer from the Ventas table. */
async function openSale(user: ReturnType<typeof userEvent.setup>) {
  const table = await screen.findByRole('table', { name: 'Ventas' });
  const row = (await within(table).findByText('V-000003')).closest('tr')!;
  await user.click(within(row).getByRole('button', { name: /Acciones/ }));
  await user.click(await screen.findByRole('menuitem', { name: 'Ver' }));
  return screen.findByRole('dialog', { name: 'Venta V-000003' });
}

/** A sale that may be resolved: two overdue instalments, S/ 7,000.00 paid, a 10 % penalty. */
const resolvable: SaleRescission = {
  ...notResolvable,
  allowed: true,
  reasons: [],
  required_overdue: 2,
  overdue_instalments: 2,
  instalments: [
    { kind: 'CUOTA', number: 1, due_date: '2026-09-20', amount: 1_200_000, paid: 0, unpaid: 1_200_000, days_late: 63, overdue: true },
    { kind: 'CUOTA', number: 2, due_date: '2026-10-20', amount: 1_200_000, paid: 200_000, unpaid: 1_000_000, days_late: 33, overdue: true },
  ],
  unpaid_amount: 2_200_000,
  final_price: 3_000_000,
  paid: 700_000,
  paid_to_price: 700_000,
  paid_share_percent: '23.33',
  penalty_pct: 10,
  penalty: 70_000,
  refund: 630_000,
  version: 4,
};

/** The reschedule dialog's "Primera cuota" once its date field has loaded (a disabled box stands in until then). */
async function firstDueField(dialog: HTMLElement): Promise<HTMLElement> {
  await waitFor(() => expect(within(dialog).getByLabelText('Primera cuota').hasAttribute('disabled')).toBe(false));
  return within(dialog).getByLabelText('Primera cuota');
}

function rescheduleSetup() {
  const inInstalments: Sale = { ...sale, status: 'EN_CUOTAS' };
  const owed: ReschedulePreview = { ...noReschedule, allowed: true, balance: 2_400_000, late_fees: 1_500, version: 4 };
  const reschedulePreview = vi.fn(async () => owed);
  const view = setup(
    {
      list: vi.fn(async () => ({ data: [inInstalments], meta: { page: 1, per_page: 20, total: 1 } })),
      get: vi.fn(async () => inInstalments),
      reschedulePreview,
    },
    [ACTION.reprogramarVentas],
  );
  return view;
}

describe('SalesPage: the drawer\'s "Resolver contrato" and "Reprogramar" (docs/domain.md "Rescission", "Rescheduling (adenda)")', () => {
  beforeEach(() => window.history.replaceState(null, '', '/COMERCIO/ventas'));

  it('"Resolver contrato" shows the unpaid instalments, what was paid, the penalty (at most the subdivision\'s percent) and the refund', async () => {
    const { user } = setup({ rescission: vi.fn(async () => resolvable) }, [ACTION.resolverContratos]);
    const drawer = await openSale(user);
    await user.click(await within(drawer).findByRole('button', { name: 'Resolver contrato' }));
    const dialog = await screen.findByRole('alertdialog');
    const unpaid = await within(dialog).findByRole('table', { name: 'Cuotas impagas' });
    expect(within(unpaid).getAllByRole('row')).toHaveLength(3);
    expect(within(unpaid).getByText('S/ 10,000.00')).toBeTruthy();
    expect(within(dialog).getByTestId('rescind-count').textContent).toContain('2 (la lotización exige 2');
    expect(within(dialog).getByTestId('rescind-paid').textContent).toBe('S/ 7,000.00');
    const penalty = within(dialog).getByLabelText(/Penalidad \(hasta 10 %/);
    expect((penalty as HTMLInputElement).value).toBe('700.00');
    expect(within(dialog).getByTestId('rescind-refund').textContent).toBe('S/ 6,300.00');
  });

  it('"Resolver contrato" refuses a penalty over the subdivision\'s percent and sends the penalty and refund the user saw', async () => {
    const { api, user } = setup({ rescission: vi.fn(async () => resolvable) }, [ACTION.resolverContratos]);
    const drawer = await openSale(user);
    await user.click(await within(drawer).findByRole('button', { name: 'Resolver contrato' }));
    const dialog = await screen.findByRole('alertdialog');
    await within(dialog).findByRole('table', { name: 'Cuotas impagas' });
    const penalty = within(dialog).getByLabelText(/Penalidad \(hasta 10 %/);
    await user.clear(penalty);
    await user.paste('800');
    await user.click(within(dialog).getByLabelText('Motivo de la resolución'));
    await user.paste('Falta de pago de dos cuotas');
    await user.click(within(dialog).getByRole('button', { name: 'Resolver contrato' }));
    expect(await within(dialog).findByText(`${RESCISSION_MESSAGES.penaltyTooHigh} (10 %)`)).toBeTruthy();
    expect(api.rescind).not.toHaveBeenCalled();

    await user.clear(penalty);
    await user.paste('500');
    expect(within(dialog).getByTestId('rescind-refund').textContent).toBe('S/ 6,500.00');
    await user.click(within(dialog).getByRole('button', { name: 'Resolver contrato' }));
    await waitFor(() =>
      expect(api.rescind).toHaveBeenCalledWith(3, { reason: 'Falta de pago de dos cuotas', version: 4, penalty: 50_000, refund: 650_000 }),
    );
  });

  it("a refused rescission shows the server's Spanish message and stays open", async () => {
    const refusal = new ApiError(409, RESCISSION_MESSAGES.paidChanged);
    const { api, user } = setup({ rescission: vi.fn(async () => resolvable), rescind: vi.fn(async () => Promise.reject(refusal)) }, [
      ACTION.resolverContratos,
    ]);
    const drawer = await openSale(user);
    await user.click(await within(drawer).findByRole('button', { name: 'Resolver contrato' }));
    const dialog = await screen.findByRole('alertdialog');
    await within(dialog).findByRole('table', { name: 'Cuotas impagas' });
    await user.click(within(dialog).getByLabelText('Motivo de la resolución'));
    await user.paste('Falta de pago');
    await user.click(within(dialog).getByRole('button', { name: 'Resolver contrato' }));
    expect(await within(dialog).findByText(RESCISSION_MESSAGES.paidChanged)).toBeTruthy();
    expect(api.rescind).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('alertdialog')).toBe(dialog);
  });

  it('"Reprogramar" shows the balance and the late fees owed, carried unless the user waives them: the choice is what the server gets', async () => {
    const { api, user } = rescheduleSetup();
    const drawer = await openSale(user);
    await user.click(await within(drawer).findByRole('button', { name: 'Reprogramar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reprogramar la venta V-000003' });
    expect((await within(dialog).findByTestId('reschedule-balance')).textContent).toBe('S/ 24,000.00');
    expect(within(dialog).getByTestId('reschedule-fees').textContent).toBe('S/ 15.00');
    await user.type(await firstDueField(dialog), '20/04/2026');
    await user.click(within(dialog).getByLabelText('Motivo de la reprogramación'));
    await user.paste('Pérdida de empleo');
    // Carried by default, and the new schedule is previewed carrying them…
    expect((within(dialog).getByLabelText(LATE_FEE_CHOICE_LABELS.CARRY) as HTMLInputElement).checked).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Ver nuevo cronograma' }));
    await waitFor(() => expect(api.reschedulePreview).toHaveBeenLastCalledWith(3, expect.objectContaining({ late_fees: 'CARRY' })));
    expect(api.reschedulePreview).toHaveBeenLastCalledWith(3, expect.objectContaining({ first_due_date: '2026-04-20' }));
    // …the user may waive them: the preview and the adenda then say WAIVE.
    await user.click(within(dialog).getByLabelText(LATE_FEE_CHOICE_LABELS.WAIVE));
    expect((within(dialog).getByLabelText(LATE_FEE_CHOICE_LABELS.WAIVE) as HTMLInputElement).checked).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Ver nuevo cronograma' }));
    await waitFor(() => expect(api.reschedulePreview).toHaveBeenLastCalledWith(3, expect.objectContaining({ late_fees: 'WAIVE' })));
    await user.click(within(dialog).getByRole('button', { name: 'Reprogramar' }));
    await waitFor(() => expect(api.reschedule).toHaveBeenCalledTimes(1));
    expect(api.reschedule).toHaveBeenCalledWith(3, {
      method: 'SIN_INTERES',
      instalments: 12,
      monthly_rate_percent: '0',
      first_due_date: '2026-04-20',
      late_fees: 'WAIVE',
      reason: 'Pérdida de empleo',
      version: 4,
    });
  });

  it('"Reprogramar" with the late fees left carried sends CARRY', async () => {
    const { api, user } = rescheduleSetup();
    const drawer = await openSale(user);
    await user.click(await within(drawer).findByRole('button', { name: 'Reprogramar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reprogramar la venta V-000003' });
    await within(dialog).findByTestId('reschedule-fees');
    await user.type(await firstDueField(dialog), '20/04/2026');
    await user.click(within(dialog).getByLabelText('Motivo de la reprogramación'));
    await user.paste('Pérdida de empleo');
    await user.click(within(dialog).getByRole('button', { name: 'Reprogramar' }));
    await waitFor(() => expect(api.reschedule).toHaveBeenCalledTimes(1));
    expect(api.reschedule).toHaveBeenCalledWith(3, expect.objectContaining({ late_fees: 'CARRY', first_due_date: '2026-04-20' }));
  });

  it("the drawer shows the sale's contract with its state and the superseded schedules, read-only, beside the current one", async () => {
    const current: SaleSchedule = { number: 2, current: true, superseded_at: null, replaced_by: null, rows: sale.schedule };
    const old: SaleSchedule = {
      number: 1,
      current: false,
      superseded_at: '2026-10-05T15:00:00.000Z',
      replaced_by: {
        id: 1,
        schedule_number: 2,
        balance: 2_400_000,
        late_fee_mode: 'WAIVE',
        late_fee_amount: 0,
        financed: 2_400_000,
        method: 'SIN_INTERES',
        instalments: 2,
        monthly_rate_percent: '0',
        first_due_date: '2026-12-20',
        total_interest: 0,
        total: 2_400_000,
        document: null,
        document_pending: null,
        reason: 'Pérdida de empleo',
        created_by: 'Ana Torres',
        created_at: '2026-10-05T15:00:00.000Z',
      },
      rows: [{ ...sale.schedule[1]!, due_date: '2026-10-20', amount: 2_400_000 }],
    };
    const contractsOfSale = vi.fn(async () => [{ id: 21, number: 'CV-000021', state: 'EMITIDO' }]);
    const { api, user } = setup({ schedules: vi.fn(async () => [current, old]) }, [], contractsOfSale);
    const drawer = await openSale(user);
    expect((await within(drawer).findByTestId('sale-contract')).textContent).toBe('CV-000021 · Emitido');
    expect(contractsOfSale).toHaveBeenCalledWith(3);
    expect(api.schedules).toHaveBeenCalledWith(3);
    expect(within(drawer).getByRole('table', { name: 'Cronograma de la venta' })).toBeTruthy();
    const older = within(drawer).getByRole('region', { name: 'Cronogramas anteriores' });
    expect(within(older).getByText(/Cronograma 1 · reemplazado el 05\/10\/2026 por la adenda: Pérdida de empleo/)).toBeTruthy();
    const table = within(older).getByRole('table', { name: 'Cronograma 1 (reemplazado)', hidden: true });
    expect(within(table).getByText('S/ 24,000.00')).toBeTruthy();
    expect(within(older).queryByRole('button')).toBeNull();
  });
});
