import { assertEvent, assign, setup, type ActorRefFrom } from 'xstate';
import type { CreateLotRequest, Lot, UpdateLotRequest } from '../../schemas/proyectos/projects';
import type { ResourceEditorInput, ResourceEditorMachine } from '../shared/resource-editor.machine';
import type { ResourceListInput, ResourceListMachine } from '../shared/resource-list.machine';
import type { BulkPriceMachine } from './bulk-price.machine';
import type { LotImportMachine } from './lot-import.machine';
import type { LotStatusMachine } from './lot-status.machine';
import type { LotsWindowMachine } from './lots-window.machine';
import type { SubdivisionDetailMachine } from './subdivision-detail.machine';

/**
 * The Lotes screen of one subdivision as one machine (issue "One place per screen" item 3): it
 * spawns its children — the header and structure (`detail`), the paged table (`list`) and its
 * editor (`editor`), "Ver todos" (`window`), the status change (`status`) and the bulk prices
 * (`bulk`), the file import (`lotImport`) — and coordinates them by reacting to what they emit (XState v5 `emit` + `actor.on`):
 *
 * - editor `saved` → the table and the header counts refresh;
 * - status `changed`, bulk `applied` and the import's `imported` → the table, the header and, when
 *   shown, "Ver todos" refresh (an import also closes its dialog);
 * - the table's query (filters, sort, search) changes while "Ver todos" is shown → the window
 *   starts over with it; switching to "Ver todos" loads it with the table's query.
 *
 * Its own state: the view (`paged` | `all`), the lot whose status history is open, whether the
 * "Solicitudes de bloqueo" drawer is open (`holdsOpen`; closing it refreshes the table and the
 * header, since an approval moves lots — docs/domain.md "Lot holds"), and whether the
 * import dialog is open (state `importing`, tag `importing`). The view only reads the children's
 * refs from `context` and sends events; it coordinates nothing.
 */

/** The six children, provided with their effects (projects.actors.ts `lotsPageFor`). */
export type LotsPageChildren = {
  detail: SubdivisionDetailMachine;
  list: ResourceListMachine<Lot>;
  editor: ResourceEditorMachine<Lot, CreateLotRequest, UpdateLotRequest>;
  window: LotsWindowMachine;
  status: LotStatusMachine;
  bulk: BulkPriceMachine;
  /** The "Importar lotes" dialog's machine (lot-import.machine.ts). */
  lotImport: LotImportMachine;
};

/** Input: the subdivision's key, the table's input (columns, query from the URL) and the editor's. */
export interface LotsPageInput {
  key: string;
  list: ResourceListInput<Lot>;
  editor: ResourceEditorInput<Lot, CreateLotRequest, UpdateLotRequest>;
}

export type LotsPageEvent =
  | { type: 'view.paged' }
  | { type: 'view.all' }
  | { type: 'history.open'; lot: Lot }
  | { type: 'history.close' }
  | { type: 'holds.open' }
  | { type: 'holds.close' }
  | { type: 'import.open' }
  | { type: 'import.close' }
  /** From the children (through their emitted events and the table's snapshots). */
  | { type: 'child.saved' }
  | { type: 'child.lotsChanged' }
  | { type: 'child.imported' }
  | { type: 'child.queryChanged' };

/**
 * The Lotes screen's machine over its provided children.
 * @returns a machine whose context holds `detail`, `list`, `editor`, `window`, `status`, `bulk`
 *   (running child refs, stable for the screen's life), `view`, `historyLot` and `holdsOpen`.
 */
