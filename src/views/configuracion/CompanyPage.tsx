import { use } from 'react';
import { Button, Callout, Card, FileInput, FormGroup, InputGroup, Spinner, Switch, Tag } from '@blueprintjs/core';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { useServices } from '../services';
import { inspectOption } from '../../machines/inspect';
import {
  COMPANY_FIELDS,
  COMPANY_SWITCHES,
  type CompanyField,
  type CompanyMachines,
  type companyFormMachine,
} from '../../machines/configuracion/company.actors';
import { createLocalRequestSchema, LOGO_CONTENT_TYPES, type LocalRecord } from '../../schemas/configuracion/company';
import { ResourceTable, type TableColumn } from '../shared/ResourceTable';
import { ResourceToolbar } from '../shared/ResourceToolbar';
import { ListStates } from '../shared/ListStates';
import { EditorDialog } from '../shared/EditorDialog';
import { TextField } from '../shared/FormField';
import { useResourceEditorEvents } from '../shared/resource-hooks';
import '../../styles/company.css';

/**
 * /CONFIGURACION/empresas "Empresas" (issue "Configuración"): the company's data ("Guardar" sends
 * PATCH company; 422 errors under their fields), its logo (PNG/JPEG/SVG ≤ 1 MB, the current one
 * from GET /logo) and its locals (CRUD pattern list with a create/edit dialog and Activar/Desactivar).
 */

export const COMPANY_LABELS: Record<CompanyField, string> = {
  business_name: 'Razón social',
  ruc: 'RUC',
  address: 'Dirección',
  phone: 'Teléfono',
  email: 'Correo electrónico',
  legal_representative: 'Representante legal',
  sale_backdate_days: 'Días atrás permitidos en la fecha de venta',
  payment_approval_segregation: 'El que registra un pago no puede aprobarlo',
  legal_representative_dni: 'DNI del representante legal',
  legal_representative_power_entry: 'Partida registral del poder del representante',
  contract_place: 'Lugar de firma de los contratos',
  contract_signature_days: 'Días para recibir el contrato firmado',
};

/** Help under a field, when it needs one. */
const COMPANY_HELP: Partial<Record<CompanyField, string>> = {
  sale_backdate_days: 'Una venta puede registrarse con una fecha de hasta estos días antes de hoy; nunca con fecha futura.',
  payment_approval_segregation:
    'Otro usuario con acceso a Pagos debe aprobarlo; un administrador puede exceptuarlo indicando el motivo, que queda en el historial.',
  legal_representative_power_entry: 'Partida y asiento de SUNARP donde consta el poder, p. ej. «Partida 11223344, asiento C00002».',
  contract_place: 'Ciudad que los contratos indican como lugar de firma, p. ej. «Lima».',
  contract_signature_days: 'Un contrato emitido que pasa estos días sin su copia firmada se marca en Registro de Contratos (1 a 365).',
};

/** Fields typed as digits. */
const NUMERIC_FIELDS: readonly CompanyField[] = ['sale_backdate_days', 'contract_signature_days', 'legal_representative_dni'];

const LOCAL_COLUMNS: TableColumn<LocalRecord>[] = [
  { key: 'name', label: 'Nombre', sortable: true },
  { key: 'address', label: 'Dirección' },
  {
    key: 'active',
    label: 'Estado',
    render: (l) => (
      <Tag minimal intent={l.active ? 'success' : 'none'}>
        {l.active ? 'Activo' : 'Inactivo'}
      </Tag>
    ),
    exportValue: (l) => (l.active ? 'Activo' : 'Inactivo'),
  },
];

/** The lazy screen: waits for its machines (loaded with its code), then renders the page. */
export function CompanyScreen() {
  const machines = use(useServices().machines.company());
  return <CompanyPage machines={machines} />;
}

export function CompanyPage({ machines }: { machines: CompanyMachines }) {
  const form = useActorRef(machines.companyForm, inspectOption());
  return (
    <section className="company-page" aria-labelledby="company-title">
      <h1 id="company-title" className="company-page__title">
        Empresas
      </h1>
      <CompanyForm form={form} />
      <Locals machines={machines} />
    </section>
  );
}

type FormRef = ActorRefFrom<typeof companyFormMachine>;

