import { assign, setup } from 'xstate';
import type { ApiError } from '../../api/client';
import type { Lead, LeadStatus, LeadsSummary } from '../../schemas/crm/leads';
import { placeholder } from '../shared/placeholder';
import { errorMessage } from '../shared/api-errors';

/**
 * What CRM → LEADS shows beside the table: the count per status tab and of overdue follow-ups
 * (GET leads/summary) and, in the board view, the first leads of each status column.
 *
 * idle → (`overview.load {filters}`) loading → ready | failed. `overview.reload` loads again with
 * the same filters; `overview.board {on}` turns the columns on or off (and loads). A load started
 * while another runs replaces it (the newer filters win).
 */

/** One board column: its first leads and how many there are. */
export interface BoardColumn {
  rows: Lead[];
  total: number;
}

export interface LeadOverview {
  summary: LeadsSummary;
  /** Null while the board is off. */
  columns: Partial<Record<LeadStatus, BoardColumn>> | null;
}

export interface LeadOverviewContext extends LeadOverview {
  filters: Record<string, string>;
  board: boolean;
  error: string | null;
}

export type LeadOverviewEvent =
  { type: 'overview.load'; filters: Record<string, string> } | { type: 'overview.reload' } | { type: 'overview.board'; on: boolean };

/** Leads a board column shows (the rest are in the list view). */
export const BOARD_COLUMN_SIZE = 30;

export const leadOverviewMachine = setup({
  types: { context: {} as LeadOverviewContext, events: {} as LeadOverviewEvent },
  actors: { load: placeholder<LeadOverview, { filters: Record<string, string>; board: boolean }>('load') },
  actions: { reportApiError: (_, _error: ApiError) => {} },
}).createMachine({
  id: 'leadOverview',
  context: { filters: {}, board: false, summary: { counts: {}, overdue: 0 }, columns: null, error: null },
  initial: 'idle',
  on: {
    'overview.load': { target: '.loading', reenter: true, actions: assign(({ event }) => ({ filters: event.filters })) },
    'overview.reload': { target: '.loading', reenter: true },
    'overview.board': { target: '.loading', reenter: true, actions: assign(({ event }) => ({ board: event.on })) },
  },
  states: {
    idle: {},
    loading: {
      invoke: {
        src: 'load',
        input: ({ context }) => ({ filters: context.filters, board: context.board }),
        onDone: { target: 'ready', actions: assign(({ event }) => ({ ...event.output, error: null })) },
        onError: {
          target: 'failed',
          actions: [
            assign(({ event }) => ({ error: errorMessage(event.error) })),
            { type: 'reportApiError', params: ({ event }) => event.error as ApiError },
          ],
        },
      },
    },
    ready: {},
    failed: {},
  },
});
export type LeadOverviewMachine = typeof leadOverviewMachine;
