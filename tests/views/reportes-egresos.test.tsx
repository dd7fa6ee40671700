/**
 * /ReportesEconomicos → Egresos (src/views/reportes/egresos/ExpensesTab.tsx) over the reports
 * module's real machines (createReportsMachines: `expenses`, `expenseSubdivisions`) with fake apis:
 * the list as the app writes dates and money, a new expense sent in céntimos with its
 * subdivision's currency, a server 422 under its field, and a delete after its confirmation with
 * the version read.
 */
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OverlaysProvider } from '@blueprintjs/core';
import { ApiError } from '../../src/api/client';
import type { ExpensesApi } from '../../src/api/reportes/expenses';
import type { ReportsApi } from '../../src/api/reportes/reports';
import { createReportsMachines } from '../../src/machines/reportes/reports.actors';
import { ExpensesTab } from '../../src/views/reportes/egresos/ExpensesTab';
import { EXPENSE_MESSAGES, type Expense } from '../../src/schemas/reportes/expenses';
import type { ListQuery } from '../../src/schemas/list';
import { todayInLima } from '../../src/lib/lima-today';

const page = <T,>(rows: T[], q: ListQuery) => ({ data: rows, meta: { page: q.page, per_page: q.per_page, total: rows.length } });

const EXPENSE: Expense = {
  id: 3,
  subdivision: { id: 1, name: 'Los Viñedos' },
  expense_date: '2026-11-05',
  concept: 'Movimiento de tierras',
  amount: 125_050,
  currency: 'PEN',
  voucher: 'F001-000123',
  created_by: 'Lucía Quispe',
  created_at: '2026-11-05T15:00:00.000Z',
  updated_at: '2026-11-05T15:00:00.000Z',
  version: 2,
};

beforeEach(() => window.history.replaceState(null, '', '/ReportesEconomicos?reporte=egresos'));

function setup(overrides: Partial<ExpensesApi> = {}) {
  const expensesApi: ExpensesApi = {
    list: vi.fn(async (q: ListQuery) => page([EXPENSE], q)),
    get: vi.fn(async () => EXPENSE),
    create: vi.fn(async (body) => ({ ...EXPENSE, id: 9, ...body, voucher: body.voucher ?? null }) as Expense),
    update: vi.fn(async () => EXPENSE),
    remove: vi.fn(async () => undefined),
    ...overrides,
  };
  const api: ReportsApi = {
    report: vi.fn(),
    options: vi.fn(async () => ({
      subdivisions: [
        { id: 1, name: 'Los Viñedos', currency: 'PEN' as const },
        { id: 2, name: 'Las Lomas', currency: 'USD' as const },
      ],
      agents: [],
    })),
    file: vi.fn(),
  };
  const toaster = { show: vi.fn() };
  const machines = createReportsMachines({ api, expensesApi, reportApiError: vi.fn(), toaster, syncExpensesUrl: vi.fn() });
  render(
    <OverlaysProvider>
      <ExpensesTab machines={machines} />
    </OverlaysProvider>,
  );
  return { expensesApi, toaster, user: userEvent.setup() };
}

async function openRowAction(user: ReturnType<typeof userEvent.setup>, text: string, action: string) {
  const row = (await screen.findByText(text)).closest('tr')!;
  await user.click(within(row).getByRole('button', { name: 'Acciones' }));
  await user.click(await screen.findByRole('menuitem', { name: action }));
  await waitFor(() => expect(screen.queryByRole('menu')).toBeNull());
}

async function fillNew(user: ReturnType<typeof userEvent.setup>) {
  await user.click((await screen.findAllByRole('button', { name: 'Nuevo egreso' }))[0]!);
  const drawer = await screen.findByRole('dialog', { name: 'Nuevo egreso' });
  await waitFor(() => expect(within(within(drawer).getByLabelText('Lotización')).getByRole('option', { name: 'Las Lomas' })).toBeTruthy());
  await user.selectOptions(within(drawer).getByLabelText('Lotización'), 'Las Lomas');
  await user.type(within(drawer).getByLabelText('Concepto'), 'Postes de alumbrado');
  await user.type(within(drawer).getByLabelText('Monto (US$)'), '1,250.5');
  await user.type(within(drawer).getByLabelText('Comprobante'), 'F002-77');
  return drawer;
}

