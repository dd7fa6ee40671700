import { use } from 'react';
import { useSelector } from '@xstate/react';
import { Button, Callout, Icon, Tag } from '@blueprintjs/core';
import { HTMLSelect } from '../shared/BlueprintEs';
import { useSearch } from 'wouter';
import { listQueryFromSearchParams } from '../../schemas/list';
import { WALLET_KINDS, createWalletRequestSchema, type Wallet } from '../../schemas/finanzas/wallets';
import type { WalletsMachines } from '../../machines/finanzas/wallets.actors';
import { useServices } from '../services';
import { ResourceTable, type RowAction, type TableColumn } from '../shared/ResourceTable';
import { ResourceToolbar } from '../shared/ResourceToolbar';
import { ListStates } from '../shared/ListStates';
import { EditorDrawer } from '../shared/EditorDialog';
import { SelectField, TextField } from '../shared/FormField';
import { CheckboxField } from '../shared/EditorFields';
import { RecordImageField } from '../shared/RecordImageField';
import { useResourceActors, useResourceEditor, useResourceEditorEvents, useResourceListEvents } from '../shared/resource-hooks';
import '../../styles/finanzas.css';

/**
 * Finanzas → Billetera Digital (issue 16, first slice): the company's Yape and Plin wallets with
 * search (celular, titular), filters estado / billetera in the URL, sorting, and the editor drawer
 * (billetera, celular, titular, "Activa"; the QR image shown and uploaded once the wallet exists —
 * PNG or JPEG up to 1 MB; "Eliminar" deletes).
 */

/** Spanish labels of the wallet kinds. */
export const WALLET_LABEL: Record<Wallet['kind'], string> = { YAPE: 'Yape', PLIN: 'Plin' };

/** "987 654 321". */
export function formatPhone(phone: string): string {
  return /^\d{9}$/.test(phone) ? `${phone.slice(0, 3)} ${phone.slice(3, 6)} ${phone.slice(6)}` : phone;
}

const COLUMNS: TableColumn<Wallet>[] = [
  {
    key: 'kind',
    label: 'Billetera',
    sortable: true,
    render: (w) => (
      <Tag minimal intent={w.kind === 'YAPE' ? 'primary' : 'success'}>
        {WALLET_LABEL[w.kind]}
      </Tag>
    ),
    exportValue: (w) => WALLET_LABEL[w.kind],
  },
  { key: 'phone', label: 'Celular', sortable: true, render: (w) => <span className="finance-mono">{formatPhone(w.phone)}</span> },
  { key: 'holder', label: 'Titular', sortable: true },
  {
    key: 'qr_url',
    label: 'QR',
    render: (w) =>
      w.qr_url ? <Icon icon="tick-circle" intent="success" title="Con QR" /> : <span className="bp6-text-muted">Sin QR</span>,
    exportValue: (w) => (w.qr_url ? 'Sí' : 'No'),
  },
  {
    key: 'active',
    label: 'Estado',
    render: (w) => (
      <Tag minimal intent={w.active ? 'success' : 'none'}>
        {w.active ? 'Activa' : 'Inactiva'}
      </Tag>
    ),
    exportValue: (w) => (w.active ? 'Activa' : 'Inactiva'),
  },
];

export const WALLET_FIELDS = ['kind', 'phone', 'holder', 'active'] as const;
const EMPTY_WALLET = { kind: 'YAPE', phone: '', holder: '', active: true };

function toValues(w: Wallet) {
  return { kind: w.kind, phone: w.phone, holder: w.holder, active: w.active };
}

export function WalletsScreen() {
  const machines = use(useServices().machines.wallets());
  return <WalletsPage machines={machines} />;
}

export function WalletsPage({ machines }: { machines: WalletsMachines }) {
  const search = useSearch();
  const { list, editor } = useResourceActors(machines, {
    list: { columns: COLUMNS, exportName: 'billeteras', query: listQueryFromSearchParams(search, { allowedFilters: ['active', 'kind'] }) },
    editor: { schema: createWalletRequestSchema, fields: WALLET_FIELDS, empty: EMPTY_WALLET, toValues },
  });
  const filters = useSelector(list, (s) => s.context.query.filters);
  const editing = useResourceEditor(editor, (s) => (s.context.mode === 'edit' ? s.context.record : null));
  const { openCreate, openEdit } = useResourceEditorEvents(editor);
  const { changeFilter } = useResourceListEvents(list);
  const rowActions: RowAction<Wallet>[] = [{ text: 'Editar', icon: 'edit', onClick: (w) => openEdit(w) }];

  return (
    <section className="finance-page" aria-labelledby="billetera-title">
      <h1 id="billetera-title" className="bp6-heading finance-page-title">
        Billetera Digital
      </h1>
      <ResourceToolbar
        list={list}
        onNew={() => openCreate()}
        newLabel="Nueva billetera"
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
              aria-label="Billetera"
              value={filters.kind ?? ''}
              onChange={(e) => changeFilter('kind', e.target.value || undefined)}
              options={[{ value: '', label: 'Yape y Plin' }, ...WALLET_KINDS.map((k) => ({ value: k, label: WALLET_LABEL[k] }))]}
            />
          </>
        }
      />
      <ResourceTable<Wallet> list={list} columns={COLUMNS} rowKey={(w) => w.id} caption="Billeteras digitales" rowActions={rowActions} />
      <ListStates list={list} emptyAction={<Button icon="plus" intent="primary" text="Nueva billetera" onClick={() => openCreate()} />} />
      <EditorDrawer editor={editor} createTitle="Nueva billetera" editTitle="Editar billetera" canDelete>
        <SelectField
          editor={editor}
          field="kind"
          label="Billetera"
          options={WALLET_KINDS.map((k) => ({ value: k, label: WALLET_LABEL[k] }))}
        />
        <TextField editor={editor} field="phone" label="Celular" type="tel" hint="9 dígitos, empieza con 9" autoComplete="off" />
        <TextField editor={editor} field="holder" label="Titular" />
        <CheckboxField editor={editor} field="active" label="Activa (se muestra a los clientes para pagar)" />
        {editing ? (
          <RecordImageField
            key={editing.id}
            machine={machines.qr}
            target={editing.id}
            url={editing.qr_url}
            list={list}
            id="qr-file"
            className="qr"
            label="Código QR (PNG o JPEG, hasta 1 MB)"
            alt={`QR de ${WALLET_LABEL[editing.kind]} ${formatPhone(editing.phone)}`}
            noun="QR"
          />
        ) : (
          <Callout compact className="finance-hint">
            Podrá subir el código QR después de guardar la billetera.
          </Callout>
        )}
      </EditorDrawer>
    </section>
  );
}
