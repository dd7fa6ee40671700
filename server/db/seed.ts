import type { Kysely } from 'kysely';
import { ACTION, SCOPE, STAFF_PERMISSIONS, MODULE, SUBMODULE, type Permission } from '../../src/schemas/permissions';
import { systemClock, type Clock } from '../clock';
import { findCompanyIdByRuc, insertCompany } from '../modules/configuracion/companies.repository';
import { createCustomerAccount } from '../auth/customers.service';
import { insertLocal } from '../modules/configuracion/locals.repository';
import { insertRole } from '../modules/configuracion/roles.repository';
import { createStaffUser } from '../modules/configuracion/users.service';
import { seedDemoSubdivisions } from '../modules/proyectos/lot-import/demo-subdivisions';
import { seedDemoCustomers } from '../modules/crm/demo-customers';
import { seedDemoLeads } from '../modules/crm/demo-leads';
import { seedDemoReservations } from '../modules/comercio/demo-reservations';
import { seedDemoSales } from '../modules/comercio/demo-sales';
import { seedDemoRescissions } from '../modules/comercio/demo-rescissions';
import { seedDemoFinanceAccounts } from '../modules/finanzas/demo-accounts';
import { seedDemoPayments } from '../modules/finanzas/demo-payments';
import { seedDemoCommissions } from '../modules/administracion/demo-commissions';
import { seedDemoContractSettings, seedDemoContractTemplates, seedDemoContracts } from '../modules/administracion/demo-contracts';
import { seedDemoTitles } from '../modules/administracion/demo-titles';
import { seedDemoExpenses } from '../modules/reportes/demo-expenses';
import { createDocumentPool, renderDocument } from '../platform/documents';
import type { WorkerPool } from '../platform/worker-pool';
import type { DB } from './database';

/**
 * Demo data (issue "Foundation"): one company with a valid RUC and a paid subscription, three
 * locals (one inactive), the staff roles, an administrator, a sales agent and a customer; issue
 * "Proyectos": two subdivisions of 200 and 1 200 lots (lot-import/demo-subdivisions.ts).
 */

/** The demo company; its RUC passes the SUNAT mod-11 check (`isValidRuc`). */
export const DEMO_COMPANY = {
  businessName: 'Inmobiliaria Demo S.A.C.',
  ruc: '20605123458',
  address: 'Av. Javier Prado Este 1234, San Isidro, Lima',
  phone: '014405566',
  email: 'contacto@parcela.test',
} as const;

/** Demo locals: two active, one inactive (not listed by docs/product.md §7 row 9). */
export const DEMO_LOCALS = [
  { name: 'Sede Central - Lima', address: 'Av. Javier Prado Este 1234, San Isidro, Lima', active: true },
  { name: 'Oficina Chiclayo', address: 'Av. José Balta 456, Chiclayo, Lambayeque', active: true },
  { name: 'Oficina Piura (cerrada)', address: 'Av. Grau 789, Piura', active: false },
] as const;

