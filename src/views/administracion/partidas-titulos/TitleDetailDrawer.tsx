import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Button, Callout, Classes, HTMLTable, Spinner } from '@blueprintjs/core';
import type { TitleDetailMachine } from '../../../machines/administracion/title-detail.machine';
import { formatDate, formatDateTime } from '../../../lib/dates';
import { formatMoney } from '../../../lib/money';
import { TITLE_STATE_LABELS, type TitleEvent, type TitleProcessDetail, type TitleState } from '../../../schemas/administracion/titles';
import { DiscardChangesAlert } from '../../shared/DiscardChangesAlert';
import { SideDrawer } from '../../shared/SideDrawer';
import { PactFields } from './PactFields';
import { DeadlineCell, TitleStateTag, daysText } from './title-parts';

/** The rows of the process's data: only what its states so far have given. */
function dataRows(p: TitleProcessDetail): [string, React.ReactNode][] {
  const rows: [string, React.ReactNode][] = [
    ['Venta', `${p.sale.number}${p.sale.status ? ` (${p.sale.status.toLowerCase().replace('_', ' ')})` : ''}`],
    ['Lote', `${p.lot.code} · ${p.lot.subdivision_name}`],
    ['Titular', p.sale.titular || '—'],
    ['Estado', <TitleStateTag key="s" state={p.state} />],
    ['En el estado desde', `${formatDate(p.state_since)} (${daysText(p.days_in_state)})`],
  ];
  const add = (label: string, value: React.ReactNode | null) => {
    if (value !== null && value !== '') rows.push([label, value]);
  };
  add('Minuta firmada', p.minuta_signed_on ? formatDate(p.minuta_signed_on) : null);
  add('Notaría', p.notary);
  add(
    'Escritura',
    p.escritura_number ? `N.º ${p.escritura_number}${p.escritura_date ? ` del ${formatDate(p.escritura_date)}` : ''}` : null,
  );
  add('Título', p.titulo_number);
  add('Presentado', p.presented_on ? formatDate(p.presented_on) : null);
  add('Vence el asiento', p.presentation ? <DeadlineCell key="d" process={p} /> : null);
  add('Observación', p.observation);
  add('Reingreso', p.reentry_on ? formatDate(p.reentry_on) : null);
  add(
    'Mayor derecho',
    p.mayor_derecho
      ? `${formatMoney(p.mayor_derecho.amount, p.mayor_derecho.currency)}${p.mayor_derecho.paid_on ? `, pagado el ${formatDate(p.mayor_derecho.paid_on)}` : ', por pagar'}`
      : null,
  );
  add('Partida electrónica', p.partida);
  add('Asiento', p.asiento);
  add('Inscrito', p.inscribed_on ? formatDate(p.inscribed_on) : null);
  add('Entregado', p.delivered_on ? formatDate(p.delivered_on) : null);
  add('Referencia del acta', p.delivery_reference);
  return rows;
}

/** Labels of the fields an event keeps. */
const DETAIL_LABELS: Record<string, string> = {
  notary: 'Notaría',
  escritura_number: 'Escritura',
  titulo_number: 'Título',
  presented_on: 'Presentado',
  observation: 'Observación',
  reentry_on: 'Reingreso',
  mayor_derecho_paid_on: 'Mayor derecho pagado',
  amount: 'Mayor derecho',
  partida: 'Partida',
  asiento: 'Asiento',
  delivery_reference: 'Acta',
};

/** An event's fields as one line of text. */
function detailsText(e: TitleEvent): string {
  const currency = e.details.currency === 'USD' ? 'USD' : 'PEN';
  return Object.entries(e.details)
    .filter(([key, value]) => key !== 'currency' && value !== null && value !== '')
    .map(([key, value]) => {
      const label = DETAIL_LABELS[key] ?? key;
      if (key === 'amount' && typeof value === 'number') return `${label}: ${formatMoney(value, currency)}`;
      if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value)) return `${label}: ${formatDate(value)}`;
      return `${label}: ${String(value)}`;
    })
    .join(' · ');
}

const stateLabel = (s: string | null) => (s ? (TITLE_STATE_LABELS[s as TitleState] ?? s) : '—');

/**
 * A title process's drawer: its data (only what its states so far have given, the asiento's
 * deadline with its warning), "Cambiar estado", the acta de entrega's download, the
 * retention-of-title pact and notes edited in place ("Guardar"; another user's change first is a
 * 409 with "Recargar"), and the history of its moves with who made them.
 */
