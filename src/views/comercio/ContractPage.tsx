import { lazy, Suspense, use } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { useLocation, useSearch } from 'wouter';
import { Button, Callout, Classes, HTMLTable, Icon, InputGroup, NonIdealState, Spinner, Tab, Tabs, Tag } from '@blueprintjs/core';
import { HTMLSelect, OutsideTabPanel } from '../shared/BlueprintEs';
import { ScrollRegion } from '../shared/ScrollRegion';
import {
  CONTRACT_STEPS,
  CONTRACT_STEP_LABELS,
  stepsWithErrors,
  type ContractMachine,
  type ContractStep,
} from '../../machines/comercio/contract-form.machine';
import type { ContractMachines } from '../../machines/comercio/contract.actors';
import { inspectOption } from '../../machines/inspect';
import {
  AGENT_SOURCE_LABELS,
  HOLDER_ROLES,
  HOLDER_ROLE_LABELS,
  SALE_STATUS_LABELS,
  SALE_TYPE_LABELS,
  type HolderRole,
  type Sale,
} from '../../schemas/comercio/sales';
import { QUOTE_METHOD_LABELS } from '../../schemas/comercio/quotes';
import { formatArea, formatMoney, parseMoneyInput } from '../../lib/money';
import { formatDate } from '../../lib/dates';
import { useServices, useSession } from '../services';
import { AUTH_ROUTES, generateContractPath } from '../../config/paths';
import { hasPermissions, selectPermissions } from '../../machines/session/session.selectors';
import { ACTION } from '../../schemas/permissions';
import type { Quote } from '../../schemas/comercio/quotes';
import { CustomerSuggest } from '../shared/CustomerSuggest';
import { FieldGroup } from '../shared/FieldGroup';
import { PaymentTermsFields } from './PaymentTermsFields';
import { PlanTotals, SaleCreditCostRows, SaleScheduleTable } from './sale-parts';
import '../../styles/comercio.css';

/** The Spanish date field (dd/mm/aaaa; @blueprintjs/datetime), loaded with the editable schedule. */
const IsoDateInput = lazy(() => import('../shared/IsoDateInput').then((m) => ({ default: m.IsoDateInput })));

/**
 * Comercial → Contrato (/COMERCIO/Contrato/{id_sale}; issue "CRM and sales"; DOMAIN.md "Contract"):
 * `nuevo?lote={id}` is the stepper of a new sale — Compradores → Lote y precio → Plan de pago (the
 * schedule editable row by row, the sums kept exact) → Revisión → "Confirmar venta"; a sale's id
 * shows that sale (buyers, price, plan, schedule). The selling agent ("Asesor") is proposed by the
 * server and chosen only by a user with 'Supervisar leads'; the plan starts from the buyers' latest
 * valid quote of the lot, said in a callout (docs/domain.md "Sales"). Everything is the machine's
 * (comercio/contract-form.machine.ts); this view renders it and sends the user's events.
 */
export function ContractScreen({ params }: { params: Record<string, string> }) {
  const machines = use(useServices().machines.contract());
  const search = useSearch();
  const idSale = params.id_sale ?? '';
  const saleId = /^\d+$/.test(idSale) ? Number(idSale) : null;
  const lot = new URLSearchParams(search).get('lote');
  const lotId = saleId === null && lot && /^\d+$/.test(lot) ? Number(lot) : null;
  // A new address (the registered sale, another lot) is a new page.
  return <ContractPage key={`${idSale}?${lotId ?? ''}`} machines={machines} saleId={saleId} lotId={lotId} />;
}

export function ContractPage({ machines, saleId, lotId }: { machines: ContractMachines; saleId: number | null; lotId: number | null }) {
  const { today } = useServices();
  const canChooseAgent = hasPermissions(useSession(selectPermissions), [ACTION.supervisarLeads]);
  const actor = useActorRef(machines.contract, { input: { saleId, lotId, today: today(), canChooseAgent }, ...inspectOption() });
  const loading = useSelector(actor, (s) => s.matches('start') || s.matches('loadingSale') || s.matches('loadingLot'));
  const failed = useSelector(actor, (s) => (s.matches('failed') ? s.context.loadError : null));
  const sale = useSelector(actor, (s) => (s.matches('viewing') ? s.context.sale : null));
  const lot = useSelector(actor, (s) => s.context.lot);
  return (
    <section className="comercio-page contract-page" aria-labelledby="contrato-title">
      <h1 id="contrato-title" className="bp6-heading comercio-page-title">
        {sale ? `Venta ${sale.number}` : lot ? `Nueva venta · lote ${lot.code}` : 'Contrato'}
      </h1>
      {loading ? <Spinner size={32} aria-label="Cargando" /> : null}
      {failed ? (
        <NonIdealState
          icon="error"
          title="No se puede mostrar el contrato"
          description={failed}
          action={<Button text="Reintentar" onClick={() => actor.send({ type: 'contract.retry' })} />}
        />
      ) : null}
      {sale ? <SaleReview sale={sale} /> : null}
      {!loading && !failed && !sale ? <Stepper actor={actor} /> : null}
    </section>
  );
}

