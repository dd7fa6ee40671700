/**
 * Provider states of Inicio's manager cards (docs/dashboard.md "Manager cards"), shared by the
 * consumer test (tests/contract/consumer/inicio-manager.pact.test.ts) and the provider
 * verification, whose handlers live in tests/contract/provider/inicio-state-handlers.ts. "This
 * month" and "today" are the provider's (Lima, its clock), so the handlers date everything on it.
 */
export const INICIO_STATES = {
  /**
   * STAFF (states.ts) is signed in (param `token`, Administrador: every card, a lead supervisor) and,
   * dated on the provider's today: subdivision 1 (PEN, EN_VENTA) with a DISPONIBLE lot and a lot
   * sold today by STAFF (a cash sale of S/ 30 000.00); that sale has an instalment due this month's
   * last day and one VENCIDA 45 days ago; an approved payment of S/ 1.00 towards it today; a lead of
   * STAFF received now, POR_ATENDER, whose follow-up was due an hour ago.
   */
  managerFigures: 'a signed-in manager and this month’s dashboard figures exist',
} as const;
