import { assign, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import type { ContractDetail, ContractPreview } from '../../schemas/administracion/contracts';
import { SIGNED_SCAN_MAX_BYTES, CONTRACT_MESSAGES } from '../../schemas/administracion/contracts';
import { errorMessage, errorStatus } from '../shared/api-errors';
import { placeholder } from '../shared/placeholder';
import { ApiError as HttpApiError } from '../../api/http';

/**
 * Administración → Generar Contrato, tab "Generar" (docs/decisions.md "Contract generation
 * screen"): find a sale, pick the template, create the BORRADOR, supply the missing values and
 * correct the editable ones (PATCH with the version), issue (the PDF downloads), upload the signed
 * scan (FIRMADO), annul with a reason.
 *
 * States: `search` (no sale: `sale.searchTyped` → debounce → search) → (`sale.pick {id}` or the
 * input's `saleId`) `loadingSale` → `choosing` (no live contract: `template.picked`,
 * `contract.create` → `creating`) | `contract` (a live contract: `idle`, `saving`, `issuing`,
 * `downloading`, `uploading`, `annulling.asking|running`, `confirmingDiscard`) | `failed`.
 * `sale.change` leaves the sale (asking first when the form is dirty).
 */

/** A sale found by the search (one row of GET sales). */
export interface SaleOption {
  id: number;
  number: string;
  titular: string;
  lotCode: string;
  subdivisionName: string;
  status: string;
}

/** A published template the sale may use. */
export interface TemplateOption {
  id: number;
  name: string;
  versionNumber: number;
}

/** The sale as the panel shows it, with its live contract or the templates to start one. */
export interface LoadedSale {
  sale: SaleOption & { type: string; kind: string };
  /** The sale's live contract (not ANULADO) with its preview, else null. */
  contract: { detail: ContractDetail; preview: ContractPreview } | null;
  templates: TemplateOption[];
}

/** Keys the user may correct on a draft even when resolved (the lot's boundaries and lengths per side). */
export function isEditableKey(key: string): boolean {
  return /^lote\.(lindero|medida)_(frente|fondo|derecha|izquierda)$/.test(key);
}

/** Spanish label of an editable key (the missing ones carry their own label). */
const EDITABLE_LABELS: Record<string, string> = {
  'lote.lindero_frente': 'Colinda por el frente con',
  'lote.medida_frente': 'Medida del frente (m)',
  'lote.lindero_fondo': 'Colinda por el fondo con',
  'lote.medida_fondo': 'Medida del fondo (m)',
  'lote.lindero_derecha': 'Colinda por la derecha con',
  'lote.medida_derecha': 'Medida de la derecha (m)',
  'lote.lindero_izquierda': 'Colinda por la izquierda con',
  'lote.medida_izquierda': 'Medida de la izquierda (m)',
};

/** One field of the values form: a missing value (required) or an editable one (prefilled). */
export interface ValueField {
  key: string;
  label: string;
  missing: boolean;
}

/** Keys of the variables a resolved document uses (walks the JSON: `variable` nodes left and `data-key` attrs). */
function usedEditableKeys(preview: ContractPreview): string[] {
  return Object.keys(preview.values ?? {}).filter(isEditableKey);
}

/** The form's fields: the missing values first, then the editable ones the document's values hold. */
export function valueFields(preview: ContractPreview | null): ValueField[] {
  if (!preview) return [];
  const missing = preview.missing.map((m) => ({ key: m.key, label: m.label, missing: true }));
  const missingKeys = new Set(missing.map((m) => m.key));
  const editable = usedEditableKeys(preview)
    .filter((key) => !missingKeys.has(key))
    .map((key) => ({ key, label: EDITABLE_LABELS[key] ?? key, missing: false }));
  return [...missing, ...editable];
}

/** The form's starting texts: the overrides supplied, else the resolved value's text, else empty. */
function initialValues(detail: ContractDetail, preview: ContractPreview): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of valueFields(preview)) out[field.key] = detail.overrides[field.key] ?? preview.values[field.key]?.text ?? '';
  return out;
}

/** Messages of the client-side check of the signed scan (the server checks again by content). */
export const SCAN_TYPES = ['application/pdf', 'image/jpeg', 'image/png'];

/** Whether a contract still takes part in the sale (a new one may be created only without it). */
export function isLiveContract(state: string): boolean {
  return state !== 'ANULADO';
}

