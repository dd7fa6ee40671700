import { fromPromise } from 'xstate';
import type { ApiError } from '../../api/client';
import type { WalletsApi } from '../../api/finanzas/wallets';
import { QR_CONTENT_TYPES, QR_MAX_BYTES, type Wallet } from '../../schemas/finanzas/wallets';
import { forwardSessionErrors } from '../shared/api-errors';
import { createRecordImageMachine } from '../shared/record-image.machine';

/**
 * The QR image of one wallet (issue 16: "QR image upload (PNG/JPEG, sniffed, ≤ 1 MB)"). `qr_url`
 * is an authenticated /api path, so an `<img src>` cannot load it: the machine fetches it as a Blob
 * through the api client and owns the object URL (created on load, revoked when replaced and when
 * the actor stops). Upload: PNG/JPEG ≤ 1 MB ({@link QR_MAX_BYTES}), checked before sending (the
 * server sniffs the bytes again: its 422 is shown).
 *
 * The machine is the shared one of record images (../shared/record-image.machine.ts): input
 * `{ target: wallet id, url: qr_url, list? }`, events `image.upload {file}`, `image.retry`; after an
 * upload the new `qr_url` is loaded, `uploaded(wallet)` toasts and the list is told `list.refresh`.
 */

/** Spanish refusal of a file the server would refuse (by its declared type and size), or null. */
export function qrFileError(file: { type: string; size: number }): string | null {
  if (!(QR_CONTENT_TYPES as readonly string[]).includes(file.type)) return 'El QR debe ser una imagen PNG o JPEG';
  if (file.size > QR_MAX_BYTES) return 'El QR debe pesar como máximo 1 MB';
  return null;
}

/** The QR's machine: ../shared/record-image.machine.ts over a wallet (its id) and its `qr_url`. */
export const walletQrMachine = createRecordImageMachine<number, Wallet>({
  id: 'walletQr',
  fileError: qrFileError,
  urlOf: (w) => w.qr_url,
});
export type WalletQrMachine = typeof walletQrMachine;

/** Provided with the wallets api (the object URL comes from the Blob; `objectUrls` for tests). */
export function createWalletQrMachine(deps: {
  walletsApi: Pick<WalletsApi, 'qrBlob' | 'uploadQr'>;
  reportApiError: (e: ApiError) => void;
  toaster?: { show(m: { severity: 'success'; summary: string }): void };
  objectUrls?: { create(blob: Blob): string };
}): WalletQrMachine {
  const create = deps.objectUrls?.create ?? ((b: Blob) => URL.createObjectURL(b));
  return walletQrMachine.provide({
    actors: {
      load: fromPromise(async ({ input }) => create(await deps.walletsApi.qrBlob(input.url))),
      upload: fromPromise(({ input }) => deps.walletsApi.uploadQr(input.target, input.file, input.file.name)),
    },
    actions: {
      uploaded: () => deps.toaster?.show({ severity: 'success', summary: 'QR actualizado' }),
      reportApiError: (_, e) => forwardSessionErrors(deps.reportApiError)(e),
    },
  });
}
