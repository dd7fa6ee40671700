/**
 * Provider states of Inicio's agent and collector cards (docs/dashboard.md "Agent and collector
 * cards"), kept beside tests/contract/states.ts: the consumer test
 * tests/contract/consumer/inicio-queues.pact.test.ts names them and
 * tests/contract/provider/inicio-queues-state-handlers.ts builds them. Dates are relative to the
 * provider's clock (the real one): "today" is the day the verification runs, in Lima.
 */
export const INICIO_QUEUE_STATES = {
  /**
   * STAFF is signed in (param `token`, role Administrador, id 1) and every queue has a row: sale 1
   * (STATES.saleExists: lot 1 to CRM_CUSTOMER, phone 987222333) with its down payment VENCIDA
   * (due SALE_DATE) and a CUOTA of S/ 100.00 due in 3 days; payment 1 PENDIENTE (S/ 1.00); a
   * VIGENTE reservation of CRM_CUSTOMER expiring in 24 hours on a fresh lot; a lead of STAFF
   * (POR_ATENDER) whose follow-up was due 2 hours ago; a DEVENGADA commission of STAFF
   * (S/ 900.00, no settlement).
   */
  queuesHaveRows: 'a signed-in staff user and a row in every agent and collector queue',
} as const;
