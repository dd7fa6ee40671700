import type { ReactNode } from 'react';
import { Alert, Button, FileInput, TextArea } from '@blueprintjs/core';
import type { Contract } from '../../../schemas/administracion/contracts';
import { FieldGroup } from '../../shared/FieldGroup';

/**
 * What can be done with a contract (docs/decisions.md "Contract generation screen"), the same on
 * Generar Contrato and in the Registro de contratos drawer: download its PDF and its signed scan,
 * "Anular" while BORRADOR or EMITIDO, and the signed scan's upload while EMITIDO. `before` and
 * `after` are the screen's own buttons (Emitir, Generar otro contrato); `idPrefix` keeps the ids
 * of the two screens apart.
 */
export function ContractActions({
  contract,
  busy,
  idPrefix,
  downloading = false,
  uploading,
  scanError,
  before,
  after,
  onDownloadPdf,
  onDownloadScan,
  onAnnul,
  onScanPicked,
}: {
  contract: Pick<Contract, 'state' | 'has_pdf' | 'signed_scan'>;
  busy: boolean;
  idPrefix: string;
  downloading?: boolean;
  uploading: boolean;
  scanError?: string | null;
  before?: ReactNode;
  after?: ReactNode;
  onDownloadPdf: () => void;
  onDownloadScan: () => void;
  onAnnul: () => void;
  onScanPicked: (file: File) => void;
}) {
  const scanId = `${idPrefix}-signed-scan`;
  return (
    <>
      <div className="contract-buttons">
        {before}
        {contract.has_pdf ? (
          <Button icon="download" text="Descargar PDF" loading={downloading} disabled={busy} onClick={onDownloadPdf} />
        ) : null}
        {contract.signed_scan ? <Button icon="paperclip" text="Descargar firmado" disabled={busy} onClick={onDownloadScan} /> : null}
        {contract.state === 'BORRADOR' || contract.state === 'EMITIDO' ? (
          <Button intent="danger" variant="outlined" icon="disable" text="Anular" disabled={busy} onClick={onAnnul} />
        ) : null}
        {after}
      </div>
      {contract.state === 'EMITIDO' ? (
        <FieldGroup label="Subir contrato firmado" labelFor={scanId} error={scanError ?? undefined} hint="PDF, JPEG o PNG de hasta 10 MB">
          <FileInput
            fill
            disabled={busy}
            text={uploading ? 'Subiendo…' : 'Seleccione el archivo…'}
            buttonText="Examinar"
            inputProps={{ id: scanId, accept: 'application/pdf,image/jpeg,image/png' }}
            onInputChange={(e) => {
              const file = e.currentTarget.files?.[0];
              if (file) onScanPicked(file);
            }}
          />
        </FieldGroup>
      ) : null}
    </>
  );
}

/** "Anular" asks the reason (at least 3 characters: the machine says so in `error`). */
export function ContractAnnulAlert({
  isOpen,
  running,
  reason,
  error,
  idPrefix,
  children,
  onConfirm,
  onCancel,
  onReasonChange,
}: {
  isOpen: boolean;
  running: boolean;
  reason: string;
  error: string | null;
  idPrefix: string;
  children: ReactNode;
  onConfirm: () => void;
  onCancel: () => void;
  onReasonChange: (text: string) => void;
}) {
  const id = `${idPrefix}-annul-reason`;
  return (
    <Alert
      isOpen={isOpen}
      intent="danger"
      icon="disable"
      confirmButtonText="Anular contrato"
      cancelButtonText="Cancelar"
      loading={running}
      onConfirm={onConfirm}
      onCancel={onCancel}
      canEscapeKeyCancel={!running}
    >
      {children}
      <FieldGroup label="Motivo" labelFor={id} error={error ?? undefined}>
        <TextArea id={id} fill value={reason} onChange={(e) => onReasonChange(e.currentTarget.value)} />
      </FieldGroup>
    </Alert>
  );
}
