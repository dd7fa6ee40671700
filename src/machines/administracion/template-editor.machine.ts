import { assign, emit, setup } from 'xstate';
import { ApiError } from '../../api/client';
import {
  CONTRACT_KINDS,
  CONTRACT_TEMPLATE_MESSAGES,
  templateContentIssues,
  templateDocSchema,
  type ContractKind,
  type ContractTemplate,
  type TemplateDoc,
} from '../../schemas/administracion/contract-templates';
import { isStaleRecordError } from '../../schemas/versions';
import { errorMessage } from '../shared/api-errors';
import { placeholder } from '../shared/placeholder';

/** Field errors of the editor: the name's message and the content's messages (every problem). */
export interface TemplateEditorErrors {
  name?: string;
  content?: string[];
}

export interface TemplateEditorContext {
  /** The version open (as last read or saved); null while closed or loading. */
  template: ContractTemplate | null;
  /** The id asked for by `template.open` (read again by "Reintentar" and "Recargar"). */
  openId: number | null;
  /** The name as typed. */
  name: string;
  /** The document as the rich-text editor last reported it. */
  content: TemplateDoc | null;
  /**
   * Bumped whenever the document is read from the server (open, "Recargar", a new version): the
   * rich-text editor starts again from `content` when it changes, and never otherwise.
   */
  docKey: number;
  /** The user typed since the last read or save: closing asks "¿Descartar los cambios?" first. */
  dirty: boolean;
  errors: TemplateEditorErrors;
  /** A refusal that is not a field's (409, network), Spanish. */
  error: string | null;
}

export type TemplateEditorEvent =
  | { type: 'template.open'; id: number }
  | { type: 'template.opened'; template: ContractTemplate }
  | { type: 'template.nameChanged'; value: string }
  | { type: 'template.contentChanged'; content: TemplateDoc }
  | { type: 'template.save' }
  | { type: 'template.reload' }
  | { type: 'template.publish' }
  | { type: 'template.confirmPublish' }
  | { type: 'template.cancelPublish' }
  | { type: 'template.newVersion' }
  | { type: 'template.close' }
  | { type: 'template.discard' }
  | { type: 'template.keepEditing' }
  | { type: 'template.retry' };

/** What the page hears: a version was saved, published or started (the list reads again). */
export type TemplateEditorEmitted = { type: 'changed'; template: ContractTemplate };

/** A template's kind as the catalogue types it (an unknown kind from a newer server checks as COMPRAVENTA_CONTADO's). */
export function templateKind(template: Pick<ContractTemplate, 'kind'>): ContractKind {
  return (CONTRACT_KINDS as readonly string[]).includes(template.kind) ? (template.kind as ContractKind) : 'COMPRAVENTA_CONTADO';
}

/** An empty document (one empty paragraph), for a template read without content. */
export const EMPTY_TEMPLATE_DOC: TemplateDoc = { type: 'doc', content: [{ type: 'paragraph' }] };

/** The document of a version read from the server (its `content`, or an empty one when unreadable). */
export function documentOf(template: ContractTemplate): TemplateDoc {
  const parsed = templateDocSchema.safeParse(template.content);
  return parsed.success ? parsed.data : EMPTY_TEMPLATE_DOC;
}

/**
 * The problems that keep the typed template from being saved, per field, in Spanish (the same
 * rules as the server's: a name, a document of the schema, only the catalogue's variables for the
 * kind; docs/domain.md "Contract templates"). Empty object = it may be sent.
 */
export function templateSaveProblems(context: Pick<TemplateEditorContext, 'name' | 'content' | 'template'>): TemplateEditorErrors {
  const errors: TemplateEditorErrors = {};
  if (context.name.trim() === '') errors.name = CONTRACT_TEMPLATE_MESSAGES.nameRequired;
  if (!context.content) errors.content = [CONTRACT_TEMPLATE_MESSAGES.contentRequired];
  else if (!templateDocSchema.safeParse(context.content).success) errors.content = [CONTRACT_TEMPLATE_MESSAGES.contentInvalid];
  else if (context.template) {
    const issues = templateContentIssues(context.content, templateKind(context.template));
    if (issues.length > 0) errors.content = issues;
  }
  return errors;
}

const hasProblems = (errors: TemplateEditorErrors) => Boolean(errors.name || errors.content?.length);

