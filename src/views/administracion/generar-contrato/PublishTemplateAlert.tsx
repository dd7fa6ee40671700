import { Alert, Classes } from '@blueprintjs/core';

/**
 * "¿Publicar la plantilla?": a published version is read-only and is the one contracts are
 * generated from; further changes go in a new version.
 */
export function PublishTemplateAlert({
  isOpen,
  versionNumber,
  publishing,
  onConfirm,
  onCancel,
}: {
  isOpen: boolean;
  versionNumber: number;
  publishing: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <Alert
      isOpen={isOpen}
      intent="primary"
      icon="tick-circle"
      confirmButtonText="Publicar"
      cancelButtonText="Cancelar"
      loading={publishing}
      onConfirm={onConfirm}
      onCancel={onCancel}
      canEscapeKeyCancel
    >
      <p className={Classes.HEADING}>¿Publicar la versión {versionNumber}?</p>
      <p>
        Una versión publicada no se edita y es la que se usa para generar contratos. Los cambios posteriores se hacen en una nueva versión.
      </p>
    </Alert>
  );
}
