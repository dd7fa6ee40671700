import { fromPromise } from 'xstate';
import type { ApiClient, ApiError } from '../../api/client';
import { createCustomersApi, type CustomersApi } from '../../api/crm/customers';
import { createLeadsApi, type LeadsApi } from '../../api/crm/leads';
import { createSubdivisionOptionsApi } from '../../api/proyectos/subdivision-options';
import type { AppToaster } from '../../lib/toaster';
import type { StaffOption } from '../../schemas/crm/customers';
import {
  LEAD_MESSAGES,
  LEAD_STATUSES,
  type CreateLeadRequest,
  type Lead,
  type LeadStatus,
  type MergeLeadRequest,
} from '../../schemas/crm/leads';
import type { SubdivisionOption } from '../../schemas/proyectos/subdivision-options';
import { forwardSessionErrors } from '../shared/api-errors';
import { createLookupMachine } from '../shared/lookup.machine';
import { createLoadOnceMachine } from '../shared/load-once.machine';
import { createRecordActionsMachine } from '../shared/record-actions.machine';
import { createResourceEditorMachine } from '../shared/resource-editor.machine';
import { resourceScreenMachines } from '../shared/resource-screen';
import { leadDetailMachine } from './lead-detail.machine';
import { leadImportMachine } from './lead-import.machine';
import { BOARD_COLUMN_SIZE, leadOverviewMachine, type BoardColumn } from './lead-overview.machine';
import { createLeadsPageMachine, type ConvertCustomerBody } from './leads-page.machine';

/**
 * CRM → LEADS (issue "CRM and sales"): the screen machine (leads-page.machine.ts) with its list and
 * editor over the leads api, the side panel, the convert form and the overview; the staff and
 * subdivision options, loaded once; the duplicate lookups of the new-lead form (by phone, by
 * document) and "Fusionar" (`merge`, asked first).
 */

/** A merge asked from the new-lead form: the lead to keep and the new contact's body. */
export interface MergeRequest {
  target: Lead;
  body: MergeLeadRequest;
}

/** The duplicate lookups' text is the phone or the document typed. */
export const duplicateLookupMachine = createLookupMachine<Lead>('leadDuplicates');

export interface LeadsMachinesDeps {
  leadsApi: LeadsApi;
  customersApi: CustomersApi;
  /** GET subdivision-options (src/api/proyectos/subdivision-options.ts). */
  subdivisionOptions: () => Promise<SubdivisionOption[]>;
  reportApiError: (error: ApiError) => void;
  toaster: AppToaster;
}

