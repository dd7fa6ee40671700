import { assertEvent, setup, type ActorRefFrom } from 'xstate';
import type { Lot } from '../../schemas/proyectos/projects';
import type { LotStatusMachine } from '../proyectos/lot-status.machine';
import type { ReservationFormMachine } from '../comercio/reservation-form.machine';
import type { QuoteFormMachine } from '../comercio/quote-form.machine';
import type { LotMapInput, LotMapMachine } from './lot-map.machine';

/** The children of "Mapa del proyecto", provided with their effects (maps.actors.ts). */
export type ProjectMapPageChildren = {
  /** The map itself (lot-map.machine.ts). */
  map: LotMapMachine;
  /** The lot panel's "Cambiar estado" dialog (lot-status.machine.ts `status`). */
  status: LotStatusMachine;
  /** The lot panel's "Separar" dialog (comercio/reservation-form.machine.ts). */
  reservation: ReservationFormMachine;
  /** The lot panel's "Cotizar" dialog (comercio/quote-form.machine.ts); a quote changes no lot. */
  quote: QuoteFormMachine;
};

/** From the children, through their emitted events. */
export type ProjectMapPageEvent = { type: 'child.lotChanged'; lot: Lot };

/**
 * "Mapa del proyecto" (/PROYECTOS/MapaProyectos/{name}/{id_encrypted}) as one machine (issue "One
 * place per screen" item 3, the pattern of proyectos/lots-page.machine.ts): it spawns the map
 * (`map`, input = the map's {@link LotMapInput}), the status dialog (`status`), the "Separar"
 * dialog (`reservation`) and the "Cotizar" dialog (`quote`), and when a dialog emits `changed` / `reserved` (a lot's status changed) it tells the map (`map.lotChanged`), which
 * recolours that lot, updates the legend's counts and reloads the open panel. The view reads the
 * two refs from `context` (stable for the screen's life) and sends events; it coordinates nothing.
 * @returns a machine whose context holds `map` and `status`.
 */
export function createProjectMapPageMachine(children: ProjectMapPageChildren) {
  return setup({
    types: {
      context: {} as {
        map: ActorRefFrom<LotMapMachine>;
        status: ActorRefFrom<LotStatusMachine>;
        reservation: ActorRefFrom<ReservationFormMachine>;
        quote: ActorRefFrom<QuoteFormMachine>;
      },
      events: {} as ProjectMapPageEvent,
      input: {} as LotMapInput,
    },
    actors: children,
    actions: {
      /** The dialog's `changed` → this machine's `child.lotChanged` (the subscription ends with the child). */
      listenToChildren: ({ context, self }) => {
        context.status.on('changed', ({ lot }) => self.send({ type: 'child.lotChanged', lot }));
        context.reservation.on('reserved', ({ lot }) => self.send({ type: 'child.lotChanged', lot }));
      },
      tellMap: ({ context, event }) => {
        assertEvent(event, 'child.lotChanged');
        context.map.send({ type: 'map.lotChanged', lot: event.lot });
      },
    },
  }).createMachine({
    id: 'projectMapPage',
    context: ({ input, spawn }) => ({
      map: spawn('map', { id: 'map', input }),
      status: spawn('status', { id: 'status' }),
      reservation: spawn('reservation', { id: 'reservation' }),
      quote: spawn('quote', { id: 'quote' }),
    }),
    entry: 'listenToChildren',
    on: { 'child.lotChanged': { actions: 'tellMap' } },
  });
}
export type ProjectMapPageMachine = ReturnType<typeof createProjectMapPageMachine>;
