import { Button, Callout, DialogBody, DialogFooter, FormGroup, HTMLTable, Spinner, TextArea } from '@blueprintjs/core';
import { Dialog, HTMLSelect } from '../shared/BlueprintEs';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { formatDate, formatDateTime } from '../../lib/dates';
import { HOLD_REASON_MAX, type LotHoldsMachine } from '../../machines/proyectos/lot-holds.machine';
import { inspectOption } from '../../machines/inspect';
import { LOT_HOLD_STATES, type LotHold, type LotHoldState } from '../../schemas/proyectos/lot-holds';
import { LOT_STATUSES, type LotStatus } from '../../schemas/proyectos/projects';
import { LotStatusTag } from './LotStatusDialog';

/** The list's state filter, in Spanish (docs/domain.md "Lot holds"). */
export const LOT_HOLD_STATE_LABEL: Readonly<Record<LotHoldState, string>> = {
  PENDIENTE: 'Pendientes',
  APROBADA: 'Aprobadas',
  RECHAZADA: 'Rechazadas',
  VENCIDA: 'Vencidas',
  LIBERADA: 'Liberadas',
};

const isLotStatus = (s: string): s is LotStatus => (LOT_STATUSES as readonly string[]).includes(s);

type HoldsRef = ActorRefFrom<LotHoldsMachine>;

/**
 * "Solicitudes de bloqueo" of one subdivision (drawer of Proyectos → Lotes; docs/domain.md "Lot
 * holds"): the requests in the chosen state (lote "MZ B - LT 8", lotización, estado solicitado,
 * hasta dd/mm/yyyy, motivo, solicitado por, fecha de solicitud; for decided ones who decided and
 * why). A supervisor (`canApprove`) approves or rejects a pending one (the rejection asks for an
 * optional reason); anyone else sees only their own requests (the server filters). Runs its own
 * actor of the `lotHolds` machine (lot-holds.machine.ts): mounting it loads the list.
 */
