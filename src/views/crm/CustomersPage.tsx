import { use, useEffect, useMemo } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Button, Callout, Tag } from '@blueprintjs/core';
import { HTMLSelect } from '../shared/BlueprintEs';
import { useSearch } from 'wouter';
import { z } from 'zod';
import { DOCUMENT_TYPES } from '../../schemas/documents';
import { listQueryFromSearchParams } from '../../schemas/list';
import {
  createCustomerRequestSchema,
  MARITAL_STATUSES,
  MARITAL_STATUS_LABELS,
  PROPERTY_REGIMES,
  PROPERTY_REGIME_LABELS,
  PERSON_TYPES,
  PERSON_TYPE_LABELS,
  STATUSES_WITH_SPOUSE,
  type Customer,
  type StaffOption,
} from '../../schemas/crm/customers';
import { departments, districtsOf, provincesOf, ubigeoLabel } from '../../lib/ubigeo';
import type { CustomerActionKind, CustomerChoice, CustomersMachines } from '../../machines/crm/customers.actors';
import { inspectOption } from '../../machines/inspect';
import { useServices } from '../services';
import { ResourceTable, type RowAction, type TableColumn } from '../shared/ResourceTable';
import { ResourceToolbar } from '../shared/ResourceToolbar';
import { RecordActionAlert, useRecordActions, type ActionConfirmation } from '../shared/RecordActions';
import { ListStates } from '../shared/ListStates';
import { FilterSelect } from '../shared/FilterSelect';
import { EditorDrawer } from '../shared/EditorDialog';
import { SelectField, TextField } from '../shared/FormField';
import { DateField, blankToNull } from '../shared/EditorFields';
import { FieldGroup } from '../shared/FieldGroup';
import { CustomerSuggest } from '../shared/CustomerSuggest';
import { useResourceActors, useResourceEditor, useResourceEditorEvents } from '../shared/resource-hooks';
import { CustomerDetailDrawer, useCustomerDetailSections } from './CustomerDetailDrawer';
import { QuoteDialog } from '../comercio/QuoteDialog';
import '../../styles/crm.css';

/**
 * CRM → Clientes (issue "CRM and sales"): the customers, staff-entered and self-registered alike
 * (docs/decisions.md "CRM customers and portal accounts: one table"), with search, filters
 * (estado, tipo de persona, asesor, usuario del portal) and sorting; "Nuevo cliente" / "Editar" in
 * a side drawer (person type, document, names or business name, legal representative, birthday,
 * marital status and spouse, contact, address with the ubigeo cascade, agent and collector); row
 * actions "Ver" (the customer's detail: leads, quotes, reservations, sales and balances, by
 * permission; CustomerDetailDrawer.tsx), "Enviar acceso al portal", "Desactivar" / "Reactivar"
 * (asked first); "Eliminar" in the editor (refused for customers with a portal login).
 */

const STATUS_LABEL: Record<Customer['status'], string> = { ACTIVO: 'Activo', INACTIVO: 'Inactivo' };
const DOCUMENT_LABEL: Record<string, string> = Object.fromEntries(DOCUMENT_TYPES.map((d) => [d.code, d.label]));
const staffName = (s: StaffOption | null) => (s ? `${s.name} ${s.surname}`.trim() : '');

