import { useActorRef, useSelector } from '@xstate/react';
import { Button } from '@blueprintjs/core';
import { useSearch } from 'wouter';
import { listQueryFromSearchParams } from '../../../schemas/list';
import type { Expense } from '../../../schemas/reportes/expenses';
import type { ReportsMachines } from '../../../machines/reportes/reports.actors';
import { inspectOption } from '../../../machines/inspect';
import { todayInLima } from '../../../lib/lima-today';
import { ResourceTable, type RowAction } from '../../shared/ResourceTable';
import { ResourceToolbar } from '../../shared/ResourceToolbar';
import { ListStates } from '../../shared/ListStates';
import { FilterSelect } from '../../shared/FilterSelect';
import { DateRangeFilter } from '../../shared/DateRangeFilter';
import { useResourceActors, useResourceEditorEvents } from '../../shared/resource-hooks';
import { EXPENSE_COLUMNS } from './expense-columns';
import { emptyExpense, EXPENSE_FIELDS, ExpenseEditor, expenseFormSchema, expenseToValues } from './ExpenseEditor';

/**
 * /ReportesEconomicos → Egresos (`?reporte=egresos`; docs/reports.md "Ingresos vs egresos and the
 * expenses register"): the expenses that feed Ingresos vs egresos, with search (concepto,
 * comprobante), filters Desde / Hasta / Lotización kept in the address, sorting by fecha or monto,
 * export, "Nuevo egreso" and per row "Editar" and "Eliminar" (after a confirmation). The machines
 * are the reports module's `expenses` (the CRUD pattern) and `expenseSubdivisions`.
 */
export function ExpensesTab({ machines }: { machines: ReportsMachines }) {
  const search = useSearch();
  const { list, editor } = useResourceActors(machines.expenses, {
    list: {
      columns: EXPENSE_COLUMNS,
      exportName: 'egresos',
      query: listQueryFromSearchParams(search, { allowedFilters: ['from', 'to', 'subdivision_id'] }),
    },
    editor: { schema: expenseFormSchema, fields: EXPENSE_FIELDS, empty: emptyExpense(), toValues: expenseToValues },
  });
  const options = useActorRef(machines.expenseSubdivisions, inspectOption());
  const subdivisions = useSelector(options, (s) => s.context.value);
  const { openCreate, openEdit, askDelete } = useResourceEditorEvents(editor);
  const create = () => openCreate(emptyExpense());
  const rowActions: RowAction<Expense>[] = [
    { text: 'Editar', icon: 'edit', onClick: (e) => openEdit(e) },
    {
      text: 'Eliminar',
      icon: 'trash',
      intent: 'danger',
      onClick: (e) => {
        openEdit(e);
        askDelete();
      },
    },
  ];
  return (
    <div className="expenses-tab">
      <ResourceToolbar
        list={list}
        onNew={create}
        newLabel="Nuevo egreso"
        filters={
          <>
            <DateRangeFilter
              list={list}
              fromField="from"
              toField="to"
              labels={['Desde', 'Hasta']}
              idPrefix="expenses"
              minDate="2000-01-01"
              maxDate={todayInLima()}
              className="expenses-date-filter"
            />
            <FilterSelect
              list={list}
              field="subdivision_id"
              label="Lotización"
              allLabel="Todas las lotizaciones"
              options={subdivisions.map((s) => ({ value: String(s.id), label: s.name }))}
            />
          </>
        }
      />
      <ResourceTable<Expense> list={list} columns={EXPENSE_COLUMNS} rowKey={(e) => e.id} caption="Egresos" rowActions={rowActions} />
      <ListStates list={list} emptyAction={<Button icon="plus" intent="primary" text="Nuevo egreso" onClick={create} />} />
      <ExpenseEditor editor={editor} subdivisions={subdivisions} />
    </div>
  );
}
