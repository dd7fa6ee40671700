/**
 * The large database of the API bench (issue "API throughput" item 5; issue "CRM and sales", its
 * performance clause): the demo data plus 198 generated subdivisions — 200 in all, 100 000 lots —
 * built through the same import code as the demo (fixtures/lotizacion-1200.dxf for 59 of them,
 * lotizacion-200.dxf for 139; each import writes its lots, blocks, status history and change
 * history as a real import does); then the sales of those lots (scripts/lib/large-sales.ts): 60 000
 * customers, 100 000 sales with their holders, 2 000 000 schedule rows, the sold lots VENDIDO; then
 * the contracts of most of those sales (scripts/lib/large-contracts.ts; issue "Registro de Contratos").
 *
 *   npx tsx scripts/generate-large-db.ts <sqlite file> [--no-sales]     (created, migrated and seeded if new)
 *
 * Idempotent: subdivisions already generated (codes G001…G198) are skipped, and so are the sales
 * when the database already has 100 000, and the contracts when the generated sales have some. `--no-sales` stops after the subdivisions (the database of
 * the API bench before the sales). Prints the totals and the time each part took.
 */
import { openMigratedDatabase } from '../server/start';
import { generateLargeSales } from './lib/large-sales';
import { generateLargeContracts } from './lib/large-contracts';
import { recordChange, type AuditContext } from '../server/audit/audit';
import { systemClock } from '../server/clock';
import { commitImport } from '../server/modules/proyectos/lot-imports.service';
import { fixtureImport } from '../server/modules/proyectos/lot-import/demo-subdivisions';

const GENERATED = 198;
const LARGE = 59; // × 1 200 lots; the rest × 200: with the demo's 1 400, 100 000 lots

const databasePath = process.argv[2];
const withSales = !process.argv.includes('--no-sales');
if (!databasePath || databasePath.startsWith('--')) {
  console.error('usage: tsx scripts/generate-large-db.ts <sqlite file> [--no-sales]');
  process.exit(2);
}

const { db } = await openMigratedDatabase({ databasePath, databaseUrl: null, seed: 'demo' });
try {
  const plans = { large: await fixtureImport('lotizacion-1200.dxf'), small: await fixtureImport('lotizacion-200.dxf') };
  const audit: AuditContext = { actor: null, ip: null, clock: systemClock };
  const started = Date.now();
  for (let i = 1; i <= GENERATED; i++) {
    const code = `G${String(i).padStart(3, '0')}`;
    if (await db.selectFrom('subdivisions').select('id').where('code', '=', code).executeTakeFirst()) continue;
    const now = systemClock.now().toISOString();
    const values = {
      code,
      name: `Lotización generada ${i}`,
      department: 'Lima',
      province: 'Lima',
      district: 'Carabayllo',
      currency: 'PEN' as const,
      total_area_m2: 100000,
      status: 'EN_VENTA' as const,
      created_at: now,
      updated_at: now,
    };
    await db.transaction().execute(async (trx) => {
      const { id } = await trx.insertInto('subdivisions').values(values).returning('id').executeTakeFirstOrThrow();
      await recordChange(trx, audit, { entity: 'subdivisions', recordId: id, action: 'CREATE', after: { id, ...values } });
      await commitImport(trx, audit, { id, coordinate_system: 'PLAN', overlap_limit_m2: 0.05 }, i <= LARGE ? plans.large : plans.small);
    });
  }
  const count = async (table: 'subdivisions' | 'lots' | 'change_history') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  console.log(
    `large database ${databasePath}: ${await count('subdivisions')} subdivisions, ${await count('lots')} lots, ${await count('change_history')} history rows (${((Date.now() - started) / 1000).toFixed(1)} s)`,
  );
} finally {
  await db.destroy();
}
if (withSales) {
  const sales = generateLargeSales(databasePath);
  console.log(
    `sales: ${sales.customers} customers, ${sales.sales} sales (${sales.created} made now), ${sales.instalments} schedule rows, ${sales.soldLots} lots VENDIDO (${(sales.ms / 1000).toFixed(1)} s)`,
  );
  const contracts = generateLargeContracts(databasePath);
  console.log(`contracts: ${contracts.contracts} (${contracts.created} made now) (${(contracts.ms / 1000).toFixed(1)} s)`);
}
