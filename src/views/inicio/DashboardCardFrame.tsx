import type { CSSProperties, ReactNode } from 'react';
import { useSelector } from '@xstate/react';
import { Button, Callout, Card, Classes, H3, Spinner } from '@blueprintjs/core';
import { DASHBOARD_CARD_TITLES, type DashboardCardId } from '../../schemas/inicio/dashboard';
import type { DashboardCardRef } from '../../machines/inicio/dashboard.machine';

/**
 * The height (px) the figures of the cards of a fixed shape take in the phone's one column (measured
 * at 412 px on the demo data): their skeleton keeps it, so the cards below do not move when the
 * figures arrive (docs/dashboard.md "Performance"). Cards whose lists vary are left out.
 */
const FIGURES_HEIGHT: Partial<Record<DashboardCardId, number>> = {
  sales: 340,
  collections: 115,
  overdue: 410,
  'due-soon': 65,
  commissions: 62,
  leads: 475,
  lots: 410,
};

/**
 * One card of Inicio around its figures (docs/decisions.md "Inicio: the screen"): a Blueprint Card
 * titled as `DASHBOARD_CARD_TITLES` says, a skeleton while the first answer is on its way, a small
 * spinner beside the title while a realtime refresh fetches again (the figures stay), and a Callout
 * with the error's Spanish message and "Reintentar" when the call failed. Renders the card's machine
 * state only; `children` draws the figures.
 */
export function DashboardCardFrame<T>({
  id,
  card,
  wide = false,
  children,
}: {
  id: DashboardCardId;
  card: DashboardCardRef;
  /** Takes two columns of the grid on wide screens (the charts). */
  wide?: boolean;
  children: (data: T) => ReactNode;
}) {
  const data = useSelector(card, (s) => s.context.data) as T | null;
  const error = useSelector(card, (s) => (s.matches('failed') ? s.context.error : null));
  const loading = useSelector(card, (s) => s.matches('loading'));
  const refreshing = useSelector(card, (s) => s.matches({ ready: 'refreshing' }));
  const title = DASHBOARD_CARD_TITLES[id];
  const titleId = `dashboard-card-${id}`;
  return (
    <Card
      className={`dashboard-card${wide ? ' dashboard-card-wide' : ''}`}
      elevation={1}
      aria-labelledby={titleId}
      aria-busy={loading || refreshing}
      data-card={id}
      role="region"
    >
      <div className="dashboard-card-head">
        <H3 id={titleId} className="dashboard-card-title">
          {title}
        </H3>
        {refreshing ? <Spinner size={16} aria-label="Actualizando" /> : null}
      </div>
      {error !== null ? (
        <Callout intent="danger" className="dashboard-card-error" title="No se pudo cargar">
          <p>{error}</p>
          <Button text="Reintentar" icon="refresh" onClick={() => card.send({ type: 'retry' })} />
        </Callout>
      ) : loading || data === null ? (
        <div
          className="dashboard-card-loading"
          aria-label={`Cargando ${title}`}
          style={FIGURES_HEIGHT[id] ? ({ '--dashboard-figures-height': `${FIGURES_HEIGHT[id]}px` } as CSSProperties) : undefined}
        >
          <p className={Classes.SKELETON}>Cargando cifras</p>
          <p className={Classes.SKELETON}>Cargando cifras</p>
        </div>
      ) : (
        children(data)
      )}
    </Card>
  );
}