const COLUMNS: TableColumn<Customer>[] = [
  { key: 'name', label: 'Cliente', sortable: true, render: (c) => c.display_name, exportValue: (c) => c.display_name },
  {
    key: 'document_number',
    label: 'Documento',
    sortable: true,
    render: (c) => `${DOCUMENT_LABEL[c.id_document_type] ?? c.id_document_type} ${c.document_number}`,
    exportValue: (c) => `${DOCUMENT_LABEL[c.id_document_type] ?? c.id_document_type} ${c.document_number}`,
  },
  { key: 'phone', label: 'Celular' },
  { key: 'email', label: 'Correo' },
  { key: 'agent', label: 'Asesor', render: (c) => staffName(c.agent), exportValue: (c) => staffName(c.agent) },
  {
    key: 'collector',
    label: 'Cobrador',
    render: (c) => staffName(c.collector),
    exportValue: (c) => staffName(c.collector),
    hiddenByDefault: true,
  },
  {
    key: 'ubigeo',
    label: 'Ubigeo',
    render: (c) => (c.ubigeo ? (ubigeoLabel(c.ubigeo) ?? c.ubigeo) : ''),
    exportValue: (c) => (c.ubigeo ? (ubigeoLabel(c.ubigeo) ?? c.ubigeo) : ''),
    hiddenByDefault: true,
  },
  {
    key: 'person_type',
    label: 'Tipo',
    render: (c) => PERSON_TYPE_LABELS[c.person_type],
    exportValue: (c) => PERSON_TYPE_LABELS[c.person_type],
    hiddenByDefault: true,
  },
  {
    key: 'portal_user',
    label: 'Portal',
    render: (c) => (
      <Tag minimal intent={c.portal_user ? 'primary' : 'none'}>
        {c.portal_user ? 'Con usuario' : 'Sin usuario'}
      </Tag>
    ),
    exportValue: (c) => (c.portal_user ? 'Con usuario' : 'Sin usuario'),
  },
  {
    key: 'status',
    label: 'Estado',
    render: (c) => (
      <Tag minimal intent={c.status === 'ACTIVO' ? 'success' : 'none'}>
        {STATUS_LABEL[c.status]}
      </Tag>
    ),
    exportValue: (c) => STATUS_LABEL[c.status],
  },
  { key: 'created_at', label: 'Registrado', sortable: true, hiddenByDefault: true },
];

export const CUSTOMER_FIELDS = [
  'person_type',
  'id_document_type',
  'document_number',
  'name',
  'surname',
  'legal_representative',
  'birthday_date',
  'marital_status',
  'property_regime',
  'spouse_id',
  'email',
  'phone',
  'alternate_phone',
  'address',
  'ubigeo',
  'agent_id',
  'collector_id',
] as const;

const EMPTY_CUSTOMER = {
  person_type: 'NATURAL',
  id_document_type: '1',
  document_number: '',
  name: '',
  surname: '',
  legal_representative: '',
  birthday_date: '',
  marital_status: '',
  property_regime: '',
  spouse_id: null as number | null,
  email: '',
  phone: '',
  alternate_phone: '',
  address: '',
  ubigeo: '',
  agent_id: null as number | null,
  collector_id: null as number | null,
};

/**
 * Form values → POST/PATCH body: blanks are null; a JURIDICA sends no surname, marital status or
 * spouse, a NATURAL no legal representative; a spouse only with CASADO or CONVIVIENTE, a property
 * regime only with CASADO. The
 * `ubigeo` value may hold a department (2 digits) or province (4) while the cascade is half chosen:
 * the body schema then asks for the district.
 */
export const customerFormSchema = z.preprocess((values) => {
  if (typeof values !== 'object' || values === null) return values;
  const v = { ...(values as Record<string, unknown>) };
  for (const f of [
    'surname',
    'legal_representative',
    'birthday_date',
    'marital_status',
    'property_regime',
    'email',
    'alternate_phone',
    'address',
    'ubigeo',
  ])
    v[f] = blankToNull(v[f]);
  if (v.person_type === 'JURIDICA') Object.assign(v, { surname: null, marital_status: null, spouse_id: null, property_regime: null });
  else v.legal_representative = null;
  if (!STATUSES_WITH_SPOUSE.includes(v.marital_status as never)) v.spouse_id = null;
  // The property regime is a married customer's (Código Civil art. 295).
  if (v.marital_status !== 'CASADO') v.property_regime = null;
  return v;
}, createCustomerRequestSchema);

function toValues(c: Customer) {
  return {
    person_type: c.person_type,
    id_document_type: c.id_document_type,
    document_number: c.document_number,
    name: c.name,
    surname: c.surname ?? '',
    legal_representative: c.legal_representative ?? '',
    birthday_date: c.birthday_date ?? '',
    marital_status: c.marital_status ?? '',
    property_regime: c.property_regime ?? '',
    spouse_id: c.spouse?.id ?? null,
    email: c.email ?? '',
    phone: c.phone ?? '',
    alternate_phone: c.alternate_phone ?? '',
    address: c.address ?? '',
    ubigeo: c.ubigeo ?? '',
    agent_id: c.agent?.id ?? null,
    collector_id: c.collector?.id ?? null,
  };
}

type CustomerEditorRef = ActorRefFrom<CustomersMachines['editor']>;

