import { assertEvent, assign, fromPromise, raise, setup, type AnyActorRef } from 'xstate';
import type { ApiError } from '../../api/client';
import type { WalletsApi } from '../../api/finanzas/wallets';
import { QR_CONTENT_TYPES, QR_MAX_BYTES, type Wallet } from '../../schemas/finanzas/wallets';
import { placeholder } from '../shared/placeholder';
import { errorMessage, forwardSessionErrors } from '../shared/api-errors';

/**
 * The QR image of one wallet (issue 16: "QR image upload (PNG/JPEG, sniffed, ≤ 1 MB)"). `qr_url`
 * is an authenticated /api path, so an `<img src>` cannot load it: the machine fetches it as a Blob
 * through the api client and owns the object URL (created on load, revoked when replaced and when
 * the actor stops). Upload: PNG/JPEG ≤ 1 MB ({@link QR_MAX_BYTES}), checked before sending (the
 * server sniffs the bytes again: its 422 is shown).
 *
 * Input `{ walletId, qrUrl, list? }`. Parallel regions — image: checking → empty | loading → shown |
 * failure (`qr.retry`); upload: idle → `qr.upload {file}` → uploading → idle (the new `qr_url` is
 * loaded, `uploaded(wallet)` toasts, the list is told `list.refresh`).
 */

export interface WalletQrContext {
  walletId: number;
  qrUrl: string | null;
  /** Told `list.refresh` after an upload (the wallets list, whose row shows whether there is a QR), if given. */
  list: AnyActorRef | null;
  /** Object URL of the loaded image (revoked on change / stop). */
  objectUrl: string | null;
  error: string | null;
  uploadError: string | null;
}

export type WalletQrEvent = { type: 'qr.upload'; file: File } | { type: 'qr.retry' } | { type: 'qr.urlChanged'; qrUrl: string | null };

/** Spanish refusal of a file the server would refuse (by its declared type and size), or null. */
export function qrFileError(file: { type: string; size: number }): string | null {
  if (!(QR_CONTENT_TYPES as readonly string[]).includes(file.type)) return 'El QR debe ser una imagen PNG o JPEG';
  if (file.size > QR_MAX_BYTES) return 'El QR debe pesar como máximo 1 MB';
  return null;
}

const revoke = (url: string | null) => {
  if (url) URL.revokeObjectURL(url);
};

export const walletQrMachine = setup({
  types: {
    context: {} as WalletQrContext,
    events: {} as WalletQrEvent,
    input: {} as { walletId: number; qrUrl: string | null; list?: AnyActorRef | null },
  },
  actors: {
    /** GET the QR bytes → an object URL. */
    load: placeholder<string, { qrUrl: string }>('load'),
    /** POST the QR → the updated wallet. */
    upload: placeholder<Wallet, { walletId: number; file: File }>('upload'),
  },
  actions: {
    uploaded: (_, _w: Wallet) => {},
    reportApiError: (_, _e: ApiError) => {},
  },
  guards: { hasQr: ({ context }) => context.qrUrl !== null },
}).createMachine({
  id: 'walletQr',
  context: ({ input }) => ({
    walletId: input.walletId,
    qrUrl: input.qrUrl,
    list: input.list ?? null,
    objectUrl: null,
    error: null,
    uploadError: null,
  }),
  exit: ({ context }) => revoke(context.objectUrl),
  type: 'parallel',
  states: {
    image: {
      initial: 'checking',
      on: { 'qr.urlChanged': { target: '.checking', actions: assign(({ event }) => ({ qrUrl: event.qrUrl })) } },
      states: {
        checking: { always: [{ guard: 'hasQr', target: 'loading' }, { target: 'empty' }] },
        empty: {},
        loading: {
          invoke: {
            src: 'load',
            input: ({ context }) => ({ qrUrl: context.qrUrl! }),
            onDone: {
              target: 'shown',
              actions: assign(({ context, event }) => {
                revoke(context.objectUrl);
                return { objectUrl: event.output, error: null };
              }),
            },
            onError: { target: 'failure', actions: assign(({ event }) => ({ error: errorMessage(event.error) })) },
          },
        },
        shown: {},
        failure: { on: { 'qr.retry': 'loading' } },
      },
    },
    upload: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'qr.upload': [
              {
                guard: ({ event }) => qrFileError(event.file) !== null,
                actions: assign(({ event }) => ({ uploadError: qrFileError(event.file) })),
              },
              { target: 'uploading', actions: assign({ uploadError: null }) },
            ],
          },
        },
        uploading: {
          invoke: {
            src: 'upload',
            input: ({ context, event }) => {
              assertEvent(event, 'qr.upload');
              return { walletId: context.walletId, file: event.file };
            },
            onDone: {
              target: 'idle',
              actions: [
                { type: 'uploaded', params: ({ event }) => event.output },
                raise(({ event }) => ({ type: 'qr.urlChanged' as const, qrUrl: event.output.qr_url })),
                ({ context }) => context.list?.send({ type: 'list.refresh' }),
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                assign(({ event }) => ({ uploadError: errorMessage(event.error) })),
                { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
              ],
            },
          },
        },
      },
    },
  },
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
      load: fromPromise(async ({ input }) => create(await deps.walletsApi.qrBlob(input.qrUrl))),
      upload: fromPromise(({ input }) => deps.walletsApi.uploadQr(input.walletId, input.file, input.file.name)),
    },
    actions: {
      uploaded: () => deps.toaster?.show({ severity: 'success', summary: 'QR actualizado' }),
      reportApiError: (_, e) => forwardSessionErrors(deps.reportApiError)(e),
    },
  });
}
