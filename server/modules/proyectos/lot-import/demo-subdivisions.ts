import { readFileSync } from 'node:fs';
import type { Kysely } from 'kysely';
import { LOT_STATUSES, type LotStatus } from '../../../../src/schemas/proyectos/projects';
import { recordChange, recordChanges, type AuditContext } from '../../../audit/audit';
import type { Clock } from '../../../clock';
import type { DB } from '../../../db/database';
import { commitImport } from '../lot-imports.service';
import { readImportFile, type ParseResult } from './index';

/**
 * Demo subdivisions (issue "Proyectos" → Demo seed), built from fixtures/ through the import code:
 * "Los Viñedos de Carabayllo" (200 lots: lotizacion-200.dxf + lotes-200.csv; published with public
 * prices) and "Brisas de Chilca" (1 200 lots: lotizacion-1200.dxf + lotes-1200.csv; published,
 * prices hidden). Prices S/ 150–450 per m² by block, corner and park (the CSV's). Statuses,
 * deterministic: ~55 % Disponible, 10 % Separado, 25 % Vendido, the rest Bloqueado, Reserva
 * comercial or Canje with reasons, each with its status-history rows dated in the past. The last
 * two lots of each plan are not for sale (issue 13 item 4): a park (Recreación) and the club house,
 * status No vendible.
 */

/** Land uses of the last lots of each demo plan (the rest are Vivienda). */
const DEMO_USES = ['CLUB_HOUSE', 'RECREACION'] as const;

/** The demo subdivisions and the fixtures they come from. */
export const DEMO_SUBDIVISIONS = [
  {
    code: 'LVC',
    name: 'Los Viñedos de Carabayllo',
    department: 'Lima',
    province: 'Lima',
    district: 'Carabayllo',
    ubigeo: '150106',
    address: 'Av. Túpac Amaru km 22, Carabayllo',
    currency: 'PEN' as const,
    total_area_m2: 52480,
    registry_entry: 'P01234567',
    licence_number: 'LHU-045-2025-MDC',
    licence_date: '2025-06-30',
    status: 'EN_VENTA' as const,
    published: 1 as const,
    public_prices: 1 as const,
    files: ['lotizacion-200.dxf', 'lotes-200.csv'],
    seed: 11,
  },
  {
    code: 'BDC',
    name: 'Brisas de Chilca',
    department: 'Lima',
    province: 'Cañete',
    district: 'Chilca',
    ubigeo: '150505',
    address: 'Panamericana Sur km 63, Chilca',
    currency: 'PEN' as const,
    total_area_m2: 318900,
    registry_entry: 'P21876543',
    licence_number: 'LHU-112-2025-MDCH',
    licence_date: '2025-09-15',
    status: 'EN_PREVENTA' as const,
    published: 1 as const,
    public_prices: 0 as const,
    files: ['lotizacion-1200.dxf', 'lotes-1200.csv'],
    seed: 23,
  },
] as const;

const FIXTURES = new URL('../../../../fixtures/', import.meta.url);
const DAY_MS = 86_400_000;

/** Reasons of the statuses that need one. */
const REASONS: Partial<Record<LotStatus, readonly string[]>> = {
  BLOQUEADO: ['Servidumbre de línea eléctrica en revisión', 'Observación registral pendiente', 'Lote reservado para ampliación de vía'],
  RESERVA_COMERCIAL: ['Reservado para campaña de feria inmobiliaria', 'Reserva de gerencia para cliente corporativo'],
  CANJE: ['Canje con propietario del terreno matriz', 'Pago en lotes al contratista de habilitación'],
};

/** mulberry32 → [0, 1). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A status from a draw in [0, 1): 55 % / 10 % / 25 % / 4 % / 3 % / 3 %. */
function statusOf(draw: number): LotStatus {
  if (draw < 0.55) return 'DISPONIBLE';
  if (draw < 0.65) return 'SEPARADO';
  if (draw < 0.9) return 'VENDIDO';
  if (draw < 0.94) return 'BLOQUEADO';
  if (draw < 0.97) return 'RESERVA_COMERCIAL';
  return 'CANJE';
}

/** The status path from DISPONIBLE to `status` (DOMAIN state chart). */
function pathTo(status: LotStatus): LotStatus[] {
  if (status === 'VENDIDO') return ['SEPARADO', 'VENDIDO'];
  return status === 'DISPONIBLE' ? [] : [status];
}

/**
 * Creates the demo subdivisions in `trx` (the seed's transaction).
 * @param agentId staff user credited with separations and sales in the status history.
 * @throws Error when a fixture does not import cleanly (a broken fixture is a programming error).
 */
