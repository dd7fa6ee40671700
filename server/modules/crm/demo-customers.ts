import type { Kysely } from 'kysely';
import type { Clock } from '../../clock';
import type { DB } from '../../db/database';
import { isValidRuc } from '../../../src/schemas/documents';
import { insertCrmCustomer } from './customers.repository';

/**
 * Demo customers of CRM → Clientes (issue "CRM and sales", demo seed): {@link DEMO_CUSTOMER_COUNT}
 * customers entered by staff — mostly people of Lima's northern districts (where the demo
 * subdivisions are), some married couples (each other's spouse), a few companies with a valid RUC —
 * spread over the given agents. Deterministic (a fixed pseudo-random sequence), so every demo
 * database is the same.
 */

/** How many customers the demo adds besides the self-registered demo customer. */
export const DEMO_CUSTOMER_COUNT = 150;

const NAMES = [
  'María',
  'José',
  'Rosa',
  'Juan',
  'Carmen',
  'Luis',
  'Ana',
  'Carlos',
  'Flor',
  'Jorge',
  'Elena',
  'Miguel',
  'Lucía',
  'Pedro',
  'Sofía',
  'Víctor',
  'Gladys',
  'César',
  'Norma',
  'Raúl',
];
const SURNAMES = [
  'Quispe',
  'Flores',
  'Huamán',
  'Mamani',
  'Rojas',
  'Sánchez',
  'García',
  'Chávez',
  'Torres',
  'Ramírez',
  'Vásquez',
  'Castillo',
  'Mendoza',
  'Condori',
  'Díaz',
  'Paredes',
  'Cruz',
  'Salazar',
  'Gutiérrez',
  'Ramos',
];
const COMPANIES = [
  'Inversiones Los Andes',
  'Constructora Santa Rosa',
  'Agroindustrias del Norte',
  'Comercial Chillón',
  'Transportes Carabayllo',
  'Inmobiliaria Sol de Lima',
  'Servicios Generales Puente Piedra',
  'Distribuidora El Progreso',
  'Textiles Comas',
  'Ferretería San Martín',
];
const STREETS = [
  'Av. Túpac Amaru',
  'Av. Universitaria',
  'Jr. Los Olivos',
  'Av. Trapiche',
  'Calle Las Flores',
  'Av. Naranjal',
  'Jr. Huánuco',
  'Av. Chillón',
];
/** Lima's districts where the demo buyers live (Carabayllo, Comas, Puente Piedra, Los Olivos, San Martín de Porres, Independencia). */
const DISTRICTS = ['150106', '150110', '150125', '150117', '150135', '150112'];

/** A fixed pseudo-random sequence (LCG, Numerical Recipes' constants) in [0, 1): the demo seed's, so every demo database is the same. */
export function sequence(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

/** The valid RUC "20" + `body` (8 digits) + its check digit (src/schemas/documents.ts). */
function companyRuc(body: string): string {
  for (let check = 0; check <= 9; check += 1) if (isValidRuc(`20${body}${check}`)) return `20${body}${check}`;
  throw new Error(`no check digit for 20${body}`);
}

/**
 * Inserts the demo customers (no change history: seed data). Every sixth one is married to the
 * next, who is married back; every fifteenth is a company.
 * @param agentIds staff users to assign as agent and collector (round-robin); may be empty.
 */
export async function seedDemoCustomers(db: Kysely<DB>, clock: Clock, agentIds: readonly number[]): Promise<void> {
  const random = sequence(20_261_126);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const now = clock.now();
  for (let i = 0; i < DEMO_CUSTOMER_COUNT; i += 1) {
    const created = new Date(now.getTime() - Math.floor(random() * 720) * 86_400_000).toISOString();
    const agent = agentIds.length > 0 ? agentIds[i % agentIds.length]! : null;
    const district = pick(DISTRICTS);
    const common = {
      phone: `9${String(10_000_000 + i * 7919).padStart(8, '0')}`,
      address: `${pick(STREETS)} ${100 + Math.floor(random() * 4900)}`,
      ubigeo: district,
      agent_id: agent,
      collector_id: agent,
      status: 'ACTIVO' as const,
      password_hash: null,
      system_styles: null,
      created_at: created,
      updated_at: created,
    };
    if (i % 15 === 14) {
      await insertCrmCustomer(db, {
        ...common,
        person_type: 'JURIDICA',
        id_document_type: '6',
        document_number: companyRuc(String(60_000_000 + i)),
        name: `${COMPANIES[Math.floor(i / 15) % COMPANIES.length]!} S.A.C.`,
        surname: null,
        legal_representative: `${pick(NAMES)} ${pick(SURNAMES)} ${pick(SURNAMES)}`,
        birthday_date: null,
        email: `contacto${i}@empresa-demo.pe`,
        phone: common.phone,
      });
      continue;
    }
    const married = i % 6 === 0 || i % 6 === 1;
    const id = await insertCrmCustomer(db, {
      ...common,
      person_type: 'NATURAL',
      id_document_type: '1',
      document_number: String(42_000_000 + i * 37),
      name: pick(NAMES),
      surname: `${pick(SURNAMES)} ${pick(SURNAMES)}`,
      birthday_date: `${1960 + Math.floor(random() * 40)}-${String(1 + Math.floor(random() * 12)).padStart(2, '0')}-${String(1 + Math.floor(random() * 28)).padStart(2, '0')}`,
      marital_status: married ? 'CASADO' : pick(['SOLTERO', 'SOLTERO', 'SOLTERO', 'VIUDO', 'DIVORCIADO'] as const),
      email: random() < 0.7 ? `cliente.demo${i}@parcela.test` : null,
      alternate_phone: random() < 0.2 ? `9${String(20_000_000 + i * 131).padStart(8, '0')}` : null,
    });
    // The second of a couple: each is the other's spouse.
    if (i % 6 === 1) {
      const partner = await db
        .selectFrom('customers')
        .select('id')
        .where('document_number', '=', String(42_000_000 + (i - 1) * 37))
        .executeTakeFirst();
      if (partner) {
        await db.updateTable('customers').set({ spouse_id: partner.id }).where('id', '=', id).execute();
        await db.updateTable('customers').set({ spouse_id: id }).where('id', '=', partner.id).execute();
      }
    }
  }
}
