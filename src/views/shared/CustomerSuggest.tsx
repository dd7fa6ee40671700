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

/** What a {@link LookupSuggest} shows of its items and says when there are none. */
export interface LookupSuggestText<T> {
  /** The item's name (the option's text and the input's value once chosen). */
  label: (item: T) => string;
  /** The option's right-hand detail (a document, a subdivision). */
  detail: (item: T) => string;
  /** "Buscar cliente…". */
  placeholder: string;
  /** "No se encontraron clientes". */
  none: string;
}

/**
 * A search-as-you-type picker: Blueprint Suggest over a lookup machine (src/machines/shared/lookup.machine.ts)
 * — what is typed goes to the machine, which searches the server 300 ms after the last keystroke.
 * No `resetOnClose`: Suggest would clear the query as the popover opens, losing the first keystroke.
 */
export function LookupSuggest<T extends { id: number }>({
  id,
  lookup,
  selected,
  onSelect,
  exclude,
  disabled,
  invalid,
  rightElement,
  text: words,
}: {
  id: string;
  lookup: ActorRefFrom<LookupMachine<T>>;
  selected: T | null;
  onSelect: (item: T) => void;
  /** An item not to offer (the one being edited). */
  exclude?: number;
  disabled?: boolean;
  invalid?: boolean;
  rightElement?: React.JSX.Element;
  text: LookupSuggestText<T>;
}) {
  const results = useSelector(lookup, (s) => s.context.results);
  const text = useSelector(lookup, (s) => s.context.text);
  const searching = useSelector(lookup, (s) => !s.matches('idle'));
  return (
    <Suggest<T>
      fill
      items={exclude === undefined ? results : results.filter((c) => c.id !== exclude)}
      query={text}
      onQueryChange={(q) => lookup.send({ type: 'lookup.typed', text: q })}
      selectedItem={selected}
      onItemSelect={onSelect}
      inputValueRenderer={words.label}
      itemsEqual={(a, b) => a.id === b.id}
      disabled={disabled}
      inputProps={{
        id,
        placeholder: selected ? words.label(selected) : words.placeholder,
        'aria-invalid': Boolean(invalid),
        rightElement,
      }}
      itemRenderer={(c, { handleClick, handleFocus, modifiers, ref }) => (
        <MenuItem
          key={c.id}
          ref={ref}
          roleStructure="listoption"
          active={modifiers.active}
          text={words.label(c)}
          label={words.detail(c)}
          onClick={handleClick}
          onFocus={handleFocus}
        />
      )}
      noResults={
        <MenuItem disabled roleStructure="listoption" text={searching ? 'Buscando…' : text.trim() ? words.none : 'Escriba para buscar'} />
      }
      popoverProps={{ minimal: true, matchTargetWidth: true }}
      // Blueprint names the list "selectable options".
      menuProps={{ 'aria-label': 'Resultados' }}
    />
  );
}

const CUSTOMER_TEXT: LookupSuggestText<CustomerOption> = {
  label: (c) => c.display_name,
  detail: (c) => c.document_number,
  placeholder: 'Buscar cliente…',
  none: 'No se encontraron clientes',
};

/**
 * A customer picker (name and document): the spouse of Clientes, the customer of "Separar" and
 * "Cotizar", the buyers of the contract stepper.
 */
export function CustomerSuggest(props: {
  id: string;
  lookup: ActorRefFrom<LookupMachine<CustomerOption>>;
  selected: CustomerOption | null;
  onSelect: (customer: CustomerOption) => void;
  exclude?: number;
  disabled?: boolean;
  invalid?: boolean;
  rightElement?: React.JSX.Element;
}) {
  return <LookupSuggest<CustomerOption> {...props} text={CUSTOMER_TEXT} />;
}