/** Reads one editor value and the field's error, and changes it. */
function useEditorField(editor: CustomerEditorRef, field: string) {
  const value = useResourceEditor(editor, (s) => s.context.values[field]);
  const error = useResourceEditor(editor, (s) => s.context.errors[field]);
  const busy = useResourceEditor(editor, (s) => s.matches('submitting') || s.matches('deleting'));
  const { change } = useResourceEditorEvents(editor);
  return { value, error, busy, change: (v: unknown) => change(field, v) };
}

/**
 * Department → province → district from src/lib/ubigeo.ts, all three bound to the editor's
 * `ubigeo` (its first 2, 4 or 6 digits): changing a level clears the ones below.
 */
function UbigeoField({ editor }: { editor: CustomerEditorRef }) {
  const f = useEditorField(editor, 'ubigeo');
  const code = typeof f.value === 'string' ? f.value : '';
  const dep = code.slice(0, 2);
  const prov = code.length >= 4 ? code.slice(0, 4) : '';
  const dist = code.length === 6 ? code : '';
  const allDepartments = useMemo(departments, []);
  const provinces = useMemo(() => provincesOf(dep), [dep]);
  const districts = useMemo(() => districtsOf(prov), [prov]);
  const select = (id: string, label: string, value: string, places: { code: string; name: string }[], onPick: (v: string) => void) => (
    <HTMLSelect
      id={id}
      aria-label={label}
      fill
      value={value}
      disabled={f.busy || (places.length === 0 && value === '')}
      onChange={(e) => onPick(e.target.value)}
      options={[{ value: '', label: label }, ...places.map((p) => ({ value: p.code, label: p.name }))]}
      aria-invalid={Boolean(f.error)}
      aria-describedby={f.error ? 'editor-ubigeo-error' : undefined}
    />
  );
  return (
    <FieldGroup label="Ubigeo" labelFor="editor-ubigeo" error={f.error} hint="Departamento, provincia y distrito">
      <div className="ubigeo-cascade">
        {select('editor-ubigeo', 'Departamento', dep, allDepartments, (v) => f.change(v))}
        {select('editor-ubigeo-province', 'Provincia', prov, provinces, (v) => f.change(v || dep))}
        {select('editor-ubigeo-district', 'Distrito', dist, districts, (v) => f.change(v || prov))}
      </div>
    </FieldGroup>
  );
}

/** A staff picker (agent, collector) bound to an id field; blank → null. */
function StaffField({ editor, field, label, staff }: { editor: CustomerEditorRef; field: string; label: string; staff: StaffOption[] }) {
  const f = useEditorField(editor, field);
  const id = `editor-${field}`;
  const current = typeof f.value === 'number' ? f.value : null;
  // Someone no longer active still shows while the record keeps them.
  const record = useResourceEditor(editor, (s) => s.context.record);
  const kept = record ? (field === 'agent_id' ? record.agent : record.collector) : null;
  const options = kept && !staff.some((s) => s.id === kept.id) ? [...staff, kept] : staff;
  return (
    <FieldGroup label={label} labelFor={id} error={f.error}>
      <HTMLSelect
        id={id}
        fill
        value={current === null ? '' : String(current)}
        disabled={f.busy}
        onChange={(e) => f.change(e.target.value ? Number(e.target.value) : null)}
        options={[{ value: '', label: 'Sin asignar' }, ...options.map((s) => ({ value: String(s.id), label: staffName(s) }))]}
        aria-invalid={Boolean(f.error)}
        aria-describedby={f.error ? `${id}-error` : undefined}
      />
    </FieldGroup>
  );
}

/** The spouse: a search over NATURAL customers (the lookup machine), bound to `spouse_id`. */
function SpouseField({ editor, lookup }: { editor: CustomerEditorRef; lookup: ActorRefFrom<CustomersMachines['spouseLookup']> }) {
  const f = useEditorField(editor, 'spouse_id');
  const record = useResourceEditor(editor, (s) => s.context.record);
  const results = useSelector(lookup, (s) => s.context.results);
  const lookupError = useSelector(lookup, (s) => s.context.error);
  const current = typeof f.value === 'number' ? f.value : null;
  const known: CustomerChoice[] = [...results];
  if (record?.spouse && !known.some((c) => c.id === record.spouse?.id)) known.push({ ...record.spouse, document_number: '' });
  const selected = current === null ? null : (known.find((c) => c.id === current) ?? null);
  return (
    <FieldGroup
      label="Cónyuge o conviviente"
      labelFor="editor-spouse_id"
      error={f.error ?? lookupError ?? undefined}
      hint="Busque por nombre o documento"
    >
      <CustomerSuggest
        id="editor-spouse_id"
        lookup={lookup}
        selected={selected}
        onSelect={(c) => f.change(c.id)}
        exclude={record?.id}
        disabled={f.busy}
        invalid={Boolean(f.error)}
        rightElement={
          current !== null ? (
            <Button variant="minimal" icon="cross" aria-label="Quitar cónyuge" onClick={() => f.change(null)} />
          ) : undefined
        }
      />
    </FieldGroup>
  );
}

