/**
 * resource-list machine (issue "Configuración", the CRUD pattern): paging, sorting, search with a
 * 300 ms debounce, filters, empty vs withData, failure and retry, 401/402/404 handed to the
 * session, stale answers ignored, and the export through the same list call.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  EXPORT_ROW_CAP,
  fetchAllRows,
  listActors,
  nextSort,
  pageCount,
  createResourceListMachine,
  sortDirection,
  type ExportFile,
  type ListColumn,
  type PageAnswer,
} from '../../../src/machines/shared/resource-list.machine';
import type { ListQuery, Paged } from '../../../src/schemas/list';
import { ApiError } from '../../../src/api/client';

type Row = { id: number; name: string };
const columns: ListColumn[] = [
  { key: 'id', label: 'ID', sortable: true },
  { key: 'name', label: 'Nombre', sortable: true },
  { key: 'email', label: 'Correo', hiddenByDefault: true },
];

function page(query: ListQuery, total = 45): Paged<Row> {
  const start = (query.page - 1) * query.per_page;
  const data = Array.from({ length: Math.max(0, Math.min(query.per_page, total - start)) }, (_, i) => ({
    id: start + i + 1,
    name: `Fila ${start + i + 1}`,
  }));
  return { data, meta: { page: query.page, per_page: query.per_page, total } };
}

/** Deferred answers: each call waits until the test resolves or rejects it. */
function deferredFetch() {
  const calls: { query: ListQuery; resolve: (p: Paged<Row>) => void; reject: (e: unknown) => void }[] = [];
  const fetchPage = vi.fn(
    (query: ListQuery) =>
      new Promise<Paged<Row>>((resolve, reject) => {
        calls.push({ query, resolve, reject });
      }),
  );
  return { calls, fetchPage };
}

function start(fetchPage: (q: ListQuery) => Promise<Paged<Row>>, query: Partial<ListQuery> = {}) {
  const syncUrl = vi.fn();
  const reportApiError = vi.fn();
  const download = vi.fn();
  const machine = createResourceListMachine<Row>().provide({
    actions: {
      syncUrl: (_, q) => syncUrl(q),
      reportApiError: (_, { error }) => reportApiError(error),
      download: (_, f) => download(f),
    },
    actors: listActors(fetchPage),
  });
  const actor = createActor(machine, { input: { columns, query, exportName: 'usuarios' } }).start();
  return { actor, syncUrl, reportApiError, download };
}

const flush = () => vi.advanceTimersByTimeAsync(0);

