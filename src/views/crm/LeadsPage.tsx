import { lazy, Suspense, use, useEffect, useMemo, useRef, useState } from 'react';
import { useActorRef, useSelector } from '@xstate/react';
import { setReturnFocusTarget } from '../shared/focus-return';
import type { ActorRefFrom } from 'xstate';
import {
  Alert,
  Button,
  Callout,
  Card,
  Checkbox,
  Classes,
  DialogBody,
  DialogFooter,
  FileInput,
  HTMLTable,
  Radio,
  RadioGroup,
  Icon,
  InputGroup,
  Menu,
  MenuItem,
  PopoverNext,
  SegmentedControl,
  Switch,
  Tab,
  Tabs,
  Tag,
  TextArea,
  type Intent,
} from '@blueprintjs/core';
import { Dialog, HTMLSelect, OutsideTabPanel } from '../shared/BlueprintEs';
import { useSearch } from 'wouter';
import { z } from 'zod';
import { DOCUMENT_TYPES } from '../../schemas/documents';
import { listQueryFromSearchParams } from '../../schemas/list';
import { ACTION } from '../../schemas/permissions';
import { createCustomerRequestSchema, PERSON_TYPES, PERSON_TYPE_LABELS, type StaffOption } from '../../schemas/crm/customers';
import {
  createLeadRequestSchema,
  LEAD_ACTIVITY_KINDS,
  LEAD_ACTIVITY_LABELS,
  LEAD_CHANNELS,
  LEAD_CHANNEL_LABELS,
  LEAD_STATUSES,
  LEAD_STATUS_LABELS,
  leadMoves,
  type Lead,
  type LeadChannel,
  type LeadImportPreview,
  type LeadStatus,
} from '../../schemas/crm/leads';
import type { SubdivisionOption } from '../../schemas/proyectos/subdivision-options';
import { formatDate, formatDateTime, instantToLimaWallTime, limaWallTimeToInstant } from '../../lib/dates';
import type { LeadsMachines, MergeRequest } from '../../machines/crm/leads.actors';
import type { ConvertCustomerBody, LeadsView } from '../../machines/crm/leads-page.machine';
import type { ActivityForm, LeadDetailMachine } from '../../machines/crm/lead-detail.machine';
import type { LeadOverviewMachine } from '../../machines/crm/lead-overview.machine';
import { canImport, type LeadImportMachine } from '../../machines/crm/lead-import.machine';
import { hasPermissions, selectPermissions } from '../../machines/session/session.selectors';
import { inspectOption } from '../../machines/inspect';
import { useServices, useSession } from '../services';
import { ResourceTable, type RowAction, type TableColumn } from '../shared/ResourceTable';
import { ResourceToolbar } from '../shared/ResourceToolbar';
import { RecordActionAlert, type ActionConfirmation } from '../shared/RecordActions';
import { ListStates } from '../shared/ListStates';
import { FilterSelect } from '../shared/FilterSelect';
import { EditorDialog, EditorDrawer } from '../shared/EditorDialog';
import { SelectField, TextAreaField, TextField } from '../shared/FormField';
import { blankToNull, CheckboxField } from '../shared/EditorFields';
import { FieldGroup } from '../shared/FieldGroup';
import { useResourceEditor, useResourceEditorEvents, useResourceListEvents, type ResourceEditorRef } from '../shared/resource-hooks';
import { SideDrawer } from '../shared/SideDrawer';
import { LeadPhone } from './LeadPhone';
import '../../styles/crm.css';

/**
 * CRM → LEADS (issue "CRM and sales"; docs/decisions.md "Leads"): the leads with status tabs and
 * their counts, or a board by status; search, filters (canal, lotización, asesor and "Mis leads"
 * for supervisors, "Seguimiento vencido"); overdue follow-ups in red. "Nuevo lead" / "Editar" in a
 * drawer that warns of leads with the same phone or document as it is typed ("Fusionar" into one,
 * or "Mantener ambos"). A lead opens in a side panel: its data, the status buttons (No concretado
 * asks the reason), "Convertir en cliente" (a short customer form, prefilled) and the activity log
 * with a "new activity" form that can set the next follow-up. `?lead={id}` (the assignment
 * notification's route) opens that lead. Agents without 'Supervisar leads' see only their own.
 */

const channelLabel = (code: string) => LEAD_CHANNEL_LABELS[code as LeadChannel] ?? code;
const staffName = (s: StaffOption | null) => (s ? `${s.name} ${s.surname}`.trim() : '');
const STATUS_INTENT: Record<LeadStatus, Intent> = {
  POR_ATENDER: 'warning',
  EN_ATENCION: 'primary',
  CONCRETADO: 'success',
  NO_CONCRETADO: 'none',
};
const statusTag = (status: string) => (
  <Tag minimal intent={STATUS_INTENT[status as LeadStatus] ?? 'none'}>
    {LEAD_STATUS_LABELS[status as LeadStatus] ?? status}
  </Tag>
);

/** The follow-up, in red with a clock when overdue. */
function FollowUp({ lead }: { lead: Lead }) {
  if (!lead.next_follow_up_at) return null;
  const text = formatDateTime(lead.next_follow_up_at);
  return lead.overdue ? (
    <span className="lead-overdue">
      <Icon icon="time" size={12} aria-hidden /> {text} <span className={Classes.TEXT_SMALL}>(vencido)</span>
    </span>
  ) : (
    <>{text}</>
  );
}

