import { use, useState } from 'react';
import { Button, Callout, FormGroup, HTMLTable, NonIdealState } from '@blueprintjs/core';
import { HTMLSelect } from '../shared/BlueprintEs';
import { useActorRef, useSelector } from '@xstate/react';
import { Link, useSearch } from 'wouter';
import { inspectOption } from '../../machines/inspect';
import type { MapsMachines } from '../../machines/mapas/maps.actors';
import type { LotMapActorRef } from '../../machines/mapas/lot-map.machine';
import { PAYMENT_BUCKET_COLOR } from '../../machines/mapas/map-geometry';
import { paymentMapKeyFromSearch, paymentMapPath, type PaymentMapPageActorRef } from '../../machines/mapas/payment-map-page.machine';
import { PAYMENT_BUCKET_LABELS, PAYMENT_BUCKETS, type PaymentMapBucketSummary } from '../../schemas/comercio/payment-map';
import type { Currency } from '../../schemas/proyectos/projects';
import { formatMoney } from '../../lib/money';
import { formatDate } from '../../lib/dates';
import { contractPath } from '../../config/paths';
import { useServices } from '../services';
import { LotMap } from './LotMap';
import { SimpleLotPanel, useSelectedLot } from './map-parts';
import { LotMapLoading, MapPageHeader } from './map-skeleton';
import { SALE_NOT_REGISTERED } from './map-page';
import '../../styles/maps.css';

/** "Mapa de pagos" as a toolbar link of the sales and heat maps (same permission: Comercial + Ventas). */
export function PaymentMapLink({ subdivisionKey }: { subdivisionKey: string }) {
  return (
    <Link href={paymentMapPath(subdivisionKey)} className="bp6-button">
      Mapa de pagos
    </Link>
  );
}

/** /COMERCIO/MapaVentas/Pagos: waits for the maps' machines, then the page. */
export function PaymentMapScreen() {
  const machines = use(useServices().machines.maps());
  return <PaymentMapPage machines={machines} />;
}

/**
 * "Mapa de Pagos" (issue 16; docs/decisions.md "Mapa de Pagos"): a subdivision select (kept in the
 * address as `?lotizacion={key}`, the first subdivision by default), the plan with each sold lot
 * coloured by its payment bucket and a legend, the selected lot's sale (number, buyer, days late,
 * overdue amount, link to the sale) and a table of lots and amounts per bucket.
 */
export function PaymentMapPage({ machines }: { machines: MapsMachines }) {
  const search = useSearch();
  // The subdivision of the address it was opened at (read once: the machine writes later choices back).
  const [input] = useState(() => ({ requestedKey: paymentMapKeyFromSearch(search) }));
  const page = useActorRef(machines.paymentMapPage, { input, ...inspectOption() });
  const key = useSelector(page, (s) => (s.matches('ready') ? s.context.key : null));
  const empty = useSelector(page, (s) => s.matches('empty'));
  const error = useSelector(page, (s) => (s.matches('failure') ? s.context.error : null));
  return (
    <section className="map-page payment-map" aria-labelledby="map-title">
      <MapPageHeader title="Mapa de Pagos" />
      <SubdivisionSelect page={page} />
      {error ? (
        <Callout intent="danger" title="No se pudieron cargar las lotizaciones">
          <p>{error}</p>
          <Button text="Reintentar" onClick={() => page.send({ type: 'paymentMap.retry' })} />
        </Callout>
      ) : empty ? (
        <NonIdealState icon="map" title="No hay lotizaciones" description="Registre una lotización para ver sus pagos en el plano." />
      ) : key ? (
        <PaymentMapBody key={key} machines={machines} subdivisionKey={key} />
      ) : (
        <LotMapLoading />
      )}
    </section>
  );
}

/** The subdivision select ("Lotización"). */
function SubdivisionSelect({ page }: { page: PaymentMapPageActorRef }) {
  const subdivisions = useSelector(page, (s) => s.context.subdivisions);
  const key = useSelector(page, (s) => s.context.key);
  if (subdivisions.length === 0) return null;
  return (
    <FormGroup label="Lotización" labelFor="payment-map-subdivision" inline className="payment-map__subdivision">
      <HTMLSelect
        id="payment-map-subdivision"
        value={key ?? ''}
        onChange={(e) => page.send({ type: 'paymentMap.subdivision', key: e.currentTarget.value })}
      >
        {subdivisions.map((s) => (
          <option key={s.key} value={s.key}>
            {s.name}
          </option>
        ))}
      </HTMLSelect>
    </FormGroup>
  );
}

