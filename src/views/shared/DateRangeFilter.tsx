import { Classes } from '@blueprintjs/core';
import { IsoDateInput, INVALID_DATE_VALUE } from './IsoDateInput';
import { useResourceList, useResourceListEvents, type ResourceListRef } from './resource-hooks';

/**
 * Two Spanish date fields (dd/mm/yyyy, ./IsoDateInput.tsx) filtering a resource list by a range:
 * they write the list's `fromField` and `toField` filters as ISO dates (kept in the address by the
 * list machine). A text that is not a date clears its end; moving one end past the other clears the
 * other (the server refuses a range turned over). Used by Pagos (operation dates) and Registro de
 * Cuotas (due dates).
 */
export function DateRangeFilter<Row>({
  list,
  fromField,
  toField,
  labels,
  idPrefix,
  minDate,
  maxDate,
  className,
}: {
  list: ResourceListRef<Row>;
  fromField: string;
  toField: string;
  /** The two fields' visible labels, e.g. ['Desde', 'Hasta']. */
  labels: readonly [string, string];
  /** Prefix of the inputs' ids (unique on the page): `${idPrefix}-from`, `${idPrefix}-to`. */
  idPrefix: string;
  /** First and last selectable day (ISO). */
  minDate: string;
  maxDate: string;
  /** Class of each label + field pair. */
  className: string;
}) {
  const from = useResourceList(list, (s) => s.context.query.filters[fromField] ?? '');
  const to = useResourceList(list, (s) => s.context.query.filters[toField] ?? '');
  const { changeFilter } = useResourceListEvents(list);
  const setDate = (end: 'from' | 'to', value: string) => {
    const next = value === INVALID_DATE_VALUE || value === '' ? undefined : value;
    const other = end === 'from' ? to : from;
    if (next && other && (end === 'from' ? next > other : next < other)) changeFilter(end === 'from' ? toField : fromField, undefined);
    changeFilter(end === 'from' ? fromField : toField, next);
  };
  return (
    <>
      {(['from', 'to'] as const).map((end, i) => (
        <div className={className} key={end}>
          <label htmlFor={`${idPrefix}-${end}`} className={Classes.TEXT_MUTED}>
            {labels[i]}
          </label>
          <IsoDateInput
            id={`${idPrefix}-${end}`}
            value={end === 'from' ? from : to}
            onChange={(v) => setDate(end, v)}
            minDate={minDate}
            maxDate={maxDate}
          />
        </div>
      ))}
    </>
  );
}
