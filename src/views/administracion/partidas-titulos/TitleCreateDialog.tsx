import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Button, Callout, DialogBody, DialogFooter } from '@blueprintjs/core';
import type { TitleCreateMachine } from '../../../machines/administracion/title-create.machine';
import type { TitleSaleOption } from '../../../schemas/administracion/titles';
import { Dialog } from '../../shared/BlueprintEs';
import { LookupSuggest, type LookupSuggestText } from '../../shared/CustomerSuggest';
import { DiscardChangesAlert } from '../../shared/DiscardChangesAlert';
import { FieldGroup } from '../../shared/FieldGroup';
import { useReturnFocus } from '../../shared/focus-return';
import { PactFields } from './PactFields';

const SALE_STATUS_TEXT: Record<string, string> = {
  CANCELADA: 'cancelada',
  EN_CUOTAS: 'en cuotas',
  INICIAL_PENDIENTE: 'inicial pendiente',
  REGISTRADA: 'registrada',
};

const SALE_TEXT: LookupSuggestText<TitleSaleOption> = {
  label: (s) => `${s.number} · ${s.lot_code}${s.titular ? ` · ${s.titular}` : ''}`,
  detail: (s) => `${s.subdivision_name} · ${SALE_STATUS_TEXT[s.status] ?? s.status.toLowerCase()}`,
  placeholder: 'Buscar venta (número, lote o titular)…',
  none: 'No hay ventas sin trámite con ese texto',
};

/**
 * "Nuevo trámite": the sale (searched by number, lot or titular among the sales without a
 * process), the retention-of-title pact with where it is stated, notes. Only a paid-off sale reaches
 * escritura; a financed one needs the pact (said under the sale). Closing with data asks first.
 */
export function TitleCreateDialog({ actor }: { actor: ActorRefFrom<TitleCreateMachine> }) {
  const open = useSelector(actor, (s) => !s.matches('closed'));
  const c = useSelector(actor, (s) => s.context);
  const submitting = useSelector(actor, (s) => s.matches('submitting'));
  const confirmingDiscard = useSelector(actor, (s) => s.matches('confirmingDiscard'));
  const close = () => actor.send({ type: 'create.close' });
  useReturnFocus(open);
  const financedUnpaid = c.sale !== null && c.sale.status !== 'CANCELADA';
  return (
    <Dialog isOpen={open} onClose={submitting ? undefined : close} title="Nuevo trámite de título" icon="add">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          actor.send({ type: 'create.submit' });
        }}
      >
        <DialogBody>
          {c.error ? (
            <Callout intent="danger" className="titles-form-error">
              {c.error}
            </Callout>
          ) : null}
          <FieldGroup
            label="Venta"
            labelFor="title-sale"
            error={c.errors.sale_id}
            hint={
              financedUnpaid
                ? 'La venta aún no está cancelada: solo pasa a escritura con el pacto de reserva de propiedad declarado.'
                : undefined
            }
          >
            <LookupSuggest<TitleSaleOption>
              id="title-sale"
              lookup={c.lookup}
              selected={c.sale}
              onSelect={(sale) => actor.send({ type: 'create.sale', sale })}
              invalid={Boolean(c.errors.sale_id)}
              disabled={submitting}
              text={SALE_TEXT}
            />
          </FieldGroup>
          <PactFields
            idPrefix="title"
            pactLabel="Pacto de reserva de propiedad declarado (venta a plazos, art. 1583 del Código Civil)"
            pactStated={c.pactStated}
            pactNote={c.pactNote}
            notes={c.notes}
            errors={c.errors}
            disabled={submitting}
            onPact={(stated) => actor.send({ type: 'create.pact', stated })}
            onChange={(field, value) => actor.send({ type: 'create.changed', field, value })}
          />
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancelar" onClick={close} disabled={submitting} />
              <Button type="submit" intent="primary" text="Crear trámite" loading={submitting} />
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
