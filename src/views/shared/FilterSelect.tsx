import { HTMLSelect } from './BlueprintEs';
import { useResourceList, useResourceListEvents, type ResourceListRef } from './resource-hooks';

/**
 * A list filter as a select (Estado, Tipo, Asesor…): its first option (`allLabel`, value '') lifts
 * the filter; choosing another sends `list.filterChanged {field, value}`. The value shown is the
 * list machine's.
 */
export function FilterSelect<Row>({
  list,
  field,
  label,
  allLabel,
  options,
}: {
  list: ResourceListRef<Row>;
  /** The query parameter (`status`, `agent_id`…). */
  field: string;
  /** Accessible name. */
  label: string;
  /** The option without filter ("Todos los estados"). */
  allLabel: string;
  options: readonly { value: string; label: string }[];
}) {
  const value = useResourceList(list, (s) => s.context.query.filters[field] ?? '');
  const { changeFilter } = useResourceListEvents(list);
  return (
    <HTMLSelect
      aria-label={label}
      value={value}
      onChange={(e) => changeFilter(field, e.target.value || undefined)}
      options={[{ value: '', label: allLabel }, ...options]}
    />
  );
}
