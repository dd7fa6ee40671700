import { assign, emit, setup } from 'xstate';
import { ApiError } from '../../api/client';
import {
  CONTRACT_KIND_LABELS,
  CONTRACT_TEMPLATE_MESSAGES,
  createContractTemplateRequestSchema,
  type ContractKind,
  type ContractTemplate,
  type CreateContractTemplateRequest,
  type TemplateDoc,
} from '../../schemas/administracion/contract-templates';
import { errorMessage } from '../shared/api-errors';
import { placeholder } from '../shared/placeholder';

/** The fields of "Nueva plantilla". */
export type TemplateCreateField = 'subdivision_id' | 'kind' | 'name';
export type TemplateCreateErrors = Partial<Record<TemplateCreateField, string>>;

export interface TemplateCreateContext {
  /** The subdivision chosen ('' = none yet), as the select's value. */
  subdivisionId: string;
  kind: ContractKind;
  name: string;
  errors: TemplateCreateErrors;
  /** A refusal that is not a field's (409, network), Spanish. */
  error: string | null;
  /** The user chose or typed something: cancelling asks "¿Descartar los cambios?" first. */
  dirty: boolean;
}

export type TemplateCreateEvent =
  | { type: 'create.open'; subdivisionId?: string; kind?: ContractKind }
  | { type: 'create.changed'; field: TemplateCreateField; value: string }
  | { type: 'create.submit' }
  | { type: 'create.close' }
  | { type: 'create.discard' }
  | { type: 'create.keepEditing' };

/** The first text of a new template: the kind's title, centred, and an empty clause. */
export function starterDocument(kind: ContractKind): TemplateDoc {
  return {
    type: 'doc',
    content: [
      {
        type: 'heading',
        attrs: { level: 1, textAlign: 'center' },
        content: [{ type: 'text', text: CONTRACT_KIND_LABELS[kind].toUpperCase() }],
      },
      { type: 'paragraph' },
    ],
  };
}

/** The dialog's values as the POST body, or its field errors (the server's own schema). */
export function createBody(
  context: Pick<TemplateCreateContext, 'subdivisionId' | 'kind' | 'name'>,
): { ok: true; body: CreateContractTemplateRequest } | { ok: false; errors: TemplateCreateErrors } {
  const parsed = createContractTemplateRequestSchema.safeParse({
    subdivision_id: context.subdivisionId === '' ? undefined : Number(context.subdivisionId),
    kind: context.kind,
    name: context.name,
    content: starterDocument(context.kind),
  });
  if (parsed.success) return { ok: true, body: parsed.data };
  const errors: TemplateCreateErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0] as TemplateCreateField;
    if (field === 'subdivision_id') errors.subdivision_id ??= CONTRACT_TEMPLATE_MESSAGES.subdivisionRequired;
    else if (field === 'kind' || field === 'name') errors[field] ??= issue.message;
  }
  return { ok: false, errors };
}

const cleared = (subdivisionId = '', kind: ContractKind = 'COMPRAVENTA_CONTADO') => ({
  subdivisionId,
  kind,
  name: '',
  errors: {},
  error: null,
  dirty: false,
});

/**
 * "Nueva plantilla" (Administración → Generar Contrato, "Plantillas"): subdivision, kind and name;
 * the first version is created as a BORRADOR with a starter text ({@link starterDocument}) and
 * emitted as `created {template}` so the page opens it in the editor. closed → (`create.open`,
 * prefilled with the list's filters) editing → (`create.submit`, checked with the request's
 * schema) submitting → closed; 422 per field, other refusals their message. A change marks it
 * `dirty`: `create.close` asks first (`confirmingDiscard`). Provide actor `create` and action
 * `reportApiError`.
 */
export const templateCreateMachine = setup({
  types: {
    context: {} as TemplateCreateContext,
    events: {} as TemplateCreateEvent,
    emitted: {} as { type: 'created'; template: ContractTemplate },
  },
  actors: { create: placeholder<ContractTemplate, CreateContractTemplateRequest>('create') },
  actions: { reportApiError: (_, _error: unknown) => {} },
  guards: { valid: ({ context }) => createBody(context).ok, dirty: ({ context }) => context.dirty },
}).createMachine({
  id: 'templateCreate',
  context: cleared(),
  initial: 'closed',
  states: {
    closed: {
      on: {
        'create.open': { target: 'editing', actions: assign(({ event }) => cleared(event.subdivisionId, event.kind)) },
      },
    },
    editing: {
      on: {
        'create.changed': {
          actions: assign(({ context, event }) => {
            const errors = { ...context.errors, [event.field]: undefined };
            if (event.field === 'subdivision_id') return { subdivisionId: event.value, errors, error: null, dirty: true };
            if (event.field === 'kind') return { kind: event.value as ContractKind, errors, error: null, dirty: true };
            return { name: event.value, errors, error: null, dirty: true };
          }),
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
        'create.close': [{ guard: 'dirty', target: 'confirmingDiscard' }, { target: 'closed' }],
      },
    },
    confirmingDiscard: {
      on: { 'create.discard': { target: 'closed', actions: assign(() => cleared()) }, 'create.keepEditing': 'editing' },
    },
    submitting: {
      invoke: {
        src: 'create',
        input: ({ context }) => {
          const result = createBody(context);
          if (!result.ok) throw new Error('invalid body');
          return result.body;
        },
        onDone: {
          target: 'closed',
          actions: [emit(({ event }) => ({ type: 'created' as const, template: event.output })), assign(() => cleared())],
        },
        onError: {
          target: 'editing',
          actions: [
            assign(({ event }) => {
              const error = event.error;
              if (error instanceof ApiError && error.status === 422) {
                const errors: TemplateCreateErrors = {
                  subdivision_id: error.issues.subdivision_id?.[0],
                  kind: error.issues.kind?.[0],
                  name: error.issues.name?.[0],
                };
                const any = errors.subdivision_id || errors.kind || errors.name;
                return { errors, error: any ? null : errorMessage(error) };
              }
              return { errors: {}, error: errorMessage(error) };
            }),
            { type: 'reportApiError', params: ({ event }: { event: { error: unknown } }) => event.error },
          ],
        },
      },
    },
  },
});
export type TemplateCreateMachine = typeof templateCreateMachine;
