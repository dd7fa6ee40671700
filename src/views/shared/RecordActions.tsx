import { useMemo } from 'react';
import { Alert } from '@blueprintjs/core';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { createRecordActionsMachine } from '../../machines/shared/record-actions.machine';
import { inspectOption } from '../../machines/inspect';
import type { ResourceListRef } from './resource-hooks';

/**
 * The view side of a list's row actions that are not CRUD (src/machines/shared/record-actions.machine.ts):
 * {@link useRecordActions} starts the machine so that a finished action also refreshes the list, and
 * {@link RecordActionAlert} asks for the confirmation. Written once for Usuarios and Clientes.
 */

type RecordActionsMachine<Kind extends string, Row> = ReturnType<typeof createRecordActionsMachine<Kind, Row>>;

/** What the confirmation says for one kind of action. */
export interface ActionConfirmation<Row> {
  /** The confirm button's text ("Desactivar"). */
  text: string;
  intent: 'danger' | 'primary';
  /** The question, about the row ("¿Desactivar a …?"). */
  question: (row: Row) => string;
}

/**
 * Starts the screen's row-actions machine, provided so that `done` also sends `list.refresh`
 * (the toast it was provided with is kept).
 * @returns the actor and `request(kind)`, the row action's click handler.
 */
export function useRecordActions<Kind extends string, Row>(machine: RecordActionsMachine<Kind, Row>, list: ResourceListRef<Row>) {
  const linked = useMemo(() => {
    const previous = machine.implementations.actions.done;
    return machine.provide({
      actions: {
        done: (args, params) => {
          list.send({ type: 'list.refresh' });
          if (typeof previous === 'function') (previous as (a: typeof args, p: typeof params) => void)(args, params);
        },
      },
    });
  }, [machine, list]);
  const actions = useActorRef(linked, inspectOption());
  const request = (kind: Kind) => (record: Row) => actions.send({ type: 'action.request', kind, record });
  return { actions, request };
}

/** The confirmation of the pending row action (Blueprint Alert), busy while it runs. */
export function RecordActionAlert<Kind extends string, Row>({
  actions,
  confirmations,
}: {
  actions: ActorRefFrom<RecordActionsMachine<Kind, Row>>;
  confirmations: Record<Kind, ActionConfirmation<Row>>;
}) {
  const pending = useSelector(actions, (s) =>
    s.matches('confirming') || s.matches('running') ? { kind: s.context.kind!, record: s.context.record! } : null,
  );
  const running = useSelector(actions, (s) => s.matches('running'));
  const confirmation = pending ? confirmations[pending.kind] : null;
  return (
    <Alert
      isOpen={pending !== null}
      intent={confirmation?.intent ?? 'primary'}
      confirmButtonText={confirmation?.text ?? 'Aceptar'}
      cancelButtonText="Cancelar"
      loading={running}
      onConfirm={() => actions.send({ type: 'action.confirm' })}
      onCancel={() => actions.send({ type: 'action.cancel' })}
      canEscapeKeyCancel={!running}
    >
      <p>{pending && confirmation ? confirmation.question(pending.record) : ''}</p>
    </Alert>
  );
}
