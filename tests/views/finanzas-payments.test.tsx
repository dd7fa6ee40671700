/**
 * /FINANZAS/Pagos (PaymentsPage) over its real machines (createPaymentsMachines) with fake api calls:
 * the queue with its filters in the query, a payment's drawer with its voucher images (zoomed on
 * click), "Aprobar" showing the allocation preview before applying it (and a 409's message with the
 * preview read again), "Rechazar" and "Anular" only with a reason, "Recibo" as a PDF, "Registrar pago"
 * (sale search, amount in soles → céntimos, the destination the method needs, the voucher images
 * uploaded after the payment; a 422 under its field) and the refresh on a PAYMENT notification.
 */
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import { assign, createActor, createMachine, setup as xsetup } from 'xstate';
import { ApiError } from '../../src/api/client';
import type { PaymentsApi } from '../../src/api/finanzas/payments';
import { createPaymentsMachines, type PaymentsMachinesDeps } from '../../src/machines/finanzas/payments.actors';
import { PaymentsPage } from '../../src/views/finanzas/PaymentsPage';
import { ServicesProvider, type ViewServices } from '../../src/views/services';
import { PAYMENT_MESSAGES, type Payment } from '../../src/schemas/finanzas/payments';
import type { Sale } from '../../src/schemas/comercio/sales';
import type { BankAccount } from '../../src/schemas/finanzas/bank-accounts';
import type { Wallet } from '../../src/schemas/finanzas/wallets';
import type { ListQuery } from '../../src/schemas/list';

const when = '2026-11-20T15:00:00Z';
const PENDING: Payment = {
  id: 21,
  receipt_number: null,
  status: 'PENDIENTE',
  source: 'PORTAL',
  sale: { id: 3, number: 'V-000003', lot_code: 'MZ A - LT 9', subdivision_name: 'Los Viñedos' },
  reservation: null,
  customer: { id: 1, display_name: 'Carlos Mendoza', document_number: '45454545' },
  amount: 125_050,
  currency: 'PEN',
  method: 'YAPE',
  destination: { kind: 'WALLET', id: 7, label: 'Yape 987 654 321' },
  operation_number: 'OP-778899',
  operation_date: '2026-11-19',
  note: null,
  vouchers: [
    { id: 31, content_type: 'image/png', size: 1200, url: '/api/payments/21/vouchers/31' },
    { id: 32, content_type: 'image/jpeg', size: 2200, url: '/api/payments/21/vouchers/32' },
  ],
  registered_by: 'Carlos Mendoza',
  reviewed_by: null,
  reviewed_at: null,
  reject_reason: null,
  annul_reason: null,
  allocations: [],
  allocation_preview: null,
  preview_error: null,
  late_fee_changes: [],
  credited_sale: null,
  self_approval: null,
  created_at: when,
  updated_at: when,
  version: 1,
};
const PREVIEW = [
  { instalment_id: 101, kind: 'CUOTA', number: 3, due_date: '2026-10-20', to_late_fee: 2_550, to_capital: 100_000 },
  { instalment_id: 102, kind: 'CUOTA', number: 4, due_date: '2026-11-20', to_late_fee: 0, to_capital: 22_500 },
];
const APPROVED: Payment = {
  ...PENDING,
  id: 22,
  status: 'APROBADO',
  source: 'OFICINA',
  receipt_number: 'R001-00000042',
  method: 'EFECTIVO',
  destination: null,
  operation_number: null,
  vouchers: [],
  customer: { id: 2, display_name: 'Rosa Quispe', document_number: '41234567' },
  allocations: PREVIEW,
  reviewed_by: 'Ana Torres',
  reviewed_at: when,
  version: 3,
};
const SALE = {
  id: 3,
  number: 'V-000003',
  lot: { id: 9, code: 'MZ A - LT 9', subdivision_name: 'Los Viñedos' },
  holders: [
    { id: 1, display_name: 'Carlos Mendoza', document_number: '45454545', role: 'TITULAR', share_percent: '50.00' },
    { id: 2, display_name: 'Rosa Quispe', document_number: '41234567', role: 'CONYUGE', share_percent: '50.00' },
  ],
  currency: 'PEN',
  balance: 2_950_000,
  status: 'EN_CUOTAS',
} as unknown as Sale;
const ACCOUNT: BankAccount = {
  id: 5,
  bank: 'BCP',
  kind: 'CORRIENTE',
  currency: 'PEN',
  number: '19100012345678',
  cci: '00219100012345678957',
  holder: 'Parcela SAC',
  active: true,
  version: 1,
};
const USD_ACCOUNT: BankAccount = { ...ACCOUNT, id: 6, currency: 'USD', number: '19100099999999' };
const WALLET: Wallet = { id: 7, kind: 'YAPE', phone: '987654321', holder: 'Parcela SAC', active: true, qr_url: null, version: 1 };

