/**
 * The CRUD pattern's shared views (issue "Configuración"): ResourceTable, ResourceToolbar and
 * ListStates over the real resource-list machine with a fake list call, and EditorDialog with
 * FormField over the real resource-editor machine with fake save/remove actors. What the user sees
 * and which events the views send.
 */
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import { createActor, fromPromise } from 'xstate';
import { z } from 'zod';
import { createResourceListMachine, listActors } from '../../src/machines/shared/resource-list.machine';
import { resourceEditorMachine, type EditorValues, type SaveInput } from '../../src/machines/shared/resource-editor.machine';
import { ResourceTable, type TableColumn } from '../../src/views/shared/ResourceTable';
import { ResourceToolbar } from '../../src/views/shared/ResourceToolbar';
import { ListStates } from '../../src/views/shared/ListStates';
import { EditorDialog, EditorDrawer } from '../../src/views/shared/EditorDialog';
import { TextField } from '../../src/views/shared/FormField';
import type { ListQuery, Paged } from '../../src/schemas/list';
import { ApiError } from '../../src/api/client';
import { STALE_RECORD_MESSAGE } from '../../src/schemas/versions';

type User = { id: number; name: string; email: string };

const columns: TableColumn<User>[] = [
  { key: 'name', label: 'Nombre', sortable: true },
  { key: 'email', label: 'Correo', sortable: true },
  { key: 'id', label: 'ID' },
];

function users(query: ListQuery, total = 45): Paged<User> {
  const start = (query.page - 1) * query.per_page;
  const n = Math.max(0, Math.min(query.per_page, total - start));
  return {
    data: Array.from({ length: n }, (_, i) => ({
      id: start + i + 1,
      name: `Usuario ${start + i + 1}`,
      email: `u${start + i + 1}@example.pe`,
    })),
    meta: { page: query.page, per_page: query.per_page, total },
  };
}

function renderList(fetchPage: (q: ListQuery) => Promise<Paged<User>>, query: Partial<ListQuery> = {}) {
  const syncUrl = vi.fn();
  const onEdit = vi.fn();
  const fetchSpy = vi.fn(fetchPage);
  const download = vi.fn();
  const list = createActor(
    createResourceListMachine<User>().provide({
      actions: { syncUrl: (_, q) => syncUrl(q), download: (_, f) => download(f) },
      actors: listActors(fetchSpy),
    }),
    { input: { columns, query } },
  ).start();
  render(
    <OverlaysProvider>
      <ResourceToolbar list={list} onNew={() => {}} />
      <ResourceTable<User>
        list={list}
        columns={columns}
        rowKey={(u) => u.id}
        caption="Usuarios"
        rowActions={[{ text: 'Editar', icon: 'edit', onClick: onEdit }]}
      />
      <ListStates list={list} />
    </OverlaysProvider>,
  );
  return { list, fetchPage: fetchSpy, syncUrl, onEdit, download, user: userEvent.setup() };
}

const header = (name: string) => screen.getByRole('columnheader', { name: new RegExp(name) });

