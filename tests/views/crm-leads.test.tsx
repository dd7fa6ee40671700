/**
 * CRM → LEADS (issue "CRM and sales"): the page over its real machines (createLeadsMachines) with
 * fake api calls: tabs with counts, overdue follow-ups, duplicates (merge / keep both), the side
 * panel (activity with follow-up, NO_CONCRETADO with its reason), convert, and the board; rows open
 * on click or Enter, the board follows the search and filters, cards move by drag and drop or
 * "Mover a…", phones are tel: and WhatsApp links (docs/domain.md "Leads: contact links").
 */
import type { ReactNode } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import { createActor, createMachine } from 'xstate';
import type { LeadsApi } from '../../src/api/crm/leads';
import type { CustomersApi } from '../../src/api/crm/customers';
import type { Lead } from '../../src/schemas/crm/leads';
import { ACTION } from '../../src/schemas/permissions';
import { createLeadsMachines } from '../../src/machines/crm/leads.actors';
import { LeadsPage, splitFullName } from '../../src/views/crm/LeadsPage';
import { ServicesProvider, type ViewServices } from '../../src/views/services';

const when = '2026-11-20T15:00:00Z';
const ana: Lead = {
  id: 1,
  name: 'Ana Torres Ríos',
  phone: '987111222',
  email: 'ana@correo.pe',
  id_document_type: null,
  document_number: null,
  channel: 'FACEBOOK',
  campaign: 'Verano',
  notes: null,
  subdivisions: [{ id: 5, name: 'Los Viñedos' }],
  agent: { id: 7, name: 'Lucía', surname: 'Quispe' },
  status: 'EN_ATENCION',
  lost_reason: null,
  next_follow_up_at: '2026-11-21T14:00:00Z',
  overdue: true,
  customer: null,
  last_activity_at: when,
  received_at: when,
  created_at: when,
  updated_at: when,
  version: 2,
};
const jorge: Lead = {
  ...ana,
  id: 2,
  name: 'Jorge Soto',
  phone: '987333444',
  status: 'POR_ATENDER',
  overdue: false,
  next_follow_up_at: null,
};

function fakeApi(overrides: Partial<LeadsApi> = {}): LeadsApi {
  return {
    list: vi.fn(async (query) => {
      const rows = [ana, jorge].filter((l) => !query.filters.status || l.status === query.filters.status);
      return { data: rows, meta: { page: 1, per_page: 20, total: rows.length } };
    }),
    summary: vi.fn(async () => ({ counts: { EN_ATENCION: 1, POR_ATENDER: 1 }, overdue: 1 })),
    duplicates: vi.fn(async () => []),
    get: vi.fn(async (id) => (id === 1 ? ana : jorge)),
    create: vi.fn(async () => ({ ...jorge, id: 3 })),
    update: vi.fn(async () => ana),
    activities: vi.fn(async () => [
      { id: 9, kind: 'LLAMADA', outcome: 'Interesado en la Mz. C', occurred_at: when, user: { id: 7, name: 'Lucía', surname: 'Quispe' } },
    ]),
    addActivity: vi.fn(async () => ({ id: 10, kind: 'VISITA', outcome: 'x', occurred_at: when, user: null })),
    merge: vi.fn(async () => ana),
    convert: vi.fn(async () => ({ ...ana, customer: { id: 40, display_name: 'Ana Torres Ríos' } })),
    previewImport: vi.fn(async () => ({
      total: 3,
      create: 1,
      merge: 1,
      skip: 1,
      errors: 0,
      rows: [
        {
          row: 2,
          name: 'Rosa Quispe',
          phone: '987654001',
          email: null,
          channel: 'FACEBOOK',
          campaign: 'Verano',
          received_at: when,
          action: 'NUEVO',
          duplicate_of: null,
        },
        {
          row: 3,
          name: 'Ana T.',
          phone: '987111222',
          email: null,
          channel: 'FACEBOOK',
          campaign: null,
          received_at: null,
          action: 'FUSIONAR',
          duplicate_of: { id: 1, name: 'Ana Torres Ríos' },
        },
        {
          row: 4,
          name: 'Rosa Q.',
          phone: '987654001',
          email: null,
          channel: 'FACEBOOK',
          campaign: null,
          received_at: null,
          action: 'REPETIDO',
          duplicate_of: null,
        },
      ],
      issues: [{ severity: 'WARNING' as const, row: 4, field: null, message: 'Repite el contacto de la fila 2: se omite' }],
    })),
    commitImport: vi.fn(async () => ({ created: 1, merged: 1, skipped: 1 })),
    ...overrides,
  };
}

