import { assertEvent, assign, emit, setup } from 'xstate';
import type { z } from 'zod';
import { placeholder } from './placeholder';
import { errorMessage, fieldErrorsFrom, isSessionError } from './api-errors';
import { isStaleRecordError, VERSION_FIELD } from '../../schemas/versions';

/**
 * `resourceEditor` machine (issue "Configuración", the CRUD pattern; docs/architecture.md
 * "resource-editor machine (open, validate, submit, server errors per field)"). Every CRUD screen
 * gets its own typed copy from {@link createResourceEditorMachine} (through `resourceScreenMachines`)
 * provided with `{ actors: { save, remove, reload }, actions: { saved, reportApiError } }`, and
 * runs it with its zod body schema and field names as input.
 *
 * Typed over the screen's `Row` (the record the list shows and the api answers), `Create` (the body
 * of a new record) and `Update` (the body of an edit): `editor.openEdit` takes a Row, `save` gets
 * `{ mode: 'create', body: Create } | { mode: 'edit', record: Row, body: Update & { version? } }`
 * and answers the saved Row.
 *
 * closed → editing → validating (the server's body schema) → submitting → done | rejected.
 * `editor.changed` marks the form dirty; closing a dirty form asks first (`confirmingDiscard`:
 * `editor.discard` / `editor.keepEditing`). Editing a record can delete it after a confirmation
 * (`confirmingDelete` → `deleting` → done). A 422's messages land on their fields
 * (`fieldErrorsFrom`); other errors become the form's message; a 401/402/404 also goes to the
 * session (`reportApiError`). On done, `saved` refreshes the parent list. `editing`, `rejected` and
 * `stale` share one set of form transitions ({@link FORM_TRANSITIONS}).
 *
 * Lost updates (issue 11 item 9): an edit sends the `version` of the record it opened (when the
 * record has one). A stale-edit 409 (src/schemas/versions.ts) leads to `stale`: the server's
 * message on the form with a "Recargar" action; `editor.reload` runs `reload` (GET of the record)
 * and reopens the form on the fresh record (`reloading` → editing), so the user sees the other
 * change and edits on top of it.
 */

export type EditorValues = Record<string, unknown>;
export type EditorErrors = Record<string, string | undefined>;

/** An edit's body: the validated values plus, when the opened record has one, its `version`. */
export type Versioned<Body> = Body & { version?: number };

export interface ResourceEditorInput<Row, Create = EditorValues, Update = Create> {
  /**
   * The request body's zod schema, the same the server validates with. One schema serves both
   * modes, so its output must fit both bodies.
   */
  schema: z.ZodType<Create & Update>;
  /** The form's field names (a 422 on another path becomes the form message). */
  fields: readonly string[];
  /** Values of a new record. */
  empty: EditorValues;
  /** Record → form values when editing (default: the empty values overlaid with the record's fields). */
  toValues?: (record: Row) => EditorValues;
}

export interface ResourceEditorContext<Row, Create = EditorValues, Update = Create> {
  schema: z.ZodType<Create & Update>;
  fields: readonly string[];
  empty: EditorValues;
  toValues: ((record: Row) => EditorValues) | null;
  mode: 'create' | 'edit';
  /** The record being edited (null when creating). */
  record: Row | null;
  initial: EditorValues;
  values: EditorValues;
  errors: EditorErrors;
  /** Message that belongs to no field (a 409, a network error…). */
  formError: string | null;
  /** The validated body, set by `validating`. */
  body: (Create & Update) | null;
  /** What the last save answered, or null after a delete. */
  result: Row | null;
}

/** Input of `save`: a new record's body, or the edited record and the edit's body (with its version). */
export type SaveInput<Row, Create = EditorValues, Update = Create> =
  { mode: 'create'; record: null; body: Create } | { mode: 'edit'; record: Row; body: Versioned<Update> };

/** Emitted by the editor after a save or a delete (XState v5 `emit`; listen with `actor.on('saved', …)`). */
export type ResourceEditorEmitted = { type: 'saved'; kind: 'created' | 'updated' | 'deleted' };

/** What `saved` receives. */
export interface SavedInfo<Row> {
  kind: 'created' | 'updated' | 'deleted';
  result: Row | null;
}

export type ResourceEditorEvent<Row> =
  | { type: 'editor.openCreate'; values?: EditorValues }
  | { type: 'editor.openEdit'; record: Row }
  | { type: 'editor.changed'; field: string; value: unknown }
  | { type: 'editor.submit' }
  | { type: 'editor.close' }
  | { type: 'editor.discard' }
  | { type: 'editor.keepEditing' }
  | { type: 'editor.delete' }
  | { type: 'editor.confirmDelete' }
  | { type: 'editor.cancelDelete' }
  | { type: 'editor.reload' };

