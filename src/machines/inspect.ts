import type { InspectionEvent, Observer } from 'xstate';

/**
 * Optional connection of every actor to the Stately inspector (issue "Shell": in development,
 * `?inspect` in the URL). main.tsx installs the inspector before any actor starts; every
 * `createActor` / `useActorRef` / `useMachine` of the app spreads {@link inspectOption}.
 */
type Inspect = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

let current: Inspect | undefined;

/** Installs (or removes with undefined) the inspector every actor created from now on reports to. */
export function setInspector(inspect: Inspect | undefined): void {
  current = inspect;
}

/** `{ inspect }` when an inspector is installed, else `{}` — spread into actor options. */
export function inspectOption(): { inspect?: Inspect } {
  return current ? { inspect: current } : {};
}
