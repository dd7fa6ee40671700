import { assign, emit, setup, type ActorRefFrom } from 'xstate';
import { createTitleProcessRequestSchema, type TitleProcessDetail, type TitleSaleOption } from '../../schemas/administracion/titles';
import { fieldErrorsFrom, errorMessage } from '../shared/api-errors';
import { createLookupMachine } from '../shared/lookup.machine';
import { placeholder } from '../shared/placeholder';

/** The sale search of "Nuevo trámite" (GET /api/title-processes/sale-options). */
export const titleSaleLookupMachine = createLookupMachine<TitleSaleOption>('titleSaleLookup');
export type TitleSaleLookupMachine = typeof titleSaleLookupMachine;

const FIELDS = ['sale_id', 'retention_pact_note', 'notes'] as const;
export type TitleCreateErrors = Partial<Record<(typeof FIELDS)[number], string>>;

export interface TitleCreateContext {
  lookup: ActorRefFrom<TitleSaleLookupMachine>;
  sale: TitleSaleOption | null;
  pactStated: boolean;
  pactNote: string;
  notes: string;
  errors: TitleCreateErrors;
  /** A refusal that is no field's (409 duplicate or annulled sale, network), Spanish. */
  error: string | null;
  dirty: boolean;
}

export type TitleCreateEvent =
  | { type: 'create.open' }
  | { type: 'create.sale'; sale: TitleSaleOption }
  | { type: 'create.pact'; stated: boolean }
  | { type: 'create.changed'; field: 'pactNote' | 'notes'; value: string }
  | { type: 'create.submit' }
  | { type: 'create.close' }
  | { type: 'create.discard' }
  | { type: 'create.keepEditing' };

/** The form as POST /api/title-processes's body, or its field errors (the server's schema and its pact rule). */
export function createBody(
  context: Pick<TitleCreateContext, 'sale' | 'pactStated' | 'pactNote' | 'notes'>,
):
  | { ok: true; body: { sale_id: number; retention_pact_stated: boolean; retention_pact_note: string | null; notes: string | null } }
  | { ok: false; errors: TitleCreateErrors } {
  const raw = {
    sale_id: context.sale?.id ?? 0,
    retention_pact_stated: context.pactStated,
    retention_pact_note: context.pactStated ? context.pactNote.trim() || null : null,
    notes: context.notes.trim() || null,
  };
  const errors: TitleCreateErrors = {};
  const parsed = createTitleProcessRequestSchema.safeParse(raw);
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const field = String(issue.path[0]) as keyof TitleCreateErrors;
      if ((FIELDS as readonly string[]).includes(field) && !errors[field]) errors[field] = issue.message;
    }
  if (raw.retention_pact_stated && !raw.retention_pact_note)
    errors.retention_pact_note = 'Indique dónde consta el pacto de reserva de propiedad';
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return { ok: true, body: raw };
}

const cleared = { sale: null, pactStated: false, pactNote: '', notes: '', errors: {}, error: null, dirty: false };

/**
 * "Nuevo trámite" (docs/domain.md "Titles at SUNARP"): closed → (`create.open`) editing — a sale
 * picked from the search (`lookup`: sales without a process, paid-off first), the
 * retention-of-title pact (a FINANCIADO sale registering before it is paid off) with the note saying
 * where it is stated, notes — → (`create.submit`) submitting → closed, emitting `created
 * {process}`. A 422 shows its messages on the fields, a 409 (the sale already has its process, an
 * annulled sale) its message. Closing a changed form asks first (`confirmingDiscard`).
 * Provide actors `lookup` (its `search`) and `create` (body → process), actions `created` (a toast)
 * and `reportApiError`.
 */
export const titleCreateMachine = setup({
  types: {
    context: {} as TitleCreateContext,
    events: {} as TitleCreateEvent,
    emitted: {} as { type: 'created'; process: TitleProcessDetail },
  },
  actors: {
    lookup: titleSaleLookupMachine,
    create: placeholder<TitleProcessDetail, ReturnType<typeof createBody> & { ok: true }>('create'),
  },
  actions: { created: (_, _p: { process: TitleProcessDetail }) => {}, reportApiError: (_, _error: unknown) => {} },
  guards: { valid: ({ context }) => createBody(context).ok },
}).createMachine({
  id: 'titleCreate',
  context: ({ spawn }) => ({ lookup: spawn('lookup', { id: 'lookup' }), ...cleared }),
  initial: 'closed',
  states: {
    closed: {
      on: {
        'create.open': {
          target: 'editing',
          actions: [assign(cleared), ({ context }) => context.lookup.send({ type: 'lookup.typed', text: '' })],
        },
      },
    },
    editing: {
      on: {
        'create.sale': {
          actions: assign(({ context, event }) => ({
            sale: event.sale,
            errors: { ...context.errors, sale_id: undefined },
            error: null,
            dirty: true,
          })),
        },
        'create.pact': {
          actions: assign(({ context, event }) => ({
            pactStated: event.stated,
            errors: { ...context.errors, retention_pact_note: undefined },
            error: null,
            dirty: true,
          })),
        },
        'create.changed': {
          actions: assign(({ context, event }) =>
            event.field === 'pactNote'
              ? { pactNote: event.value, errors: { ...context.errors, retention_pact_note: undefined }, error: null, dirty: true }
              : { notes: event.value, errors: { ...context.errors, notes: undefined }, error: null, dirty: true },
          ),
        },
        'create.submit': [
          { guard: 'valid', target: 'submitting' },
          {
            actions: assign(({ context }) => {
              const result = createBody(context);
              return { errors: result.ok ? {} : result.errors };
            }),
          },
        ],
        'create.close': [{ guard: ({ context }) => context.dirty, target: 'confirmingDiscard' }, { target: 'closed' }],
      },
    },
    /** "¿Descartar los cambios?". */
    confirmingDiscard: { on: { 'create.discard': 'closed', 'create.keepEditing': 'editing' } },
    submitting: {
      invoke: {
        src: 'create',
        input: ({ context }) => createBody(context) as ReturnType<typeof createBody> & { ok: true },
        onDone: {
          target: 'closed',
          actions: [
            { type: 'created', params: ({ event }) => ({ process: event.output }) },
            emit(({ event }) => ({ type: 'created' as const, process: event.output })),
          ],
        },
        onError: {
          target: 'editing',
          actions: [
            assign(({ event }) => {
              const { fields } = fieldErrorsFrom(event.error, FIELDS);
              return { errors: fields, error: Object.keys(fields).length > 0 ? null : errorMessage(event.error) };
            }),
            { type: 'reportApiError', params: ({ event }: { event: { error: unknown } }) => event.error },
          ],
        },
      },
    },
  },
});
export type TitleCreateMachine = typeof titleCreateMachine;