describe('Egresos', () => {
  it('lists the expenses with the date dd/mm/yyyy and the money with its symbol, and filters by subdivision', async () => {
    const { expensesApi, user } = setup();
    const row = (await screen.findByText('Movimiento de tierras')).closest('tr')!;
    for (const text of ['05/11/2026', 'Los Viñedos', 'F001-000123', 'S/ 1,250.50']) expect(within(row).getByText(text)).toBeTruthy();
    const filter = screen.getByRole('combobox', { name: 'Lotización' });
    await waitFor(() => expect(within(filter).getByRole('option', { name: 'Las Lomas' })).toBeTruthy());
    await user.selectOptions(filter, 'Las Lomas');
    await waitFor(() => expect(vi.mocked(expensesApi.list).mock.lastCall?.[0].filters).toEqual({ subdivision_id: '2' }));
  });

  it('creates an expense: the amount in céntimos, the currency of its subdivision', async () => {
    const { expensesApi, toaster, user } = setup();
    const drawer = await fillNew(user);
    await user.click(within(drawer).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(expensesApi.create).toHaveBeenCalled());
    expect(vi.mocked(expensesApi.create).mock.calls[0]?.[0]).toEqual({
      subdivision_id: 2,
      expense_date: todayInLima(),
      concept: 'Postes de alumbrado',
      amount: 125_050,
      currency: 'USD',
      voucher: 'F002-77',
    });
    await waitFor(() => expect(toaster.show).toHaveBeenCalledWith(expect.objectContaining({ severity: 'success' })));
  });

  it('refuses an amount it cannot read, and shows the server’s 422 under its field', async () => {
    const create = vi
      .fn<ExpensesApi['create']>()
      .mockRejectedValueOnce(new ApiError(422, 'Los datos no son válidos', { expense_date: [EXPENSE_MESSAGES.futureDate] }));
    const { user } = setup({ create });
    const drawer = await fillNew(user);
    const amount = within(drawer).getByLabelText('Monto (US$)');
    await user.clear(amount);
    await user.type(amount, 'mil');
    await user.click(within(drawer).getByRole('button', { name: 'Guardar' }));
    expect(await within(drawer).findByText('Ingrese un monto válido, por ejemplo 1,250.50', { selector: '[id$="-error"]' })).toBeTruthy();
    expect(create).not.toHaveBeenCalled();
    await user.clear(amount);
    await user.type(amount, '80');
    await user.click(within(drawer).getByRole('button', { name: 'Guardar' }));
    const error = await within(drawer).findByText(EXPENSE_MESSAGES.futureDate, { selector: '[id$="-error"]' });
    expect(error.id).toBe('editor-expense_date-error');
    expect(create.mock.calls[0]?.[0]).toMatchObject({ amount: 8_000 });
  });

  it('edits with the version read, and deletes after confirming', async () => {
    const { expensesApi, user } = setup();
    await openRowAction(user, 'Movimiento de tierras', 'Editar');
    const drawer = await screen.findByRole('dialog', { name: 'Editar egreso' });
    expect((within(drawer).getByLabelText('Monto (S/)') as HTMLInputElement).value).toBe('1250.50');
    const concept = within(drawer).getByLabelText('Concepto');
    await user.clear(concept);
    await user.type(concept, 'Nivelación');
    await user.click(within(drawer).getByRole('button', { name: 'Guardar' }));
    await waitFor(() => expect(expensesApi.update).toHaveBeenCalled());
    expect(vi.mocked(expensesApi.update).mock.calls[0]).toEqual([
      3,
      {
        subdivision_id: 1,
        expense_date: '2026-11-05',
        concept: 'Nivelación',
        amount: 125_050,
        currency: 'PEN',
        voucher: 'F001-000123',
        version: 2,
      },
    ]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Editar egreso' })).toBeNull());

    await openRowAction(user, 'Movimiento de tierras', 'Eliminar');
    const alert = await screen.findByRole('alertdialog');
    expect(within(alert).getByText('¿Eliminar este registro?')).toBeTruthy();
    expect(expensesApi.remove).not.toHaveBeenCalled();
    await user.click(within(alert).getByRole('button', { name: 'Eliminar' }));
    await waitFor(() => expect(expensesApi.remove).toHaveBeenCalledWith(3, 2));
  });
});