const COLUMNS: TableColumn<Lead>[] = [
  { key: 'name', label: 'Nombre', sortable: true },
  { key: 'phone', label: 'Teléfono', render: (l) => <LeadPhone lead={l} compact />, exportValue: (l) => l.phone ?? '' },
  { key: 'channel', label: 'Canal', render: (l) => channelLabel(l.channel), exportValue: (l) => channelLabel(l.channel) },
  {
    key: 'subdivisions',
    label: 'Lotizaciones',
    render: (l) => l.subdivisions.map((s) => s.name).join(', '),
    exportValue: (l) => l.subdivisions.map((s) => s.name).join(', '),
  },
  { key: 'agent', label: 'Asesor', render: (l) => staffName(l.agent), exportValue: (l) => staffName(l.agent) },
  { key: 'status', label: 'Estado', render: (l) => statusTag(l.status), exportValue: (l) => LEAD_STATUS_LABELS[l.status] },
  {
    key: 'next_follow_up_at',
    label: 'Próximo seguimiento',
    sortable: true,
    render: (l) => <FollowUp lead={l} />,
    exportValue: (l) => (l.next_follow_up_at ? formatDateTime(l.next_follow_up_at) : ''),
  },
  {
    key: 'received_at',
    label: 'Recibido',
    sortable: true,
    render: (l) => formatDate(l.received_at),
    exportValue: (l) => formatDate(l.received_at),
  },
  { key: 'email', label: 'Correo', hiddenByDefault: true },
  { key: 'campaign', label: 'Campaña', hiddenByDefault: true },
  { key: 'lost_reason', label: 'Motivo (no concretado)', hiddenByDefault: true },
];

export const LEAD_FIELDS = [
  'name',
  'phone',
  'email',
  'id_document_type',
  'document_number',
  'channel',
  'campaign',
  'notes',
  'subdivision_ids',
  'agent_id',
  'next_follow_up_at',
  'on_duplicate',
] as const;

const EMPTY_LEAD = {
  name: '',
  phone: '',
  email: '',
  id_document_type: '',
  document_number: '',
  channel: '',
  campaign: '',
  notes: '',
  subdivision_ids: [] as number[],
  agent_id: null as number | null,
  next_follow_up_at: '',
  on_duplicate: false,
};

/**
 * Form values → POST/PATCH body: blanks are null; the follow-up is the Lima wall time of the
 * datetime-local input turned into an instant; "Mantener ambos" → `on_duplicate: 'KEEP'`.
 */
export const leadFormSchema = z.preprocess((values) => {
  if (typeof values !== 'object' || values === null) return values;
  const v = { ...(values as Record<string, unknown>) };
  for (const f of ['email', 'id_document_type', 'document_number', 'campaign', 'notes']) v[f] = blankToNull(v[f]);
  if (v.channel === '') delete v.channel;
  const wall = typeof v.next_follow_up_at === 'string' ? v.next_follow_up_at : '';
  v.next_follow_up_at = wall === '' ? null : (limaWallTimeToInstant(wall) ?? wall);
  if (v.on_duplicate === true) v.on_duplicate = 'KEEP';
  else delete v.on_duplicate;
  return v;
}, createLeadRequestSchema);

function toValues(l: Lead) {
  return {
    name: l.name,
    phone: l.phone ?? '',
    email: l.email ?? '',
    id_document_type: l.id_document_type ?? '',
    document_number: l.document_number ?? '',
    channel: l.channel,
    campaign: l.campaign ?? '',
    notes: l.notes ?? '',
    subdivision_ids: l.subdivisions.map((s) => s.id),
    agent_id: l.agent?.id ?? null,
    next_follow_up_at: instantToLimaWallTime(l.next_follow_up_at),
    on_duplicate: false,
  };
}

/** Splits a full name into names and surnames (the last two words are the surnames, as in Peru). */
export function splitFullName(full: string): { name: string; surname: string } {
  const words = full.trim().split(/\s+/).filter(Boolean);
  if (words.length <= 1) return { name: words[0] ?? '', surname: '' };
  const cut = words.length >= 3 ? words.length - 2 : 1;
  return { name: words.slice(0, cut).join(' '), surname: words.slice(cut).join(' ') };
}

const CONVERT_FIELDS = [
  'person_type',
  'id_document_type',
  'document_number',
  'name',
  'surname',
  'legal_representative',
  'phone',
  'email',
] as const;
const EMPTY_CONVERT = {
  person_type: 'NATURAL',
  id_document_type: '1',
  document_number: '',
  name: '',
  surname: '',
  legal_representative: '',
  phone: '',
  email: '',
};
/** The convert form → the customer body of POST leads/{id}/convert (blanks null, per person type). */
const convertFormSchema = z.preprocess((values) => {
  if (typeof values !== 'object' || values === null) return values;
  const v = { ...(values as Record<string, unknown>) };
  for (const f of ['surname', 'legal_representative', 'email']) v[f] = blankToNull(v[f]);
  if (v.person_type === 'JURIDICA') v.surname = null;
  else v.legal_representative = null;
  return v;
}, createCustomerRequestSchema);
/** A lead → the convert form's values (its names split, its document and contact carried over). */
function convertValues(l: Lead) {
  const { name, surname } = splitFullName(l.name);
  return {
    ...EMPTY_CONVERT,
    id_document_type: l.id_document_type ?? '1',
    document_number: l.document_number ?? '',
    name,
    surname,
    phone: l.phone && /^9\d{8}$/.test(l.phone) ? l.phone : '',
    email: l.email ?? '',
  };
}

type LeadEditorRef = ResourceEditorRef<Lead, z.input<typeof createLeadRequestSchema>, z.input<typeof createLeadRequestSchema>>;

function useLeadField(editor: LeadEditorRef, field: string) {
  const value = useResourceEditor(editor, (s) => s.context.values[field]);
  const error = useResourceEditor(editor, (s) => s.context.errors[field]);
  const busy = useResourceEditor(editor, (s) => s.matches('submitting') || s.matches('deleting'));
  const { change } = useResourceEditorEvents(editor);
  return { value, error, busy, change: (v: unknown) => change(field, v) };
}

/** The subdivisions of interest: a checkbox per subdivision, bound to `subdivision_ids`. */
function SubdivisionsField({ editor, subdivisions }: { editor: LeadEditorRef; subdivisions: SubdivisionOption[] }) {
  const f = useLeadField(editor, 'subdivision_ids');
  const chosen = Array.isArray(f.value) ? (f.value as number[]) : [];
  return (
    <FieldGroup label="Lotizaciones de interés" labelFor="editor-subdivision_ids" error={f.error}>
      <div id="editor-subdivision_ids" role="group" aria-label="Lotizaciones de interés" className="lead-subdivisions">
        {subdivisions.length === 0 ? <span className={Classes.TEXT_MUTED}>No hay lotizaciones registradas.</span> : null}
        {subdivisions.map((s) => (
          <Checkbox
            key={s.id}
            label={s.name}
            checked={chosen.includes(s.id)}
            disabled={f.busy}
            onChange={(e) => f.change(e.currentTarget.checked ? [...chosen, s.id] : chosen.filter((id) => id !== s.id))}
          />
        ))}
      </div>
    </FieldGroup>
  );
}

