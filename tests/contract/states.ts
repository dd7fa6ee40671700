/**
 * Provider-state names and the fixed data they promise, shared by the consumer tests and the
 * provider verification (docs/contracts.md). A backend team verifying pacts/
 * must implement a handler for every state listed in STATES (docs/contracts.md).
 */
export const STATES = {
  /** Staff user STAFF exists (ACTIVO, role Administrador) with password STAFF.password. */
  staffExists: 'a staff user exists',
  /** Staff user STAFF exists and holds the bearer token given in the state's `token` parameter. */
  staffSignedIn: 'a staff user is signed in',
  /** Customer CUSTOMER exists and holds the bearer token given in the state's `token` parameter. */
  customerSignedIn: 'a customer is signed in',
  /** Customer CUSTOMER exists with password CUSTOMER.password. */
  customerExists: 'a customer exists',
  /** No account (staff or customer) has document number NEW_CUSTOMER.document_number or its email. */
  noCustomerWithDocument: 'no customer has the new document number',
  /** A valid, unused reset token (param `token`) exists for the staff user STAFF. */
  staffResetTokenExists: 'a password reset token exists for the staff user',
  /** The company has at least one active location. */
  activeLocalsExist: 'the company has active locations',
  /**
   * STAFF is signed in (param `token`) and has two notifications: NOTIFICATION_NEW (unread, with a
   * route) and an older one already seen.
   */
  staffWithNotifications: 'a signed-in staff user has notifications',
  /** CUSTOMER is signed in (param `token`) and has one unread notification. */
  customerWithNotifications: 'a signed-in customer has notifications',
  /** The company's subscription has lapsed (every authenticated call answers 402). */
  subscriptionLapsed: 'the company subscription has lapsed',
  /**
   * STAFF is signed in (param `token`, role Administrador, id 1 on an empty database) and OTHER_STAFF
   * (id 2) holds the role OTHER_ROLE (id 2).
   */
  staffAndHeldRole: 'a signed-in staff user and another user holding a role exist',
  /**
   * STAFF is signed in (param `token`) and the change history holds HISTORY_ENTRY: an UPDATE of
   * `locals` record 1 made by STAFF on 2026-11-20.
   */
  changeHistoryExists: 'a signed-in staff user and a change history exist',
  /**
   * Given after a state that creates the record (issue 11 item 9): record `id` of `entity` (one of
   * users, roles, companies, locals, subdivisions, stages, blocks, lots, customers, bank_accounts, wallets, expenses) was changed by another user
   * after the app read it, so its version is no longer 1 (records start at version 1 and every
   * change adds 1; src/schemas/versions.ts). An edit sending `version: 1` must be refused with 409.
   */
  recordChangedByAnother: 'a record was changed by another user',
  /**
   * STAFF is signed in (param `token`, role Administrador) and CRM_CUSTOMER exists (id 1 on an
   * empty database): entered by staff, NATURAL, no portal login, version 1.
   */
  crmCustomerExists: 'a signed-in staff user and a CRM customer exist',
  /**
   * STAFF is signed in (param `token`), CRM_CUSTOMER exists (id 1) and so do SUBDIVISION and its
   * LOTS (projects-states.ts: lot 1 DISPONIBLE, lot 2 SEPARADO).
   */
  customerAndLotsExist: 'a signed-in staff user, a CRM customer and a subdivision with lots exist',
  /** As customerAndLotsExist, plus reservation 1: CRM_CUSTOMER's, on lot 1 (now SEPARADO), PENDIENTE_PAGO, version 1, by STAFF. */
  liveReservationExists: 'a live reservation of a CRM customer exists',
  /**
   * STAFF is signed in (param `token`, role Administrador: a lead supervisor) and CRM_LEAD exists
   * (id 1 on an empty database): STAFF's, POR_ATENDER, version 1, with one activity (id 1, LLAMADA).
   */
  leadExists: 'a signed-in staff user and a lead exist',
  /**
   * As crmCustomerExists (CRM_CUSTOMER is id 1), plus CRM_LEAD concluded into that customer: id 1,
   * STAFF's, CONCRETADO, `customer_id` 1, version 1 (the customer's detail in Clientes lists it).
   */
  customerLeadExists: 'a lead concluded as a CRM customer exists',
  /** As customerAndLotsExist, plus quote 1: CRM_CUSTOMER's, of lot 1, cash, BORRADOR, valid 30 days, version 1, by STAFF. */
  quoteExists: 'a quote of a lot for a CRM customer exists',
  /**
   * As customerAndLotsExist, plus sale 1: lot 1 (now VENDIDO) to CRM_CUSTOMER, cash, REGISTRADA,
   * version 1, by STAFF, dated SALE_DATE (payments of the pacts are dated on it).
   */
  saleExists: 'a sale of a lot to a CRM customer exists',
  /**
   * As customerAndLotsExist, plus sale 1: lot 1 (VENDIDO) to CRM_CUSTOMER, FINANCIADO without down
   * payment, EN_CUOTAS, version 1: six interest-free instalments of S/ 5 000.00 due monthly from
   * 2025-02-01, none paid — all overdue (docs/domain.md "Rescission": it may be resolved; and
   * rescheduled, "Rescheduling (adenda)").
   */
  overdueSaleExists: 'a financed sale with its instalments overdue exists',
  /**
   * As saleExists, but the sale is dated 2026-03-15 (Lima), so a report of 2026 holds it: one PEN
   * sale of lot 1 by STAFF, channel DIRECTO (CRM_CUSTOMER has no concluded lead). STAFF holds
   * 'Acceso submódulo reporte ventas' (Administrador).
   */
  saleOfMarch2026Exists: 'a sale of a lot dated 2026-03-15 exists',
  /**
   * A customer signed in with CUSTOMER_TOKEN (params.token), the published subdivision of
   * PROJECT_STATES.subdivisionWithLots (lot A-1 Disponible) and an agent holding the Leads submodule.
   */
  customerAndPublishedLotsExist: 'a signed-in customer, a published subdivision with lots and an agent exist',
  /** STAFF is signed in (param `token`, Administrador) and BANK_ACCOUNT exists (id 1 on an empty database), active, version 1. */
  bankAccountExists: 'a signed-in staff user and a company bank account exist',
  /** STAFF is signed in (param `token`, Administrador) and WALLET exists (id 1 on an empty database), active, version 1, with a PNG QR. */
  walletExists: 'a signed-in staff user and a company wallet with its QR exist',
  /**
   * STAFF is signed in (param `token`, Administrador) and EXPENSE exists (id 1 on an empty database):
   * of subdivision 1 (a PEN subdivision, the only one), registered by STAFF, version 1.
   */
  expenseExists: 'a signed-in staff user and an expense of a subdivision exist',
  /**
   * As saleExists (sale 1: lot 1 to CRM_CUSTOMER, cash, its INICIAL instalment unpaid), plus payment 1:
   * PAYMENT of that sale registered at the office, PENDIENTE, version 1, with one PNG voucher (id 1).
   */
  paymentPendingExists: 'a pending payment of a sale exists',
  /** As paymentPendingExists, but payment 1 is APROBADO (receipt R001-00000001, version 2). */
  paymentApprovedExists: 'an approved payment of a sale exists',
  /**
   * As saleExists (its INICIAL due SALE_DATE, unpaid: late fee from four days later), plus payment 1:
   * the whole debt on BACK_DATED_PAYMENT_DATE, registered at the office, PENDIENTE — dated before
   * today, approving it lowers the INICIAL's late fee (docs/domain.md "Payments").
   */
  backDatedPaymentPendingExists: 'a pending payment dated before today of an overdue sale exists',
  /**
   * As saleExists, plus payment 1: PAYMENT of sale 1 registered at the office by STAFF themselves
   * (Administrador: may override the segregation of duties with a reason), PENDIENTE, version 1,
   * without a voucher; the company keeps duties apart (the default; docs/domain.md "Payments:
   * segregation of duties").
   */
  paymentRegisteredBySignedInStaffExists: 'a pending payment registered by the signed-in staff member exists',
  /**
   * As saleOfMarch2026Exists (sale 1: lot 1 to CRM_CUSTOMER, cash, dated 2026-03-15), with its late
   * fees figured for today: instalment 1 (its INICIAL, due 2026-03-15, unpaid) is VENCIDA with a
   * late fee owed of at least S/ 1.00 and nothing waived.
   */
  overdueInstalmentExists: 'a sale with an overdue instalment and its late fee exists',
  /**
   * The customer's purchases (issue 16 "Customer screens"): CUSTOMER is signed in (param `token`,
   * customer id 1), SUBDIVISION and its LOTS exist, and sale 1 sells lot 1 to CUSTOMER (TITULAR)
   * today: PURCHASE's down payment in two parts (instalments 1 and 2, PURCHASE.part each, the first
   * due today) and 12 monthly instalments from three months on, nothing overdue. WALLET is active
   * (id 1, YAPE, with a PNG QR) and BANK_ACCOUNT too (id 1). Payment 1: CUSTOMER's Yape payment of
   * PURCHASE.part (operation PURCHASE.paidOperation) with one PNG voucher (id 1), APROBADO (receipt
   * R001-00000001): instalment 1 is paid, instalment 2 is the oldest open one.
   */
  customerPurchaseExists: 'a signed-in customer holds a sale with an approved payment',
  /** As customerPurchaseExists, plus payment 2: CUSTOMER's Yape payment of S/ 100.00, PENDIENTE, without a voucher. */
  customerPendingPaymentExists: 'a signed-in customer holds a sale with a payment waiting for its capture',
  /**
   * Titles at SUNARP (docs/domain.md "Titles at SUNARP"): as saleExists, with sale 1 paid off
   * (CANCELADA), plus title process 1 of sale 1, PENDIENTE since SALE_DATE, version 1.
   */
  titleProcessExists: 'a paid-off sale with its title process exists',
  /**
   * Contracts (docs/domain.md "Contracts"): as saleExists (sale 1, cash), plus contract template 1:
   * COMPRAVENTA_CONTADO of sale 1's subdivision, PUBLICADA, version 1, its document naming only the
   * lot's number (so nothing is missing when a contract is issued from it).
   */
  contractTemplatePublished: 'a sale whose subdivision has a published compraventa template exists',
  /** As contractTemplatePublished, plus contract 1 of sale 1 from template 1: BORRADOR, version 1, no overrides. */
  contractDraftExists: 'a draft contract of a sale exists',
  /** As contractTemplatePublished, plus contract 1 of sale 1: EMITIDO, number C-2026-000001, its PDF stored, version 2. */
  contractIssuedExists: 'an issued contract of a sale exists',
  /** As contractIssuedExists, but FIRMADO with its signed scan (a PDF), version 3. */
  contractSignedExists: 'a signed contract of a sale exists',
  /** As customerPurchaseExists, plus template 1 and contract 1 of sale 1 (the customer's): EMITIDO, its PDF stored. */
  customerContractIssued: 'a signed-in customer holds a sale with an issued contract',
  /** As titleProcessExists, with the process INSCRITO (partida 11223344, asiento C00002) since SALE_DATE, version 1. */
  titleProcessInscribed: 'a paid-off sale with its title inscribed exists',
  /** As titleProcessInscribed, with its acta de entrega stored (a small PDF). */
  titleDeliveryRecordExists: 'an inscribed title with its acta de entrega exists',
  /**
   * Commissions (docs/domain.md "Commissions"): as saleExists, plus commission policy 1 (ASESOR,
   * 3 % of the net price, at the down payment, version 1) of sale 1's subdivision and commission 1:
   * sale 1's agent (STAFF), ASESOR, DEVENGADA on SALE_DATE, S/ 900.00.
   */
  commissionEarned: 'a sale with an earned commission of its agent exists',
  /** As commissionEarned, plus settlement 1 (PEN, BORRADOR, version 1) holding commission 1. */
  settlementDraftExists: 'a draft settlement of commissions exists',
  /** As settlementDraftExists, but settlement 1 is APROBADA (commission 1 LIQUIDADA) with a PDF voucher. */
  settlementApprovedExists: 'an approved settlement of commissions with its voucher exists',
} as const;

