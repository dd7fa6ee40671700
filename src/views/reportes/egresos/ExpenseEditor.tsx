import { z } from 'zod';
import { HTMLSelect } from '../../shared/BlueprintEs';
import { EditorDrawer } from '../../shared/EditorDialog';
import { DateField, blankToNull } from '../../shared/EditorFields';
import { FieldGroup } from '../../shared/FieldGroup';
import { TextField } from '../../shared/FormField';
import { useResourceEditor, useResourceEditorEvents, type ResourceEditorRef } from '../../shared/resource-hooks';
import { centsToInput, CURRENCY_SYMBOL, parseMoneyInput } from '../../../lib/money';
import { todayInLima } from '../../../lib/lima-today';
import { createExpenseRequestSchema, EXPENSE_DATE_MIN, type CreateExpenseRequest, type Expense } from '../../../schemas/reportes/expenses';
import type { ExpenseSubdivision } from '../../../machines/reportes/reports.actors';

/**
 * The editor of an expense (tab Egresos, ExpensesTab.tsx): Fecha (the app's date input, 01/01/2000
 * … today in Lima), Lotización (its choice also sets the expense's currency, the subdivision's),
 * Concepto, Monto (typed in soles or dollars, "1,250.50"; sent in céntimos) and Comprobante
 * (optional). Server 422 messages show under their fields; a stale edit shows the app's "Recargar".
 */

/** The form's fields (a 422 on another path, e.g. `currency`, becomes the form's message). */
export const EXPENSE_FIELDS = ['expense_date', 'subdivision_id', 'concept', 'amount', 'voucher'] as const;

/** Messages of the money field, as typed in soles or dollars (the schema's speak of céntimos). */
export const EXPENSE_AMOUNT_MESSAGES = {
  required: 'Ingrese un monto mayor que cero',
  invalid: 'Ingrese un monto válido, por ejemplo 1,250.50',
} as const;

/** Values of a new expense: today's date, nothing else chosen. */
export const emptyExpense = () => ({
  expense_date: todayInLima(),
  subdivision_id: '',
  currency: '',
  concept: '',
  amount: '',
  voucher: '',
});

/** An expense → form values (the amount as "1250.00", the ids as text). */
export function expenseToValues(e: Expense) {
  return {
    expense_date: e.expense_date,
    subdivision_id: String(e.subdivision.id),
    currency: e.currency,
    concept: e.concept,
    amount: centsToInput(e.amount),
    voucher: e.voucher ?? '',
  };
}

/**
 * Form values → POST/PUT body (without the version, added by the editor): the subdivision id as a
 * number, the amount typed in currency units → integer céntimos, a blank voucher → null; then the
 * server's own schema (createExpenseRequestSchema).
 */
export const expenseFormSchema = z.preprocess((values, ctx) => {
  if (typeof values !== 'object' || values === null) return values;
  const v = values as Record<string, unknown>;
  const text = String(v.amount ?? '').trim();
  const cents = text === '' ? null : parseMoneyInput(text);
  if (text === '' || cents === 0)
    ctx.addIssue({ code: 'custom', path: ['amount'], message: EXPENSE_AMOUNT_MESSAGES.required, input: text });
  else if (cents === null) ctx.addIssue({ code: 'custom', path: ['amount'], message: EXPENSE_AMOUNT_MESSAGES.invalid, input: text });
  const subdivision = String(v.subdivision_id ?? '');
  return {
    subdivision_id: subdivision === '' ? undefined : Number(subdivision),
    expense_date: v.expense_date,
    concept: v.concept,
    amount: cents ?? undefined,
    currency: v.currency === '' ? undefined : v.currency,
    voucher: blankToNull(v.voucher),
  };
}, createExpenseRequestSchema);

/** Lotización: a select of the subdivisions that also writes the expense's `currency` (its subdivision's). */
function SubdivisionField({
  editor,
  subdivisions,
}: {
  editor: ResourceEditorRef<Expense, CreateExpenseRequest, CreateExpenseRequest>;
  subdivisions: readonly ExpenseSubdivision[];
}) {
  const value = useResourceEditor(editor, (s) => String(s.context.values.subdivision_id ?? ''));
  const error = useResourceEditor(editor, (s) => s.context.errors.subdivision_id);
  const busy = useResourceEditor(editor, (s) => s.matches('submitting') || s.matches('deleting'));
  const { change } = useResourceEditorEvents(editor);
  const id = 'editor-subdivision_id';
  const choose = (next: string) => {
    change('subdivision_id', next);
    change('currency', subdivisions.find((s) => String(s.id) === next)?.currency ?? '');
  };
  return (
    <FieldGroup label="Lotización" labelFor={id} error={error}>
      <HTMLSelect
        id={id}
        fill
        value={value}
        onChange={(e) => choose(e.target.value)}
        disabled={busy}
        options={[{ value: '', label: 'Seleccione…' }, ...subdivisions.map((s) => ({ value: String(s.id), label: s.name }))]}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? `${id}-error` : undefined}
      />
    </FieldGroup>
  );
}

/** The expense editor's drawer ("Nuevo egreso" / "Editar egreso", "Eliminar" when editing). */
export function ExpenseEditor({
  editor,
  subdivisions,
}: {
  editor: ResourceEditorRef<Expense, CreateExpenseRequest, CreateExpenseRequest>;
  /** The subdivisions to choose from, with their currency. */
  subdivisions: readonly ExpenseSubdivision[];
}) {
  const currency = useResourceEditor(editor, (s) => s.context.values.currency);
  const symbol = currency === 'PEN' || currency === 'USD' ? ` (${CURRENCY_SYMBOL[currency]})` : '';
  return (
    <EditorDrawer editor={editor} createTitle="Nuevo egreso" editTitle="Editar egreso" canDelete>
      <DateField editor={editor} field="expense_date" label="Fecha" minDate={EXPENSE_DATE_MIN} maxDate={todayInLima()} />
      <SubdivisionField editor={editor} subdivisions={subdivisions} />
      <TextField editor={editor} field="concept" label="Concepto" />
      <TextField editor={editor} field="amount" label={`Monto${symbol}`} hint="En la moneda de la lotización, p. ej. 1,250.50" />
      <TextField editor={editor} field="voucher" label="Comprobante" hint="N.º de factura o boleta (opcional)" autoComplete="off" />
    </EditorDrawer>
  );
}
