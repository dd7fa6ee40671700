import { fromCallback, setup, type ActorRefFrom, type AnyActorRef } from 'xstate';
import type { Payment } from '../../schemas/finanzas/payments';
import type { ReasonActionMachine } from '../shared/reason-action.machine';
import type { ResourceListInput, ResourceListMachine } from '../shared/resource-list.machine';
import type { PaymentApproveMachine } from './payment-approve.machine';
import type { PaymentDetailMachine } from './payment-detail.machine';
import type { PaymentFormMachine } from './payment-form.machine';
import type { PaymentReceiptMachine } from './payment-receipt.machine';

/**
 * Finanzas → Pagos as one machine: it spawns its children — the paged queue (`list`), one payment's
 * drawer (`detail`), "Aprobar" (`approve`), "Rechazar" (`reject`), "Anular" (`annul`), "Recibo"
 * (`receipt`) and "Registrar pago" (`form`) — and coordinates them by what they emit:
 *
 * - a review done (approve / reject / annul `done`), a payment registered (form `registered`) or a
 *   voucher added in the drawer (detail `changed`) → the queue refreshes, and the open drawer reads
 *   its payment again;
 * - `payments.notified` (a PAYMENT notification arrived: {@link paymentNoticesLogic}) → the same.
 *
 * The view reads the children's refs from `context` and sends events to them; it coordinates nothing.
 */

export type PaymentsPageChildren = {
  list: ResourceListMachine<Payment>;
  detail: PaymentDetailMachine;
  approve: PaymentApproveMachine;
  reject: ReasonActionMachine<Payment>;
  annul: ReasonActionMachine<Payment>;
  receipt: PaymentReceiptMachine;
  form: PaymentFormMachine;
};

export interface PaymentsPageInput {
  list: ResourceListInput<Payment>;
  /** Today in America/Lima (ISO): the registration form's default date and its limit. */
  today: string;
}

export type PaymentsPageEvent = { type: 'payments.changed' } | { type: 'payments.notified' };

export function createPaymentsPageMachine(children: PaymentsPageChildren) {
  return setup({
    types: {
      context: {} as {
        list: ActorRefFrom<ResourceListMachine<Payment>>;
        detail: ActorRefFrom<PaymentDetailMachine>;
        approve: ActorRefFrom<PaymentApproveMachine>;
        reject: ActorRefFrom<ReasonActionMachine<Payment>>;
        annul: ActorRefFrom<ReasonActionMachine<Payment>>;
        receipt: ActorRefFrom<PaymentReceiptMachine>;
        form: ActorRefFrom<PaymentFormMachine>;
      },
      events: {} as PaymentsPageEvent,
      input: {} as PaymentsPageInput,
    },
    actors: children,
    actions: {
      listenToChildren: ({ context, self }) => {
        const changed = () => self.send({ type: 'payments.changed' });
        context.approve.on('done', changed);
        context.reject.on('done', changed);
        context.annul.on('done', changed);
        context.form.on('registered', changed);
        context.detail.on('changed', () => context.list.send({ type: 'list.refresh' }));
      },
      refresh: ({ context }) => {
        context.list.send({ type: 'list.refresh' });
        context.detail.send({ type: 'detail.refresh' });
      },
    },
  }).createMachine({
    id: 'paymentsPage',
    context: ({ input, spawn }) => ({
      list: spawn('list', { id: 'list', input: input.list }),
      detail: spawn('detail', { id: 'detail' }),
      approve: spawn('approve', { id: 'approve' }),
      reject: spawn('reject', { id: 'reject' }),
      annul: spawn('annul', { id: 'annul' }),
      receipt: spawn('receipt', { id: 'receipt' }),
      form: spawn('form', { id: 'form', input: { today: input.today } }),
    }),
    entry: 'listenToChildren',
    on: {
      'payments.changed': { actions: 'refresh' },
      'payments.notified': { actions: 'refresh' },
    },
  });
}
export type PaymentsPageMachine = ReturnType<typeof createPaymentsPageMachine>;

/** A notification as the notifications machine keeps it (the part read here). */
interface NoticeItem {
  id_notification: number;
  type: { code: string };
}

/**
 * Tells `page` `payments.notified` whenever a notification of type PAYMENT arrives (a customer sent a
 * payment from the portal, another reviewer approved or rejected one): it watches the session's
 * notifications actor (src/machines/notifications/notifications.machine.ts, given in the input; null
 * while it is not running) and compares the ids of its PAYMENT items with those seen first, so the
 * list already shown when the screen opens does not count.
 */
export const paymentNoticesLogic = fromCallback<{ type: 'noop' }, { notifications: AnyActorRef | null; page: AnyActorRef }>(({ input }) => {
  if (!input.notifications) return () => {};
  const paymentIds = (snapshot: unknown): number[] => {
    const items = (snapshot as { context?: { items?: NoticeItem[] } } | undefined)?.context?.items ?? [];
    return items.filter((n) => n.type.code === 'PAYMENT').map((n) => n.id_notification);
  };
  const seen = new Set(paymentIds(input.notifications.getSnapshot()));
  const subscription = input.notifications.subscribe((snapshot) => {
    const fresh = paymentIds(snapshot).filter((id) => !seen.has(id));
    if (fresh.length === 0) return;
    fresh.forEach((id) => seen.add(id));
    input.page.send({ type: 'payments.notified' });
  });
  return () => subscription.unsubscribe();
});
