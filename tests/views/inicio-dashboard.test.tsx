/**
 * Inicio, the staff dashboard (src/views/inicio/; docs/decisions.md "Inicio: the screen"): the page
 * over its real machines (createDashboardMachines) with fake api calls — the cards a manager and an
 * agent see, their figures and the lists they link to, PEN and USD on separate lines, one failed card
 * with its error and "Reintentar" beside the others, a realtime change refreshing only the cards it
 * names, and the module cards for a user without any card. ECharts needs a canvas jsdom lacks: the
 * chart module is replaced by a stand-in that shows what it was given.
 */
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiError } from '../../src/api/http';
import type { DashboardApi, DashboardCardData } from '../../src/api/inicio/dashboard';
import { createDashboardMachines } from '../../src/machines/inicio/dashboard.actors';
import type { DashboardChangedEvent } from '../../src/schemas/inicio/dashboard';
import { MODULE, SUBMODULE } from '../../src/schemas/permissions';
import { Dashboard } from '../../src/views/inicio/Dashboard';
import { renderApp } from './render-app';
import { fakeSessionApi, memoryStore, seedSession } from '../unit/support/fakes';

vi.mock('../../src/views/inicio/DashboardChart', () => ({
  default: ({
    spec,
    dark,
  }: {
    spec: { label: string; categories: string[]; series: { name: string; values: number[] }[] };
    dark: boolean;
  }) => (
    <div data-testid="chart-stand-in" aria-label={spec.label}>
      {`${dark ? 'oscuro' : 'claro'} ${spec.categories.join('|')} ${spec.series.map((s) => `${s.name}:${s.values.join(',')}`).join(' ')}`}
    </div>
  ),
  dashboardChartOption: () => ({}),
}));

const pen = (amount: number) => ({ currency: 'PEN' as const, amount });
const usd = (amount: number) => ({ currency: 'USD' as const, amount });

const figures: DashboardCardData = {
  sales: {
    as_of: '2026-11-29',
    periods: [
      {
        period: 'THIS_MONTH',
        from: '2026-11-01',
        to: '2026-11-29',
        count: 3,
        by_currency: [{ ...pen(9_000_000), area_m2: 360, price_per_m2: 25_000 }],
      },
      {
        period: 'LAST_MONTH',
        from: '2026-10-01',
        to: '2026-10-31',
        count: 1,
        by_currency: [{ ...usd(2_500_000), area_m2: 100, price_per_m2: 25_000 }],
      },
    ],
  },
  collections: {
    as_of: '2026-11-29',
    from: '2026-11-01',
    to: '2026-11-30',
    by_currency: [{ currency: 'PEN', collected: 1_500_000, expected: 2_000_000, collected_today: 50_000 }],
  },
  overdue: {
    as_of: '2026-11-29',
    buckets: [
      { bucket: 'AL_DIA', count: 40, by_currency: [pen(10_000_000)] },
      { bucket: '1_30', count: 5, by_currency: [pen(500_000)] },
      { bucket: '31_60', count: 3, by_currency: [pen(120_000), usd(30_000)] },
    ],
  },
  'payments-review': {
    count: 2,
    by_currency: [pen(80_000)],
    oldest: [
      {
        id: 9,
        customer_name: 'Rosa Huamán',
        reference: 'Venta V-0012',
        method: 'Yape',
        currency: 'PEN',
        amount: 30_000,
        created_at: '2026-11-20T15:00:00Z',
      },
    ],
  },
  'due-soon': { from: '2026-11-29', to: '2026-12-06', count: 4, by_currency: [pen(400_000)] },
  'late-customers': {
    customers: [
      {
        id: 31,
        name: 'Juan Pérez',
        phone: '987 654 321',
        days_late: 75,
        by_currency: [pen(250_000)],
        whatsapp_url: 'https://wa.me/51987654321?text=Hola',
      },
      { id: 32, name: 'Ana Díaz', phone: null, days_late: 12, by_currency: [usd(10_000)], whatsapp_url: null },
    ],
  },
  'follow-ups': { count: 1, leads: [{ id: 77, name: 'Carlos Rojas', phone: '999 111 222', next_follow_up_at: '2026-11-29T14:00:00Z' }] },
  'expiring-reservations': {
    count: 1,
    reservations: [
      {
        id: 5,
        lot_code: 'A-12',
        subdivision_name: 'Los Viñedos',
        customer_name: 'Rosa Huamán',
        agent_name: 'Lucía Quispe',
        expires_at: '2026-11-30T20:00:00Z',
      },
    ],
  },
  commissions: { by_currency: [{ currency: 'PEN', earned: 120_000, to_pay: 60_000 }] },
  'top-agents': {
    from: '2026-11-01',
    to: '2026-11-29',
    agents: [{ id: 7, name: 'Lucía Quispe', count: 3, by_currency: [pen(9_000_000)] }],
  },
  leads: {
    as_of: '2026-11-29',
    by_status: [
      { status: 'POR_ATENDER', count: 6 },
      { status: 'EN_ATENCION', count: 4 },
    ],
    month: { arrived: 8, converted: 1, rate_bp: 1250 },
    follow_ups_due: 2,
  },
  lots: { subdivisions: [{ id: 1, id_encrypted: 'abc123', name: 'Los Viñedos', counts: { DISPONIBLE: 20, VENDIDO: 5 } }] },
};

