import { Alert, TextArea } from '@blueprintjs/core';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { ReasonActionMachine } from '../../machines/shared/reason-action.machine';
import { FieldGroup } from './FieldGroup';
import { useReturnFocus } from './focus-return';

/**
 * Asks the reason of an action on a record (../../machines/shared/reason-action.machine.ts): annul
 * a sale, cancel a reservation, reject or annul a payment. Open while the machine is not idle; the
 * machine's message (a missing reason, the server's 409) shows under the text. Closing gives
 * focus back to the element that opened it (a row's "Acciones": focus-return.ts).
 */
export function ReasonAlert<Row>({
  actor,
  confirmText,
  label,
  question,
  id = 'reason-action-text',
}: {
  actor: ActorRefFrom<ReasonActionMachine<Row>>;
  confirmText: string;
  label: string;
  question: (row: Row) => string;
  /** The text area's id (unique on the page). */
  id?: string;
}) {
  const record = useSelector(actor, (s) => (s.matches('idle') ? null : s.context.record));
  const reason = useSelector(actor, (s) => s.context.reason);
  const error = useSelector(actor, (s) => s.context.error);
  const running = useSelector(actor, (s) => s.matches('running'));
  useReturnFocus(record !== null);
  return (
    <Alert
      isOpen={record !== null}
      intent="danger"
      icon="disable"
      confirmButtonText={confirmText}
      cancelButtonText="Cancelar"
      loading={running}
      onConfirm={() => actor.send({ type: 'reason.confirm' })}
      onCancel={() => actor.send({ type: 'reason.cancel' })}
      canEscapeKeyCancel={!running}
    >
      <p>{record ? question(record) : ''}</p>
      <FieldGroup label={label} labelFor={id} error={error ?? undefined}>
        <TextArea
          id={id}
          fill
          value={reason}
          onChange={(e) => actor.send({ type: 'reason.changed', text: e.target.value })}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? `${id}-error` : undefined}
        />
      </FieldGroup>
    </Alert>
  );
}
