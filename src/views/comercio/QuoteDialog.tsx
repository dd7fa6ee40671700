import { Button, Callout, Classes, DialogBody, DialogFooter, HTMLTable, Tag } from '@blueprintjs/core';
import { Dialog, NumericInput } from '../shared/BlueprintEs';
import { ScrollRegion } from '../shared/ScrollRegion';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { QuoteFormMachine, QuoteValues } from '../../machines/comercio/quote-form.machine';
import { PaymentTermsFields } from './PaymentTermsFields';
import { PlanTotals } from './sale-parts';
import { QUOTE_STATUS_LABELS, QUOTE_VALID_DAYS } from '../../schemas/comercio/quotes';
import { formatMoney } from '../../lib/money';
import { formatDate } from '../../lib/dates';
import { FieldGroup } from '../shared/FieldGroup';
import { CustomerSuggest, LookupSuggest, type LookupSuggestText } from '../shared/CustomerSuggest';
import type { LotOption } from '../../schemas/comercio/lot-options';
import { DiscardChangesAlert } from '../shared/DiscardChangesAlert';
import { useReturnFocus } from '../shared/focus-return';

/** How the lot picker of a customer's quote shows the lots. */
const LOT_TEXT: LookupSuggestText<LotOption> = {
  label: (l) => l.code,
  detail: (l) => l.subdivision_name,
  placeholder: 'Buscar lote…',
  none: 'No se encontraron lotes disponibles',
};
import '../../styles/comercio.css';

/**
 * "Cotizar lote" (issue "CRM and sales"): the quote dialog over its machine
 * (comercio/quote-form.machine.ts). Customer by search; discount and down payment as an amount or
 * a %; the down payment's parts; instalments, monthly rate, method, first due date, validity. The
 * simulation (totals and the schedule) is the machine's, recomputed on every change with the
 * server's maths. Once saved it shows the quote's number, "Descargar PDF" and "Marcar como enviada".
 * Keyboard (docs/decisions.md "Keyboard and focus"): closing a form with typed data asks
 * "¿Descartar los cambios?" (the machine's `confirmingDiscard`); when the dialog closes, focus
 * returns to the control that opened it.
 */
