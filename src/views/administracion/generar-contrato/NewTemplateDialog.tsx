import { Button, Callout, DialogBody, DialogFooter, InputGroup } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { TemplateCreateMachine } from '../../../machines/administracion/template-create.machine';
import { CONTRACT_KINDS, CONTRACT_KIND_LABELS } from '../../../schemas/administracion/contract-templates';
import type { SubdivisionOption } from '../../../schemas/proyectos/subdivision-options';
import { Dialog, HTMLSelect } from '../../shared/BlueprintEs';
import { DiscardChangesAlert } from '../../shared/DiscardChangesAlert';
import { FieldGroup } from '../../shared/FieldGroup';
import { useReturnFocus } from '../../shared/focus-return';

/**
 * "Nueva plantilla": the subdivision, the kind of document and the name; "Crear" makes the first
 * version (Borrador v1) and opens it in the editor. Closing with data chosen asks "¿Descartar los
 * cambios?".
 */
export function NewTemplateDialog({
  actor,
  subdivisions,
}: {
  actor: ActorRefFrom<TemplateCreateMachine>;
  subdivisions: SubdivisionOption[];
}) {
  const open = useSelector(actor, (s) => !s.matches('closed'));
  const context = useSelector(actor, (s) => s.context);
  const submitting = useSelector(actor, (s) => s.matches('submitting'));
  const confirmingDiscard = useSelector(actor, (s) => s.matches('confirmingDiscard'));
  const close = () => actor.send({ type: 'create.close' });
  const change = (field: 'subdivision_id' | 'kind' | 'name', value: string) => actor.send({ type: 'create.changed', field, value });
  useReturnFocus(open);
  return (
    <Dialog isOpen={open} onClose={submitting ? undefined : close} title="Nueva plantilla" icon="document">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          actor.send({ type: 'create.submit' });
        }}
      >
        <DialogBody>
          {context.error ? (
            <Callout intent="danger" className="templates-create-error">
              {context.error}
            </Callout>
          ) : null}
          <FieldGroup label="Lotización" labelFor="template-subdivision" error={context.errors.subdivision_id}>
            <HTMLSelect
              id="template-subdivision"
              fill
              value={context.subdivisionId}
              aria-invalid={Boolean(context.errors.subdivision_id)}
              aria-describedby={context.errors.subdivision_id ? 'template-subdivision-error' : undefined}
              onChange={(e) => change('subdivision_id', e.target.value)}
              options={[{ value: '', label: 'Seleccione…' }, ...subdivisions.map((s) => ({ value: String(s.id), label: s.name }))]}
            />
          </FieldGroup>
          <FieldGroup label="Tipo de documento" labelFor="template-kind" error={context.errors.kind}>
            <HTMLSelect
              id="template-kind"
              fill
              value={context.kind}
              onChange={(e) => change('kind', e.target.value)}
              options={CONTRACT_KINDS.map((k) => ({ value: k, label: CONTRACT_KIND_LABELS[k] }))}
            />
          </FieldGroup>
          <FieldGroup label="Nombre" labelFor="template-name" error={context.errors.name}>
            <InputGroup
              id="template-name"
              value={context.name}
              autoComplete="off"
              intent={context.errors.name ? 'danger' : 'none'}
              aria-invalid={Boolean(context.errors.name)}
              aria-describedby={context.errors.name ? 'template-name-error' : undefined}
              onValueChange={(value) => change('name', value)}
            />
          </FieldGroup>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancelar" onClick={close} disabled={submitting} />
              <Button type="submit" intent="primary" text="Crear" loading={submitting} />
            </>
          }
        />
      </form>
      <DiscardChangesAlert
        isOpen={confirmingDiscard}
        onDiscard={() => actor.send({ type: 'create.discard' })}
        onKeepEditing={() => actor.send({ type: 'create.keepEditing' })}
      />
    </Dialog>
  );
}
