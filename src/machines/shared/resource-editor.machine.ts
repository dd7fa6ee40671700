import { assign, setup } from 'xstate';
import type { z } from 'zod';
import type { ApiError } from '../../api/client';
import { placeholder } from './placeholder';
import { errorMessage, fieldErrorsFrom, isSessionError } from './api-errors';

/**
 * `resourceEditor` machine (issue "Configuración", the CRUD pattern; design ARCHITECTURE.md
 * "resource-editor machine (open, validate, submit, server errors per field)"). Every CRUD screen
 * runs `resourceEditorMachine.provide({ actors: { save, remove }, actions: { saved, reportApiError } })`
 * with its zod body schema and field names as input.
 *
 * closed → editing → validating (the server's body schema) → submitting → done | rejected.
 * `editor.changed` marks the form dirty; closing a dirty form asks first (`confirmingDiscard`:
 * `editor.discard` / `editor.keepEditing`). Editing a record can delete it after a confirmation
 * (`confirmingDelete` → `deleting` → done). A 422's messages land on their fields
 * (`fieldErrorsFrom`); other errors become the form's message; a 401/402/404 also goes to the
 * session (`reportApiError`). On done, `saved` refreshes the parent list.
 */

export type EditorValues = Record<string, unknown>;
export type EditorErrors = Record<string, string | undefined>;

export interface ResourceEditorInput {
  /** The request body's zod schema, the same the server validates with. */
  schema: z.ZodType;
  /** The form's field names (a 422 on another path becomes the form message). */
  fields: readonly string[];
  /** Values of a new record. */
  empty: EditorValues;
  /** Record → form values when editing (default: the empty values overlaid with the record's fields). */
  toValues?: (record: Record<string, unknown>) => EditorValues;
}

export interface ResourceEditorContext {
  schema: z.ZodType;
  fields: readonly string[];
  empty: EditorValues;
  toValues: ((record: Record<string, unknown>) => EditorValues) | null;
  mode: 'create' | 'edit';
  /** The record being edited (null when creating). */
  record: Record<string, unknown> | null;
  initial: EditorValues;
  values: EditorValues;
  errors: EditorErrors;
  /** Message that belongs to no field (a 409, a network error…). */
  formError: string | null;
  /** The validated body, set by `validating`. */
  body: unknown;
  /** What the last save answered, or null after a delete. */
  result: unknown;
}

/** Input of `save`: the validated body and, when editing, the record. */
export interface SaveInput {
  mode: 'create' | 'edit';
  record: Record<string, unknown> | null;
  body: unknown;
}

/** What `saved` receives. */
export interface SavedInfo {
  kind: 'created' | 'updated' | 'deleted';
  result: unknown;
}

export type ResourceEditorEvent =
  | { type: 'editor.openCreate'; values?: EditorValues }
  | { type: 'editor.openEdit'; record: Record<string, unknown> }
  | { type: 'editor.changed'; field: string; value: unknown }
  | { type: 'editor.submit' }
  | { type: 'editor.close' }
  | { type: 'editor.discard' }
  | { type: 'editor.keepEditing' }
  | { type: 'editor.delete' }
  | { type: 'editor.confirmDelete' }
  | { type: 'editor.cancelDelete' };

/** Whether the values differ from those the editor opened with. */
export function isDirty(context: Pick<ResourceEditorContext, 'initial' | 'values'>): boolean {
  const keys = new Set([...Object.keys(context.initial), ...Object.keys(context.values)]);
  for (const key of keys) if (!Object.is(context.initial[key], context.values[key])) return true;
  return false;
}

/** Client validation with the body schema: the parsed body, or the first message per field. */
export function validateValues(
  schema: z.ZodType,
  fields: readonly string[],
  values: EditorValues,
): { ok: true; body: unknown } | { ok: false; errors: EditorErrors; formError: string | null } {
  const parsed = schema.safeParse(values);
  if (parsed.success) return { ok: true, body: parsed.data };
  const errors: EditorErrors = {};
  const rest: string[] = [];
  for (const issue of parsed.error.issues) {
    const field = issue.path.map(String).join('.');
    if (fields.includes(field)) errors[field] ??= issue.message;
    else rest.push(issue.message);
  }
  return { ok: false, errors, formError: rest.length > 0 ? rest.join(' ') : null };
}

const closedContext = {
  mode: 'create' as const,
  record: null,
  errors: {},
  formError: null,
  body: null,
};

/**
 * The server refused a save or a delete: its message goes on the form (`showServerError`), and a
 * 401/402/404 is also handed to the session (`reportApiError`). Both end in `rejected`.
 */
const SERVER_REFUSED = [
  {
    guard: 'isSessionError',
    target: 'rejected',
    actions: [{ type: 'reportApiError', params: ({ event }: { event: { error: unknown } }) => event.error as ApiError }, 'showServerError'],
  },
  { target: 'rejected', actions: 'showServerError' },
] as const;