/** Bearer token promised by the signed-in states (64 hex characters, as the server issues). */
export const STAFF_TOKEN = 'a'.repeat(64);
export const CUSTOMER_TOKEN = 'c'.repeat(64);
/** Reset token promised by STATES.staffResetTokenExists. */
export const RESET_TOKEN = 'e'.repeat(64);

export const STAFF = {
  dni: '71000001',
  email: 'contrato.staff@parcela.test',
  name: 'Rosa',
  surname: 'Huamán',
  phone: '987111222',
  password: 'Contrato#2026',
} as const;

export const CUSTOMER = {
  id_document_type: '1',
  document_number: '46000001',
  name: 'Jorge',
  surname: 'Salas',
  email: 'contrato.cliente@parcela.test',
  phone: '987000111',
  birthday_date: '1988-03-02',
  password: 'Cliente#Contrato1',
} as const;

export const NEW_CUSTOMER = {
  id_document_type: '1',
  document_number: '46000002',
  name: 'Ana',
  surname: 'Torres',
  birthday_date: '1995-07-20',
  email: 'ana.torres@parcela.test',
  phone: '912345678',
  password: 'Segura#2026',
} as const;

/** The unread notification promised by STATES.staffWithNotifications. */
export const NOTIFICATION_NEW = {
  title: 'Nuevo cliente registrado',
  detail: '<p>Se registró <strong>Ana Torres</strong>.</p>',
  route: '/Crm/Clientes',
  type: 'CUSTOMER',
} as const;