export async function seedDemoSubdivisions(trx: Kysely<DB>, clock: Clock, agentId: number | null): Promise<void> {
  const now = clock.now();
  // Lots were loaded 240 days ago; status changes happen afterwards.
  const loadedAt = new Date(now.getTime() - 240 * DAY_MS);
  const audit: AuditContext = { actor: null, ip: null, clock: { now: () => loadedAt } };
  for (const demo of DEMO_SUBDIVISIONS) {
    const { files, seed, ...values } = demo;
    const { id } = await trx
      .insertInto('subdivisions')
      .values({ ...values, created_at: loadedAt.toISOString(), updated_at: loadedAt.toISOString() })
      .returning('id')
      .executeTakeFirstOrThrow();
    await recordChange(trx, audit, { entity: 'subdivisions', recordId: id, action: 'CREATE', after: { id, ...values } });
    // The plan (polygons) and the engineers' table (prices, boundaries, flags) as one import.
    const [plan, table] = await Promise.all(files.map((file) => fixtureImport(file)));
    const attributes = new Map(table!.lots.map((lot) => [lot.code, lot]));
    const merged: ParseResult = {
      ...plan!,
      lots: plan!.lots.map((lot) => {
        const {
          polygon: _p,
          location: _l,
          area_m2: _a,
          declared_area_m2: _d,
          drawn_area_m2: _w,
          ...rest
        } = attributes.get(lot.code) ?? lot;
        return { ...lot, ...rest };
      }),
    };
    DEMO_USES.forEach((use, i) => {
      const lot = merged.lots[merged.lots.length - 1 - i];
      if (lot) lot.land_use = use;
    });
    await commitImport(trx, audit, { id, coordinate_system: 'PLAN', overlap_limit_m2: 0.05 }, merged);

    const random = prng(seed);
    const lots = await trx.selectFrom('lots').select(['id', 'code', 'status']).where('subdivision_id', '=', id).orderBy('id').execute();
    const byStatus = new Map<LotStatus, number[]>(LOT_STATUSES.map((s) => [s, []]));
    const history: Array<{
      lot_id: number;
      from_status: LotStatus;
      to_status: LotStatus;
      reason: string | null;
      user_id: number | null;
      changed_at: string;
    }> = [];
    for (const lot of lots) {
      const status = statusOf(random());
      if (lot.status === 'NO_VENDIBLE') continue; // never sold: keeps its status
      byStatus.get(status)!.push(lot.id);
      let from: LotStatus = 'DISPONIBLE';
      let at = loadedAt.getTime() + (5 + Math.floor(random() * 150)) * DAY_MS;
      for (const to of pathTo(status)) {
        const options = REASONS[to];
        const reason = options ? options[Math.floor(random() * options.length)]! : to === 'SEPARADO' ? 'Separación con pago inicial' : null;
        history.push({
          lot_id: lot.id,
          from_status: from,
          to_status: to,
          reason,
          user_id: to === 'SEPARADO' || to === 'VENDIDO' ? agentId : null,
          changed_at: new Date(at).toISOString(),
        });
        from = to;
        at += (3 + Math.floor(random() * 40)) * DAY_MS;
      }
    }
    for (const [status, ids] of byStatus) {
      if (status === 'DISPONIBLE') continue;
      for (let i = 0; i < ids.length; i += 500) {
        await trx
          .updateTable('lots')
          .set({ status, updated_at: now.toISOString() })
          .where('id', 'in', ids.slice(i, i + 500))
          .execute();
      }
      await recordChanges(
        trx,
        { actor: null, ip: null, clock },
        ids.map((lotId) => ({
          entity: 'lots',
          recordId: lotId,
          action: 'UPDATE' as const,
          before: { status: 'DISPONIBLE' },
          after: { status },
        })),
      );
    }
    for (let i = 0; i < history.length; i += 250)
      await trx
        .insertInto('lot_status_changes')
        .values(history.slice(i, i + 250))
        .execute();
  }
}

/** Reads a fixture through the importer. @throws Error when it has any ERROR. */
export async function fixtureImport(file: string): Promise<ParseResult> {
  const parsed = await readImportFile(readFileSync(new URL(file, FIXTURES)), file);
  const errors = parsed.issues.filter((i) => i.severity === 'ERROR');
  if (errors.length) throw new Error(`Demo fixture ${file}: ${errors[0]!.location}: ${errors[0]!.message}`);
  return parsed;
}
