import { assign, emit, fromPromise, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import type { LotsApi, PricePreview } from '../../api/proyectos/lots';
import { parseMoneyInput } from '../../lib/money';
import { bulkPriceRequestSchema, type BulkPriceRequest, type LotStatus, type PriceChange } from '../../schemas/proyectos/projects';
import { placeholder } from '../shared/placeholder';
import { errorMessage, fieldErrorsFrom, isSessionError } from '../shared/api-errors';

/**
 * Bulk price update of a subdivision's lots (issue "Proyectos": "bulk price update for a selection
 * (by block, by status) with preview before applying"; body {@link bulkPriceRequestSchema}).
 *
 * closed → editing (`bulk.open {lotIds?}`) → previewing (`bulk.preview`) → previewed →
 * applying (`bulk.apply`) → closed with `applied(updated)`. "Aplicar" exists only in `previewed`:
 * any edit of the selection, the change or the reason drops the preview and goes back to
 * `editing`, so what is applied is always what was previewed. Refusals (422 per field, others as
 * `formError`) return to `editing`; 401/402/404 also go to `reportApiError`.
 */

export type PriceChangeKind = PriceChange['kind'];

export interface BulkPriceForm {
  blocks: string[];
  statuses: LotStatus[];
  /** The lots selected in the table ("los lotes seleccionados"); empty = not used. */
  lotIds: number[];
  kind: PriceChangeKind;
  /** What was typed: soles for SET_PRICE_PER_M2 / AMOUNT_PER_M2 (AMOUNT may start with "-"), percent for PERCENT. */
  value: string;
  reason: string;
}

export interface BulkPriceContext extends BulkPriceForm {
  subdivisionKey: string;
  preview: PricePreview | null;
  errors: Partial<Record<'selection' | 'value' | 'reason', string>>;
  formError: string | null;
  /** Lots updated by the last apply. */
  updated: number | null;
}

export type BulkPriceEvent =
  | { type: 'bulk.open'; lotIds?: number[] }
  | { type: 'bulk.blocksChanged'; blocks: string[] }
  | { type: 'bulk.statusesChanged'; statuses: LotStatus[] }
  | { type: 'bulk.lotIdsChanged'; lotIds: number[] }
  | { type: 'bulk.kindChanged'; kind: PriceChangeKind }
  | { type: 'bulk.valueChanged'; value: string }
  | { type: 'bulk.reasonChanged'; reason: string }
  | { type: 'bulk.preview' }
  | { type: 'bulk.apply' }
  | { type: 'bulk.close' };

/** Signed céntimos from "−12.50" / "12.50" (soles), or null. */
function signedCents(text: string): number | null {
  const t = text.trim();
  const negative = /^[-−]/.test(t);
  const cents = parseMoneyInput(negative ? t.slice(1) : t);
  return cents === null ? null : negative ? -cents : cents;
}

/**
 * The request body of the form, or Spanish messages per field (`selection`, `value`, `reason`).
 * Amounts are typed in soles/dollars and sent in céntimos; percentages as numbers (−90…500).
 */
export function bulkPriceBody(
  form: BulkPriceForm,
): { ok: true; body: BulkPriceRequest } | { ok: false; errors: BulkPriceContext['errors'] } {
  const errors: BulkPriceContext['errors'] = {};
  let change: PriceChange | null = null;
  if (form.kind === 'PERCENT') {
    const n = Number(form.value.trim().replace(',', '.').replace('−', '-'));
    if (form.value.trim() === '' || !Number.isFinite(n)) errors.value = 'Ingrese el porcentaje';
    else change = { kind: 'PERCENT', percent: n };
  } else if (form.kind === 'SET_PRICE_PER_M2') {
    const cents = parseMoneyInput(form.value);
    if (cents === null) errors.value = 'Ingrese el nuevo precio por m²';
    else change = { kind: 'SET_PRICE_PER_M2', price_per_m2: cents };
  } else {
    const cents = signedCents(form.value);
    if (cents === null) errors.value = 'Ingrese el monto por m²';
    else change = { kind: 'AMOUNT_PER_M2', amount_per_m2: cents };
  }
  const selection = {
    ...(form.blocks.length ? { blocks: form.blocks } : {}),
    ...(form.statuses.length ? { statuses: form.statuses } : {}),
    ...(form.lotIds.length ? { lot_ids: form.lotIds } : {}),
  };
  const body = { selection, change: change ?? { kind: 'PERCENT' as const, percent: 0 }, reason: form.reason };
  const parsed = bulkPriceRequestSchema.safeParse(body);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const head = String(issue.path[0]);
      const key = head === 'selection' ? 'selection' : head === 'reason' ? 'reason' : 'value';
      errors[key] ??= issue.message;
    }
  }
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, body: { ...body, reason: form.reason.trim() } };
}

