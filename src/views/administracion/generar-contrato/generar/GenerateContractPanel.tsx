import '../../../../styles/contracts.css';
import { use } from 'react';
import { Button, Callout, Card, InputGroup, Spinner, Tag } from '@blueprintjs/core';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { inspectOption } from '../../../../machines/inspect';
import type { ContractsMachines } from '../../../../machines/administracion/contracts.actors';
import { valueFields, type GenerateContractMachine } from '../../../../machines/administracion/generate-contract.machine';
import { CONTRACT_KIND_LABELS, type ContractKind } from '../../../../schemas/administracion/contract-templates';
import type { ContractState } from '../../../../schemas/administracion/contracts';
import { SALE_STATUS_LABELS, type SaleStatus } from '../../../../schemas/comercio/sales';
import { HTMLSelect } from '../../../shared/BlueprintEs';
import { DiscardChangesAlert } from '../../../shared/DiscardChangesAlert';
import { FieldGroup } from '../../../shared/FieldGroup';
import { useServices } from '../../../services';
import { ContractActions as ContractActionButtons, ContractAnnulAlert } from '../../shared/ContractActions';
import { ContractDocument } from './ContractDocument';
import { ContractStateTag } from '../../shared/ContractStateTag';

type GenerateActor = ActorRefFrom<GenerateContractMachine>;

/** The sale id of an address's `?venta=<id>` (the Ventas drawer and the sale stepper link with it), else null. */
export function saleIdFromSearch(search: string): number | null {
  const venta = Number(new URLSearchParams(search).get('venta'));
  return Number.isInteger(venta) && venta > 0 ? venta : null;
}

/**
 * The "Generar" tab of Administración → Generar Contrato (docs/decisions.md "Contract generation
 * screen"): loads the contracts machine module and opens `saleId` — the sale the address named
 * when the screen opened (`?venta=<id>`, read by the page) — or starts with the sale search.
 */
export function GenerateContractPanel({ saleId }: { saleId: number | null }) {
  const machines = use(useServices().machines.contracts());
  return <GenerateContractPanelView machines={machines} saleId={saleId} />;
}

/** The panel over given machines (the view tests pass them with fake api calls). */
export function GenerateContractPanelView({ machines, saleId }: { machines: Pick<ContractsMachines, 'generate'>; saleId: number | null }) {
  const actor = useActorRef(machines.generate, { input: { saleId }, ...inspectOption() });
  const inSearch = useSelector(actor, (s) => s.matches('search'));
  const loading = useSelector(actor, (s) => s.matches('loadingSale'));
  const failed = useSelector(actor, (s) => s.matches('failed'));
  const error = useSelector(actor, (s) => s.context.error);
  return (
    <section className="contract-generate" aria-label="Generar contrato">
      {inSearch ? <SaleSearch actor={actor} /> : null}
      {loading ? <Spinner aria-label="Cargando la venta" /> : null}
      {failed ? (
        <Callout intent="danger" title="No se pudo abrir la venta">
          <p>{error}</p>
          <Button text="Reintentar" onClick={() => actor.send({ type: 'retry' })} />{' '}
          <Button variant="minimal" text="Buscar otra venta" onClick={() => actor.send({ type: 'sale.change' })} />
        </Callout>
      ) : null}
      {!inSearch && !loading && !failed ? <SaleContract actor={actor} /> : null}
    </section>
  );
}

/** Finds a sale by number, titular or lot. */
function SaleSearch({ actor }: { actor: GenerateActor }) {
  const query = useSelector(actor, (s) => s.context.query);
  const results = useSelector(actor, (s) => s.context.results);
  const searching = useSelector(actor, (s) => s.matches({ search: 'searching' }) || s.matches({ search: 'debouncing' }));
  const error = useSelector(actor, (s) => s.context.error);
  return (
    <Card className="contract-sale-search">
      <FieldGroup label="Venta" labelFor="contract-sale-search" hint="Número de venta, titular, documento o lote">
        <InputGroup
          id="contract-sale-search"
          type="search"
          leftIcon="search"
          placeholder="Buscar venta…"
          value={query}
          onValueChange={(text) => actor.send({ type: 'sale.searchTyped', text })}
          rightElement={searching ? <Spinner size={16} /> : undefined}
        />
      </FieldGroup>
      {error ? <Callout intent="danger">{error}</Callout> : null}
      {results.length > 0 ? (
        <ul className="contract-sale-results" aria-label="Ventas encontradas">
          {results.map((sale) => (
            <li key={sale.id}>
              <Button
                variant="minimal"
                alignText="start"
                fill
                onClick={() => actor.send({ type: 'sale.pick', id: sale.id })}
                text={`${sale.number} · ${sale.titular} · ${sale.lotCode} (${sale.subdivisionName})`}
                endIcon={<Tag minimal>{SALE_STATUS_LABELS[sale.status as SaleStatus] ?? sale.status}</Tag>}
              />
            </li>
          ))}
        </ul>
      ) : query.trim() && !searching ? (
        <p className="bp6-text-muted">Ninguna venta coincide con la búsqueda.</p>
      ) : null}
    </Card>
  );
}