/** The agent: any active staff for a supervisor; others keep their own (the server enforces it). */
function AgentField({ editor, staff, supervisor }: { editor: LeadEditorRef; staff: StaffOption[]; supervisor: boolean }) {
  const f = useLeadField(editor, 'agent_id');
  const record = useResourceEditor(editor, (s) => s.context.record);
  const current = typeof f.value === 'number' ? f.value : null;
  const kept = record?.agent ?? null;
  const options = kept && !staff.some((s) => s.id === kept.id) ? [...staff, kept] : staff;
  return (
    <FieldGroup
      label="Asesor"
      labelFor="editor-agent_id"
      error={f.error}
      hint={supervisor ? undefined : 'Solo un supervisor de leads asigna a otro asesor'}
    >
      <HTMLSelect
        id="editor-agent_id"
        fill
        value={current === null ? '' : String(current)}
        disabled={f.busy || !supervisor}
        onChange={(e) => f.change(e.target.value ? Number(e.target.value) : null)}
        options={[
          { value: '', label: supervisor ? 'Sin asignar' : 'Yo' },
          ...options.map((s) => ({ value: String(s.id), label: staffName(s) })),
        ]}
      />
    </FieldGroup>
  );
}

/** The Spanish date-and-time field (dd/mm/aaaa hh:mm, Lima; @blueprintjs/datetime), loaded when a form first shows it. */
const LimaDateTimeInput = lazy(() => import('../shared/LimaDateTimeInput').then((m) => ({ default: m.LimaDateTimeInput })));

/** Stands in for {@link LimaDateTimeInput} while its code loads. */
const followUpFallback = (id: string) => <InputGroup id={id} disabled readOnly placeholder="dd/mm/aaaa hh:mm" />;

/** The next follow-up, a Lima date and time (wall time `YYYY-MM-DDTHH:mm`). */
function FollowUpField({ editor }: { editor: LeadEditorRef }) {
  const f = useLeadField(editor, 'next_follow_up_at');
  return (
    <FieldGroup label="Próximo seguimiento" labelFor="editor-next_follow_up_at" error={f.error} hint="Fecha y hora (Lima)">
      <Suspense fallback={followUpFallback('editor-next_follow_up_at')}>
        <LimaDateTimeInput
          id="editor-next_follow_up_at"
          value={typeof f.value === 'string' ? f.value : ''}
          onChange={f.change}
          disabled={f.busy}
          hasError={Boolean(f.error)}
        />
      </Suspense>
    </FieldGroup>
  );
}

/**
 * The leads with the phone or document being typed (new leads only): each with "Fusionar" (fold
 * this contact into it); "Mantener ambos" lets the new lead be saved anyway.
 */
function DuplicatesCallout({
  editor,
  machines,
  onMerge,
}: {
  editor: LeadEditorRef;
  machines: { phone: ActorRefFrom<LeadsMachines['phoneDuplicates']>; document: ActorRefFrom<LeadsMachines['documentDuplicates']> };
  onMerge: (target: Lead) => void;
}) {
  const mode = useResourceEditor(editor, (s) => s.context.mode);
  const phone = useResourceEditor(editor, (s) => String(s.context.values.phone ?? ''));
  const document = useResourceEditor(editor, (s) => String(s.context.values.document_number ?? ''));
  const byPhone = useSelector(machines.phone, (s) => s.context.results);
  const byDocument = useSelector(machines.document, (s) => s.context.results);
  useEffect(() => {
    machines.phone.send({ type: 'lookup.typed', text: mode === 'create' && phone.replace(/\D/g, '').length >= 7 ? phone : '' });
  }, [machines.phone, phone, mode]);
  useEffect(() => {
    machines.document.send({ type: 'lookup.typed', text: mode === 'create' && document.trim().length >= 6 ? document.trim() : '' });
  }, [machines.document, document, mode]);
  if (mode !== 'create') return null;
  const found = [...byPhone, ...byDocument.filter((d) => !byPhone.some((p) => p.id === d.id))];
  if (found.length === 0) return null;
  return (
    <Callout intent="warning" icon="duplicate" className="crm-callout" title="Posibles duplicados">
      <p>Ya hay leads con este teléfono o documento:</p>
      <ul className="lead-duplicates">
        {found.map((l) => (
          <li key={l.id}>
            <span>
              <strong>{l.name}</strong> · {LEAD_STATUS_LABELS[l.status]} · {staffName(l.agent) || 'Sin asesor'}
            </span>
            <Button size="small" icon="merge-columns" text="Fusionar" onClick={() => onMerge(l)} />
          </li>
        ))}
      </ul>
      <CheckboxField editor={editor} field="on_duplicate" label="Mantener ambos (registrar el nuevo lead de todos modos)" />
    </Callout>
  );
}

const MERGE_CONFIRM: Record<'merge', ActionConfirmation<MergeRequest>> = {
  merge: {
    text: 'Fusionar',
    intent: 'primary',
    question: ({ target }) =>
      `¿Fusionar este contacto en el lead «${target.name}»? Se completarán sus datos vacíos, se sumarán las lotizaciones y quedará una nota en su historial.`,
  },
};

export function LeadsScreen() {
  const machines = use(useServices().machines.leads());
  return <LeadsPage machines={machines} />;
}

