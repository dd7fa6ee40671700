import { assertEvent, assign, emit, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import { MAX_VOUCHERS, VOUCHER_CONTENT_TYPES, VOUCHER_MAX_BYTES, type Payment } from '../../schemas/finanzas/payments';
import { errorMessage } from '../shared/api-errors';
import { placeholder } from '../shared/placeholder';

/**
 * One payment's drawer on Finanzas → Pagos (issue 16 "the review queue: each with its voucher images
 * (zoomable)…"): closed → (`detail.open {id}`) loading (GET payments/{id}, with the allocation
 * preview of a PENDIENTE sale payment) → ready | failed; `detail.refresh` loads again (after a
 * review, a notification); `detail.close` closes.
 *
 * The voucher images are behind authenticated /api paths, so once the payment is read the machine
 * fetches them as Blobs (`loadImages`: every voucher's `url` → an object URL) and owns those URLs
 * (revoked when replaced, on close and when the actor stops). `voucher.zoom {id}` shows one large,
 * `voucher.unzoom` closes it. While PENDIENTE, `voucher.upload {file}` adds an image (PNG, JPEG or
 * WebP ≤ 5 MB, checked first: {@link voucherFileError}; the server sniffs the bytes again) and the
 * payment is read again; `uploaded` is told (a toast) and the machine emits `changed`.
 */

/** Object URL of each voucher image, by voucher id. */
export type VoucherImages = Record<number, string>;

/** Spanish refusal of a voucher file the server would refuse (by its declared type and size), or null. */
export function voucherFileError(file: { type: string; size: number }): string | null {
  if (!(VOUCHER_CONTENT_TYPES as readonly string[]).includes(file.type)) return 'El comprobante debe ser una imagen PNG, JPEG o WebP';
  if (file.size > VOUCHER_MAX_BYTES) return 'El comprobante debe pesar como máximo 5 MB';
  return null;
}

export interface PaymentDetailContext {
  id: number | null;
  payment: Payment | null;
  error: string | null;
  images: VoucherImages;
  imagesError: string | null;
  /** The voucher shown large, or null. */
  zoomed: number | null;
  uploadError: string | null;
}

export type PaymentDetailEvent =
  | { type: 'detail.open'; id: number }
  | { type: 'detail.refresh' }
  | { type: 'detail.close' }
  | { type: 'voucher.zoom'; id: number }
  | { type: 'voucher.unzoom' }
  | { type: 'voucher.upload'; file: File }
  | { type: 'images.retry' };

const revokeAll = (images: VoucherImages) => {
  for (const url of Object.values(images)) URL.revokeObjectURL(url);
};

const EMPTY = { payment: null, error: null, images: {}, imagesError: null, zoomed: null, uploadError: null };

export const paymentDetailMachine = setup({
  types: {
    context: {} as PaymentDetailContext,
    events: {} as PaymentDetailEvent,
    emitted: {} as { type: 'changed'; payment: Payment },
  },
  actors: {
    /** GET payments/{id}. */
    load: placeholder<Payment, { id: number }>('load'),
    /** Every voucher image → its object URL. */
    loadImages: placeholder<VoucherImages, { payment: Payment }>('loadImages'),
    /** POST payments/{id}/vouchers → the payment with the new image. */
    upload: placeholder<Payment, { id: number; file: File }>('upload'),
  },
  actions: {
    reportApiError: (_, _error: ApiError) => {},
    uploaded: (_, _payment: Payment) => {},
    dropImages: assign(({ context }) => {
      revokeAll(context.images);
      return { images: {}, zoomed: null };
    }),
  },
  guards: {
    canUpload: ({ context }) => context.payment?.status === 'PENDIENTE' && context.payment.vouchers.length < MAX_VOUCHERS,
  },
}).createMachine({
  id: 'paymentDetail',
  context: { id: null, ...EMPTY },
  exit: ({ context }) => revokeAll(context.images),
  initial: 'closed',
  on: {
    'detail.open': { target: '.loading', actions: ['dropImages', assign(({ event }) => ({ id: event.id, ...EMPTY }))] },
    'detail.close': { target: '.closed', actions: ['dropImages', assign({ id: null, ...EMPTY })] },
  },
  states: {
    closed: {},
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ id: context.id! }),
        onDone: { target: 'ready', actions: assign(({ event }) => ({ payment: event.output, error: null })) },
        onError: {
          target: 'failed',
          actions: [
            assign(({ event }) => ({ error: errorMessage(event.error) })),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
    ready: {
      type: 'parallel',
      on: { 'detail.refresh': '#paymentDetail.loading' },
      states: {
        images: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                src: 'loadImages',
                input: ({ context }) => ({ payment: context.payment! }),
                onDone: {
                  target: 'shown',
                  actions: assign(({ context, event }) => {
                    revokeAll(context.images);
                    const zoomed = context.zoomed !== null && event.output[context.zoomed] ? context.zoomed : null;
                    return { images: event.output, imagesError: null, zoomed };
                  }),
                },
                onError: { target: 'failed', actions: assign(({ event }) => ({ imagesError: errorMessage(event.error) })) },
              },
            },
            shown: {
              on: {
                'voucher.zoom': {
                  guard: ({ context, event }) => event.id in context.images,
                  actions: assign(({ event }) => ({ zoomed: event.id })),
                },
                'voucher.unzoom': { actions: assign({ zoomed: null }) },
              },
            },
            failed: { on: { 'images.retry': 'loading' } },
          },
        },
        upload: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'voucher.upload': [
                  {
                    guard: ({ event }) => voucherFileError(event.file) !== null,
                    actions: assign(({ event }) => ({ uploadError: voucherFileError(event.file) })),
                  },
                  { guard: 'canUpload', target: 'uploading', actions: assign({ uploadError: null }) },
                ],
              },
            },
            uploading: {
              invoke: {
                src: 'upload',
                input: ({ context, event }) => {
                  assertEvent(event, 'voucher.upload');
                  return { id: context.id!, file: event.file };
                },
                onDone: {
                  target: '#paymentDetail.loading',
                  actions: [
                    { type: 'uploaded', params: ({ event }) => event.output },
                    emit(({ event }) => ({ type: 'changed' as const, payment: event.output })),
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
    },
    failed: { on: { 'detail.refresh': 'loading' } },
  },
});
export type PaymentDetailMachine = typeof paymentDetailMachine;