type ContractActor = ActorRefFrom<ContractMachine>;

/** The four steps with their tabs and the Anterior / Siguiente / Confirmar buttons. */
function Stepper({ actor }: { actor: ContractActor }) {
  const step = useSelector(actor, (s) => s.context.step);
  const shown = useSelector(actor, (s) => s.context.shown);
  const failing = useSelector(
    actor,
    (s) => stepsWithErrors(s.context),
    (a, b) => a.join() === b.join(),
  );
  const submitting = useSelector(actor, (s) => s.matches('submitting'));
  const index = CONTRACT_STEPS.indexOf(step);
  return (
    <>
      <Tabs
        id="contract-steps"
        selectedTabId={step}
        onChange={(id) => actor.send({ type: 'contract.goto', step: id as ContractStep })}
        className="contract-steps"
      >
        {CONTRACT_STEPS.map((s, k) => (
          <Tab
            key={s}
            id={s}
            disabled={submitting}
            title={
              <span className="contract-step-title">
                <Tag round minimal={s !== step} intent={shown.includes(s) && failing.includes(s) ? 'danger' : 'primary'}>
                  {k + 1}
                </Tag>{' '}
                {CONTRACT_STEP_LABELS[s]}
              </span>
            }
          />
        ))}
      </Tabs>
      <OutsideTabPanel tabsId="contract-steps" selectedTabId={step}>
        <div className="contract-step" role="group" aria-label={CONTRACT_STEP_LABELS[step]}>
          {step === 'compradores' ? <BuyersStep actor={actor} /> : null}
          {step === 'lote' ? <LotStep actor={actor} /> : null}
          {step === 'plan' ? <PlanStep actor={actor} /> : null}
          {step === 'revision' ? <ReviewStep actor={actor} /> : null}
        </div>
      </OutsideTabPanel>
      <div className="contract-nav">
        <Button
          icon="arrow-left"
          text="Anterior"
          disabled={index === 0 || submitting}
          onClick={() => actor.send({ type: 'contract.back' })}
        />
        {step === 'revision' ? (
          <Button
            intent="success"
            icon="tick"
            text="Confirmar venta"
            loading={submitting}
            onClick={() => actor.send({ type: 'contract.submit' })}
          />
        ) : (
          <Button intent="primary" rightIcon="arrow-right" text="Siguiente" onClick={() => actor.send({ type: 'contract.next' })} />
        )}
      </div>
    </>
  );
}

/** A step's errors, once shown. */
function useStepErrors(actor: ContractActor, step: ContractStep) {
  return useSelector(actor, (s) => (s.context.shown.includes(step) ? s.context.errors : {}));
}