const emptyForm: BulkPriceForm = { blocks: [], statuses: [], lotIds: [], kind: 'SET_PRICE_PER_M2', value: '', reason: '' };

/** What every edit clears: the preview, the form message and the edited field's error. */
const cleared = (context: BulkPriceContext, key: keyof BulkPriceContext['errors']) => ({
  preview: null,
  formError: null,
  errors: { ...context.errors, [key]: undefined },
});

/** The error of a failed invoke, as guard and action params. */
const errorParams = ({ event }: { event: { error: unknown } }) => ({ error: event.error });

/** Emitted when new prices were stored (listen with `actor.on('applied', …)`). */
export type BulkPriceEmitted = { type: 'applied'; updated: number };

/** The bulk price machine (unprovided: `preview`, `apply`, `applied`, `reportApiError`). */
export const bulkPriceMachine = setup({
  types: {
    context: {} as BulkPriceContext,
    events: {} as BulkPriceEvent,
    input: {} as { subdivisionKey: string },
    emitted: {} as BulkPriceEmitted,
  },
  actors: {
    /** POST …/lots/price-preview. */
    preview: placeholder<PricePreview, { key: string; body: BulkPriceRequest }>('preview'),
    /** POST …/lots/price-update. */
    apply: placeholder<{ updated: number }, { key: string; body: BulkPriceRequest }>('apply'),
  },
  actions: {
    /** Prices changed: refresh the lots table, toast. */
    applied: (_, _updated: number) => {},
    reportApiError: (_, _error: ApiError) => {},
    showError: assign((_, { error }: { error: unknown }) => {
      const { fields, rest } = fieldErrorsFrom(error, ['reason', 'selection', 'change'] as const);
      const errors: BulkPriceContext['errors'] = {};
      if (fields.reason) errors.reason = fields.reason;
      if (fields.selection) errors.selection = fields.selection;
      if (fields.change) errors.value = fields.change;
      for (const [path, messages] of Object.entries(error instanceof Error && 'issues' in error ? (error as ApiError).issues : {})) {
        if (path.startsWith('selection')) errors.selection ??= messages[0];
        else if (path.startsWith('change')) errors.value ??= messages[0];
      }
      const hasField = Object.keys(errors).length > 0;
      return {
        errors,
        formError: rest.filter((m) => !Object.values(errors).includes(m)).join(' ') || (hasField ? null : errorMessage(error)),
      };
    }),
  },
  guards: {
    valid: ({ context }) => bulkPriceBody(context).ok,
    sessionError: (_, { error }: { error: unknown }) => isSessionError(error),
  },
}).createMachine({
  id: 'bulkPrice',
  context: ({ input }) => ({
    subdivisionKey: input.subdivisionKey,
    ...emptyForm,
    preview: null,
    errors: {},
    formError: null,
    updated: null,
  }),
  initial: 'closed',
  states: {
    closed: {
      on: {
        'bulk.open': {
          target: 'open.editing',
          actions: assign(({ event }) => ({ ...emptyForm, lotIds: event.lotIds ?? [], preview: null, errors: {}, formError: null })),
        },
      },
    },
    open: {
      initial: 'editing',
      on: {
        'bulk.blocksChanged': {
          target: '.editing',
          actions: assign(({ context, event }) => ({ blocks: event.blocks, ...cleared(context, 'selection') })),
        },
        'bulk.statusesChanged': {
          target: '.editing',
          actions: assign(({ context, event }) => ({ statuses: event.statuses, ...cleared(context, 'selection') })),
        },
        'bulk.lotIdsChanged': {
          target: '.editing',
          actions: assign(({ context, event }) => ({ lotIds: event.lotIds, ...cleared(context, 'selection') })),
        },
        'bulk.kindChanged': {
          target: '.editing',
          actions: assign(({ context, event }) => ({ kind: event.kind, value: '', ...cleared(context, 'value') })),
        },
        'bulk.valueChanged': {
          target: '.editing',
          actions: assign(({ context, event }) => ({ value: event.value, ...cleared(context, 'value') })),
        },
        'bulk.reasonChanged': {
          target: '.editing',
          actions: assign(({ context, event }) => ({ reason: event.reason, ...cleared(context, 'reason') })),
        },
        'bulk.close': { target: 'closed' },
      },
      states: {
        editing: {
          on: {
            'bulk.preview': [
              { guard: 'valid', target: 'previewing' },
              {
                actions: assign(({ context }) => {
                  const r = bulkPriceBody(context);
                  return r.ok ? {} : { errors: r.errors };
                }),
              },
            ],
          },
        },
        previewing: {
          invoke: {
            src: 'preview',
            input: ({ context }) => ({ key: context.subdivisionKey, body: (bulkPriceBody(context) as { body: BulkPriceRequest }).body }),
            onDone: { target: 'previewed', actions: assign(({ event }) => ({ preview: event.output, errors: {}, formError: null })) },
            onError: [
              {
                guard: { type: 'sessionError', params: errorParams },
                target: 'editing',
                actions: [
                  { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
                  { type: 'showError', params: errorParams },
                ],
              },
              { target: 'editing', actions: { type: 'showError', params: errorParams } },
            ],
          },
        },
        /** The preview is shown; "Aplicar" is enabled. */
        previewed: {
          on: { 'bulk.apply': 'applying', 'bulk.preview': 'previewing' },
        },
        applying: {
          invoke: {
            src: 'apply',
            input: ({ context }) => ({ key: context.subdivisionKey, body: (bulkPriceBody(context) as { body: BulkPriceRequest }).body }),
            onDone: {
              target: '#bulkPrice.closed',
              actions: [
                assign(({ event }) => ({ updated: event.output.updated, preview: null })),
                { type: 'applied', params: ({ event }) => event.output.updated },
                emit(({ event }) => ({ type: 'applied' as const, updated: event.output.updated })),
              ],
            },
            onError: [
              {
                guard: { type: 'sessionError', params: errorParams },
                target: 'editing',
                actions: [
                  { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
                  { type: 'showError', params: errorParams },
                  assign({ preview: null }),
                ],
              },
              { target: 'editing', actions: [{ type: 'showError', params: errorParams }, assign({ preview: null })] },
            ],
          },
        },
      },
    },
  },
});
export type BulkPriceMachine = typeof bulkPriceMachine;

/** The machine provided with the lots api and a toast. */
export function createBulkPriceMachine(deps: {
  lotsApi: Pick<LotsApi, 'pricePreview' | 'priceUpdate'>;
  reportApiError: (error: ApiError) => void;
  toaster?: { show(message: { severity: 'success'; summary: string; detail?: string }): void };
}): BulkPriceMachine {
  return bulkPriceMachine.provide({
    actors: {
      preview: fromPromise(({ input }) => deps.lotsApi.pricePreview(input.key, input.body)),
      apply: fromPromise(({ input }) => deps.lotsApi.priceUpdate(input.key, input.body)),
    },
    actions: {
      applied: (_, updated) => deps.toaster?.show({ severity: 'success', summary: 'Precios actualizados', detail: `${updated} lotes` }),
      reportApiError: (_, error) => deps.reportApiError(error),
    },
  });
}

/** The bulk price machine with `applied` also calling `onApplied` (refresh the table). */
export function onPricesApplied(machine: BulkPriceMachine, onApplied: (updated: number) => void): BulkPriceMachine {
  const previous = machine.implementations.actions.applied;
  return machine.provide({
    actions: {
      applied: (args, updated) => {
        onApplied(updated);
        if (typeof previous === 'function') (previous as (a: typeof args, u: number) => void)(args, updated);
      },
    },
  });
}