/** The context after reading `template` from the server (clean, the editor starts again). */
const loaded = (context: TemplateEditorContext, template: ContractTemplate): Partial<TemplateEditorContext> => ({
  template,
  openId: template.id,
  name: template.name,
  content: documentOf(template),
  docKey: context.docKey + 1,
  dirty: false,
  errors: {},
  error: null,
});

/** The 422's messages per field, or the refusal's message. */
function refusal(error: unknown): Pick<TemplateEditorContext, 'errors' | 'error'> {
  if (error instanceof ApiError && error.status === 422) {
    const errors: TemplateEditorErrors = {};
    if (error.issues.name?.[0]) errors.name = error.issues.name[0];
    if (error.issues.content?.length) errors.content = error.issues.content;
    return { errors, error: hasProblems(errors) ? null : errorMessage(error) };
  }
  return { errors: {}, error: errorMessage(error) };
}

const isPublished = (template: ContractTemplate | null) => template?.state === 'PUBLICADA';

/**
 * The editor of one template version (Administración → Generar Contrato, "Plantillas"):
 * closed → (`template.open {id}`) loading → editing (BORRADOR) | readOnly (PUBLICADA); or
 * `template.opened {template}` with a version already read (just created). In editing: the name and
 * the document (`template.contentChanged`, sent by the rich-text editor) mark it `dirty`;
 * `template.save` checks {@link templateSaveProblems} first (the content's messages shown, nothing
 * sent), then PATCHes with the version read: 422 per field, 409 stale → `stale` ("Recargar" reads
 * it again, dropping the edits), another 409 (published meanwhile) its message. `template.publish`
 * (only when nothing is unsaved) asks first (`confirmingPublish`) and makes it read-only;
 * `template.newVersion` in readOnly starts the next BORRADOR and opens it. `template.close` with
 * unsaved changes asks "¿Descartar los cambios?" (`confirmingDiscard`). Emits `changed` after each
 * write. Provide actors `load` (id → version), `save`, `publish`, `newVersion` and actions `notify`
 * (a toast) and `reportApiError`.
 */
