/**
 * Mis Compras, Detalle de Compra and PagoYape (issue 16 "Customer screens") over their real
 * machines with a fake customer api: the purchases as cards leading to ?venta=, the statement
 * (schedule states, late fees, payments, receipt download, bank accounts with CCI), and PagoYape
 * (only a prefix of the oldest instalments can be chosen, the amount with the late fees, the body
 * sent, the capture uploaded, "Pago enviado: queda pendiente de revisión", a 409 shown).
 */
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import { assign, createActor, createMachine } from 'xstate';
import { ApiError } from '../../src/api/client';
import type { PurchasesApi } from '../../src/api/comercio/purchases';
import { createPurchasesMachines } from '../../src/machines/comercio/purchases.actors';
import { PURCHASE_MESSAGES, type PaymentOptions, type Purchase, type PurchaseDetail } from '../../src/schemas/comercio/purchases';
import { MyPurchasesPage } from '../../src/views/comercio/MyPurchasesPage';
import { PurchaseDetailPage, saleIdFromSearch } from '../../src/views/comercio/PurchaseDetailPage';
import { ServicesProvider, type ViewServices } from '../../src/views/services';
import { purchaseRow } from './purchase-fixtures';

const PURCHASE: Purchase = purchaseRow();

const row = (
  id: number,
  number: number,
  due: string,
  paid: number,
  status: 'PAGADA' | 'PARCIAL' | 'PENDIENTE' | 'VENCIDA',
  extra = {},
) => ({
  id,
  kind: 'CUOTA',
  number,
  due_date: due,
  amount: 300_000,
  paid,
  balance: 300_000 - paid,
  status,
  days_late: 0,
  late_fee_accrued: 0,
  late_fee_paid: 0,
  late_fee_waived: 0,
  late_fee_due: 0,
  ...extra,
});

const DETAIL: PurchaseDetail = {
  ...PURCHASE,
  area_m2: 120,
  down_payment: 600_000,
  financed: 2_400_000,
  instalments: 4,
  method: 'SIN_INTERES',
  monthly_rate_percent: '0',
  schedule: [
    row(101, 1, '2026-09-02', 300_000, 'PAGADA'),
    row(102, 2, '2026-10-02', 100_000, 'VENCIDA', {
      days_late: 51,
      late_fee_accrued: 25_500,
      late_fee_paid: 20_000,
      late_fee_waived: 1_500,
      late_fee_due: 4_000,
    }),
    row(103, 3, '2026-11-02', 0, 'PENDIENTE'),
    row(104, 4, '2026-12-02', 0, 'PENDIENTE'),
  ],
  payments: [
    {
      id: 7,
      status: 'APROBADO',
      amount: 300_000,
      currency: 'PEN',
      method: 'YAPE',
      operation_number: 'OP1',
      operation_date: '2026-09-01',
      receipt_number: 'R001-00000007',
      receipt_url: '/api/customer/payments/7/receipt',
      reject_reason: null,
      vouchers: [],
      created_at: '2026-09-01T15:00:00.000Z',
    },
    {
      id: 8,
      status: 'RECHAZADO',
      amount: 100_000,
      currency: 'PEN',
      method: 'PLIN',
      operation_number: 'OP2',
      operation_date: '2026-10-05',
      receipt_number: null,
      receipt_url: null,
      reject_reason: 'La captura no se lee',
      vouchers: [],
      created_at: '2026-10-05T15:00:00.000Z',
    },
  ],
  map: { subdivision_key: 'k3y', subdivision_name: 'Los Viñedos de Carabayllo', lot_code: 'MZ A - LT 6' },
  contract_pdf_url: null,
};

const OPTIONS: PaymentOptions = {
  wallets: [
    { id: 1, kind: 'YAPE', phone: '987654321', holder: 'Inmobiliaria Demo S.A.C.', qr_url: '/api/customer/wallets/1/qr?v=1' },
    { id: 2, kind: 'PLIN', phone: '912345678', holder: 'Inmobiliaria Demo S.A.C.', qr_url: null },
  ],
  bank_accounts: [
    {
      id: 5,
      bank: 'BCP',
      bank_name: 'Banco de Crédito del Perú (BCP)',
      kind: 'AHORROS',
      currency: 'PEN',
      number: '19100012345678',
      cci: '00219100012345678957',
      holder: 'Inmobiliaria Demo S.A.C.',
    },
  ],
};

