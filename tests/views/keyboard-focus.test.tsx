/**
 * Keyboard and focus (docs/decisions.md "Keyboard and focus"; WCAG 2.2 AA 2.1.1, 2.4.1, 2.4.3),
 * over the real machines with fake effects: the shell's skip link and the focus on a new page's
 * heading; the notification keyboard test (Enter or Space on the bell opens the panel with the
 * focus in it, Escape closes it and focus returns to the bell); and PagoYape's Escape (in the date
 * field's calendar it closes only the calendar; on a form with typed data it asks "¿Descartar los
 * cambios?"), with focus back on "Pagar con Yape o Plin" when the dialog goes; and a row's
 * "Acciones" getting the focus back when the editor its menu opened closes.
 */
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import { createActor, createMachine, fromPromise } from 'xstate';
import { z } from 'zod';
import { createResourceListMachine, listActors } from '../../src/machines/shared/resource-list.machine';
import { resourceEditorMachine, type EditorValues, type SaveInput } from '../../src/machines/shared/resource-editor.machine';
import { ResourceTable } from '../../src/views/shared/ResourceTable';
import { EditorDialog } from '../../src/views/shared/EditorDialog';
import { TextField } from '../../src/views/shared/FormField';
import type { PurchasesApi } from '../../src/api/comercio/purchases';
import { createPurchasesMachines } from '../../src/machines/comercio/purchases.actors';
import { PURCHASE_MESSAGES, type PaymentOptions, type PurchaseDetail } from '../../src/schemas/comercio/purchases';
import { PurchaseDetailPage } from '../../src/views/comercio/PurchaseDetailPage';
import { ServicesProvider, type ViewServices } from '../../src/views/services';
import { AppLayout } from '../../src/views/shell/AppLayout';
import { TopBar } from '../../src/views/shell/TopBar';
import { DISCARD_MESSAGE, DISCARD_TITLE } from '../../src/views/shared/DiscardChangesAlert';
import { fakeNotificationsApi, sampleNotification } from '../unit/support/fakes';
import { renderShell, resetDocumentTheme } from './shell-harness';
import { purchaseRow } from './purchase-fixtures';

afterEach(() => {
  resetDocumentTheme();
  vi.restoreAllMocks();
});

describe('the shell: skip link and focus after a navigation', () => {
  it('"Saltar al contenido" is the first focusable element and moves focus to <main>', async () => {
    const { user } = await renderShell(
      <AppLayout>
        <h1>Mis Compras</h1>
        <button type="button">Ver detalle</button>
      </AppLayout>,
    );
    await user.tab();
    const skip = screen.getByRole('link', { name: 'Saltar al contenido' });
    expect(document.activeElement).toBe(skip);
    await user.keyboard('{Enter}');
    expect(document.activeElement).toBe(screen.getByRole('main'));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Ver detalle' }));
  });

  it('after a client-side navigation the new page heading takes the focus, not on the first load', async () => {
    function Page({ title }: { title: string }) {
      return <h1>{title}</h1>;
    }
    const { navigate } = await renderShell(
      <AppLayout>
        <Page title="Inicio" />
      </AppLayout>,
    );
    // First load: the heading is not focused.
    expect(document.activeElement).toBe(document.body);
    act(() => void navigate('/COMERCIO/MisCompras'));
    const heading = screen.getByRole('heading', { name: 'Inicio' });
    await waitFor(() => expect(document.activeElement).toBe(heading));
    expect(heading.getAttribute('tabindex')).toBe('-1');
  });
});

describe('the notification keyboard test', () => {
  const withTwo = () =>
    fakeNotificationsApi({
      notification_quantity: 1,
      notification: [
        sampleNotification({ id_notification: 2, title: 'Pago registrado' }),
        sampleNotification({ id_notification: 1, title: 'Contraseña actualizada', new: false, route: null }),
      ],
    });

  it('Enter on the bell opens the panel with the focus on the first notification; Escape closes it and focus returns to the bell', async () => {
    const { user, notifications } = await renderShell(<TopBar sidebarId="s" />, { notificationsApi: withTwo() });
    await waitFor(() => expect(screen.getByTestId('notifications-badge')).toBeTruthy());
    const bell = screen.getByRole('button', { name: /^Notificaciones/ });
    // Reach the bell with Tab only (the menu toggle and the logo come first).
    while (document.activeElement !== bell) await user.tab();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Notificaciones' });
    const first = await within(dialog).findByRole('button', { name: /Pago registrado/ });
    await waitFor(() => expect(document.activeElement).toBe(first));
    expect(bell.getAttribute('aria-expanded')).toBe('true');

    await user.keyboard('{Escape}');
    await waitFor(() => expect(notifications().getSnapshot().matches({ dialog: 'closed' })).toBe(true));
    expect(document.activeElement).toBe(bell);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Notificaciones' })).toBeNull());
    expect(document.activeElement).toBe(bell);
  });

  it('Space on the bell opens it too; with nothing to choose the title takes the focus; Escape returns to the bell', async () => {
    const { user, notifications } = await renderShell(<TopBar sidebarId="s" />);
    const bell = screen.getByRole('button', { name: /^Notificaciones/ });
    bell.focus();
    await user.keyboard(' ');
    const dialog = await screen.findByRole('dialog', { name: 'Notificaciones' });
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('heading', { name: 'Notificaciones' })));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(notifications().getSnapshot().matches({ dialog: 'closed' })).toBe(true));
    expect(document.activeElement).toBe(bell);
  });
});