/** Whether the values differ from those the editor opened with. */
export function isDirty(context: Pick<ResourceEditorContext<unknown>, 'initial' | 'values'>): boolean {
  const keys = new Set([...Object.keys(context.initial), ...Object.keys(context.values)]);
  for (const key of keys) if (!Object.is(context.initial[key], context.values[key])) return true;
  return false;
}

/** Client validation with the body schema: the parsed body, or the first message per field. */
export function validateValues<Body>(
  schema: z.ZodType<Body>,
  fields: readonly string[],
  values: EditorValues,
): { ok: true; body: Body } | { ok: false; errors: EditorErrors; formError: string | null } {
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

/** The `version` of a record, when it carries a numeric one (src/schemas/versions.ts). */
export function versionOf(record: object): number | undefined {
  const version: unknown = VERSION_FIELD in record ? record[VERSION_FIELD] : undefined;
  return typeof version === 'number' ? version : undefined;
}

/** `body` with the opened record's version (issue 11 item 9); unchanged when the record has none. */
export function withVersion<Body extends object>(body: Body, record: object): Versioned<Body> {
  const version = versionOf(record);
  return version === undefined ? body : { ...body, version };
}

const closedContext = {
  mode: 'create' as const,
  record: null,
  errors: {},
  formError: null,
  body: null,
};

/** Context of the form opened on `record` (edit mode). */
function editContext<Row extends object, Create, Update>(context: ResourceEditorContext<Row, Create, Update>, record: Row) {
  const fields = new Map<string, unknown>(Object.entries(record));
  const values = context.toValues
    ? context.toValues(record)
    : Object.fromEntries(Object.keys(context.empty).map((k) => [k, fields.get(k) ?? context.empty[k]]));
  return { ...closedContext, mode: 'edit' as const, record, initial: values, values: { ...values }, result: null };
}

/** The `save` input of the context in `submitting` (a valid body is set there: the `isValid` guard). */
function saveInputOf<Row extends object, Create extends object, Update extends object>(
  context: ResourceEditorContext<Row, Create, Update>,
): SaveInput<Row, Create, Update> {
  const body = context.body!;
  return context.mode === 'edit' && context.record !== null
    ? { mode: 'edit', record: context.record, body: withVersion<Update>(body, context.record) }
    : { mode: 'create', record: null, body };
}

/** The error of a failed invoke, as guard and action params. */
const errorParams = ({ event }: { event: { error: unknown } }) => ({ error: event.error });

/**
 * The server refused a save or a delete: its message goes on the form (`showServerError`), and a
 * 401/402/404 is also handed to the session (`reportApiError`). A stale edit ends in `stale`
 * (with "Recargar"), anything else in `rejected`.
 */
const SERVER_REFUSED = [
  { guard: { type: 'isStaleRecord', params: errorParams }, target: 'stale', actions: { type: 'showServerError', params: errorParams } },
  {
    guard: { type: 'isSessionError', params: errorParams },
    target: 'rejected',
    actions: [
      { type: 'reportApiError', params: errorParams },
      { type: 'showServerError', params: errorParams },
    ],
  },
  { target: 'rejected', actions: { type: 'showServerError', params: errorParams } },
] as const;

/**
 * The transitions of an open form, shared by `editing`, `rejected` and `stale`: typing goes back to
 * `editing` (clearing that field's error), "Guardar" validates, closing asks when dirty, "Eliminar"
 * asks when editing a record.
 */
const FORM_TRANSITIONS = {
  'editor.changed': { target: 'editing', actions: 'applyChange' },
  'editor.submit': { target: 'validating' },
  'editor.close': [{ guard: 'isDirty', target: 'confirmingDiscard' }, { target: 'closed' }],
  'editor.delete': { guard: 'isEditing', target: 'confirmingDelete' },
} as const;

/**
 * A typed editor machine for one kind of record (see the comment at the top of this file).
 * @typeParam Row the record (list row and api answer).
 * @typeParam Create the body of a new record; @typeParam Update the body of an edit (default Create).
 */
export function createResourceEditorMachine<Row extends object, Create extends object = EditorValues, Update extends object = Create>() {
  return setup({
    types: {
      context: {} as ResourceEditorContext<Row, Create, Update>,
      events: {} as ResourceEditorEvent<Row>,
      input: {} as ResourceEditorInput<Row, Create, Update>,
      /** `saved {kind}` after a create, an edit or a delete: a parent screen machine reacts with `actor.on('saved', …)`. */
      emitted: {} as ResourceEditorEmitted,
    },
    actions: {
      /** Refreshes the parent list (injected: `list.send({ type: 'list.refresh' })`) and may toast. */
      saved: (_, _info: SavedInfo<Row>) => {},
      /** Hands a 401/402/404 to the session (injected). */
      reportApiError: (_, _params: { error: unknown }) => {},
      /** Fills the form with a new record's values. */
      openForCreate: assign(({ context, event }) => {
        assertEvent(event, 'editor.openCreate');
        const values = { ...context.empty, ...event.values };
        return { ...closedContext, initial: values, values: { ...values }, result: null };
      }),
      /** Fills the form with the record's values. */
      openForEdit: assign(({ context, event }) => {
        assertEvent(event, 'editor.openEdit');
        return editContext(context, event.record);
      }),
      /** Fills the form with the record `reload` fetched again. */
      openReloaded: assign(({ context }, params: { record: Row }) => editContext(context, params.record)),
      /** One field typed: its value, and its error cleared. */
      applyChange: assign(({ context, event }) => {
        assertEvent(event, 'editor.changed');
        return {
          values: { ...context.values, [event.field]: event.value },
          errors: { ...context.errors, [event.field]: undefined },
        };
      }),
      /** A refused save or delete: a 422's messages on their fields, anything else as the form's message. */
      showServerError: assign(({ context }, { error }: { error: unknown }) => {
        const { fields, rest } = fieldErrorsFrom(error, context.fields);
        const hasFieldErrors = Object.keys(fields).length > 0;
        const errors: EditorErrors = fields;
        return {
          errors,
          formError: rest.length > 0 ? rest.join(' ') : hasFieldErrors ? null : errorMessage(error),
        };
      }),
    },
    actors: {
      /** POST (create) or PATCH (edit) with the validated body. @returns the saved record. */
      save: placeholder<Row, SaveInput<Row, Create, Update>>('save'),
      /** DELETE the record (input `{ record }`). */
      remove: placeholder<unknown, { record: Row }>('remove'),
      /** GET the record again (after a stale edit; input `{ record }`). @returns the fresh record. */
      reload: placeholder<Row, { record: Row }>('reload'),
    },
    guards: {
      isValid: ({ context }) => context.body !== null,
      isDirty: ({ context }) => isDirty(context),
      isEditing: ({ context }) => context.mode === 'edit' && context.record !== null,
      isSessionError: (_, { error }: { error: unknown }) => isSessionError(error),
      isStaleRecord: (_, { error }: { error: unknown }) => isStaleRecordError(error),
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
      /** The form is open and idle. */
      editing: { on: FORM_TRANSITIONS },
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
          input: ({ context }) => saveInputOf(context),
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
              emit(({ context }) => ({
                type: 'saved' as const,
                kind: context.mode === 'edit' ? ('updated' as const) : ('created' as const),
              })),
            ],
          },
          onError: SERVER_REFUSED,
        },
      },
      /** The server refused: its messages are on the fields (422) or in `formError`. */
      rejected: { on: FORM_TRANSITIONS },
      /** The record changed since it was opened: the 409's message with "Recargar" (`editor.reload`). */
      stale: { on: { ...FORM_TRANSITIONS, 'editor.reload': { target: 'reloading' } } },
      /** Fetching the record again; the form reopens on it (the user's unsaved values are replaced). */
      reloading: {
        invoke: {
          src: 'reload',
          input: ({ context }) => ({ record: context.record! }),
          onDone: { target: 'editing', actions: { type: 'openReloaded', params: ({ event }) => ({ record: event.output }) } },
          onError: [
            {
              guard: { type: 'isSessionError', params: errorParams },
              target: 'stale',
              actions: [
                { type: 'reportApiError', params: errorParams },
                { type: 'showServerError', params: errorParams },
              ],
            },
            { target: 'stale', actions: { type: 'showServerError', params: errorParams } },
          ],
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
          input: ({ context }) => ({ record: context.record! }),
          onDone: {
            target: 'done',
            actions: [
              assign({ result: null }),
              { type: 'saved', params: () => ({ kind: 'deleted' as const, result: null }) },
              emit({ type: 'saved' as const, kind: 'deleted' as const }),
            ],
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
}

/** The editor machine of a screen with records `Row` and bodies `Create` / `Update`. */
export type ResourceEditorMachine<Row extends object, Create extends object = EditorValues, Update extends object = Create> = ReturnType<
  typeof createResourceEditorMachine<Row, Create, Update>
>;

/** An editor over plain records (tests and screens whose rows have no type of their own). */
export const resourceEditorMachine = createResourceEditorMachine<EditorValues>();
