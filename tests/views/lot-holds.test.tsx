/**
 * "Solicitudes de bloqueo" on Proyectos → Lotes (docs/domain.md "Lot holds") over the real
 * machines (createProjectsMachines) with fake api modules: a supervisor sees the subdivision's
 * pending requests (lot code, subdivision, requested status, end date dd/mm/yyyy, who asked, when),
 * approves one, rejects another with a reason, sees the server's refusal; an agent sees only the
 * list of their own requests, without the decision buttons.
 */
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import { createActor, createMachine } from 'xstate';
import { ApiError } from '../../src/api/client';
import type { SubdivisionsApi } from '../../src/api/proyectos/subdivisions';
import type { LotsApi } from '../../src/api/proyectos/lots';
import { createProjectsMachines } from '../../src/machines/proyectos/projects.actors';
import { ServicesProvider, type ViewServices } from '../../src/views/services';
import { LotsPage } from '../../src/views/proyectos/LotsPage';
import type { Subdivision } from '../../src/schemas/proyectos/projects';
import { LOT_HOLD_MESSAGES, type LotHold } from '../../src/schemas/proyectos/lot-holds';

const subdivision = {
  id: 3,
  key: 'k3Y',
  code: 'LV-01',
  name: 'Los Viñedos de Carabayllo',
  currency: 'PEN',
  status: 'EN_VENTA',
  plan_url: null,
  lot_counts: { DISPONIBLE: 5, SEPARADO: 2, VENDIDO: 3, BLOQUEADO: 1, RESERVA_COMERCIAL: 0, CANJE: 0, NO_VENDIBLE: 0 },
  lots_total: 11,
  sold_area_m2: 250,
  total_area_m2: 1000,
} as unknown as Subdivision;

const hold = (over: Partial<LotHold> = {}): LotHold => ({
  id: 5,
  lot: { id: 8, code: 'MZ B - LT 8', subdivision_id: 3 },
  status: 'RESERVA_COMERCIAL',
  state: 'PENDIENTE',
  reason: 'Cliente viaja a firmar',
  until: '2026-12-15',
  requested_by: { id: 2, name: 'Ana Asesora' },
  requested_at: '2026-11-28T15:30:00Z',
  decided_by: null,
  decided_at: null,
  decision_reason: null,
  ...over,
});
const second = hold({ id: 6, lot: { id: 9, code: 'MZ C - LT 2', subdivision_id: 3 }, status: 'BLOQUEADO' });
const page = (data: LotHold[]) => ({ data, meta: { page: 1, per_page: 100, total: data.length } });

const BASE = ['Acceso módulo proyectos', 'Acceso submódulo lotizaciones'];
const SUPERVISOR = [...BASE, 'Aprobar bloqueos de lotes'];

function setup(opts: { permissions?: string[]; lotsApi?: Partial<LotsApi> } = {}) {
  const subdivisionsApi = {
    get: vi.fn(async () => subdivision),
    stages: vi.fn(async () => []),
    blocks: vi.fn(async () => []),
  } as unknown as SubdivisionsApi;
  const lotsApi = {
    list: vi.fn(async () => ({ data: [], meta: { page: 1, per_page: 50, total: 0 } })),
    holds: vi.fn(async () => page([hold(), second])),
    decideHold: vi.fn(async (id: number, approve: boolean, reason: string | null) =>
      hold({ id, state: approve ? 'APROBADA' : 'RECHAZADA', decision_reason: reason }),
    ),
    ...opts.lotsApi,
  } as unknown as LotsApi;
  const toaster = { show: vi.fn() };
  const machines = createProjectsMachines({ subdivisionsApi, lotsApi }, { reportApiError: vi.fn(), toaster });
  const session = createActor(createMachine({ context: { permissions: opts.permissions ?? SUPERVISOR } })).start();
  const services = { session, machines: {}, navigate: vi.fn(), toaster, today: () => '2026-11-28' } as unknown as ViewServices;
  render(
    <ServicesProvider value={services}>
      <OverlaysProvider>
        <LotsPage machines={machines} subdivisionKey="k3Y" />
      </OverlaysProvider>
    </ServicesProvider>,
  );
  return { lotsApi, toaster, user: userEvent.setup() };
}

