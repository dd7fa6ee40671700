import { assertEvent, assign, emit, fromPromise, setup, type ActorRefFrom } from 'xstate';
import type { ApiClient, ApiError } from '../../api/client';
import { createCompanyApi, type CompanyApi } from '../../api/configuracion/company';
import type { AppToaster } from '../../lib/toaster';
import {
  LOGO_CONTENT_TYPES,
  LOGO_MAX_BYTES,
  updateCompanyRequestSchema,
  type Company,
  type CreateLocalRequest,
  type LocalRecord,
  type UpdateLocalRequest,
  type UpdateCompanyRequest,
} from '../../schemas/configuracion/company';
import { resourceScreenMachines } from '../shared/resource-screen';
import type { ResourceListInput, ResourceListMachine } from '../shared/resource-list.machine';
import type { ResourceEditorInput, ResourceEditorMachine } from '../shared/resource-editor.machine';
import { placeholder } from '../shared/placeholder';
import { errorMessage, fieldErrorsFrom, forwardSessionErrors, isSessionError } from '../shared/api-errors';
import { isStaleRecordError } from '../../schemas/versions';

/**
 * Configuración → Empresas (issue "Configuración"): {@link companyFormMachine} (the company's data,
 * "Guardar" PATCHes it; 422 errors on their fields; the logo upload) and the locals below it, a
 * list and editor of the CRUD pattern with Activar/Desactivar ({@link localActivationMachine}).
 */

export const COMPANY_FIELDS = [
  'business_name',
  'ruc',
  'address',
  'phone',
  'email',
  'legal_representative',
  'sale_backdate_days',
  'payment_approval_segregation',
  'legal_representative_dni',
  'legal_representative_power_entry',
  'contract_place',
  'contract_signature_days',
] as const;
/** Fields shown as a switch: their form value is 'true' or 'false'. */
export const COMPANY_SWITCHES: readonly CompanyField[] = ['payment_approval_segregation'];
export type CompanyField = (typeof COMPANY_FIELDS)[number];
export type CompanyValues = Record<CompanyField, string>;

export const LOGO_TYPE_MESSAGE = 'El logo debe ser una imagen PNG, JPEG o SVG';
export const LOGO_SIZE_MESSAGE = 'El logo no debe superar 1 MB';
export const COMPANY_SAVED = 'Datos de la empresa guardados';
export const LOGO_SAVED = 'Logo actualizado';

const NULLABLE: readonly CompanyField[] = [
  'phone',
  'email',
  'legal_representative',
  'legal_representative_dni',
  'legal_representative_power_entry',
  'contract_place',
];

/** The company as form values ('' for null). */
export function companyValues(company: Company): CompanyValues {
  return Object.fromEntries(COMPANY_FIELDS.map((f) => [f, String(company[f] ?? '')])) as CompanyValues;
}

/**
 * Form values → PATCH body (empty optional fields become null), with the `version` of the company
 * the form was filled from, when it has one (a stale one is a 409, src/schemas/versions.ts).
 */
export function companyBody(values: CompanyValues, version?: number): UpdateCompanyRequest {
  const body = Object.fromEntries(
    COMPANY_FIELDS.map((f) => [f, NULLABLE.includes(f) && values[f].trim() === '' ? null : values[f].trim()]),
  ) as Record<CompanyField, string | null>;
  // A whole number of days, or NaN (the schema's message) for anything else.
  const whole = (text: string | null) => (/^\d{1,4}$/.test(text ?? '') ? Number(text) : Number.NaN);
  const request = {
    ...body,
    sale_backdate_days: whole(body.sale_backdate_days),
    contract_signature_days: whole(body.contract_signature_days),
    payment_approval_segregation: body.payment_approval_segregation !== 'false',
  } as UpdateCompanyRequest;
  return version === undefined ? request : { ...request, version };
}

/** The client-side check of a chosen logo (the server checks again). @returns a message or null. */
export function logoProblem(file: { type: string; size: number }): string | null {
  if (!(LOGO_CONTENT_TYPES as readonly string[]).includes(file.type)) return LOGO_TYPE_MESSAGE;
  if (file.size > LOGO_MAX_BYTES) return LOGO_SIZE_MESSAGE;
  return null;
}

interface CompanyFormContext {
  company: Company | null;
  values: CompanyValues;
  errors: Partial<Record<CompanyField, string>>;
  formError: string | null;
  logoError: string | null;
  /** Bumped after each logo upload, so the shown image is fetched again. */
  logoVersion: number;
  /** The last save was refused as stale: the form offers "Recargar" (`company.reload`). */
  stale: boolean;
}

type CompanyFormEvent =
  | { type: 'company.changed'; field: CompanyField; value: string }
  | { type: 'company.submit' }
  | { type: 'company.retry' }
  | { type: 'company.reload' }
  | { type: 'logo.selected'; file: File };