describe('ResourceTable', () => {
  it('shows skeleton rows while loading, then the rows and "Página 1 de 3"', async () => {
    let release: () => void = () => {};
    renderList((q) => new Promise((r) => (release = () => r(users(q)))));
    expect(screen.getAllByTestId('skeleton-row').length).toBe(5);
    // The count is not known yet: no "0 registros" nor "Página 1 de 1" under the skeleton.
    expect(screen.queryByRole('navigation', { name: 'Paginación' })).toBeNull();
    release();
    expect(await screen.findByText('Usuario 1')).toBeTruthy();
    expect(screen.queryByTestId('skeleton-row')).toBeNull();
    expect(screen.getByText('Página 1 de 3')).toBeTruthy();
    expect(screen.getByRole('table', { name: 'Usuarios' })).toBeTruthy();
  });

  it('its scroll box is a named region in the tab order, so the keyboard can scroll a wide list (docs/decisions.md "Customer journey details (accessibility)")', async () => {
    renderList(async (q) => users(q));
    await screen.findByText('Usuario 1');
    const region = screen.getByRole('region', { name: 'Tabla: Usuarios' });
    expect(region.tabIndex).toBe(0);
    expect(region.classList.contains('resource-table-scroll')).toBe(true);
    expect(within(region).getByRole('table', { name: 'Usuarios' })).toBeTruthy();
  });

  it('a sortable header is a button; clicking it sends the sort and updates aria-sort', async () => {
    const { fetchPage, user } = renderList(async (q) => users(q), { sort: 'email' });
    await screen.findByText('Usuario 1');
    expect(header('Correo').getAttribute('aria-sort')).toBe('ascending');
    expect(header('Nombre').getAttribute('aria-sort')).toBe('none');
    expect(header('ID').hasAttribute('aria-sort')).toBe(false);

    await user.click(within(header('Nombre')).getByRole('button', { name: /Nombre/ }));
    await waitFor(() => expect(fetchPage).toHaveBeenLastCalledWith(expect.objectContaining({ sort: 'name', page: 1 })));
    await waitFor(() => expect(header('Nombre').getAttribute('aria-sort')).toBe('ascending'));
    expect(header('Correo').getAttribute('aria-sort')).toBe('none');

    await user.click(within(header('Nombre')).getByRole('button', { name: /Nombre/ }));
    await waitFor(() => expect(header('Nombre').getAttribute('aria-sort')).toBe('descending'));
    expect(fetchPage).toHaveBeenLastCalledWith(expect.objectContaining({ sort: '-name' }));
  });

  it('"Siguiente" and "Anterior" page on the server', async () => {
    const { fetchPage, syncUrl, user } = renderList(async (q) => users(q));
    await screen.findByText('Usuario 1');
    expect(screen.getByRole('button', { name: 'Anterior' }).hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Siguiente' }));
    expect(await screen.findByText('Usuario 21')).toBeTruthy();
    expect(fetchPage).toHaveBeenLastCalledWith(expect.objectContaining({ page: 2 }));
    expect(syncUrl).toHaveBeenLastCalledWith(expect.objectContaining({ page: 2 }));
    expect(screen.getByText('Página 2 de 3')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Siguiente' }));
    await screen.findByText('Página 3 de 3');
    expect(screen.getByRole('button', { name: 'Siguiente' }).hasAttribute('disabled')).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Anterior' }));
    await screen.findByText('Página 2 de 3');
  });

  it('the column chooser hides and shows a column', async () => {
    const { user } = renderList(async (q) => users(q));
    await screen.findByText('Usuario 1');
    expect(screen.getByText('u1@example.pe')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Columnas' }));
    const chooser = await screen.findByRole('group', { name: 'Columnas visibles' });
    await user.click(within(chooser).getByRole('checkbox', { name: 'Correo' }));
    await waitFor(() => expect(screen.queryByRole('columnheader', { name: /Correo/ })).toBeNull());
    expect(screen.queryByText('u1@example.pe')).toBeNull();
    await user.click(within(chooser).getByRole('checkbox', { name: 'Correo' }));
    expect(await screen.findByText('u1@example.pe')).toBeTruthy();
  });

  it('the row actions menu calls the action with the row', async () => {
    const { onEdit, user } = renderList(async (q) => users(q, 1));
    await screen.findByText('Usuario 1');
    await user.click(screen.getByRole('button', { name: 'Acciones' }));
    await user.click(await screen.findByRole('menuitem', { name: /Editar/ }));
    expect(onEdit).toHaveBeenCalledWith({ id: 1, name: 'Usuario 1', email: 'u1@example.pe' });
  });

  it('the search box sends what is typed; the list reloads after the debounce', async () => {
    const { fetchPage, user } = renderList(async (q) => users(q));
    await screen.findByText('Usuario 1');
    await user.type(screen.getByRole('searchbox', { name: 'Buscar' }), 'ana');
    await waitFor(() => expect(fetchPage).toHaveBeenLastCalledWith(expect.objectContaining({ q: 'ana', page: 1 })));
    expect(fetchPage).toHaveBeenCalledTimes(2);
  });
});

describe('ResourceToolbar', () => {
  it('"Exportar a CSV" exports the current view', async () => {
    const { download, fetchPage, user } = renderList(async (q) => users(q), { sort: '-name' });
    await screen.findByText('Usuario 1');
    await user.click(screen.getByRole('button', { name: /Exportar/ }));
    await user.click(await screen.findByRole('menuitem', { name: /Exportar a CSV/ }));
    await waitFor(() => expect(download).toHaveBeenCalled());
    expect(fetchPage).toHaveBeenLastCalledWith(expect.objectContaining({ sort: '-name', per_page: 100 }));
    expect(download.mock.calls[0]![0]).toMatchObject({ rows: 45, mime: 'text/csv;charset=utf-8' });
    expect(screen.getByRole('menuitem', { name: /Exportar a Excel/ })).toBeTruthy();
  });

  it('"Nuevo" is shown when the screen passes onNew', async () => {
    renderList(async (q) => users(q));
    expect(await screen.findByRole('button', { name: 'Nuevo' })).toBeTruthy();
  });
});

describe('ListStates', () => {
  it('empty list: "No hay registros"', async () => {
    renderList(async (q) => users(q, 0));
    expect(await screen.findByText('No hay registros')).toBeTruthy();
    expect(screen.queryByText(/Página/)).toBeNull();
  });

  it('failure: the message and "Reintentar", which loads again', async () => {
    let fail = true;
    const { user } = renderList(async (q) => {
      if (fail) throw new ApiError(500, 'Error interno del servidor');
      return users(q);
    });
    expect(await screen.findByText('Error interno del servidor')).toBeTruthy();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Reintentar' }));
    expect(await screen.findByText('Usuario 1')).toBeTruthy();
  });

  it('a 403: "Sin permiso"', async () => {
    renderList(async () => {
      throw new ApiError(403, 'No tiene permiso para esta acción');
    });
    expect(await screen.findByText('Sin permiso')).toBeTruthy();
  });
});

// ---------- EditorDialog ----------

const schema = z.strictObject({
  name: z.string().trim().min(1, 'Ingrese el nombre'),
  email: z.email('Ingrese un correo electrónico válido'),
});

function renderEditor(
  save: (input: SaveInput<EditorValues>) => Promise<EditorValues> = async () => ({ id: 1 }),
  reload: (record: Record<string, unknown>) => Promise<Record<string, unknown>> = async (record) => record,
) {
  const saved = vi.fn();
  const editor = createActor(
    resourceEditorMachine.provide({
      actions: { saved: (_, info) => saved(info) },
      actors: {
        save: fromPromise(({ input }) => save(input)),
        remove: fromPromise<unknown, { record: EditorValues }>(async () => undefined),
        reload: fromPromise<EditorValues, { record: EditorValues }>(({ input }) => reload(input.record)),
      },
    }),
    { input: { schema, fields: ['name', 'email'], empty: { name: '', email: '' } } },
  ).start();
  render(
    <OverlaysProvider>
      <EditorDialog editor={editor} createTitle="Nuevo usuario" editTitle="Editar usuario" canDelete>
        <TextField editor={editor} field="name" label="Nombre" />
        <TextField editor={editor} field="email" label="Correo electrónico" type="email" />
      </EditorDialog>
    </OverlaysProvider>,
  );
  return { editor, saved, user: userEvent.setup() };
}

describe('EditorDialog', () => {
  it('opens for create; closing with changes asks "¿Descartar los cambios?"', async () => {
    const { editor, user } = renderEditor();
    editor.send({ type: 'editor.openCreate' });
    expect(await screen.findByRole('dialog', { name: 'Nuevo usuario' })).toBeTruthy();
    await user.type(screen.getByLabelText('Nombre'), 'Ana');
    await user.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(await screen.findByText('¿Descartar los cambios?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Seguir editando' }));
    await waitFor(() => expect(screen.queryByText('¿Descartar los cambios?')).toBeNull());
    expect((screen.getByLabelText('Nombre') as HTMLInputElement).value).toBe('Ana');
    await user.click(screen.getByRole('button', { name: 'Cancelar' }));
    await user.click(await screen.findByRole('button', { name: 'Descartar' }));
    await waitFor(() => expect(editor.getSnapshot().value).toBe('closed'));
  });

  it('closing an untouched form does not ask', async () => {
    const { editor, user } = renderEditor();
    editor.send({ type: 'editor.openCreate' });
    await screen.findByRole('dialog', { name: 'Nuevo usuario' });
    await user.click(screen.getByRole('button', { name: 'Cancelar' }));
    expect(editor.getSnapshot().value).toBe('closed');
    expect(screen.queryByText('¿Descartar los cambios?')).toBeNull();
  });

  it('client errors show under their fields', async () => {
    const { editor, user } = renderEditor();
    editor.send({ type: 'editor.openCreate' });
    await screen.findByRole('dialog');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Ingrese el nombre')).toBeTruthy();
    const email = screen.getByLabelText('Correo electrónico');
    expect(email.getAttribute('aria-invalid')).toBe('true');
    expect(document.getElementById(email.getAttribute('aria-describedby')!)?.textContent).toBe('Ingrese un correo electrónico válido');
  });

  it('server 422 errors show under their fields; other messages in the form', async () => {
    const { editor, user, saved } = renderEditor(async () => {
      throw new ApiError(422, 'Los datos enviados no son válidos', { email: ['El correo ya está registrado'], rol: ['Rol desconocido'] });
    });
    editor.send({ type: 'editor.openEdit', record: { id: 3, name: 'Ana', email: 'ana@example.pe' } });
    expect(await screen.findByRole('dialog', { name: 'Editar usuario' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('El correo ya está registrado')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('Rol desconocido');
    expect(saved).not.toHaveBeenCalled();
  });

  it('saving closes the dialog and reports it', async () => {
    const { editor, user, saved } = renderEditor();
    editor.send({ type: 'editor.openEdit', record: { id: 3, name: 'Ana', email: 'ana@example.pe' } });
    await screen.findByRole('dialog');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(saved).toHaveBeenCalledWith({ kind: 'updated', result: { id: 1 } }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Editar usuario' })).toBeNull());
  });

  it('"Eliminar" asks "¿Eliminar este registro?" first', async () => {
    const { editor, user, saved } = renderEditor();
    editor.send({ type: 'editor.openEdit', record: { id: 3, name: 'Ana', email: 'ana@example.pe' } });
    await screen.findByRole('dialog');
    await user.click(screen.getByRole('button', { name: 'Eliminar' }));
    expect(await screen.findByText('¿Eliminar este registro?')).toBeTruthy();
    const alert = screen.getByText('¿Eliminar este registro?').closest('.bp6-alert') as HTMLElement;
    await user.click(within(alert).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(saved).toHaveBeenCalledWith({ kind: 'deleted', result: null }));
  });
});

describe('EditorDialog: a record changed by another user (issue 11 item 9)', () => {
  it('shows the 409 with "Recargar", which refetches the record and keeps the dialog open on it', async () => {
    const opened = { id: 3, name: 'Ana', email: 'ana@example.pe', version: 2 };
    const fresh = { ...opened, name: 'Ana María', version: 3 };
    const save = vi.fn(async (input: SaveInput<EditorValues>) => {
      if ((input.body as { version?: number }).version === 2)
        throw new ApiError(409, STALE_RECORD_MESSAGE, { version: [STALE_RECORD_MESSAGE] });
      return input.body;
    });
    const reload = vi.fn(async () => fresh);
    const { editor, user, saved } = renderEditor(save, reload);
    editor.send({ type: 'editor.openEdit', record: opened });
    await screen.findByRole('dialog', { name: 'Editar usuario' });
    await user.clear(screen.getByLabelText('Correo electrónico'));
    await user.type(screen.getByLabelText('Correo electrónico'), 'ana.ruiz@example.pe');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(STALE_RECORD_MESSAGE);
    await user.click(within(alert).getByRole('button', { name: 'Recargar' }));
    await waitFor(() => expect((screen.getByLabelText('Nombre') as HTMLInputElement).value).toBe('Ana María'));
    expect(reload).toHaveBeenCalledWith(opened);
    expect((screen.getByLabelText('Correo electrónico') as HTMLInputElement).value).toBe('ana@example.pe');
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByRole('dialog', { name: 'Editar usuario' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(saved).toHaveBeenCalledWith(expect.objectContaining({ kind: 'updated' })));
    expect(save).toHaveBeenLastCalledWith(expect.objectContaining({ body: { name: 'Ana María', email: 'ana@example.pe', version: 3 } }));
  });

  it('another 409 shows no "Recargar"', async () => {
    const { editor, user } = renderEditor(async () => {
      throw new ApiError(409, 'Debe quedar al menos un usuario activo con el rol Administrador');
    });
    editor.send({ type: 'editor.openEdit', record: { id: 3, name: 'Ana', email: 'ana@example.pe', version: 1 } });
    await screen.findByRole('dialog');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Debe quedar al menos');
    expect(screen.queryByRole('button', { name: 'Recargar' })).toBeNull();
  });
});

describe('EditorDrawer', () => {
  it('shows the same form in a drawer, with the edit title', async () => {
    const editor = createActor(
      resourceEditorMachine.provide({ actors: { save: fromPromise<EditorValues, SaveInput<EditorValues>>(async () => ({})) } }),
      { input: { schema, fields: ['name', 'email'], empty: { name: '', email: '' } } },
    ).start();
    render(
      <OverlaysProvider>
        <EditorDrawer editor={editor} createTitle="Nuevo usuario" editTitle="Editar usuario">
          <TextField editor={editor} field="name" label="Nombre" />
        </EditorDrawer>
      </OverlaysProvider>,
    );
    editor.send({ type: 'editor.openEdit', record: { id: 1, name: 'Ana', email: 'ana@example.pe' } });
    expect(await screen.findByRole('dialog', { name: 'Editar usuario' })).toBeTruthy();
    expect((screen.getByLabelText('Nombre') as HTMLInputElement).value).toBe('Ana');
    expect(screen.queryByRole('button', { name: 'Eliminar' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Guardar' })).toBeTruthy();
  });
});
