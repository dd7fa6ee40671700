import { assign, setup } from 'xstate';
import {
  CONTRACT_VARIABLES,
  VARIABLE_GROUPS,
  variableAllowedIn,
  type ContractKind,
  type ContractVariable,
  type VariableGroup,
} from '../../schemas/administracion/contract-templates';

/** Lower case without accents, for matching what is typed after "@" ("cónyuge" ~ "conyuge"). */
const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** Most entries the "@" menu lists at once (the catalogue is short; typing narrows it). */
export const MAX_SUGGESTIONS = 60;

/**
 * The catalogue entries a template of `kind` may use whose label or key contains every word
 * of `query` (accents and case ignored), in the order of {@link VARIABLE_GROUPS} and then the
 * catalogue's. Pure: the "@" menu and the "Insertar variable" menu list them.
 */
export function variableSuggestions(query: string, kind: ContractKind): ContractVariable[] {
  const words = fold(query)
    .split(/[\s._]+/)
    .filter(Boolean);
  const order = Object.keys(VARIABLE_GROUPS) as VariableGroup[];
  return CONTRACT_VARIABLES.filter((variable) => {
    if (!variableAllowedIn(variable.key, kind)) return false;
    const haystack = fold(`${variable.label} ${variable.key}`);
    return words.every((word) => haystack.includes(word));
  })
    .sort((a, b) => order.indexOf(a.group) - order.indexOf(b.group))
    .slice(0, MAX_SUGGESTIONS);
}

/** Entries grouped as the menu shows them (group label, its entries), groups without entries left out. */
export function groupedSuggestions(
  items: readonly ContractVariable[],
): { group: VariableGroup; label: string; items: ContractVariable[] }[] {
  const groups = new Map<VariableGroup, ContractVariable[]>();
  for (const item of items) groups.set(item.group, [...(groups.get(item.group) ?? []), item]);
  return [...groups].map(([group, entries]) => ({ group, label: VARIABLE_GROUPS[group], items: entries }));
}

/** Where the menu is drawn: below the typed "@…", in viewport pixels. */
export interface SuggestionAnchor {
  left: number;
  top: number;
}

export interface VariableSuggestionContext {
  query: string;
  items: ContractVariable[];
  /** The highlighted entry (Enter inserts it). */
  index: number;
  anchor: SuggestionAnchor | null;
}

export type VariableSuggestionEvent =
  | { type: 'suggest.show'; query: string; items: ContractVariable[]; anchor: SuggestionAnchor | null }
  | { type: 'suggest.move'; delta: 1 | -1 }
  | { type: 'suggest.highlight'; index: number }
  | { type: 'suggest.hide' };

/**
 * The "@" menu of the template editor: hidden → (`suggest.show`, sent by the editor's suggestion
 * plugin on every keystroke after "@") open with the matching entries and the first highlighted;
 * ArrowUp/ArrowDown (`suggest.move`) cycle, the pointer highlights (`suggest.highlight`), Escape,
 * a choice or leaving the "@…" text hides it. Which entry Enter inserts is read from here.
 */
export const variableSuggestionMachine = setup({
  types: { context: {} as VariableSuggestionContext, events: {} as VariableSuggestionEvent },
}).createMachine({
  id: 'variableSuggestion',
  context: { query: '', items: [], index: 0, anchor: null },
  initial: 'hidden',
  on: {
    'suggest.show': {
      target: '.open',
      actions: assign(({ context, event }) => ({
        query: event.query,
        items: event.items,
        anchor: event.anchor ?? context.anchor,
        index: event.query === context.query ? Math.min(context.index, Math.max(0, event.items.length - 1)) : 0,
      })),
    },
    'suggest.hide': { target: '.hidden', actions: assign({ items: [], index: 0, query: '' }) },
  },
  states: {
    hidden: {},
    open: {
      on: {
        'suggest.move': {
          actions: assign(({ context, event }) => ({
            index: context.items.length === 0 ? 0 : (context.index + event.delta + context.items.length) % context.items.length,
          })),
        },
        'suggest.highlight': { actions: assign(({ event }) => ({ index: event.index })) },
      },
    },
  },
});
export type VariableSuggestionMachine = typeof variableSuggestionMachine;