export function LeadsPage({ machines }: { machines: LeadsMachines }) {
  const search = useSearch();
  const permissions = useSession(selectPermissions);
  const supervisor = hasPermissions(permissions, [ACTION.supervisarLeads]);
  const page = useActorRef(machines.page, {
    input: {
      list: {
        columns: COLUMNS,
        exportName: 'leads',
        query: listQueryFromSearchParams(search, {
          allowedFilters: ['status', 'channel', 'agent_id', 'subdivision_id', 'mine', 'overdue'],
        }),
      },
      editor: { schema: leadFormSchema, fields: LEAD_FIELDS, empty: EMPTY_LEAD, toValues },
      convert: { schema: convertFormSchema, fields: CONVERT_FIELDS, empty: EMPTY_CONVERT, toValues: convertValues },
    },
    ...inspectOption(),
  });
  const list = useSelector(page, (s) => s.context.list);
  const editor = useSelector(page, (s) => s.context.editor);
  const convert = useSelector(page, (s) => s.context.convert);
  const detail = useSelector(page, (s) => s.context.detail);
  const overview = useSelector(page, (s) => s.context.overview);
  const view = useSelector(page, (s) => s.context.view);
  const importer = useSelector(page, (s) => s.context.importer);
  const staffActor = useActorRef(machines.staff, inspectOption());
  const subdivisionsActor = useActorRef(machines.subdivisions, inspectOption());
  const phoneDuplicates = useActorRef(machines.phoneDuplicates, inspectOption());
  const documentDuplicates = useActorRef(machines.documentDuplicates, inspectOption());
  const staff = useSelector(staffActor, (s) => s.context.value);
  const subdivisions = useSelector(subdivisionsActor, (s) => s.context.value);
  const filters = useSelector(list, (s) => s.context.query.filters);
  const summary = useSelector(overview, (s) => s.context.summary);
  const { openCreate, openEdit, close } = useResourceEditorEvents(editor);
  const { changeFilter } = useResourceListEvents(list);

  // "Fusionar": when done, the new-lead form closes without asking and the kept lead opens.
  const linkedMerge = useMemo(() => {
    const previous = machines.merge.implementations.actions.done;
    return machines.merge.provide({
      actions: {
        done: (args, params) => {
          close();
          editor.send({ type: 'editor.discard' });
          page.send({ type: 'child.changed' });
          detail.send({ type: 'detail.open', id: params.record.target.id });
          if (typeof previous === 'function') (previous as (a: typeof args, p: typeof params) => void)(args, params);
        },
      },
    });
  }, [machines.merge, close, editor, page, detail]);
  const merge = useActorRef(linkedMerge, inspectOption());
  const askMerge = (target: Lead) => {
    const parsed = leadFormSchema.safeParse(editor.getSnapshot().context.values);
    if (!parsed.success) {
      editor.send({ type: 'editor.submit' });
      return;
    }
    const { on_duplicate: _keep, agent_id: _agent, next_follow_up_at: _next, ...body } = parsed.data;
    merge.send({ type: 'action.request', kind: 'merge', record: { target, body } });
  };

  // `?lead={id}` (the notification's route) opens that lead.
  const leadParam = new URLSearchParams(search).get('lead');
  useEffect(() => {
    if (leadParam && /^\d+$/.test(leadParam)) detail.send({ type: 'detail.open', id: Number(leadParam) });
  }, [leadParam, detail]);

  const open = (l: Lead) => detail.send({ type: 'detail.open', id: l.id });
  const rowActions: RowAction<Lead>[] = [
    { text: 'Abrir', icon: 'eye-open', onClick: open },
    { text: 'Editar', icon: 'edit', onClick: (l) => openEdit(l) },
  ];
  const count = (status?: LeadStatus) =>
    status ? (summary.counts[status] ?? 0) : Object.values(summary.counts).reduce((sum, n) => sum + n, 0);

  return (
    <section className="crm-page" aria-labelledby="leads-title">
      <div className="leads-heading">
        <h1 id="leads-title" className="bp6-heading crm-page-title">
          Leads
        </h1>
        <SegmentedControl
          aria-label="Vista"
          size="small"
          value={view}
          onValueChange={(v) => page.send({ type: 'view.changed', view: v as LeadsView })}
          options={[
            { label: 'Lista', value: 'list' },
            { label: 'Tablero', value: 'board' },
          ]}
        />
      </div>
      <ResourceToolbar
        list={list}
        onNew={() => openCreate()}
        newLabel="Nuevo lead"
        extraActions={<Button icon="import" text="Importar" onClick={() => importer.send({ type: 'import.open' })} />}
        filters={
          <>
            <FilterSelect
              list={list}
              field="channel"
              label="Canal"
              allLabel="Todos los canales"
              options={LEAD_CHANNELS.map((c) => ({ value: c, label: LEAD_CHANNEL_LABELS[c] }))}
            />
            <FilterSelect
              list={list}
              field="subdivision_id"
              label="Lotización"
              allLabel="Todas las lotizaciones"
              options={subdivisions.map((s) => ({ value: String(s.id), label: s.name }))}
            />
            {supervisor ? (
              <>
                <FilterSelect
                  list={list}
                  field="agent_id"
                  label="Asesor"
                  allLabel="Todos los asesores"
                  options={staff.map((s) => ({ value: String(s.id), label: staffName(s) }))}
                />
                <Switch
                  className="lead-switch"
                  label="Mis leads"
                  checked={filters.mine === 'true'}
                  onChange={(e) => changeFilter('mine', e.currentTarget.checked ? 'true' : undefined)}
                />
              </>
            ) : null}
            <Switch
              className="lead-switch"
              label={`Seguimiento vencido (${summary.overdue})`}
              checked={filters.overdue === 'true'}
              onChange={(e) => changeFilter('overdue', e.currentTarget.checked ? 'true' : undefined)}
            />
          </>
        }
      />
      {view === 'list' ? (
        <>
          <Tabs
            id="lead-status"
            selectedTabId={filters.status ?? 'ALL'}
            onChange={(id) => changeFilter('status', id === 'ALL' ? undefined : String(id))}
            className="lead-tabs"
          >
            <Tab id="ALL" title={`Todos (${count()})`} />
            {LEAD_STATUSES.map((s) => (
              <Tab key={s} id={s} title={`${LEAD_STATUS_LABELS[s]} (${count(s)})`} />
            ))}
          </Tabs>
          <OutsideTabPanel tabsId="lead-status" selectedTabId={filters.status ?? 'ALL'}>
            <ResourceTable<Lead>
              list={list}
              columns={COLUMNS}
              rowKey={(l) => l.id}
              caption="Leads"
              rowActions={rowActions}
              onRowOpen={open}
            />
            <ListStates list={list} emptyAction={<Button icon="plus" intent="primary" text="Nuevo lead" onClick={() => openCreate()} />} />
          </OutsideTabPanel>
        </>
      ) : (
        <LeadBoard overview={overview} onOpen={open} onMove={(l, status) => detail.send({ type: 'detail.open', id: l.id, status })} />
      )}
      <EditorDrawer editor={editor} createTitle="Nuevo lead" editTitle="Editar lead">
        <DuplicatesCallout editor={editor} machines={{ phone: phoneDuplicates, document: documentDuplicates }} onMerge={askMerge} />
        <div className="form-grid">
          <TextField editor={editor} field="name" label="Nombre completo" />
          <SelectField
            editor={editor}
            field="channel"
            label="Canal"
            options={LEAD_CHANNELS.map((c) => ({ value: c, label: LEAD_CHANNEL_LABELS[c] }))}
          />
          <TextField editor={editor} field="phone" label="Teléfono" type="tel" />
          <TextField editor={editor} field="email" label="Correo electrónico" type="email" autoComplete="off" />
          <SelectField
            editor={editor}
            field="id_document_type"
            label="Tipo de documento"
            options={DOCUMENT_TYPES.map((d) => ({ value: d.code, label: d.label }))}
          />
          <TextField editor={editor} field="document_number" label="Número de documento" autoComplete="off" />
          <TextField editor={editor} field="campaign" label="Campaña" />
          <FollowUpField editor={editor} />
          <AgentField editor={editor} staff={staff} supervisor={supervisor} />
        </div>
        <SubdivisionsField editor={editor} subdivisions={subdivisions} />
        <TextAreaField editor={editor} field="notes" label="Notas" />
      </EditorDrawer>
      <LeadPanel detail={detail} onEdit={(l) => openEdit(l)} onConvert={(l) => convert.send({ type: 'editor.openEdit', record: l })} />
      <ConvertDialog convert={convert} />
      <RecordActionAlert actions={merge} confirmations={MERGE_CONFIRM} />
      <ImportLeadsDialog importer={importer} staff={staff} supervisor={supervisor} />
    </section>
  );
}

