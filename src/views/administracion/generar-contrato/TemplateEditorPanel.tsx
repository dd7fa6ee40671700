import { Button, Callout, Classes, InputGroup, NonIdealState, Spinner } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { templateKind, type TemplateEditorMachine } from '../../../machines/administracion/template-editor.machine';
import { CONTRACT_KIND_LABELS } from '../../../schemas/administracion/contract-templates';
import { DiscardChangesAlert } from '../../shared/DiscardChangesAlert';
import { FieldGroup } from '../../shared/FieldGroup';
import { PublishTemplateAlert } from './PublishTemplateAlert';
import { StaleTemplateAlert } from './StaleTemplateAlert';
import { TemplateStateTag } from './TemplateStateTag';
import { TemplateRichTextEditor } from './editor/TemplateRichTextEditor';

const CONTENT_ERRORS_ID = 'template-content-errors';

/**
 * One template version in the editor (in place of the list): its name, subdivision, kind, version
 * and state; "Guardar" and "Publicar" for a Borrador, "Nueva versión" for a Publicada (read-only);
 * the content's problems (unknown variables, …) listed above the document; "Volver a la lista"
 * asks "¿Descartar los cambios?" when something is unsaved.
 */
export function TemplateEditorPanel({ editor }: { editor: ActorRefFrom<TemplateEditorMachine> }) {
  const template = useSelector(editor, (s) => s.context.template);
  const name = useSelector(editor, (s) => s.context.name);
  const content = useSelector(editor, (s) => s.context.content);
  const docKey = useSelector(editor, (s) => s.context.docKey);
  const dirty = useSelector(editor, (s) => s.context.dirty);
  const errors = useSelector(editor, (s) => s.context.errors);
  const error = useSelector(editor, (s) => s.context.error);
  const loading = useSelector(editor, (s) => s.matches('loading'));
  const loadFailed = useSelector(editor, (s) => s.matches('loadFailed'));
  const saving = useSelector(editor, (s) => s.matches('saving'));
  const publishing = useSelector(editor, (s) => s.matches('publishing'));
  const creatingVersion = useSelector(editor, (s) => s.matches('creatingVersion'));
  const readOnly = useSelector(editor, (s) => s.matches('readOnly') || s.matches('creatingVersion'));
  const confirmingPublish = useSelector(editor, (s) => s.matches('confirmingPublish') || s.matches('publishing'));
  const confirmingDiscard = useSelector(editor, (s) => s.matches('confirmingDiscard'));
  const stale = useSelector(editor, (s) => s.matches('stale'));
  const back = (
    <Button icon="arrow-left" variant="minimal" text="Volver a la lista" onClick={() => editor.send({ type: 'template.close' })} />
  );

  if (loading || (!template && !loadFailed)) return <Spinner aria-label="Cargando plantilla" />;
  if (loadFailed || !template || !content)
    return (
      <NonIdealState
        icon="error"
        title="No se pudo abrir la plantilla"
        description={error ?? undefined}
        action={
          <>
            <Button text="Reintentar" onClick={() => editor.send({ type: 'template.retry' })} /> {back}
          </>
        }
      />
    );
  const kind = templateKind(template);
  const contentErrors = errors.content ?? [];
  return (
    <div className="templates-editor" aria-labelledby="template-editor-title">
      {back}
      <h2 id="template-editor-title" className={Classes.HEADING}>
        {template.name}
      </h2>
      <div className="templates-editor-header">
        {readOnly ? null : (
          <FieldGroup label="Nombre de la plantilla" labelFor="template-editor-name" error={errors.name}>
            <InputGroup
              id="template-editor-name"
              value={name}
              autoComplete="off"
              intent={errors.name ? 'danger' : 'none'}
              aria-invalid={Boolean(errors.name)}
              aria-describedby={errors.name ? 'template-editor-name-error' : undefined}
              onValueChange={(value) => editor.send({ type: 'template.nameChanged', value })}
            />
          </FieldGroup>
        )}
        <div className="templates-editor-meta">
          <span>{template.subdivision.name}</span>
          <span aria-hidden>·</span>
          <span>{CONTRACT_KIND_LABELS[kind]}</span>
          <span aria-hidden>·</span>
          <span>Versión {template.version_number}</span>
          <TemplateStateTag state={template.state} />
          {dirty ? <span className={Classes.TEXT_MUTED}>Cambios sin guardar</span> : null}
        </div>
        <div className="templates-editor-actions">
          {readOnly ? (
            <Button
              icon="duplicate"
              intent="primary"
              text="Nueva versión"
              loading={creatingVersion}
              onClick={() => editor.send({ type: 'template.newVersion' })}
            />
          ) : (
            <>
              <Button
                icon="floppy-disk"
                intent="primary"
                text="Guardar"
                loading={saving}
                onClick={() => editor.send({ type: 'template.save' })}
              />
              <Button
                icon="tick-circle"
                text="Publicar"
                disabled={dirty || saving}
                title={dirty ? 'Guarde los cambios antes de publicar' : undefined}
                onClick={() => editor.send({ type: 'template.publish' })}
              />
            </>
          )}
        </div>
      </div>
      {readOnly ? (
        <Callout intent="success" icon="lock" className="templates-readonly-hint">
          Versión publicada: solo lectura. Para cambiarla, cree una nueva versión.
          {template.published_at
            ? ` Publicada el ${template.published_at.slice(8, 10)}/${template.published_at.slice(5, 7)}/${template.published_at.slice(0, 4)}`
            : ''}
          {template.published_by ? ` por ${template.published_by.name}.` : template.published_at ? '.' : ''}
        </Callout>
      ) : null}
      {error && !stale ? (
        <Callout intent="danger" className="templates-content-errors" role="alert">
          {error}
        </Callout>
      ) : null}
      {contentErrors.length > 0 ? (
        <Callout
          intent="danger"
          title="El contenido no se puede guardar"
          className="templates-content-errors"
          id={CONTENT_ERRORS_ID}
          role="alert"
        >
          <ul>
            {contentErrors.map((message) => (
              <li key={message}>{message}</li>
            ))}
          </ul>
        </Callout>
      ) : null}
      <TemplateRichTextEditor
        docKey={docKey}
        content={content}
        kind={kind}
        readOnly={readOnly}
        onChange={(next) => editor.send({ type: 'template.contentChanged', content: next })}
        describedBy={contentErrors.length > 0 ? CONTENT_ERRORS_ID : undefined}
        invalid={contentErrors.length > 0}
      />
      <PublishTemplateAlert
        isOpen={confirmingPublish}
        versionNumber={template.version_number}
        publishing={publishing}
        onConfirm={() => editor.send({ type: 'template.confirmPublish' })}
        onCancel={() => editor.send({ type: 'template.cancelPublish' })}
      />
      <StaleTemplateAlert
        isOpen={stale}
        message={error}
        onReload={() => editor.send({ type: 'template.reload' })}
        onKeepEditing={() => editor.send({ type: 'template.keepEditing' })}
      />
      <DiscardChangesAlert
        isOpen={confirmingDiscard}
        onDiscard={() => editor.send({ type: 'template.discard' })}
        onKeepEditing={() => editor.send({ type: 'template.keepEditing' })}
      />
    </div>
  );
}