describe('resource-list machine', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('loads the initial query from the input and shows withData', async () => {
    const fetchPage = vi.fn(async (q: ListQuery) => page(q));
    const { actor, syncUrl } = start(fetchPage, { page: 2, sort: '-name', filters: { status: 'ACTIVO' } });
    expect(actor.getSnapshot().matches({ list: 'loading' })).toBe(true);
    await flush();
    const snap = actor.getSnapshot();
    expect(snap.matches({ list: { ready: 'withData' } })).toBe(true);
    expect(fetchPage).toHaveBeenCalledWith({ page: 2, per_page: 20, sort: '-name', filters: { status: 'ACTIVO' } });
    expect(syncUrl).toHaveBeenLastCalledWith(expect.objectContaining({ page: 2, sort: '-name' }));
    expect(snap.context.rows).toHaveLength(20);
    expect(snap.context.total).toBe(45);
  });

  it('an empty answer is the empty state', async () => {
    const { actor } = start(async (q) => page(q, 0));
    await flush();
    expect(actor.getSnapshot().matches({ list: { ready: 'empty' } })).toBe(true);
  });

  it('paging asks for the page and writes the URL', async () => {
    const fetchPage = vi.fn(async (q: ListQuery) => page(q));
    const { actor, syncUrl } = start(fetchPage);
    await flush();
    actor.send({ type: 'list.pageChanged', page: 3 });
    await flush();
    expect(fetchPage).toHaveBeenLastCalledWith(expect.objectContaining({ page: 3 }));
    expect(syncUrl).toHaveBeenLastCalledWith(expect.objectContaining({ page: 3 }));
    expect(actor.getSnapshot().context.rows).toHaveLength(5);
  });

  it('sorting goes back to page 1 with the sort', async () => {
    const fetchPage = vi.fn(async (q: ListQuery) => page(q));
    const { actor } = start(fetchPage, { page: 3 });
    await flush();
    actor.send({ type: 'list.sortChanged', sort: '-name' });
    await flush();
    expect(fetchPage).toHaveBeenLastCalledWith(expect.objectContaining({ page: 1, sort: '-name' }));
  });

  it('search waits 300 ms of quiet, then reloads from page 1 once', async () => {
    const fetchPage = vi.fn(async (q: ListQuery) => page(q));
    const { actor } = start(fetchPage, { page: 2 });
    await flush();
    expect(fetchPage).toHaveBeenCalledTimes(1);
    actor.send({ type: 'list.searchTyped', text: 'lu' });
    await vi.advanceTimersByTimeAsync(200);
    actor.send({ type: 'list.searchTyped', text: 'luc' });
    await vi.advanceTimersByTimeAsync(299);
    expect(fetchPage).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().context.rows).toHaveLength(20); // the rows stay while typing
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchPage).toHaveBeenCalledTimes(2);
    expect(fetchPage).toHaveBeenLastCalledWith(expect.objectContaining({ page: 1, q: 'luc' }));
    await flush();
    expect(actor.getSnapshot().matches({ list: { ready: 'withData' } })).toBe(true);
  });

  it('typing back the same text does not reload', async () => {
    const fetchPage = vi.fn(async (q: ListQuery) => page(q));
    const { actor } = start(fetchPage, { q: 'ana' });
    await flush();
    actor.send({ type: 'list.searchTyped', text: 'an' });
    actor.send({ type: 'list.searchTyped', text: 'ana' });
    await vi.advanceTimersByTimeAsync(300);
    expect(fetchPage).toHaveBeenCalledTimes(1);
    expect(actor.getSnapshot().matches({ list: { ready: 'withData' } })).toBe(true);
  });

  it('typing and erasing during the first load still loads the list', async () => {
    const { calls, fetchPage } = deferredFetch();
    const { actor } = start(fetchPage);
    actor.send({ type: 'list.searchTyped', text: 'a' });
    actor.send({ type: 'list.searchTyped', text: '' });
    await vi.advanceTimersByTimeAsync(300);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.query.q).toBeUndefined();
    calls[1]!.resolve(page(calls[1]!.query));
    await flush();
    expect(actor.getSnapshot().matches({ list: { ready: 'withData' } })).toBe(true);
  });

  it('filters are set, cleared, and reset the page', async () => {
    const fetchPage = vi.fn(async (q: ListQuery) => page(q));
    const { actor, syncUrl } = start(fetchPage, { page: 2 });
    await flush();
    actor.send({ type: 'list.filterChanged', field: 'status', value: 'ACTIVO' });
    await flush();
    expect(fetchPage).toHaveBeenLastCalledWith(expect.objectContaining({ page: 1, filters: { status: 'ACTIVO' } }));
    expect(syncUrl).toHaveBeenLastCalledWith(expect.objectContaining({ filters: { status: 'ACTIVO' } }));
    actor.send({ type: 'list.filterChanged', field: 'status', value: '' });
    await flush();
    expect(fetchPage).toHaveBeenLastCalledWith(expect.objectContaining({ filters: {} }));
  });

  it('refresh reloads the same query (after a mutation)', async () => {
    const fetchPage = vi.fn(async (q: ListQuery) => page(q));
    const { actor } = start(fetchPage, { page: 2 });
    await flush();
    actor.send({ type: 'list.refresh' });
    await flush();
    expect(fetchPage).toHaveBeenCalledTimes(2);
    expect(fetchPage.mock.calls[1]![0]).toEqual(fetchPage.mock.calls[0]![0]);
  });

  it('failure shows the Spanish message; retry loads again', async () => {
    let fail = true;
    const fetchPage = vi.fn(async (q: ListQuery) => {
      if (fail) throw new ApiError(500, 'Error interno del servidor');
      return page(q);
    });
    const { actor, reportApiError } = start(fetchPage);
    await flush();
    expect(actor.getSnapshot().matches({ list: 'failure' })).toBe(true);
    expect(actor.getSnapshot().context.error).toBe('Error interno del servidor');
    expect(reportApiError).not.toHaveBeenCalled();
    fail = false;
    actor.send({ type: 'list.retry' });
    await flush();
    expect(actor.getSnapshot().matches({ list: { ready: 'withData' } })).toBe(true);
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('a network error gives the network message', async () => {
    const { actor } = start(async () => {
      throw new TypeError('fetch failed');
    });
    await flush();
    expect(actor.getSnapshot().context.error).toBe('No se pudo conectar con el servidor. Inténtelo nuevamente.');
  });

  it.each([401, 402, 404])('a %i is handed to the session', async (status) => {
    const error = new ApiError(status, 'No autenticado');
    const { actor, reportApiError } = start(async () => {
      throw error;
    });
    await flush();
    expect(reportApiError).toHaveBeenCalledWith(error);
    expect(actor.getSnapshot().matches({ list: 'failure' })).toBe(true);
  });

  it('a slow page-1 answer arriving after page 2 does not overwrite it', async () => {
    const { calls, fetchPage } = deferredFetch();
    const { actor } = start(fetchPage);
    actor.send({ type: 'list.pageChanged', page: 2 });
    expect(calls).toHaveLength(2);
    calls[1]!.resolve(page(calls[1]!.query));
    await flush();
    calls[0]!.resolve(page(calls[0]!.query));
    await flush();
    const snap = actor.getSnapshot();
    expect(snap.context.query.page).toBe(2);
    expect(snap.context.rows[0]).toEqual({ id: 21, name: 'Fila 21' });
  });

  it('an answer for another query is dropped even if it arrives while loading', async () => {
    const fetchPage = vi.fn();
    const first: ListQuery = { page: 1, per_page: 20, filters: {} };
    const stale: PageAnswer<Row> = { ...page(first), query: first };
    const machine = createResourceListMachine<Row>().provide({
      actors: { fetchPage: fromPromise<PageAnswer<Row>, ListQuery>(async () => (fetchPage(), stale)) },
    });
    const actor = createActor(machine, { input: { columns, query: { page: 4 } } }).start();
    await flush();
    expect(actor.getSnapshot().matches({ list: 'loading' })).toBe(true);
    expect(actor.getSnapshot().context.rows).toEqual([]);
  });

  it('the column chooser toggles columns (hidden by default first)', () => {
    const { actor } = start(async (q) => page(q));
    expect(actor.getSnapshot().context.hiddenColumns).toEqual(['email']);
    actor.send({ type: 'list.columnToggled', key: 'email' });
    actor.send({ type: 'list.columnToggled', key: 'name' });
    expect(actor.getSnapshot().context.hiddenColumns).toEqual(['name']);
  });

  it('export fetches every page of the current view and downloads a CSV', async () => {
    const fetchPage = vi.fn(async (q: ListQuery) => page(q));
    const { actor, download } = start(fetchPage, { sort: '-name', filters: { status: 'ACTIVO' } });
    await flush();
    actor.send({ type: 'list.export', format: 'csv' });
    expect(actor.getSnapshot().matches({ export: 'exporting' })).toBe(true);
    await flush();
    expect(actor.getSnapshot().matches({ export: 'idle' })).toBe(true);
    expect(fetchPage).toHaveBeenLastCalledWith({ page: 1, per_page: 100, sort: '-name', filters: { status: 'ACTIVO' } });
    const file = download.mock.calls[0]![0] as ExportFile;
    expect(file.fileName).toMatch(/^usuarios-\d{4}-\d{2}-\d{2}\.csv$/);
    expect(file.rows).toBe(45);
    expect(file.truncated).toBe(false);
    expect(String(file.content).split('\r\n')[0]).toBe('\uFEFFID,Nombre'); // the hidden column is left out
  });

  it('a failed export keeps the list and shows a message', async () => {
    let calls = 0;
    const { actor, download } = start(async (q) => {
      calls++;
      if (calls > 1) throw new ApiError(500, 'Error interno del servidor');
      return page(q);
    });
    await flush();
    actor.send({ type: 'list.export', format: 'csv' });
    await flush();
    expect(download).not.toHaveBeenCalled();
    expect(actor.getSnapshot().context.exportError).toBe('Error interno del servidor');
    expect(actor.getSnapshot().matches({ list: { ready: 'withData' } })).toBe(true);
  });
});