function fakeApi(overrides: Partial<DashboardApi> = {}) {
  const api = Object.fromEntries(Object.entries(figures).map(([card, data]) => [card, vi.fn(async () => data)])) as unknown as DashboardApi;
  return { ...api, ...overrides } as DashboardApi & Record<string, ReturnType<typeof vi.fn>>;
}

const managerPermissions = [
  MODULE.comercial,
  SUBMODULE.ventas,
  SUBMODULE.reporteVentas,
  MODULE.finanzas,
  SUBMODULE.pagos,
  MODULE.crm,
  SUBMODULE.leads,
  MODULE.proyectos,
  SUBMODULE.lotizaciones,
];
const agentPermissions = [MODULE.crm, SUBMODULE.leads, MODULE.administracion, SUBMODULE.comisiones];

function setup(permissions: readonly string[], api = fakeApi(), dark = false) {
  const listeners = new Set<(payload: DashboardChangedEvent) => void>();
  const machines = createDashboardMachines({
    api,
    onDashboardChanged: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  });
  render(<Dashboard machines={machines} permissions={permissions} dark={dark} />);
  const push = (payload: DashboardChangedEvent) => listeners.forEach((listener) => listener(payload));
  return { api, push, user: userEvent.setup() };
}

const card = (title: string) => screen.getByRole('region', { name: title });
const cardTitles = () => [...document.querySelectorAll('[data-card] h3')].map((h) => h.textContent);

