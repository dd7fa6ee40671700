import { use, useMemo } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { Button, Callout, Card, Checkbox, Tag } from '@blueprintjs/core';
import { useSearch } from 'wouter';
import { z } from 'zod';
import { listQueryFromSearchParams } from '../../schemas/list';
import { createRoleRequestSchema, type Role } from '../../schemas/configuracion/roles';
import { MENU_CATALOGUE } from '../../schemas/menu-catalogue';
import { ACTION, ACTION_REQUIRES, SCOPE, SCOPE_REQUIRES, STAFF_PERMISSIONS, type Permission } from '../../schemas/permissions';
import { ADMIN_ROLE_NAME, type RolesMachines } from '../../machines/configuracion/roles.actors';
import { inspectOption } from '../../machines/inspect';
import { useServices } from '../services';
import { ResourceTable, type RowAction, type TableColumn } from '../shared/ResourceTable';
import { ResourceToolbar } from '../shared/ResourceToolbar';
import { ListStates } from '../shared/ListStates';
import { EditorDialog } from '../shared/EditorDialog';
import { TextField } from '../shared/FormField';
import { useResourceActors, useResourceEditor, useResourceEditorEvents } from '../shared/resource-hooks';
import '../../styles/configuracion.css';

/**
 * Configuración → Roles y permisos (issue "Configuración"): the roles with their holder counts;
 * "Nuevo rol", "Renombrar", "Copiar rol" (asks the copy's name) and "Eliminar" (the server refuses
 * a role with holders: its 409 message shows in the dialog); and the permission matrix of the
 * chosen role, grouped as the menu (MENU_CATALOGUE): a module checkbox per group with its
 * submodules; checking a submodule checks its module, unchecking a module clears its submodules;
 * "Guardar" sends PATCH {permissions}. The Administrador role is read-only.
 */

const isAdmin = (role: Pick<Role, 'name'>) => role.name === ADMIN_ROLE_NAME;

const COLUMNS: TableColumn<Role>[] = [
  {
    key: 'name',
    label: 'Rol',
    sortable: true,
    render: (r) =>
      isAdmin(r) ? (
        <>
          {r.name}{' '}
          <Tag minimal icon="lock">
            Solo lectura
          </Tag>
        </>
      ) : (
        r.name
      ),
  },
  { key: 'holders', label: 'Usuarios', align: 'right' },
  {
    key: 'permissions',
    label: 'Permisos',
    align: 'right',
    render: (r) => String(r.permissions.length),
    exportValue: (r) => r.permissions.join('; '),
  },
];

const roleFormSchema = z.object({ name: createRoleRequestSchema.shape.name, copy_of: z.number().int().positive().nullable() });
const ROLE_FIELDS = ['name'] as const;
const EMPTY_ROLE = { name: '', copy_of: null };

/**
 * A group of the matrix: the menu group's module, its distinct staff submodules (items sharing one
 * are listed together) and, right after the submodule they need, its action permissions.
 */
export interface MatrixGroup {
  nombre: string;
  module: Permission;
  submodules: { permission: Permission; label: string; action?: boolean }[];
}

/** Labels of the action and scope permissions in the matrix (src/schemas/permissions.ts ACTION, SCOPE). */
const ACTION_LABELS: Record<(typeof ACTION)[keyof typeof ACTION] | (typeof SCOPE)[keyof typeof SCOPE], string> = {
  [ACTION.supervisarLeads]: 'Supervisar leads (ver y asignar los de todos los asesores)',
  [ACTION.aprobarBloqueos]: 'Aprobar bloqueos de lotes (separación manual, bloqueo, reserva comercial)',
  [ACTION.resolverContratos]: 'Resolver contratos (venta con cuotas vencidas: libera el lote, penalidad y devolución)',
  [ACTION.reprogramarVentas]: 'Reprogramar ventas (adenda: nuevo cronograma del saldo)',
  [SCOPE.soloSusClientes]: 'Clientes: solo sus propios registros (los que tienen al usuario como asesor)',
  [SCOPE.soloSusVentas]: 'Ventas: solo sus propios registros (las que vendió el usuario)',
  [SCOPE.soloSusExportaciones]: 'Exportaciones y reportes: solo sus propios registros',
  [ACTION.gestionarComisiones]: 'Gestionar comisiones y liquidaciones (políticas, asesores, liquidar y pagar)',
  [SCOPE.soloSusComisiones]: 'Comisiones: solo las suyas y las de su equipo',
};