interface Context {
  saleId: number | null;
  query: string;
  results: SaleOption[];
  searching: boolean;
  loaded: LoadedSale | null;
  templateId: number | null;
  contract: ContractDetail | null;
  preview: ContractPreview | null;
  values: Record<string, string>;
  initial: Record<string, string>;
  fieldErrors: Record<string, string>;
  error: string | null;
  annulReason: string;
  annulError: string | null;
  scanError: string | null;
  /** Where `confirmingDiscard` goes on "Descartar". */
  pendingSale: number | null;
}

type Events =
  | { type: 'sale.searchTyped'; text: string }
  | { type: 'sale.pick'; id: number }
  | { type: 'sale.change' }
  | { type: 'template.picked'; id: number }
  | { type: 'contract.create' }
  | { type: 'value.changed'; key: string; value: string }
  | { type: 'values.save' }
  | { type: 'contract.issue' }
  | { type: 'pdf.download' }
  | { type: 'scan.download' }
  | { type: 'scan.picked'; file: File }
  | { type: 'annul.request' }
  | { type: 'annul.changed'; text: string }
  | { type: 'annul.confirm' }
  | { type: 'annul.cancel' }
  | { type: 'discard' }
  | { type: 'keepEditing' }
  | { type: 'retry' }
  | { type: 'sale.reload' };

/** Whether the values form differs from what the contract holds. */
export function isDirty(context: Pick<Context, 'values' | 'initial'>): boolean {
  return Object.keys(context.values).some((k) => (context.values[k] ?? '') !== (context.initial[k] ?? ''));
}

/** The PATCH overrides: each changed key → its text (empty → null: the resolved value again). */
export function changedOverrides(context: Pick<Context, 'values' | 'initial'>): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const [key, value] of Object.entries(context.values))
    if (value !== (context.initial[key] ?? '')) out[key] = value.trim() === '' ? null : value.trim();
  return out;
}

/** Field errors of a 422 under `overrides.<key>`; the other messages joined for the callout. */
function overrideErrors(error: unknown): { fields: Record<string, string>; rest: string | null } {
  const fields: Record<string, string> = {};
  const rest: string[] = [];
  if (error instanceof HttpApiError && error.status === 422) {
    for (const [path, messages] of Object.entries(error.issues)) {
      const first = messages[0];
      if (!first) continue;
      if (path.startsWith('overrides.')) fields[path.slice('overrides.'.length)] = first;
      else rest.push(first);
    }
    return { fields, rest: rest.length ? rest.join(' ') : Object.keys(fields).length ? null : error.message };
  }
  return { fields, rest: errorMessage(error) };
}

const withContract = (detail: ContractDetail, preview: ContractPreview) => {
  const initial = initialValues(detail, preview);
  return { contract: detail, preview, values: { ...initial }, initial, fieldErrors: {}, error: null };
};