const page = <T,>(rows: T[], q: ListQuery) => ({ data: rows, meta: { page: q.page, per_page: q.per_page, total: rows.length } });

function setup(overrides: Partial<PaymentsApi> = {}, notifications: ReturnType<typeof fakeNotifications> | null = null) {
  const paymentsApi: PaymentsApi = {
    list: vi.fn(async (q: ListQuery) => page([PENDING, APPROVED], q)),
    get: vi.fn(async (id: number) => (id === 22 ? APPROVED : { ...PENDING, allocation_preview: PREVIEW })),
    create: vi.fn(async (body) => ({ ...PENDING, id: 40, vouchers: [], amount: body.amount, method: body.method }) as Payment),
    uploadVoucher: vi.fn(async (id: number) => ({ ...PENDING, id })),
    voucherBlob: vi.fn(async (url: string) => new Blob([url], { type: 'image/png' })),
    approve: vi.fn(async () => ({
      ...PENDING,
      status: 'APROBADO' as const,
      receipt_number: 'R001-00000043',
      allocations: PREVIEW,
      version: 2,
    })),
    reject: vi.fn(async () => ({ ...PENDING, status: 'RECHAZADO' as const, reject_reason: 'Voucher ilegible', version: 2 })),
    annul: vi.fn(async () => ({ ...APPROVED, status: 'ANULADO' as const, annul_reason: 'Aprobado por error', version: 4 })),
    receipt: vi.fn(async () => new Blob(['%PDF-1.4'], { type: 'application/pdf' })),
    ...overrides,
  };
  const deps: PaymentsMachinesDeps = {
    paymentsApi,
    salesApi: { list: vi.fn(async (q: ListQuery) => page([SALE], q)) },
    reservationsApi: { list: vi.fn(async (q: ListQuery) => page([], q)) },
    bankAccountsApi: { list: vi.fn(async (q: ListQuery) => page([ACCOUNT, USD_ACCOUNT], q)) },
    walletsApi: { list: vi.fn(async (q: ListQuery) => page([WALLET], q)) },
    reportApiError: vi.fn(),
    toaster: { show: vi.fn() },
    saveBlob: vi.fn(),
    objectUrls: { create: vi.fn((blob: Blob) => `blob:voucher-${blob.size}`) },
  };
  const machines = createPaymentsMachines(deps);
  const session = createActor(createMachine({ context: { permissions: [] } })).start();
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
  view(<PaymentsPage machines={machines} notifications={notifications} />);
  return { deps, api: paymentsApi, user: userEvent.setup() };
}

/** A stand-in for the session's notifications machine: `add` pushes one notification of a type. */
function fakeNotifications() {
  const machine = xsetup({
    types: {
      context: {} as { items: { id_notification: number; type: { code: string } }[] },
      events: {} as { type: 'add'; id: number; code: string },
    },
  }).createMachine({
    context: { items: [{ id_notification: 1, type: { code: 'PAYMENT' } }] },
    on: {
      add: {
        actions: assign(({ context, event }) => ({ items: [{ id_notification: event.id, type: { code: event.code } }, ...context.items] })),
      },
    },
  });
  return createActor(machine).start();
}