/**
 * The board: a column per status with its first leads (a card opens the panel). A card can be
 * dragged to another column (HTML5 drag and drop) or moved with its "Mover a…" menu (the keyboard
 * way); either opens the lead and requests the status as the panel's buttons do (`onMove`). Only
 * the moves the lead allows ({@link leadMoves}) are offered and accepted as drops.
 */
function LeadBoard({
  overview,
  onOpen,
  onMove,
}: {
  overview: ActorRefFrom<LeadOverviewMachine>;
  onOpen: (l: Lead) => void;
  onMove: (l: Lead, status: LeadStatus) => void;
}) {
  const columns = useSelector(overview, (s) => s.context.columns);
  const loading = useSelector(overview, (s) => s.matches('loading'));
  const error = useSelector(overview, (s) => s.context.error);
  // The card being dragged (only to mark the columns it may go to).
  const [dragged, setDragged] = useState<Lead | null>(null);
  // The "Mover a…" button whose menu is open: the lead's panel gives focus back to it when it closes
  // (the menu item that opened the panel leaves with the menu; docs/decisions.md "Keyboard and focus").
  const moveButton = useRef<HTMLElement | null>(null);
  if (error)
    return (
      <Callout intent="danger" className="crm-callout">
        {error} <Button variant="minimal" size="small" text="Reintentar" onClick={() => overview.send({ type: 'overview.reload' })} />
      </Callout>
    );
  const accepts = (status: LeadStatus) => dragged !== null && leadMoves(dragged).includes(status);
  return (
    <div className={`lead-board${loading ? ' ' + Classes.SKELETON : ''}`} aria-busy={loading} aria-label="Tablero de leads" role="region">
      {LEAD_STATUSES.map((status) => {
        const column = columns?.[status];
        return (
          <section
            key={status}
            className={`lead-board-column${accepts(status) ? ' lead-board-column-target' : ''}`}
            aria-label={LEAD_STATUS_LABELS[status]}
            onDragOver={(e) => {
              if (!accepts(status)) return;
              e.preventDefault();
              e.dataTransfer.dropEffect = 'move';
            }}
            onDrop={(e) => {
              e.preventDefault();
              const lead = dragged;
              setDragged(null);
              if (lead && leadMoves(lead).includes(status)) onMove(lead, status);
            }}
          >
            <h2 className="lead-board-title">
              {statusTag(status)} <span className={Classes.TEXT_MUTED}>{column?.total ?? 0}</span>
            </h2>
            {(column?.rows ?? []).map((l) => {
              const moves = leadMoves(l);
              return (
                <Card
                  key={l.id}
                  compact
                  interactive
                  className={`lead-card${l.overdue ? ' lead-card-overdue' : ''}`}
                  draggable={moves.length > 0}
                  onDragStart={(e) => {
                    e.dataTransfer.setData('text/plain', String(l.id));
                    e.dataTransfer.effectAllowed = 'move';
                    setDragged(l);
                  }}
                  onDragEnd={() => setDragged(null)}
                  onClick={(e) => {
                    if (!(e.target as HTMLElement).closest('button, a')) onOpen(l);
                  }}
                >
                  <button type="button" className="lead-card-name" onClick={() => onOpen(l)}>
                    {l.name}
                  </button>
                  <div className={Classes.TEXT_SMALL}>
                    {channelLabel(l.channel)}
                    {l.phone ? (
                      <>
                        {' · '}
                        <LeadPhone lead={l} compact />
                      </>
                    ) : null}
                  </div>
                  {l.next_follow_up_at ? (
                    <div className={Classes.TEXT_SMALL}>
                      <FollowUp lead={l} />
                    </div>
                  ) : null}
                  {l.agent ? <div className={`${Classes.TEXT_SMALL} ${Classes.TEXT_MUTED}`}>{staffName(l.agent)}</div> : null}
                  {moves.length > 0 ? (
                    <PopoverNext
                      placement="bottom-start"
                      shouldReturnFocusOnClose={false}
                      content={
                        <Menu>
                          {moves.map((to) => (
                            <MenuItem
                              key={to}
                              text={LEAD_STATUS_LABELS[to]}
                              onClick={() => {
                                setReturnFocusTarget(moveButton.current);
                                onMove(l, to);
                              }}
                            />
                          ))}
                        </Menu>
                      }
                    >
                      <Button
                        variant="minimal"
                        size="small"
                        icon="arrow-right"
                        text="Mover a…"
                        aria-label={`Mover ${l.name} a…`}
                        className="lead-card-move"
                        onClick={(e) => {
                          moveButton.current = e.currentTarget;
                        }}
                      />
                    </PopoverNext>
                  ) : null}
                </Card>
              );
            })}
            {column && column.total > column.rows.length ? (
              <p className={`${Classes.TEXT_SMALL} ${Classes.TEXT_MUTED}`}>
                y {column.total - column.rows.length} más: use la vista Lista y los filtros.
              </p>
            ) : null}
          </section>
        );
      })}
    </div>
  );
}