/** The second staff user promised by STATES.staffAndHeldRole. */
export const OTHER_STAFF = {
  dni: '71000002',
  email: 'contrato.asesor@parcela.test',
  name: 'Luis',
  surname: 'Quispe',
  password: 'Contrato#2026',
} as const;

/** The role OTHER_STAFF holds (STATES.staffAndHeldRole). */
export const OTHER_ROLE = { name: 'Asesor de ventas', permissions: ['Acceso módulo CRM'] } as const;

/** The change-history entry promised by STATES.changeHistoryExists. */
export const HISTORY_ENTRY = {
  occurred_at: '2026-11-20T15:00:00.000Z',
  entity: 'locals',
  record_id: '1',
  action: 'UPDATE',
  before: { name: 'Sede Lima' },
  after: { name: 'Sede Central - Lima' },
} as const;

/** The lead promised by STATES.leadExists. */
export const CRM_LEAD = {
  name: 'Gabriela Torres Ríos',
  phone: '987000111',
  email: 'gabriela.torres@parcela.test',
  channel: 'FACEBOOK',
  campaign: 'Preventa',
  activity: { kind: 'LLAMADA', outcome: 'Pidió precios de lotes esquina' },
} as const;

/** The customer promised by STATES.crmCustomerExists (entered in CRM → Clientes, no portal login). */
export const CRM_CUSTOMER = {
  person_type: 'NATURAL',
  id_document_type: '1',
  document_number: '47000001',
  name: 'María',
  surname: 'Condori Flores',
  email: 'maria.condori@parcela.test',
  phone: '987222333',
  address: 'Av. Túpac Amaru 1200',
  ubigeo: '150106',
} as const;