function setup(api: LeadsApi, permissions: string[] = [ACTION.supervisarLeads]) {
  const toaster = { show: vi.fn() };
  const customersApi = {
    staffOptions: vi.fn(async () => ({ data: [{ id: 7, name: 'Lucía', surname: 'Quispe' }], meta: { page: 1, per_page: 100, total: 1 } })),
  } as unknown as CustomersApi;
  const machines = createLeadsMachines({
    leadsApi: api,
    customersApi,
    subdivisionOptions: async () => [{ id: 5, name: 'Los Viñedos' }],
    reportApiError: vi.fn(),
    toaster,
  });
  const session = createActor(createMachine({ context: { permissions, user: { name: 'Lucía', surname: 'Quispe' } } })).start();
  const services = { session, machines: {}, navigate: vi.fn(), toaster, today: () => '2026-11-22' } as unknown as ViewServices;
  const view = (node: ReactNode) =>
    render(
      <ServicesProvider value={services}>
        <OverlaysProvider>{node}</OverlaysProvider>
      </ServicesProvider>,
    );
  view(<LeadsPage machines={machines} />);
  return { toaster, user: userEvent.setup() };
}

describe('splitFullName', () => {
  it('takes the last two words as surnames', () => {
    expect(splitFullName('Ana María Torres Ríos')).toEqual({ name: 'Ana María', surname: 'Torres Ríos' });
    expect(splitFullName('Jorge Soto')).toEqual({ name: 'Jorge', surname: 'Soto' });
    expect(splitFullName('Cher')).toEqual({ name: 'Cher', surname: '' });
  });
});

