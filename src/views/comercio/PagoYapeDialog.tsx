import {
  Button,
  Callout,
  Checkbox,
  Classes,
  DialogBody,
  DialogFooter,
  FileInput,
  InputGroup,
  Radio,
  RadioGroup,
  Spinner,
} from '@blueprintjs/core';
import { Dialog } from '../shared/BlueprintEs';
import { lazy, Suspense } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { PagoYapeMachine } from '../../machines/comercio/pago-yape.machine';
import { lateFeesOwed, payableInstalments } from '../../lib/finanzas/pago-yape';
import { formatMoney } from '../../lib/money';
import { formatDate } from '../../lib/dates';
import { FieldGroup } from '../shared/FieldGroup';
import { DiscardChangesAlert } from '../shared/DiscardChangesAlert';
import { useReturnFocus } from '../shared/focus-return';
import { instalmentLabel } from './MyPurchasesPage';
import '../../styles/purchases.css';

// The date field brings @blueprintjs/datetime: loaded with the dialog, not with the page.
const IsoDateInput = lazy(() => import('../shared/IsoDateInput').then((m) => ({ default: m.IsoDateInput })));

const WALLET_LABELS: Record<string, string> = { YAPE: 'Yape', PLIN: 'Plin' };

/**
 * PagoYape (issue 16 "Customer screens"): pick the instalments (oldest first: only the next one can
 * be added and only the last chosen removed), see the amount (every late fee owed plus the chosen
 * instalments), pay it to the company's Yape or Plin (its QR and phone), then type the operation
 * number and date and attach the capture. The machine (comercio/pago-yape.machine.ts) sends the
 * payment and the capture; the statement then says "Pago enviado: queda pendiente de revisión".
 * Keyboard (docs/decisions.md "Keyboard and focus"): Escape in the date field's calendar closes
 * only the calendar; closing a form with typed data asks "¿Descartar los cambios?" (the machine's
 * `confirmingDiscard`); when the dialog goes, focus returns to the button that opened it.
 */
