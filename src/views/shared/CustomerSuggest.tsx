import { MenuItem } from '@blueprintjs/core';
import { Suggest } from '@blueprintjs/select';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import type { LookupMachine } from '../../machines/shared/lookup.machine';

/** A customer as the pickers offer them. */
export interface CustomerOption {
  id: number;
  display_name: string;
  document_number: string;
}

/**
 * A customer picker: Blueprint Suggest over a lookup machine (src/machines/shared/lookup.machine.ts)
 * — what is typed goes to the machine, which searches the server 300 ms after the last keystroke;
 * the options show name and document. Used by the spouse of Clientes and the customer of "Separar".
 * No `resetOnClose`: Suggest would clear the query as the popover opens, losing the first keystroke.
 */
export function CustomerSuggest({
  id,
  lookup,
  selected,
  onSelect,
  exclude,
  disabled,
  invalid,
  rightElement,
}: {
  id: string;
  lookup: ActorRefFrom<LookupMachine<CustomerOption>>;
  selected: CustomerOption | null;
  onSelect: (customer: CustomerOption) => void;
  /** A customer not to offer (the one being edited). */
  exclude?: number;
  disabled?: boolean;
  invalid?: boolean;
  rightElement?: React.JSX.Element;
}) {
  const results = useSelector(lookup, (s) => s.context.results);
  const text = useSelector(lookup, (s) => s.context.text);
  const searching = useSelector(lookup, (s) => !s.matches('idle'));
  return (
    <Suggest<CustomerOption>
      fill
      items={exclude === undefined ? results : results.filter((c) => c.id !== exclude)}
      query={text}
      onQueryChange={(q) => lookup.send({ type: 'lookup.typed', text: q })}
      selectedItem={selected}
      onItemSelect={onSelect}
      inputValueRenderer={(c) => c.display_name}
      itemsEqual={(a, b) => a.id === b.id}
      disabled={disabled}
      inputProps={{
        id,
        placeholder: selected ? selected.display_name : 'Buscar cliente…',
        'aria-invalid': Boolean(invalid),
        rightElement,
      }}
      itemRenderer={(c, { handleClick, handleFocus, modifiers, ref }) => (
        <MenuItem
          key={c.id}
          ref={ref}
          roleStructure="listoption"
          active={modifiers.active}
          text={c.display_name}
          label={c.document_number}
          onClick={handleClick}
          onFocus={handleFocus}
        />
      )}
      noResults={
        <MenuItem
          disabled
          roleStructure="listoption"
          text={searching ? 'Buscando…' : text.trim() ? 'No se encontraron clientes' : 'Escriba para buscar'}
        />
      }
      popoverProps={{ minimal: true, matchTargetWidth: true }}
    />
  );
}