function setup(overrides: Partial<PurchasesApi> = {}) {
  const api: PurchasesApi = {
    list: vi.fn(async (q) => ({ data: [PURCHASE], meta: { page: q.page, per_page: q.per_page, total: 1 } })),
    get: vi.fn(async () => DETAIL),
    paymentOptions: vi.fn(async () => OPTIONS),
    pay: vi.fn(async (_saleId, body) => ({
      payment: { ...DETAIL.payments[1]!, id: 9, status: 'PENDIENTE' as const, amount: body.amount, reject_reason: null, vouchers: [] },
      message: PURCHASE_MESSAGES.sent,
    })),
    uploadVoucher: vi.fn(async (paymentId) => ({
      ...DETAIL.payments[1]!,
      id: paymentId,
      status: 'PENDIENTE' as const,
      vouchers: [{ id: 1, content_type: 'image/png', url: '/api/customer/payments/9/vouchers/1' }],
    })),
    file: vi.fn(async () => new Blob(['x'], { type: 'image/png' })),
    ...overrides,
  };
  const toaster = { show: vi.fn() };
  const save = vi.fn();
  const machines = createPurchasesMachines({ api, reportApiError: vi.fn(), toaster, save });
  const navigate = vi.fn();
  const session = createActor(createMachine({ context: { permissions: [] } })).start();
  const services = { session, machines: {}, navigate, toaster, today: () => '2026-11-22' } as unknown as ViewServices;
  const view = (node: ReactNode) =>
    render(
      <ServicesProvider value={services}>
        <OverlaysProvider>{node}</OverlaysProvider>
      </ServicesProvider>,
    );
  return { api, machines, navigate, toaster, save, view, user: userEvent.setup() };
}

beforeEach(() => {
  URL.createObjectURL = vi.fn(() => 'blob:qr');
  URL.revokeObjectURL = vi.fn();
});
afterEach(() => vi.restoreAllMocks());

describe('MyPurchasesPage', () => {
  it('shows each purchase with its figures, next instalment and overdue instalments, and opens its statement by ?venta=', async () => {
    const { machines, navigate, view, user } = setup();
    view(<MyPurchasesPage machines={machines} />);
    const list = await screen.findByRole('list', { name: 'Compras' });
    const card = within(list).getByText('Lote MZ A - LT 6').closest('.purchase-card') as HTMLElement;
    expect(within(card).getByText('Los Viñedos de Carabayllo · V-000012')).toBeTruthy();
    expect(within(card).getByText('En cuotas')).toBeTruthy();
    expect(within(card).getByText('S/ 20,000.00')).toBeTruthy();
    expect(card.textContent).toContain('Cuota 2 · vence 02/10/2026 · S/ 2,000.00');
    expect(within(card).getByText(/1 cuota vencida · mora S\/ 40.00/)).toBeTruthy();
    await user.click(within(card).getByRole('button', { name: 'Ver detalle del lote MZ A - LT 6' }));
    expect(navigate).toHaveBeenCalledWith('/COMERCIO/DetalleCompra?venta=12');
  });

  it('says when there are no purchases', async () => {
    const { machines, view } = setup({ list: vi.fn(async () => ({ data: [], meta: { page: 1, per_page: 20, total: 0 } })) });
    view(<MyPurchasesPage machines={machines} />);
    expect(await screen.findByText('Aún no tiene compras')).toBeTruthy();
  });
});

