/**
 * docs/decisions.md "Keyboard and focus: every dialog with typed data": a dialog with typed data
 * asks "¿Descartar los cambios?" before closing (Escape, the close button, "Cancelar"); "Seguir
 * editando" keeps what was typed, "Descartar" closes it; closing gives focus back to the trigger.
 * Over the real machines with fake calls: "Cotizar lote" (QuoteDialog), Finanzas → Pagos'
 * "Registrar pago" and "Anular venta" (an alert: the question stacks over it).
 */
import type { ReactNode } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Button, OverlaysProvider } from '@blueprintjs/core';
import { createActor, createMachine, fromPromise } from 'xstate';
import { provideQuoteForm } from '../../src/machines/comercio/quote-form.machine';
import { QuoteDialog } from '../../src/views/comercio/QuoteDialog';
import { annulSaleMachine } from '../../src/machines/comercio/annul-sale.machine';
import { AnnulSaleDialog } from '../../src/views/comercio/AnnulSaleDialog';
import type { Sale, SaleAnnulment } from '../../src/schemas/comercio/sales';
import { createPaymentsMachines, type PaymentsMachinesDeps } from '../../src/machines/finanzas/payments.actors';
import type { PaymentsApi } from '../../src/api/finanzas/payments';
import { PaymentsPage } from '../../src/views/finanzas/PaymentsPage';
import { ServicesProvider, type ViewServices } from '../../src/views/services';
import { DISCARD_MESSAGE, DISCARD_TITLE } from '../../src/views/shared/DiscardChangesAlert';
import type { ListQuery } from '../../src/schemas/list';

const page = <T,>(rows: T[], q: ListQuery) => ({ data: rows, meta: { page: q.page, per_page: q.per_page, total: rows.length } });

function withServices(node: ReactNode) {
  const session = createActor(createMachine({ context: { permissions: [] } })).start();
  const services = {
    session,
    machines: {},
    navigate: vi.fn(),
    toaster: { show: vi.fn() },
    today: () => '2026-11-22',
  } as unknown as ViewServices;
  return render(
    <ServicesProvider value={services}>
      <OverlaysProvider>{node}</OverlaysProvider>
    </ServicesProvider>,
  );
}

/** "Cotizar" opening the quote dialog of a lot, as the maps and the lots list do. */
function openQuote() {
  const quote = createActor(
    provideQuoteForm({
      searchCustomers: vi.fn(async () => []),
      searchLots: vi.fn(async () => []),
      create: vi.fn(),
      changeStatus: vi.fn(),
      downloadPdf: vi.fn(),
      reportApiError: vi.fn(),
      toast: vi.fn(),
    }),
  ).start();
  const lot = { id: 9, code: 'MZ A - LT 9', currency: 'PEN' as const, listPrice: 5_000_000 };
  withServices(
    <>
      <Button text="Cotizar" onClick={() => quote.send({ type: 'quote.open', lot, today: '2026-11-22' })} />
      <QuoteDialog actor={quote} />
    </>,
  );
  return { quote, user: userEvent.setup(), trigger: screen.getByRole('button', { name: 'Cotizar' }) };
}

/** Finanzas → Pagos with an empty queue and fake calls. */
function paymentsPage() {
  const paymentsApi = {
    list: vi.fn(async (q: ListQuery) => page([], q)),
    get: vi.fn(),
    create: vi.fn(),
    uploadVoucher: vi.fn(),
    voucherBlob: vi.fn(),
    approve: vi.fn(),
    reject: vi.fn(),
    annul: vi.fn(),
    receipt: vi.fn(),
  } as unknown as PaymentsApi;
  const deps: PaymentsMachinesDeps = {
    paymentsApi,
    salesApi: { list: vi.fn(async (q: ListQuery) => page([], q)) },
    reservationsApi: { list: vi.fn(async (q: ListQuery) => page([], q)) },
    bankAccountsApi: { list: vi.fn(async (q: ListQuery) => page([], q)) },
    walletsApi: { list: vi.fn(async (q: ListQuery) => page([], q)) },
    reportApiError: vi.fn(),
    toaster: { show: vi.fn() },
    saveBlob: vi.fn(),
    objectUrls: { create: vi.fn(() => 'blob:x') },
  };
  withServices(<PaymentsPage machines={createPaymentsMachines(deps)} notifications={null} />);
  return { user: userEvent.setup() };
}