/** Staff roles and their permissions (docs/product.md §6 strings; role names are ours, SPEC shows none). */
export const DEMO_ROLES: Readonly<Record<string, readonly Permission[]>> = {
  Administrador: STAFF_PERMISSIONS,
  'Jefe de ventas': [
    MODULE.crm,
    SUBMODULE.clientes,
    SUBMODULE.leads,
    ACTION.supervisarLeads,
    MODULE.comercial,
    SUBMODULE.ventas,
    ACTION.resolverContratos,
    ACTION.reprogramarVentas,
    SUBMODULE.reporteVentas,
    MODULE.proyectos,
    SUBMODULE.lotizaciones,
    ACTION.aprobarBloqueos,
    MODULE.administracion,
    SUBMODULE.generarContrato,
    SUBMODULE.registroContratos,
    SUBMODULE.comisiones,
    // A sales head sees their team's commissions (users.sales_head_id; docs/domain.md "Commissions").
    SCOPE.soloSusComisiones,
    MODULE.reportes,
  ],
  // Scoped to their own customers, sales and exports (docs/security.md 31.11), as migration 0036 does for existing installations.
  'Asesor de ventas': [
    MODULE.crm,
    SUBMODULE.clientes,
    SCOPE.soloSusClientes,
    SUBMODULE.leads,
    MODULE.comercial,
    SUBMODULE.ventas,
    SCOPE.soloSusVentas,
    SCOPE.soloSusExportaciones,
    MODULE.proyectos,
    SUBMODULE.lotizaciones,
    // Their own commissions only (docs/domain.md "Commissions").
    MODULE.administracion,
    SUBMODULE.comisiones,
    SCOPE.soloSusComisiones,
  ],
  Cobranzas: [
    MODULE.finanzas,
    SUBMODULE.pagos,
    MODULE.crm,
    SUBMODULE.clientes,
    MODULE.comercial,
    SUBMODULE.ventas,
    ACTION.reprogramarVentas,
  ],
  Finanzas: [
    MODULE.finanzas,
    SUBMODULE.bancos,
    SUBMODULE.billeteras,
    SUBMODULE.pagos,
    MODULE.administracion,
    SUBMODULE.comisiones,
    ACTION.gestionarComisiones,
    MODULE.reportes,
    MODULE.reportesEconomicos,
  ],
  Legal: [
    MODULE.administracion,
    SUBMODULE.generarContrato,
    SUBMODULE.registroContratos,
    SUBMODULE.partidasTitulos,
    MODULE.crm,
    SUBMODULE.clientes,
    MODULE.historial,
  ],
  Ingeniería: [
    MODULE.ingenieria,
    SUBMODULE.obras,
    SUBMODULE.productos,
    SUBMODULE.proveedores,
    SUBMODULE.almacen,
    SUBMODULE.maquinarias,
    MODULE.proyectos,
    SUBMODULE.lotizaciones,
  ],
};

/** Demo accounts (printed by `main.ts`, used by tests and e2e). */
export const DEMO_ACCOUNTS = {
  admin: {
    userType: 'COLLABORATOR',
    dni: '70000001',
    email: 'admin@parcela.test',
    password: 'Parcela#2026',
    name: 'Admin',
    surname: 'Parcela',
    phone: '987000001',
    role: 'Administrador',
  },
  asesor: {
    userType: 'COLLABORATOR',
    dni: '70000002',
    email: 'asesor@parcela.test',
    password: 'Parcela#2026',
    name: 'Lucía',
    surname: 'Quispe',
    phone: '987000002',
    role: 'Asesor de ventas',
  },
  customer: {
    userType: 'CUSTOMER',
    idDocumentType: '1',
    documentNumber: '45454545',
    password: 'Cliente#2026',
    name: 'Carlos',
    surname: 'Mendoza',
    email: 'cliente@parcela.test',
    phone: '987654321',
    birthdayDate: '1990-05-14',
  },
} as const;

/**
 * Seeds the demo data in one transaction, unless the demo company already exists (idempotent).
 * @param options.scryptLogN password hash cost; `clock` stamps created_at (default system clock);
 *   `onStep` is told each step's name and duration in ms once it is done (scripts/seed-profile.ts);
 *   `documents` renders the demo contracts' PDFs (default: a one-worker pool of its own, started at
 *   once so its modules load while the rest is seeded, and closed at the end).
 * @returns true when data was inserted, false when it was already there.
 */
export async function seedDemo(
  db: Kysely<DB>,
  options: { scryptLogN: number; clock?: Clock; onStep?: (step: string, ms: number) => void; documents?: WorkerPool },
): Promise<boolean> {
  const clock = options.clock ?? systemClock;
  let last = performance.now();
  const step = (name: string) => {
    const now = performance.now();
    options.onStep?.(name, now - last);
    last = now;
  };
  const hashing = { scryptLogN: options.scryptLogN, clock };
  if ((await findCompanyIdByRuc(db, DEMO_COMPANY.ruc)) !== undefined) return false;
  const ownPool = options.documents === undefined ? createDocumentPool({ documentWorkers: 1, documentTimeoutMs: 120_000 }) : null;
  const documents = options.documents ?? ownPool;
  if (!documents) throw new Error('unreachable: no documents pool');
  // Not awaited: the worker loads the PDF modules (a one-line contract) while the other steps run.
  if (ownPool) {
    const { businessName, ruc, address, phone, email } = DEMO_COMPANY;
    void renderDocument(ownPool, 'pdf.contract', {
      doc: { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: businessName }] }] },
      issuer: { business_name: businessName, ruc, address, phone, email, logo: null },
      number: '',
      title: 'Contrato',
    }).catch(() => undefined);
  }
  try {
    return await seedInTransaction(db, clock, hashing, documents, step);
  } finally {
    await ownPool?.close();
  }
}

