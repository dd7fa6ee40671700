import { Alert, Classes } from '@blueprintjs/core';

/**
 * The template was saved by another user since it was read (409): "Recargar" reads it again and
 * drops the edits; "Seguir editando" keeps the text on screen (to copy it) without saving.
 */
export function StaleTemplateAlert({
  isOpen,
  message,
  onReload,
  onKeepEditing,
}: {
  isOpen: boolean;
  message: string | null;
  onReload: () => void;
  onKeepEditing: () => void;
}) {
  return (
    <Alert
      isOpen={isOpen}
      intent="warning"
      icon="refresh"
      confirmButtonText="Recargar"
      cancelButtonText="Seguir editando"
      onConfirm={onReload}
      onCancel={onKeepEditing}
      canEscapeKeyCancel
    >
      <p className={Classes.HEADING}>La plantilla cambió</p>
      <p>{message ?? 'Otro usuario modificó la plantilla.'} Al recargar se pierden los cambios no guardados.</p>
    </Alert>
  );
}