describe('list helpers', () => {
  it('fetchAllRows stops at the cap', async () => {
    const fetchPage = vi.fn(async (q: ListQuery) => page(q, 12_000));
    const { rows, total } = await fetchAllRows(fetchPage, { page: 1, per_page: 20, filters: {} });
    expect(rows).toHaveLength(EXPORT_ROW_CAP);
    expect(total).toBe(12_000);
    expect(fetchPage).toHaveBeenCalledTimes(EXPORT_ROW_CAP / 100);
  });

  it('fetchAllRows stops when a page comes back empty', async () => {
    const fetchPage = vi.fn(async (q: ListQuery) => ({ ...page(q, 150), meta: { page: q.page, per_page: 100, total: 999 } }));
    const { rows } = await fetchAllRows(fetchPage, { page: 1, per_page: 20, filters: {} });
    expect(rows).toHaveLength(150);
    expect(fetchPage).toHaveBeenCalledTimes(3);
  });

  it('nextSort cycles ascending → descending → none', () => {
    expect(nextSort(undefined, 'name')).toBe('name');
    expect(nextSort('name', 'name')).toBe('-name');
    expect(nextSort('-name', 'name')).toBeUndefined();
    expect(nextSort('-id', 'name')).toBe('name');
    expect(sortDirection('-name', 'name')).toBe('descending');
    expect(sortDirection('name', 'id')).toBe('none');
  });

  it('pageCount is at least 1', () => {
    expect(pageCount(0, 20)).toBe(1);
    expect(pageCount(45, 20)).toBe(3);
    expect(pageCount(40, 20)).toBe(2);
  });
});