describe('a dialog with typed data asks before closing and gives focus back to its trigger', () => {
  it('"Cotizar lote": typing then Escape asks; "Seguir editando" keeps the value; "Descartar" closes and focus returns to "Cotizar"', async () => {
    const { user, trigger } = openQuote();
    await user.click(trigger);
    const dialog = await screen.findByRole('dialog', { name: 'Cotizar lote MZ A - LT 9' });
    const days = within(dialog).getByLabelText('Válida por (días)') as HTMLInputElement;
    await user.type(days, '15', { initialSelectionStart: 0, initialSelectionEnd: days.value.length });
    await user.keyboard('{Escape}');
    const alert = await screen.findByRole('alertdialog');
    expect(within(alert).getByText(DISCARD_TITLE)).toBeTruthy();
    expect(within(alert).getByText(DISCARD_MESSAGE)).toBeTruthy();
    expect(screen.getByRole('dialog', { name: 'Cotizar lote MZ A - LT 9' })).toBeTruthy();

    await user.click(within(alert).getByRole('button', { name: 'Seguir editando' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect((within(dialog).getByLabelText('Válida por (días)') as HTMLInputElement).value).toBe('15');

    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    const again = await screen.findByRole('alertdialog');
    await user.click(within(again).getByRole('button', { name: 'Descartar' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Cotizar lote MZ A - LT 9' })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(trigger));
  });

  it('"Cotizar lote" untouched: Escape closes it at once and focus returns to "Cotizar"', async () => {
    const { user, trigger } = openQuote();
    await user.click(trigger);
    await screen.findByRole('dialog', { name: 'Cotizar lote MZ A - LT 9' });
    await waitFor(() => expect(document.activeElement).not.toBe(trigger));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Cotizar lote MZ A - LT 9' })).toBeNull());
    expect(screen.queryByRole('alertdialog')).toBeNull();
    await waitFor(() => expect(document.activeElement).toBe(trigger));
  });

  it('"Registrar pago": typing then Escape asks; "Seguir editando" keeps the value; "Descartar" closes and focus returns to "Registrar pago"', async () => {
    const { user } = paymentsPage();
    const trigger = (await screen.findAllByRole('button', { name: 'Registrar pago' }))[0]!;
    await user.click(trigger);
    const dialog = await screen.findByRole('dialog', { name: 'Registrar pago' });
    await user.type(within(dialog).getByLabelText('N.º de operación'), 'OP-77');
    await user.keyboard('{Escape}');
    const alert = await screen.findByRole('alertdialog');
    expect(within(alert).getByText(DISCARD_TITLE)).toBeTruthy();

    await user.click(within(alert).getByRole('button', { name: 'Seguir editando' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect((within(dialog).getByLabelText('N.º de operación') as HTMLInputElement).value).toBe('OP-77');

    // Escape again once the focus is back in the dialog (Blueprint returns it as the alert closes).
    await waitFor(() => expect(dialog.contains(document.activeElement)).toBe(true));
    await user.keyboard('{Escape}');
    const again = await screen.findByRole('alertdialog');
    await user.click(within(again).getByRole('button', { name: 'Descartar' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Registrar pago' })).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(trigger));
  });

  it('"Anular venta" with a reason typed: Escape asks, Escape again keeps editing; "Descartar" closes and focus returns to the trigger', async () => {
    const sale = { id: 3, number: 'V-000003', currency: 'PEN', lot: { id: 9, code: 'MZ A - LT 9' }, version: 4 } as unknown as Sale;
    const annulment: SaleAnnulment = { sale_id: 3, currency: 'PEN', paid: 0, credit_targets: [] };
    const annul = createActor(
      annulSaleMachine.provide({ actors: { loadAnnulment: fromPromise(async () => annulment), run: fromPromise(async () => sale) } }),
    ).start();
    withServices(
      <>
        <Button text="Anular" onClick={() => annul.send({ type: 'reason.request', record: sale })} />
        <AnnulSaleDialog actor={annul} />
      </>,
    );
    const user = userEvent.setup();
    const trigger = screen.getByRole('button', { name: 'Anular' });
    await user.click(trigger);
    const question = await screen.findByRole('alertdialog');
    await user.type(within(question).getByLabelText('Motivo de la anulación'), 'Desistimiento');
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.getAllByRole('alertdialog')).toHaveLength(2));
    // The question's overlay (Blueprint focuses its container, around the alertdialog element).
    const discard = screen.getByText(DISCARD_TITLE).closest('.bp6-overlay')!;
    // The user answers the question once it has the focus (Blueprint moves it there as the alert opens).
    await waitFor(() => expect(discard.contains(document.activeElement)).toBe(true));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByText(DISCARD_TITLE)).toBeNull());
    expect((within(question).getByLabelText('Motivo de la anulación') as HTMLTextAreaElement).value).toBe('Desistimiento');

    await user.click(within(question).getByRole('button', { name: 'Cancelar' }));
    await user.click(await screen.findByRole('button', { name: 'Descartar' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    await waitFor(() => expect(document.activeElement).toBe(trigger));
  });
});