// ——— PagoYape ———

const schedule = (id: number, number: number, due: string, status: 'PAGADA' | 'PENDIENTE' | 'VENCIDA') => ({
  id,
  kind: 'CUOTA',
  number,
  due_date: due,
  amount: 300_000,
  paid: status === 'PAGADA' ? 300_000 : 0,
  balance: status === 'PAGADA' ? 0 : 300_000,
  status,
  days_late: 0,
  late_fee_accrued: 0,
  late_fee_paid: 0,
  late_fee_waived: 0,
  late_fee_due: 0,
});

const DETAIL: PurchaseDetail = {
  ...purchaseRow({
    paid: 300_000,
    balance: 900_000,
    late_fee_due: 0,
    overdue_instalments: 0,
    overdue_amount: 0,
    next_instalment: { id: 102, kind: 'CUOTA', number: 2, due_date: '2026-12-02', amount_due: 300_000 },
    map: { subdivision_key: 'k3y', subdivision_name: 'Los Viñedos de Carabayllo', lot_code: 'MZ A - LT 6' },
  }),
  area_m2: 120,
  down_payment: 600_000,
  financed: 1_200_000,
  instalments: 3,
  method: 'SIN_INTERES',
  monthly_rate_percent: '0',
  schedule: [
    schedule(101, 1, '2026-11-02', 'PAGADA'),
    schedule(102, 2, '2026-12-02', 'PENDIENTE'),
    schedule(103, 3, '2027-01-02', 'PENDIENTE'),
  ],
  payments: [],
};

const OPTIONS: PaymentOptions = {
  wallets: [{ id: 1, kind: 'YAPE', phone: '987654321', holder: 'Inmobiliaria Demo S.A.C.', qr_url: null }],
  bank_accounts: [],
};