async function openHolds(user: ReturnType<typeof userEvent.setup>) {
  await screen.findByRole('heading', { name: 'Los Viñedos de Carabayllo' });
  await user.click(screen.getByRole('button', { name: 'Solicitudes de bloqueo' }));
  return screen.findByRole('table', { name: 'Solicitudes de bloqueo' });
}

describe('Solicitudes de bloqueo', () => {
  it('a supervisor sees the pending requests of the subdivision with their details and approves one', async () => {
    const { lotsApi, toaster, user } = setup();
    const table = await openHolds(user);
    expect(lotsApi.holds).toHaveBeenCalledWith({ state: 'PENDIENTE', per_page: 100, subdivision_id: 3 });
    const row = within(table).getByText('MZ B - LT 8').closest('tr')!;
    for (const text of [
      'Los Viñedos de Carabayllo',
      'Reserva comercial',
      '15/12/2026',
      'Cliente viaja a firmar',
      'Ana Asesora',
      '28/11/2026 10:30',
    ])
      expect(within(row).getByText(text)).toBeTruthy();
    await user.click(within(table).getByRole('button', { name: 'Aprobar MZ B - LT 8' }));
    await waitFor(() => expect(lotsApi.decideHold).toHaveBeenCalledWith(5, true, null));
    await waitFor(() => expect(lotsApi.holds).toHaveBeenCalledTimes(2));
    expect(toaster.show).toHaveBeenCalledWith({ severity: 'success', summary: 'Solicitud aprobada', detail: 'MZ B - LT 8' });
  });

  it('rejects with a reason typed in its dialog', async () => {
    const { lotsApi, user } = setup();
    const table = await openHolds(user);
    await user.click(within(table).getByRole('button', { name: 'Rechazar MZ C - LT 2' }));
    const dialog = await screen.findByRole('dialog', { name: /Rechazar solicitud · MZ C - LT 2/ });
    await user.type(within(dialog).getByLabelText('Motivo del rechazo (opcional)'), 'Lote en negociación');
    await user.click(within(dialog).getByRole('button', { name: 'Rechazar' }));
    await waitFor(() => expect(lotsApi.decideHold).toHaveBeenCalledWith(6, false, 'Lote en negociación'));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: /Rechazar solicitud/ })).toBeNull());
  });

  it("shows the server's Spanish refusal of an approval", async () => {
    const { user } = setup({
      lotsApi: { decideHold: vi.fn(async () => Promise.reject(new ApiError(409, LOT_HOLD_MESSAGES.lotMoved))) },
    });
    const table = await openHolds(user);
    await user.click(within(table).getByRole('button', { name: 'Aprobar MZ B - LT 8' }));
    expect((await screen.findByRole('alert')).textContent).toContain(LOT_HOLD_MESSAGES.lotMoved);
  });

  it('an agent sees their own requests and their state, without approve or reject', async () => {
    const { lotsApi, user } = setup({ permissions: BASE });
    const table = await openHolds(user);
    expect(screen.getByText('Solo se muestran sus propias solicitudes.')).toBeTruthy();
    expect(within(table).queryByRole('button', { name: /Aprobar|Rechazar/ })).toBeNull();
    vi.mocked(lotsApi.holds).mockResolvedValueOnce(
      page([hold({ state: 'RECHAZADA', decided_by: { id: 1, name: 'Jefa de Ventas' }, decision_reason: 'Sin sustento' })]),
    );
    await user.selectOptions(screen.getByLabelText('Estado de la solicitud'), 'RECHAZADA');
    await waitFor(() => expect(lotsApi.holds).toHaveBeenLastCalledWith({ state: 'RECHAZADA', per_page: 100, subdivision_id: 3 }));
    const decided = await screen.findByRole('table', { name: 'Solicitudes de bloqueo' });
    expect(await within(decided).findByText('Sin sustento')).toBeTruthy();
    expect(within(decided).getByText('Jefa de Ventas')).toBeTruthy();
  });
});