const emptyValues = Object.fromEntries(COMPANY_FIELDS.map((f) => [f, ''])) as CompanyValues;

/**
 * `companyForm`: loading → ready ⇄ saving | uploading; failure (retry). A stale-edit 409 sets
 * `stale` with the server's message; `company.reload` loads the company again (its values replace
 * the form's).
 */
export const companyFormMachine = setup({
  types: { context: {} as CompanyFormContext, events: {} as CompanyFormEvent },
  actors: {
    load: placeholder<Company>('load'),
    save: placeholder<Company, UpdateCompanyRequest>('save'),
    uploadLogo: placeholder<Company, File>('uploadLogo'),
  },
  actions: {
    saved: (_, _message: string) => {},
    reportApiError: (_, _error: ApiError) => {},
  },
  guards: {
    valid: ({ context }) => updateCompanyRequestSchema.safeParse(companyBody(context.values)).success,
    logoOk: ({ event }) => event.type === 'logo.selected' && logoProblem(event.file) === null,
  },
}).createMachine({
  id: 'companyForm',
  context: { company: null, values: emptyValues, errors: {}, formError: null, logoError: null, logoVersion: 0, stale: false },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        src: 'load',
        onDone: {
          target: 'ready',
          actions: assign({
            company: ({ event }) => event.output,
            values: ({ event }) => companyValues(event.output),
            errors: {},
            formError: null,
            stale: false,
          }),
        },
        onError: {
          target: 'failure',
          actions: [
            assign({ formError: ({ event }) => errorMessage(event.error) }),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
    failure: { on: { 'company.retry': { target: 'loading', actions: assign({ formError: null }) } } },
    ready: {
      on: {
        'company.changed': {
          actions: assign({
            values: ({ context, event }) => ({ ...context.values, [event.field]: event.value }),
            errors: ({ context, event }) => ({ ...context.errors, [event.field]: undefined }),
          }),
        },
        'company.reload': { guard: ({ context }) => context.stale, target: 'loading' },
        'company.submit': [
          { guard: 'valid', target: 'saving' },
          {
            actions: assign({
              errors: ({ context }) => {
                const result = updateCompanyRequestSchema.safeParse(companyBody(context.values));
                const errors: Partial<Record<CompanyField, string>> = {};
                for (const issue of result.error?.issues ?? []) {
                  const field = issue.path[0] as CompanyField;
                  errors[field] ??= issue.message;
                }
                return errors;
              },
            }),
          },
        ],
        'logo.selected': [
          { guard: 'logoOk', target: 'uploading' },
          { actions: assign({ logoError: ({ event }) => logoProblem(event.file) }) },
        ],
      },
    },
    saving: {
      entry: assign({ formError: null, stale: false }),
      invoke: {
        src: 'save',
        input: ({ context }) => companyBody(context.values, context.company?.version),
        onDone: {
          target: 'ready',
          actions: [
            assign({ company: ({ event }) => event.output, values: ({ event }) => companyValues(event.output), errors: {} }),
            { type: 'saved', params: COMPANY_SAVED },
          ],
        },
        onError: {
          target: 'ready',
          actions: [
            assign(({ event }) => {
              const { fields, rest } = fieldErrorsFrom(event.error, COMPANY_FIELDS);
              return {
                errors: fields,
                formError: rest[0] ?? (Object.keys(fields).length ? null : errorMessage(event.error)),
                stale: isStaleRecordError(event.error),
              };
            }),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
    uploading: {
      entry: assign({ logoError: null }),
      invoke: {
        src: 'uploadLogo',
        input: ({ event }) => {
          assertEvent(event, 'logo.selected');
          return event.file;
        },
        onDone: {
          target: 'ready',
          actions: [
            assign({ company: ({ event }) => event.output, logoVersion: ({ context }) => context.logoVersion + 1 }),
            { type: 'saved', params: LOGO_SAVED },
          ],
        },
        onError: {
          target: 'ready',
          actions: [
            assign({ logoError: ({ event }) => errorMessage(event.error) }),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
  },
});

/** `localActivation`: idle → switching (activate / deactivate one local) → idle; emits `switched` when done. */
export const localActivationMachine = setup({
  types: {
    events: {} as { type: 'local.setActive'; local: LocalRecord; active: boolean },
    emitted: {} as { type: 'switched'; local: LocalRecord },
  },
  actors: { setActive: placeholder<LocalRecord, { id: number; active: boolean }>('setActive') },
  actions: {
    done: (_, _local: LocalRecord) => {},
    reportApiError: (_, _error: ApiError) => {},
  },
}).createMachine({
  id: 'localActivation',
  initial: 'idle',
  states: {
    idle: { on: { 'local.setActive': 'switching' } },
    switching: {
      invoke: {
        src: 'setActive',
        input: ({ event }) => {
          assertEvent(event, 'local.setActive');
          return { id: event.local.id, active: event.active };
        },
        onDone: {
          target: 'idle',
          actions: [
            { type: 'done', params: ({ event }) => event.output },
            emit(({ event }) => ({ type: 'switched' as const, local: event.output })),
          ],
        },
        onError: { target: 'idle', actions: { type: 'reportApiError', params: ({ event }) => event.error as ApiError } },
      },
    },
  },
});

export interface CompanyDeps {
  api: Pick<CompanyApi, 'get' | 'update' | 'uploadLogo' | 'listLocals' | 'createLocal' | 'updateLocal' | 'getLocal' | 'setLocalActive'>;
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
}

/** The screen's machines provided with their effects. */
export function createCompanyMachines(deps: CompanyDeps) {
  const { api, toaster } = deps;
  const report = forwardSessionErrors(deps.reportApiError);
  const companyForm = companyFormMachine.provide({
    actors: {
      load: fromPromise(() => api.get()),
      save: fromPromise<Company, UpdateCompanyRequest>(({ input }) => api.update(input)),
      uploadLogo: fromPromise<Company, File>(({ input }) => api.uploadLogo(input, input.name)),
    },
    actions: {
      saved: (_, message) => toaster.show({ severity: 'success', summary: message }),
      reportApiError: (_, error) => report(error),
    },
  });
  const locals = resourceScreenMachines<LocalRecord, CreateLocalRequest, UpdateLocalRequest>({
    fetchPage: api.listLocals,
    save: (input) => (input.mode === 'edit' ? api.updateLocal(input.record.id, input.body) : api.createLocal(input.body)),
    fetchOne: (record) => api.getLocal(record.id),
    reportApiError: deps.reportApiError,
    toaster,
  });
  const localActivation = localActivationMachine.provide({
    actors: {
      setActive: fromPromise<LocalRecord, { id: number; active: boolean }>(({ input }) => api.setLocalActive(input.id, input.active)),
    },
    actions: {
      done: (_, local) => toaster.show({ severity: 'success', summary: local.active ? 'Local activado' : 'Local desactivado' }),
      reportApiError: (_, error) => {
        if (isSessionError(error)) deps.reportApiError(error);
        else toaster.show({ severity: 'error', summary: 'No se pudo cambiar el estado del local', detail: error.message });
      },
    },
  });
  return { companyForm, locals, localActivation, localsPage: createLocalsPageMachine({ ...locals, activation: localActivation }) };
}

/** Input of {@link createLocalsPageMachine}: the list's and the editor's. */
export interface LocalsPageInput {
  list: ResourceListInput<LocalRecord>;
  editor: ResourceEditorInput<LocalRecord, CreateLocalRequest, UpdateLocalRequest>;
}

/**
 * The Locales section as one machine (issue "One place per screen" item 3): it spawns the list,
 * the editor and the activation, and refreshes the list when the editor emits `saved` or the
 * activation emits `switched` — no coordination left in the view.
 */
export function createLocalsPageMachine(children: {
  list: ResourceListMachine<LocalRecord>;
  editor: ResourceEditorMachine<LocalRecord, CreateLocalRequest, UpdateLocalRequest>;
  activation: typeof localActivationMachine;
}) {
  return setup({
    types: {
      context: {} as {
        list: ActorRefFrom<ResourceListMachine<LocalRecord>>;
        editor: ActorRefFrom<ResourceEditorMachine<LocalRecord, CreateLocalRequest, UpdateLocalRequest>>;
        activation: ActorRefFrom<typeof localActivationMachine>;
      },
      events: {} as { type: 'child.changed' },
      input: {} as LocalsPageInput,
    },
    actors: children,
    actions: {
      listenToChildren: ({ context, self }) => {
        context.editor.on('saved', () => self.send({ type: 'child.changed' }));
        context.activation.on('switched', () => self.send({ type: 'child.changed' }));
      },
      refreshList: ({ context }) => context.list.send({ type: 'list.refresh' }),
    },
  }).createMachine({
    id: 'localsPage',
    context: ({ input, spawn }) => ({
      list: spawn('list', { id: 'list', input: input.list }),
      editor: spawn('editor', { id: 'editor', input: input.editor }),
      activation: spawn('activation', { id: 'activation' }),
    }),
    entry: 'listenToChildren',
    on: { 'child.changed': { actions: 'refreshList' } },
  });
}
export type CompanyMachines = ReturnType<typeof createCompanyMachines>;

/** {@link createCompanyMachines} over the app's api client (ON_DEMAND_MACHINES.company). */
export function createCompanyMachinesFor(client: ApiClient, deps: Omit<CompanyDeps, 'api'>): CompanyMachines {
  return createCompanyMachines({ ...deps, api: createCompanyApi(client) });
}
