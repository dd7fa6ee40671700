import {
  Button,
  Callout,
  Checkbox,
  DialogBody,
  DialogFooter,
  FormGroup,
  HTMLTable,
  InputGroup,
  Radio,
  RadioGroup,
  TextArea,
} from '@blueprintjs/core';
import { Dialog } from '../shared/BlueprintEs';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { formatArea, formatMoney, type CurrencyCode } from '../../lib/money';
import type { BulkPriceMachine, PriceChangeKind } from '../../machines/proyectos/bulk-price.machine';
import { LOT_STATUSES, type Block, type LotStatus } from '../../schemas/proyectos/projects';
import { LOT_STATUS_LABEL } from './lot-status';

/**
 * "Actualizar precios" (issue "Proyectos": bulk price update with preview before applying) over a
 * running {@link BulkPriceMachine} actor: the selection (manzanas, estados, or the lots selected
 * in the table), the change (nuevo precio por m² | porcentaje | monto por m²), the reason;
 * "Vista previa" shows the count, totals before / after and the first rows; "Aplicar" is enabled
 * only while that preview is current (any edit drops it).
 */

const KIND_LABEL: Record<PriceChangeKind, string> = {
  SET_PRICE_PER_M2: 'Nuevo precio por m²',
  PERCENT: 'Porcentaje (+/−)',
  AMOUNT_PER_M2: 'Monto por m² (+/−)',
};