describe('Inicio dashboard', () => {
  it('a manager sees the manager cards, with their figures and the lists they open', async () => {
    setup(managerPermissions);
    expect(cardTitles()).toEqual([
      'Ventas del mes',
      'Cobranza del mes',
      'Cartera por días de atraso',
      'Pagos por revisar',
      'Cuotas por vencer (7 días)',
      'Clientes con más atraso',
      'Mis seguimientos pendientes',
      'Separaciones por vencer (48 h)',
      'Mejores asesores del mes',
      'Leads',
      'Lotes por estado',
    ]);
    expect(screen.queryByRole('region', { name: 'Mis comisiones' })).toBeNull();

    const overdue = card('Cartera por días de atraso');
    const bucket = await within(overdue).findByRole('link', { name: '31–60 días' });
    expect(bucket.getAttribute('href')).toBe('/FINANZAS/RegistroCuotas?days_late=31_60');
    expect((await within(overdue).findByTestId('chart-stand-in')).textContent).toBe('claro 1–30 días|31–60 días Cuotas:5,3');

    const sales = card('Ventas del mes');
    expect(within(sales).getByRole('link', { name: 'Este mes' }).getAttribute('href')).toBe(
      '/COMERCIO/reporteVentas?from=2026-11-01&to=2026-11-29',
    );
    expect(within(sales).getByRole('link', { name: '3 ventas' })).toBeTruthy();
    expect(within(sales).getByText('S/ 90,000.00')).toBeTruthy();
    expect(within(sales).getByText('01/11/2026 – 29/11/2026')).toBeTruthy();

    const review = card('Pagos por revisar');
    expect(within(review).getByRole('link', { name: '2 pagos' }).getAttribute('href')).toBe('/FINANZAS/Pagos?status=PENDIENTE');
    expect(within(review).getByText('Venta V-0012 · Yape · 20/11/2026')).toBeTruthy();

    const collections = card('Cobranza del mes');
    const links = within(collections)
      .getAllByRole('link')
      .map((a) => a.getAttribute('href'));
    expect(links).toEqual([
      '/FINANZAS/Pagos?status=APROBADO&from=2026-11-01&to=2026-11-30',
      '/FINANZAS/RegistroCuotas?due_from=2026-11-01&due_to=2026-11-30',
      '/FINANZAS/Pagos?status=APROBADO&from=2026-11-29&to=2026-11-29',
    ]);

    const lots = card('Lotes por estado');
    expect(within(lots).getByRole('link', { name: 'Los Viñedos: 20 Disponible' }).getAttribute('href')).toBe(
      '/PROYECTOS/Lotes/los-vinedos/abc123?status=DISPONIBLE',
    );
    expect((await within(lots).findByTestId('chart-stand-in')).textContent).toBe('claro Los Viñedos Disponible:20 Vendido:5');

    const leads = card('Leads');
    expect(within(leads).getByRole('link', { name: 'Por atender' }).getAttribute('href')).toBe('/CRM/LEADS?status=POR_ATENDER');
    expect(within(leads).getByRole('link', { name: '2 leads' }).getAttribute('href')).toBe('/CRM/LEADS?overdue=true');
    expect(within(leads).getByText('12.5 %')).toBeTruthy();

    expect(within(card('Mejores asesores del mes')).getByRole('link', { name: 'Lucía Quispe' }).getAttribute('href')).toBe(
      '/COMERCIO/reporteVentas?from=2026-11-01&to=2026-11-29&agent_id=7',
    );
    expect(within(card('Separaciones por vencer (48 h)')).getByRole('link', { name: '1 separación' }).getAttribute('href')).toBe(
      '/COMERCIO/ventas?vista=separaciones',
    );
    expect(within(card('Cuotas por vencer (7 días)')).getByRole('link', { name: '4 cuotas' }).getAttribute('href')).toBe(
      '/FINANZAS/RegistroCuotas?due_from=2026-11-29&due_to=2026-12-06',
    );
    const followUps = card('Mis seguimientos pendientes');
    expect(within(followUps).getByRole('link', { name: '1 seguimiento' }).getAttribute('href')).toBe('/CRM/LEADS?mine=true&overdue=true');
    expect(within(followUps).getByRole('link', { name: 'Carlos Rojas' }).getAttribute('href')).toBe('/CRM/LEADS?lead=77');
    expect(within(followUps).getByText('999 111 222 · 29/11/2026 09:00')).toBeTruthy();
  });

  it('a user who may not open Reporte de Ventas sees the sales figures without a link to it', async () => {
    setup(managerPermissions.filter((p) => p !== SUBMODULE.reporteVentas));
    const sales = card('Ventas del mes');
    expect(await within(sales).findByText('3 ventas')).toBeTruthy();
    expect(within(sales).queryByRole('link')).toBeNull();
    expect(within(card('Mejores asesores del mes')).queryByRole('link', { name: 'Lucía Quispe' })).toBeNull();
    expect(within(card('Mejores asesores del mes')).getByText('Lucía Quispe')).toBeTruthy();
  });

  it('PEN and USD stay on separate lines, never added', async () => {
    setup(managerPermissions);
    const overdue = card('Cartera por días de atraso');
    const row = (await within(overdue).findByRole('link', { name: '31–60 días' })).closest('tr')!;
    const lines = [...row.querySelectorAll('.dashboard-money-line')].map((line) => line.textContent);
    expect(lines).toEqual(['S/ 1,200.00', 'US$ 300.00']);
  });

  it('late customers: name, days late, amount, phone and a WhatsApp link opening a new tab', async () => {
    setup(managerPermissions);
    const late = card('Clientes con más atraso');
    const juan = (await within(late).findByRole('link', { name: 'Juan Pérez' })).closest('tr')!;
    expect(within(juan).getByRole('link', { name: 'Juan Pérez' }).getAttribute('href')).toBe(
      '/FINANZAS/RegistroCuotas?customer_id=31&status=VENCIDA',
    );
    expect(within(juan).getByText('75 días')).toBeTruthy();
    expect(within(juan).getByText('S/ 2,500.00')).toBeTruthy();
    expect(within(juan).getByText('987 654 321')).toBeTruthy();
    // Blueprint's AnchorButton: an <a> drawn as a button.
    const whatsApp = within(juan).getByRole('button', { name: 'Escribir por WhatsApp a Juan Pérez' });
    expect(whatsApp.tagName).toBe('A');
    expect(whatsApp.textContent).toBe('WhatsApp');
    expect(whatsApp.getAttribute('href')).toBe('https://wa.me/51987654321?text=Hola');
    expect(whatsApp.getAttribute('target')).toBe('_blank');
    expect(whatsApp.getAttribute('rel')).toContain('noopener');
    const ana = within(late).getByRole('link', { name: 'Ana Díaz' }).closest('tr')!;
    expect(within(ana).queryByRole('button', { name: /WhatsApp/ })).toBeNull();
    expect(within(ana).getByText('US$ 100.00')).toBeTruthy();
  });

  it('an agent sees only their cards, and only those are asked for', async () => {
    const { api } = setup(agentPermissions);
    expect(cardTitles()).toEqual(['Mis seguimientos pendientes', 'Mis comisiones', 'Leads']);
    const commissions = card('Mis comisiones');
    expect((await within(commissions).findAllByRole('link')).map((a) => a.getAttribute('href'))).toEqual([
      '/ADMINISTRACION/ComisionesPagos',
      '/ADMINISTRACION/ComisionesPagos',
    ]);
    expect(within(commissions).getByText('S/ 1,200.00')).toBeTruthy();
    expect(api.sales).not.toHaveBeenCalled();
    expect(api.overdue).not.toHaveBeenCalled();
    expect(api['follow-ups']).toHaveBeenCalledTimes(1);
  });

  it('one failed card shows its error and "Reintentar" while the others show their figures', async () => {
    const collections = vi
      .fn<DashboardApi['collections']>()
      .mockRejectedValueOnce(new ApiError(500, 'No se pudo calcular la cobranza.'))
      .mockResolvedValueOnce(figures.collections);
    const { user } = setup(managerPermissions, fakeApi({ collections }));
    const failed = card('Cobranza del mes');
    expect(await within(failed).findByText('No se pudo calcular la cobranza.')).toBeTruthy();
    expect(await within(card('Cartera por días de atraso')).findByRole('link', { name: '31–60 días' })).toBeTruthy();
    expect(within(card('Pagos por revisar')).getByRole('link', { name: '2 pagos' })).toBeTruthy();
    await user.click(within(failed).getByRole('button', { name: 'Reintentar' }));
    expect(await within(failed).findByText('S/ 15,000.00')).toBeTruthy();
    expect(within(failed).queryByText('No se pudo calcular la cobranza.')).toBeNull();
    expect(collections).toHaveBeenCalledTimes(2);
  });

  it('a realtime DashboardChanged refreshes only the cards it names, keeping the figures until the new ones arrive', async () => {
    let answer: (value: DashboardCardData['due-soon']) => void = () => {};
    const dueSoon = vi
      .fn<DashboardApi['due-soon']>()
      .mockResolvedValueOnce(figures['due-soon'])
      .mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    const { api, push } = setup(managerPermissions, fakeApi({ 'due-soon': dueSoon }));
    const due = card('Cuotas por vencer (7 días)');
    await within(due).findByRole('link', { name: '4 cuotas' });
    push({ cards: ['due-soon'] });
    await waitFor(() => expect(due.getAttribute('aria-busy')).toBe('true'));
    expect(within(due).getByRole('link', { name: '4 cuotas' })).toBeTruthy();
    answer({ ...figures['due-soon'], count: 5 });
    expect(await within(due).findByRole('link', { name: '5 cuotas' })).toBeTruthy();
    expect(dueSoon).toHaveBeenCalledTimes(2);
    expect(api.sales).toHaveBeenCalledTimes(1);
  });

  it('charts follow the theme', async () => {
    setup(managerPermissions, fakeApi(), true);
    expect((await within(card('Leads')).findByTestId('chart-stand-in')).textContent).toBe('oscuro Por atender|En atención Leads:6,4');
  });
});

