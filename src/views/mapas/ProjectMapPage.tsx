import { Button, Callout } from '@blueprintjs/core';
import { useActorRef, useSelector } from '@xstate/react';
import { useServices, useSession } from '../services';
import { inspectOption } from '../../machines/inspect';
import { hasPermissions, selectPermissions } from '../../machines/session/session.selectors';
import type { LotMapActorRef } from '../../machines/mapas/lot-map.machine';
import type { LotStatusMachine } from '../../machines/proyectos/lot-status.machine';
import { MODULE, SUBMODULE } from '../../schemas/permissions';
import { formatMetres } from '../../lib/money';
import { LotStatusDialog, LotStatusTag } from '../proyectos/LotStatusDialog';
import { LotStatusHistory, lotHistoryKey } from '../proyectos/LotStatusHistory';
import { nameSegment } from '../proyectos/lot-status';
import { LotMap } from './LotMap';
import { MapPageFrame, MapsScreen, type MapPageProps } from './map-page';
import { LotPanelCard, MapLotFacts, PanelSpinner, useSelectedLot } from './map-parts';
import type { ActorRefFrom } from 'xstate';
import type { ReservationFormMachine } from '../../machines/comercio/reservation-form.machine';
import type { QuoteFormMachine } from '../../machines/comercio/quote-form.machine';
import { ReservationDialog } from '../comercio/ReservationDialog';
import { QuoteDialog } from '../comercio/QuoteDialog';
import { contractPath } from '../../config/paths';

/** Who may change a lot's status (the server's PROJECTS_ACCESS on POST lots/{id}/status). */
const CHANGE_STATUS = [MODULE.proyectos, SUBMODULE.lotizaciones];
/** Who may reserve a lot (the server's RESERVATIONS_ACCESS on POST reservations). */
const RESERVE = [MODULE.comercial, SUBMODULE.ventas];

/** /PROYECTOS/MapaProyectos/{name}/{id_encrypted}: waits for the maps' machines, then the page. */
export function ProjectMapScreen({ params }: { params: Record<string, string> }) {
  return <MapsScreen params={params} page={ProjectMapPage} />;
}

/**
 * "Mapa del proyecto" (issue "Proyectos"): the plan with every lot coloured by status, filters
 * (manzana, estado, precio), legend with counts, search by code and the lot panel (details from
 * GET lots/{id}, status history, "Cambiar estado" and "Separar" when the user may, "Ver en lista"). Its machine
 * (project-map-page.machine.ts) holds the map and the status dialog and tells the map of a change.
 */
export function ProjectMapPage({ machines, subdivisionKey }: MapPageProps) {
  const page = useActorRef(machines.projectMapPage, { input: { key: subdivisionKey, source: 'staff', details: true }, ...inspectOption() });
  const actor = useSelector(page, (s) => s.context.map);
  const status = useSelector(page, (s) => s.context.status);
  const reservation = useSelector(page, (s) => s.context.reservation);
  const quote = useSelector(page, (s) => s.context.quote);
  return (
    <MapPageFrame actor={actor} title="Mapa del proyecto" filters>
      <LotMap actor={actor}>
        <ProjectLotPanel
          actor={actor}
          status={status}
          reservation={reservation}
          quote={quote}
          machines={machines}
          subdivisionKey={subdivisionKey}
        />
      </LotMap>
      <ReservationDialog actor={reservation} />
      <QuoteDialog actor={quote} />
    </MapPageFrame>
  );
}