export function TitleDetailDrawer({ actor, onMove }: { actor: ActorRefFrom<TitleDetailMachine>; onMove: (p: TitleProcessDetail) => void }) {
  const open = useSelector(actor, (s) => !s.matches('closed'));
  const c = useSelector(actor, (s) => s.context);
  const loading = useSelector(actor, (s) => s.matches('loading'));
  const saving = useSelector(actor, (s) => s.matches({ ready: 'saving' }));
  const downloading = useSelector(actor, (s) => s.matches({ ready: 'downloading' }));
  const confirmingDiscard = useSelector(actor, (s) => s.matches('confirmingDiscard'));
  const p = c.process;
  const title = p ? `Trámite ${p.sale.number} · ${p.lot.code}` : 'Trámite de título';
  return (
    <SideDrawer isOpen={open} title={title} onClose={() => actor.send({ type: 'detail.close' })} size="560px" busy={saving}>
      {loading ? <Spinner aria-label="Cargando el trámite" /> : null}
      {c.loadError ? (
        <Callout intent="danger" title="No se pudo cargar el trámite">
          {c.loadError} <Button size="small" variant="minimal" text="Reintentar" onClick={() => actor.send({ type: 'detail.reload' })} />
        </Callout>
      ) : null}
      {p && !loading ? (
        <div className="titles-detail">
          <div className="titles-detail-actions">
            {p.next_states.length > 0 ? <Button intent="primary" icon="exchange" text="Cambiar estado" onClick={() => onMove(p)} /> : null}
            {p.delivery_record ? (
              <Button
                icon="download"
                text={p.delivery_record.content_type === 'application/pdf' ? 'Descargar acta (PDF)' : 'Descargar acta (imagen)'}
                loading={downloading}
                onClick={() => actor.send({ type: 'detail.download' })}
              />
            ) : null}
          </div>
          <HTMLTable compact className="titles-detail-data">
            <tbody>
              {dataRows(p).map(([label, value]) => (
                <tr key={label}>
                  <th scope="row">{label}</th>
                  <td>{value}</td>
                </tr>
              ))}
            </tbody>
          </HTMLTable>

          <h3 className={Classes.HEADING}>Pacto y notas</h3>
          {c.saveError ? (
            <Callout intent={c.stale ? 'warning' : 'danger'} className="titles-form-error">
              {c.saveError}{' '}
              {c.stale ? (
                <Button size="small" variant="minimal" text="Recargar" onClick={() => actor.send({ type: 'detail.reload' })} />
              ) : null}
            </Callout>
          ) : null}
          <form
            onSubmit={(e) => {
              e.preventDefault();
              actor.send({ type: 'detail.save' });
            }}
          >
            <PactFields
              idPrefix="title-detail"
              pactLabel="Pacto de reserva de propiedad declarado"
              pactStated={c.pactStated}
              pactNote={c.pactNote}
              notes={c.notes}
              errors={c.errors}
              disabled={saving}
              onPact={(stated) => actor.send({ type: 'detail.pact', stated })}
              onChange={(field, value) => actor.send({ type: 'detail.changed', field, value })}
            />
            <Button type="submit" text="Guardar" icon="floppy-disk" loading={saving} disabled={!c.dirty} />
          </form>

          <h3 className={Classes.HEADING}>Historial</h3>
          <ol className="titles-history">
            {p.events.map((e) => (
              <li key={e.id}>
                <div>
                  <strong>
                    {e.from_state ? `${stateLabel(e.from_state)} → ${stateLabel(e.to_state)}` : `Creado en ${stateLabel(e.to_state)}`}
                  </strong>{' '}
                  <span className={Classes.TEXT_MUTED}>el {formatDate(e.date)}</span>
                </div>
                {detailsText(e) ? <div>{detailsText(e)}</div> : null}
                {e.note ? <div className="titles-history-note">{e.note}</div> : null}
                <div className={Classes.TEXT_MUTED}>
                  {e.user ? e.user.name : 'Sistema'} · {formatDateTime(e.created_at)}
                </div>
              </li>
            ))}
          </ol>
        </div>
      ) : null}
      <DiscardChangesAlert
        isOpen={confirmingDiscard}
        onDiscard={() => actor.send({ type: 'detail.discard' })}
        onKeepEditing={() => actor.send({ type: 'detail.keepEditing' })}
      />
    </SideDrawer>
  );
}