export function BulkPriceDialog({
  actor,
  blocks,
  currency,
}: {
  actor: ActorRefFrom<BulkPriceMachine>;
  blocks: readonly Block[];
  currency: CurrencyCode;
}) {
  const open = useSelector(actor, (s) => !s.matches('closed'));
  const ctx = useSelector(actor, (s) => s.context);
  const previewing = useSelector(actor, (s) => s.matches({ open: 'previewing' }));
  const previewed = useSelector(actor, (s) => s.matches({ open: 'previewed' }));
  const applying = useSelector(actor, (s) => s.matches({ open: 'applying' }));
  const busy = previewing || applying;
  const toggle = <T,>(list: readonly T[], item: T, on: boolean) => (on ? [...list, item] : list.filter((x) => x !== item));
  const symbol = currency === 'PEN' ? 'S/' : 'US$';
  return (
    <Dialog
      isOpen={open}
      onClose={() => actor.send({ type: 'bulk.close' })}
      title="Actualizar precios"
      canOutsideClickClose={false}
      canEscapeKeyClose={!applying}
      className="bulk-price-dialog"
    >
      <DialogBody>
        {ctx.formError ? (
          <Callout intent="danger" role="alert">
            {ctx.formError}
          </Callout>
        ) : null}
        <FormGroup label="Lotes" helperText={ctx.errors.selection} intent={ctx.errors.selection ? 'danger' : 'none'}>
          {ctx.lotIds.length > 0 ? (
            <Checkbox
              label={`Los lotes seleccionados (${ctx.lotIds.length})`}
              checked
              onChange={() => actor.send({ type: 'bulk.lotIdsChanged', lotIds: [] })}
            />
          ) : null}
          <fieldset className="bulk-fieldset" aria-label="Manzanas">
            <legend>Manzanas</legend>
            {blocks.length === 0 ? <span className="bp6-text-muted">Sin manzanas</span> : null}
            {blocks.map((b) => (
              <Checkbox
                key={b.id}
                inline
                label={b.name}
                checked={ctx.blocks.includes(b.name)}
                disabled={busy}
                onChange={(e) => actor.send({ type: 'bulk.blocksChanged', blocks: toggle(ctx.blocks, b.name, e.currentTarget.checked) })}
              />
            ))}
          </fieldset>
          <fieldset className="bulk-fieldset" aria-label="Estados">
            <legend>Estados</legend>
            {LOT_STATUSES.filter((s) => s !== 'NO_VENDIBLE').map((s) => (
              <Checkbox
                key={s}
                inline
                label={LOT_STATUS_LABEL[s]}
                checked={ctx.statuses.includes(s)}
                disabled={busy}
                onChange={(e) =>
                  actor.send({ type: 'bulk.statusesChanged', statuses: toggle<LotStatus>(ctx.statuses, s, e.currentTarget.checked) })
                }
              />
            ))}
          </fieldset>
        </FormGroup>
        <RadioGroup
          label="Cambio"
          inline
          selectedValue={ctx.kind}
          disabled={busy}
          onChange={(e) => actor.send({ type: 'bulk.kindChanged', kind: e.currentTarget.value as PriceChangeKind })}
        >
          {(Object.keys(KIND_LABEL) as PriceChangeKind[]).map((k) => (
            <Radio key={k} value={k} label={KIND_LABEL[k]} />
          ))}
        </RadioGroup>
        <FormGroup
          label={ctx.kind === 'PERCENT' ? 'Porcentaje (%)' : `${KIND_LABEL[ctx.kind]} (${symbol})`}
          labelFor="bulk-value"
          helperText={ctx.errors.value}
          intent={ctx.errors.value ? 'danger' : 'none'}
        >
          <InputGroup
            id="bulk-value"
            value={ctx.value}
            disabled={busy}
            intent={ctx.errors.value ? 'danger' : 'none'}
            onValueChange={(value) => actor.send({ type: 'bulk.valueChanged', value })}
          />
        </FormGroup>
        <FormGroup label="Motivo" labelFor="bulk-reason" helperText={ctx.errors.reason} intent={ctx.errors.reason ? 'danger' : 'none'}>
          <TextArea
            id="bulk-reason"
            fill
            value={ctx.reason}
            disabled={busy}
            onChange={(e) => actor.send({ type: 'bulk.reasonChanged', reason: e.target.value })}
          />
        </FormGroup>
        {ctx.preview ? (
          <section aria-label="Vista previa" className="bulk-preview">
            <p>
              <strong>{ctx.preview.count}</strong> lotes · Total antes:{' '}
              <strong>{formatMoney(ctx.preview.total_before, ctx.preview.currency)}</strong> · Total después:{' '}
              <strong>{formatMoney(ctx.preview.total_after, ctx.preview.currency)}</strong>
            </p>
            <div className="bulk-preview-table">
              <HTMLTable compact striped aria-label="Lotes de la vista previa">
                <thead>
                  <tr>
                    <th>Lote</th>
                    <th>Área</th>
                    <th>Precio m² antes</th>
                    <th>Precio m² después</th>
                    <th>Lista antes</th>
                    <th>Lista después</th>
                  </tr>
                </thead>
                <tbody>
                  {ctx.preview.rows.slice(0, 20).map((r) => (
                    <tr key={r.id}>
                      <td>{r.code}</td>
                      <td>{formatArea(r.area_m2)}</td>
                      <td>{formatMoney(r.old_price_per_m2, ctx.preview!.currency)}</td>
                      <td>{formatMoney(r.new_price_per_m2, ctx.preview!.currency)}</td>
                      <td>{formatMoney(r.old_list_price, ctx.preview!.currency)}</td>
                      <td>{formatMoney(r.new_list_price, ctx.preview!.currency)}</td>
                    </tr>
                  ))}
                </tbody>
              </HTMLTable>
            </div>
          </section>
        ) : (
          <Callout compact>Revise la vista previa antes de aplicar.</Callout>
        )}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancelar" disabled={applying} onClick={() => actor.send({ type: 'bulk.close' })} />
            <Button
              text="Vista previa"
              icon="eye-open"
              loading={previewing}
              disabled={applying}
              onClick={() => actor.send({ type: 'bulk.preview' })}
            />
            <Button
              text="Aplicar"
              intent="primary"
              disabled={!previewed}
              loading={applying}
              onClick={() => actor.send({ type: 'bulk.apply' })}
            />
          </>
        }
      />
    </Dialog>
  );
}
