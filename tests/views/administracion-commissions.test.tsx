/**
 * Administración → Comisiones y Pagos (docs/domain.md "Commissions") over its real machines
 * (createCommissionsMachines) with a fake api: the three tabs for a manager, the Comisiones tab
 * alone for an agent with their own / their team's commissions, a settlement's drawer from
 * BORRADOR through "Aprobar" (working while the call runs) to the voucher and "Marcar como pagada",
 * and the Políticas tab's "Nueva política" / "Editar" dialog (the figures typed as percent and
 * money, a refusal shown under its field).
 */
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import { ApiError } from '../../src/api/client';
import type { CommissionsApi } from '../../src/api/administracion/commissions';
import { createCommissionsMachines } from '../../src/machines/administracion/commissions.actors';
import { CommissionsPage } from '../../src/views/administracion/comisiones/CommissionsPage';
import type { Commission, CommissionPolicy, SettlementDetail } from '../../src/schemas/administracion/commissions';
import type { ListQuery } from '../../src/schemas/list';

const page = <T,>(rows: T[], q: { page: number; per_page: number }) => ({
  data: rows,
  meta: { page: q.page, per_page: q.per_page, total: rows.length },
});

const commission: Commission = {
  id: 11,
  sale: {
    id: 3,
    number: 'V-000003',
    status: 'EN_CUOTAS',
    lot_code: 'MZ A - LT 9',
    subdivision_id: 1,
    subdivision_name: 'Los Viñedos',
    net_price: 3_000_000,
  },
  agent: { id: 7, name: 'Lucía Quispe' },
  role: 'ASESOR',
  tranche: 1,
  tranche_count: 1,
  tranche_share_bp: 10_000,
  tranche_at: 'TRIGGER',
  trigger: 'INICIAL_APROBADA',
  trigger_percent_bp: null,
  base: 'PORCENTAJE',
  percent_bp: 300,
  amount: 90_000,
  currency: 'PEN',
  state: 'DEVENGADA',
  reverses_id: null,
  settlement: null,
  projected_on: '2026-11-20',
  accrued_on: '2026-11-20',
  paid_on: null,
  annulled_on: null,
  reason: null,
  version: 1,
};

const draft: SettlementDetail = {
  id: 12,
  number: 'LQ-000012',
  state: 'BORRADOR',
  currency: 'PEN',
  period_from: '2026-11-01',
  period_to: '2026-11-30',
  company: null,
  total: 90_000,
  withholding: 0,
  net: 90_000,
  agents_count: 1,
  lines_count: 1,
  note: null,
  approved_at: null,
  operation_number: null,
  paid_on: null,
  has_voucher: false,
  created_at: '2026-11-30T15:00:00.000Z',
  version: 1,
  agents: [{ agent: { id: 7, name: 'Lucía Quispe' }, issues_fee_receipts: false, lines: 1, gross: 90_000, withholding: 0, net: 90_000 }],
  lines: [{ ...commission, state: 'LIQUIDADA', settlement: { id: 12, number: 'LQ-000012', state: 'BORRADOR' } }],
};

const policy: CommissionPolicy = {
  id: 4,
  subdivision: { id: 1, name: 'Los Viñedos', currency: 'PEN' },
  role: 'ASESOR',
  base: 'PORCENTAJE',
  percent_bp: 300,
  amount: null,
  trigger: 'INICIAL_APROBADA',
  trigger_percent_bp: null,
  tranches: [{ share_bp: 10_000, at: 'TRIGGER' }],
  active: true,
  updated_at: '2026-11-01T15:00:00.000Z',
  version: 2,
};