describe('Inicio in the app', () => {
  it('a user with card permissions gets the greeting and, inside the shell, the cards (their calls on the staff base)', async () => {
    const store = memoryStore();
    seedSession(store, { perms: agentPermissions });
    const answers: Record<string, unknown> = { 'follow-ups': figures['follow-ups'], commissions: figures.commissions };
    const fetch = vi.fn(async (input: RequestInfo | URL) => {
      const card = /\/api\/dashboard\/([a-z-]+)$/.exec(String(input instanceof Request ? input.url : input))?.[1] ?? '';
      return card in answers
        ? Response.json({ data: answers[card] })
        : Response.json({ message: 'No se pudieron calcular los leads.' }, { status: 500 });
    });
    // The session's start-up revalidation (row 11) answers the same permissions.
    const api = fakeSessionApi({ rolePermissions: vi.fn(async () => agentPermissions) });
    renderApp('/', { store, api, fetch: fetch as typeof globalThis.fetch });
    expect(await screen.findByRole('heading', { name: 'Hola, Lucía' })).toBeTruthy();
    expect(await screen.findByRole('link', { name: '1 seguimiento' })).toBeTruthy();
    expect(await within(card('Leads')).findByText('No se pudieron calcular los leads.')).toBeTruthy();
    expect(within(card('Mis comisiones')).getByText('S/ 1,200.00')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Sus módulos' })).toBeNull();
    const asked = fetch.mock.calls.map(([input]) => String(input instanceof Request ? input.url : input).replace(/^.*\/api\//, ''));
    expect(asked.sort()).toEqual(['dashboard/commissions', 'dashboard/follow-ups', 'dashboard/leads']);
  });
});

describe('Inicio without any card permission', () => {
  it('shows the greeting and the module cards, as before', async () => {
    const store = memoryStore();
    seedSession(store);
    renderApp('/', { store });
    expect(await screen.findByRole('heading', { name: 'Hola, Lucía' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Sus módulos' })).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Resumen' })).toBeNull();
  });
});