function BuyersStep({ actor }: { actor: ContractActor }) {
  const holders = useSelector(actor, (s) => s.context.holders);
  const guarantor = useSelector(actor, (s) => s.context.guarantor);
  const spouse = useSelector(actor, (s) => s.context.spouseProposal);
  const holderLookup = useSelector(actor, (s) => s.context.holderLookup);
  const guarantorLookup = useSelector(actor, (s) => s.context.guarantorLookup);
  const errors = useStepErrors(actor, 'compradores');
  const total = holders.reduce((sum, h) => sum + Math.round(Number(h.shareText.replace(',', '.')) * 100 || 0), 0) / 100;
  const titular = holders.find((h) => h.role === 'TITULAR');
  return (
    <>
      {errors.holders ? (
        <Callout intent="danger" role="alert" className="crm-callout">
          {errors.holders}
        </Callout>
      ) : null}
      {spouse && titular ? (
        <Callout intent="primary" icon="people" className="crm-callout" title="Sociedad de gananciales">
          {titular.customer.display_name} es casado(a) o conviviente: su cónyuge {spouse.display_name} debe figurar como Cónyuge.{' '}
          <Button size="small" intent="primary" text="Agregar cónyuge" onClick={() => actor.send({ type: 'contract.addSpouse' })} />
        </Callout>
      ) : null}
      <HTMLTable compact className="contract-holders" aria-label="Compradores">
        <thead>
          <tr>
            <th>Cliente</th>
            <th>Rol</th>
            <th>Participación (%)</th>
            <th aria-label="Acciones" />
          </tr>
        </thead>
        <tbody>
          {holders.length === 0 ? (
            <tr>
              <td colSpan={4} className={Classes.TEXT_MUTED}>
                Agregue al menos un comprador.
              </td>
            </tr>
          ) : null}
          {holders.map((h, k) => (
            <tr key={h.customer.id}>
              <td>
                {h.customer.display_name}
                {h.customer.document_number ? <span className={Classes.TEXT_MUTED}> · {h.customer.document_number}</span> : null}
              </td>
              <td>
                <HTMLSelect
                  aria-label={`Rol de ${h.customer.display_name}`}
                  value={h.role}
                  onChange={(e) => actor.send({ type: 'contract.holderChanged', index: k, role: e.target.value as HolderRole })}
                  options={HOLDER_ROLES.map((r) => ({ value: r, label: HOLDER_ROLE_LABELS[r] }))}
                />
              </td>
              <td>
                <InputGroup
                  aria-label={`Participación de ${h.customer.display_name}`}
                  inputMode="decimal"
                  value={h.shareText}
                  className="contract-share"
                  onValueChange={(t) => actor.send({ type: 'contract.holderChanged', index: k, shareText: t })}
                />
              </td>
              <td>
                <Button
                  variant="minimal"
                  icon="trash"
                  aria-label={`Quitar a ${h.customer.display_name}`}
                  onClick={() => actor.send({ type: 'contract.removeHolder', index: k })}
                />
              </td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <td colSpan={2}>Suma de participaciones</td>
            <td className={total === 100 ? undefined : 'contract-off'}>{total} %</td>
            <td />
          </tr>
        </tfoot>
      </HTMLTable>
      <div className="form-grid">
        <FieldGroup label="Agregar comprador" labelFor="contract-holder" hint="Busque por nombre o documento">
          <CustomerSuggest
            id="contract-holder"
            lookup={holderLookup}
            selected={null}
            onSelect={(c) => actor.send({ type: 'contract.addHolder', customer: c })}
          />
        </FieldGroup>
        <FieldGroup label="Garante (opcional)" labelFor="contract-guarantor" error={errors.guarantor_customer_id}>
          <CustomerSuggest
            id="contract-guarantor"
            lookup={guarantorLookup}
            selected={guarantor}
            onSelect={(c) => actor.send({ type: 'contract.guarantor', customer: c })}
            invalid={Boolean(errors.guarantor_customer_id)}
            rightElement={
              guarantor ? (
                <Button
                  variant="minimal"
                  icon="cross"
                  aria-label="Quitar garante"
                  onClick={() => actor.send({ type: 'contract.guarantor', customer: null })}
                />
              ) : undefined
            }
          />
        </FieldGroup>
        <AgentField actor={actor} error={errors.agent_id} />
      </div>
    </>
  );
}

/** "Asesor": the selling agent — a select for a user who may choose it, read-only otherwise. */
function AgentField({ actor, error }: { actor: ContractActor; error?: string | undefined }) {
  const agent = useSelector(actor, (s) => s.context.agent);
  const source = useSelector(actor, (s) => s.context.agentSource);
  const canChoose = useSelector(actor, (s) => s.context.canChooseAgent);
  const staff = useSelector(actor, (s) => s.context.staff);
  const proposing = useSelector(actor, (s) => s.matches({ editing: { agent: 'proposing' } }));
  const hint = source ? `Propuesto: ${AGENT_SOURCE_LABELS[source]}` : agent ? 'Elegido por usted' : undefined;
  const options = agent && !staff.some((s) => s.id === agent.id) ? [agent, ...staff] : staff;
  return (
    <FieldGroup label="Asesor" labelFor="contract-agent" hint={proposing ? 'Buscando el asesor…' : hint} error={error}>
      {canChoose ? (
        <HTMLSelect
          id="contract-agent"
          fill
          value={agent ? String(agent.id) : ''}
          onChange={(e) => actor.send({ type: 'contract.agent', agentId: Number(e.target.value) })}
          options={[
            ...(agent ? [] : [{ value: '', label: 'Seleccione el asesor' }]),
            ...options.map((s) => ({ value: String(s.id), label: `${s.name} ${s.surname}`.trim() })),
          ]}
        />
      ) : (
        <InputGroup id="contract-agent" readOnly value={agent ? `${agent.name} ${agent.surname}`.trim() : ''} />
      )}
    </FieldGroup>
  );
}

/** "Plan tomado de la cotización …": the quote the plan starts from (still editable). */
function QuoteCallout({ quote }: { quote: Quote | null }) {
  if (!quote) return null;
  return (
    <Callout intent="primary" icon="document" className="crm-callout">
      Plan tomado de la cotización {quote.number} del {formatDate(quote.quote_date ?? quote.created_at)}; puede cambiarlo.
    </Callout>
  );
}

function LotStep({ actor }: { actor: ContractActor }) {
  const lot = useSelector(actor, (s) => s.context.lot);
  const reservation = useSelector(actor, (s) => s.context.reservation);
  const values = useSelector(actor, (s) => s.context.values);
  const plan = useSelector(actor, (s) => s.context.plan);
  const errors = useStepErrors(actor, 'lote');
  const allErrors = useSelector(actor, (s) => s.context.errors);
  const quote = useSelector(actor, (s) => s.context.quote);
  if (!lot) return null;
  const money = (cents: number) => formatMoney(cents, lot.currency);
  return (
    <>
      <QuoteCallout quote={quote} />
      {errors.reservation_id ? (
        <Callout intent="danger" role="alert" className="crm-callout">
          {errors.reservation_id}
        </Callout>
      ) : null}
      <dl className="quote-totals contract-lot">
        <dt>Lote</dt>
        <dd>{lot.code}</dd>
        <dt>Área</dt>
        <dd>{formatArea(lot.area_m2)}</dd>
        <dt>Precio de lista</dt>
        <dd>{money(lot.list_price)}</dd>
        {plan ? (
          <>
            <dt>Descuento</dt>
            <dd>{money(plan.discountCents)}</dd>
            <dt>Precio final</dt>
            <dd>
              <strong>{money(plan.finalPriceCents)}</strong>
            </dd>
          </>
        ) : null}
      </dl>
      {reservation?.status === 'VIGENTE' ? (
        <Callout intent="success" icon="bookmark" className="crm-callout">
          Separación {reservation.number} de {reservation.customer.display_name}: {money(reservation.amount)} (pago aprobado) se abonan a la
          cuota inicial.
        </Callout>
      ) : reservation ? (
        <Callout intent="warning" icon="time" className="crm-callout">
          Separación {reservation.number} de {reservation.customer.display_name}: su pago de {money(reservation.amount)} aún no está
          aprobado. Solo se abona dinero aprobado: apruébelo en Finanzas → Pagos (o anule la separación) antes de vender.
        </Callout>
      ) : (
        <p className={Classes.TEXT_MUTED}>Venta directa: el lote no tiene una separación vigente.</p>
      )}
      <div className="form-grid">
        <PaymentTermsFields
          idPrefix="contract"
          part="discount"
          values={values}
          errors={allErrors}
          currency={lot.currency}
          busy={false}
          onChange={(v) => actor.send({ type: 'contract.termsChanged', values: v })}
        />
      </div>
    </>
  );
}

/** The instalments as typed (céntimos), or undefined while one cannot be read (the plan's are shown). */
function editedInstalments(rows: readonly { kind: string; amountText: string }[]): number[] | undefined {
  const amounts = rows.filter((r) => r.kind === 'CUOTA').map((r) => parseMoneyInput(r.amountText));
  return amounts.every((a): a is number => a !== null) ? amounts : undefined;
}

function PlanStep({ actor }: { actor: ContractActor }) {
  const lot = useSelector(actor, (s) => s.context.lot);
  const values = useSelector(actor, (s) => s.context.values);
  const errors = useSelector(actor, (s) => s.context.errors);
  const plan = useSelector(actor, (s) => s.context.plan);
  const rows = useSelector(actor, (s) => s.context.rows);
  const edited = useSelector(actor, (s) => s.context.edited);
  const rowsReset = useSelector(actor, (s) => s.context.rowsReset);
  const scheduleErrors = useSelector(actor, (s) => s.context.scheduleErrors);
  const reservation = useSelector(actor, (s) => s.context.reservation);
  const quote = useSelector(actor, (s) => s.context.quote);
  const currency = lot?.currency ?? 'PEN';
  const money = (cents: number) => formatMoney(cents, currency);
  return (
    <div className="quote-layout">
      <div>
        <QuoteCallout quote={quote} />
        <div className="form-grid">
          <PaymentTermsFields
            idPrefix="contract"
            part="payment"
            values={values}
            errors={errors}
            currency={currency}
            busy={false}
            onChange={(v) => actor.send({ type: 'contract.termsChanged', values: v })}
          />
        </div>
        {plan ? (
          <PlanTotals
            plan={plan}
            currency={currency}
            creditCents={reservation?.amount ?? 0}
            method={values.method}
            monthlyRatePercent={values.rateText.trim().replace(',', '.') || '0'}
            instalmentsCents={edited ? editedInstalments(rows) : undefined}
          />
        ) : null}
      </div>
      <section aria-label="Cronograma" className="quote-simulation">
        <p className={Classes.TEXT_MUTED}>Puede cambiar la fecha y el monto de cada fila; las sumas deben mantenerse exactas.</p>
        {rowsReset ? (
          <Callout intent="warning" compact className="crm-callout">
            El plan cambió: el cronograma se recalculó y se descartaron las ediciones.
          </Callout>
        ) : null}
        {scheduleErrors.length > 0 ? (
          <Callout intent="danger" role="alert" compact className="crm-callout" title="El cronograma no cuadra">
            <ul className="contract-errors">
              {scheduleErrors.map((e) => (
                <li key={e}>{e}</li>
              ))}
            </ul>
          </Callout>
        ) : null}
        {edited ? <Button icon="reset" text="Restablecer cronograma" onClick={() => actor.send({ type: 'contract.resetRows' })} /> : null}
        {rows.length > 0 ? (
          <ScrollRegion className="quote-schedule contract-schedule" label="Tabla: Cronograma editable">
            <HTMLTable compact striped aria-label="Cronograma editable">
              <thead>
                <tr>
                  <th>Cuota</th>
                  <th>Vence</th>
                  <th className="num">Monto</th>
                  <th className="num">Interés</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((r, k) => {
                  const label = r.kind === 'INICIAL' ? `Inicial ${r.number}` : `Cuota ${r.number}`;
                  return (
                    <tr key={`${r.kind}-${r.number}`}>
                      <td>{label}</td>
                      <td>
                        <Suspense fallback={<InputGroup aria-label={`Vencimiento de ${label}`} disabled value={r.dueDate} readOnly />}>
                          <IsoDateInput
                            ariaLabel={`Vencimiento de ${label}`}
                            value={r.dueDate}
                            onChange={(t) => actor.send({ type: 'contract.rowChanged', index: k, dueDate: t })}
                          />
                        </Suspense>
                      </td>
                      <td className="num">
                        <InputGroup
                          aria-label={`Monto de ${label}`}
                          inputMode="decimal"
                          value={r.amountText}
                          className="contract-amount"
                          onValueChange={(t) => actor.send({ type: 'contract.rowChanged', index: k, amountText: t })}
                        />
                      </td>
                      <td className="num">{money(r.interestCents)}</td>
                    </tr>
                  );
                })}
              </tbody>
            </HTMLTable>
          </ScrollRegion>
        ) : plan ? (
          <p>Al contado: sin cuotas.</p>
        ) : null}
      </section>
    </div>
  );
}

function ReviewStep({ actor }: { actor: ContractActor }) {
  const lot = useSelector(actor, (s) => s.context.lot);
  const holders = useSelector(actor, (s) => s.context.holders);
  const guarantor = useSelector(actor, (s) => s.context.guarantor);
  const values = useSelector(actor, (s) => s.context.values);
  const plan = useSelector(actor, (s) => s.context.plan);
  const reservation = useSelector(actor, (s) => s.context.reservation);
  const edited = useSelector(actor, (s) => s.context.edited);
  const formError = useSelector(actor, (s) => s.context.formError);
  const agent = useSelector(actor, (s) => s.context.agent);
  const quote = useSelector(actor, (s) => s.context.quote);
  if (!lot) return null;
  const money = (cents: number) => formatMoney(cents, lot.currency);
  return (
    <>
      {formError ? (
        <Callout intent="danger" role="alert" className="crm-callout">
          {formError}
        </Callout>
      ) : null}
      <dl className="quote-totals contract-review">
        <dt>Lote</dt>
        <dd>
          {lot.code} · {formatArea(lot.area_m2)}
        </dd>
        {holders.map((h) => (
          <Row key={h.customer.id} label={HOLDER_ROLE_LABELS[h.role]} value={`${h.customer.display_name} (${h.shareText} %)`} />
        ))}
        {guarantor ? <Row label="Garante" value={guarantor.display_name} /> : null}
        {agent ? <Row label="Asesor" value={`${agent.name} ${agent.surname}`.trim()} /> : null}
        {reservation ? <Row label="Separación" value={`${reservation.number}: ${money(reservation.amount)}`} /> : null}
        {quote ? <Row label="Cotización" value={quote.number} /> : null}
        {plan ? (
          <>
            <Row label="Precio de lista" value={money(plan.listPriceCents)} />
            <Row label="Descuento" value={money(plan.discountCents)} />
            <Row label="Precio final" value={money(plan.finalPriceCents)} />
            <Row
              label="Cuota inicial"
              value={`${money(plan.downPaymentCents)}${plan.downPayment.length > 1 ? ` en ${plan.downPayment.length} partes` : ''}`}
            />
            <Row
              label="Plan"
              value={
                plan.schedule.length > 0
                  ? `${plan.schedule.length} cuotas · ${QUOTE_METHOD_LABELS[values.method]} · ${values.rateText || '0'} % mensual${edited ? ' · cronograma editado' : ''}`
                  : 'Al contado'
              }
            />
            <Row label="Intereses" value={money(plan.totalInterestCents)} />
            <dt>Total a pagar</dt>
            <dd>
              <strong>{money(plan.totalToPayCents)}</strong>
            </dd>
          </>
        ) : null}
      </dl>
      <p className={Classes.TEXT_MUTED}>
        <Icon icon="info-sign" size={12} /> Al confirmar, el lote pasa a Vendido
        {reservation ? ' y la separación queda convertida' : ''}.
      </p>
    </>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </>
  );
}

/** A registered sale read back: its figures and schedule, and the way to the sales list. */
function SaleReview({ sale }: { sale: Sale }) {
  const [, navigate] = useLocation();
  const canGenerateContract = hasPermissions(useSession(selectPermissions), AUTH_ROUTES.generarContrato.permissions);
  const money = (cents: number) => formatMoney(cents, sale.currency);
  return (
    <div className="quote-layout">
      <div>
        <div className="sale-status">
          <Tag minimal intent={sale.status === 'ANULADA' ? 'danger' : 'primary'}>
            {SALE_STATUS_LABELS[sale.status]}
          </Tag>
          <span className={Classes.TEXT_MUTED}>{formatDate(sale.sale_date)}</span>
        </div>
        <dl className="quote-totals">
          <Row label="Lote" value={`${sale.lot.code}${sale.lot.subdivision_name ? ` · ${sale.lot.subdivision_name}` : ''}`} />
          {sale.holders.map((h) => (
            <Row key={h.id} label={HOLDER_ROLE_LABELS[h.role as HolderRole] ?? h.role} value={`${h.display_name} (${h.share_percent} %)`} />
          ))}
          {sale.guarantor ? <Row label="Garante" value={sale.guarantor.display_name} /> : null}
          {sale.agent ? <Row label="Asesor" value={`${sale.agent.name} ${sale.agent.surname}`.trim()} /> : null}
          <Row label="Tipo" value={SALE_TYPE_LABELS[sale.type as keyof typeof SALE_TYPE_LABELS] ?? sale.type} />
          <Row label="Precio final" value={money(sale.final_price)} />
          <Row label="Cuota inicial" value={money(sale.down_payment)} />
          <Row label="Intereses" value={money(sale.total_interest)} />
          <SaleCreditCostRows sale={sale} />
          <Row label="Pagado" value={money(sale.paid)} />
          <dt>Saldo</dt>
          <dd>
            <strong>{money(sale.balance)}</strong>
          </dd>
        </dl>
        <Button icon="th-list" text="Ver en Ventas" onClick={() => navigate(`/COMERCIO/ventas?q=${encodeURIComponent(sale.number)}`)} />{' '}
        {canGenerateContract && sale.status !== 'ANULADA' ? (
          <Button intent="primary" icon="document" text="Generar contrato" onClick={() => navigate(generateContractPath(sale.id))} />
        ) : null}
      </div>
      <section aria-label="Cronograma" className="quote-simulation">
        <SaleScheduleTable sale={sale} />
      </section>
    </div>
  );
}