function ProjectLotPanel({
  actor,
  status,
  reservation,
  quote,
  machines,
  subdivisionKey,
}: {
  actor: LotMapActorRef;
  status: ActorRefFrom<LotStatusMachine>;
  reservation: ActorRefFrom<ReservationFormMachine>;
  quote: ActorRefFrom<QuoteFormMachine>;
  machines: MapPageProps['machines'];
  subdivisionKey: string;
}) {
  const { navigate, today } = useServices();
  const permissions = useSession(selectPermissions);
  const canChange = hasPermissions(permissions, CHANGE_STATUS);
  const canReserve = hasPermissions(permissions, RESERVE);
  const lot = useSelectedLot(actor);
  const detail = useSelector(actor, (s) => s.context.lotDetail);
  const lotError = useSelector(actor, (s) => s.context.lotError);
  const loadingDetail = useSelector(actor, (s) => s.matches({ ready: { panel: 'loading' } }));
  const subdivision = useSelector(actor, (s) => s.context.subdivision);
  if (!lot || !subdivision) return <LotStatusDialog actor={status} />;
  const shown = detail && String(detail.id) === lot.key ? detail : null;
  const boundaries = shown
    ? (
        [
          ['Frente', shown.front_m, shown.front_neighbour],
          ['Fondo', shown.back_m, shown.back_neighbour],
          ['Derecha', shown.right_m, shown.right_neighbour],
          ['Izquierda', shown.left_m, shown.left_neighbour],
        ] as const
      ).filter(([, m, n]) => m !== null || n !== null)
    : [];
  return (
    <>
      <LotPanelCard title={lot.code} onClose={() => actor.send({ type: 'map.select', key: null })}>
        <div>{shown ? <LotStatusTag status={shown.status} /> : <LotStatusTag status={lot.status} />}</div>
        <MapLotFacts lot={lot} currency={subdivision.currency} />
        {loadingDetail ? <PanelSpinner /> : null}
        {lotError ? (
          <Callout intent="warning" compact>
            {lotError} <Button variant="minimal" size="small" text="Reintentar" onClick={() => actor.send({ type: 'map.lotRetry' })} />
          </Callout>
        ) : null}
        {shown ? (
          <dl>
            {shown.stage ? (
              <>
                <dt>Etapa</dt>
                <dd>{shown.stage}</dd>
              </>
            ) : null}
            <dt>Perímetro</dt>
            <dd>{shown.perimeter_m !== null ? formatMetres(shown.perimeter_m) : '—'}</dd>
            {boundaries.map(([label, m, n]) => (
              <BoundaryRow key={label} label={label} metres={m} neighbour={n} />
            ))}
            {shown.is_corner || shown.facing_park ? (
              <>
                <dt>Ubicación</dt>
                <dd>{[shown.is_corner ? 'Esquina' : null, shown.facing_park ? 'Frente a parque' : null].filter(Boolean).join(' · ')}</dd>
              </>
            ) : null}
            {shown.notes ? (
              <>
                <dt>Notas</dt>
                <dd>{shown.notes}</dd>
              </>
            ) : null}
          </dl>
        ) : null}
        <div className="lot-panel__actions">
          {canChange && shown ? (
            <Button intent="primary" icon="edit" text="Cambiar estado" onClick={() => status.send({ type: 'status.open', lot: shown })} />
          ) : null}
          {canReserve && shown && (lot.status === 'DISPONIBLE' || lot.status === 'SEPARADO') && lot.id !== null ? (
            <Button
              icon="calculator"
              text="Cotizar"
              onClick={() =>
                quote.send({
                  type: 'quote.open',
                  lot: { id: shown.id, code: shown.code, currency: subdivision.currency, listPrice: shown.list_price },
                  today: today(),
                })
              }
            />
          ) : null}
          {canReserve && lot.status === 'DISPONIBLE' && lot.id !== null ? (
            <Button
              intent="success"
              icon="bookmark"
              text="Separar"
              onClick={() =>
                lot.id !== null &&
                reservation.send({ type: 'reserve.open', lot: { id: lot.id, code: lot.code, currency: subdivision.currency } })
              }
            />
          ) : null}
          {canReserve && (lot.status === 'DISPONIBLE' || lot.status === 'SEPARADO') && lot.id !== null ? (
            <Button
              intent="primary"
              icon="shopping-cart"
              text="Vender"
              onClick={() => lot.id !== null && navigate(contractPath('nuevo', lot.id))}
            />
          ) : null}
          <Button
            icon="th-list"
            text="Ver en lista"
            onClick={() =>
              navigate(
                `/PROYECTOS/Lotes/${nameSegment(subdivision.name)}/${encodeURIComponent(subdivisionKey)}?q=${encodeURIComponent(lot.code)}`,
              )
            }
          />
        </div>
        {shown ? (
          <section aria-label="Historial de estados" className="lot-panel__history">
            <h3 className="lot-panel__subtitle">Historial de estados</h3>
            <LotStatusHistory key={lotHistoryKey(shown)} machine={machines.lotStatus.history} lotId={shown.id} />
          </section>
        ) : null}
      </LotPanelCard>
      <LotStatusDialog actor={status} />
    </>
  );
}

function BoundaryRow({ label, metres, neighbour }: { label: string; metres: number | null; neighbour: string | null }) {
  return (
    <>
      <dt>{label}</dt>
      <dd>{[metres !== null ? formatMetres(metres) : null, neighbour].filter(Boolean).join(' · ')}</dd>
    </>
  );
}