/** Scope and action permissions with the submodule they hang from in the matrix: a scope comes right after its submodule, then the actions. */
export const MATRIX_REQUIRES: Readonly<Record<string, Permission>> = { ...SCOPE_REQUIRES, ...ACTION_REQUIRES };

/** The matrix rows, from the menu catalogue (customer-only submodules and items without a submodule left out). */
export const MATRIX_GROUPS: readonly MatrixGroup[] = MENU_CATALOGUE.map((g) => {
  const submodules: MatrixGroup['submodules'] = [];
  for (const item of g.items) {
    if (item.permission === null || !STAFF_PERMISSIONS.includes(item.permission)) continue;
    const existing = submodules.find((s) => s.permission === item.permission);
    if (existing) existing.label += `, ${item.nombre}`;
    else {
      submodules.push({ permission: item.permission, label: item.nombre });
      for (const [action, needed] of Object.entries(MATRIX_REQUIRES) as [keyof typeof ACTION_LABELS, Permission][]) {
        if (needed === item.permission) submodules.push({ permission: action, label: ACTION_LABELS[action], action: true });
      }
    }
  }
  return { nombre: g.nombre, module: g.module, submodules };
});

export function RolesScreen() {
  const machines = use(useServices().machines.roles());
  return <RolesPage machines={machines} />;
}

export function RolesPage({ machines }: { machines: RolesMachines }) {
  const search = useSearch();
  const { list, editor } = useResourceActors(machines, {
    list: { columns: COLUMNS, exportName: 'roles', query: listQueryFromSearchParams(search, { allowedFilters: [] }) },
    editor: { schema: roleFormSchema, fields: ROLE_FIELDS, empty: EMPTY_ROLE, toValues: (r) => ({ name: r.name, copy_of: null }) },
  });
  // A saved matrix refreshes the list (and keeps its toast).
  const linkedMatrix = useMemo(() => {
    const previous = machines.matrix.implementations.actions.saved;
    return machines.matrix.provide({
      actions: {
        saved: (args, role) => {
          list.send({ type: 'list.refresh' });
          if (typeof previous === 'function') (previous as (a: typeof args, p: typeof role) => void)(args, role);
        },
      },
    });
  }, [machines.matrix, list]);
  const matrix = useActorRef(linkedMatrix, inspectOption());
  const { openCreate, openEdit, askDelete } = useResourceEditorEvents(editor);
  const copying = useResourceEditor(editor, (s) => s.context.values.copy_of !== null && s.context.values.copy_of !== undefined);

  const rowActions: RowAction<Role>[] = [
    { text: 'Permisos', icon: 'key', onClick: (r) => matrix.send({ type: 'matrix.open', role: r }) },
    { text: 'Renombrar', icon: 'edit', onClick: (r) => openEdit(r), hidden: isAdmin },
    { text: 'Copiar rol', icon: 'duplicate', onClick: (r) => openCreate({ name: `${r.name} (copia)`, copy_of: r.id }) },
    {
      text: 'Eliminar',
      icon: 'trash',
      intent: 'danger',
      hidden: isAdmin,
      onClick: (r) => {
        openEdit(r);
        askDelete();
      },
    },
  ];

  return (
    <section className="config-page" aria-labelledby="roles-title">
      <h1 id="roles-title" className="bp6-heading config-page-title">
        Roles y Permisos
      </h1>
      <div className="roles-layout">
        <div>
          <ResourceToolbar list={list} onNew={() => openCreate()} newLabel="Nuevo rol" canExport={false} />
          <ResourceTable<Role> list={list} columns={COLUMNS} rowKey={(r) => r.id} caption="Roles" rowActions={rowActions} />
          <ListStates list={list} />
        </div>
        <PermissionMatrix matrix={matrix} />
      </div>
      <EditorDialog editor={editor} createTitle={copying ? 'Copiar rol' : 'Nuevo rol'} editTitle="Renombrar rol" canDelete>
        <TextField editor={editor} field="name" label={copying ? 'Nombre del nuevo rol' : 'Nombre del rol'} />
      </EditorDialog>
    </section>
  );
}