export function PagoYapeDialog({ actor }: { actor: ActorRefFrom<PagoYapeMachine> }) {
  const purchase = useSelector(actor, (s) => s.context.purchase);
  const wallets = useSelector(actor, (s) => s.context.wallets);
  const count = useSelector(actor, (s) => s.context.count);
  const walletId = useSelector(actor, (s) => s.context.walletId);
  const operationNumber = useSelector(actor, (s) => s.context.operationNumber);
  const operationDate = useSelector(actor, (s) => s.context.operationDate);
  const today = useSelector(actor, (s) => s.context.today);
  const file = useSelector(actor, (s) => s.context.file);
  const amount = useSelector(actor, (s) => s.context.amount);
  const errors = useSelector(actor, (s) => s.context.errors);
  const error = useSelector(actor, (s) => s.context.error);
  const qrUrl = useSelector(actor, (s) => s.context.qrObjectUrl);
  const qrLoading = useSelector(actor, (s) => s.matches({ qr: 'loading' }));
  const qrFailed = useSelector(actor, (s) => s.matches({ qr: 'failed' }));
  const busy = useSelector(actor, (s) => s.matches({ flow: 'sending' }) || s.matches({ flow: 'uploading' }));
  const refiguring = useSelector(actor, (s) => s.matches({ flow: 'refiguring' }));
  const voucherFailed = useSelector(actor, (s) => s.matches({ flow: 'voucherFailed' }));
  const confirmingDiscard = useSelector(actor, (s) => s.matches({ flow: 'confirmingDiscard' }));
  // Mounted only while the machine runs: its unmount is the close.
  useReturnFocus(true);
  const money = (cents: number) => formatMoney(cents, purchase.currency);
  const payable = payableInstalments(purchase.schedule);
  const fees = lateFeesOwed(purchase.schedule);
  const wallet = wallets.find((w) => w.id === walletId) ?? null;
  const close = () => actor.send({ type: 'pay.close' });
  const locked = busy || voucherFailed;
  const pending = purchase.payments.filter((p) => p.status === 'PENDIENTE');
  // One payment waits for review at a time (docs/domain.md "Payments"): another would be refused after the customer paid it.
  const waiting = pending.length > 0 && !voucherFailed && !busy;
  return (
    <Dialog
      isOpen
      onClose={close}
      title="Pagar con Yape o Plin"
      className="pago-yape-dialog"
      canOutsideClickClose={false}
      canEscapeKeyClose={!busy}
      isCloseButtonShown={!busy}
    >
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          actor.send({ type: voucherFailed ? 'pay.retryVoucher' : 'pay.submit' });
        }}
      >
        <DialogBody>
          {error ? (
            <Callout intent={voucherFailed ? 'warning' : 'danger'} role="alert" className="purchases-callout">
              {voucherFailed ? <p>El pago quedó registrado, pero la captura no se pudo enviar: {error}</p> : error}
            </Callout>
          ) : null}
          {pending.length > 0 && !voucherFailed ? (
            <Callout intent="warning" icon="time" className="purchases-callout">
              {pending.length === 1
                ? `Tiene un pago de ${money(pending[0]!.amount)} pendiente de revisión.`
                : `Tiene ${pending.length} pagos pendientes de revisión.`}{' '}
              Espere su revisión antes de enviar otro pago: no pague dos veces.
            </Callout>
          ) : null}
          <div className="pago-yape-layout">
            <fieldset className="pago-yape-instalments" disabled={locked}>
              <legend className={Classes.HEADING}>Cuotas a pagar</legend>
              <p className={Classes.TEXT_MUTED}>Se pagan de la más antigua a la más reciente.</p>
              <ul aria-label="Cuotas pendientes">
                {payable.map((row, index) => {
                  const checked = index < count;
                  // Only a prefix: the next one can be added, the last chosen removed.
                  const enabled = index === count || index === count - 1;
                  return (
                    <li key={row.id}>
                      <Checkbox
                        checked={checked}
                        disabled={!enabled || locked}
                        onChange={() => actor.send({ type: 'pay.countChanged', count: checked ? index : index + 1 })}
                        labelElement={
                          <span className="pago-yape-row">
                            <span>
                              {instalmentLabel(row)} · vence {formatDate(row.due_date)}
                              {row.status === 'VENCIDA' ? <span className="pago-yape-overdue"> (vencida)</span> : null}
                            </span>
                            <span className="num">{money(row.balance)}</span>
                          </span>
                        }
                      />
                    </li>
                  );
                })}
              </ul>
              {errors.instalments ? (
                <p className="pago-yape-error" role="alert">
                  {errors.instalments}
                </p>
              ) : null}
              <dl className="pago-yape-total">
                {fees > 0 ? (
                  <>
                    <dt>Mora pendiente (se paga primero)</dt>
                    <dd>{money(fees)}</dd>
                  </>
                ) : null}
                <dt>Monto a pagar</dt>
                <dd className="pago-yape-amount" aria-label="Monto a pagar" aria-busy={refiguring || undefined}>
                  {refiguring ? <Spinner size={16} aria-label="Recalculando el monto para la fecha elegida" /> : money(amount)}
                </dd>
              </dl>
            </fieldset>
            <div className="pago-yape-wallet">
              {wallets.length > 1 ? (
                <RadioGroup
                  label="Billetera"
                  inline
                  selectedValue={walletId ?? undefined}
                  disabled={locked}
                  onChange={(e) => actor.send({ type: 'pay.walletChanged', id: Number(e.currentTarget.value) })}
                >
                  {wallets.map((w) => (
                    <Radio key={w.id} value={w.id} label={`${WALLET_LABELS[w.kind] ?? w.kind} ${w.phone}`} />
                  ))}
                </RadioGroup>
              ) : null}
              {wallet ? (
                <div className="pago-yape-qr">
                  {qrLoading ? <Spinner size={32} aria-label="Cargando QR" /> : null}
                  {qrUrl ? <img src={qrUrl} alt={`QR de ${WALLET_LABELS[wallet.kind] ?? wallet.kind}`} /> : null}
                  {qrFailed ? <p className={Classes.TEXT_MUTED}>No se pudo cargar el QR: use el número.</p> : null}
                  <p>
                    {WALLET_LABELS[wallet.kind] ?? wallet.kind} al <strong className="pago-yape-phone">{wallet.phone}</strong>
                    <br />
                    <span className={Classes.TEXT_MUTED}>{wallet.holder}</span>
                  </p>
                </div>
              ) : (
                <Callout intent="warning">La empresa no tiene billeteras activas: pague por transferencia bancaria.</Callout>
              )}
              {errors.wallet_id ? (
                <p className="pago-yape-error" role="alert">
                  {errors.wallet_id}
                </p>
              ) : null}
              <FieldGroup label="Número de operación" labelFor="pago-operation" error={errors.operation_number}>
                <InputGroup
                  id="pago-operation"
                  value={operationNumber}
                  maxLength={60}
                  disabled={locked}
                  intent={errors.operation_number ? 'danger' : 'none'}
                  aria-describedby={errors.operation_number ? 'pago-operation-error' : undefined}
                  onValueChange={(value) => actor.send({ type: 'pay.changed', field: 'operation_number', value })}
                />
              </FieldGroup>
              <FieldGroup label="Fecha de la operación" labelFor="pago-date" error={errors.operation_date}>
                <Suspense fallback={<Spinner size={16} aria-label="Cargando" />}>
                  <IsoDateInput
                    id="pago-date"
                    value={operationDate}
                    minDate={purchase.sale_date || today}
                    maxDate={today}
                    disabled={locked}
                    hasError={errors.operation_date !== undefined}
                    describedBy={errors.operation_date ? 'pago-date-error' : undefined}
                    onChange={(value) => actor.send({ type: 'pay.changed', field: 'operation_date', value })}
                  />
                </Suspense>
              </FieldGroup>
              <FieldGroup
                label="Captura del pago"
                labelFor="pago-voucher"
                error={errors.voucher}
                hint="Imagen PNG, JPEG o WebP de hasta 5 MB"
              >
                <FileInput
                  fill
                  text={file ? file.name : 'Elegir imagen…'}
                  buttonText="Examinar"
                  disabled={busy}
                  inputProps={{ id: 'pago-voucher', accept: 'image/png,image/jpeg,image/webp', 'aria-label': 'Captura del pago' }}
                  onInputChange={(e) => actor.send({ type: 'pay.fileChosen', file: e.currentTarget.files?.[0] ?? null })}
                />
              </FieldGroup>
            </div>
          </div>
        </DialogBody>
        <DialogFooter
          actions={
            <>
              <Button text={voucherFailed ? 'Cerrar' : 'Cancelar'} onClick={close} disabled={busy} />
              <Button
                type="submit"
                intent="primary"
                icon="send-message"
                text={voucherFailed ? 'Reenviar la captura' : 'Enviar pago'}
                loading={busy}
                disabled={!voucherFailed && (payable.length === 0 || !wallet || refiguring || waiting)}
              />
            </>
          }
        />
      </form>
      {/* Blueprint's Alert draws in its own portal, stacked over the dialog. */}
      <DiscardChangesAlert
        isOpen={confirmingDiscard}
        onDiscard={() => actor.send({ type: 'pay.discard' })}
        onKeepEditing={() => actor.send({ type: 'pay.keepEditing' })}
      />
    </Dialog>
  );
}