const CONFIRM: Record<CustomerActionKind, ActionConfirmation<Customer>> = {
  sendPasswordReset: {
    text: 'Enviar',
    intent: 'primary',
    question: (c) => `¿Enviar a ${c.email ?? ''} un enlace para que ${c.display_name} cree su contraseña del portal?`,
  },
  deactivate: {
    text: 'Desactivar',
    intent: 'danger',
    question: (c) => `¿Desactivar a ${c.display_name}? Si tiene usuario del portal, sus sesiones se cerrarán.`,
  },
  reactivate: { text: 'Reactivar', intent: 'primary', question: (c) => `¿Reactivar a ${c.display_name}?` },
};

export function CustomersScreen() {
  const machines = use(useServices().machines.customers());
  return <CustomersPage machines={machines} />;
}

export function CustomersPage({ machines }: { machines: CustomersMachines }) {
  const search = useSearch();
  const { today } = useServices();
  const { list, editor } = useResourceActors(machines, {
    list: {
      columns: COLUMNS,
      exportName: 'clientes',
      query: listQueryFromSearchParams(search, { allowedFilters: ['status', 'person_type', 'agent_id', 'portal_user'] }),
    },
    editor: { schema: customerFormSchema, fields: CUSTOMER_FIELDS, empty: EMPTY_CUSTOMER, toValues },
  });
  const { actions, request } = useRecordActions(machines.actions, list);
  const staffActor = useActorRef(machines.staff, inspectOption());
  const lookup = useActorRef(machines.spouseLookup, inspectOption());
  const detail = useActorRef(machines.detail, inspectOption());
  const quote = useActorRef(machines.quote, inspectOption());
  // A quote made from the detail ("Cotizar") shows in its Cotizaciones section.
  useEffect(() => {
    const subscription = quote.on('saved', () => detail.send({ type: 'detail.retry' }));
    return () => subscription.unsubscribe();
  }, [quote, detail]);
  const detailSections = useCustomerDetailSections();
  const staff = useSelector(staffActor, (s) => s.context.value);
  const staffError = useSelector(staffActor, (s) => (s.matches('failure') ? s.context.error : null));
  const personType = useResourceEditor(editor, (s) => s.context.values.person_type);
  const maritalStatus = useResourceEditor(editor, (s) => s.context.values.marital_status);
  const { openCreate, openEdit } = useResourceEditorEvents(editor);

  const rowActions: RowAction<Customer>[] = [
    { text: 'Ver', icon: 'eye-open', onClick: (c) => detail.send({ type: 'detail.open', customer: c, sections: detailSections }) },
    { text: 'Editar', icon: 'edit', onClick: (c) => openEdit(c) },
    {
      text: 'Enviar acceso al portal',
      icon: 'envelope',
      onClick: request('sendPasswordReset'),
      hidden: (c) => !c.email || c.status !== 'ACTIVO',
    },
    { text: 'Desactivar', icon: 'disable', intent: 'danger', onClick: request('deactivate'), hidden: (c) => c.status !== 'ACTIVO' },
    { text: 'Reactivar', icon: 'tick-circle', onClick: request('reactivate'), hidden: (c) => c.status === 'ACTIVO' },
  ];
  const juridica = personType === 'JURIDICA';

  return (
    <section className="crm-page" aria-labelledby="clientes-title">
      <h1 id="clientes-title" className="bp6-heading crm-page-title">
        Clientes
      </h1>
      <ResourceToolbar
        list={list}
        onNew={() => openCreate()}
        newLabel="Nuevo cliente"
        filters={
          <>
            <FilterSelect
              list={list}
              field="status"
              label="Estado"
              allLabel="Todos los estados"
              options={[
                { value: 'ACTIVO', label: 'Activo' },
                { value: 'INACTIVO', label: 'Inactivo' },
              ]}
            />
            <FilterSelect
              list={list}
              field="person_type"
              label="Tipo de persona"
              allLabel="Todas las personas"
              options={PERSON_TYPES.map((t) => ({ value: t, label: PERSON_TYPE_LABELS[t] }))}
            />
            <FilterSelect
              list={list}
              field="agent_id"
              label="Asesor"
              allLabel="Todos los asesores"
              options={staff.map((s) => ({ value: String(s.id), label: staffName(s) }))}
            />
            <FilterSelect
              list={list}
              field="portal_user"
              label="Usuario del portal"
              allLabel="Con y sin usuario"
              options={[
                { value: 'true', label: 'Con usuario del portal' },
                { value: 'false', label: 'Sin usuario del portal' },
              ]}
            />
          </>
        }
      />
      {staffError ? (
        <Callout intent="warning" compact className="crm-callout">
          No se pudo cargar la lista de colaboradores: {staffError}{' '}
          <Button variant="minimal" size="small" text="Reintentar" onClick={() => staffActor.send({ type: 'options.retry' })} />
        </Callout>
      ) : null}
      <ResourceTable<Customer> list={list} columns={COLUMNS} rowKey={(c) => c.id} caption="Clientes" rowActions={rowActions} />
      <ListStates list={list} emptyAction={<Button icon="plus" intent="primary" text="Nuevo cliente" onClick={() => openCreate()} />} />
      <EditorDrawer editor={editor} createTitle="Nuevo cliente" editTitle="Editar cliente" canDelete>
        <div className="form-grid">
          <SelectField
            editor={editor}
            field="person_type"
            label="Tipo de persona"
            options={PERSON_TYPES.map((t) => ({ value: t, label: PERSON_TYPE_LABELS[t] }))}
          />
          <SelectField
            editor={editor}
            field="id_document_type"
            label="Tipo de documento"
            options={DOCUMENT_TYPES.map((d) => ({ value: d.code, label: d.label }))}
          />
          <TextField editor={editor} field="document_number" label="Número de documento" autoComplete="off" />
          <TextField editor={editor} field="name" label={juridica ? 'Razón social' : 'Nombres'} />
          {juridica ? (
            <TextField editor={editor} field="legal_representative" label="Representante legal" />
          ) : (
            <TextField editor={editor} field="surname" label="Apellidos" />
          )}
          <DateField
            editor={editor}
            field="birthday_date"
            label={juridica ? 'Fecha de constitución' : 'Fecha de nacimiento'}
            minDate="1900-01-01"
            maxDate={today()}
          />
          {juridica ? null : (
            <SelectField
              editor={editor}
              field="marital_status"
              label="Estado civil"
              options={MARITAL_STATUSES.map((m) => ({ value: m, label: MARITAL_STATUS_LABELS[m] }))}
            />
          )}
          {!juridica && maritalStatus === 'CASADO' ? (
            <SelectField
              editor={editor}
              field="property_regime"
              label="Régimen patrimonial"
              options={PROPERTY_REGIMES.map((r) => ({ value: r, label: PROPERTY_REGIME_LABELS[r] }))}
            />
          ) : null}
          {!juridica && STATUSES_WITH_SPOUSE.includes(maritalStatus as never) ? <SpouseField editor={editor} lookup={lookup} /> : null}
          <TextField editor={editor} field="phone" label="Celular" type="tel" />
          <TextField editor={editor} field="alternate_phone" label="Otro celular" type="tel" />
          <TextField editor={editor} field="email" label="Correo electrónico" type="email" autoComplete="off" />
          <TextField editor={editor} field="address" label="Dirección" />
        </div>
        <UbigeoField editor={editor} />
        <div className="form-grid">
          <StaffField editor={editor} field="agent_id" label="Asesor" staff={staff} />
          <StaffField editor={editor} field="collector_id" label="Cobrador" staff={staff} />
        </div>
      </EditorDrawer>
      <RecordActionAlert actions={actions} confirmations={CONFIRM} />
      <CustomerDetailDrawer
        detail={detail}
        onQuote={(c) =>
          quote.send({
            type: 'quote.openForCustomer',
            customer: { id: c.id, display_name: c.display_name, document_number: c.document_number },
            today: today(),
          })
        }
      />
      <QuoteDialog actor={quote} />
    </section>
  );
}