/** The LEADS screen's machines, provided. */
export function createLeadsMachines(deps: LeadsMachinesDeps) {
  const { leadsApi, toaster } = deps;
  const report = forwardSessionErrors(deps.reportApiError);
  const screen = resourceScreenMachines<Lead, CreateLeadRequest, CreateLeadRequest>({
    fetchPage: leadsApi.list,
    save: (input) => {
      if (input.mode === 'create') return leadsApi.create(input.body);
      // An edit sends the fields (PATCH has no `on_duplicate`: duplicates are a question of new leads).
      const { on_duplicate: _keep, ...body } = input.body;
      return leadsApi.update(input.record.id, body);
    },
    fetchOne: (record) => leadsApi.get(record.id),
    reportApiError: deps.reportApiError,
    toaster,
  });
  const convert = createResourceEditorMachine<Lead, ConvertCustomerBody, ConvertCustomerBody>().provide({
    actors: {
      save: fromPromise(async ({ input }) => {
        if (input.mode !== 'edit') throw new Error('convert needs a lead');
        const { version, ...customer } = input.body;
        return leadsApi.convert(input.record.id, version === undefined ? { customer } : { customer, version });
      }),
      reload: fromPromise(async ({ input }) => leadsApi.get(input.record.id)),
    },
    actions: {
      saved: () => toaster.show({ severity: 'success', summary: LEAD_MESSAGES.converted }),
      reportApiError: (_, { error }) => report(error),
    },
  });
  const detail = leadDetailMachine.provide({
    actors: {
      load: fromPromise(async ({ input }) => {
        const [lead, activities] = await Promise.all([leadsApi.get(input.id), leadsApi.activities(input.id)]);
        return { lead, activities };
      }),
      addActivity: fromPromise(async ({ input }) => leadsApi.addActivity(input.id, input.body)),
      changeStatus: fromPromise(async ({ input: { lead, status, reason } }) =>
        leadsApi.update(lead.id, {
          status,
          ...(reason ? { lost_reason: reason } : {}),
          ...(lead.version === undefined ? {} : { version: lead.version }),
        }),
      ),
    },
    actions: {
      reportApiError: (_, error) => report(error),
      done: (_, message) => toaster.show({ severity: 'success', summary: message }),
    },
  });
  const overview = leadOverviewMachine.provide({
    actors: {
      load: fromPromise(async ({ input: { filters, board } }) => {
        const summary = await leadsApi.summary(filters);
        if (!board) return { summary, columns: null };
        const { status: _status, ...rest } = filters;
        const pages = await Promise.all(
          LEAD_STATUSES.map((status) =>
            leadsApi.list({ page: 1, per_page: BOARD_COLUMN_SIZE, sort: 'next_follow_up_at', filters: { ...rest, status } }),
          ),
        );
        const columns: Partial<Record<LeadStatus, BoardColumn>> = {};
        LEAD_STATUSES.forEach((status, i) => {
          const page = pages[i];
          if (page) columns[status] = { rows: page.data, total: page.meta.total };
        });
        return { summary, columns };
      }),
    },
    actions: { reportApiError: (_, error) => report(error) },
  });
  const importer = leadImportMachine.provide({
    actors: {
      preview: fromPromise(({ input }) => leadsApi.previewImport(input.file, input.file.name, input.options)),
      commit: fromPromise(({ input }) => leadsApi.commitImport(input.file, input.file.name, input.options)),
    },
    actions: {
      reportApiError: (_, error) => report(error),
      imported: (_, result) =>
        toaster.show({
          severity: 'success',
          summary: 'Importación terminada',
          detail: `${result.created} leads nuevos, ${result.merged} fusionados, ${result.skipped} omitidos`,
        }),
    },
  });
  const page = createLeadsPageMachine({ list: screen.list, editor: screen.editor, convert, detail, overview, importer });
  const staff = createLoadOnceMachine<StaffOption[]>('leadStaff', []).provide({
    actors: { load: fromPromise(async () => (await deps.customersApi.staffOptions('')).data) },
  });
  const subdivisions = createLoadOnceMachine<SubdivisionOption[]>('leadSubdivisions', []).provide({
    actors: { load: fromPromise(() => deps.subdivisionOptions()) },
  });
  const phoneDuplicates = duplicateLookupMachine.provide({
    actors: { search: fromPromise(({ input }) => leadsApi.duplicates({ phone: input.text })) },
  });
  const documentDuplicates = duplicateLookupMachine.provide({
    actors: { search: fromPromise(({ input }) => leadsApi.duplicates({ document_number: input.text })) },
  });
  const merge = createRecordActionsMachine<'merge', MergeRequest>('leadMerge').provide({
    actors: { run: fromPromise(({ input: { record } }) => leadsApi.merge(record.target.id, record.body)) },
    actions: {
      done: () => toaster.show({ severity: 'success', summary: LEAD_MESSAGES.merged }),
      failed: (_, { message }) => toaster.show({ severity: 'error', summary: 'No se pudo fusionar', detail: message, life: 6000 }),
      reportApiError: (_, error) => report(error),
    },
  });
  return { page, staff, subdivisions, phoneDuplicates, documentDuplicates, merge };
}
export type LeadsMachines = ReturnType<typeof createLeadsMachines>;

/** Builds the api modules on the app's client (this module is loaded on demand with the screen). */
export function createLeadsMachinesFor(
  client: ApiClient,
  deps: Omit<LeadsMachinesDeps, 'leadsApi' | 'customersApi' | 'subdivisionOptions'>,
) {
  return createLeadsMachines({
    ...deps,
    leadsApi: createLeadsApi(client),
    customersApi: createCustomersApi(client),
    subdivisionOptions: createSubdivisionOptionsApi(client).list,
  });
}