describe('LeadsPage', () => {
  // The list writes its query to the address; every test starts from a plain one.
  beforeEach(() => window.history.replaceState(null, '', '/CRM/LEADS'));

  it('lists leads under status tabs with their counts and marks overdue follow-ups', async () => {
    const api = fakeApi();
    const { user } = setup(api);
    const table = await screen.findByRole('table', { name: 'Leads' });
    expect(await within(table).findByText('Ana Torres Ríos')).toBeTruthy();
    expect(within(table).getByText('(vencido)')).toBeTruthy();
    expect(await screen.findByRole('tab', { name: 'Todos (2)' })).toBeTruthy();
    await user.click(screen.getByRole('tab', { name: 'Por atender (1)' }));
    await waitFor(() => expect(api.list).toHaveBeenLastCalledWith(expect.objectContaining({ filters: { status: 'POR_ATENDER' } })));
    expect(screen.getByLabelText('Seguimiento vencido (1)')).toBeTruthy();
  });

  it('warns of a duplicate while typing and merges the new contact into it', async () => {
    const api = fakeApi({ duplicates: vi.fn(async ({ phone }) => (phone ? [ana] : [])) });
    const { user } = setup(api);
    await screen.findByText('Jorge Soto');
    await user.click(screen.getAllByRole('button', { name: 'Nuevo lead' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Nuevo lead' });
    await user.type(within(dialog).getByLabelText('Nombre completo'), 'Ana T.');
    await user.selectOptions(within(dialog).getByLabelText('Canal'), 'INSTAGRAM');
    await user.type(within(dialog).getByLabelText('Teléfono'), '987 111 222');
    expect(await within(dialog).findByText('Posibles duplicados')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Fusionar' }));
    const alert = await screen.findByRole('alertdialog');
    await user.click(within(alert).getByRole('button', { name: 'Fusionar' }));
    await waitFor(() =>
      expect(api.merge).toHaveBeenCalledWith(1, expect.objectContaining({ name: 'Ana T.', phone: '987111222', channel: 'INSTAGRAM' })),
    );
    // The kept lead opens in the panel.
    expect(await screen.findByRole('dialog', { name: 'Ana Torres Ríos' })).toBeTruthy();
  });

  it('"Mantener ambos" creates the new lead anyway', async () => {
    const api = fakeApi({ duplicates: vi.fn(async ({ phone }) => (phone ? [ana] : [])) });
    const { user } = setup(api);
    await screen.findByText('Jorge Soto');
    await user.click(screen.getAllByRole('button', { name: 'Nuevo lead' })[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Nuevo lead' });
    await user.type(within(dialog).getByLabelText('Nombre completo'), 'Ana Dos');
    await user.selectOptions(within(dialog).getByLabelText('Canal'), 'WEB');
    await user.type(within(dialog).getByLabelText('Teléfono'), '987111222');
    await user.click(await within(dialog).findByLabelText(/Mantener ambos/));
    // The Spanish date-and-time field (dd/mm/aaaa hh:mm, Lima) loads with the form.
    await waitFor(() => expect(within(dialog).getByLabelText('Próximo seguimiento')).toHaveProperty('readOnly', false));
    await user.type(within(dialog).getByLabelText('Próximo seguimiento'), '25/11/2026 10:30');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() =>
      expect(api.create).toHaveBeenCalledWith(
        expect.objectContaining({ name: 'Ana Dos', on_duplicate: 'KEEP', next_follow_up_at: '2026-11-25T15:30:00Z' }),
      ),
    );
  });

  it('opens a lead: logs an activity with its follow-up and asks the reason before "No concretado"', async () => {
    const api = fakeApi();
    const { user } = setup(api);
    const table = await screen.findByRole('table', { name: 'Leads' });
    await within(table).findByText('Ana Torres Ríos');
    const row = within(table).getByText('Ana Torres Ríos').closest('tr')!;
    await user.click(within(row).getByRole('button', { name: /Acciones/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Abrir' }));
    // The closing menu hands the focus back to "Acciones": type once it is gone, or keys land there.
    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
    const panel = await screen.findByRole('dialog', { name: 'Ana Torres Ríos' });
    expect(await within(panel).findByText('Interesado en la Mz. C')).toBeTruthy();
    await user.selectOptions(within(panel).getByLabelText('Tipo'), 'VISITA');
    await user.click(within(panel).getByRole('button', { name: 'Registrar actividad' }));
    expect(await within(panel).findByText('Describa el resultado')).toBeTruthy();
    await user.type(within(panel).getByLabelText('Resultado'), 'Visitó el proyecto');
    await waitFor(() => expect(within(panel).getByLabelText('Próximo seguimiento')).toHaveProperty('readOnly', false));
    await user.type(within(panel).getByLabelText('Próximo seguimiento'), '28/11/2026 09:00');
    await user.click(within(panel).getByRole('button', { name: 'Registrar actividad' }));
    await waitFor(() =>
      expect(api.addActivity).toHaveBeenCalledWith(1, {
        kind: 'VISITA',
        outcome: 'Visitó el proyecto',
        next_follow_up_at: '2026-11-28T14:00:00Z',
      }),
    );
    await user.click(within(panel).getByRole('button', { name: 'No concretado' }));
    const ask = await screen.findByRole('alertdialog');
    await user.click(within(ask).getByRole('button', { name: 'Marcar no concretado' }));
    expect(await within(ask).findByText('Indique el motivo por el que no se concretó')).toBeTruthy();
    await user.type(within(ask).getByLabelText('Motivo por el que no se concretó'), 'Compró en otro proyecto');
    await user.click(within(ask).getByRole('button', { name: 'Marcar no concretado' }));
    await waitFor(() =>
      expect(api.update).toHaveBeenCalledWith(1, { status: 'NO_CONCRETADO', lost_reason: 'Compró en otro proyecto', version: 2 }),
    );
  });

  it('converts a lead into a customer with its names split and its contact carried over', async () => {
    const api = fakeApi();
    const { user, toaster } = setup(api);
    const table = await screen.findByRole('table', { name: 'Leads' });
    const row = (await within(table).findByText('Ana Torres Ríos')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: /Acciones/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Abrir' }));
    const panel = await screen.findByRole('dialog', { name: 'Ana Torres Ríos' });
    await user.click(await within(panel).findByRole('button', { name: 'Convertir en cliente' }));
    const form = await screen.findByRole('dialog', { name: 'Convertir en cliente' });
    expect((within(form).getByLabelText('Nombres') as HTMLInputElement).value).toBe('Ana');
    expect((within(form).getByLabelText('Apellidos') as HTMLInputElement).value).toBe('Torres Ríos');
    await user.type(within(form).getByLabelText('Número de documento'), '47777777');
    await user.click(within(form).getByRole('button', { name: 'Guardar' }));
    await waitFor(() =>
      expect(api.convert).toHaveBeenCalledWith(1, {
        customer: expect.objectContaining({ document_number: '47777777', name: 'Ana', surname: 'Torres Ríos', phone: '987111222' }),
        version: 2,
      }),
    );
    await waitFor(() => expect(toaster.show).toHaveBeenCalledWith(expect.objectContaining({ summary: 'Lead convertido en cliente' })));
  });

  it('shows the board by status; an agent without the supervisor permission has no agent filter', async () => {
    const api = fakeApi();
    const { user } = setup(api, []);
    await screen.findByText('Jorge Soto');
    expect(screen.queryByLabelText('Asesor')).toBeNull();
    await user.click(screen.getByRole('radio', { name: 'Tablero' }));
    const board = await screen.findByRole('region', { name: 'Tablero de leads' });
    const attending = await within(board).findByRole('region', { name: 'En atención' });
    expect(await within(attending).findByText('Ana Torres Ríos')).toBeTruthy();
    await user.click(within(attending).getByRole('button', { name: 'Ana Torres Ríos' }));
    expect(await screen.findByRole('dialog', { name: 'Ana Torres Ríos' })).toBeTruthy();
  });

  it('opens a lead by clicking its row, or with Enter on the focused row', async () => {
    const api = fakeApi();
    const { user } = setup(api);
    const table = await screen.findByRole('table', { name: 'Leads' });
    await user.click(await within(table).findByText('Jorge Soto'));
    const panel = await screen.findByRole('dialog', { name: 'Jorge Soto' });
    expect(api.get).toHaveBeenLastCalledWith(2);
    // Escape once the focus is in the panel (Blueprint moves it there after the panel opens).
    await waitFor(() => expect(panel.closest('.bp6-overlay')!.contains(document.activeElement)).toBe(true));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Jorge Soto' })).toBeNull());
    const row = within(table).getByText('Ana Torres Ríos').closest('tr')!;
    row.focus();
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: 'Ana Torres Ríos' })).toBeTruthy();
  });

  it('phones are tel: links and, for mobiles, WhatsApp chats with a Spanish greeting', async () => {
    setup(fakeApi());
    const table = await screen.findByRole('table', { name: 'Leads' });
    const row = (await within(table).findByText('Ana Torres Ríos')).closest('tr')!;
    expect(within(row).getByRole('link', { name: 'Llamar al 987111222' }).getAttribute('href')).toBe('tel:+51987111222');
    // Blueprint's AnchorButton: an <a href> with the button role.
    const chat = within(row).getByRole('button', { name: 'Escribir por WhatsApp a Ana Torres Ríos' });
    expect(chat.tagName).toBe('A');
    expect(chat.getAttribute('target')).toBe('_blank');
    expect(chat.getAttribute('rel')).toContain('noopener');
    const href = new URL(chat.getAttribute('href')!);
    expect(href.origin + href.pathname).toBe('https://wa.me/51987111222');
    expect(href.searchParams.get('text')).toBe('Hola Ana, le saluda Lucía Quispe. Le escribo por su interés en Los Viñedos.');
  });

  it('the board follows the search box and the filters', async () => {
    const api = fakeApi();
    const { user } = setup(api);
    await screen.findByText('Jorge Soto');
    await user.click(screen.getByRole('radio', { name: 'Tablero' }));
    await screen.findByRole('region', { name: 'Tablero de leads' });
    await user.type(screen.getByRole('searchbox', { name: 'Buscar' }), 'Ana');
    await waitFor(() =>
      expect(api.list).toHaveBeenCalledWith(
        expect.objectContaining({ filters: expect.objectContaining({ q: 'Ana', status: 'NO_CONCRETADO' }) }),
      ),
    );
    expect(api.summary).toHaveBeenLastCalledWith(expect.objectContaining({ q: 'Ana' }));
  });

  it('a card dragged to another column changes its status; "Mover a…" does it from the keyboard, asking the reason for "No concretado"', async () => {
    const api = fakeApi({ update: vi.fn(async () => ({ ...jorge, status: 'EN_ATENCION' as const })) });
    const { user } = setup(api);
    await screen.findByText('Jorge Soto');
    await user.click(screen.getByRole('radio', { name: 'Tablero' }));
    const board = await screen.findByRole('region', { name: 'Tablero de leads' });
    const waiting = await within(board).findByRole('region', { name: 'Por atender' });
    const attending = within(board).getByRole('region', { name: 'En atención' });
    const card = (await within(waiting).findByRole('button', { name: 'Jorge Soto' })).closest('.lead-card')!;
    const dataTransfer = { setData: vi.fn(), effectAllowed: '', dropEffect: '' };
    fireEvent.dragStart(card, { dataTransfer });
    // A move the lead does not allow (POR_ATENDER → CONCRETADO) is no drop target.
    const closed = within(board).getByRole('region', { name: 'Concretado' });
    expect(closed.className).not.toContain('lead-board-column-target');
    expect(attending.className).toContain('lead-board-column-target');
    fireEvent.dragOver(attending, { dataTransfer });
    fireEvent.drop(attending, { dataTransfer });
    await waitFor(() => expect(api.update).toHaveBeenCalledWith(2, { status: 'EN_ATENCION', version: 2 }));
    const panel = await screen.findByRole('dialog', { name: 'Jorge Soto' });
    await waitFor(() => expect(panel.closest('.bp6-overlay')!.contains(document.activeElement)).toBe(true));
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Jorge Soto' })).toBeNull());

    await user.click(within(attending).getByRole('button', { name: 'Mover Ana Torres Ríos a…' }));
    await user.click(await screen.findByRole('menuitem', { name: 'No concretado' }));
    const ask = await screen.findByRole('alertdialog');
    await user.type(within(ask).getByLabelText('Motivo por el que no se concretó'), 'Sin presupuesto');
    await user.click(within(ask).getByRole('button', { name: 'Marcar no concretado' }));
    await waitFor(() =>
      expect(api.update).toHaveBeenCalledWith(1, { status: 'NO_CONCRETADO', lost_reason: 'Sin presupuesto', version: 2 }),
    );
  });

  it('imports a file: checks it first, shows what each row does, then imports all at once', async () => {
    const api = fakeApi();
    const { user, toaster } = setup(api);
    await screen.findByText('Jorge Soto');
    await user.click(screen.getByRole('button', { name: 'Importar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Importar leads' });
    expect((within(dialog).getByRole('button', { name: 'Importar' }) as HTMLButtonElement).disabled).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Comprobar' }));
    expect(await within(dialog).findByText('Elija el archivo de leads (CSV o XLSX)')).toBeTruthy();
    const file = new File(['full_name,phone_number\nRosa,987654001\n'], 'leads.csv', { type: 'text/csv' });
    await user.upload(within(dialog).getByLabelText('Archivo de leads'), file);
    await user.selectOptions(within(dialog).getByLabelText('Asignar a'), '7');
    await user.click(within(dialog).getByRole('button', { name: 'Comprobar' }));
    expect(await within(dialog).findByText(/3 filas: 1 nuevos, 1 se fusionan, 1 repetidos/)).toBeTruthy();
    expect(within(dialog).getByText('Fila 4: Repite el contacto de la fila 2: se omite')).toBeTruthy();
    expect(api.previewImport).toHaveBeenCalledWith(file, 'leads.csv', { channel: 'FACEBOOK', duplicates: 'MERGE', agent_id: 7 });
    await user.click(within(dialog).getByRole('button', { name: 'Importar 2 leads' }));
    await waitFor(() =>
      expect(api.commitImport).toHaveBeenCalledWith(file, 'leads.csv', { channel: 'FACEBOOK', duplicates: 'MERGE', agent_id: 7 }),
    );
    await waitFor(() => expect(toaster.show).toHaveBeenCalledWith(expect.objectContaining({ summary: 'Importación terminada' })));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Importar leads' })).toBeNull());
  });
});