type MatrixRef = ReturnType<typeof useActorRef<RolesMachines['matrix']>>;

/** The permission matrix of one role (or a hint to choose one). */
export function PermissionMatrix({ matrix }: { matrix: MatrixRef }) {
  const role = useSelector(matrix, (s) => s.context.role);
  const held = useSelector(matrix, (s) => s.context.permissions);
  const saving = useSelector(matrix, (s) => s.matches('saving'));
  const error = useSelector(matrix, (s) => s.context.error);
  const stale = useSelector(matrix, (s) => s.context.stale);
  const reloading = useSelector(matrix, (s) => s.matches('reloading'));
  if (!role) {
    return (
      <Card className="permission-matrix" compact>
        <p className="bp6-text-muted">Elija «Permisos» en un rol para ver y editar su matriz de permisos.</p>
      </Card>
    );
  }
  const readOnly = isAdmin(role);
  const set = new Set(held);
  const dirty = held.length !== role.permissions.length || role.permissions.some((p) => !set.has(p));
  return (
    <Card className="permission-matrix" compact>
      <section aria-label={`Permisos de ${role.name}`}>
        <h2 className="bp6-heading">Permisos de {role.name}</h2>
        {readOnly ? (
          <Callout intent="primary" icon="lock" compact className="config-callout">
            El rol Administrador tiene todos los permisos y no se puede modificar.
          </Callout>
        ) : (
          <p className="bp6-text-muted">Marcar un submódulo marca también su módulo; quitar un módulo quita sus submódulos.</p>
        )}
        {error ? (
          <Callout intent="danger" compact className="config-callout" role="alert">
            {error}
            {stale ? (
              <div>
                <Button icon="refresh" text="Recargar" loading={reloading} onClick={() => matrix.send({ type: 'matrix.reload' })} />
              </div>
            ) : null}
          </Callout>
        ) : null}
        <div className="permission-matrix-groups">
          {MATRIX_GROUPS.map((g) => {
            const group = { module: g.module, submodules: g.submodules.map((s) => s.permission), requires: MATRIX_REQUIRES };
            const toggle = (permission: string, checked: boolean) => matrix.send({ type: 'matrix.toggle', permission, checked, group });
            return (
              <fieldset key={g.nombre} className="permission-matrix-group">
                <Checkbox
                  label={`Módulo ${g.nombre}`}
                  checked={set.has(g.module)}
                  disabled={readOnly || saving}
                  onChange={(e) => toggle(g.module, e.currentTarget.checked)}
                />
                <div className="permission-matrix-submodules" role="group" aria-label={`Submódulos de ${g.nombre}`}>
                  {g.submodules.map((s) => (
                    <Checkbox
                      key={s.permission}
                      className={s.action ? 'permission-matrix-action' : undefined}
                      label={s.label}
                      checked={set.has(s.permission)}
                      disabled={readOnly || saving}
                      onChange={(e) => toggle(s.permission, e.currentTarget.checked)}
                    >
                      {set.has(s.permission) && !set.has(g.module) ? (
                        <Tag minimal intent="warning">
                          requiere el módulo
                        </Tag>
                      ) : null}
                    </Checkbox>
                  ))}
                </div>
              </fieldset>
            );
          })}
        </div>
        <div className="permission-matrix-actions">
          <Button text="Cerrar" onClick={() => matrix.send({ type: 'matrix.close' })} disabled={saving} />
          {readOnly ? null : (
            <Button
              intent="primary"
              icon="floppy-disk"
              text="Guardar"
              loading={saving}
              disabled={!dirty}
              onClick={() => matrix.send({ type: 'matrix.save' })}
            />
          )}
        </div>
      </section>
    </Card>
  );
}