const IMPORT_ACTION: Record<string, { label: string; intent: Intent }> = {
  NUEVO: { label: 'Nuevo', intent: 'success' },
  FUSIONAR: { label: 'Se fusiona', intent: 'primary' },
  REPETIDO: { label: 'Repetido', intent: 'none' },
  OTRO_ASESOR: { label: 'De otro asesor', intent: 'warning' },
  ERROR: { label: 'Error', intent: 'danger' },
};

/**
 * "Importar": a CSV or XLSX (a Meta lead-ads export: full_name, phone_number, email, created_time,
 * campaign_name), the default channel, the agent (supervisors) and what to do with known
 * contacts → "Comprobar" (the preview: counts, issues, the first rows) → "Importar" (all or nothing).
 */
function ImportLeadsDialog({
  importer,
  staff,
  supervisor,
}: {
  importer: ActorRefFrom<LeadImportMachine>;
  staff: StaffOption[];
  supervisor: boolean;
}) {
  const open = useSelector(importer, (s) => !s.matches('closed'));
  const file = useSelector(importer, (s) => s.context.file);
  const options = useSelector(importer, (s) => s.context.options);
  const preview = useSelector(importer, (s) => s.context.preview);
  const error = useSelector(importer, (s) => s.context.error);
  const checking = useSelector(importer, (s) => s.matches('previewing'));
  const importing = useSelector(importer, (s) => s.matches('importing'));
  const busy = checking || importing;
  const option = (name: 'channel' | 'agent_id' | 'duplicates', value: string | number | null) =>
    importer.send({ type: 'import.optionChanged', option: name, value });
  return (
    <Dialog
      isOpen={open}
      onClose={() => importer.send({ type: 'import.close' })}
      title="Importar leads"
      canEscapeKeyClose={!busy}
      canOutsideClickClose={false}
      isCloseButtonShown={!busy}
      className="lead-import-dialog"
    >
      <DialogBody>
        <p className={Classes.TEXT_MUTED}>
          CSV o XLSX de hasta 2 000 filas, como la exportación de anuncios de clientes potenciales de Meta: full_name, phone_number, email,
          created_time, campaign_name (o nombre, celular, correo…).
        </p>
        <FieldGroup label="Archivo" labelFor="lead-import-file">
          <FileInput
            fill
            text={file ? file.name : 'Elija un archivo…'}
            buttonText="Examinar"
            disabled={busy}
            inputProps={{ id: 'lead-import-file', accept: '.csv,.xlsx,text/csv', 'aria-label': 'Archivo de leads' }}
            onInputChange={(e) => importer.send({ type: 'import.fileChosen', file: e.currentTarget.files?.[0] ?? null })}
          />
        </FieldGroup>
        <div className="form-grid">
          <FieldGroup label="Canal de las filas sin canal" labelFor="lead-import-channel">
            <HTMLSelect
              id="lead-import-channel"
              fill
              value={options.channel}
              disabled={busy}
              onChange={(e) => option('channel', e.target.value)}
              options={LEAD_CHANNELS.map((c) => ({ value: c, label: LEAD_CHANNEL_LABELS[c] }))}
            />
          </FieldGroup>
          {supervisor ? (
            <FieldGroup label="Asignar a" labelFor="lead-import-agent">
              <HTMLSelect
                id="lead-import-agent"
                fill
                value={options.agent_id === null ? '' : String(options.agent_id)}
                disabled={busy}
                onChange={(e) => option('agent_id', e.target.value ? Number(e.target.value) : null)}
                options={[{ value: '', label: 'Sin asignar' }, ...staff.map((s) => ({ value: String(s.id), label: staffName(s) }))]}
              />
            </FieldGroup>
          ) : null}
        </div>
        <RadioGroup
          label="Contactos que ya son leads (mismo teléfono o documento)"
          selectedValue={options.duplicates}
          disabled={busy}
          onChange={(e) => option('duplicates', e.currentTarget.value)}
        >
          <Radio value="MERGE" label="Fusionar con el lead existente" />
          <Radio value="KEEP" label="Registrar como lead nuevo" />
        </RadioGroup>
        {error ? (
          <Callout intent="danger" className="crm-callout" role="alert">
            {error}
          </Callout>
        ) : null}
        {preview ? <ImportPreview preview={preview} /> : null}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancelar" disabled={busy} onClick={() => importer.send({ type: 'import.close' })} />
            <Button
              text="Comprobar"
              icon="search"
              loading={checking}
              disabled={busy}
              onClick={() => importer.send({ type: 'import.check' })}
            />
            <Button
              intent="primary"
              icon="import"
              text={preview ? `Importar ${preview.create + preview.merge} leads` : 'Importar'}
              loading={importing}
              disabled={busy || !canImport(preview)}
              onClick={() => importer.send({ type: 'import.confirm' })}
            />
          </>
        }
      />
    </Dialog>
  );
}

