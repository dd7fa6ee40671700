import type { Purchase } from '../../src/schemas/comercio/purchases';

/**
 * A row of Mis Compras (GET /api/customer/purchases) for the customer screens' tests: sale
 * V-000012 of lot MZ A - LT 6 in Los Viñedos de Carabayllo, S/ 30 000.00 with S/ 10 000.00 paid,
 * one instalment overdue (S/ 2 000.00) with S/ 40.00 of late fee, instalment 2 due 02/10/2026 next;
 * `over` replaces any field.
 */
export function purchaseRow(over: Partial<Purchase> = {}): Purchase {
  return {
    id: 12,
    number: 'V-000012',
    sale_date: '2026-03-02',
    type: 'FINANCIADO',
    lot_code: 'MZ A - LT 6',
    subdivision_name: 'Los Viñedos de Carabayllo',
    currency: 'PEN',
    final_price: 3_000_000,
    total_interest: 0,
    total: 3_000_000,
    paid: 1_000_000,
    balance: 2_000_000,
    late_fee_due: 4_000,
    overdue_instalments: 1,
    overdue_amount: 200_000,
    next_instalment: { id: 102, kind: 'CUOTA', number: 2, due_date: '2026-10-02', amount_due: 200_000 },
    status: 'EN_CUOTAS',
    map: null,
    contract_pdf_url: null,
    ...over,
  };
}
