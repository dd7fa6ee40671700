import { setup, type ActorRefFrom } from 'xstate';
import type { Settlement } from '../../schemas/administracion/commissions';
import type { ResourceListInput, ResourceListMachine } from '../shared/resource-list.machine';
import type { SettlementMachine } from './settlement.machine';

/**
 * The Liquidaciones tab as one machine (the pattern of resource-page.machine.ts): it spawns the
 * settlements' list (`list`) and the open settlement (`settlement`, settlement.machine.ts), and
 * refreshes the list whenever the settlement emits `changed` (created, approved, voucher, paid,
 * deleted). The view reads both refs and sends events; it coordinates nothing.
 */
export function createSettlementsPageMachine(children: { list: ResourceListMachine<Settlement>; settlement: SettlementMachine }) {
  return setup({
    types: {
      context: {} as { list: ActorRefFrom<ResourceListMachine<Settlement>>; settlement: ActorRefFrom<SettlementMachine> },
      input: {} as { list: ResourceListInput<Settlement> },
    },
    actors: children,
    actions: {
      listenToChildren: ({ context }) => {
        context.settlement.on('changed', () => context.list.send({ type: 'list.refresh' }));
      },
    },
  }).createMachine({
    id: 'settlementsPage',
    context: ({ input, spawn }) => ({
      list: spawn('list', { id: 'list', input: input.list }),
      settlement: spawn('settlement', { id: 'settlement' }),
    }),
    entry: 'listenToChildren',
  });
}
export type SettlementsPageMachine = ReturnType<typeof createSettlementsPageMachine>;