/** The map of one subdivision with payment colouring, its lot panel and the summary per bucket. */
function PaymentMapBody({ machines, subdivisionKey }: { machines: MapsMachines; subdivisionKey: string }) {
  const actor = useActorRef(machines.paymentLotMap, {
    input: { key: subdivisionKey, source: 'staff', colouring: 'payment' },
    ...inspectOption(),
  });
  return (
    <>
      <LotMap actor={actor}>
        <PaymentLotPanel actor={actor} />
      </LotMap>
      <PaymentSummary actor={actor} />
    </>
  );
}

/** The selected lot's panel: its facts and, for a sold lot, its sale's payment state. */
export function PaymentLotPanel({ actor }: { actor: LotMapActorRef }) {
  const lot = useSelectedLot(actor);
  const currency = useSelector(actor, (s) => s.context.subdivision?.currency ?? 'PEN');
  const payment = lot?.payment ?? null;
  return (
    <SimpleLotPanel actor={actor}>
      {payment ? (
        <section aria-label="Pagos de la venta" className="lot-panel__sale">
          <dl className="lot-panel__facts">
            <dt>Venta</dt>
            <dd>{payment.sale_number}</dd>
            <dt>Comprador</dt>
            <dd>{payment.buyer || '—'}</dd>
            <dt>Estado de pago</dt>
            <dd data-bucket={payment.bucket}>
              <span className="lot-map__tooltip-status">
                <i style={{ background: PAYMENT_BUCKET_COLOR[payment.bucket] }} aria-hidden="true" />
                {PAYMENT_BUCKET_LABELS[payment.bucket]}
              </span>
            </dd>
            <dt>Días de atraso</dt>
            <dd>{payment.days_late === 1 ? '1 día' : `${payment.days_late} días`}</dd>
            <dt>Monto vencido</dt>
            <dd>{formatMoney(payment.overdue, currency)}</dd>
            <dt>Saldo</dt>
            <dd>{formatMoney(payment.balance, currency)}</dd>
            {payment.next_due_date ? (
              <>
                <dt>Cuota pendiente más antigua</dt>
                <dd>{formatDate(payment.next_due_date)}</dd>
              </>
            ) : null}
          </dl>
          <Link href={contractPath(payment.sale_id)} className="bp6-button bp6-small lot-panel__link">
            Ver venta {payment.sale_number}
          </Link>
        </section>
      ) : lot?.status === 'VENDIDO' ? (
        <p className="bp6-text-muted">{SALE_NOT_REGISTERED}</p>
      ) : null}
    </SimpleLotPanel>
  );
}

/** The summary per bucket (server's figures): lots, overdue amount and balance, with the totals. */
export function PaymentSummary({ actor }: { actor: LotMapActorRef }) {
  const summary = useSelector(actor, (s) => s.context.paymentSummary);
  const currency = useSelector(actor, (s) => s.context.subdivision?.currency ?? 'PEN');
  if (!summary) return null;
  return <PaymentSummaryTable summary={summary} currency={currency} />;
}

/** Lots and amounts per bucket in the legend's order (a bucket the server left out reads as 0). */
export function PaymentSummaryTable({ summary, currency }: { summary: readonly PaymentMapBucketSummary[]; currency: Currency }) {
  const rows = PAYMENT_BUCKETS.map((bucket) => summary.find((s) => s.bucket === bucket) ?? { bucket, lots: 0, overdue: 0, balance: 0 });
  const total = rows.reduce((t, r) => ({ lots: t.lots + r.lots, overdue: t.overdue + r.overdue, balance: t.balance + r.balance }), {
    lots: 0,
    overdue: 0,
    balance: 0,
  });
  return (
    <div className="payment-map__summary">
      <HTMLTable compact aria-label="Resumen por estado de pago">
        <thead>
          <tr>
            <th scope="col">Estado de pago</th>
            <th scope="col" className="payment-map__num">
              Lotes
            </th>
            <th scope="col" className="payment-map__num">
              Monto vencido
            </th>
            <th scope="col" className="payment-map__num">
              Saldo
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.bucket} data-bucket={r.bucket}>
              <th scope="row">
                <span className="lot-map__tooltip-status">
                  <i style={{ background: PAYMENT_BUCKET_COLOR[r.bucket] }} aria-hidden="true" />
                  {PAYMENT_BUCKET_LABELS[r.bucket]}
                </span>
              </th>
              <td className="payment-map__num">{r.lots}</td>
              <td className="payment-map__num">{formatMoney(r.overdue, currency)}</td>
              <td className="payment-map__num">{formatMoney(r.balance, currency)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Total vendidos</th>
            <td className="payment-map__num">{total.lots}</td>
            <td className="payment-map__num">{formatMoney(total.overdue, currency)}</td>
            <td className="payment-map__num">{formatMoney(total.balance, currency)}</td>
          </tr>
        </tfoot>
      </HTMLTable>
    </div>
  );
}