export const generateContractMachine = setup({
  types: {
    context: {} as Context,
    events: {} as Events,
    input: {} as { saleId?: number | null } | undefined,
  },
  actors: {
    searchSales: placeholder<SaleOption[], { text: string }>('searchSales'),
    loadSale: placeholder<LoadedSale, { id: number }>('loadSale'),
    createContract: placeholder<{ detail: ContractDetail; preview: ContractPreview }, { saleId: number; templateId: number | null }>(
      'createContract',
    ),
    saveValues: placeholder<
      { detail: ContractDetail; preview: ContractPreview },
      { id: number; version: number; overrides: Record<string, string | null> }
    >('saveValues'),
    issue: placeholder<{ detail: ContractDetail; preview: ContractPreview }, { id: number; version: number }>('issue'),
    downloadPdf: placeholder<void, { contract: ContractDetail }>('downloadPdf'),
    downloadScan: placeholder<void, { contract: ContractDetail }>('downloadScan'),
    uploadScan: placeholder<ContractDetail, { id: number; file: File }>('uploadScan'),
    annul: placeholder<ContractDetail, { id: number; version: number; reason: string }>('annul'),
  },
  actions: {
    reportApiError: (_, _error: ApiError) => {},
    notify: (_, _message: string) => {},
    /** Puts `?venta=<id>` (or nothing) in the address, so a link reopens the same sale. */
    syncUrl: (_, _saleId: number | null) => {},
  },
  delays: { debounce: 300 },
  guards: {
    dirty: ({ context }) => isDirty(context),
    hasSale: ({ context }) => context.saleId !== null,
  },
}).createMachine({
  id: 'generateContract',
  context: ({ input }) => ({
    saleId: input?.saleId ?? null,
    query: '',
    results: [],
    searching: false,
    loaded: null,
    templateId: null,
    contract: null,
    preview: null,
    values: {},
    initial: {},
    fieldErrors: {},
    error: null,
    annulReason: '',
    annulError: null,
    scanError: null,
    pendingSale: null,
  }),
  initial: 'start',
  states: {
    start: { always: [{ guard: 'hasSale', target: 'loadingSale' }, { target: 'search' }] },
    search: {
      initial: 'idle',
      on: {
        'sale.searchTyped': { target: '.debouncing', actions: assign(({ event }) => ({ query: event.text })) },
        'sale.pick': {
          target: 'loadingSale',
          actions: [assign(({ event }) => ({ saleId: event.id })), { type: 'syncUrl', params: ({ event }) => event.id }],
        },
      },
      states: {
        idle: {},
        debouncing: {
          after: {
            debounce: [
              { guard: ({ context }) => context.query.trim().length > 0, target: 'searching' },
              { target: 'idle', actions: assign({ results: [] }) },
            ],
          },
        },
        searching: {
          invoke: {
            src: 'searchSales',
            input: ({ context }) => ({ text: context.query.trim() }),
            onDone: { target: 'idle', actions: assign(({ event }) => ({ results: event.output, error: null })) },
            onError: {
              target: 'idle',
              actions: [
                assign(({ event }) => ({ error: errorMessage(event.error) })),
                { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
              ],
            },
          },
        },
      },
    },
    loadingSale: {
      entry: assign({
        loaded: null,
        contract: null,
        preview: null,
        values: {},
        initial: {},
        error: null,
        fieldErrors: {},
        scanError: null,
      }),
      invoke: {
        src: 'loadSale',
        input: ({ context }) => ({ id: context.saleId! }),
        onDone: [
          {
            guard: ({ event }) => event.output.contract !== null,
            target: 'contract',
            actions: assign(({ event }) => ({
              loaded: event.output,
              ...withContract(event.output.contract!.detail, event.output.contract!.preview),
            })),
          },
          {
            target: 'choosing',
            actions: assign(({ event }) => ({ loaded: event.output, templateId: event.output.templates[0]?.id ?? null })),
          },
        ],
        onError: {
          target: 'failed',
          actions: [
            assign(({ event }) => ({ error: errorMessage(event.error) })),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
    failed: {
      on: {
        retry: 'loadingSale',
        'sale.change': {
          target: 'search',
          actions: [assign({ saleId: null, loaded: null, error: null }), { type: 'syncUrl', params: null }],
        },
      },
    },
    choosing: {
      initial: 'idle',
      on: {
        'sale.change': {
          target: 'search',
          actions: [assign({ saleId: null, loaded: null, error: null }), { type: 'syncUrl', params: null }],
        },
      },
      states: {
        idle: {
          on: {
            'template.picked': { actions: assign(({ event }) => ({ templateId: event.id, error: null })) },
            'contract.create': 'creating',
          },
        },
        creating: {
          invoke: {
            src: 'createContract',
            input: ({ context }) => ({ saleId: context.saleId!, templateId: context.templateId }),
            onDone: {
              target: '#generateContract.contract',
              actions: [
                assign(({ event }) => withContract(event.output.detail, event.output.preview)),
                { type: 'notify', params: 'Borrador del contrato creado' },
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                assign(({ event }) => ({ error: errorMessage(event.error) })),
                { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
              ],
            },
          },
        },
      },
    },
    contract: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'value.changed': {
              guard: ({ context }) => context.contract?.state === 'BORRADOR',
              actions: assign(({ context, event }) => {
                const { [event.key]: _gone, ...fieldErrors } = context.fieldErrors;
                return { values: { ...context.values, [event.key]: event.value }, fieldErrors };
              }),
            },
            'values.save': { guard: 'dirty', target: 'saving' },
            'contract.issue': [
              { guard: 'dirty', actions: assign({ error: 'Guarde los datos antes de emitir el contrato' }) },
              { guard: ({ context }) => context.contract?.state === 'BORRADOR', target: 'issuing' },
            ],
            'pdf.download': { guard: ({ context }) => context.contract?.has_pdf === true, target: 'downloading' },
            'scan.download': { guard: ({ context }) => context.contract?.signed_scan !== null, target: 'downloadingScan' },
            'scan.picked': [
              {
                guard: ({ event }) => !SCAN_TYPES.includes(event.file.type),
                actions: assign({ scanError: CONTRACT_MESSAGES.scanNotDocument }),
              },
              {
                guard: ({ event }) => event.file.size > SIGNED_SCAN_MAX_BYTES,
                actions: assign({ scanError: CONTRACT_MESSAGES.scanTooLarge }),
              },
              { guard: ({ context }) => context.contract?.state === 'EMITIDO', target: 'uploading' },
            ],
            'sale.reload': '#generateContract.loadingSale',
            'annul.request': {
              guard: ({ context }) => context.contract?.state === 'BORRADOR' || context.contract?.state === 'EMITIDO',
              target: 'annulling',
            },
            'sale.change': [
              { guard: 'dirty', target: 'confirmingDiscard', actions: assign({ pendingSale: null }) },
              {
                target: '#generateContract.search',
                actions: [assign({ saleId: null, loaded: null, contract: null, preview: null }), { type: 'syncUrl', params: null }],
              },
            ],
          },
        },
        confirmingDiscard: {
          on: {
            keepEditing: 'idle',
            discard: {
              target: '#generateContract.search',
              actions: [
                assign({ saleId: null, loaded: null, contract: null, preview: null, values: {}, initial: {} }),
                { type: 'syncUrl', params: null },
              ],
            },
          },
        },
        saving: {
          invoke: {
            src: 'saveValues',
            input: ({ context }) => ({
              id: context.contract!.id,
              version: context.contract!.version ?? 1,
              overrides: changedOverrides(context),
            }),
            onDone: {
              target: 'idle',
              actions: [
                assign(({ event }) => withContract(event.output.detail, event.output.preview)),
                { type: 'notify', params: 'Datos del contrato guardados' },
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                assign(({ event }) => {
                  const { fields, rest } = overrideErrors(event.error);
                  return { fieldErrors: fields, error: rest };
                }),
                { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
              ],
            },
          },
        },
        issuing: {
          invoke: {
            src: 'issue',
            input: ({ context }) => ({ id: context.contract!.id, version: context.contract!.version ?? 1 }),
            onDone: {
              target: 'downloading',
              actions: [
                assign(({ event }) => withContract(event.output.detail, event.output.preview)),
                { type: 'notify', params: ({ event }) => `Contrato ${event.output.detail.number ?? ''} emitido` },
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                assign(({ event }) => {
                  const { fields, rest } = overrideErrors(event.error);
                  return { fieldErrors: fields, error: rest };
                }),
                { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
              ],
            },
          },
        },
        downloading: {
          invoke: {
            src: 'downloadPdf',
            input: ({ context }) => ({ contract: context.contract! }),
            onDone: 'idle',
            onError: {
              target: 'idle',
              actions: [
                assign(({ event }) => ({ error: errorMessage(event.error) })),
                { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
              ],
            },
          },
        },
        downloadingScan: {
          invoke: {
            src: 'downloadScan',
            input: ({ context }) => ({ contract: context.contract! }),
            onDone: 'idle',
            onError: {
              target: 'idle',
              actions: [
                assign(({ event }) => ({ error: errorMessage(event.error) })),
                { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
              ],
            },
          },
        },
        uploading: {
          entry: assign({ scanError: null }),
          invoke: {
            src: 'uploadScan',
            input: ({ context, event }) => ({ id: context.contract!.id, file: (event as Extract<Events, { type: 'scan.picked' }>).file }),
            onDone: {
              target: 'idle',
              actions: [
                assign(({ event, context }) => ({ contract: event.output, preview: context.preview })),
                { type: 'notify', params: 'Contrato firmado registrado' },
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                assign(({ event }) => ({ scanError: errorMessage(event.error) })),
                { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
              ],
            },
          },
        },
        annulling: {
          initial: 'asking',
          entry: assign({ annulReason: '', annulError: null }),
          on: { 'annul.cancel': '#generateContract.contract.idle' },
          states: {
            asking: {
              on: {
                'annul.changed': { actions: assign(({ event }) => ({ annulReason: event.text, annulError: null })) },
                'annul.confirm': [
                  {
                    guard: ({ context }) => context.annulReason.trim().length < 3,
                    actions: assign({ annulError: CONTRACT_MESSAGES.reasonRequired }),
                  },
                  { target: 'running' },
                ],
              },
            },
            running: {
              on: { 'annul.cancel': {} },
              invoke: {
                src: 'annul',
                input: ({ context }) => ({
                  id: context.contract!.id,
                  version: context.contract!.version ?? 1,
                  reason: context.annulReason.trim(),
                }),
                onDone: {
                  target: '#generateContract.contract.idle',
                  actions: [
                    assign(({ event }) => ({ contract: event.output, values: {}, initial: {}, fieldErrors: {} })),
                    { type: 'notify', params: 'Contrato anulado' },
                  ],
                },
                onError: {
                  target: 'asking',
                  actions: [
                    assign(({ event }) => ({ annulError: errorStatus(event.error) === 404 ? null : errorMessage(event.error) })),
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
export type GenerateContractMachine = typeof generateContractMachine;