/** A promise the test settles when it has looked at the state in between. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

function setup(overrides: Partial<CommissionsApi> = {}, canManage = true) {
  const api = {
    list: vi.fn(async (q: ListQuery) => page([commission], q)),
    policies: vi.fn(async (q: { page: number; per_page: number }) => page([policy], q)),
    createPolicy: vi.fn(async () => ({ ...policy, id: 5 })),
    updatePolicy: vi.fn(async () => ({ ...policy, version: 3 })),
    agents: vi.fn(async (q: { page: number; per_page: number }) =>
      page(
        [{ id: 7, name: 'Lucía Quispe', dni: '45454545', status: 'ACTIVO', issues_fee_receipts: false, sales_head: null, version: 1 }],
        q,
      ),
    ),
    updateAgent: vi.fn(),
    settlements: vi.fn(async (q: ListQuery) => page([draft], q)),
    settlement: vi.fn(async () => draft),
    createSettlement: vi.fn(async () => draft),
    approveSettlement: vi.fn(async () => ({ ...draft, state: 'APROBADA' as const, version: 2 })),
    uploadVoucher: vi.fn(async () => ({ ...draft, state: 'APROBADA' as const, has_voucher: true, version: 3 })),
    paySettlement: vi.fn(async () => ({
      ...draft,
      state: 'PAGADA' as const,
      paid_on: '2026-12-01',
      operation_number: 'OP-778',
      version: 4,
    })),
    deleteSettlement: vi.fn(async () => undefined),
    exportSettlement: vi.fn(async () => new Blob(['x'])),
    agentPdf: vi.fn(async () => new Blob(['%PDF'])),
    voucher: vi.fn(async () => new Blob(['x'])),
    ...overrides,
  } as unknown as CommissionsApi;
  const toaster = { show: vi.fn() };
  const machines = createCommissionsMachines({
    commissionsApi: api,
    subdivisionOptions: async () => [{ id: 1, name: 'Los Viñedos' }],
    reportApiError: vi.fn(),
    toaster,
    saveBlob: vi.fn(),
  });
  render(
    <OverlaysProvider>
      <CommissionsPage machines={machines} canManage={canManage} />
    </OverlaysProvider>,
  );
  return { api, toaster, user: userEvent.setup() };
}

describe('CommissionsPage', () => {
  it('a manager has the three tabs: the commissions with their state and amount, the settlements, the policies', async () => {
    const { user } = setup();
    const tabs = screen.getByRole('tablist');
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((t) => t.textContent),
    ).toEqual(['Comisiones', 'Liquidaciones', 'Políticas']);
    const table = await screen.findByRole('table', { name: 'Comisiones' });
    const row = (await within(table).findByText('V-000003')).closest('tr')!;
    expect(within(row).getByText('Devengada')).toBeTruthy();
    expect(within(row).getByText('S/ 900.00')).toBeTruthy();
    await user.click(within(tabs).getByRole('tab', { name: 'Liquidaciones' }));
    expect(await within(await screen.findByRole('table', { name: 'Liquidaciones' })).findByText('LQ-000012')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Nueva liquidación' })).toBeTruthy();
    await user.click(within(tabs).getByRole('tab', { name: 'Políticas' }));
    const policies = await screen.findByRole('table', { name: 'Políticas de comisiones' });
    expect(await within(policies).findByText('3 %')).toBeTruthy();
  });

  it('the Comisiones table has eight columns, to fit beside the menu at 1280 px: the lot under its sale, the role under the beneficiary', async () => {
    setup();
    const table = await screen.findByRole('table', { name: 'Comisiones' });
    const row = (await within(table).findByText('V-000003')).closest('tr')!;
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent?.trim());
    expect(headers).toEqual(['Venta', 'Lotización', 'Beneficiario', 'Tramo', 'Monto', 'Estado', 'Devengada', 'Liquidación']);
    const cells = within(row).getAllByRole('cell');
    expect(cells[0]!.textContent).toBe('V-000003MZ A - LT 9');
    expect(cells[2]!.textContent).toBe('Lucía QuispeAsesor');
    expect(cells[3]!.textContent).toBe('1/1Al disparador');
  });

  it("an agent with only their own and their team's commissions sees the Comisiones tab alone: nothing to settle", async () => {
    const { api } = setup({}, false);
    expect(await screen.findByRole('table', { name: 'Comisiones' })).toBeTruthy();
    expect(
      within(screen.getByRole('tablist'))
        .getAllByRole('tab')
        .map((t) => t.textContent),
    ).toEqual(['Comisiones']);
    expect(screen.queryByRole('tab', { name: 'Liquidaciones' })).toBeNull();
    expect(screen.queryByRole('button', { name: /liquida/i })).toBeNull();
    expect(api.settlements).not.toHaveBeenCalled();
    expect(api.policies).not.toHaveBeenCalled();
  });

  /** Opens LQ-000012 from the Liquidaciones tab. */
  async function openSettlement(user: ReturnType<typeof userEvent.setup>) {
    await user.click(screen.getByRole('tab', { name: 'Liquidaciones' }));
    const table = await screen.findByRole('table', { name: 'Liquidaciones' });
    const row = (await within(table).findByText('LQ-000012')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: /Acciones/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Ver' }));
    return screen.findByRole('dialog', { name: 'LQ-000012' });
  }

  it('a BORRADOR settlement: "Aprobar" keeps the drawer busy while it runs, then shows it APROBADA with the payment form', async () => {
    const approval = deferred<SettlementDetail>();
    const { api, toaster, user } = setup({ approveSettlement: vi.fn(() => approval.promise) });
    const drawer = await openSettlement(user);
    expect(await within(drawer).findByText('Borrador')).toBeTruthy();
    const agents = within(drawer).getByRole('table', { name: 'Totales por asesor' });
    expect(within(agents).getByText('Lucía Quispe')).toBeTruthy();
    expect(within(drawer).queryByRole('button', { name: 'Marcar como pagada' })).toBeNull();

    await user.click(within(drawer).getByRole('button', { name: 'Aprobar' }));
    // working: the other actions wait for the call.
    await waitFor(() => expect(within(drawer).getByRole('button', { name: 'Exportar a Excel' }).hasAttribute('disabled')).toBe(true));
    expect(api.approveSettlement).toHaveBeenCalledWith(12, { version: 1 });
    approval.resolve({ ...draft, state: 'APROBADA', version: 2 });
    expect(await within(drawer).findByText('Aprobada')).toBeTruthy();
    expect(within(drawer).getByRole('button', { name: 'Exportar a Excel' }).hasAttribute('disabled')).toBe(false);
    expect(toaster.show).toHaveBeenCalledWith(expect.objectContaining({ summary: 'Liquidación aprobada' }));
    expect(within(drawer).getByRole('button', { name: 'Marcar como pagada' }).hasAttribute('disabled')).toBe(true);
  });

  it('an APROBADA settlement is paid once its voucher is attached and the operation typed', async () => {
    const approved = { ...draft, state: 'APROBADA' as const, version: 2 };
    const { api, user } = setup({ settlement: vi.fn(async () => approved) });
    const drawer = await openSettlement(user);
    const pay = await within(drawer).findByRole('button', { name: 'Marcar como pagada' });
    expect(pay.hasAttribute('disabled')).toBe(true);
    await user.upload(within(drawer).getByLabelText(/Comprobante/), new File(['%PDF'], 'voucher.pdf', { type: 'application/pdf' }));
    await waitFor(() => expect(api.uploadVoucher).toHaveBeenCalledWith(12, expect.any(File), 'voucher.pdf'));
    expect(await within(drawer).findByText('Comprobante adjuntado')).toBeTruthy();
    await user.click(within(drawer).getByLabelText('N.º de operación'));
    await user.paste('OP-778');
    await user.click(within(drawer).getByRole('button', { name: 'Marcar como pagada' }));
    await waitFor(() => expect(api.paySettlement).toHaveBeenCalledWith(12, expect.objectContaining({ operation_number: 'OP-778' })));
    expect(await within(drawer).findByText('Pagada')).toBeTruthy();
    expect(within(drawer).queryByRole('button', { name: 'Marcar como pagada' })).toBeNull();
  });

  it('a refused settlement shows its error once: under its field, not also in a callout above the form', async () => {
    // The server's 422 of one field carries the same text as its message (server/errors.ts fieldError).
    const message = 'No hay comisiones devengadas de esos asesores en el periodo';
    const { api, user } = setup({
      createSettlement: vi.fn(async () => {
        throw new ApiError(422, message, { period_to: [message] });
      }),
    });
    await user.click(screen.getByRole('tab', { name: 'Liquidaciones' }));
    await screen.findByRole('table', { name: 'Liquidaciones' });
    await user.click(screen.getByRole('button', { name: 'Nueva liquidación' }));
    const drawer = await screen.findByRole('dialog', { name: 'Nueva liquidación' });
    await user.click(await within(drawer).findByRole('checkbox', { name: /Lucía Quispe/ }));
    await user.click(within(drawer).getByRole('button', { name: 'Crear liquidación' }));
    await waitFor(() => expect(api.createSettlement).toHaveBeenCalledTimes(1));
    const shown = await within(drawer).findAllByText(message);
    expect(shown).toHaveLength(1);
    // …under "Hasta", the field it is about (as the other forms show a refusal of one field).
    expect(shown[0]!.closest('.bp6-form-group')?.querySelector('label')?.textContent).toMatch(/Hasta/);
    expect(drawer.querySelector('.bp6-callout')).toBeNull();
  });

  it('a refusal about no field (a 409) is shown once, in the callout of the drawer', async () => {
    const message = 'La liquidación ya fue aprobada por otro usuario';
    const { toaster, user } = setup({
      approveSettlement: vi.fn(async () => {
        throw new ApiError(409, message);
      }),
    });
    const drawer = await openSettlement(user);
    await user.click(await within(drawer).findByRole('button', { name: 'Aprobar' }));
    expect(await within(drawer).findAllByText(message)).toHaveLength(1);
    expect(within(drawer).getByText(message).closest('.bp6-callout')).not.toBeNull();
    expect(toaster.show).not.toHaveBeenCalled();
  });

  it('"Nueva política": the figures typed as percent, checked before sending, and the body the server expects', async () => {
    const { api, user } = setup();
    await user.click(screen.getByRole('tab', { name: 'Políticas' }));
    await screen.findByRole('table', { name: 'Políticas de comisiones' });
    await user.click(screen.getByRole('button', { name: 'Nueva política' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nueva política de comisión' });
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('Seleccione la lotización')).toBeTruthy();
    expect(within(dialog).getByText('Indique el porcentaje (ej. 3.5)')).toBeTruthy();
    expect(api.createPolicy).not.toHaveBeenCalled();

    await user.selectOptions(within(dialog).getByLabelText('Lotización'), '1');
    await user.selectOptions(within(dialog).getByLabelText('Rol'), 'JEFE_VENTAS');
    await user.click(within(dialog).getByLabelText('Porcentaje del precio neto (%)'));
    await user.paste('3.5');
    await user.selectOptions(within(dialog).getByLabelText('Disparador'), 'PORCENTAJE_COBRADO');
    await user.click(within(dialog).getByLabelText('Porcentaje cobrado del precio (%)'));
    await user.paste('30');
    await user.clear(within(dialog).getByLabelText('Tramo 1 (%)'));
    await user.paste('50');
    // "Agregar tramo" proposes what is left, when the sale is cancelled.
    await user.click(within(dialog).getByRole('button', { name: 'Agregar tramo' }));
    expect((within(dialog).getByLabelText('Tramo 2 (%)') as HTMLInputElement).value).toBe('50');
    expect((within(dialog).getByLabelText('Momento del tramo 2') as HTMLSelectElement).value).toBe('CANCELADA');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() =>
      expect(api.createPolicy).toHaveBeenCalledWith({
        subdivision_id: 1,
        role: 'JEFE_VENTAS',
        base: 'PORCENTAJE',
        percent_bp: 350,
        amount: null,
        trigger: 'PORCENTAJE_COBRADO',
        trigger_percent_bp: 3000,
        tranches: [
          { share_bp: 5000, at: 'TRIGGER' },
          { share_bp: 5000, at: 'CANCELADA' },
        ],
        active: true,
      }),
    );
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Nueva política de comisión' })).toBeNull());
  });

  it('a policy of three tranches: "Agregar tramo" and "Quitar", each tranche saved exactly as typed', async () => {
    const { api, user } = setup();
    await user.click(screen.getByRole('tab', { name: 'Políticas' }));
    await screen.findByRole('table', { name: 'Políticas de comisiones' });
    await user.click(screen.getByRole('button', { name: 'Nueva política' }));
    const dialog = await screen.findByRole('dialog', { name: 'Nueva política de comisión' });
    await user.selectOptions(within(dialog).getByLabelText('Lotización'), '1');
    await user.click(within(dialog).getByLabelText('Porcentaje del precio neto (%)'));
    await user.paste('4');
    await user.clear(within(dialog).getByLabelText('Tramo 1 (%)'));
    await user.paste('40');
    const add = within(dialog).getByRole('button', { name: 'Agregar tramo' });
    await user.click(add);
    await user.clear(within(dialog).getByLabelText('Tramo 2 (%)'));
    await user.paste('35');
    await user.selectOptions(within(dialog).getByLabelText('Momento del tramo 2'), 'TRIGGER');
    await user.click(add);
    expect((within(dialog).getByLabelText('Tramo 3 (%)') as HTMLInputElement).value).toBe('25');
    // A fourth, then removed again: the server allows four at most.
    await user.click(add);
    expect(within(dialog).getByLabelText('Tramo 4 (%)')).toBeTruthy();
    expect(add.hasAttribute('disabled')).toBe(true);
    await user.click(within(dialog).getByRole('button', { name: 'Quitar tramo 4' }));
    expect(within(dialog).queryByLabelText('Tramo 4 (%)')).toBeNull();
    // Shares that do not add up are refused before sending.
    await user.clear(within(dialog).getByLabelText('Tramo 3 (%)'));
    await user.paste('20');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('Los tramos deben sumar 100 % (suman 95 %)')).toBeTruthy();
    expect(api.createPolicy).not.toHaveBeenCalled();
    await user.clear(within(dialog).getByLabelText('Tramo 3 (%)'));
    await user.paste('25');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(api.createPolicy).toHaveBeenCalledTimes(1));
    expect(api.createPolicy).toHaveBeenCalledWith(
      expect.objectContaining({
        tranches: [
          { share_bp: 4000, at: 'TRIGGER' },
          { share_bp: 3500, at: 'TRIGGER' },
          { share_bp: 2500, at: 'CANCELADA' },
        ],
      }),
    );
  });

  it('"Editar" a policy of four tranches shows the four and sends them back unchanged', async () => {
    const fourTranches = {
      ...policy,
      tranches: [
        { share_bp: 2500, at: 'TRIGGER' as const },
        { share_bp: 2500, at: 'TRIGGER' as const },
        { share_bp: 2500, at: 'CANCELADA' as const },
        { share_bp: 2500, at: 'CANCELADA' as const },
      ],
    };
    const { api, user } = setup({
      policies: vi.fn(async (q: { page: number; per_page: number }) => page([fourTranches], q)),
    } as Partial<CommissionsApi>);
    await user.click(screen.getByRole('tab', { name: 'Políticas' }));
    const table = await screen.findByRole('table', { name: 'Políticas de comisiones' });
    const row = (await within(table).findByText('3 %')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: /Acciones/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar política de comisión' });
    expect((within(dialog).getByLabelText('Tramo 4 (%)') as HTMLInputElement).value).toBe('25');
    expect((within(dialog).getByLabelText('Momento del tramo 3') as HTMLSelectElement).value).toBe('CANCELADA');
    expect(within(dialog).getByRole('button', { name: 'Agregar tramo' }).hasAttribute('disabled')).toBe(true);
    await user.clear(within(dialog).getByLabelText('Porcentaje del precio neto (%)'));
    await user.paste('3.5');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(api.updatePolicy).toHaveBeenCalledTimes(1));
    expect(api.updatePolicy).toHaveBeenCalledWith(4, expect.objectContaining({ percent_bp: 350, tranches: fourTranches.tranches }));
  });

  it('"Editar" a policy sends its version, not its lotización and rol; a refusal is shown under its field', async () => {
    const updatePolicy = vi
      .fn()
      .mockRejectedValueOnce(new ApiError(422, 'Datos inválidos', { amount: ['El monto debe ser mayor que cero'] }))
      .mockResolvedValueOnce({ ...policy, base: 'MONTO_FIJO', percent_bp: null, amount: 150_000, version: 3 });
    const { user } = setup({ updatePolicy });
    await user.click(screen.getByRole('tab', { name: 'Políticas' }));
    const table = await screen.findByRole('table', { name: 'Políticas de comisiones' });
    const row = (await within(table).findByText('3 %')).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: /Acciones/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Editar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Editar política de comisión' });
    expect(within(dialog).getByText('Los Viñedos · Asesor')).toBeTruthy();
    expect(within(dialog).queryByLabelText('Lotización')).toBeNull();
    await user.selectOptions(within(dialog).getByLabelText('Base'), 'MONTO_FIJO');
    await user.click(within(dialog).getByLabelText('Monto por venta'));
    await user.paste('1500.00');
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    expect(await within(dialog).findByText('El monto debe ser mayor que cero')).toBeTruthy();
    await user.click(within(dialog).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(updatePolicy).toHaveBeenCalledTimes(2));
    expect(updatePolicy).toHaveBeenLastCalledWith(4, {
      base: 'MONTO_FIJO',
      percent_bp: null,
      amount: 150_000,
      trigger: 'INICIAL_APROBADA',
      trigger_percent_bp: null,
      tranches: [{ share_bp: 10_000, at: 'TRIGGER' }],
      active: true,
      version: 2,
    });
  });
});
