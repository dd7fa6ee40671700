import { assign, setup, type ActorRefFrom } from 'xstate';
import type { ContractTemplate } from '../../schemas/administracion/contract-templates';
import type { SubdivisionOption } from '../../schemas/proyectos/subdivision-options';
import type { createLoadOnceMachine } from '../shared/load-once.machine';
import type { ResourceListInput, ResourceListMachine } from '../shared/resource-list.machine';
import type { TemplateCreateMachine } from './template-create.machine';
import type { TemplateEditorMachine } from './template-editor.machine';

/** The tabs of Generar Contrato. */
export const GENERAR_CONTRATO_TABS = ['plantillas', 'generar'] as const;
export type GenerarContratoTab = (typeof GENERAR_CONTRATO_TABS)[number];

/** The subdivisions of the filter and of "Nueva plantilla", loaded once. */
export type TemplateSubdivisionsMachine = ReturnType<typeof createLoadOnceMachine<SubdivisionOption[]>>;

export interface ContractTemplatesPageContext {
  tab: GenerarContratoTab;
  list: ActorRefFrom<ResourceListMachine<ContractTemplate>>;
  subdivisions: ActorRefFrom<TemplateSubdivisionsMachine>;
  create: ActorRefFrom<TemplateCreateMachine>;
  editor: ActorRefFrom<TemplateEditorMachine>;
}

export type ContractTemplatesPageEvent =
  { type: 'page.tabChanged'; tab: GenerarContratoTab } | { type: 'child.created'; template: ContractTemplate } | { type: 'child.changed' };

/**
 * Administración → Generar Contrato as one machine (the pattern of resource-page.machine.ts): the
 * tab shown, and under "Plantillas" the list of the latest version of each template family
 * (`list`, the CRUD pattern's list), the subdivisions (`subdivisions`), "Nueva plantilla"
 * (`create`) and the editor of one version (`editor`). A created template opens in the editor; any
 * write of the editor (save, publish, new version) reads the list again. The view reads the refs
 * and sends events; it coordinates nothing.
 */
export function createContractTemplatesPageMachine(children: {
  list: ResourceListMachine<ContractTemplate>;
  subdivisions: TemplateSubdivisionsMachine;
  create: TemplateCreateMachine;
  editor: TemplateEditorMachine;
}) {
  return setup({
    types: {
      context: {} as ContractTemplatesPageContext,
      events: {} as ContractTemplatesPageEvent,
      input: {} as { list: ResourceListInput<ContractTemplate>; tab?: GenerarContratoTab },
    },
    actors: children,
    actions: {
      listenToChildren: ({ context, self }) => {
        context.create.on('created', ({ template }) => self.send({ type: 'child.created', template }));
        context.editor.on('changed', () => self.send({ type: 'child.changed' }));
      },
      refreshList: ({ context }) => context.list.send({ type: 'list.refresh' }),
    },
  }).createMachine({
    id: 'contractTemplatesPage',
    context: ({ input, spawn }) => ({
      tab: input.tab ?? 'plantillas',
      list: spawn('list', { id: 'list', input: input.list }),
      subdivisions: spawn('subdivisions', { id: 'subdivisions' }),
      create: spawn('create', { id: 'create' }),
      editor: spawn('editor', { id: 'editor' }),
    }),
    entry: 'listenToChildren',
    on: {
      'page.tabChanged': { actions: assign(({ event }) => ({ tab: event.tab })) },
      'child.created': {
        actions: ['refreshList', ({ context, event }) => context.editor.send({ type: 'template.opened', template: event.template })],
      },
      'child.changed': { actions: 'refreshList' },
    },
  });
}
export type ContractTemplatesPageMachine = ReturnType<typeof createContractTemplatesPageMachine>;