/** The generic editor machine of every CRUD screen (see the comment at the top of this file). */
export const resourceEditorMachine = setup({
  types: {
    context: {} as ResourceEditorContext,
    events: {} as ResourceEditorEvent,
    input: {} as ResourceEditorInput,
  },
  actions: {
    /** Refreshes the parent list (injected: `list.send({ type: 'list.refresh' })`) and may toast. */
    saved: (_, _info: SavedInfo) => {},
    /** Hands a 401/402/404 to the session (injected). */
    reportApiError: (_, _error: ApiError) => {},
    /** Fills the form with a new record's values. */
    openForCreate: assign(({ context, event }) => {
      const values = { ...context.empty, ...(event as Extract<ResourceEditorEvent, { type: 'editor.openCreate' }>).values };
      return { ...closedContext, initial: values, values: { ...values }, result: null };
    }),
    /** Fills the form with the record's values. */
    openForEdit: assign(({ context, event }) => {
      const { record } = event as Extract<ResourceEditorEvent, { type: 'editor.openEdit' }>;
      const values = context.toValues
        ? context.toValues(record)
        : Object.fromEntries(Object.keys(context.empty).map((k) => [k, record[k] ?? context.empty[k]]));
      return { ...closedContext, mode: 'edit' as const, record, initial: values, values: { ...values }, result: null };
    }),
    /** A refused save or delete: a 422's messages on their fields, anything else as the form's message. */
    showServerError: assign(({ context, event }) => {
      const error = (event as { error?: unknown }).error;
      const { fields, rest } = fieldErrorsFrom(error, context.fields);
      const hasFieldErrors = Object.keys(fields).length > 0;
      return {
        errors: fields as EditorErrors,
        formError: rest.length > 0 ? rest.join(' ') : hasFieldErrors ? null : errorMessage(error),
      };
    }),
  },
  actors: {
    /** POST (create) or PATCH (edit) with the validated body. @returns the saved record. */
    save: placeholder<unknown, SaveInput>('save'),
    /** DELETE the record. */
    remove: placeholder<unknown, Record<string, unknown>>('remove'),
  },
  guards: {
    isValid: ({ context }) => context.body !== null,
    isDirty: ({ context }) => isDirty(context),
    isEditing: ({ context }) => context.mode === 'edit' && context.record !== null,
    isSessionError: ({ event }) => isSessionError((event as { error?: unknown }).error),
  },
}).createMachine({
  id: 'resourceEditor',
  context: ({ input }) => ({
    schema: input.schema,
    fields: input.fields,
    empty: input.empty,
    toValues: input.toValues ?? null,
    ...closedContext,
    initial: { ...input.empty },
    values: { ...input.empty },
    result: null,
  }),
  initial: 'closed',
  states: {
    closed: {
      on: {
        'editor.openCreate': { target: 'editing', actions: 'openForCreate' },
        'editor.openEdit': { target: 'editing', actions: 'openForEdit' },
      },
    },
    /** The form is open and idle (`rejected` is the same after a refused save). */
    editing: {
      on: {
        'editor.changed': {
          actions: assign(({ context, event }) => ({
            values: { ...context.values, [event.field]: event.value },
            errors: { ...context.errors, [event.field]: undefined },
          })),
        },
        'editor.submit': 'validating',
        'editor.close': [{ guard: 'isDirty', target: 'confirmingDiscard' }, { target: 'closed' }],
        'editor.delete': { guard: 'isEditing', target: 'confirmingDelete' },
      },
    },
    validating: {
      entry: assign(({ context }) => {
        const result = validateValues(context.schema, context.fields, context.values);
        return result.ok
          ? { body: result.body, errors: {}, formError: null }
          : { body: null, errors: result.errors, formError: result.formError };
      }),
      always: [{ guard: 'isValid', target: 'submitting' }, { target: 'editing' }],
    },
    submitting: {
      invoke: {
        src: 'save',
        input: ({ context }) => ({ mode: context.mode, record: context.record, body: context.body }),
        onDone: {
          target: 'done',
          actions: [
            assign({ result: ({ event }) => event.output }),
            {
              type: 'saved',
              params: ({ context, event }) => ({
                kind: context.mode === 'edit' ? ('updated' as const) : ('created' as const),
                result: event.output,
              }),
            },
          ],
        },
        onError: SERVER_REFUSED,
      },
    },
    /** The server refused: its messages are on the fields (422) or in `formError`. */
    rejected: {
      on: {
        'editor.changed': {
          target: 'editing',
          actions: assign(({ context, event }) => ({
            values: { ...context.values, [event.field]: event.value },
            errors: { ...context.errors, [event.field]: undefined },
          })),
        },
        'editor.submit': 'validating',
        'editor.close': [{ guard: 'isDirty', target: 'confirmingDiscard' }, { target: 'closed' }],
        'editor.delete': { guard: 'isEditing', target: 'confirmingDelete' },
      },
    },
    /** "¿Descartar los cambios?" */
    confirmingDiscard: {
      on: {
        'editor.discard': 'closed',
        'editor.keepEditing': 'editing',
      },
    },
    /** "¿Eliminar este registro?" */
    confirmingDelete: {
      on: {
        'editor.confirmDelete': 'deleting',
        'editor.cancelDelete': 'editing',
      },
    },
    deleting: {
      invoke: {
        src: 'remove',
        input: ({ context }) => context.record!,
        onDone: {
          target: 'done',
          actions: [assign({ result: null }), { type: 'saved', params: () => ({ kind: 'deleted' as const, result: null }) }],
        },
        onError: SERVER_REFUSED,
      },
    },
    /** Saved or deleted; the dialog is closed and the list refreshed. Ready to open again. */
    done: {
      on: {
        'editor.openCreate': { target: 'editing', actions: 'openForCreate' },
        'editor.openEdit': { target: 'editing', actions: 'openForEdit' },
      },
    },
  },
});

export type ResourceEditorMachine = typeof resourceEditorMachine;

/**
 * The editor machine with `saved` also refreshing a list (`list.refresh`), keeping the `saved`
 * it was provided with (a toast). Used by `useResourceActors`.
 */
export function linkEditorToList(machine: ResourceEditorMachine, list: { send(event: { type: 'list.refresh' }): void }): ResourceEditorMachine {
  const previous = machine.implementations.actions.saved;
  return machine.provide({
    actions: {
      saved: (args, info) => {
        list.send({ type: 'list.refresh' });
        if (typeof previous === 'function') (previous as (a: typeof args, p: SavedInfo) => void)(args, info);
      },
    },
  });
}
