import { use } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { Button, Callout, Card, Classes, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import type { PortalSalesMachines } from '../../machines/comercio/portal-sales.actors';
import { inspectOption } from '../../machines/inspect';
import { formatMoney } from '../../lib/money';
import { nameSegment } from '../proyectos/lot-status';
import { useServices } from '../services';
import '../../styles/comercio.css';

/**
 * Comercial → Ventas for a signed-in customer (/COMERCIO/ventasClientes; issue "CRM and sales"):
 * the subdivisions on sale — place, lots available, price range when public — and "Ver mapa",
 * the subdivision's map where a lot is simulated and asked for (MapSalesCustomer). No internal data.
 */
export function CustomerSalesScreen() {
  const machines = use(useServices().machines.portalSales());
  return <CustomerSalesPage machines={machines} />;
}

export function CustomerSalesPage({ machines }: { machines: PortalSalesMachines }) {
  const { navigate } = useServices();
  const actor = useActorRef(machines.subdivisions, inspectOption());
  const loading = useSelector(actor, (s) => s.matches('loading'));
  const error = useSelector(actor, (s) => s.context.error);
  const subdivisions = useSelector(actor, (s) => s.context.value);
  return (
    <section className="comercio-page" aria-labelledby="ventas-clientes-title">
      <h1 id="ventas-clientes-title" className="bp6-heading comercio-page-title">
        Ventas
      </h1>
      <p className={Classes.TEXT_MUTED}>Elija una lotización, vea su plano y solicite la separación del lote que le interese.</p>
      {loading ? <Spinner size={32} aria-label="Cargando" /> : null}
      {error ? (
        <Callout intent="danger" role="alert" className="crm-callout">
          {error} <Button variant="minimal" size="small" text="Reintentar" onClick={() => actor.send({ type: 'options.retry' })} />
        </Callout>
      ) : null}
      {!loading && !error && subdivisions.length === 0 ? (
        <NonIdealState icon="map" title="No hay lotizaciones en venta" description="Vuelva pronto: publicaremos nuevos proyectos." />
      ) : null}
      <ul className="portal-subdivisions" aria-label="Lotizaciones en venta">
        {subdivisions.map((s) => (
          <li key={s.key}>
            <Card className="portal-subdivision">
              <h2 className={Classes.HEADING}>{s.name}</h2>
              <p className={Classes.TEXT_MUTED}>{[s.district, s.province, s.department].filter(Boolean).join(', ')}</p>
              <p>
                <Tag minimal intent={s.available_lots > 0 ? 'success' : 'none'}>
                  {s.available_lots === 1 ? '1 lote disponible' : `${s.available_lots} lotes disponibles`}
                </Tag>
              </p>
              {s.price_from !== null && s.price_to !== null ? (
                <p>
                  Desde <strong>{formatMoney(s.price_from, s.currency)}</strong>
                  {s.price_to !== s.price_from ? <> hasta {formatMoney(s.price_to, s.currency)}</> : null}
                </p>
              ) : null}
              <Button
                intent="primary"
                icon="map"
                text="Ver mapa"
                aria-label={`Ver mapa de ${s.name}`}
                onClick={() => navigate(`/COMERCIO/MapSalesCustomer/${nameSegment(s.name)}/${encodeURIComponent(s.key)}`)}
              />
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}