export function LotHoldsPanel({
  machine,
  subdivisionId,
  subdivisionName,
  canApprove,
}: {
  machine: LotHoldsMachine;
  subdivisionId: number;
  subdivisionName: string;
  canApprove: boolean;
}) {
  const actor = useActorRef(machine, { input: { subdivisionId, canApprove }, ...inspectOption() });
  const state = useSelector(actor, (s) => s.context.state);
  const holds = useSelector(actor, (s) => s.context.holds);
  const loading = useSelector(actor, (s) => s.matches('loading'));
  const error = useSelector(actor, (s) => (s.matches('failure') ? s.context.error : null));
  const actionError = useSelector(actor, (s) => s.context.actionError);
  const decidingId = useSelector(actor, (s) => s.context.decidingId);
  const busy = useSelector(actor, (s) => !s.matches('ready'));
  const actions = canApprove && state === 'PENDIENTE';
  const decided = state !== 'PENDIENTE';

  return (
    <div className="lot-holds">
      <div className="lot-holds-toolbar">
        <HTMLSelect
          aria-label="Estado de la solicitud"
          value={state}
          onChange={(e) => actor.send({ type: 'holds.stateChanged', state: e.target.value as LotHoldState })}
          options={LOT_HOLD_STATES.map((s) => ({ value: s, label: LOT_HOLD_STATE_LABEL[s] }))}
        />
        <Button icon="refresh" text="Actualizar" disabled={busy} onClick={() => actor.send({ type: 'holds.reload' })} />
        {loading ? <Spinner size={16} aria-label="Cargando solicitudes" /> : null}
      </div>
      {canApprove ? null : <p className="bp6-text-muted">Solo se muestran sus propias solicitudes.</p>}
      {actionError ? (
        <Callout intent="danger" compact role="alert">
          {actionError}
        </Callout>
      ) : null}
      {error ? (
        <Callout intent="danger" compact>
          {error} <Button variant="minimal" size="small" text="Reintentar" onClick={() => actor.send({ type: 'holds.retry' })} />
        </Callout>
      ) : !loading && holds.length === 0 ? (
        <p className="bp6-text-muted">No hay solicitudes {LOT_HOLD_STATE_LABEL[state].toLowerCase()}.</p>
      ) : holds.length > 0 ? (
        <HTMLTable compact striped className="lot-holds-table" aria-label="Solicitudes de bloqueo">
          <thead>
            <tr>
              <th>Lote</th>
              <th>Lotización</th>
              <th>Estado solicitado</th>
              <th>Hasta</th>
              <th>Motivo</th>
              <th>Solicitado por</th>
              <th>Fecha de solicitud</th>
              {decided ? <th>Atendido por</th> : null}
              {decided ? <th>Observación</th> : null}
              {actions ? <th>Acciones</th> : null}
            </tr>
          </thead>
          <tbody>
            {holds.map((h) => (
              <tr key={h.id}>
                <td className="nowrap">{h.lot.code}</td>
                <td>{subdivisionName}</td>
                <td className="nowrap">{isLotStatus(h.status) ? <LotStatusTag status={h.status} /> : h.status}</td>
                <td className="nowrap">{formatDate(h.until)}</td>
                <td>{h.reason ?? '—'}</td>
                <td>{h.requested_by?.name ?? '—'}</td>
                <td className="nowrap">{formatDateTime(h.requested_at)}</td>
                {decided ? <td>{h.decided_by?.name ?? '—'}</td> : null}
                {decided ? <td>{h.decision_reason ?? '—'}</td> : null}
                {actions ? (
                  <td className="nowrap">
                    <HoldActions actor={actor} hold={h} busy={busy} deciding={decidingId === h.id} />
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      ) : null}
      {canApprove ? <RejectDialog actor={actor} /> : null}
    </div>
  );
}

function HoldActions({ actor, hold, busy, deciding }: { actor: HoldsRef; hold: LotHold; busy: boolean; deciding: boolean }) {
  return (
    <>
      <Button
        size="small"
        intent="success"
        icon="tick"
        text="Aprobar"
        aria-label={`Aprobar ${hold.lot.code}`}
        loading={deciding}
        disabled={busy && !deciding}
        onClick={() => actor.send({ type: 'holds.approve', id: hold.id })}
      />{' '}
      <Button
        size="small"
        intent="danger"
        icon="cross"
        text="Rechazar"
        aria-label={`Rechazar ${hold.lot.code}`}
        disabled={busy}
        onClick={() => actor.send({ type: 'holds.reject', hold })}
      />
    </>
  );
}

/** The rejection's dialog: an optional reason, the server's refusal shown inside. */
function RejectDialog({ actor }: { actor: HoldsRef }) {
  const hold = useSelector(actor, (s) => s.context.rejecting);
  const reason = useSelector(actor, (s) => s.context.reason);
  const rejectError = useSelector(actor, (s) => s.context.rejectError);
  const submitting = useSelector(actor, (s) => s.matches({ rejecting: 'submitting' }));
  return (
    <Dialog
      isOpen={hold !== null}
      onClose={() => actor.send({ type: 'holds.cancel' })}
      title={hold ? `Rechazar solicitud · ${hold.lot.code}` : 'Rechazar solicitud'}
      canOutsideClickClose={!submitting}
      canEscapeKeyClose={!submitting}
    >
      <DialogBody>
        {rejectError ? (
          <Callout intent="danger" compact role="alert">
            {rejectError}
          </Callout>
        ) : null}
        <FormGroup label="Motivo del rechazo (opcional)" labelFor="lot-hold-reject-reason">
          <TextArea
            id="lot-hold-reject-reason"
            fill
            maxLength={HOLD_REASON_MAX}
            value={reason}
            onChange={(e) => actor.send({ type: 'holds.reasonChanged', reason: e.target.value })}
          />
        </FormGroup>
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancelar" disabled={submitting} onClick={() => actor.send({ type: 'holds.cancel' })} />
            <Button intent="danger" text="Rechazar" loading={submitting} onClick={() => actor.send({ type: 'holds.confirmReject' })} />
          </>
        }
      />
    </Dialog>
  );
}
