import type { ComponentType } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import type { DashboardMachines } from '../../machines/inicio/dashboard.actors';
import type { DashboardCardId } from '../../schemas/inicio/dashboard';
import { inspectOption } from '../../machines/inspect';
import { DashboardCardFrame } from './DashboardCardFrame';
import { CARD_BODIES } from './cards';
import type { CardBodyProps } from './cards/card-props';
import '../../styles/inicio.css';

/**
 * Inicio's cards (docs/decisions.md "Inicio: the screen"): the dashboard machine
 * (src/machines/inicio/dashboard.machine.ts) started for the user's permissions, and one card per
 * card it spawned, in a responsive grid (one column on phones, as many 360 px columns as fit on
 * wider screens; the cards with a chart or a wide table take two). Renders machine state only.
 */
export function Dashboard({ machines, permissions, dark }: { machines: DashboardMachines; permissions: readonly string[]; dark: boolean }) {
  const dashboard = useActorRef(machines.dashboard, { input: { permissions }, ...inspectOption() });
  const cards = useSelector(dashboard, (s) => s.context.cards);
  return (
    <section className="dashboard" aria-labelledby="dashboard-title">
      <h2 id="dashboard-title" className="bp6-heading home-section-title">
        Resumen
      </h2>
      <div className="dashboard-grid">
        {cards.map(({ id, ref }) => {
          const { body, wide } = CARD_BODIES[id];
          const Body = body as ComponentType<CardBodyProps<unknown>>;
          return (
            <DashboardCardFrame<unknown> key={id} id={id as DashboardCardId} card={ref} wide={wide ?? false}>
              {(data) => <Body data={data} dark={dark} permissions={permissions} />}
            </DashboardCardFrame>
          );
        })}
      </div>
    </section>
  );
}
