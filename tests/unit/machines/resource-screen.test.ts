/**
 * resource-screen wiring (issue "Configuración", the CRUD pattern): one call provides a screen's
 * list and editor with its api calls; the screen's machine (`page`, resource-page.machine.ts) spawns
 * both and a save refreshes the list and still toasts; a 401 reaches the session; a capped export warns.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { z } from 'zod';
import { resourceScreenMachines, SAVED_MESSAGES } from '../../../src/machines/shared/resource-screen';
import type { ListQuery } from '../../../src/schemas/list';
import { ApiError } from '../../../src/api/client';

const settle = () => new Promise((r) => setTimeout(r, 0));

function wire(fetchPage = vi.fn(async (q: ListQuery) => ({ data: [{ id: 1 }], meta: { page: q.page, per_page: q.per_page, total: 1 } }))) {
  const toaster = { show: vi.fn() };
  const reportApiError = vi.fn();
  const syncUrl = vi.fn();
  const download = vi.fn();
  const save = vi.fn(async () => ({ id: 2 }));
  const machines = resourceScreenMachines({ fetchPage, save, reportApiError, toaster, syncUrl, download });
  const page = createActor(machines.page, {
    input: {
      list: { columns: [{ key: 'id', label: 'ID' }] },
      editor: { schema: z.object({ name: z.string().min(1) }), fields: ['name'], empty: { name: '' } },
    },
  }).start();
  const { list, editor } = page.getSnapshot().context;
  return { page, list, editor, toaster, reportApiError, syncUrl, download, save, fetchPage };
}

describe('resourceScreenMachines', () => {
  it('a save toasts and refreshes the list', async () => {
    const { editor, toaster, fetchPage, syncUrl } = wire();
    await settle();
    expect(fetchPage).toHaveBeenCalledTimes(1);
    expect(syncUrl).toHaveBeenCalledTimes(1);
    editor.send({ type: 'editor.openCreate', values: { name: 'Ana' } });
    editor.send({ type: 'editor.submit' });
    await settle();
    expect(toaster.show).toHaveBeenCalledWith({ severity: 'success', summary: SAVED_MESSAGES.created });
    expect(fetchPage).toHaveBeenCalledTimes(2);
  });

  it('the list and the editor live as long as the page: stopping it stops both', async () => {
    const { page, list, editor } = wire();
    await settle();
    expect(list.getSnapshot().status).toBe('active');
    page.stop();
    expect(list.getSnapshot().status).toBe('stopped');
    expect(editor.getSnapshot().status).toBe('stopped');
  });

  it('a 401 on the list reaches the session', async () => {
    const error = new ApiError(401, 'No autenticado');
    const { reportApiError } = wire(
      vi.fn(async () => {
        throw error;
      }),
    );
    await settle();
    expect(reportApiError).toHaveBeenCalledWith(error);
  });

  it('an export over the cap downloads and warns', async () => {
    const fetchPage = vi.fn(async (q: ListQuery) => ({
      data: Array.from({ length: q.per_page }, (_, i) => ({ id: (q.page - 1) * q.per_page + i })),
      meta: { page: q.page, per_page: q.per_page, total: 9000 },
    }));
    const { list, download, toaster } = wire(fetchPage);
    await settle();
    list.send({ type: 'list.export', format: 'csv' });
    await vi.waitFor(() => expect(download).toHaveBeenCalled());
    expect(download.mock.calls[0]![0]).toMatchObject({ rows: 5000, truncated: true });
    expect(toaster.show).toHaveBeenCalledWith(expect.objectContaining({ severity: 'warn', summary: 'Exportación parcial' }));
  });
});
