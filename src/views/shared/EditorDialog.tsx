import '../../styles/resource.css';
import { type FormEvent, type ReactNode } from 'react';
import { Alert, Button, Callout, DialogBody, DialogFooter } from '@blueprintjs/core';
import { Dialog } from './BlueprintEs';
import { SideDrawer } from './SideDrawer';
import { DiscardChangesAlert } from './DiscardChangesAlert';
import { useReturnFocus } from './focus-return';
import { isEditorOpen, useResourceEditor, useResourceEditorEvents, type ResourceEditorRef } from './resource-hooks';

/**
 * The editor of a CRUD screen (issue "Configuración", the CRUD pattern) as a Blueprint Dialog
 * ({@link EditorDialog}) or Drawer ({@link EditorDrawer}); both render the same form from the
 * resource-editor machine: the screen's fields (see FormField.tsx), the form's message in a
 * Callout, and the footer "Cancelar" / "Guardar" (loading while saving) plus "Eliminar" when
 * editing and `canDelete`. Closing with unsaved changes (Escape, the close button, "Cancelar")
 * asks "¿Descartar los cambios?" (DiscardChangesAlert.tsx: "Descartar" / "Seguir editando");
 * deleting asks "¿Eliminar este registro?" ("Eliminar" / "Cancelar"). Closing gives focus back to
 * the element that opened the editor (focus-return.ts; docs/decisions.md "Keyboard and focus").
 */

interface EditorFrameProps<R extends object, C extends object, U extends object> {
  editor: ResourceEditorRef<R, C, U>;
  /** Title when creating ("Nuevo usuario"). */
  createTitle: string;
  /** Title when editing ("Editar usuario"). */
  editTitle: string;
  /** Show "Eliminar" when editing. */
  canDelete?: boolean;
  children: ReactNode;
}

function useEditorFrame<R extends object, C extends object, U extends object>(editor: ResourceEditorRef<R, C, U>) {
  return {
    open: useResourceEditor(editor, isEditorOpen),
    mode: useResourceEditor(editor, (s) => s.context.mode),
    saving: useResourceEditor(editor, (s) => s.matches('submitting')),
    deleting: useResourceEditor(editor, (s) => s.matches('deleting')),
    confirmingDiscard: useResourceEditor(editor, (s) => s.matches('confirmingDiscard')),
    confirmingDelete: useResourceEditor(editor, (s) => s.matches('confirmingDelete') || s.matches('deleting')),
    formError: useResourceEditor(editor, (s) => s.context.formError),
    stale: useResourceEditor(editor, (s) => s.matches('stale') || s.matches('reloading')),
    reloading: useResourceEditor(editor, (s) => s.matches('reloading')),
    events: useResourceEditorEvents(editor),
  };
}

function EditorForm<R extends object, C extends object, U extends object>({
  editor,
  canDelete,
  children,
}: Omit<EditorFrameProps<R, C, U>, 'createTitle' | 'editTitle'>) {
  const { mode, saving, deleting, formError, stale, reloading, events } = useEditorFrame(editor);
  const busy = saving || deleting || reloading;
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    events.submit();
  };
  return (
    <form onSubmit={onSubmit} noValidate className="editor-form">
      <DialogBody>
        {formError ? (
          <Callout intent="danger" className="editor-form-error" role="alert">
            {formError}
            {stale ? (
              // A stale edit (issue 11 item 9): fetch the record again and keep editing on it.
              <div className="editor-form-error__actions">
                <Button icon="refresh" text="Recargar" loading={reloading} onClick={events.reload} />
              </div>
            ) : null}
          </Callout>
        ) : null}
        {children}
      </DialogBody>
      <DialogFooter
        minimal={false}
        actions={
          <>
            {canDelete && mode === 'edit' ? (
              <Button intent="danger" variant="minimal" icon="trash" text="Eliminar" disabled={busy} onClick={events.askDelete} />
            ) : null}
            <Button text="Cancelar" onClick={events.close} disabled={busy} />
            <Button type="submit" intent="primary" text="Guardar" loading={saving} disabled={deleting || reloading} />
          </>
        }
      />
    </form>
  );
}

function EditorAlerts<R extends object, C extends object, U extends object>({ editor }: { editor: ResourceEditorRef<R, C, U> }) {
  const { confirmingDiscard, confirmingDelete, deleting, events } = useEditorFrame(editor);
  return (
    <>
      <DiscardChangesAlert isOpen={confirmingDiscard} onDiscard={events.discard} onKeepEditing={events.keepEditing} />
      <Alert
        isOpen={confirmingDelete}
        intent="danger"
        icon="trash"
        confirmButtonText="Eliminar"
        cancelButtonText="Cancelar"
        loading={deleting}
        onConfirm={events.confirmDelete}
        onCancel={events.cancelDelete}
        canEscapeKeyCancel={!deleting}
      >
        <p>¿Eliminar este registro?</p>
      </Alert>
    </>
  );
}

/** The editor as a modal dialog (short forms). */
export function EditorDialog<R extends object, C extends object, U extends object>({
  editor,
  createTitle,
  editTitle,
  canDelete = false,
  children,
}: EditorFrameProps<R, C, U>) {
  const { open, mode, saving, deleting, events } = useEditorFrame(editor);
  const busy = saving || deleting;
  useReturnFocus(open);
  return (
    <>
      <Dialog
        isOpen={open}
        onClose={events.close}
        title={mode === 'edit' ? editTitle : createTitle}
        canEscapeKeyClose={!busy}
        canOutsideClickClose={false}
        isCloseButtonShown={!busy}
        className="editor-dialog"
      >
        <EditorForm editor={editor} canDelete={canDelete}>
          {children}
        </EditorForm>
      </Dialog>
      <EditorAlerts editor={editor} />
    </>
  );
}

/**
 * The editor as a side drawer (long forms). Blueprint's Drawer has no dialog role, so the drawer's
 * content is the labelled `role="dialog"` and carries its own header.
 */
export function EditorDrawer<R extends object, C extends object, U extends object>({
  editor,
  createTitle,
  editTitle,
  canDelete = false,
  children,
  size = '480px',
}: EditorFrameProps<R, C, U> & { size?: string }) {
  const { open, mode, saving, deleting, events } = useEditorFrame(editor);
  return (
    <>
      <SideDrawer
        isOpen={open}
        onClose={events.close}
        size={size}
        busy={saving || deleting}
        title={mode === 'edit' ? editTitle : createTitle}
      >
        <EditorForm editor={editor} canDelete={canDelete}>
          {children}
        </EditorForm>
      </SideDrawer>
      <EditorAlerts editor={editor} />
    </>
  );
}
