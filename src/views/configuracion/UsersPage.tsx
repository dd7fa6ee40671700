import { use, useMemo } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { Button, Callout, Checkbox, Tag } from '@blueprintjs/core';
import { HTMLSelect } from '../shared/BlueprintEs';
import { useSearch } from 'wouter';
import { listQueryFromSearchParams } from '../../schemas/list';
import { z } from 'zod';
import { createUserRequestSchema, staffPhoneSchema, type StaffUser } from '../../schemas/configuracion/users';
import type { UserActionKind, UserOption, UsersMachines } from '../../machines/configuracion/users.actors';
import { inspectOption } from '../../machines/inspect';
import { useServices } from '../services';
import { ResourceTable, type RowAction, type TableColumn } from '../shared/ResourceTable';
import { ResourceToolbar } from '../shared/ResourceToolbar';
import { RecordActionAlert, useRecordActions, type ActionConfirmation } from '../shared/RecordActions';
import { ListStates } from '../shared/ListStates';
import { EditorDialog } from '../shared/EditorDialog';
import { TextField } from '../shared/FormField';
import { FieldGroup } from '../shared/FieldGroup';
import { useResourceActors, useResourceEditor, useResourceEditorEvents, useResourceListEvents } from '../shared/resource-hooks';
import '../../styles/configuracion.css';

/**
 * Configuración → Usuarios (issue "Configuración"): the staff users with search, filters (estado,
 * rol) and sorting; "Nuevo usuario" / "Editar" in the editor dialog (the server sends the new user
 * a password link: no password is typed here); row actions "Desactivar" / "Reactivar" (after a
 * confirmation) and "Enviar enlace de contraseña". Every action here needs only the screen's own
 * permissions (module Configuración + submodule usuarios), which the route guard already checked.
 */

const STATUS_LABEL: Record<StaffUser['status'], string> = { ACTIVO: 'Activo', INACTIVO: 'Inactivo' };

const COLUMNS: TableColumn<StaffUser>[] = [
  { key: 'name', label: 'Nombres', sortable: true },
  { key: 'surname', label: 'Apellidos', sortable: true },
  { key: 'dni', label: 'DNI', sortable: true },
  { key: 'email', label: 'Correo', sortable: true },
  {
    key: 'roles',
    label: 'Roles',
    render: (u) => u.roles.map((r) => r.name).join(', '),
    exportValue: (u) => u.roles.map((r) => r.name).join(', '),
  },
  {
    key: 'status',
    label: 'Estado',
    render: (u) => (
      <Tag minimal intent={u.status === 'ACTIVO' ? 'success' : 'none'}>
        {STATUS_LABEL[u.status]}
      </Tag>
    ),
    exportValue: (u) => STATUS_LABEL[u.status],
  },
  { key: 'phone', label: 'Celular', hiddenByDefault: true },
];

export const USER_FIELDS = ['dni', 'email', 'name', 'surname', 'phone', 'role_ids', 'local_ids'] as const;
const EMPTY_USER = { dni: '', email: '', name: '', surname: '', phone: '', role_ids: [] as number[], local_ids: [] as number[] };

/** Form values → body: an empty phone is null. */
export const userFormSchema = createUserRequestSchema.extend({
  phone: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? null : v), staffPhoneSchema),
});

/** The Usuarios editor. */
type UserEditorRef = ActorRefFrom<UsersMachines['editor']>;

function toValues(u: StaffUser) {
  return {
    dni: u.dni,
    email: u.email,
    name: u.name,
    surname: u.surname,
    phone: u.phone ?? '',
    role_ids: u.roles.map((r) => r.id),
    local_ids: u.locals.map((l) => l.id),
  };
}

const CONFIRM: Record<UserActionKind, ActionConfirmation<StaffUser>> = {
  deactivate: {
    text: 'Desactivar',
    intent: 'danger',
    question: (u) => `¿Desactivar a ${u.name} ${u.surname}? Sus sesiones abiertas se cerrarán.`,
  },
  reactivate: { text: 'Reactivar', intent: 'primary', question: (u) => `¿Reactivar a ${u.name} ${u.surname}?` },
  sendPasswordReset: {
    text: 'Enviar',
    intent: 'primary',
    question: (u) => `¿Enviar a ${u.email} un enlace para establecer su contraseña?`,
  },
};

/** A list of checkboxes bound to an editor field holding ids. */
function IdChecklist({
  editor,
  field,
  label,
  options,
}: {
  editor: UserEditorRef;
  field: string;
  label: string;
  options: readonly UserOption[];
}) {
  const value = useResourceEditor(editor, (s) => (s.context.values[field] as number[] | undefined) ?? []);
  const error = useResourceEditor(editor, (s) => s.context.errors[field]);
  const busy = useResourceEditor(editor, (s) => s.matches('submitting'));
  const { change } = useResourceEditorEvents(editor);
  const id = `editor-${field}`;
  return (
    <FieldGroup label={label} labelFor={id} error={error}>
      <div
        id={id}
        role="group"
        aria-label={label}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? `${id}-error` : undefined}
        className="id-checklist"
      >
        {options.length === 0 ? <span className="bp6-text-muted">Sin opciones</span> : null}
        {options.map((o) => (
          <Checkbox
            key={o.id}
            label={o.name}
            checked={value.includes(o.id)}
            disabled={busy}
            onChange={(e) => change(field, e.currentTarget.checked ? [...value, o.id] : value.filter((v) => v !== o.id))}
          />
        ))}
      </div>
    </FieldGroup>
  );
}