/** The bank account promised by STATES.bankAccountExists (Finanzas → Bancos; its CCI has the right check digits). */
export const BANK_ACCOUNT = {
  bank: 'BCP',
  kind: 'AHORROS',
  currency: 'PEN',
  number: '19100012345678',
  cci: '00219100012345678957',
  holder: 'Empresa de Prueba S.A.C.',
} as const;

/** The expense promised by STATES.expenseExists (Reportes económicos → Egresos): a past date, céntimos of PEN. */
export const EXPENSE = {
  expense_date: '2025-06-15',
  concept: 'Movimiento de tierras',
  amount: 1_250_050,
  currency: 'PEN',
  voucher: 'F001-000123',
} as const;

/** The wallet promised by STATES.walletExists (Finanzas → Billetera Digital). */
export const WALLET = { kind: 'YAPE', phone: '987654321', holder: 'Empresa de Prueba S.A.C.' } as const;

/** The sale of STATES.customerPurchaseExists: down payment in céntimos, split in two parts; the approved payment's operation number. */
export const PURCHASE = { downPayment: 500_000, part: 250_000, paidOperation: 'PACT-1' } as const;

/** The payment promised by STATES.paymentPendingExists (Finanzas → Pagos): S/ 500.00 in cash towards sale 1. */
/** The date of the sales of STATES.saleExists and STATES.customerPurchaseExists: the pacts' payments are dated on it. */
export const SALE_DATE = '2026-11-20';

/** The operation date of STATES.backDatedPaymentPendingExists's payment: two days of late fee after SALE_DATE's grace. */
export const BACK_DATED_PAYMENT_DATE = '2026-11-25';

export const PAYMENT = { amount: 50_000, method: 'EFECTIVO', operation_date: '2026-11-20', note: 'Pago en caja' } as const;