export function QuoteDialog({ actor }: { actor: ActorRefFrom<QuoteFormMachine> }) {
  const open = useSelector(actor, (s) => !s.matches('closed'));
  const confirmingDiscard = useSelector(actor, (s) => s.matches('confirmingDiscard'));
  useReturnFocus(open);
  const busy = useSelector(actor, (s) => s.matches('submitting') || s.matches('sending') || s.matches('downloading'));
  const downloading = useSelector(actor, (s) => s.matches('downloading'));
  const saved = useSelector(actor, (s) =>
    s.matches('saved') || s.matches('sending') || s.matches('downloading') ? s.context.saved : null,
  );
  const lot = useSelector(actor, (s) => s.context.lot);
  const customer = useSelector(actor, (s) => s.context.customer);
  const values = useSelector(actor, (s) => s.context.values);
  const plan = useSelector(actor, (s) => s.context.plan);
  const errors = useSelector(actor, (s) => s.context.errors);
  const formError = useSelector(actor, (s) => s.context.formError);
  const lookup = useSelector(actor, (s) => s.context.customers);
  const lotLookup = useSelector(actor, (s) => s.context.lots);
  const lotFixed = useSelector(actor, (s) => s.context.lotFixed);
  const close = () => actor.send({ type: 'quote.close' });
  const change = (v: Partial<QuoteValues>) => actor.send({ type: 'quote.changed', values: v });
  const currency = lot?.currency ?? 'PEN';
  const money = (cents: number) => formatMoney(cents, currency);
  return (
    <Dialog
      isOpen={open}
      onClose={close}
      title={
        lotFixed && lot ? `Cotizar lote ${lot.code}` : customer && !lotFixed ? `Cotizar para ${customer.display_name}` : 'Cotizar lote'
      }
      canEscapeKeyClose={!busy}
      canOutsideClickClose={false}
      isCloseButtonShown={!busy}
      className="quote-dialog"
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          actor.send({ type: 'quote.submit' });
        }}
      >
        <DialogBody>
          {formError ? (
            <Callout intent="danger" role="alert" className="editor-form-error">
              {formError}
            </Callout>
          ) : null}
          <div className="quote-layout">
            <div>
              {saved ? (
                <Callout intent="success" icon="tick-circle" className="editor-form-error" title={`Cotización ${saved.number}`}>
                  {saved.customer.display_name} · {money(saved.final_price)} · válida hasta {formatDate(saved.valid_until)} ·{' '}
                  <Tag minimal>{QUOTE_STATUS_LABELS[saved.status]}</Tag>
                </Callout>
              ) : (
                <>
                  <FieldGroup label="Cliente" labelFor="quote-customer" error={errors.customer_id} hint="Busque por nombre o documento">
                    <CustomerSuggest
                      id="quote-customer"
                      lookup={lookup}
                      selected={customer}
                      onSelect={(c) => actor.send({ type: 'quote.customer', customer: c })}
                      disabled={busy}
                      invalid={Boolean(errors.customer_id)}
                    />
                  </FieldGroup>
                  {lotFixed ? null : (
                    <FieldGroup label="Lote" labelFor="quote-lot" error={errors.lot_id} hint="Código del lote o nombre de la lotización">
                      <LookupSuggest<LotOption>
                        id="quote-lot"
                        lookup={lotLookup}
                        selected={
                          lot
                            ? {
                                id: lot.id,
                                code: lot.code,
                                subdivision_name: '',
                                currency: lot.currency,
                                list_price: lot.listPrice,
                                status: '',
                              }
                            : null
                        }
                        onSelect={(l) => actor.send({ type: 'quote.lot', lot: l })}
                        disabled={busy}
                        invalid={Boolean(errors.lot_id)}
                        text={LOT_TEXT}
                      />
                    </FieldGroup>
                  )}
                  <p className={Classes.TEXT_MUTED}>Precio de lista: {lot ? money(lot.listPrice) : '—'}</p>
                  <div className="form-grid">
                    <PaymentTermsFields
                      idPrefix="quote"
                      values={values}
                      errors={errors}
                      currency={currency}
                      busy={busy}
                      onChange={change}
                    />
                    <FieldGroup label="Válida por (días)" labelFor="quote-valid-days" error={errors.valid_days}>
                      <NumericInput
                        id="quote-valid-days"
                        fill
                        min={QUOTE_VALID_DAYS.min}
                        max={QUOTE_VALID_DAYS.max}
                        value={values.validDays}
                        disabled={busy}
                        onValueChange={(n) => change({ validDays: Number.isNaN(n) ? QUOTE_VALID_DAYS.default : n })}
                      />
                    </FieldGroup>
                  </div>
                </>
              )}
            </div>
            {plan ? (
              <section aria-label="Simulación" className="quote-simulation">
                <PlanTotals
                  plan={plan}
                  currency={currency}
                  method={values.method}
                  monthlyRatePercent={values.rateText.trim().replace(',', '.') || '0'}
                />
                {plan.schedule.length > 0 ? (
                  <ScrollRegion className="quote-schedule" label="Tabla: Cronograma simulado">
                    <HTMLTable compact striped aria-label="Cronograma simulado">
                      <thead>
                        <tr>
                          <th>N.º</th>
                          <th>Vence</th>
                          <th className="num">Cuota</th>
                          <th className="num">Capital</th>
                          <th className="num">Interés</th>
                          <th className="num">Saldo</th>
                        </tr>
                      </thead>
                      <tbody>
                        {plan.schedule.map((r) => (
                          <tr key={r.number}>
                            <td>{r.number}</td>
                            <td>{formatDate(r.dueDate.toString())}</td>
                            <td className="num">{money(r.amountCents)}</td>
                            <td className="num">{money(r.capitalCents)}</td>
                            <td className="num">{money(r.interestCents)}</td>
                            <td className="num">{money(r.balanceCents)}</td>
                          </tr>
                        ))}
                      </tbody>
                    </HTMLTable>
                  </ScrollRegion>
                ) : null}
              </section>
            ) : null}
          </div>
        </DialogBody>
        <DialogFooter
          actions={
            saved ? (
              <>
                <Button
                  icon="document"
                  text="Descargar PDF"
                  loading={downloading}
                  disabled={busy}
                  onClick={() => actor.send({ type: 'quote.downloadPdf' })}
                />
                {saved.status === 'BORRADOR' ? (
                  <Button
                    icon="send-message"
                    text="Marcar como enviada"
                    loading={busy && !downloading}
                    disabled={busy}
                    onClick={() => actor.send({ type: 'quote.markSent' })}
                  />
                ) : null}
                <Button intent="primary" text="Cerrar" disabled={busy} onClick={close} />
              </>
            ) : (
              <>
                <Button text="Cancelar" onClick={close} disabled={busy} />
                <Button type="submit" intent="primary" icon="floppy-disk" text="Guardar cotización" loading={busy} />
              </>
            )
          }
        />
      </form>
      {/* Blueprint's Alert draws in its own portal, stacked over the dialog. */}
      <DiscardChangesAlert
        isOpen={confirmingDiscard}
        onDiscard={() => actor.send({ type: 'quote.discard' })}
        onKeepEditing={() => actor.send({ type: 'quote.keepEditing' })}
      />
    </Dialog>
  );
}
