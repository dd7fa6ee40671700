import { Alert, Classes } from '@blueprintjs/core';

/** Title and message of the confirmation (docs/decisions.md "Keyboard and focus"). */
export const DISCARD_TITLE = '¿Descartar los cambios?';
export const DISCARD_MESSAGE = 'Hay datos sin guardar. ¿Desea descartarlos?';

/**
 * The confirmation before a form with typed data closes (Escape, the close button, "Cancelar"):
 * "¿Descartar los cambios?" — "Hay datos sin guardar. ¿Desea descartarlos?", "Descartar" /
 * "Seguir editando" (Escape keeps editing). The form's machine owns whether it asks (its dirty
 * flag); this only draws the question. Shared by the CRUD editor (EditorDialog.tsx) and the
 * payment dialogs, so every form asks the same way.
 */
export function DiscardChangesAlert({
  isOpen,
  onDiscard,
  onKeepEditing,
}: {
  isOpen: boolean;
  onDiscard: () => void;
  onKeepEditing: () => void;
}) {
  return (
    <Alert
      isOpen={isOpen}
      intent="warning"
      icon="warning-sign"
      confirmButtonText="Descartar"
      cancelButtonText="Seguir editando"
      onConfirm={onDiscard}
      onCancel={onKeepEditing}
      canEscapeKeyCancel
      className="discard-changes-alert"
    >
      <p className={Classes.HEADING}>{DISCARD_TITLE}</p>
      <p>{DISCARD_MESSAGE}</p>
    </Alert>
  );
}