/** The chosen sale: its template choice or its contract (values form, actions, preview). */
function SaleContract({ actor }: { actor: GenerateActor }) {
  const loaded = useSelector(actor, (s) => s.context.loaded);
  const contract = useSelector(actor, (s) => s.context.contract);
  const preview = useSelector(actor, (s) => s.context.preview);
  const choosing = useSelector(actor, (s) => s.matches('choosing'));
  const confirmingDiscard = useSelector(actor, (s) => s.matches({ contract: 'confirmingDiscard' }));
  if (!loaded) return null;
  const { sale } = loaded;
  const labels = Object.fromEntries((preview?.missing ?? []).map((m) => [m.key, m.label]));
  return (
    <div className="contract-generate-layout">
      <div className="contract-generate-side">
        <Card className="contract-sale-card">
          <h2 className="bp6-heading">Venta {sale.number}</h2>
          <p>
            {sale.titular} · {sale.lotCode} · {sale.subdivisionName}
          </p>
          <p className="bp6-text-muted">{CONTRACT_KIND_LABELS[sale.kind as ContractKind] ?? sale.kind}</p>
          <Button variant="minimal" icon="search" text="Cambiar venta" onClick={() => actor.send({ type: 'sale.change' })} />
        </Card>
        {choosing ? <TemplateChoice actor={actor} /> : null}
        {contract ? <ContractActions actor={actor} /> : null}
        {contract?.state === 'BORRADOR' ? <ValuesForm actor={actor} /> : null}
      </div>
      <div className="contract-generate-preview">
        {preview && contract ? (
          <ContractDocument doc={preview.doc} labels={labels} />
        ) : (
          <Callout icon="document" title="Vista previa">
            Cree el borrador para ver el contrato con los datos de la venta.
          </Callout>
        )}
      </div>
      <DiscardChangesAlert
        isOpen={confirmingDiscard}
        onDiscard={() => actor.send({ type: 'discard' })}
        onKeepEditing={() => actor.send({ type: 'keepEditing' })}
      />
    </div>
  );
}

/** The published templates of the sale's subdivision and kind; "Crear borrador". */
function TemplateChoice({ actor }: { actor: GenerateActor }) {
  const templates = useSelector(actor, (s) => s.context.loaded?.templates ?? []);
  const templateId = useSelector(actor, (s) => s.context.templateId);
  const creating = useSelector(actor, (s) => s.matches({ choosing: 'creating' }));
  const error = useSelector(actor, (s) => s.context.error);
  return (
    <Card>
      <FieldGroup label="Plantilla" labelFor="contract-template">
        <HTMLSelect
          id="contract-template"
          fill
          value={templateId ?? ''}
          disabled={templates.length === 0}
          onChange={(e) => actor.send({ type: 'template.picked', id: Number(e.currentTarget.value) })}
          options={
            templates.length
              ? templates.map((t) => ({ value: t.id, label: `${t.name} (versión ${t.versionNumber})` }))
              : [{ value: '', label: 'Sin plantillas publicadas' }]
          }
        />
      </FieldGroup>
      {error ? (
        <Callout intent="danger" className="contract-callout">
          {error}
        </Callout>
      ) : null}
      <Button
        intent="primary"
        icon="document"
        text="Crear borrador"
        loading={creating}
        disabled={templates.length === 0}
        onClick={() => actor.send({ type: 'contract.create' })}
      />
    </Card>
  );
}