function CompanyForm({ form }: { form: FormRef }) {
  const state = useSelector(form, (s) => s);
  const { values, errors, formError, logoError, company, logoVersion, stale } = state.context;
  if (state.matches('loading')) return <Spinner aria-label="Cargando" />;
  if (state.matches('failure'))
    return (
      <Callout intent="danger" title="No se pudo cargar la empresa">
        <p>{formError}</p>
        <Button text="Reintentar" onClick={() => form.send({ type: 'company.retry' })} />
      </Callout>
    );
  const saving = state.matches('saving');
  const uploading = state.matches('uploading');
  return (
    <Card className="company-page__card">
      <form
        className="company-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          form.send({ type: 'company.submit' });
        }}
      >
        <div className="company-form__grid">
          {COMPANY_FIELDS.map((field) =>
            COMPANY_SWITCHES.includes(field) ? (
              <FormGroup key={field} helperText={COMPANY_HELP[field]}>
                <Switch
                  id={`company-${field}`}
                  label={COMPANY_LABELS[field]}
                  checked={values[field] !== 'false'}
                  onChange={(e) => form.send({ type: 'company.changed', field, value: String(e.currentTarget.checked) })}
                />
              </FormGroup>
            ) : (
              <FormGroup
                key={field}
                label={COMPANY_LABELS[field]}
                labelFor={`company-${field}`}
                intent={errors[field] ? 'danger' : 'none'}
                helperText={errors[field] ? <span id={`company-${field}-error`}>{errors[field]}</span> : COMPANY_HELP[field]}
              >
                <InputGroup
                  id={`company-${field}`}
                  type={field === 'email' ? 'email' : 'text'}
                  inputMode={NUMERIC_FIELDS.includes(field) ? 'numeric' : undefined}
                  value={values[field]}
                  intent={errors[field] ? 'danger' : 'none'}
                  aria-invalid={errors[field] ? true : undefined}
                  aria-describedby={errors[field] ? `company-${field}-error` : undefined}
                  onValueChange={(value) => form.send({ type: 'company.changed', field, value })}
                />
              </FormGroup>
            ),
          )}
        </div>
        {formError ? (
          <Callout intent="danger" role="alert">
            {formError}
            {stale ? (
              <div>
                <Button icon="refresh" text="Recargar" onClick={() => form.send({ type: 'company.reload' })} />
              </div>
            ) : null}
          </Callout>
        ) : null}
        <div className="company-form__actions">
          <Button type="submit" intent="primary" icon="floppy-disk" text="Guardar" loading={saving} />
        </div>
      </form>
      <div className="company-logo">
        <h2 className="company-logo__title">Logo</h2>
        {company?.logo_url ? (
          <img className="company-logo__image" src={`/logo?v=${logoVersion}`} alt={`Logo de ${company.business_name}`} />
        ) : (
          <p className="company-logo__none">Sin logo</p>
        )}
        <FormGroup
          label="Cambiar logo"
          labelFor="company-logo"
          helperText={logoError ? <span role="alert">{logoError}</span> : 'PNG, JPEG o SVG de hasta 1 MB'}
          intent={logoError ? 'danger' : 'none'}
        >
          <FileInput
            text={uploading ? 'Subiendo…' : 'Elegir archivo…'}
            buttonText="Examinar"
            disabled={uploading}
            inputProps={{ id: 'company-logo', accept: LOGO_CONTENT_TYPES.join(','), 'aria-label': 'Cambiar logo' }}
            onInputChange={(e) => {
              const file = e.currentTarget.files?.[0];
              if (file) form.send({ type: 'logo.selected', file });
              e.currentTarget.value = '';
            }}
          />
        </FormGroup>
      </div>
    </Card>
  );
}

function Locals({ machines }: { machines: CompanyMachines }) {
  // One machine for the section (company.actors.ts `createLocalsPageMachine`): it refreshes the
  // list after a save or an activation change.
  const page = useActorRef(machines.localsPage, {
    input: {
      list: { columns: LOCAL_COLUMNS, exportName: 'locales', query: { sort: 'name' } },
      editor: { schema: createLocalRequestSchema, fields: ['name', 'address'], empty: { name: '', address: '' } },
    },
    ...inspectOption(),
  });
  const { list, editor, activation } = page.getSnapshot().context;
  const { openCreate, openEdit } = useResourceEditorEvents(editor);
  return (
    <section className="company-locals" aria-labelledby="company-locals-title">
      <h2 id="company-locals-title" className="company-page__subtitle">
        Locales
      </h2>
      <ResourceToolbar list={list} onNew={() => openCreate()} newLabel="Nuevo local" />
      <ResourceTable<LocalRecord>
        list={list}
        columns={LOCAL_COLUMNS}
        rowKey={(l) => l.id}
        caption="Locales"
        rowActions={[
          { text: 'Editar', icon: 'edit', onClick: (l) => openEdit(l) },
          {
            text: 'Desactivar',
            icon: 'disable',
            intent: 'danger',
            hidden: (l) => !l.active,
            onClick: (l) => activation.send({ type: 'local.setActive', local: l, active: false }),
          },
          {
            text: 'Activar',
            icon: 'tick-circle',
            hidden: (l) => l.active,
            onClick: (l) => activation.send({ type: 'local.setActive', local: l, active: true }),
          },
        ]}
      />
      <ListStates list={list} />
      <EditorDialog editor={editor} createTitle="Nuevo local" editTitle="Editar local">
        <TextField editor={editor} field="name" label="Nombre" />
        <TextField editor={editor} field="address" label="Dirección" />
      </EditorDialog>
    </section>
  );
}