/** The preview of a lead file: counts, issues and its first rows. */
function ImportPreview({ preview }: { preview: LeadImportPreview }) {
  return (
    <section aria-label="Vista previa de la importación" className="lead-import-preview">
      <Callout intent={preview.errors > 0 ? 'danger' : 'success'} className="crm-callout">
        {preview.total} filas: {preview.create} nuevos, {preview.merge} se fusionan, {preview.skip} repetidos
        {preview.errors > 0 ? `, ${preview.errors} con errores (corríjalos para importar)` : ''}.
      </Callout>
      {preview.issues.length > 0 ? (
        <ul className="lead-import-issues">
          {preview.issues.map((i, n) => (
            <li key={n} className={i.severity === 'ERROR' ? 'lead-overdue' : undefined}>
              {i.row ? `Fila ${i.row}: ` : ''}
              {i.message}
            </li>
          ))}
        </ul>
      ) : null}
      <div className="lead-import-table">
        <HTMLTable compact striped aria-label="Filas del archivo">
          <thead>
            <tr>
              <th>Fila</th>
              <th>Nombre</th>
              <th>Teléfono</th>
              <th>Canal</th>
              <th>Resultado</th>
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((r) => (
              <tr key={r.row}>
                <td>{r.row}</td>
                <td>{r.name}</td>
                <td>{r.phone ?? r.email ?? ''}</td>
                <td>{channelLabel(r.channel)}</td>
                <td>
                  <Tag minimal intent={IMPORT_ACTION[r.action]?.intent ?? 'none'}>
                    {IMPORT_ACTION[r.action]?.label ?? r.action}
                  </Tag>
                  {r.duplicate_of ? ` ${r.duplicate_of.name}` : ''}
                </td>
              </tr>
            ))}
          </tbody>
        </HTMLTable>
      </div>
    </section>
  );
}

/** The convert-to-customer form (a customer's essentials, prefilled from the lead). */
function ConvertDialog({ convert }: { convert: ResourceEditorRef<Lead, ConvertCustomerBody, ConvertCustomerBody> }) {
  const personType = useResourceEditor(convert, (s) => s.context.values.person_type);
  const juridica = personType === 'JURIDICA';
  return (
    <EditorDialog editor={convert} createTitle="Convertir en cliente" editTitle="Convertir en cliente">
      <p className={Classes.TEXT_MUTED}>Se registrará el cliente con estos datos; podrá completarlo luego en Clientes.</p>
      <div className="form-grid">
        <SelectField
          editor={convert}
          field="person_type"
          label="Tipo de persona"
          options={PERSON_TYPES.map((t) => ({ value: t, label: PERSON_TYPE_LABELS[t] }))}
        />
        <SelectField
          editor={convert}
          field="id_document_type"
          label="Tipo de documento"
          options={DOCUMENT_TYPES.map((d) => ({ value: d.code, label: d.label }))}
        />
        <TextField editor={convert} field="document_number" label="Número de documento" autoComplete="off" />
        <TextField editor={convert} field="name" label={juridica ? 'Razón social' : 'Nombres'} />
        {juridica ? (
          <TextField editor={convert} field="legal_representative" label="Representante legal" />
        ) : (
          <TextField editor={convert} field="surname" label="Apellidos" />
        )}
        <TextField editor={convert} field="phone" label="Celular" type="tel" />
        <TextField editor={convert} field="email" label="Correo electrónico" type="email" autoComplete="off" />
      </div>
    </EditorDialog>
  );
}

/** Buttons per status the lead can move to (docs/decisions.md "Leads"). */
const STATUS_BUTTON: Record<LeadStatus, { text: string; icon: 'play' | 'tick' | 'cross' | 'undo'; intent: Intent }> = {
  POR_ATENDER: { text: 'Por atender', icon: 'undo', intent: 'none' },
  EN_ATENCION: { text: 'Atender', icon: 'play', intent: 'primary' },
  CONCRETADO: { text: 'Concretado', icon: 'tick', intent: 'success' },
  NO_CONCRETADO: { text: 'No concretado', icon: 'cross', intent: 'danger' },
};