describe('PurchaseDetailPage', () => {
  it('reads the sale from ?venta= (anything else is no sale)', () => {
    expect(saleIdFromSearch('venta=12')).toBe(12);
    expect(saleIdFromSearch('?venta=12&x=1')).toBe(12);
    for (const bad of ['', 'venta=', 'venta=0', 'venta=-1', 'venta=1.5', 'venta=abc', 'venta=1e3'])
      expect(saleIdFromSearch(bad)).toBeNull();
  });

  it('shows the statement: the schedule with paid, overdue and pending rows and the late fee; payments with state, reason and receipt', async () => {
    const { api, machines, save, view, user, navigate } = setup();
    view(<PurchaseDetailPage machines={machines} saleId={12} />);
    expect(await screen.findByRole('heading', { name: 'Lote MZ A - LT 6' })).toBeTruthy();
    expect(api.get).toHaveBeenCalledWith(12);
    const schedule = screen.getByRole('table', { name: 'Cronograma' });
    const rows = within(schedule).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getAllByRole('cell')[2]!.textContent)).toEqual(['Pagada', 'Vencida', 'Pendiente', 'Pendiente']);
    const late = rows[1]!;
    expect(late.textContent).toContain('51 días');
    expect(late.textContent).toContain('S/ 40.00');
    expect(late.textContent).toContain('generada S/ 255.00 · pagada S/ 200.00 · condonada S/ 15.00');
    const summary = screen.getByLabelText('Resumen');
    expect(within(summary).getByText('S/ 40.00')).toBeTruthy();

    const payments = screen.getByRole('table', { name: 'Pagos' });
    expect(within(payments).getByText('Aprobado')).toBeTruthy();
    expect(within(payments).getByText('Rechazado')).toBeTruthy();
    expect(within(payments).getByText('Motivo: La captura no se lee')).toBeTruthy();
    await user.click(within(payments).getByRole('button', { name: 'Descargar recibo R001-00000007' }));
    await waitFor(() => expect(save).toHaveBeenCalledWith(expect.any(Blob), 'R001-00000007.pdf'));
    expect(api.file).toHaveBeenCalledWith('/api/customer/payments/7/receipt');

    await user.click(screen.getByRole('button', { name: 'Ver en el plano' }));
    // The map opens on the customer's own lot (docs/decisions.md "Customer journey details (accessibility)").
    expect(navigate).toHaveBeenCalledWith('/COMERCIO/MapSalesCustomer/los-vinedos-de-carabayllo/k3y?lote=MZ+A+-+LT+6');
  });

  it('its tables scroll in named regions in the tab order; the payments fold Monto, Medio and N.° de operación into the first cell for phones (docs/decisions.md "Customer journey details (accessibility)")', async () => {
    const { machines, view, user } = setup();
    view(<PurchaseDetailPage machines={machines} saleId={12} />);
    const schedule = await screen.findByRole('region', { name: 'Tabla: Cronograma' });
    const payments = screen.getByRole('region', { name: 'Tabla: Pagos' });
    for (const region of [schedule, payments]) expect(region.tabIndex).toBe(0);
    expect(within(schedule).getByRole('table', { name: 'Cronograma' })).toBeTruthy();
    // Tab reaches the schedule's box right after the last action above it.
    screen.getByRole('button', { name: 'Ver en el plano' }).focus();
    await user.tab();
    expect(document.activeElement).toBe(schedule);
    const approved = within(payments).getByRole('row', { name: /R001-00000007/ });
    const first = within(approved).getAllByRole('cell')[0]!;
    expect(first.querySelector('.purchase-folded')?.textContent).toBe('MontoS/ 3,000.00MedioYapeN.° de operaciónOP1');
    expect(
      within(payments)
        .getAllByRole('columnheader')
        .filter((h) => h.classList.contains('purchase-col--secondary'))
        .map((h) => h.textContent),
    ).toEqual(['Monto', 'Medio', 'N.° de operación']);
  });

  it('reads the statement again when a PAYMENT notification arrives (approved or rejected)', async () => {
    const { api, machines, view } = setup();
    type Item = { id_notification: number; type: { code: string } };
    const notifications = createActor(
      createMachine({
        types: {} as { context: { items: Item[] }; events: { type: 'set'; items: Item[] } },
        context: { items: [{ id_notification: 1, type: { code: 'PAYMENT' } }] },
        on: { set: { actions: assign(({ event }) => ({ items: event.items })) } },
      }),
    ).start();
    view(<PurchaseDetailPage machines={machines} saleId={12} notifications={notifications} />);
    await screen.findByRole('table', { name: 'Cronograma' });
    expect(api.get).toHaveBeenCalledTimes(1);
    // One of another type, then a PAYMENT one not seen before.
    notifications.send({
      type: 'set',
      items: [
        { id_notification: 2, type: { code: 'CUSTOMER' } },
        { id_notification: 1, type: { code: 'PAYMENT' } },
      ],
    });
    notifications.send({
      type: 'set',
      items: [
        { id_notification: 3, type: { code: 'PAYMENT' } },
        { id_notification: 1, type: { code: 'PAYMENT' } },
      ],
    });
    await waitFor(() => expect(api.get).toHaveBeenCalledTimes(2));
  });

  it('shows the bank accounts with their CCI', async () => {
    const { machines, view, user } = setup();
    view(<PurchaseDetailPage machines={machines} saleId={12} />);
    await user.click(await screen.findByRole('button', { name: 'Pagar por transferencia' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pagar por transferencia o depósito' });
    expect(within(dialog).getByText('Banco de Crédito del Perú (BCP)')).toBeTruthy();
    expect(within(dialog).getByText('00219100012345678957')).toBeTruthy();
    // Two "Cerrar": the title bar's close button and the footer's (docs/decisions.md "Accessible names and ARIA references").
    const [titleBarClose, footerClose] = within(dialog).getAllByRole('button', { name: 'Cerrar' });
    expect(titleBarClose!.className).toContain('bp6-dialog-close-button');
    await user.click(footerClose!);
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('asks for the bank accounts in the purchase’s currency and lists only those (docs/decisions.md "Customer journey details (accessibility)")', async () => {
    const dollars = {
      ...OPTIONS.bank_accounts[0]!,
      id: 6,
      bank: 'BBVA',
      bank_name: 'BBVA Perú',
      currency: 'USD' as const,
      number: '0011999',
    };
    // A server that would still give both: the dialog keeps the soles one.
    const { api, machines, view, user } = setup({
      paymentOptions: vi.fn(async () => ({ ...OPTIONS, bank_accounts: [dollars, ...OPTIONS.bank_accounts] })),
    });
    view(<PurchaseDetailPage machines={machines} saleId={12} />);
    await user.click(await screen.findByRole('button', { name: 'Pagar por transferencia' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pagar por transferencia o depósito' });
    expect(api.paymentOptions).toHaveBeenCalledWith('PEN');
    expect(within(dialog).getByText(/su compra es en soles/)).toBeTruthy();
    const accounts = within(within(dialog).getByRole('list', { name: 'Cuentas bancarias' })).getAllByRole('listitem');
    expect(accounts.map((a) => a.textContent)).toEqual([expect.stringContaining('Banco de Crédito del Perú (BCP)')]);
    expect(within(dialog).queryByText('BBVA Perú')).toBeNull();
    expect(within(dialog).queryByText(/en dólares/)).toBeNull();
  });

  it('says when the company has no account in the purchase’s currency', async () => {
    const { machines, view, user } = setup({ paymentOptions: vi.fn(async () => ({ ...OPTIONS, bank_accounts: [] })) });
    view(<PurchaseDetailPage machines={machines} saleId={12} />);
    await user.click(await screen.findByRole('button', { name: 'Pagar por transferencia' }));
    const dialog = await screen.findByRole('dialog', { name: 'Pagar por transferencia o depósito' });
    expect(within(dialog).getByText('La empresa no tiene cuentas bancarias activas en soles.')).toBeTruthy();
  });

  async function openPagoYape(s: ReturnType<typeof setup>) {
    s.view(<PurchaseDetailPage machines={s.machines} saleId={12} />);
    const pay = await screen.findByRole('button', { name: 'Pagar con Yape o Plin' });
    await waitFor(() => expect((pay as HTMLButtonElement).disabled).toBe(false));
    await s.user.click(pay);
    return screen.findByRole('dialog', { name: 'Pagar con Yape o Plin' });
  }

  it('PagoYape: only the oldest instalments can be chosen, the amount includes the late fee, and the payment and its capture are sent', async () => {
    const s = setup();
    const dialog = await openPagoYape(s);
    const boxes = within(dialog).getAllByRole('checkbox') as HTMLInputElement[];
    // The payable rows: the overdue 2nd (S/ 2,000.00 due), the 3rd and the 4th.
    expect(boxes.map((b) => [b.checked, b.disabled])).toEqual([
      [true, false],
      [false, false],
      [false, true],
    ]);
    expect(within(dialog).getByLabelText('Monto a pagar').textContent).toBe('S/ 2,040.00');
    await s.user.click(boxes[1]!);
    expect(boxes.map((b) => b.checked)).toEqual([true, true, false]);
    expect(boxes[0]!.disabled).toBe(true);
    expect(within(dialog).getByLabelText('Monto a pagar').textContent).toBe('S/ 5,040.00');
    expect(within(dialog).getByRole('img', { name: 'QR de Yape' }).getAttribute('src')).toBe('blob:qr');
    expect(s.api.file).toHaveBeenCalledWith('/api/customer/wallets/1/qr?v=1');

    // Without the operation number and the capture: nothing is sent.
    await s.user.click(within(dialog).getByRole('button', { name: 'Enviar pago' }));
    expect(await within(dialog).findByText('Adjunte la captura del pago')).toBeTruthy();
    expect(within(dialog).getByText('Ingrese el número de operación')).toBeTruthy();
    expect(s.api.pay).not.toHaveBeenCalled();

    await s.user.type(within(dialog).getByLabelText('Número de operación'), 'op 778');
    const capture = new File([new Uint8Array([0x89, 0x50])], 'captura.png', { type: 'image/png' });
    await s.user.upload(within(dialog).getByLabelText('Captura del pago'), capture);
    await s.user.click(within(dialog).getByRole('button', { name: 'Enviar pago' }));
    await waitFor(() =>
      expect(s.api.pay).toHaveBeenCalledWith(12, {
        wallet_id: 1,
        instalment_ids: [102, 103],
        amount: 504_000,
        operation_number: 'op 778',
        operation_date: '2026-11-22',
      }),
    );
    await waitFor(() => expect(s.api.uploadVoucher).toHaveBeenCalledWith(9, capture, 'captura.png'));
    expect(await screen.findByText(PURCHASE_MESSAGES.sent)).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // The statement is read again.
    await waitFor(() => expect(s.api.get).toHaveBeenCalledTimes(2));
  });

  it('PagoYape: a 409 (the debt changed) is shown and nothing is uploaded', async () => {
    const s = setup({
      pay: vi.fn(async () => {
        throw new ApiError(
          409,
          'El monto a pagar cambió (se actualizó la mora o se registró otro pago): revise el monto y vuelva a enviar',
        );
      }),
    });
    const dialog = await openPagoYape(s);
    await s.user.type(within(dialog).getByLabelText('Número de operación'), '778');
    await s.user.upload(within(dialog).getByLabelText('Captura del pago'), new File(['x'], 'c.jpg', { type: 'image/jpeg' }));
    await s.user.click(within(dialog).getByRole('button', { name: 'Enviar pago' }));
    expect(await within(dialog).findByText(/El monto a pagar cambió/)).toBeTruthy();
    expect(s.api.uploadVoucher).not.toHaveBeenCalled();
  });

  it('PagoYape: while a payment waits for review, says so and sends no other (it would be refused after being paid)', async () => {
    const waiting = { ...DETAIL.payments[1]!, id: 9, status: 'PENDIENTE' as const, amount: 204_000, reject_reason: null };
    const s = setup({ get: vi.fn(async () => ({ ...DETAIL, payments: [waiting, ...DETAIL.payments] })) });
    const dialog = await openPagoYape(s);
    expect(within(dialog).getByText(/Tiene un pago de S\/ 2,040.00 pendiente de revisión/)).toBeTruthy();
    expect(within(dialog).getByText(/Espere su revisión antes de enviar otro pago/)).toBeTruthy();
    expect((within(dialog).getByRole('button', { name: 'Enviar pago' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('PagoYape: a capture that is not an image is refused before sending', async () => {
    const s = setup();
    const dialog = await openPagoYape(s);
    // The file picker offers images only; a browser may still hand over another type.
    const user = userEvent.setup({ applyAccept: false });
    await user.upload(within(dialog).getByLabelText('Captura del pago'), new File(['%PDF'], 'c.pdf', { type: 'application/pdf' }));
    expect(await within(dialog).findByText('El comprobante debe ser una imagen PNG, JPEG o WebP')).toBeTruthy();
  });
});