export const templateEditorMachine = setup({
  types: {
    context: {} as TemplateEditorContext,
    events: {} as TemplateEditorEvent,
    emitted: {} as TemplateEditorEmitted,
  },
  actors: {
    load: placeholder<ContractTemplate, { id: number }>('load'),
    save: placeholder<ContractTemplate, { id: number; body: { version: number; name: string; content: TemplateDoc } }>('save'),
    publish: placeholder<ContractTemplate, { id: number; version?: number }>('publish'),
    newVersion: placeholder<ContractTemplate, { id: number; version?: number }>('newVersion'),
  },
  actions: {
    notify: (_, _message: string) => {},
    reportApiError: (_, _error: unknown) => {},
  },
  guards: {
    published: ({ context }) => isPublished(context.template),
    dirty: ({ context }) => context.dirty,
    valid: ({ context }) => !hasProblems(templateSaveProblems(context)),
    stale: (_, error: unknown) => isStaleRecordError(error),
  },
}).createMachine({
  id: 'templateEditor',
  context: { template: null, openId: null, name: '', content: null, docKey: 0, dirty: false, errors: {}, error: null },
  initial: 'closed',
  on: {
    'template.open': { target: '.loading', actions: assign(({ event }) => ({ template: null, error: null, openId: event.id })) },
    'template.opened': [
      {
        guard: ({ event }) => isPublished(event.template),
        target: '.readOnly',
        actions: assign(({ context, event }) => loaded(context, event.template)),
      },
      { target: '.editing', actions: assign(({ context, event }) => loaded(context, event.template)) },
    ],
  },
  states: {
    closed: {
      entry: assign({ template: null, content: null, name: '', dirty: false, errors: {}, error: null }),
    },
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ id: context.openId! }),
        onDone: [
          {
            guard: ({ event }) => isPublished(event.output),
            target: 'readOnly',
            actions: assign(({ context, event }) => loaded(context, event.output)),
          },
          { target: 'editing', actions: assign(({ context, event }) => loaded(context, event.output)) },
        ],
        onError: {
          target: 'loadFailed',
          actions: [
            assign(({ event }) => ({ error: errorMessage(event.error) })),
            { type: 'reportApiError', params: ({ event }: { event: { error: unknown } }) => event.error },
          ],
        },
      },
    },
    /** The version could not be read: "Reintentar" or back to the list. */
    loadFailed: {
      on: { 'template.retry': 'loading', 'template.close': 'closed' },
    },
    editing: {
      on: {
        'template.nameChanged': {
          actions: assign(({ context, event }) => ({
            name: event.value,
            dirty: true,
            errors: { ...context.errors, name: undefined },
            error: null,
          })),
        },
        'template.contentChanged': {
          actions: assign(({ context, event }) => ({
            content: event.content,
            dirty: true,
            errors: { ...context.errors, content: undefined },
          })),
        },
        'template.save': [
          { guard: 'valid', target: 'saving' },
          { actions: assign(({ context }) => ({ errors: templateSaveProblems(context), error: null })) },
        ],
        'template.publish': { guard: ({ context }) => !context.dirty, target: 'confirmingPublish' },
        'template.close': [{ guard: 'dirty', target: 'confirmingDiscard' }, { target: 'closed' }],
      },
    },
    saving: {
      invoke: {
        src: 'save',
        input: ({ context }) => ({
          id: context.template!.id,
          // A version read without `version` (an older server) is sent as 1 (docs/decisions.md "Record versions").
          body: { version: context.template!.version ?? 1, name: context.name.trim(), content: context.content! },
        }),
        onDone: {
          target: 'editing',
          actions: [
            // The document stays as typed (the editor is not restarted): only the record is updated.
            assign(({ event }) => ({ template: event.output, name: event.output.name, dirty: false, errors: {}, error: null })),
            { type: 'notify', params: 'Plantilla guardada' },
            emit(({ event }) => ({ type: 'changed' as const, template: event.output })),
          ],
        },
        onError: [
          {
            guard: { type: 'stale', params: ({ event }: { event: { error: unknown } }) => event.error },
            target: 'stale',
            actions: assign(({ event }) => ({ error: errorMessage(event.error) })),
          },
          {
            target: 'editing',
            actions: [
              assign(({ event }) => refusal(event.error)),
              { type: 'reportApiError', params: ({ event }: { event: { error: unknown } }) => event.error },
            ],
          },
        ],
      },
    },
    /** Someone else saved this version since it was read: "Recargar" (drops the edits) or keep the text to copy it. */
    stale: {
      on: {
        'template.reload': 'loading',
        'template.keepEditing': { target: 'editing', actions: assign({ error: null }) },
      },
    },
    /** "¿Publicar la plantilla?": a published version is read-only and may generate contracts. */
    confirmingPublish: {
      on: { 'template.confirmPublish': 'publishing', 'template.cancelPublish': 'editing' },
    },
    publishing: {
      invoke: {
        src: 'publish',
        input: ({ context }) => ({ id: context.template!.id, version: context.template!.version }),
        onDone: {
          target: 'readOnly',
          actions: [
            assign(({ event }) => ({ template: event.output, name: event.output.name, dirty: false, errors: {}, error: null })),
            { type: 'notify', params: 'Plantilla publicada' },
            emit(({ event }) => ({ type: 'changed' as const, template: event.output })),
          ],
        },
        onError: [
          {
            guard: { type: 'stale', params: ({ event }: { event: { error: unknown } }) => event.error },
            target: 'stale',
            actions: assign(({ event }) => ({ error: errorMessage(event.error) })),
          },
          {
            target: 'editing',
            actions: [
              assign(({ event }) => refusal(event.error)),
              { type: 'reportApiError', params: ({ event }: { event: { error: unknown } }) => event.error },
            ],
          },
        ],
      },
    },
    /** A PUBLICADA version: shown, never edited; "Nueva versión" starts the next draft. */
    readOnly: {
      on: {
        'template.newVersion': 'creatingVersion',
        'template.close': 'closed',
      },
    },
    creatingVersion: {
      invoke: {
        src: 'newVersion',
        input: ({ context }) => ({ id: context.template!.id, version: context.template!.version }),
        onDone: {
          target: 'editing',
          actions: [
            assign(({ context, event }) => loaded(context, event.output)),
            { type: 'notify', params: 'Nueva versión en borrador' },
            emit(({ event }) => ({ type: 'changed' as const, template: event.output })),
          ],
        },
        onError: {
          target: 'readOnly',
          actions: [
            assign(({ event }) => ({ error: errorMessage(event.error) })),
            { type: 'reportApiError', params: ({ event }: { event: { error: unknown } }) => event.error },
          ],
        },
      },
    },
    /** "¿Descartar los cambios?" before leaving a draft with unsaved edits. */
    confirmingDiscard: {
      on: { 'template.discard': 'closed', 'template.keepEditing': 'editing' },
    },
  },
});
export type TemplateEditorMachine = typeof templateEditorMachine;