/** The side panel of one lead: data, status buttons, convert, activity log and form. */
function LeadPanel({
  detail,
  onEdit,
  onConvert,
}: {
  detail: ActorRefFrom<LeadDetailMachine>;
  onEdit: (l: Lead) => void;
  onConvert: (l: Lead) => void;
}) {
  const isOpen = useSelector(detail, (s) => !s.matches('closed'));
  const lead = useSelector(detail, (s) => s.context.lead);
  const activities = useSelector(detail, (s) => s.context.activities);
  const error = useSelector(detail, (s) => s.context.error);
  const loading = useSelector(detail, (s) => s.matches('loading'));
  const failed = useSelector(detail, (s) => s.matches('failed'));
  const busy = useSelector(detail, (s) => s.matches('adding') || s.matches('changingStatus'));
  const changing = useSelector(detail, (s) => (s.matches('changingStatus') ? s.context.pendingStatus : null));
  const asking = useSelector(detail, (s) => s.matches('askingReason'));
  const reasonError = useSelector(detail, (s) => s.context.reasonError);
  const form = useSelector(detail, (s) => s.context.form);
  const formErrors = useSelector(detail, (s) => s.context.formErrors);
  const adding = useSelector(detail, (s) => s.matches('adding'));
  const change = (field: keyof ActivityForm, value: string) => detail.send({ type: 'activity.changed', field, value });
  const next = lead ? leadMoves(lead) : [];
  return (
    <SideDrawer isOpen={isOpen} onClose={() => detail.send({ type: 'detail.close' })} size="520px" title={lead ? lead.name : 'Lead'}>
      <div className={Classes.DIALOG_BODY}>
        {failed ? (
          <Callout intent="danger" className="crm-callout">
            {error} <Button variant="minimal" size="small" text="Reintentar" onClick={() => detail.send({ type: 'detail.refresh' })} />
          </Callout>
        ) : null}
        {!lead && loading ? <p className={Classes.SKELETON}>Cargando…</p> : null}
        {lead ? (
          <>
            <div className="lead-panel-status">
              {statusTag(lead.status)}
              {lead.overdue ? (
                <Tag minimal intent="danger" icon="time">
                  Seguimiento vencido
                </Tag>
              ) : null}
            </div>
            {error && !failed ? (
              <Callout intent="danger" className="crm-callout" role="alert">
                {error}
              </Callout>
            ) : null}
            <dl className="lead-facts">
              <dt>Teléfono</dt>
              <dd>
                <LeadPhone lead={lead} />
              </dd>
              <dt>Correo</dt>
              <dd>{lead.email ?? '—'}</dd>
              <dt>Documento</dt>
              <dd>{lead.document_number ?? '—'}</dd>
              <dt>Canal</dt>
              <dd>
                {channelLabel(lead.channel)}
                {lead.campaign ? ` · ${lead.campaign}` : ''}
              </dd>
              <dt>Lotizaciones</dt>
              <dd>{lead.subdivisions.map((s) => s.name).join(', ') || '—'}</dd>
              <dt>Asesor</dt>
              <dd>{staffName(lead.agent) || 'Sin asignar'}</dd>
              <dt>Próximo seguimiento</dt>
              <dd>{lead.next_follow_up_at ? <FollowUp lead={lead} /> : '—'}</dd>
              <dt>Cliente</dt>
              <dd>{lead.customer?.display_name ?? 'Aún no es cliente'}</dd>
              {lead.lost_reason ? (
                <>
                  <dt>Motivo</dt>
                  <dd>{lead.lost_reason}</dd>
                </>
              ) : null}
              {lead.notes ? (
                <>
                  <dt>Notas</dt>
                  <dd className="lead-notes">{lead.notes}</dd>
                </>
              ) : null}
            </dl>
            <div className="lead-panel-actions">
              <Button icon="edit" text="Editar" onClick={() => onEdit(lead)} disabled={busy} />
              {lead.customer === null ? (
                <Button icon="new-person" text="Convertir en cliente" onClick={() => onConvert(lead)} disabled={busy} />
              ) : null}
              {next.map((status) => (
                <Button
                  key={status}
                  icon={STATUS_BUTTON[status].icon}
                  intent={STATUS_BUTTON[status].intent}
                  text={STATUS_BUTTON[status].text}
                  loading={changing === status}
                  disabled={busy}
                  onClick={() => detail.send({ type: 'status.request', status })}
                />
              ))}
            </div>
            <h3 className={Classes.HEADING}>Nueva actividad</h3>
            <form
              className="lead-activity-form"
              onSubmit={(e) => {
                e.preventDefault();
                detail.send({ type: 'activity.submit' });
              }}
            >
              <div className="form-grid">
                <FieldGroup label="Tipo" labelFor="activity-kind" error={formErrors.kind}>
                  <HTMLSelect
                    id="activity-kind"
                    fill
                    value={form.kind}
                    disabled={adding}
                    onChange={(e) => change('kind', e.target.value)}
                    options={LEAD_ACTIVITY_KINDS.map((k) => ({ value: k, label: LEAD_ACTIVITY_LABELS[k] }))}
                  />
                </FieldGroup>
                <FieldGroup label="Próximo seguimiento" labelFor="activity-next" error={formErrors.next_follow_up} hint="Opcional (Lima)">
                  <Suspense fallback={followUpFallback('activity-next')}>
                    <LimaDateTimeInput
                      id="activity-next"
                      value={form.next_follow_up}
                      disabled={adding}
                      onChange={(v) => change('next_follow_up', v)}
                      hasError={Boolean(formErrors.next_follow_up)}
                    />
                  </Suspense>
                </FieldGroup>
              </div>
              <FieldGroup label="Resultado" labelFor="activity-outcome" error={formErrors.outcome}>
                <TextArea
                  id="activity-outcome"
                  fill
                  value={form.outcome}
                  disabled={adding}
                  onChange={(e) => change('outcome', e.target.value)}
                  intent={formErrors.outcome ? 'danger' : 'none'}
                  aria-invalid={Boolean(formErrors.outcome)}
                  aria-describedby={formErrors.outcome ? 'activity-outcome-error' : undefined}
                />
              </FieldGroup>
              <Button type="submit" icon="add" intent="primary" text="Registrar actividad" loading={adding} disabled={busy && !adding} />
            </form>
            <h3 className={Classes.HEADING}>Historial de actividades</h3>
            {activities.length === 0 ? <p className={Classes.TEXT_MUTED}>Sin actividades todavía.</p> : null}
            <ol className="lead-timeline" aria-label="Historial de actividades">
              {activities.map((a) => (
                <li key={a.id}>
                  <div className="lead-timeline-head">
                    <strong>{LEAD_ACTIVITY_LABELS[a.kind as keyof typeof LEAD_ACTIVITY_LABELS] ?? a.kind}</strong>
                    <span className={Classes.TEXT_MUTED}>
                      {formatDateTime(a.occurred_at)}
                      {a.user ? ` · ${staffName(a.user)}` : ''}
                    </span>
                  </div>
                  <p className="lead-notes">{a.outcome}</p>
                </li>
              ))}
            </ol>
          </>
        ) : null}
      </div>
      <ReasonAlert detail={detail} isOpen={asking} error={reasonError} />
    </SideDrawer>
  );
}

/** Asks why a lead did not conclude (required; the text lives in the panel's machine). */
function ReasonAlert({ detail, isOpen, error }: { detail: ActorRefFrom<LeadDetailMachine>; isOpen: boolean; error: string | null }) {
  const reason = useSelector(detail, (s) => s.context.reason);
  return (
    <Alert
      isOpen={isOpen}
      intent="danger"
      icon="cross"
      confirmButtonText="Marcar no concretado"
      cancelButtonText="Cancelar"
      onConfirm={() => detail.send({ type: 'status.confirm' })}
      onCancel={() => detail.send({ type: 'status.cancel' })}
    >
      <FieldGroup label="Motivo por el que no se concretó" labelFor="lead-lost-reason" error={error ?? undefined}>
        <TextArea
          id="lead-lost-reason"
          fill
          autoFocus
          value={reason}
          onChange={(e) => detail.send({ type: 'reason.changed', value: e.target.value })}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? 'lead-lost-reason-error' : undefined}
        />
      </FieldGroup>
    </Alert>
  );
}
