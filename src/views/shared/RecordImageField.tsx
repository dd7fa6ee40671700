import { FileInput, Spinner } from '@blueprintjs/core';
import { useActorRef, useSelector } from '@xstate/react';
import type { AnyActorRef } from 'xstate';
import type { createRecordImageMachine } from '../../machines/shared/record-image.machine';
import { inspectOption } from '../../machines/inspect';
import { FieldGroup } from './FieldGroup';

/**
 * A record's image in its editor — the subdivision's plan, the wallet's QR: the thumbnail (the
 * machine's object URL), its loading and failure, and the file input that uploads a new one
 * (../../machines/shared/record-image.machine.ts owns all of it; this only renders and sends
 * `image.upload`).
 */
export function RecordImageField<Target, Saved>({
  machine,
  target,
  url,
  list,
  id,
  className,
  label,
  alt,
  noun,
}: {
  machine: ReturnType<typeof createRecordImageMachine<Target, Saved>>;
  /** The record's id or key, and its image path (null: none yet). */
  target: Target;
  url: string | null;
  /** The list refreshed by the machine after an upload. */
  list: AnyActorRef;
  /** The file input's id (the label points at it). */
  id: string;
  /** CSS prefix of the section and its thumbnail (`<prefix>-section`, `<prefix>-thumb`). */
  className: string;
  /** The field's label, with the accepted files (e.g. "Plano (PNG o JPEG, hasta 5 MB)"). */
  label: string;
  /** The image's alternative text. */
  alt: string;
  /** What the image is, in Spanish, for "Cargando …", "Sin …", "Subir …" (e.g. "plano", "QR"). */
  noun: string;
}) {
  const actor = useActorRef(machine, { input: { target, url, list }, ...inspectOption() });
  const objectUrl = useSelector(actor, (s) => s.context.objectUrl);
  const loading = useSelector(actor, (s) => s.matches({ image: 'loading' }));
  const error = useSelector(actor, (s) => s.context.error);
  const uploading = useSelector(actor, (s) => s.matches({ upload: 'uploading' }));
  const uploadError = useSelector(actor, (s) => s.context.uploadError);
  return (
    <FieldGroup label={label} labelFor={id} error={uploadError ?? undefined}>
      <div className={`${className}-section`}>
        <div className={`${className}-thumb`}>
          {loading ? <Spinner size={24} aria-label={`Cargando ${noun}`} /> : null}
          {objectUrl ? <img src={objectUrl} alt={alt} /> : null}
          {!objectUrl && !loading ? <span className="bp6-text-muted">{error ?? `Sin ${noun}`}</span> : null}
        </div>
        <FileInput
          text={uploading ? 'Subiendo…' : objectUrl ? 'Reemplazar imagen…' : 'Elegir imagen…'}
          buttonText="Examinar"
          disabled={uploading}
          inputProps={{ id, accept: 'image/png,image/jpeg', 'aria-label': `Subir ${noun}` }}
          onInputChange={(e) => {
            const file = (e.target as HTMLInputElement).files?.[0];
            if (file) actor.send({ type: 'image.upload', file });
          }}
        />
      </div>
    </FieldGroup>
  );
}
