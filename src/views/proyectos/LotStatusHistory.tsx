import { Button, Callout, HTMLTable, Spinner } from '@blueprintjs/core';
import { useActorRef, useSelector } from '@xstate/react';
import { Temporal } from 'temporal-polyfill';
import { LIMA_TIME_ZONE } from '../../lib/dates';
import type { LotStatusHistoryMachine } from '../../machines/proyectos/lot-status.machine';
import { inspectOption } from '../../machines/inspect';
import { LotStatusTag } from './LotStatusDialog';

/**
 * "dd/mm/yyyy hh:mm" in America/Lima from an ISO instant ('' when unreadable).
 * @param iso ISO instant with offset (`2026-11-20T15:00:00Z` → "20/11/2026 10:00").
 */
export function formatLimaDateTime(iso: string): string {
  try {
    const z = Temporal.Instant.from(iso).toZonedDateTimeISO(LIMA_TIME_ZONE);
    const p = (n: number) => String(n).padStart(2, '0');
    return `${p(z.day)}/${p(z.month)}/${String(z.year).padStart(4, '0')} ${p(z.hour)}:${p(z.minute)}`;
  } catch {
    return '';
  }
}

/** The `key` of a lot's {@link LotStatusHistory}: a new one for another lot or after the lot changed. */
export function lotHistoryKey(lot: { id: number; updated_at: string }): string {
  return `${lot.id}@${lot.updated_at}`;
}

/**
 * The status history of one lot, newest first (fecha dd/mm/yyyy hh:mm Lima, de → a, motivo,
 * usuario). Runs its own {@link LotStatusHistoryMachine} actor for `lotId` (the `history`
 * machine of `createLotStatusMachines`). The parent gives it a React `key` made of the lot's id
 * and `updated_at` ({@link lotHistoryKey}): another lot, or the same lot after a status change,
 * mounts a fresh actor that loads again — no effect relays the change. See the API comment in
 * LotStatusDialog.tsx.
 */
export function LotStatusHistory({ machine, lotId }: { machine: LotStatusHistoryMachine; lotId: number }) {
  const actor = useActorRef(machine, { input: { lotId }, ...inspectOption() });
  const loading = useSelector(actor, (s) => s.matches('loading'));
  const error = useSelector(actor, (s) => (s.matches('failure') ? s.context.error : null));
  const entries = useSelector(actor, (s) => s.context.entries);
  if (error) {
    return (
      <Callout intent="danger" compact>
        {error} <Button variant="minimal" size="small" text="Reintentar" onClick={() => actor.send({ type: 'history.retry' })} />
      </Callout>
    );
  }
  if (loading && entries.length === 0) return <Spinner size={20} aria-label="Cargando historial" />;
  if (entries.length === 0) return <p className="bp6-text-muted">Sin cambios de estado.</p>;
  return (
    <HTMLTable compact striped className="lot-status-history" aria-label="Historial de estados">
      <thead>
        <tr>
          <th>Fecha</th>
          <th>Cambio</th>
          <th>Motivo</th>
          <th>Usuario</th>
        </tr>
      </thead>
      <tbody>
        {entries.map((e) => (
          <tr key={e.id}>
            <td className="nowrap">{formatLimaDateTime(e.changed_at)}</td>
            <td className="nowrap">
              {e.from_status ? <LotStatusTag status={e.from_status} /> : <span className="bp6-text-muted">Creación</span>} →{' '}
              <LotStatusTag status={e.to_status} />
            </td>
            <td>{e.reason ?? '—'}</td>
            <td>{e.user_name ?? '—'}</td>
          </tr>
        ))}
      </tbody>
    </HTMLTable>
  );
}