export function createLotsPageMachine(children: LotsPageChildren) {
  return setup({
    types: {
      context: {} as {
        key: string;
        view: 'paged' | 'all';
        historyLot: Lot | null;
        holdsOpen: boolean;
        detail: ActorRefFrom<SubdivisionDetailMachine>;
        list: ActorRefFrom<ResourceListMachine<Lot>>;
        editor: ActorRefFrom<ResourceEditorMachine<Lot, CreateLotRequest, UpdateLotRequest>>;
        window: ActorRefFrom<LotsWindowMachine>;
        status: ActorRefFrom<LotStatusMachine>;
        bulk: ActorRefFrom<BulkPriceMachine>;
        lotImport: ActorRefFrom<LotImportMachine>;
      },
      events: {} as LotsPageEvent,
      input: {} as LotsPageInput,
    },
    actors: children,
    actions: {
      /** Turns the children's emitted events into this machine's events (subscriptions end with the children). */
      listenToChildren: ({ context, self }) => {
        context.editor.on('saved', () => self.send({ type: 'child.saved' }));
        context.status.on('changed', () => self.send({ type: 'child.lotsChanged' }));
        context.bulk.on('applied', () => self.send({ type: 'child.lotsChanged' }));
        context.lotImport.on('imported', () => self.send({ type: 'child.imported' }));
        let query = context.list.getSnapshot().context.query;
        context.list.subscribe((snapshot) => {
          if (snapshot.context.query === query) return;
          query = snapshot.context.query;
          self.send({ type: 'child.queryChanged' });
        });
      },
      refreshTable: ({ context }) => context.list.send({ type: 'list.refresh' }),
      /** The dialog opens on a fresh import; closing it abandons one in flight (the upload is aborted). */
      openImport: ({ context }) => context.lotImport.send({ type: 'import.open', key: context.key }),
      cancelImport: ({ context }) => context.lotImport.send({ type: 'import.cancel' }),
      reloadHeader: ({ context }) => context.detail.send({ type: 'detail.reload' }),
      /** "Ver todos" starts over with the table's current query (only while it is shown). */
      resetWindow: ({ context }) => {
        if (context.view === 'all') context.window.send({ type: 'window.reset', query: context.list.getSnapshot().context.query });
      },
    },
  }).createMachine({
    id: 'lotsPage',
    context: ({ input, spawn }) => {
      const list = spawn('list', { id: 'list', input: input.list });
      return {
        key: input.key,
        view: 'paged' as const,
        historyLot: null,
        holdsOpen: false,
        detail: spawn('detail', { id: 'detail', input: { key: input.key } }),
        list,
        editor: spawn('editor', { id: 'editor', input: input.editor }),
        // The window's query until "Ver todos" is first shown: the table's (complete, with its defaults).
        window: spawn('window', { id: 'window', input: { key: input.key, query: list.getSnapshot().context.query } }),
        status: spawn('status', { id: 'status' }),
        bulk: spawn('bulk', { id: 'bulk', input: { subdivisionKey: input.key } }),
        lotImport: spawn('lotImport', { id: 'lotImport', input: { key: input.key } }),
      };
    },
    entry: 'listenToChildren',
    initial: 'idle',
    on: {
      'view.paged': { actions: assign({ view: 'paged' as const }) },
      'view.all': { actions: [assign({ view: 'all' as const }), 'resetWindow'] },
      'history.open': {
        actions: assign(({ event }) => {
          assertEvent(event, 'history.open');
          return { historyLot: event.lot };
        }),
      },
      'history.close': { actions: assign({ historyLot: null }) },
      'holds.open': { actions: assign({ holdsOpen: true }) },
      'holds.close': { actions: [assign({ holdsOpen: false }), 'refreshTable', 'reloadHeader', 'resetWindow'] },
      'child.saved': { actions: ['refreshTable', 'reloadHeader'] },
      'child.lotsChanged': { actions: ['refreshTable', 'reloadHeader', 'resetWindow'] },
      'child.queryChanged': { actions: 'resetWindow' },
    },
    states: {
      idle: { on: { 'import.open': { target: 'importing', actions: 'openImport' } } },
      // The dialog is shown until it is closed or the import is stored (the child's `imported`).
      importing: {
        tags: ['importing'],
        on: {
          'import.close': { target: 'idle', actions: 'cancelImport' },
          // Stored: the dialog closes and everything refreshes.
          'child.imported': { target: 'idle', actions: ['refreshTable', 'reloadHeader', 'resetWindow'] },
        },
      },
    },
  });
}
export type LotsPageMachine = ReturnType<typeof createLotsPageMachine>;
