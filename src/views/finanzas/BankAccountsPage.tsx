import { use } from 'react';
import { useSelector } from '@xstate/react';
import { Button, Tag } from '@blueprintjs/core';
import { HTMLSelect } from '../shared/BlueprintEs';
import { useSearch } from 'wouter';
import { listQueryFromSearchParams } from '../../schemas/list';
import { BANK_ACCOUNT_KINDS, createBankAccountRequestSchema, type BankAccount } from '../../schemas/finanzas/bank-accounts';
import { PERUVIAN_BANKS, bankName } from '../../schemas/finanzas/banks';
import { cciHint, type BankAccountsMachines } from '../../machines/finanzas/bank-accounts.actors';
import { useServices } from '../services';
import { ResourceTable, type RowAction, type TableColumn } from '../shared/ResourceTable';
import { ResourceToolbar } from '../shared/ResourceToolbar';
import { ListStates } from '../shared/ListStates';
import { EditorDrawer } from '../shared/EditorDialog';
import { SelectField, TextField } from '../shared/FormField';
import { CheckboxField } from '../shared/EditorFields';
import { useResourceActors, useResourceEditor, useResourceEditorEvents, useResourceListEvents } from '../shared/resource-hooks';
import '../../styles/finanzas.css';

/**
 * Finanzas → Bancos (issue 16, first slice): the company's bank accounts with search (titular,
 * número, CCI), filters estado / banco / moneda in the URL, sorting, and the editor drawer: the bank
 * picker shows the catalogue (src/schemas/finanzas/banks.ts), the CCI field says what is wrong as it
 * is typed (length, the bank's code, the check digits), "Activa" deactivates, "Eliminar" deletes.
 */

/** Spanish labels of the account kinds. */
export const KIND_LABEL: Record<BankAccount['kind'], string> = { AHORROS: 'Ahorros', CORRIENTE: 'Corriente' };
/** Spanish labels of the currencies. */
const CURRENCY_LABEL = { PEN: 'S/ (soles)', USD: 'US$ (dólares)' } as const;

/** "002-191-000123456789-57": a CCI grouped as entity, branch, account, check digits. */
export function formatCci(cci: string): string {
  return /^\d{20}$/.test(cci) ? `${cci.slice(0, 3)}-${cci.slice(3, 6)}-${cci.slice(6, 18)}-${cci.slice(18)}` : cci;
}

function ActiveTag({ active }: { active: boolean }) {
  return (
    <Tag minimal intent={active ? 'success' : 'none'}>
      {active ? 'Activa' : 'Inactiva'}
    </Tag>
  );
}

const COLUMNS: TableColumn<BankAccount>[] = [
  { key: 'bank', label: 'Banco', sortable: true, render: (a) => bankName(a.bank), exportValue: (a) => bankName(a.bank) },
  { key: 'kind', label: 'Tipo', sortable: true, render: (a) => KIND_LABEL[a.kind], exportValue: (a) => KIND_LABEL[a.kind] },
  {
    key: 'currency',
    label: 'Moneda',
    sortable: true,
    render: (a) => (a.currency === 'PEN' ? 'S/' : 'US$'),
    exportValue: (a) => a.currency,
  },
  { key: 'number', label: 'Número', render: (a) => <span className="finance-mono">{a.number}</span> },
  {
    key: 'cci',
    label: 'CCI',
    render: (a) => <span className="finance-mono">{formatCci(a.cci)}</span>,
    exportValue: (a) => a.cci,
  },
  { key: 'holder', label: 'Titular', sortable: true },
  {
    key: 'active',
    label: 'Estado',
    render: (a) => <ActiveTag active={a.active} />,
    exportValue: (a) => (a.active ? 'Activa' : 'Inactiva'),
  },
];

export const BANK_ACCOUNT_FIELDS = ['bank', 'kind', 'currency', 'number', 'cci', 'holder', 'active'] as const;
const EMPTY_ACCOUNT = { bank: '', kind: 'AHORROS', currency: 'PEN', number: '', cci: '', holder: '', active: true };

function toValues(a: BankAccount) {
  return { bank: a.bank, kind: a.kind, currency: a.currency, number: a.number, cci: a.cci, holder: a.holder, active: a.active };
}

