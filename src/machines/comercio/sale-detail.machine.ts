import { assign, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import type { Sale } from '../../schemas/comercio/sales';
import type { SaleSchedule } from '../../schemas/comercio/rescissions';
import { placeholder } from '../shared/placeholder';
import { errorMessage } from '../shared/api-errors';

/** The sale's contract as the drawer shows it: its number (null while BORRADOR) and state. */
export interface SaleContractRef {
  id: number;
  number: string | null;
  state: string;
}

/** What the drawer loads: the sale, its superseded schedules and its latest contract. */
export interface SaleDetailData {
  sale: Sale;
  /** GET sales/{id}/schedules without the current one: the old schedules, newest first (read-only). */
  oldSchedules: SaleSchedule[];
  /** The latest contract of the sale (null: none, or the user cannot read contracts). */
  contract: SaleContractRef | null;
}

/** A document of the sale to download: its path (`download_path` of the answers) and the file's name. */
export interface SaleDocumentDownload {
  path: string;
  fileName: string;
}

/**
 * One sale's drawer on Comercial → Ventas: closed → (`detail.open {id}`) loading (GET sales/{id},
 * with its schedule; the schedules an adenda superseded; its contract) → ready | failed;
 * `detail.refresh` loads again; `detail.close` closes. In ready, `detail.download {path, fileName}`
 * downloads a generated document (the letter of resolution, the adenda; docs/domain.md "Rescission
 * and rescheduling: their documents"): ready.downloading until saved, a failure reported by
 * `downloadFailed`.
 */
export const saleDetailMachine = setup({
  types: {
    context: {} as {
      id: number | null;
      sale: Sale | null;
      oldSchedules: SaleSchedule[];
      contract: SaleContractRef | null;
      error: string | null;
    },
    events: {} as
      | { type: 'detail.open'; id: number }
      | { type: 'detail.refresh' }
      | { type: 'detail.close' }
      | ({ type: 'detail.download' } & SaleDocumentDownload),
  },
  actors: { load: placeholder<SaleDetailData, { id: number }>('load'), download: placeholder<void, SaleDocumentDownload>('download') },
  actions: { reportApiError: (_, _error: ApiError) => {}, downloadFailed: (_, _message: string) => {} },
}).createMachine({
  id: 'saleDetail',
  context: { id: null, sale: null, oldSchedules: [], contract: null, error: null },
  initial: 'closed',
  on: {
    'detail.open': {
      target: '.loading',
      actions: assign(({ event }) => ({ id: event.id, sale: null, oldSchedules: [], contract: null, error: null })),
    },
    'detail.close': { target: '.closed', actions: assign({ id: null, sale: null, oldSchedules: [], contract: null, error: null }) },
  },
  states: {
    closed: {},
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ id: context.id! }),
        onDone: { target: 'ready', actions: assign(({ event }) => ({ ...event.output, error: null })) },
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
      on: { 'detail.refresh': '#saleDetail.loading' },
      initial: 'idle',
      states: {
        idle: { on: { 'detail.download': 'downloading' } },
        downloading: {
          invoke: {
            src: 'download',
            input: ({ event }) => {
              const { path, fileName } = event as SaleDocumentDownload & { type: 'detail.download' };
              return { path, fileName };
            },
            onDone: 'idle',
            onError: { target: 'idle', actions: { type: 'downloadFailed', params: ({ event }) => errorMessage(event.error) } },
          },
        },
      },
    },
    failed: { on: { 'detail.refresh': 'loading' } },
  },
});
export type SaleDetailMachine = typeof saleDetailMachine;
