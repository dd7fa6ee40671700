import { assign, emit, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import { CONTRACT_MESSAGES, SIGNED_SCAN_MAX_BYTES, type Contract, type ContractDetail } from '../../schemas/administracion/contracts';
import { errorMessage } from '../shared/api-errors';
import { placeholder } from '../shared/placeholder';
import { SCAN_TYPES } from './generate-contract.machine';

/**
 * One contract's drawer in Registro de Contratos: closed → (`detail.open {id}`) loading (GET
 * contracts/{id}, with its history) → ready | failed. In `ready`: `scan.picked {file}` (EMITIDO;
 * PDF/JPEG/PNG ≤ 10 MB checked here, the server sniffs again) → uploading → FIRMADO;
 * `annul.request` → annulling.asking (`annul.changed`, `annul.confirm` ≥ 3 characters) → running;
 * `download {what}` → downloading. Every change emits `changed` (the list refreshes).
 */
export const contractDetailMachine = setup({
  types: {
    context: {} as {
      id: number | null;
      contract: ContractDetail | null;
      error: string | null;
      actionError: string | null;
      reason: string;
    },
    events: {} as
      | { type: 'detail.open'; id: number }
      | { type: 'detail.close' }
      | { type: 'detail.refresh' }
      | { type: 'scan.picked'; file: File }
      | { type: 'download'; what: 'pdf' | 'scan' }
      | { type: 'annul.request' }
      | { type: 'annul.changed'; text: string }
      | { type: 'annul.confirm' }
      | { type: 'annul.cancel' },
    emitted: {} as { type: 'changed' },
  },
  actors: {
    load: placeholder<ContractDetail, { id: number }>('load'),
    uploadScan: placeholder<ContractDetail, { id: number; file: File }>('uploadScan'),
    annul: placeholder<ContractDetail, { id: number; version: number; reason: string }>('annul'),
    download: placeholder<void, { contract: Contract; what: 'pdf' | 'scan' }>('download'),
  },
  actions: { reportApiError: (_, _error: ApiError) => {}, notify: (_, _message: string) => {} },
}).createMachine({
  id: 'contractDetail',
  context: { id: null, contract: null, error: null, actionError: null, reason: '' },
  initial: 'closed',
  on: {
    'detail.open': {
      target: '.loading',
      actions: assign(({ event }) => ({ id: event.id, contract: null, error: null, actionError: null })),
    },
    'detail.close': { target: '.closed', actions: assign({ id: null, contract: null, error: null, actionError: null }) },
  },
  states: {
    closed: {},
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ id: context.id! }),
        onDone: { target: 'ready', actions: assign(({ event }) => ({ contract: event.output })) },
        onError: {
          target: 'failed',
          actions: [
            assign(({ event }) => ({ error: errorMessage(event.error) })),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
    failed: { on: { 'detail.refresh': 'loading' } },
    ready: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'detail.refresh': '#contractDetail.loading',
            'scan.picked': [
              {
                guard: ({ event }) => !SCAN_TYPES.includes(event.file.type),
                actions: assign({ actionError: CONTRACT_MESSAGES.scanNotDocument }),
              },
              {
                guard: ({ event }) => event.file.size > SIGNED_SCAN_MAX_BYTES,
                actions: assign({ actionError: CONTRACT_MESSAGES.scanTooLarge }),
              },
              { guard: ({ context }) => context.contract?.state === 'EMITIDO', target: 'uploading' },
            ],
            download: 'downloading',
            'annul.request': {
              guard: ({ context }) => context.contract?.state === 'BORRADOR' || context.contract?.state === 'EMITIDO',
              target: 'annulling',
            },
          },
        },
        downloading: {
          invoke: {
            src: 'download',
            input: ({ context, event }) => ({ contract: context.contract!, what: (event as { what: 'pdf' | 'scan' }).what }),
            onDone: 'idle',
            onError: {
              target: 'idle',
              actions: [
                assign(({ event }) => ({ actionError: errorMessage(event.error) })),
                { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
              ],
            },
          },
        },
        uploading: {
          entry: assign({ actionError: null }),
          invoke: {
            src: 'uploadScan',
            input: ({ context, event }) => ({ id: context.contract!.id, file: (event as { file: File }).file }),
            onDone: {
              target: 'idle',
              actions: [
                assign(({ event }) => ({ contract: event.output })),
                { type: 'notify', params: 'Contrato firmado registrado' },
                emit({ type: 'changed' as const }),
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                assign(({ event }) => ({ actionError: errorMessage(event.error) })),
                { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
              ],
            },
          },
        },
        annulling: {
          initial: 'asking',
          entry: assign({ reason: '', actionError: null }),
          states: {
            asking: {
              on: {
                'annul.changed': { actions: assign(({ event }) => ({ reason: event.text, actionError: null })) },
                'annul.cancel': '#contractDetail.ready.idle',
                'annul.confirm': [
                  {
                    guard: ({ context }) => context.reason.trim().length < 3,
                    actions: assign({ actionError: CONTRACT_MESSAGES.reasonRequired }),
                  },
                  { target: 'running' },
                ],
              },
            },
            running: {
              invoke: {
                src: 'annul',
                input: ({ context }) => ({
                  id: context.contract!.id,
                  version: context.contract!.version ?? 1,
                  reason: context.reason.trim(),
                }),
                onDone: {
                  target: '#contractDetail.ready.idle',
                  actions: [
                    assign(({ event }) => ({ contract: event.output })),
                    { type: 'notify', params: 'Contrato anulado' },
                    emit({ type: 'changed' as const }),
                  ],
                },
                onError: {
                  target: 'asking',
                  actions: [
                    assign(({ event }) => ({ actionError: errorMessage(event.error) })),
                    { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
                  ],
                },
              },
            },
          },
        },
      },
    },
  },
});
export type ContractDetailMachine = typeof contractDetailMachine;
