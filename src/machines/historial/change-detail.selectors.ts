import type { SnapshotFrom } from 'xstate';
import type { ChangeHistoryEntry } from '../../schemas/historial/change-history';
import type { ChangeDetailMachine } from './change-detail.machine';

/** Selectors of the `changeDetail` machine (Historial de Cambios' drawer); pure, tested alone. */
export type ChangeDetailSnapshot = SnapshotFrom<ChangeDetailMachine>;

/** The change whose before/after table the drawer shows, or null when the drawer is closed. */
export const selectOpenEntry = (s: ChangeDetailSnapshot): ChangeHistoryEntry | null => (s.matches('open') ? s.context.entry : null);
