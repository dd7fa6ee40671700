/**
 * LotStatusDialog — the lot status change dialog (issue "Proyectos"; docs/domain.md state chart).
 *
 * PUBLIC API (stable; reused by the map's lot panel):
 *
 *   import { createLotStatusMachines } from '../../machines/proyectos/lot-status.machine';
 *   import { LotStatusDialog } from '../proyectos/LotStatusDialog';
 *   import { LotStatusHistory } from '../proyectos/LotStatusHistory';
 *
 *   // once, in the screen's actors module (lotsApi = createLotsApi(client)):
 *   const lotStatus = createLotStatusMachines({ lotsApi, reportApiError, toaster });
 *   // → { status: LotStatusMachine, history: LotStatusHistoryMachine } (also exposed by
 *   //   `machines.projects()` as `lotStatus`)
 *
 *   // in the screen's parent machine: spawn it and react to what it emits
 *   //   (proyectos/lots-page.machine.ts, mapas/project-map-page.machine.ts):
 *   const statusActor = spawn('status', { id: 'status' });
 *   statusActor.on('changed', ({ lot }) => self.send({ type: 'child.lotChanged', lot }));
 *   // in the view, with the ref from the parent's context:
 *   <Button text="Cambiar estado" onClick={() => statusActor.send({ type: 'status.open', lot })} />
 *   <LotStatusDialog actor={statusActor} currency="PEN" />
 *   <LotStatusHistory key={lotHistoryKey(lot)} machine={lotStatus.history} lotId={lot.id} />
 *
 * `lot` is a {@link Lot} (GET lots/{id} or a row of the lots list). The dialog offers only the
 * targets of LOT_STATUS_TRANSITIONS[lot.status] with Spanish labels; a reason (TextArea) is
 * required for Bloqueado, Reserva comercial and Canje; an end date ("Hasta") for the holds
 * (Separado, Bloqueado, Reserva comercial; docs/domain.md "Lot holds"); a 409 / 422 from the server
 * is shown in the dialog, which stays open. On success the machine runs `changed({lot, pending})`
 * (toast "Estado actualizado", or "Solicitud enviada" when the hold waits for a supervisor), emits
 * `changed {lot, pending}` and closes. Events: `status.open {lot}`, `status.targetChanged {status}`,
 * `status.reasonChanged {reason}`, `status.untilChanged {until}`, `status.submit`, `status.close`.
 */
import { Button, Callout, DialogBody, DialogFooter, FormGroup, InputGroup, Tag, TextArea } from '@blueprintjs/core';
import { Dialog, HTMLSelect } from '../shared/BlueprintEs';
import { useSelector } from '@xstate/react';
import { lazy, Suspense, type FormEvent } from 'react';
import type { ActorRefFrom } from 'xstate';
import { allowedTargets, reasonRequired, untilRequired, type LotStatusMachine } from '../../machines/proyectos/lot-status.machine';
import { LOT_HOLD_MAX_DAYS } from '../../schemas/proyectos/lot-holds';

import type { Lot, LotStatus } from '../../schemas/proyectos/projects';
import { LOT_STATUS_COLOR, LOT_STATUS_LABEL, lotStatusTextColor } from './lot-status';
/** The Spanish date field (dd/mm/aaaa; brings @blueprintjs/datetime, so loaded with the first hold). */
const IsoDateInput = lazy(() => import('../shared/IsoDateInput').then((m) => ({ default: m.IsoDateInput })));

export type LotStatusActorRef = ActorRefFrom<LotStatusMachine>;

/** A lot status as a small tag with its Spanish label, in the status colour of the maps' legend. */
export function LotStatusTag({ status }: { status: LotStatus }) {
  return (
    <Tag
      className={`lot-status-tag lot-status-${status.toLowerCase()}`}
      style={{ backgroundColor: LOT_STATUS_COLOR[status], color: lotStatusTextColor(status) }}
    >
      {LOT_STATUS_LABEL[status]}
    </Tag>
  );
}