describe('PagoYape: Escape and focus', () => {
  beforeEach(() => {
    URL.createObjectURL = vi.fn(() => 'blob:qr');
    URL.revokeObjectURL = vi.fn();
  });

  async function openPagoYape() {
    const api: PurchasesApi = {
      list: vi.fn(),
      get: vi.fn(async () => DETAIL),
      paymentOptions: vi.fn(async () => OPTIONS),
      pay: vi.fn(async () => ({ payment: { ...DETAIL.payments[0]! }, message: PURCHASE_MESSAGES.sent })),
      uploadVoucher: vi.fn(),
      file: vi.fn(async () => new Blob(['x'], { type: 'image/png' })),
    } as unknown as PurchasesApi;
    const toaster = { show: vi.fn() };
    const machines = createPurchasesMachines({ api, reportApiError: vi.fn(), toaster, save: vi.fn() });
    const session = createActor(createMachine({ context: { permissions: [] } })).start();
    const services = { session, machines: {}, navigate: vi.fn(), toaster, today: () => '2026-11-22' } as unknown as ViewServices;
    const view = (node: ReactNode) =>
      render(
        <ServicesProvider value={services}>
          <OverlaysProvider>{node}</OverlaysProvider>
        </ServicesProvider>,
      );
    view(<PurchaseDetailPage machines={machines} saleId={12} />);
    const user = userEvent.setup();
    const pay = await screen.findByRole('button', { name: 'Pagar con Yape o Plin' });
    await waitFor(() => expect((pay as HTMLButtonElement).disabled).toBe(false));
    pay.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Pagar con Yape o Plin' });
    return { user, pay, dialog, api };
  }

  it('Escape in the date field calendar closes only the calendar: the dialog stays with what was typed, focus stays in the field', async () => {
    const { user, dialog } = await openPagoYape();
    await user.type(within(dialog).getByLabelText('Número de operación'), 'OP-77');
    const date = await within(dialog).findByLabelText('Fecha de la operación');
    await user.click(date);
    await waitFor(() => expect(date.getAttribute('aria-expanded')).toBe('true'));
    expect(document.querySelector('.bp6-datepicker')).not.toBeNull();

    await user.keyboard('{Escape}');
    await waitFor(() => expect(date.getAttribute('aria-expanded')).toBe('false'));
    expect(screen.getByRole('dialog', { name: 'Pagar con Yape o Plin' })).toBeTruthy();
    expect(screen.queryByText(DISCARD_TITLE)).toBeNull();
    expect(document.activeElement).toBe(date);
    expect((within(dialog).getByLabelText('Número de operación') as HTMLInputElement).value).toBe('OP-77');
  });

  it('Escape on a dialog with typed data asks "¿Descartar los cambios?": "Seguir editando" keeps it, "Descartar" closes it and focus returns to "Pagar con Yape o Plin"', async () => {
    const { user, pay, dialog } = await openPagoYape();
    const number = within(dialog).getByLabelText('Número de operación');
    await user.type(number, 'OP-77');
    await user.keyboard('{Escape}');
    const alert = await screen.findByRole('alertdialog');
    expect(within(alert).getByText(DISCARD_TITLE)).toBeTruthy();
    expect(within(alert).getByText(DISCARD_MESSAGE)).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Pagar con Yape o Plin' })).toBeTruthy();

    await user.click(within(alert).getByRole('button', { name: 'Seguir editando' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect((within(dialog).getByLabelText('Número de operación') as HTMLInputElement).value).toBe('OP-77');

    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    const again = await screen.findByRole('alertdialog');
    await user.click(within(again).getByRole('button', { name: 'Descartar' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Pagar con Yape o Plin' })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(pay));
  });

  it('Escape on an untouched dialog closes it at once and focus returns to "Pagar con Yape o Plin"', async () => {
    const { user, pay } = await openPagoYape();
    await waitFor(() => expect(document.activeElement).not.toBe(pay));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Pagar con Yape o Plin' })).toBeNull());
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(document.activeElement).toBe(pay);
  });
});

describe('a row action\'s dialog gives the focus back to the row\'s "Acciones"', () => {
  it('Enter on "Acciones", Enter on "Editar": the editor opens; Escape closes it and "Acciones" has the focus again', async () => {
    type Row = { id: number; name: string; email: string };
    const list = createActor(
      createResourceListMachine<Row>().provide({
        actions: { syncUrl: () => {}, download: () => {} },
        actors: listActors(async (q) => ({
          data: [{ id: 1, name: 'Ana', email: 'ana@example.pe' }],
          meta: { page: q.page, per_page: q.per_page, total: 1 },
        })),
      }),
      { input: { columns: [{ key: 'name', label: 'Nombre' }], query: {} } },
    ).start();
    const editor = createActor(
      resourceEditorMachine.provide({
        actions: { saved: () => {} },
        actors: {
          save: fromPromise<EditorValues, SaveInput<EditorValues>>(async () => ({ id: 1 })),
          remove: fromPromise<unknown, { record: EditorValues }>(async () => undefined),
          reload: fromPromise<EditorValues, { record: EditorValues }>(async ({ input }) => input.record),
        },
      }),
      {
        input: {
          schema: z.strictObject({ name: z.string().min(1), email: z.string() }),
          fields: ['name', 'email'],
          empty: { name: '', email: '' },
        },
      },
    ).start();
    render(
      <OverlaysProvider>
        <ResourceTable<Row>
          list={list}
          columns={[{ key: 'name', label: 'Nombre' }]}
          rowKey={(r) => r.id}
          caption="Usuarios"
          rowActions={[{ text: 'Editar', icon: 'edit', onClick: (row) => editor.send({ type: 'editor.openEdit', record: row }) }]}
        />
        <EditorDialog editor={editor} createTitle="Nuevo usuario" editTitle="Editar usuario">
          <TextField editor={editor} field="name" label="Nombre" />
        </EditorDialog>
      </OverlaysProvider>,
    );
    const user = userEvent.setup();
    await screen.findByText('Ana');
    const actions = screen.getByRole('button', { name: 'Acciones' });
    actions.focus();
    await user.keyboard('{Enter}');
    const item = await screen.findByRole('menuitem', { name: /Editar/ });
    item.focus();
    await user.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Editar usuario' });
    await waitFor(() => expect(dialog.closest('.bp6-overlay')!.contains(document.activeElement)).toBe(true));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Editar usuario' })).toBeNull());
    expect(document.activeElement).toBe(actions);
  });
});