/** {@link seedDemo}'s steps, in one transaction. */
async function seedInTransaction(
  db: Kysely<DB>,
  clock: Clock,
  hashing: { scryptLogN: number; clock: Clock },
  documents: WorkerPool,
  step: (name: string) => void,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // Re-check inside the transaction: two processes may start at once.
    if ((await findCompanyIdByRuc(trx, DEMO_COMPANY.ruc)) !== undefined) return false;
    const companyId = await insertCompany(trx, { ...DEMO_COMPANY, subscriptionActive: true, createdAt: clock.now().toISOString() });
    for (const local of DEMO_LOCALS) await insertLocal(trx, { companyId, ...local });
    for (const [name, permissions] of Object.entries(DEMO_ROLES)) await insertRole(trx, name, permissions);

    for (const staff of [DEMO_ACCOUNTS.admin, DEMO_ACCOUNTS.asesor]) {
      const { role, userType: _staff, ...input } = staff;
      await createStaffUser(trx, { ...input, roleNames: [role] }, hashing);
    }
    const { userType: _customer, ...customer } = DEMO_ACCOUNTS.customer;
    await createCustomerAccount(trx, customer, hashing);
    step('company, locals, roles, accounts');
    // Proyectos: two subdivisions (200 and 1 200 lots) imported from fixtures/ (lot-import/demo-subdivisions.ts).
    const agent = await trx.selectFrom('users').select('id').where('email', '=', DEMO_ACCOUNTS.asesor.email).executeTakeFirst();
    await seedDemoSubdivisions(trx, clock, agent?.id ?? null);
    step('subdivisions');
    // CRM: customers entered by staff, assigned to the demo agent.
    await seedDemoCustomers(trx, clock, agent ? [agent.id] : []);
    step('customers');
    // CRM: leads across channels and statuses, most of them the demo agent's.
    const admin = await trx.selectFrom('users').select('id').where('email', '=', DEMO_ACCOUNTS.admin.email).executeTakeFirst();
    await seedDemoLeads(trx, clock, agent?.id ?? null, admin?.id ?? null);
    step('leads');
    // Comercial: every Separado lot held by a live reservation of one of them.
    await seedDemoReservations(trx, clock, agent?.id ?? null);
    step('reservations');
    // Comercial: every Vendido lot sold, with its schedule (the demo customer holds one of Los Viñedos).
    await seedDemoSales(trx, clock, agent?.id ?? null);
    step('sales');
    // Finanzas: three bank accounts (BCP, BBVA, Interbank) and two wallets (Yape, Plin) with their QR.
    await seedDemoFinanceAccounts(trx, clock, DEMO_COMPANY.businessName);
    step('finance accounts');
    // Finanzas: payments through the payments service — one approved and four to review (demo-payments.ts).
    await seedDemoPayments(trx, clock, admin?.id ?? null);
    step('payments');
    // Administración: commission policies of both subdivisions, every sale's commissions, one settlement paid (demo-commissions.ts).
    await seedDemoCommissions(trx, clock, agent?.id ?? null, admin?.id ?? null);
    step('commissions');
    // Administración: the company's contract settings, and per subdivision and kind the template versions 1 and 2 PUBLICADA and 3 BORRADOR, but Brisas de Chilca's compraventas, left to start (demo-contracts.ts).
    await seedDemoContractSettings(trx);
    await seedDemoContractTemplates(trx, clock, admin?.id ?? null);
    step('contract templates');
    // Administración: contracts of a few sales — FIRMADO, EMITIDO (two past the signature days), a draft, an annulled one; the demo customer's FIRMADO.
    await seedDemoContracts(trx, clock, admin?.id ?? null, documents);
    step('contracts');
    // Administración: title processes at SUNARP in every state (demo-titles.ts).
    await seedDemoTitles(trx, clock, admin?.id ?? null);
    step('titles');
    // Comercial: one sale resolved for unpaid instalments and one rescheduled by an adenda, the letter of resolution and the adenda issued (demo-rescissions.ts).
    await seedDemoRescissions(trx, clock, admin?.id ?? null, documents);
    step('rescission and adenda');
    // Reportes económicos: a few expenses of each demo subdivision over this month and the two before (demo-expenses.ts).
    await seedDemoExpenses(trx, clock, admin?.id ?? null);
    step('expenses');
    return true;
  });
}
