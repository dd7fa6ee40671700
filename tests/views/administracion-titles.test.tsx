/**
 * /ADMINISTRACION/RegistrosPartidasTitulos (TitlesPage) over its real machines with fake apis
 * (docs/domain.md "Titles at SUNARP", "The screen"): the board (a card filters the list), the rows
 * with their state, days in the state and the asiento's deadline warning, "Nuevo trámite" (a sale
 * searched, the pact needing its note), the drawer (fields and history; a stale save says so), and
 * "Cambiar estado" offering only the allowed moves, a 422 under its field, the acta de entrega
 * uploaded before the move to ENTREGADO.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import { ApiError } from '../../src/api/client';
import type { TitlesApi } from '../../src/api/administracion/titles';
import { createTitlesMachines } from '../../src/machines/administracion/titles.actors';
import { TitlesPage } from '../../src/views/administracion/partidas-titulos/TitlesPage';
import { TITLE_STATES, type TitleBoard, type TitleProcessDetail } from '../../src/schemas/administracion/titles';
import type { ListQuery } from '../../src/schemas/list';

const page = <T,>(rows: T[], q: ListQuery) => ({ data: rows, meta: { page: q.page, per_page: q.per_page, total: rows.length } });

const base: TitleProcessDetail = {
  id: 5,
  state: 'PRESENTADO',
  state_since: '2026-03-02',
  days_in_state: 12,
  sale: { id: 7, number: 'V-000007', status: 'CANCELADA', type: 'CONTADO', titular: 'Rosa Quispe' },
  lot: { id: 3, code: 'MZ A - LT 3', subdivision_id: 2, subdivision_name: 'Los Viñedos' },
  retention_pact_stated: false,
  retention_pact_note: null,
  notes: null,
  minuta_signed_on: '2026-02-20',
  notary: 'Notaría Paino',
  escritura_number: '4521',
  escritura_date: '2026-02-25',
  titulo_number: '2026-01234567',
  presented_on: '2026-03-02',
  presentation: { deadline: '2026-04-22', notice_on: '2026-04-15', notice_due: true },
  observation: null,
  reentry_on: null,
  mayor_derecho: null,
  partida: null,
  asiento: null,
  inscribed_on: null,
  delivery_reference: null,
  delivered_on: null,
  delivery_record: null,
  next_states: ['OBSERVADO', 'LIQUIDADO', 'TACHADO', 'INSCRITO'],
  created_at: '2026-02-20T15:00:00.000Z',
  updated_at: '2026-03-02T15:00:00.000Z',
  version: 4,
  events: [
    {
      id: 1,
      from_state: null,
      to_state: 'PENDIENTE',
      date: '2026-02-20',
      details: {},
      note: null,
      user: null,
      created_at: '2026-02-20T15:00:00.000Z',
    },
    {
      id: 2,
      from_state: 'ESCRITURA',
      to_state: 'PRESENTADO',
      date: '2026-03-02',
      details: { titulo_number: '2026-01234567' },
      note: 'Presentado por la notaría',
      user: { id: 1, name: 'Ana Torres' },
      created_at: '2026-03-02T15:00:00.000Z',
    },
  ],
};
const inscribed: TitleProcessDetail = {
  ...base,
  id: 6,
  state: 'INSCRITO',
  presentation: null,
  partida: '11223344',
  asiento: 'C00002',
  next_states: ['ENTREGADO'],
  sale: { ...base.sale, id: 8, number: 'V-000008' },
};
const BOARD: TitleBoard = {
  counts: TITLE_STATES.map((state) => ({ state, count: state === 'PRESENTADO' ? 1 : state === 'INSCRITO' ? 1 : 0 })),
  total: 2,
  notice_due: 1,
};

beforeEach(() => window.history.replaceState(null, '', '/ADMINISTRACION/RegistrosPartidasTitulos'));

function setup(overrides: Partial<TitlesApi> = {}) {
  const api = {
    list: vi.fn(async (q: ListQuery) => page([base, inscribed], q)),
    board: vi.fn(async () => BOARD),
    get: vi.fn(async (id: number) => (id === inscribed.id ? inscribed : base)),
    create: vi.fn(async () => ({ ...base, id: 9, state: 'PENDIENTE' as const, next_states: ['MINUTA_FIRMADA'] })),
    update: vi.fn(async () => base),
    transition: vi.fn(async () => base),
    saleOptions: vi.fn(async () => [
      {
        id: 11,
        number: 'V-000011',
        status: 'EN_CUOTAS',
        type: 'FINANCIADO',
        lot_code: 'MZ B - LT 1',
        subdivision_name: 'Los Viñedos',
        titular: 'Luis Mamani',
      },
    ]),
    uploadDeliveryRecord: vi.fn(async () => ({
      ...inscribed,
      delivery_record: { content_type: 'application/pdf', size: 10, uploaded_at: '2026-03-03T00:00:00Z' },
    })),
    deliveryRecord: vi.fn(async () => new Blob(['%PDF-'])),
    holidays: vi.fn(),
    createHoliday: vi.fn(),
    updateHoliday: vi.fn(),
    deleteHoliday: vi.fn(),
    ...overrides,
  } as unknown as TitlesApi;
  const toaster = { show: vi.fn() };
  const machines = createTitlesMachines({
    titlesApi: api,
    subdivisionOptions: async () => [{ id: 2, name: 'Los Viñedos' }] as never,
    reportApiError: vi.fn(),
    toaster,
  });
  render(
    <OverlaysProvider>
      <TitlesPage machines={machines} />
    </OverlaysProvider>,
  );
  return { api, toaster, user: userEvent.setup() };
}

describe('Registros de partidas y títulos', () => {
  it('shows the board and the rows with days in state and the deadline warning; a board card filters the list', async () => {
    const { api, user } = setup();
    const row = (await screen.findByText('V-000007')).closest('tr')!;
    expect(within(row).getByText('Presentado a SUNARP')).toBeTruthy();
    expect(within(row).getByText('12 días')).toBeTruthy();
    expect(within(row).getByText('22/04/2026')).toBeTruthy();
    expect(within(row).getByText('Vence pronto')).toBeTruthy();
    const board = screen.getByRole('region', { name: 'Trámites por estado' });
    await waitFor(() => expect(within(board).getByText('1 título tiene su asiento de presentación por vencer')).toBeTruthy());
    await user.click(within(board).getByRole('button', { name: /^Inscrito/ }));
    await waitFor(() => expect(vi.mocked(api.list).mock.lastCall?.[0].filters).toEqual({ state: 'INSCRITO' }));
    expect(
      within(board)
        .getByRole('button', { name: /^Inscrito/ })
        .getAttribute('aria-pressed'),
    ).toBe('true');
    expect(new URL(window.location.href).searchParams.get('state')).toBe('INSCRITO');
  });

  it('"Nuevo trámite": picks a sale, needs the pact note when the pact is stated, and opens the new process', async () => {
    const { api, user } = setup();
    await screen.findByText('V-000007');
    await user.click(screen.getByRole('button', { name: 'Nuevo trámite' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nuevo trámite de título' });
    // Focus first (the popover opens), then type; Enter picks the active match.
    await user.click(within(dialog).getByLabelText('Venta'));
    await user.keyboard('Luis');
    await screen.findByRole('option', { name: /V-000011/ });
    await user.keyboard('{Enter}');
    expect(await within(dialog).findByText(/solo pasa a escritura con el pacto/)).toBeTruthy();
    await user.click(within(dialog).getByLabelText(/Pacto de reserva de propiedad/));
    await user.click(within(dialog).getByRole('button', { name: 'Crear trámite' }));
    expect(await within(dialog).findByText('Indique dónde consta el pacto de reserva de propiedad')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Dónde consta el pacto'), 'Cláusula octava del contrato');
    await user.click(within(dialog).getByRole('button', { name: 'Crear trámite' }));
    await waitFor(() =>
      expect(api.create).toHaveBeenCalledWith({
        sale_id: 11,
        retention_pact_stated: true,
        retention_pact_note: 'Cláusula octava del contrato',
        notes: null,
      }),
    );
    await waitFor(() => expect(api.get).toHaveBeenCalledWith(9));
  });

  it('the drawer shows the fields and history; a stale save says so and offers to reload', async () => {
    const { api, user } = setup({
      update: vi.fn(async () => {
        throw new ApiError(409, 'Otro usuario modificó este registro. Recargue e intente de nuevo.', {});
      }),
    });
    await user.click(await screen.findByText('V-000007'));
    const drawer = await screen.findByRole('dialog', { name: /^Trámite V-000007/ });
    expect(await within(drawer).findByText('Notaría Paino')).toBeTruthy();
    expect(within(drawer).getByText('Escritura pública → Presentado a SUNARP')).toBeTruthy();
    expect(within(drawer).getByText('Presentado por la notaría')).toBeTruthy();
    await user.type(within(drawer).getByLabelText('Notas'), 'Llamar a la notaría');
    await user.click(within(drawer).getByRole('button', { name: 'Guardar' }));
    expect(await within(drawer).findByText(/Otro usuario modificó/)).toBeTruthy();
    expect(vi.mocked(api.update).mock.calls[0]).toEqual([
      5,
      { version: 4, retention_pact_stated: false, retention_pact_note: null, notes: 'Llamar a la notaría' },
    ]);
    await user.click(within(drawer).getByRole('button', { name: 'Recargar' }));
    await waitFor(() => expect(api.get).toHaveBeenCalledTimes(2));
  });

  it('"Cambiar estado" offers only the allowed moves and shows a 422 under its field', async () => {
    const { api, user } = setup({
      transition: vi.fn(async () => {
        throw new ApiError(422, 'Datos inválidos', { partida: ['La partida electrónica tiene de 8 a 11 dígitos'] });
      }),
    });
    const row = (await screen.findByText('V-000007')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Acciones' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Cambiar estado' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cambiar estado' });
    const radios = within(dialog)
      .getAllByRole('radio')
      .map((r) => r.parentElement?.textContent);
    expect(radios).toEqual(['Observado', 'Liquidado', 'Tachado', 'Inscrito']);
    await user.click(within(dialog).getByLabelText('Inscrito'));
    await user.type(within(dialog).getByLabelText('Partida electrónica'), '11223344');
    await user.type(within(dialog).getByLabelText('Asiento'), 'C00002');
    await user.click(within(dialog).getByRole('button', { name: 'Cambiar estado' }));
    expect(await within(dialog).findByText('La partida electrónica tiene de 8 a 11 dígitos')).toBeTruthy();
    expect(vi.mocked(api.transition).mock.calls[0]?.[1]).toMatchObject({
      to: 'INSCRITO',
      version: 4,
      partida: '11223344',
      asiento: 'C00002',
    });
    // Closing with data asks first.
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(await screen.findByText('¿Descartar los cambios?')).toBeTruthy();
  });

  it('ENTREGADO uploads the acta de entrega first, then moves without a text reference', async () => {
    const { api, user } = setup({ transition: vi.fn(async () => ({ ...inscribed, state: 'ENTREGADO' as const, next_states: [] })) });
    const row = (await screen.findByText('V-000008')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Acciones' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Cambiar estado' }));
    const dialog = await screen.findByRole('dialog', { name: 'Cambiar estado' });
    // The only move is chosen already.
    expect((within(dialog).getByLabelText('Entregado') as HTMLInputElement).checked).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Cambiar estado' }));
    expect(await within(dialog).findByText('Adjunte el acta de entrega (PDF o imagen) o indique su referencia')).toBeTruthy();
    const file = new File(['%PDF-1.4'], 'acta.pdf', { type: 'application/pdf' });
    await user.upload(dialog.querySelector<HTMLInputElement>('#title-move-file')!, file);
    await user.click(within(dialog).getByRole('button', { name: 'Cambiar estado' }));
    await waitFor(() => expect(api.transition).toHaveBeenCalled());
    expect(vi.mocked(api.uploadDeliveryRecord).mock.calls[0]?.slice(0, 1)).toEqual([6]);
    expect(vi.mocked(api.transition).mock.calls[0]?.[1]).toMatchObject({ to: 'ENTREGADO', version: 4 });
    expect(vi.mocked(api.transition).mock.calls[0]?.[1]).not.toHaveProperty('delivery_reference');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Cambiar estado' })).toBeNull());
    expect(api.board).toHaveBeenCalledTimes(2);
  });
});