export function BankAccountsScreen() {
  const machines = use(useServices().machines.bankAccounts());
  return <BankAccountsPage machines={machines} />;
}

export function BankAccountsPage({ machines }: { machines: BankAccountsMachines }) {
  const search = useSearch();
  const { list, editor } = useResourceActors(machines, {
    list: {
      columns: COLUMNS,
      exportName: 'cuentas-bancarias',
      query: listQueryFromSearchParams(search, { allowedFilters: ['active', 'bank', 'currency'] }),
    },
    editor: { schema: createBankAccountRequestSchema, fields: BANK_ACCOUNT_FIELDS, empty: EMPTY_ACCOUNT, toValues },
  });
  const filters = useSelector(list, (s) => s.context.query.filters);
  const hint = useResourceEditor(editor, (s) => cciHint(s.context.values));
  const { openCreate, openEdit } = useResourceEditorEvents(editor);
  const { changeFilter } = useResourceListEvents(list);
  const rowActions: RowAction<BankAccount>[] = [{ text: 'Editar', icon: 'edit', onClick: (a) => openEdit(a) }];

  return (
    <section className="finance-page" aria-labelledby="bancos-title">
      <h1 id="bancos-title" className="bp6-heading finance-page-title">
        Bancos
      </h1>
      <ResourceToolbar
        list={list}
        onNew={() => openCreate()}
        newLabel="Nueva cuenta"
        filters={
          <>
            <HTMLSelect
              aria-label="Estado"
              value={filters.active ?? ''}
              onChange={(e) => changeFilter('active', e.target.value || undefined)}
              options={[
                { value: '', label: 'Activas e inactivas' },
                { value: 'true', label: 'Activas' },
                { value: 'false', label: 'Inactivas' },
              ]}
            />
            <HTMLSelect
              aria-label="Banco"
              value={filters.bank ?? ''}
              onChange={(e) => changeFilter('bank', e.target.value || undefined)}
              options={[{ value: '', label: 'Todos los bancos' }, ...PERUVIAN_BANKS.map((b) => ({ value: b.code, label: b.name }))]}
            />
            <HTMLSelect
              aria-label="Moneda"
              value={filters.currency ?? ''}
              onChange={(e) => changeFilter('currency', e.target.value || undefined)}
              options={[
                { value: '', label: 'Todas las monedas' },
                { value: 'PEN', label: 'S/' },
                { value: 'USD', label: 'US$' },
              ]}
            />
          </>
        }
      />
      <ResourceTable<BankAccount> list={list} columns={COLUMNS} rowKey={(a) => a.id} caption="Cuentas bancarias" rowActions={rowActions} />
      <ListStates list={list} emptyAction={<Button icon="plus" intent="primary" text="Nueva cuenta" onClick={() => openCreate()} />} />
      <EditorDrawer editor={editor} createTitle="Nueva cuenta bancaria" editTitle="Editar cuenta bancaria" canDelete>
        <SelectField
          editor={editor}
          field="bank"
          label="Banco"
          options={PERUVIAN_BANKS.map((b) => ({ value: b.code, label: `${b.name} (${b.cciCode})` }))}
        />
        <div className="form-grid">
          <SelectField
            editor={editor}
            field="kind"
            label="Tipo de cuenta"
            options={BANK_ACCOUNT_KINDS.map((k) => ({ value: k, label: KIND_LABEL[k] }))}
          />
          <SelectField
            editor={editor}
            field="currency"
            label="Moneda"
            options={(['PEN', 'USD'] as const).map((c) => ({ value: c, label: CURRENCY_LABEL[c] }))}
          />
        </div>
        <TextField
          editor={editor}
          field="number"
          label="Número de cuenta"
          hint="Se admiten guiones; se guardan solo los dígitos"
          autoComplete="off"
        />
        <TextField
          editor={editor}
          field="cci"
          label="CCI (Código de Cuenta Interbancario)"
          autoComplete="off"
          hint={
            hint ? (
              <span className="cci-hint--problem" role="status">
                {hint}
              </span>
            ) : (
              '20 dígitos: banco, oficina, cuenta y dos dígitos de control'
            )
          }
        />
        <TextField editor={editor} field="holder" label="Titular" />
        <CheckboxField editor={editor} field="active" label="Activa (disponible para recibir pagos)" />
      </EditorDrawer>
    </section>
  );
}
