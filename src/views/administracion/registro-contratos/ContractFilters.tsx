import type { Contract } from '../../../schemas/administracion/contracts';
import { CONTRACT_STATES, CONTRACT_STATE_LABELS } from '../../../schemas/administracion/contracts';
import { CONTRACT_KINDS, CONTRACT_KIND_LABELS } from '../../../schemas/administracion/contract-templates';
import type { SubdivisionOption } from '../../../schemas/proyectos/subdivision-options';
import { DateRangeFilter } from '../../shared/DateRangeFilter';
import { FilterSelect } from '../../shared/FilterSelect';
import type { ResourceListRef } from '../../shared/resource-hooks';

/** Filters of the register a link may carry. */
export const CONTRACT_FILTERS = ['state', 'kind', 'subdivision_id', 'agent_id', 'issued_from', 'issued_to', 'overdue'];

/** State, kind, subdivision, signature overdue, issue date range (the text search is the toolbar's). */
export function ContractFilters({ list, subdivisions }: { list: ResourceListRef<Contract>; subdivisions: SubdivisionOption[] }) {
  return (
    <>
      <FilterSelect
        list={list}
        field="state"
        label="Estado"
        allLabel="Todos los estados"
        options={CONTRACT_STATES.map((s) => ({ value: s, label: CONTRACT_STATE_LABELS[s] }))}
      />
      <FilterSelect
        list={list}
        field="kind"
        label="Tipo"
        allLabel="Todos los tipos"
        options={CONTRACT_KINDS.map((k) => ({ value: k, label: CONTRACT_KIND_LABELS[k] }))}
      />
      <FilterSelect
        list={list}
        field="subdivision_id"
        label="Lotización"
        allLabel="Todas las lotizaciones"
        options={subdivisions.map((s) => ({ value: String(s.id), label: s.name }))}
      />
      <FilterSelect
        list={list}
        field="overdue"
        label="Firma"
        allLabel="Toda firma"
        options={[{ value: 'true', label: 'Firma pendiente vencida' }]}
      />
      <span role="group" aria-label="Emisión" className="contracts-issued-range">
        <DateRangeFilter
          list={list}
          fromField="issued_from"
          toField="issued_to"
          labels={['Emitido desde', 'hasta']}
          idPrefix="contracts-issued"
          minDate="2000-01-01"
          maxDate="2099-12-31"
          className="contracts-issued-end"
        />
      </span>
    </>
  );
}
