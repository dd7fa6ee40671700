import { HTMLSelect } from '../shared/BlueprintEs';
import { FieldGroup } from '../shared/FieldGroup';
import { IsoDateInput } from '../shared/IsoDateInput';
import {
  REPORT_FILTERS,
  REPORT_GROUPINGS,
  REPORT_GROUPING_LABELS,
  type ReportFilterField,
  type ReportId,
  type ReportOptions,
} from '../../schemas/reportes/report';
import type { ReportFilters } from '../../machines/reportes/report.machine';

/**
 * The filters a report reads (`REPORT_FILTERS`), in that order: Desde and Hasta (empty: this month
 * up to today), Agrupar por (Cobranza), Lotización, Asesor and Moneda ("all" by default). A
 * filter's Spanish error shows under it.
 */
export function ReportFiltersBar({
  report,
  filters,
  errors,
  options,
  onChange,
}: {
  report: ReportId;
  filters: ReportFilters;
  errors: Partial<Record<ReportFilterField, string>>;
  options: ReportOptions;
  onChange: (field: ReportFilterField, value: string) => void;
}) {
  const id = (field: ReportFilterField) => `report-${report}-${field}`;
  const control = (field: ReportFilterField) => {
    switch (field) {
      case 'from':
      case 'to':
        return (
          <FieldGroup key={field} label={field === 'from' ? 'Desde' : 'Hasta'} labelFor={id(field)} error={errors[field]}>
            <IsoDateInput
              id={id(field)}
              value={filters[field]}
              hasError={Boolean(errors[field])}
              describedBy={errors[field] ? `${id(field)}-error` : undefined}
              onChange={(value) => onChange(field, value)}
            />
          </FieldGroup>
        );
      case 'group':
        return (
          <FieldGroup key={field} label="Agrupar" labelFor={id(field)} error={errors[field]}>
            <HTMLSelect
              id={id(field)}
              fill
              value={filters.group || 'day'}
              onChange={(e) => onChange('group', e.target.value)}
              options={REPORT_GROUPINGS.map((g) => ({ value: g, label: REPORT_GROUPING_LABELS[g] }))}
            />
          </FieldGroup>
        );
      case 'subdivision_id':
        return (
          <FieldGroup key={field} label="Lotización" labelFor={id(field)} error={errors[field]}>
            <HTMLSelect
              id={id(field)}
              fill
              value={filters.subdivision_id}
              onChange={(e) => onChange('subdivision_id', e.target.value)}
              options={[
                { value: '', label: 'Todas las lotizaciones' },
                ...options.subdivisions.map((s) => ({ value: String(s.id), label: s.name })),
              ]}
            />
          </FieldGroup>
        );
      case 'agent_id':
        return (
          <FieldGroup key={field} label="Asesor" labelFor={id(field)} error={errors[field]}>
            <HTMLSelect
              id={id(field)}
              fill
              value={filters.agent_id}
              onChange={(e) => onChange('agent_id', e.target.value)}
              options={[{ value: '', label: 'Todos los asesores' }, ...options.agents.map((a) => ({ value: String(a.id), label: a.name }))]}
            />
          </FieldGroup>
        );
      case 'currency':
        return (
          <FieldGroup key={field} label="Moneda" labelFor={id(field)} error={errors[field]}>
            <HTMLSelect
              id={id(field)}
              fill
              value={filters.currency}
              onChange={(e) => onChange('currency', e.target.value)}
              options={[
                { value: '', label: 'Soles y dólares' },
                { value: 'PEN', label: 'Soles (S/)' },
                { value: 'USD', label: 'Dólares (US$)' },
              ]}
            />
          </FieldGroup>
        );
    }
  };
  return (
    <div className="report-filters" role="group" aria-label="Filtros del reporte">
      {REPORT_FILTERS[report].map(control)}
    </div>
  );
}