/** The contract's state and what can be done with it. */
function ContractActions({ actor }: { actor: GenerateActor }) {
  const contract = useSelector(actor, (s) => s.context.contract)!;
  const missing = useSelector(actor, (s) => s.context.preview?.missing.length ?? 0);
  const busy = useSelector(actor, (s) => !s.matches({ contract: 'idle' }));
  const issuing = useSelector(actor, (s) => s.matches({ contract: 'issuing' }));
  const downloading = useSelector(actor, (s) => s.matches({ contract: 'downloading' }));
  const uploading = useSelector(actor, (s) => s.matches({ contract: 'uploading' }));
  const error = useSelector(actor, (s) => (s.matches({ contract: 'annulling' }) ? null : s.context.error));
  const scanError = useSelector(actor, (s) => s.context.scanError);
  const state = contract.state as ContractState;
  return (
    <Card className="contract-actions">
      <p className="contract-number">
        {contract.number ? <strong>{contract.number}</strong> : <span className="bp6-text-muted">Sin número (borrador)</span>}{' '}
        <ContractStateTag state={state} />
      </p>
      <p className="bp6-text-muted">
        Plantilla: {contract.template.name} (versión {contract.template.version_number})
      </p>
      {contract.annul_reason ? <p>Motivo de la anulación: {contract.annul_reason}</p> : null}
      {error ? (
        <Callout intent="danger" className="contract-callout" role="alert">
          {error}
        </Callout>
      ) : null}
      <ContractActionButtons
        contract={contract}
        busy={busy}
        idPrefix="contract"
        downloading={downloading}
        uploading={uploading}
        scanError={scanError}
        before={
          state === 'BORRADOR' ? (
            <Button
              intent="primary"
              icon="endorsed"
              text="Emitir"
              loading={issuing}
              disabled={busy || missing > 0}
              title={missing > 0 ? 'Complete los datos faltantes' : undefined}
              onClick={() => actor.send({ type: 'contract.issue' })}
            />
          ) : null
        }
        after={
          state === 'ANULADO' ? (
            <Button icon="refresh" text="Generar otro contrato" onClick={() => actor.send({ type: 'sale.reload' })} />
          ) : null
        }
        onDownloadPdf={() => actor.send({ type: 'pdf.download' })}
        onDownloadScan={() => actor.send({ type: 'scan.download' })}
        onAnnul={() => actor.send({ type: 'annul.request' })}
        onScanPicked={(file) => actor.send({ type: 'scan.picked', file })}
      />
      <AnnulAlert actor={actor} />
    </Card>
  );
}

/** "Anular" asks the reason. */
function AnnulAlert({ actor }: { actor: GenerateActor }) {
  const open = useSelector(actor, (s) => s.matches({ contract: 'annulling' }));
  const running = useSelector(actor, (s) => s.matches({ contract: { annulling: 'running' } }));
  const reason = useSelector(actor, (s) => s.context.annulReason);
  const error = useSelector(actor, (s) => s.context.annulError);
  return (
    <ContractAnnulAlert
      isOpen={open}
      running={running}
      reason={reason}
      error={error}
      idPrefix="contract"
      onConfirm={() => actor.send({ type: 'annul.confirm' })}
      onCancel={() => actor.send({ type: 'annul.cancel' })}
      onReasonChange={(text) => actor.send({ type: 'annul.changed', text })}
    >
      <p>El contrato quedará anulado y no podrá emitirse ni firmarse.</p>
    </ContractAnnulAlert>
  );
}

/** The missing values (asked, never printed blank) and the editable ones (the lot's boundaries). */
function ValuesForm({ actor }: { actor: GenerateActor }) {
  const preview = useSelector(actor, (s) => s.context.preview);
  const values = useSelector(actor, (s) => s.context.values);
  const fieldErrors = useSelector(actor, (s) => s.context.fieldErrors);
  const saving = useSelector(actor, (s) => s.matches({ contract: 'saving' }));
  const dirty = useSelector(actor, (s) => Object.keys(s.context.values).some((k) => s.context.values[k] !== (s.context.initial[k] ?? '')));
  const fields = valueFields(preview);
  if (fields.length === 0) return null;
  const missing = fields.filter((f) => f.missing);
  const editable = fields.filter((f) => !f.missing);
  const input = (field: (typeof fields)[number]) => {
    const id = `contract-value-${field.key.replace(/[^a-z0-9]/gi, '-')}`;
    return (
      <FieldGroup key={field.key} label={field.label} labelFor={id} error={fieldErrors[field.key]}>
        <InputGroup
          id={id}
          value={values[field.key] ?? ''}
          intent={fieldErrors[field.key] ? 'danger' : 'none'}
          aria-describedby={fieldErrors[field.key] ? `${id}-error` : undefined}
          onValueChange={(value) => actor.send({ type: 'value.changed', key: field.key, value })}
        />
      </FieldGroup>
    );
  };
  return (
    <Card className="contract-values">
      <form
        aria-label="Datos del contrato"
        onSubmit={(e) => {
          e.preventDefault();
          actor.send({ type: 'values.save' });
        }}
      >
        {missing.length > 0 ? (
          <>
            <h3 className="bp6-heading">Datos faltantes</h3>
            <Callout intent="warning" className="contract-callout">
              Complete estos datos: el contrato no se emite con espacios en blanco.
            </Callout>
            {missing.map(input)}
          </>
        ) : null}
        {editable.length > 0 ? (
          <>
            <h3 className="bp6-heading">Linderos del lote</h3>
            {editable.map(input)}
          </>
        ) : null}
        <Button type="submit" intent="primary" icon="floppy-disk" text="Guardar datos" loading={saving} disabled={!dirty} />
      </form>
    </Card>
  );
}
