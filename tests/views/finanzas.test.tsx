/**
 * /FINANZAS/Bancos (BankAccountsPage) and /FINANZAS/BilleteraDigital (WalletsPage) over their real
 * machines with fake apis: the list with its active filter, the editor drawer (the bank catalogue,
 * the CCI field saying what is wrong, the body sent with its version, the server's 422 under its
 * field) and the wallet's QR (shown from the blob, refused or uploaded).
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import { ApiError } from '../../src/api/client';
import { createBankAccountsMachines } from '../../src/machines/finanzas/bank-accounts.actors';
import { createWalletsMachines } from '../../src/machines/finanzas/wallets.actors';
import type { BankAccountsApi } from '../../src/api/finanzas/bank-accounts';
import type { WalletsApi } from '../../src/api/finanzas/wallets';
import { BankAccountsPage } from '../../src/views/finanzas/BankAccountsPage';
import { WalletsPage } from '../../src/views/finanzas/WalletsPage';
import type { BankAccount } from '../../src/schemas/finanzas/bank-accounts';
import { CCI_MESSAGES, bankByCode } from '../../src/schemas/finanzas/banks';
import type { Wallet } from '../../src/schemas/finanzas/wallets';
import type { ListQuery } from '../../src/schemas/list';

const page = <T,>(rows: T[], q: ListQuery) => ({ data: rows, meta: { page: q.page, per_page: q.per_page, total: rows.length } });

const ACCOUNT: BankAccount = {
  id: 3,
  bank: 'BCP',
  kind: 'AHORROS',
  currency: 'PEN',
  number: '19100012345678',
  cci: '00219100012345678957',
  holder: 'Parcela Inmobiliaria S.A.C.',
  active: true,
  version: 2,
};

// The lists write their query to the address: each test starts from a plain one.
beforeEach(() => window.history.replaceState(null, '', '/'));

async function openRowAction(user: ReturnType<typeof userEvent.setup>, text: string, action: string) {
  const row = (await screen.findByText(text)).closest('tr')!;
  await user.click(within(row).getByRole('button', { name: 'Acciones' }));
  await user.click(await screen.findByRole('menuitem', { name: action }));
  await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
}

describe('Bancos', () => {
  function setup(overrides: Partial<BankAccountsApi> = {}) {
    const api: BankAccountsApi = {
      list: vi.fn(async (q: ListQuery) => page([ACCOUNT], q)),
      get: vi.fn(async () => ACCOUNT),
      create: vi.fn(async (body) => ({ ...ACCOUNT, id: 9, ...body }) as BankAccount),
      update: vi.fn(async (_id, body) => ({ ...ACCOUNT, ...body }) as BankAccount),
      remove: vi.fn(async () => undefined),
      ...overrides,
    };
    const machines = createBankAccountsMachines({ bankAccountsApi: api, reportApiError: vi.fn(), toaster: { show: vi.fn() } });
    render(
      <OverlaysProvider>
        <BankAccountsPage machines={machines} />
      </OverlaysProvider>,
    );
    return { api, user: userEvent.setup() };
  }

  it('lists the accounts with the bank name and the CCI grouped, and filters the inactive ones', async () => {
    const { api, user } = setup();
    expect(await screen.findByText('BCP')).toBeTruthy();
    expect(screen.getByText('002-191-000123456789-57')).toBeTruthy();
    expect(screen.getByText('Activa')).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Estado'), 'Inactivas');
    await waitFor(() => expect(vi.mocked(api.list).mock.lastCall?.[0].filters).toEqual({ active: 'false' }));
  });

  it('says what is wrong with the CCI as it is typed, refuses to save it, and creates the account with digits only', async () => {
    const { api, user } = setup();
    await user.click((await screen.findAllByRole('button', { name: 'Nueva cuenta' }))[0]!);
    const drawer = await screen.findByRole('dialog', { name: 'Nueva cuenta bancaria' });
    const bank = within(drawer).getByLabelText('Banco');
    expect(within(bank).getByRole('option', { name: 'Interbank (003)' })).toBeTruthy();
    await user.selectOptions(bank, 'BBVA');
    const cci = within(drawer).getByLabelText('CCI (Código de Cuenta Interbancario)');
    await user.type(cci, '0021');
    expect(within(drawer).getByText(CCI_MESSAGES.length)).toBeTruthy();
    await user.clear(cci);
    await user.type(cci, '00219100012345678957');
    expect(within(drawer).getByText(CCI_MESSAGES.bankCode(bankByCode('BBVA')!))).toBeTruthy();
    await user.selectOptions(bank, 'BCP');
    await user.clear(cci);
    await user.type(cci, '00219100012345678958');
    expect(within(drawer).getByText(CCI_MESSAGES.checkDigits)).toBeTruthy();
    await user.type(within(drawer).getByLabelText('Número de cuenta'), '191-00012345678');
    await user.type(within(drawer).getByLabelText('Titular'), 'Parcela SAC');
    await user.click(within(drawer).getByRole('button', { name: 'Guardar' }));
    expect(await within(drawer).findByText(CCI_MESSAGES.checkDigits, { selector: '[id$="-error"]' })).toBeTruthy();
    expect(api.create).not.toHaveBeenCalled();
    await user.clear(cci);
    await user.type(cci, '002-191-000123456789-57');
    await user.click(within(drawer).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(api.create).toHaveBeenCalled());
    expect(vi.mocked(api.create).mock.calls[0]?.[0]).toEqual({
      bank: 'BCP',
      kind: 'AHORROS',
      currency: 'PEN',
      number: '19100012345678',
      cci: '00219100012345678957',
      holder: 'Parcela SAC',
      active: true,
    });
  });

  it('deactivates an account from the editor, sending the version read; a 422 lands under its field', async () => {
    const update = vi
      .fn<BankAccountsApi['update']>()
      .mockRejectedValueOnce(
        new ApiError(422, 'Los datos no son válidos', { number: ['Ya hay una cuenta registrada con ese banco y número'] }),
      )
      .mockResolvedValueOnce({ ...ACCOUNT, active: false, version: 3 });
    const { user } = setup({ update });
    await openRowAction(user, 'Parcela Inmobiliaria S.A.C.', 'Editar');
    const drawer = await screen.findByRole('dialog', { name: 'Editar cuenta bancaria' });
    await user.click(within(drawer).getByLabelText('Activa (disponible para recibir pagos)'));
    await user.click(within(drawer).getByRole('button', { name: 'Guardar' }));
    expect(await within(drawer).findByText('Ya hay una cuenta registrada con ese banco y número')).toBeTruthy();
    expect(update.mock.calls[0]).toEqual([3, expect.objectContaining({ active: false, version: 2 })]);
    await user.click(within(drawer).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(update).toHaveBeenCalledTimes(2));
  });
});

describe('Billetera Digital', () => {
  const WALLET: Wallet = {
    id: 7,
    kind: 'YAPE',
    phone: '987654321',
    holder: 'Parcela SAC',
    active: true,
    qr_url: '/api/wallets/7/qr?v=1',
    version: 1,
  };

  function setup(overrides: Partial<WalletsApi> = {}) {
    const api: WalletsApi = {
      list: vi.fn(async (q: ListQuery) =>
        page([WALLET, { ...WALLET, id: 8, kind: 'PLIN' as const, phone: '912345678', qr_url: null, active: false }], q),
      ),
      get: vi.fn(async () => WALLET),
      create: vi.fn(async (body) => ({ ...WALLET, id: 9, qr_url: null, ...body }) as Wallet),
      update: vi.fn(async (_id, body) => ({ ...WALLET, ...body }) as Wallet),
      remove: vi.fn(async () => undefined),
      uploadQr: vi.fn(async () => ({ ...WALLET, qr_url: '/api/wallets/7/qr?v=2' })),
      qrBlob: vi.fn(async (url: string) => new Blob([url], { type: 'image/png' })),
      ...overrides,
    };
    const objectUrls = { create: vi.fn((blob: Blob) => `blob:qr-${blob.size}`) };
    const machines = createWalletsMachines({ walletsApi: api, reportApiError: vi.fn(), toaster: { show: vi.fn() }, objectUrls });
    render(
      <OverlaysProvider>
        <WalletsPage machines={machines} />
      </OverlaysProvider>,
    );
    return { api, objectUrls };
  }

  it('lists the wallets with their phone, QR and state, and filters by kind', async () => {
    const { api } = setup();
    const user = userEvent.setup();
    expect(await screen.findByText('987 654 321')).toBeTruthy();
    expect(screen.getByText('Sin QR')).toBeTruthy();
    expect(screen.getByText('Inactiva')).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Billetera'), 'Plin');
    await waitFor(() => expect(vi.mocked(api.list).mock.lastCall?.[0].filters).toEqual({ kind: 'PLIN' }));
  });

  it('creates a wallet (phone checked first), the QR offered after saving', async () => {
    const { api } = setup();
    const user = userEvent.setup();
    await user.click((await screen.findAllByRole('button', { name: 'Nueva billetera' }))[0]!);
    const drawer = await screen.findByRole('dialog', { name: 'Nueva billetera' });
    expect(within(drawer).getByText('Podrá subir el código QR después de guardar la billetera.')).toBeTruthy();
    await user.selectOptions(within(drawer).getByLabelText('Billetera'), 'Plin');
    await user.type(within(drawer).getByLabelText('Celular'), '812345678');
    await user.type(within(drawer).getByLabelText('Titular'), 'Parcela SAC');
    await user.click(within(drawer).getByRole('button', { name: 'Guardar' }));
    expect(await within(drawer).findByText('El celular debe tener 9 dígitos y empezar con 9')).toBeTruthy();
    await user.clear(within(drawer).getByLabelText('Celular'));
    await user.type(within(drawer).getByLabelText('Celular'), '912 345 679');
    await user.click(within(drawer).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(api.create).toHaveBeenCalledWith({ kind: 'PLIN', phone: '912345679', holder: 'Parcela SAC', active: true }));
  });

  it("shows the wallet's QR, refuses another type, and uploads a new PNG", async () => {
    const { api } = setup();
    const user = userEvent.setup({ applyAccept: false });
    await openRowAction(user, '987 654 321', 'Editar');
    const drawer = await screen.findByRole('dialog', { name: 'Editar billetera' });
    const img = (await within(drawer).findByRole('img', { name: 'QR de Yape 987 654 321' })) as HTMLImageElement;
    expect(img.src).toMatch(/^blob:qr-/);
    expect(api.qrBlob).toHaveBeenCalledWith('/api/wallets/7/qr?v=1');
    const input = within(drawer).getByLabelText('Subir QR') as HTMLInputElement;
    await user.upload(input, new File(['x'], 'qr.gif', { type: 'image/gif' }));
    expect(await within(drawer).findByText('El QR debe ser una imagen PNG o JPEG')).toBeTruthy();
    await user.upload(input, new File(['png'], 'qr.png', { type: 'image/png' }));
    await waitFor(() => expect(api.uploadQr).toHaveBeenCalledWith(7, expect.any(File), 'qr.png'));
    await waitFor(() => expect(api.qrBlob).toHaveBeenLastCalledWith('/api/wallets/7/qr?v=2'));
  });
});