/** The status change dialog over a running {@link LotStatusMachine} actor (see the API above). */
export function LotStatusDialog({ actor }: { actor: LotStatusActorRef }) {
  const open = useSelector(actor, (s) => !s.matches('closed'));
  const submitting = useSelector(actor, (s) => s.matches('submitting'));
  const lot = useSelector(actor, (s) => s.context.lot) as Lot | null;
  const target = useSelector(actor, (s) => s.context.target);
  const reason = useSelector(actor, (s) => s.context.reason);
  const targetError = useSelector(actor, (s) => s.context.targetError);
  const reasonError = useSelector(actor, (s) => s.context.reasonError);
  const until = useSelector(actor, (s) => s.context.until);
  const untilError = useSelector(actor, (s) => s.context.untilError);
  const formError = useSelector(actor, (s) => s.context.formError);
  const targets = lot ? allowedTargets(lot.status) : [];
  const needsReason = reasonRequired(target);
  const needsUntil = untilRequired(target);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    actor.send({ type: 'status.submit' });
  };
  return (
    <Dialog
      isOpen={open}
      onClose={() => actor.send({ type: 'status.close' })}
      title={lot ? `Cambiar estado · ${lot.code}` : 'Cambiar estado'}
      canEscapeKeyClose={!submitting}
      canOutsideClickClose={false}
      isCloseButtonShown={!submitting}
      className="lot-status-dialog"
    >
      <form onSubmit={onSubmit} noValidate>
        <DialogBody>
          {formError ? (
            <Callout intent="danger" role="alert" className="lot-status-error">
              {formError}
            </Callout>
          ) : null}
          {lot ? (
            <p>
              Estado actual: <LotStatusTag status={lot.status} />
            </p>
          ) : null}
          {targets.length === 0 ? (
            <Callout intent="primary">Un lote en estado {lot ? LOT_STATUS_LABEL[lot.status] : ''} no admite cambios de estado.</Callout>
          ) : (
            <>
              <FormGroup
                label="Nuevo estado"
                labelFor="lot-status-target"
                helperText={targetError ?? undefined}
                intent={targetError ? 'danger' : 'none'}
              >
                <HTMLSelect
                  id="lot-status-target"
                  fill
                  value={target}
                  disabled={submitting}
                  onChange={(e) => actor.send({ type: 'status.targetChanged', status: e.target.value as LotStatus | '' })}
                  options={[{ value: '', label: 'Seleccione…' }, ...targets.map((s) => ({ value: s, label: LOT_STATUS_LABEL[s] }))]}
                  aria-invalid={Boolean(targetError)}
                />
              </FormGroup>
              <FormGroup
                label={needsReason ? 'Motivo (obligatorio)' : 'Motivo'}
                labelFor="lot-status-reason"
                helperText={reasonError ?? undefined}
                intent={reasonError ? 'danger' : 'none'}
              >
                <TextArea
                  id="lot-status-reason"
                  fill
                  value={reason}
                  disabled={submitting}
                  maxLength={300}
                  intent={reasonError ? 'danger' : 'none'}
                  aria-invalid={Boolean(reasonError)}
                  onChange={(e) => actor.send({ type: 'status.reasonChanged', reason: e.target.value })}
                />
              </FormGroup>
              {needsUntil ? (
                <FormGroup
                  label="Hasta (obligatorio)"
                  labelFor="lot-status-until"
                  helperText={
                    untilError ??
                    `Como máximo ${LOT_HOLD_MAX_DAYS} días. Sin el permiso "Aprobar bloqueos de lotes", queda pendiente de aprobación.`
                  }
                  intent={untilError ? 'danger' : 'none'}
                >
                  <Suspense fallback={<InputGroup disabled placeholder="dd/mm/aaaa" />}>
                    <IsoDateInput
                      id="lot-status-until"
                      value={until}
                      disabled={submitting}
                      hasError={Boolean(untilError)}
                      onChange={(value) => actor.send({ type: 'status.untilChanged', until: value })}
                    />
                  </Suspense>
                </FormGroup>
              ) : null}
            </>
          )}
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text="Cancelar" disabled={submitting} onClick={() => actor.send({ type: 'status.close' })} />
              {targets.length > 0 ? <Button type="submit" intent="primary" text="Cambiar estado" loading={submitting} /> : null}
            </>
          }
        />
      </form>
    </Dialog>
  );
}
