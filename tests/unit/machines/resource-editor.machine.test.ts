/**
 * resource-editor machine (issue "Configuración", the CRUD pattern): create and edit, client
 * validation with the body schema, server 422 errors on their fields, other errors as the form
 * message, dirty tracking with the discard confirmation, delete with its confirmation, and the
 * parent list refreshed on done.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { z } from 'zod';
import { isDirty, resourceEditorMachine, type EditorValues, type SaveInput } from '../../../src/machines/shared/resource-editor.machine';
import { ApiError } from '../../../src/api/client';
import { STALE_RECORD_MESSAGE } from '../../../src/schemas/versions';

const schema = z.strictObject({
  name: z.string().trim().min(1, 'Ingrese el nombre'),
  email: z.email('Ingrese un correo electrónico válido'),
});
const record = { id: 9, name: 'Lucía', email: 'lucia@example.pe', created_at: '2026-01-01' };

function start(
  save: (input: SaveInput<EditorValues>) => Promise<EditorValues> = async (input) => ({ id: 1, ...input.body }),
  remove: (r: Record<string, unknown>) => Promise<unknown> = async () => undefined,
  reload: (r: Record<string, unknown>) => Promise<Record<string, unknown>> = async (r) => r,
) {
  const saved = vi.fn();
  const reportApiError = vi.fn();
  const saveFn = vi.fn(save);
  const removeFn = vi.fn(remove);
  const reloadFn = vi.fn(reload);
  const machine = resourceEditorMachine.provide({
    actions: { saved: (_, info) => saved(info), reportApiError: (_, { error }) => reportApiError(error) },
    actors: {
      save: fromPromise(({ input }) => saveFn(input)),
      remove: fromPromise(({ input }) => removeFn(input.record)),
      reload: fromPromise(({ input }) => reloadFn(input.record)),
    },
  });
  const actor = createActor(machine, { input: { schema, fields: ['name', 'email'], empty: { name: '', email: '' } } }).start();
  return { actor, saved, reportApiError, save: saveFn, remove: removeFn, reload: reloadFn };
}

const settle = () => new Promise((r) => setTimeout(r, 0));

describe('resource-editor machine', () => {
  it('starts closed; create opens an empty clean form', () => {
    const { actor } = start();
    expect(actor.getSnapshot().value).toBe('closed');
    actor.send({ type: 'editor.openCreate' });
    const snap = actor.getSnapshot();
    expect(snap.value).toBe('editing');
    expect(snap.context.mode).toBe('create');
    expect(snap.context.values).toEqual({ name: '', email: '' });
    expect(isDirty(snap.context)).toBe(false);
  });

  it('create: validates, saves, reports "created" and ends in done', async () => {
    const { actor, save, saved } = start();
    actor.send({ type: 'editor.openCreate' });
    actor.send({ type: 'editor.changed', field: 'name', value: ' Ana ' });
    actor.send({ type: 'editor.changed', field: 'email', value: 'ana@example.pe' });
    actor.send({ type: 'editor.submit' });
    expect(actor.getSnapshot().value).toBe('submitting');
    await settle();
    expect(save).toHaveBeenCalledWith({ mode: 'create', record: null, body: { name: 'Ana', email: 'ana@example.pe' } });
    expect(actor.getSnapshot().value).toBe('done');
    expect(saved).toHaveBeenCalledWith({ kind: 'created', result: { id: 1, name: 'Ana', email: 'ana@example.pe' } });
  });

  it('invalid values stay in editing with the schema messages, without calling save', () => {
    const { actor, save } = start();
    actor.send({ type: 'editor.openCreate' });
    actor.send({ type: 'editor.changed', field: 'email', value: 'no-es-correo' });
    actor.send({ type: 'editor.submit' });
    const snap = actor.getSnapshot();
    expect(snap.value).toBe('editing');
    expect(snap.context.errors).toEqual({ name: 'Ingrese el nombre', email: 'Ingrese un correo electrónico válido' });
    expect(save).not.toHaveBeenCalled();
    actor.send({ type: 'editor.changed', field: 'name', value: 'A' });
    expect(actor.getSnapshot().context.errors.name).toBeUndefined();
  });

  it('edit: opens with the record, saves with it and reports "updated"', async () => {
    const { actor, save, saved } = start(async (input) => ({ ...record, ...(input.body as object) }));
    actor.send({ type: 'editor.openEdit', record });
    expect(actor.getSnapshot().context.values).toEqual({ name: 'Lucía', email: 'lucia@example.pe' });
    actor.send({ type: 'editor.changed', field: 'name', value: 'Lucía María' });
    actor.send({ type: 'editor.submit' });
    await settle();
    expect(save).toHaveBeenCalledWith({ mode: 'edit', record, body: { name: 'Lucía María', email: 'lucia@example.pe' } });
    expect(saved).toHaveBeenCalledWith(expect.objectContaining({ kind: 'updated' }));
    expect(actor.getSnapshot().value).toBe('done');
  });

  it('a server 422 puts its messages on their fields (and unknown paths in the form message)', async () => {
    const { actor, saved } = start(async () => {
      throw new ApiError(422, 'Los datos enviados no son válidos', {
        email: ['El correo ya está registrado'],
        'roles.0': ['Rol desconocido'],
      });
    });
    actor.send({ type: 'editor.openCreate', values: { name: 'Ana', email: 'ana@example.pe' } });
    actor.send({ type: 'editor.submit' });
    await settle();
    const snap = actor.getSnapshot();
    expect(snap.value).toBe('rejected');
    expect(snap.context.errors).toEqual({ email: 'El correo ya está registrado' });
    expect(snap.context.formError).toBe('Rol desconocido');
    expect(saved).not.toHaveBeenCalled();
    actor.send({ type: 'editor.changed', field: 'email', value: 'otra@example.pe' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.errors.email).toBeUndefined();
  });

  it('other errors become the form message', async () => {
    const { actor, reportApiError } = start(async () => {
      throw new ApiError(409, 'Debe quedar al menos un usuario activo con el rol Administrador');
    });
    actor.send({ type: 'editor.openCreate', values: { name: 'Ana', email: 'ana@example.pe' } });
    actor.send({ type: 'editor.submit' });
    await settle();
    expect(actor.getSnapshot().value).toBe('rejected');
    expect(actor.getSnapshot().context.formError).toBe('Debe quedar al menos un usuario activo con el rol Administrador');
    expect(actor.getSnapshot().context.errors).toEqual({});
    expect(reportApiError).not.toHaveBeenCalled();
  });

  it('a 401 is also handed to the session', async () => {
    const error = new ApiError(401, 'No autenticado');
    const { actor, reportApiError } = start(async () => {
      throw error;
    });
    actor.send({ type: 'editor.openCreate', values: { name: 'Ana', email: 'ana@example.pe' } });
    actor.send({ type: 'editor.submit' });
    await settle();
    expect(reportApiError).toHaveBeenCalledWith(error);
  });

  it('closing a clean form closes at once', () => {
    const { actor } = start();
    actor.send({ type: 'editor.openEdit', record });
    actor.send({ type: 'editor.close' });
    expect(actor.getSnapshot().value).toBe('closed');
  });

  it('closing a dirty form asks; keepEditing keeps the values, discard closes', () => {
    const { actor } = start();
    actor.send({ type: 'editor.openCreate' });
    actor.send({ type: 'editor.changed', field: 'name', value: 'Ana' });
    actor.send({ type: 'editor.close' });
    expect(actor.getSnapshot().value).toBe('confirmingDiscard');
    actor.send({ type: 'editor.keepEditing' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.values.name).toBe('Ana');
    actor.send({ type: 'editor.close' });
    actor.send({ type: 'editor.discard' });
    expect(actor.getSnapshot().value).toBe('closed');
    actor.send({ type: 'editor.openCreate' });
    expect(actor.getSnapshot().context.values).toEqual({ name: '', email: '' });
  });

  it('typing a value back to the original is not dirty', () => {
    const { actor } = start();
    actor.send({ type: 'editor.openEdit', record });
    actor.send({ type: 'editor.changed', field: 'name', value: 'X' });
    actor.send({ type: 'editor.changed', field: 'name', value: 'Lucía' });
    actor.send({ type: 'editor.close' });
    expect(actor.getSnapshot().value).toBe('closed');
  });

  it('delete asks first; cancel goes back to editing', () => {
    const { actor, remove } = start();
    actor.send({ type: 'editor.openEdit', record });
    actor.send({ type: 'editor.delete' });
    expect(actor.getSnapshot().value).toBe('confirmingDelete');
    actor.send({ type: 'editor.cancelDelete' });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(remove).not.toHaveBeenCalled();
  });

  it('delete confirmed removes the record and reports "deleted"', async () => {
    const { actor, remove, saved } = start();
    actor.send({ type: 'editor.openEdit', record });
    actor.send({ type: 'editor.delete' });
    actor.send({ type: 'editor.confirmDelete' });
    expect(actor.getSnapshot().value).toBe('deleting');
    await settle();
    expect(remove).toHaveBeenCalledWith(record);
    expect(saved).toHaveBeenCalledWith({ kind: 'deleted', result: null });
    expect(actor.getSnapshot().value).toBe('done');
  });

  it('a refused delete shows the message and keeps the form open', async () => {
    const { actor } = start(undefined, async () => {
      throw new ApiError(409, 'El usuario tiene ventas registradas');
    });
    actor.send({ type: 'editor.openEdit', record });
    actor.send({ type: 'editor.delete' });
    actor.send({ type: 'editor.confirmDelete' });
    await settle();
    expect(actor.getSnapshot().value).toBe('rejected');
    expect(actor.getSnapshot().context.formError).toBe('El usuario tiene ventas registradas');
  });

  it('there is nothing to delete when creating', () => {
    const { actor } = start();
    actor.send({ type: 'editor.openCreate' });
    actor.send({ type: 'editor.delete' });
    expect(actor.getSnapshot().value).toBe('editing');
  });

  it('done can open again', async () => {
    const { actor } = start();
    actor.send({ type: 'editor.openCreate', values: { name: 'Ana', email: 'ana@example.pe' } });
    actor.send({ type: 'editor.submit' });
    await settle();
    actor.send({ type: 'editor.openEdit', record });
    expect(actor.getSnapshot().value).toBe('editing');
    expect(actor.getSnapshot().context.mode).toBe('edit');
  });

  describe('lost updates (issue 11 item 9)', () => {
    const versioned = { ...record, version: 4 };
    const staleError = () => new ApiError(409, STALE_RECORD_MESSAGE, { version: [STALE_RECORD_MESSAGE] });

    it("an edit sends the opened record's version; a create sends none", async () => {
      const { actor, save } = start();
      actor.send({ type: 'editor.openEdit', record: versioned });
      actor.send({ type: 'editor.submit' });
      await settle();
      expect(save).toHaveBeenLastCalledWith({
        mode: 'edit',
        record: versioned,
        body: { name: 'Lucía', email: 'lucia@example.pe', version: 4 },
      });
      actor.send({ type: 'editor.openCreate', values: { name: 'Ana', email: 'ana@example.pe' } });
      actor.send({ type: 'editor.submit' });
      await settle();
      expect(save).toHaveBeenLastCalledWith({ mode: 'create', record: null, body: { name: 'Ana', email: 'ana@example.pe' } });
    });

    it('a stale-edit 409 shows its message in `stale`; "Recargar" fetches the record and keeps the editor open on it', async () => {
      const fresh = { ...versioned, name: 'Lucía Quispe', version: 5 };
      const { actor, save, reload, saved } = start(
        async () => {
          throw staleError();
        },
        undefined,
        async () => fresh,
      );
      actor.send({ type: 'editor.openEdit', record: versioned });
      actor.send({ type: 'editor.changed', field: 'email', value: 'otra@example.pe' });
      actor.send({ type: 'editor.submit' });
      await settle();
      expect(actor.getSnapshot().value).toBe('stale');
      expect(actor.getSnapshot().context.formError).toBe(STALE_RECORD_MESSAGE);
      expect(actor.getSnapshot().context.errors).toEqual({});

      actor.send({ type: 'editor.reload' });
      expect(actor.getSnapshot().value).toBe('reloading');
      await settle();
      expect(reload).toHaveBeenCalledWith(versioned);
      const snap = actor.getSnapshot();
      expect(snap.value).toBe('editing');
      expect(snap.context).toMatchObject({
        mode: 'edit',
        record: fresh,
        values: { name: 'Lucía Quispe', email: 'lucia@example.pe' },
        formError: null,
      });
      expect(isDirty(snap.context)).toBe(false);

      // The next save carries the fresh version.
      save.mockImplementationOnce(async (input) => input.body);
      actor.send({ type: 'editor.submit' });
      await settle();
      expect(save).toHaveBeenLastCalledWith(
        expect.objectContaining({ body: { name: 'Lucía Quispe', email: 'lucia@example.pe', version: 5 } }),
      );
      expect(saved).toHaveBeenCalledWith(expect.objectContaining({ kind: 'updated' }));
    });

    it('in `stale` the form stays editable and closable', async () => {
      const { actor } = start(async () => {
        throw staleError();
      });
      actor.send({ type: 'editor.openEdit', record: versioned });
      actor.send({ type: 'editor.submit' });
      await settle();
      expect(actor.getSnapshot().value).toBe('stale');
      actor.send({ type: 'editor.changed', field: 'name', value: 'Otra' });
      expect(actor.getSnapshot().value).toBe('editing');
      actor.send({ type: 'editor.submit' });
      await settle();
      actor.send({ type: 'editor.close' });
      expect(actor.getSnapshot().value).toBe('confirmingDiscard');
    });

    it('a failed reload stays in `stale` with its message (a 404 also goes to the session)', async () => {
      const gone = new ApiError(404, 'Recurso no encontrado');
      const { actor, reportApiError } = start(
        async () => {
          throw staleError();
        },
        undefined,
        async () => {
          throw gone;
        },
      );
      actor.send({ type: 'editor.openEdit', record: versioned });
      actor.send({ type: 'editor.submit' });
      await settle();
      actor.send({ type: 'editor.reload' });
      await settle();
      expect(actor.getSnapshot().value).toBe('stale');
      expect(actor.getSnapshot().context.formError).toBe('Recurso no encontrado');
      expect(reportApiError).toHaveBeenCalledWith(gone);
    });
  });
});
