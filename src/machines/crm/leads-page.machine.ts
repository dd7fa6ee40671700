import { assign, setup, type ActorRefFrom } from 'xstate';
import type { ResourceListInput, ResourceListMachine } from '../shared/resource-list.machine';
import type { ResourceEditorInput, ResourceEditorMachine } from '../shared/resource-editor.machine';
import type { ConvertLeadRequest, CreateLeadRequest, Lead } from '../../schemas/crm/leads';
import type { LeadDetailMachine } from './lead-detail.machine';
import type { LeadOverviewMachine } from './lead-overview.machine';
import type { LeadImportMachine } from './lead-import.machine';

/**
 * CRM → LEADS as one machine (the screen pattern of resource-page.machine.ts, with more children):
 * it spawns the list, the lead editor, the side panel (`detail`), the convert-to-customer form
 * (`convert`), the counts and board (`overview`) and the file import (`importer`), and keeps them in step:
 * - the list's search or filters change → the overview loads with them;
 * - the editor or the convert form saved, a file imported, or the panel changed a lead → the list, the overview
 *   and an open panel reload.
 * `view.changed {view}` switches between the table and the board. The view only renders and sends.
 */

export type LeadsView = 'list' | 'board';

export interface LeadsPageInput {
  list: ResourceListInput<Lead>;
  editor: ResourceEditorInput<Lead, CreateLeadRequest, CreateLeadRequest>;
  convert: ResourceEditorInput<Lead, ConvertCustomerBody, ConvertCustomerBody>;
}

/** The convert form's body: the customer part of POST leads/{id}/convert. */
export type ConvertCustomerBody = Extract<ConvertLeadRequest, { customer: unknown }>['customer'];

/** The filters the overview reads from a list query (its search text included). */
export function overviewFilters(query: { q?: string; filters: Record<string, string> }): Record<string, string> {
  return { ...query.filters, ...(query.q ? { q: query.q } : {}) };
}

export function createLeadsPageMachine(children: {
  list: ResourceListMachine<Lead>;
  editor: ResourceEditorMachine<Lead, CreateLeadRequest, CreateLeadRequest>;
  convert: ResourceEditorMachine<Lead, ConvertCustomerBody, ConvertCustomerBody>;
  detail: LeadDetailMachine;
  overview: LeadOverviewMachine;
  importer: LeadImportMachine;
}) {
  return setup({
    types: {
      context: {} as {
        list: ActorRefFrom<ResourceListMachine<Lead>>;
        editor: ActorRefFrom<ResourceEditorMachine<Lead, CreateLeadRequest, CreateLeadRequest>>;
        convert: ActorRefFrom<ResourceEditorMachine<Lead, ConvertCustomerBody, ConvertCustomerBody>>;
        detail: ActorRefFrom<LeadDetailMachine>;
        overview: ActorRefFrom<LeadOverviewMachine>;
        importer: ActorRefFrom<LeadImportMachine>;
        view: LeadsView;
      },
      events: {} as
        | { type: 'child.changed' }
        | { type: 'list.queryChanged'; filters: Record<string, string> }
        | { type: 'view.changed'; view: LeadsView },
      input: {} as LeadsPageInput,
    },
    actors: children,
    actions: {
      listenToChildren: ({ context, self }) => {
        const changed = () => self.send({ type: 'child.changed' });
        context.editor.on('saved', changed);
        context.convert.on('saved', changed);
        context.detail.on('changed', changed);
        context.importer.on('imported', changed);
        let last = '';
        context.list.subscribe((snapshot) => {
          const filters = overviewFilters(snapshot.context.query);
          const key = JSON.stringify(Object.entries(filters).sort());
          if (key === last) return;
          last = key;
          self.send({ type: 'list.queryChanged', filters });
        });
      },
    },
  }).createMachine({
    id: 'leadsPage',
    context: ({ input, spawn }) => ({
      list: spawn('list', { id: 'list', input: input.list }),
      editor: spawn('editor', { id: 'editor', input: input.editor }),
      convert: spawn('convert', { id: 'convert', input: input.convert }),
      detail: spawn('detail', { id: 'detail' }),
      overview: spawn('overview', { id: 'overview' }),
      importer: spawn('importer', { id: 'importer' }),
      view: 'list' as LeadsView,
    }),
    entry: 'listenToChildren',
    on: {
      'child.changed': {
        actions: ({ context }) => {
          context.list.send({ type: 'list.refresh' });
          context.overview.send({ type: 'overview.reload' });
          if (context.detail.getSnapshot().context.id !== null) context.detail.send({ type: 'detail.refresh' });
        },
      },
      'list.queryChanged': { actions: ({ context, event }) => context.overview.send({ type: 'overview.load', filters: event.filters }) },
      'view.changed': {
        actions: [
          assign(({ event }) => ({ view: event.view })),
          ({ context, event }) => context.overview.send({ type: 'overview.board', on: event.view === 'board' }),
        ],
      },
    },
  });
}
export type LeadsPageMachine = ReturnType<typeof createLeadsPageMachine>;
