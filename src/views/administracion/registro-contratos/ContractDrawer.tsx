import { Callout, Classes, Spinner } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { formatDateTime } from '../../../lib/dates';
import type { ContractDetailMachine } from '../../../machines/administracion/contract-detail.machine';
import { CONTRACT_KIND_LABELS, type ContractKind } from '../../../schemas/administracion/contract-templates';
import { CONTRACT_STATE_LABELS, type ContractState } from '../../../schemas/administracion/contracts';
import { SideDrawer } from '../../shared/SideDrawer';
import { ContractActions, ContractAnnulAlert } from '../shared/ContractActions';
import { ContractStateTag } from '../shared/ContractStateTag';
import { OverdueTag } from './columns';

const stateLabel = (s: string | null) => (s ? (CONTRACT_STATE_LABELS[s as ContractState] ?? s) : 'Creado');

/** One contract: its data, downloads, the signed scan upload, "Anular", the history of state changes. */
export function ContractDrawer({ actor, today }: { actor: ActorRefFrom<ContractDetailMachine>; today: string }) {
  const isOpen = useSelector(actor, (s) => !s.matches('closed'));
  const contract = useSelector(actor, (s) => s.context.contract);
  const error = useSelector(actor, (s) => s.context.error);
  const actionError = useSelector(actor, (s) => (s.matches({ ready: 'annulling' }) ? null : s.context.actionError));
  const loading = useSelector(actor, (s) => s.matches('loading'));
  const busy = useSelector(actor, (s) => s.matches('ready') && !s.matches({ ready: 'idle' }));
  const uploading = useSelector(actor, (s) => s.matches({ ready: 'uploading' }));
  return (
    <SideDrawer
      isOpen={isOpen}
      title={contract ? `Contrato ${contract.number ?? '(borrador)'}` : 'Contrato'}
      onClose={() => actor.send({ type: 'detail.close' })}
      busy={busy}
    >
      <div className={Classes.DRAWER_BODY}>
        {loading ? <Spinner aria-label="Cargando el contrato" /> : null}
        {error ? <Callout intent="danger">{error}</Callout> : null}
        {contract ? (
          <>
            <p>
              <ContractStateTag state={contract.state} />
              <OverdueTag contract={contract} today={today} />
            </p>
            <dl className="sale-summary">
              <dt>Tipo</dt>
              <dd>{CONTRACT_KIND_LABELS[contract.kind as ContractKind] ?? contract.kind}</dd>
              <dt>Venta</dt>
              <dd>{contract.sale.number}</dd>
              <dt>Titular</dt>
              <dd>{contract.sale.titular}</dd>
              <dt>Lote</dt>
              <dd>
                {contract.lot.code} ({contract.lot.subdivision_name})
              </dd>
              <dt>Plantilla</dt>
              <dd>
                {contract.template.name} (versión {contract.template.version_number})
              </dd>
              {contract.annul_reason ? (
                <>
                  <dt>Motivo de la anulación</dt>
                  <dd>{contract.annul_reason}</dd>
                </>
              ) : null}
            </dl>
            {actionError ? (
              <Callout intent="danger" className="contract-callout" role="alert">
                {actionError}
              </Callout>
            ) : null}
            <ContractActions
              contract={contract}
              busy={busy}
              idPrefix="register"
              uploading={uploading}
              onDownloadPdf={() => actor.send({ type: 'download', what: 'pdf' })}
              onDownloadScan={() => actor.send({ type: 'download', what: 'scan' })}
              onAnnul={() => actor.send({ type: 'annul.request' })}
              onScanPicked={(file) => actor.send({ type: 'scan.picked', file })}
            />
            <h3 className={Classes.HEADING}>Historial</h3>
            <ol className="contract-history" aria-label="Historial del contrato">
              {contract.events.map((e) => (
                <li key={e.id}>
                  <strong>
                    {stateLabel(e.from_state)} → {stateLabel(e.to_state)}
                  </strong>{' '}
                  <span className="bp6-text-muted">
                    {formatDateTime(e.created_at)}
                    {e.user ? ` · ${e.user.name}` : ''}
                  </span>
                  {e.note ? <div>{e.note}</div> : null}
                </li>
              ))}
            </ol>
          </>
        ) : null}
      </div>
      <AnnulAlert actor={actor} />
    </SideDrawer>
  );
}

/** "Anular" asks the reason. */
function AnnulAlert({ actor }: { actor: ActorRefFrom<ContractDetailMachine> }) {
  const open = useSelector(actor, (s) => s.matches({ ready: 'annulling' }));
  const running = useSelector(actor, (s) => s.matches({ ready: { annulling: 'running' } }));
  const reason = useSelector(actor, (s) => s.context.reason);
  const error = useSelector(actor, (s) => (s.matches({ ready: 'annulling' }) ? s.context.actionError : null));
  return (
    <ContractAnnulAlert
      isOpen={open}
      running={running}
      reason={reason}
      error={error}
      idPrefix="register"
      onConfirm={() => actor.send({ type: 'annul.confirm' })}
      onCancel={() => actor.send({ type: 'annul.cancel' })}
      onReasonChange={(text) => actor.send({ type: 'annul.changed', text })}
    >
      <p>El contrato quedará anulado.</p>
    </ContractAnnulAlert>
  );
}
