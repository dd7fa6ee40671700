import { describe, expect, it } from 'vitest';
import { assign, createActor, emit, setup } from 'xstate';
import { createLotsPageMachine, type LotsPageChildren } from '../../../src/machines/proyectos/lots-page.machine';

/**
 * The Lotes screen's parent machine (issue "One place per screen" item 3): it spawns its six
 * children and coordinates them from what they emit. The children here are small fakes that record
 * what they receive and emit on request.
 */

type Received = Record<string, string[]>;

/** A child that records the events it receives; `fire.<emitted>` makes it emit `<emitted>`. */
function recorder(name: string, received: Received) {
  return setup({
    types: {
      context: {} as { query: { q: string } },
      events: {} as { type: string; q?: string; query?: { q: string } },
      emitted: {} as { type: string; kind?: string; lot?: object; updated?: number; created?: number },
    },
  }).createMachine({
    context: { query: { q: '' } },
    on: {
      '*': {
        actions: [
          ({ event }) => {
            (received[name] ??= []).push(event.type === 'window.reset' ? `window.reset:${event.query?.q}` : event.type);
          },
          // Only the fake list keeps a query: a search gives it a new one (the parent watches it).
          assign(({ context, event }) => (event.type === 'list.searchTyped' ? { query: { q: event.q ?? '' } } : context)),
        ],
      },
      'fire.saved': { actions: emit({ type: 'saved', kind: 'updated' }) },
      'fire.changed': { actions: emit({ type: 'changed', lot: {} }) },
      'fire.applied': { actions: emit({ type: 'applied', updated: 3 }) },
      'fire.imported': { actions: emit({ type: 'imported', created: 2, updated: 1 }) },
    },
  });
}

function start() {
  const received: Received = {};
  const children = {
    detail: recorder('detail', received),
    list: recorder('list', received),
    editor: recorder('editor', received),
    window: recorder('window', received),
    status: recorder('status', received),
    bulk: recorder('bulk', received),
    lotImport: recorder('lotImport', received),
  } as unknown as LotsPageChildren;
  const page = createActor(createLotsPageMachine(children), { input: { key: 'k1', list: {} as never, editor: {} as never } }).start();
  const ctx = () => page.getSnapshot().context;
  const clear = () => Object.keys(received).forEach((k) => delete received[k]);
  return { page, ctx, received, clear };
}

describe('lotsPage machine', () => {
  it('spawns its six children and refreshes the table and the header when the editor saves', () => {
    const { ctx, received, clear } = start();
    expect(Object.keys(ctx()).sort()).toEqual([
      'bulk',
      'detail',
      'editor',
      'historyLot',
      'holdsOpen',
      'key',
      'list',
      'lotImport',
      'status',
      'view',
      'window',
    ]);
    clear();
    (ctx().editor as unknown as { send(e: { type: string }): void }).send({ type: 'fire.saved' });
    expect(received.list).toContain('list.refresh');
    expect(received.detail).toContain('detail.reload');
    expect(received.window).toBeUndefined(); // "Ver todos" is not shown
  });

  it('a status change or new prices also restart "Ver todos" when it is shown, with the table\'s query', () => {
    const { page, ctx, received, clear } = start();
    const send = (ref: unknown, type: string, q?: string) => (ref as { send(e: { type: string; q?: string }): void }).send({ type, q });
    send(ctx().list, 'list.searchTyped', 'mz a');
    page.send({ type: 'view.all' });
    expect(received.window).toEqual(['window.reset:mz a']);
    clear();
    send(ctx().status, 'fire.changed');
    expect(received).toMatchObject({ list: ['list.refresh'], detail: ['detail.reload'], window: ['window.reset:mz a'] });
    clear();
    send(ctx().bulk, 'fire.applied');
    expect(received).toMatchObject({ list: ['list.refresh'], detail: ['detail.reload'], window: ['window.reset:mz a'] });
  });

  it('follows the table\'s query in "Ver todos" only', () => {
    const { page, ctx, received, clear } = start();
    const search = (q: string) =>
      (ctx().list as unknown as { send(e: { type: string; q: string }): void }).send({ type: 'list.searchTyped', q });
    search('b');
    expect(received.window).toBeUndefined();
    page.send({ type: 'view.all' });
    clear();
    search('c');
    expect(received.window).toEqual(['window.reset:c']);
    page.send({ type: 'view.paged' });
    clear();
    search('d');
    expect(received.window).toBeUndefined();
  });

  it('opens the import on a fresh run and cancels it when closed; a stored import closes the dialog and refreshes everything', () => {
    const { page, ctx, received, clear } = start();
    expect(page.getSnapshot().hasTag('importing')).toBe(false);
    page.send({ type: 'import.open' });
    expect(page.getSnapshot().hasTag('importing')).toBe(true);
    expect(received.lotImport).toContain('import.open');
    page.send({ type: 'import.close' });
    expect(page.getSnapshot().hasTag('importing')).toBe(false);
    expect(received.lotImport).toContain('import.cancel');
    page.send({ type: 'import.open' });
    clear();
    (ctx().lotImport as unknown as { send(e: { type: string }): void }).send({ type: 'fire.imported' });
    expect(page.getSnapshot().hasTag('importing')).toBe(false);
    expect(received).toMatchObject({ list: ['list.refresh'], detail: ['detail.reload'] });
  });

  it('keeps the lot whose status history is open', () => {
    const { page } = start();
    const lot = { id: 7, code: 'MZ A - LT 7' } as never;
    page.send({ type: 'history.open', lot });
    expect(page.getSnapshot().context.historyLot).toBe(lot);
    page.send({ type: 'history.close' });
    expect(page.getSnapshot().context.historyLot).toBeNull();
  });

  it('opens "Solicitudes de bloqueo"; closing it refreshes the table and the header (an approval moves lots, docs/domain.md "Lot holds")', () => {
    const { page, received, clear } = start();
    page.send({ type: 'holds.open' });
    expect(page.getSnapshot().context.holdsOpen).toBe(true);
    clear();
    page.send({ type: 'holds.close' });
    expect(page.getSnapshot().context.holdsOpen).toBe(false);
    expect(received).toMatchObject({ list: ['list.refresh'], detail: ['detail.reload'] });
  });
});