async function rowAction(user: ReturnType<typeof userEvent.setup>, text: string, action: string) {
  const table = await screen.findByRole('table', { name: 'Pagos' });
  const row = (await within(table).findByText(text)).closest('tr')!;
  await user.click(within(row).getByRole('button', { name: /Acciones/ }));
  await user.click(await screen.findByRole('menuitem', { name: action }));
  // The closing menu hands the focus back to "Acciones": act once it is gone, or keys land there.
  await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
}

describe('PaymentsPage', () => {
  beforeEach(() => window.history.replaceState(null, '', '/FINANZAS/Pagos'));

  it('lists the queue in the server order (no sort sent) with money, method, operation number and status; filters go to the query', async () => {
    const { api, user } = setup();
    const table = await screen.findByRole('table', { name: 'Pagos' });
    const row = (await within(table).findByText('Carlos Mendoza')).closest('tr')!;
    expect(within(row).getByText('S/ 1,250.50')).toBeTruthy();
    expect(within(row).getByText('Yape')).toBeTruthy();
    // The destination is in the drawer (and in "Columnas"), not a default column.
    expect(within(row).queryByText('Yape 987 654 321')).toBeNull();
    expect(within(row).getByText('OP-778899')).toBeTruthy();
    expect(within(row).getByText('Pendiente')).toBeTruthy();
    expect(vi.mocked(api.list).mock.calls[0]?.[0].sort).toBeUndefined();
    await user.selectOptions(screen.getByLabelText('Estado'), 'PENDIENTE');
    await user.selectOptions(screen.getByLabelText('Medio de pago'), 'YAPE');
    await waitFor(() => expect(vi.mocked(api.list).mock.lastCall?.[0].filters).toEqual({ status: 'PENDIENTE', method: 'YAPE' }));
    expect(window.location.search).toContain('status=PENDIENTE');
  });

  it('opens a payment with its voucher images, and shows one large on click', async () => {
    const { api, user } = setup();
    await rowAction(user, 'Carlos Mendoza', 'Ver');
    const drawer = await screen.findByRole('dialog', { name: 'Pago de Carlos Mendoza' });
    expect(within(drawer).getByText('OP-778899')).toBeTruthy();
    expect(within(drawer).getByText('V-000003 · MZ A - LT 9 · Los Viñedos')).toBeTruthy();
    const thumb = await within(drawer).findByRole('img', { name: 'Comprobante 2' });
    expect((thumb as HTMLImageElement).src).toMatch(/^blob:voucher-/);
    expect(api.voucherBlob).toHaveBeenCalledWith('/api/payments/21/vouchers/31');
    await user.click(within(drawer).getByRole('button', { name: 'Ampliar comprobante 2' }));
    const zoom = await screen.findByRole('dialog', { name: 'Comprobante 2 de 2' });
    expect(within(zoom).getByRole('img', { name: 'Comprobante 2 (ampliado)' })).toBeTruthy();
  });

  it('"Aprobar" lists the late fees a back-dated payment lowers before it is applied (docs/domain.md)', async () => {
    const get = vi.fn<PaymentsApi['get']>(async () => ({
      ...PENDING,
      allocation_preview: PREVIEW,
      late_fee_changes: [{ instalment_id: 101, kind: 'CUOTA', number: 3, before: 14_000, after: 2_550 }],
    }));
    const { user } = setup({ get });
    await rowAction(user, 'Carlos Mendoza', 'Aprobar');
    const dialog = await screen.findByRole('dialog', { name: 'Aprobar pago' });
    expect(await within(dialog).findByText('La fecha del pago cambia la mora')).toBeTruthy();
    expect(within(dialog).getByText(/fecha de operación 19\/11\/2026/)).toBeTruthy();
    const row = within(dialog).getByText('Cuota 3', { selector: '.payment-fee-changes td' }).closest('tr')!;
    expect(within(row).getByText('S/ 140.00')).toBeTruthy();
    expect(within(row).getByText('S/ 25.50')).toBeTruthy();
    expect(within(row).getByText('− S/ 114.50')).toBeTruthy();
  });

  it("a reservation's payment credited to a sale says which sale it went to", async () => {
    const credited = {
      ...APPROVED,
      sale: null,
      reservation: { id: 5, lot_code: 'MZ B - LT 4', subdivision_name: 'Los Viñedos' },
      credited_sale: { id: 9, number: 'V-000009' },
    };
    const get = vi.fn<PaymentsApi['get']>(async () => credited);
    const { user } = setup({ get });
    await rowAction(user, 'Rosa Quispe', 'Ver');
    const drawer = await screen.findByRole('dialog', { name: 'Pago de Rosa Quispe' });
    expect(await within(drawer).findByText('La venta V-000009 (cuota inicial)')).toBeTruthy();
  });

  it('"Aprobar" shows the allocation first and applies it with the version read; a 409 says why and reads the payment again', async () => {
    const approve = vi
      .fn<PaymentsApi['approve']>()
      .mockRejectedValueOnce(new ApiError(409, 'La deuda cambió desde que se registró el pago; revise el monto'))
      .mockResolvedValueOnce({ ...PENDING, status: 'APROBADO', receipt_number: 'R001-00000043', allocations: PREVIEW, version: 2 });
    const { api, deps, user } = setup({ approve });
    await rowAction(user, 'Carlos Mendoza', 'Aprobar');
    const dialog = await screen.findByRole('dialog', { name: 'Aprobar pago' });
    const table = await within(dialog).findByRole('table', { name: 'Aplicación del pago' });
    expect(within(table).getByText('Cuota 3')).toBeTruthy();
    expect(within(table).getByText('20/10/2026')).toBeTruthy();
    expect(within(table).getAllByText('S/ 25.50')).toHaveLength(2);
    expect(within(table).getByText('S/ 1,250.50')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Aprobar y aplicar' }));
    expect(await within(dialog).findByText('La deuda cambió desde que se registró el pago; revise el monto')).toBeTruthy();
    await waitFor(() => expect(api.get).toHaveBeenCalledTimes(2));
    await user.click(within(dialog).getByRole('button', { name: 'Aprobar y aplicar' }));
    await waitFor(() => expect(approve).toHaveBeenLastCalledWith(21, { version: 1 }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Aprobar pago' })).toBeNull());
    expect(deps.toaster.show).toHaveBeenCalledWith(expect.objectContaining({ summary: 'Pago aprobado: recibo R001-00000043' }));
    await waitFor(() => expect(api.list).toHaveBeenCalledTimes(2));
  });

  it('a sale payment the server cannot apply cannot be approved: its reason is shown', async () => {
    const { user } = setup({
      get: vi.fn(async () => ({ ...PENDING, allocation_preview: null, preview_error: 'El monto supera la deuda' })),
    });
    await rowAction(user, 'Carlos Mendoza', 'Aprobar');
    const dialog = await screen.findByRole('dialog', { name: 'Aprobar pago' });
    expect(await within(dialog).findByText('El monto supera la deuda')).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Aprobar y aplicar' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('"Aprobar" a payment the user registered: the refusal is shown up front and it cannot be confirmed (docs/domain.md "Payments: segregation of duties")', async () => {
    const { api, user } = setup({
      get: vi.fn(async () => ({
        ...PENDING,
        allocation_preview: PREVIEW,
        self_approval: { message: PAYMENT_MESSAGES.selfApproval, may_override: false },
      })),
    });
    await rowAction(user, 'Carlos Mendoza', 'Aprobar');
    const dialog = await screen.findByRole('dialog', { name: 'Aprobar pago' });
    expect(await within(dialog).findByText(`${PAYMENT_MESSAGES.selfApproval}.`)).toBeTruthy();
    expect(within(dialog).queryByLabelText('Motivo de la excepción')).toBeNull();
    expect((within(dialog).getByRole('button', { name: 'Aprobar y aplicar' }) as HTMLButtonElement).disabled).toBe(true);
    expect(api.approve).not.toHaveBeenCalled();
  });

  it('"Aprobar" by an administrator who registered it: "Motivo de la excepción" (3 characters at least) is sent as override_reason', async () => {
    const { api, user } = setup({
      get: vi.fn(async () => ({
        ...PENDING,
        allocation_preview: PREVIEW,
        self_approval: { message: PAYMENT_MESSAGES.selfApproval, may_override: true },
      })),
    });
    await rowAction(user, 'Carlos Mendoza', 'Aprobar');
    const dialog = await screen.findByRole('dialog', { name: 'Aprobar pago' });
    expect(await within(dialog).findByText(`${PAYMENT_MESSAGES.selfApproval}.`)).toBeTruthy();
    // The preview says "A cuota", as the receipt does.
    const table = await within(dialog).findByRole('table', { name: 'Aplicación del pago' });
    expect(within(table).getByRole('columnheader', { name: 'A cuota' })).toBeTruthy();
    const confirm = within(dialog).getByRole('button', { name: 'Aprobar y aplicar' }) as HTMLButtonElement;
    expect(confirm.disabled).toBe(true);
    const reason = within(dialog).getByLabelText('Motivo de la excepción');
    await user.type(reason, 'ab');
    expect(confirm.disabled).toBe(true);
    await user.type(reason, 'c');
    expect(confirm.disabled).toBe(false);
    await user.click(confirm);
    await waitFor(() => expect(api.approve).toHaveBeenLastCalledWith(21, { override_reason: 'abc', version: 1 }));
  });

  it('"Rechazar" needs a reason; "Anular" is offered only for approved payments', async () => {
    const { api, user } = setup();
    await rowAction(user, 'Carlos Mendoza', 'Rechazar');
    const alert = await screen.findByRole('alertdialog');
    await user.click(within(alert).getByRole('button', { name: 'Rechazar pago' }));
    expect(await within(alert).findByText('Indique el motivo (al menos 3 caracteres)')).toBeTruthy();
    expect(api.reject).not.toHaveBeenCalled();
    await user.type(within(alert).getByLabelText('Motivo del rechazo (lo verá el cliente)'), 'Voucher ilegible');
    await user.click(within(alert).getByRole('button', { name: 'Rechazar pago' }));
    await waitFor(() => expect(api.reject).toHaveBeenCalledWith(21, { reason: 'Voucher ilegible', version: 1 }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());

    const table = screen.getByRole('table', { name: 'Pagos' });
    const pending = within(table).getByText('Carlos Mendoza').closest('tr')!;
    await user.click(within(pending).getByRole('button', { name: /Acciones/ }));
    expect(screen.queryByRole('menuitem', { name: 'Anular' })).toBeNull();
    await user.keyboard('{Escape}');
    await rowAction(user, 'Rosa Quispe', 'Anular');
    const annul = await screen.findByRole('alertdialog');
    await user.type(within(annul).getByLabelText('Motivo de la anulación'), 'Aprobado por error');
    await user.click(within(annul).getByRole('button', { name: 'Anular pago' }));
    await waitFor(() => expect(api.annul).toHaveBeenCalledWith(22, { reason: 'Aprobado por error', version: 3 }));
  });

  it('"Recibo" downloads the PDF of an approved payment under its number', async () => {
    const { api, deps, user } = setup();
    await rowAction(user, 'Rosa Quispe', 'Recibo');
    await waitFor(() => expect(deps.saveBlob).toHaveBeenCalledWith(expect.any(Blob), 'R001-00000042.pdf'));
    expect(api.receipt).toHaveBeenCalledWith(22);
  });

  it('"Registrar pago": sale by search, the account the method needs, soles to céntimos, vouchers after the payment; a 422 under its field', async () => {
    const create = vi
      .fn<PaymentsApi['create']>()
      .mockRejectedValueOnce(
        new ApiError(422, 'Los datos no son válidos', {
          operation_number: ['Ese número de operación ya fue registrado en esa cuenta o billetera'],
        }),
      )
      .mockResolvedValueOnce({ ...PENDING, id: 40, vouchers: [] });
    const { api, deps, user } = setup({ create });
    await user.click((await screen.findAllByRole('button', { name: 'Registrar pago' }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Registrar pago' });
    await user.click(within(dialog).getByRole('button', { name: 'Registrar' }));
    expect(await within(dialog).findByText('Indique la venta o la separación que se paga')).toBeTruthy();
    expect(within(dialog).getByText('Ingrese el monto')).toBeTruthy();
    expect(within(dialog).getByText('Seleccione el medio de pago')).toBeTruthy();
    await user.click(within(dialog).getByLabelText('Venta'));
    // Type once the suggestions are open (Suggest settles its query as its popover opens).
    await screen.findByRole('option', { name: 'Escriba para buscar' });
    await user.keyboard('mendoza');
    await screen.findByRole('option', { name: /V-000003/ });
    await user.keyboard('{Enter}');
    expect(deps.salesApi.list).toHaveBeenCalledWith(expect.objectContaining({ q: 'mendoza' }));
    expect(within(dialog).getByLabelText('Pagador')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Monto'), '1,250.5');
    await user.selectOptions(within(dialog).getByLabelText('Medio de pago'), 'TRANSFERENCIA');
    // Only the active accounts in the sale's currency; the only one is chosen.
    const account = within(dialog).getByLabelText('Cuenta de destino') as HTMLSelectElement;
    expect(within(account).queryByRole('option', { name: /19100099999999/ })).toBeNull();
    expect(account.value).toBe('5');
    await user.click(within(dialog).getByRole('button', { name: 'Registrar' }));
    expect(await within(dialog).findByText('Ingrese el número de operación')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('N.º de operación'), ' op 1234 ');
    const upload = userEvent.setup({ applyAccept: false });
    await upload.upload(within(dialog).getByLabelText('Comprobantes'), new File(['x'], 'voucher.gif', { type: 'image/gif' }));
    expect(await within(dialog).findByText('El comprobante debe ser una imagen PNG, JPEG o WebP')).toBeTruthy();
    await upload.upload(within(dialog).getByLabelText('Comprobantes'), new File(['png'], 'voucher.png', { type: 'image/png' }));
    expect(within(dialog).getByText('voucher.png')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Registrar' }));
    expect(await within(dialog).findByText('Ese número de operación ya fue registrado en esa cuenta o billetera')).toBeTruthy();
    expect(create).toHaveBeenCalledWith({
      sale_id: 3,
      customer_id: 1,
      amount: 125_050,
      method: 'TRANSFERENCIA',
      bank_account_id: 5,
      operation_number: 'OP1234',
      operation_date: '2026-11-22',
    });
    expect(api.uploadVoucher).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Registrar' }));
    await waitFor(() => expect(api.uploadVoucher).toHaveBeenCalledWith(40, expect.any(File), 'voucher.png'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Registrar pago' })).toBeNull());
    expect(deps.toaster.show).toHaveBeenCalledWith(expect.objectContaining({ summary: 'Pago registrado: queda pendiente de revisión' }));
    await waitFor(() => expect(api.list).toHaveBeenCalledTimes(2));
  });

  it('refreshes the queue when a PAYMENT notification arrives (not for other types, nor for those already there)', async () => {
    const notifications = fakeNotifications();
    const { api } = setup({}, notifications);
    await screen.findByRole('table', { name: 'Pagos' });
    await waitFor(() => expect(api.list).toHaveBeenCalledTimes(1));
    notifications.send({ type: 'add', id: 2, code: 'SALE' });
    notifications.send({ type: 'add', id: 3, code: 'PAYMENT' });
    await waitFor(() => expect(api.list).toHaveBeenCalledTimes(2));
  });
});
