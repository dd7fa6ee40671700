import { createOpaqueIds } from '../../server/ids';

/**
 * Provider states and fixed data of the Proyectos calls (issue "Proyectos"), shared by the consumer
 * tests (tests/contract/consumer/projects*.pact.test.ts) and the provider verification, whose
 * handlers live in tests/contract/provider/projects-state-handlers.ts. Ids are those of an empty
 * database (the verification starts one per interaction), so SUBDIVISION.key is the key of id 1
 * under the default ID_ALPHABET.
 */
export const PROJECT_STATES = {
  /**
   * STAFF (states.ts) is signed in (param `token`, role Administrador) and SUBDIVISION exists with
   * blocks A and B, stage "Etapa 1" and the lots LOTS (ids 1–3) with their polygons; LOTS[0] has one
   * status-history entry (creation).
   */
  subdivisionWithLots: 'a signed-in staff user and a subdivision with lots exist',
  /** SUBDIVISION and its LOTS exist (published, public prices on); nobody is signed in. */
  publishedSubdivision: 'a published subdivision with lots exists',
  /**
   * As subdivisionWithLots, and hold request 1 (PENDIENTE) asks to put LOTS[0] on RESERVA_COMERCIAL
   * until 30 days after the provider's today (docs/domain.md "Lot holds").
   */
  pendingLotHold: 'a signed-in supervisor and a pending hold request for a lot',
  /** STAFF is signed in (param `token`) and no subdivision exists yet. */
  noSubdivisions: 'a signed-in staff user and no subdivisions',
} as const;

/** SUBDIVISION.key: the opaque key of subdivision id 1 with the default alphabet. */
export const SUBDIVISION_KEY = createOpaqueIds().encode(1);

/** The subdivision promised by PROJECT_STATES.subdivisionWithLots / publishedSubdivision. */
export const SUBDIVISION = {
  id: 1,
  key: SUBDIVISION_KEY,
  code: 'LV-01',
  name: 'Los Viñedos de Carabayllo',
  department: 'Lima',
  province: 'Lima',
  district: 'Carabayllo',
  ubigeo: '150106',
  address: 'Km 22 Av. Túpac Amaru',
  currency: 'PEN',
  total_area_m2: 52000,
  registry_entry: '11223344',
  licence_number: 'LHU-045-2025',
  licence_date: '2025-06-30',
  status: 'EN_VENTA',
  published: true,
  public_prices: true,
} as const;

/** The lots of SUBDIVISION (ids 1, 2, 3; plan coordinates in metres). */
export const LOTS = [
  {
    id: 1,
    block: 'A',
    number: '1',
    code: 'MZ A - LT 1',
    area_m2: 120,
    price_per_m2: 25000,
    list_price: 3000000,
    status: 'DISPONIBLE',
    polygon: [
      [0, 0],
      [8, 0],
      [8, 15],
      [0, 15],
    ],
  },
  {
    id: 2,
    block: 'A',
    number: '2',
    code: 'MZ A - LT 2',
    area_m2: 120,
    price_per_m2: 25000,
    list_price: 3000000,
    status: 'SEPARADO',
    polygon: [
      [8, 0],
      [16, 0],
      [16, 15],
      [8, 15],
    ],
  },
  {
    id: 3,
    block: 'B',
    number: '1',
    code: 'MZ B - LT 1',
    area_m2: 150,
    price_per_m2: 30000,
    list_price: 4500000,
    status: 'BLOQUEADO',
    polygon: [
      [0, 25],
      [10, 25],
      [10, 40],
      [0, 40],
    ],
  },
] as const;