export function UsersScreen() {
  const machines = use(useServices().machines.users());
  return <UsersPage machines={machines} />;
}

export function UsersPage({ machines }: { machines: UsersMachines }) {
  const search = useSearch();
  const { list, editor } = useResourceActors(machines, {
    list: { columns: COLUMNS, exportName: 'usuarios', query: listQueryFromSearchParams(search, { allowedFilters: ['status', 'role_id'] }) },
    editor: { schema: userFormSchema, fields: USER_FIELDS, empty: EMPTY_USER, toValues },
  });
  const { actions, request } = useRecordActions(machines.actions, list);
  const options = useActorRef(machines.options, inspectOption());
  const roles = useSelector(options, (s) => s.context.value.roles);
  const activeLocals = useSelector(options, (s) => s.context.value.locals);
  // A user's local that is no longer active stays listed (and checked) so saving keeps it.
  const editedLocals = useResourceEditor(editor, (s) => (s.context.record as StaffUser | null)?.locals);
  const locals = useMemo(
    () => [...activeLocals, ...(editedLocals ?? []).filter((l) => !activeLocals.some((o) => o.id === l.id))],
    [activeLocals, editedLocals],
  );
  const optionsError = useSelector(options, (s) => (s.matches('failure') ? s.context.error : null));
  const filters = useSelector(list, (s) => s.context.query.filters);
  const { openCreate, openEdit } = useResourceEditorEvents(editor);
  const { changeFilter } = useResourceListEvents(list);

  const rowActions: RowAction<StaffUser>[] = [
    { text: 'Editar', icon: 'edit', onClick: (u) => openEdit(u) },
    { text: 'Desactivar', icon: 'disable', intent: 'danger', onClick: request('deactivate'), hidden: (u) => u.status !== 'ACTIVO' },
    { text: 'Reactivar', icon: 'tick-circle', onClick: request('reactivate'), hidden: (u) => u.status === 'ACTIVO' },
    { text: 'Enviar enlace de contraseña', icon: 'envelope', onClick: request('sendPasswordReset') },
  ];

  return (
    <section className="config-page" aria-labelledby="usuarios-title">
      <h1 id="usuarios-title" className="bp6-heading config-page-title">
        Usuarios
      </h1>
      <ResourceToolbar
        list={list}
        onNew={() => openCreate()}
        newLabel="Nuevo usuario"
        filters={
          <>
            <HTMLSelect
              aria-label="Estado"
              value={filters.status ?? ''}
              onChange={(e) => changeFilter('status', e.target.value || undefined)}
              options={[
                { value: '', label: 'Todos los estados' },
                { value: 'ACTIVO', label: 'Activo' },
                { value: 'INACTIVO', label: 'Inactivo' },
              ]}
            />
            <HTMLSelect
              aria-label="Rol"
              value={filters.role_id ?? ''}
              onChange={(e) => changeFilter('role_id', e.target.value || undefined)}
              options={[{ value: '', label: 'Todos los roles' }, ...roles.map((r) => ({ value: String(r.id), label: r.name }))]}
            />
          </>
        }
      />
      {optionsError ? (
        <Callout intent="warning" compact className="config-callout">
          No se pudieron cargar los roles y locales: {optionsError}{' '}
          <Button variant="minimal" size="small" text="Reintentar" onClick={() => options.send({ type: 'options.retry' })} />
        </Callout>
      ) : null}
      <ResourceTable<StaffUser> list={list} columns={COLUMNS} rowKey={(u) => u.id} caption="Usuarios" rowActions={rowActions} />
      <ListStates list={list} emptyAction={<Button icon="plus" intent="primary" text="Nuevo usuario" onClick={() => openCreate()} />} />
      <EditorDialog editor={editor} createTitle="Nuevo usuario" editTitle="Editar usuario">
        <TextField editor={editor} field="dni" label="DNI" autoComplete="off" />
        <TextField editor={editor} field="email" label="Correo electrónico" type="email" autoComplete="off" />
        <TextField editor={editor} field="name" label="Nombres" />
        <TextField editor={editor} field="surname" label="Apellidos" />
        <TextField editor={editor} field="phone" label="Celular" type="tel" />
        <IdChecklist editor={editor} field="role_ids" label="Roles" options={roles} />
        <IdChecklist editor={editor} field="local_ids" label="Locales" options={locals} />
      </EditorDialog>
      <RecordActionAlert actions={actions} confirmations={CONFIRM} />
    </section>
  );
}
