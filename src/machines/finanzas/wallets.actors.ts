import type { ApiClient, ApiError } from '../../api/client';
import { createWalletsApi, type WalletsApi } from '../../api/finanzas/wallets';
import type { AppToaster } from '../../lib/toaster';
import type { CreateWalletRequest, UpdateWalletRequest, Wallet } from '../../schemas/finanzas/wallets';
import { resourceScreenMachines } from '../shared/resource-screen';
import { createWalletQrMachine } from './wallet-qr.machine';

/**
 * Finanzas → Billetera Digital (issue 16, first slice): the CRUD pattern's list and editor over the
 * wallets api (save = POST or PATCH with the version read; remove = DELETE; "Recargar" = GET one)
 * and `qr`, the QR image of the wallet being edited (wallet-qr.machine.ts). Deactivating is the
 * editor's "Activa" checkbox (PATCH `active`).
 */

export interface WalletsMachinesDeps {
  walletsApi: WalletsApi;
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
  /** Object URLs of the QR blobs (default the browser's URL; tests pass fakes). */
  objectUrls?: { create(blob: Blob): string };
}

/** The Billetera Digital screen's machines, provided. */
export function createWalletsMachines(deps: WalletsMachinesDeps) {
  const api = deps.walletsApi;
  const screen = resourceScreenMachines<Wallet, CreateWalletRequest, UpdateWalletRequest>({
    fetchPage: api.list,
    save: (input) => (input.mode === 'edit' ? api.update(input.record.id, input.body) : api.create(input.body)),
    remove: (record) => api.remove(record.id),
    fetchOne: (record) => api.get(record.id),
    reportApiError: deps.reportApiError,
    toaster: deps.toaster,
  });
  const qr = createWalletQrMachine({
    walletsApi: api,
    reportApiError: deps.reportApiError,
    toaster: deps.toaster,
    ...(deps.objectUrls ? { objectUrls: deps.objectUrls } : {}),
  });
  return { ...screen, qr };
}
export type WalletsMachines = ReturnType<typeof createWalletsMachines>;

/** Builds the api module on the app's client (this module is loaded on demand with the screen). */
export function createWalletsMachinesFor(client: ApiClient, deps: Omit<WalletsMachinesDeps, 'walletsApi'>) {
  return createWalletsMachines({ ...deps, walletsApi: createWalletsApi(client) });
}
