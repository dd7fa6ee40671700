/**
 * The contracts of the large database (issue "Registro de Contratos": page 1 of the register with
 * p95 ≤ 50 ms at 20 connections on the large database), added by scripts/generate-large-db.ts after
 * the sales (scripts/lib/large-sales.ts). Straight to SQLite with better-sqlite3 in one transaction,
 * as the sales.
 *
 * What it makes (deterministic: a seeded generator):
 * - per generated subdivision (codes G…) a PUBLICADA template version 1 of each compraventa kind
 *   (COMPRAVENTA_CONTADO, COMPRAVENTA_PLAZOS; the demo's documents,
 *   server/modules/administracion/demo-contract-templates.ts);
 * - one contract of its kind for {@link CONTRACT_SHARE} of the generated subdivisions' live sales,
 *   in sale order: ~10 % BORRADOR, ~25 % EMITIDO (some of them with their signature overdue), ~62 %
 *   FIRMADO, ~3 % ANULADO (with a reason); made a few days after the sale, issued up to 3 days later,
 *   signed up to 12 days after the issue, never after now; the issued ones numbered C-YYYY-NNNNNN
 *   per year in issue order (`contract_counters` raised to match) with {@link PDF_BYTES} bytes
 *   standing for the stored PDF (the register never reads them; they stay in the rows, as real
 *   PDFs do, so a scan of `contracts` pays for them);
 * - no contract events, no signed scans (the register reads neither).
 */
import Database from 'better-sqlite3';
import { todayInLima } from '../../src/lib/dates';
import { DEMO_TEMPLATE_DOCS } from '../../server/modules/administracion/demo-contract-templates';

/** Share of the generated live sales that get a contract. */
export const CONTRACT_SHARE = 0.9;
/** Size of the stand-in PDF stored with each issued contract (a 360-instalment contract's PDF is larger). */
export const PDF_BYTES = 16 * 1024;

/** What {@link generateLargeContracts} left in the database. */
export interface LargeContractsResult {
  contracts: number;
  /** Contracts inserted by this call (0 when the generated sales already had theirs). */
  created: number;
  ms: number;
}

/** mulberry32, as scripts/lib/large-sales.ts. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DAY_MS = 86_400_000;

/**
 * Adds the templates and contracts of the generated subdivisions to the SQLite database at `path`
 * (already generated with its sales). Idempotent: nothing is made when any generated sale already
 * has a contract.
 */
export function generateLargeContracts(path: string): LargeContractsResult {
  const started = Date.now();
  const sqlite = new Database(path);
  try {
    sqlite.pragma('journal_mode = WAL');
    const existing = sqlite
      .prepare(
        `select count(*) as n from contracts c join sales s on s.id = c.sale_id join subdivisions d on d.id = s.subdivision_id where d.code like 'G%'`,
      )
      .get() as { n: number };
    let created = 0;
    if (existing.n === 0) created = sqlite.transaction(() => insertContracts(sqlite))();
    const total = (sqlite.prepare(`select count(*) as n from contracts`).get() as { n: number }).n;
    return { contracts: total, created, ms: Date.now() - started };
  } finally {
    sqlite.close();
  }
}

/** The body of {@link generateLargeContracts}'s transaction. @returns the contracts inserted. */
function insertContracts(sqlite: Database.Database): number {
  const rand = random(20_261_129);
  const now = new Date();
  const nowIso = now.toISOString();
  const company = sqlite.prepare(`select id from companies order by id limit 1`).get() as { id: number } | undefined;
  if (!company) throw new Error('the large database has no company (the demo seed registers one)');

  // Templates: one PUBLICADA version 1 per generated subdivision and compraventa kind.
  const subdivisions = sqlite.prepare(`select id, name from subdivisions where code like 'G%' order by id`).all() as {
    id: number;
    name: string;
  }[];
  const insertTemplate = sqlite.prepare(
    `insert into contract_templates (subdivision_id, kind, name, version_number, state, content, published_at, created_at, updated_at)
     values (?, ?, ?, 1, 'PUBLICADA', ?, ?, ?, ?) returning id`,
  );
  const template = new Map<string, number>();
  const contents = {
    COMPRAVENTA_CONTADO: JSON.stringify(DEMO_TEMPLATE_DOCS.COMPRAVENTA_CONTADO),
    COMPRAVENTA_PLAZOS: JSON.stringify(DEMO_TEMPLATE_DOCS.COMPRAVENTA_PLAZOS),
  };
  for (const s of subdivisions) {
    for (const kind of ['COMPRAVENTA_CONTADO', 'COMPRAVENTA_PLAZOS'] as const) {
      const name = kind === 'COMPRAVENTA_CONTADO' ? `Compraventa al contado — ${s.name}` : `Compraventa a plazos — ${s.name}`;
      const row = insertTemplate.get(s.id, kind, name, contents[kind], nowIso, nowIso, nowIso) as { id: number };
      template.set(`${s.id}:${kind}`, row.id);
    }
  }

  // The generated live sales, in sale order.
  const sales = sqlite
    .prepare(
      `select s.id, s.subdivision_id, s.type, s.agent_id, s.created_at from sales s join subdivisions d on d.id = s.subdivision_id
       where d.code like 'G%' and s.status <> 'ANULADA' order by s.id`,
    )
    .all() as { id: number; subdivision_id: number; type: 'CONTADO' | 'FINANCIADO'; agent_id: number | null; created_at: string }[];

  interface Planned {
    saleId: number;
    templateId: number;
    kind: 'COMPRAVENTA_CONTADO' | 'COMPRAVENTA_PLAZOS';
    state: 'BORRADOR' | 'EMITIDO' | 'FIRMADO' | 'ANULADO';
    agent: number | null;
    createdAt: string;
    issuedAt: string | null;
    signedAt: string | null;
    number: string | null;
    year: number | null;
  }
  const clamp = (ms: number) => new Date(Math.min(ms, now.getTime())).toISOString();
  const planned: Planned[] = [];
  for (const sale of sales) {
    if (rand() >= CONTRACT_SHARE) continue;
    const kind = sale.type === 'CONTADO' ? 'COMPRAVENTA_CONTADO' : 'COMPRAVENTA_PLAZOS';
    const made = new Date(sale.created_at).getTime() + Math.floor(rand() * 5 * DAY_MS);
    const roll = rand();
    const state = roll < 0.1 ? 'BORRADOR' : roll < 0.35 ? 'EMITIDO' : roll < 0.97 ? 'FIRMADO' : 'ANULADO';
    // An ANULADO contract may have been issued or not (half and half).
    const issued = state === 'EMITIDO' || state === 'FIRMADO' || (state === 'ANULADO' && rand() < 0.5);
    const issuedMs = made + Math.floor(rand() * 3 * DAY_MS);
    planned.push({
      saleId: sale.id,
      templateId: template.get(`${sale.subdivision_id}:${kind}`)!,
      kind,
      state,
      agent: sale.agent_id,
      createdAt: clamp(made),
      issuedAt: issued ? clamp(issuedMs) : null,
      signedAt: state === 'FIRMADO' ? clamp(issuedMs + Math.floor(rand() * 12 * DAY_MS)) : null,
      number: null,
      year: null,
    });
  }

  // Numbers per (Lima) year in issue order, then the counters.
  const issued = planned.filter((p) => p.issuedAt !== null).sort((a, b) => a.issuedAt!.localeCompare(b.issuedAt!) || a.saleId - b.saleId);
  const counters = new Map<number, number>(
    (
      sqlite.prepare(`select year, last_number from contract_counters where company_id = ?`).all(company.id) as {
        year: number;
        last_number: number;
      }[]
    ).map((r) => [r.year, r.last_number]),
  );
  for (const p of issued) {
    const year = Number(todayInLima(new Date(p.issuedAt!)).slice(0, 4));
    const n = (counters.get(year) ?? 0) + 1;
    counters.set(year, n);
    p.year = year;
    p.number = `C-${year}-${String(n).padStart(6, '0')}`;
  }
  const upsertCounter = sqlite.prepare(
    `insert into contract_counters (company_id, year, last_number) values (?, ?, ?)
     on conflict (company_id, year) do update set last_number = excluded.last_number`,
  );
  for (const [year, last] of counters) upsertCounter.run(company.id, year, last);

  const pdf = Buffer.alloc(PDF_BYTES, 0x20);
  Buffer.from('%PDF-1.7\n').copy(pdf);
  const insertContract = sqlite.prepare(
    `insert into contracts (company_id, sale_id, template_id, kind, number, year, state, overrides, pdf_data, issued_at, issued_by,
       signed_at, annul_reason, created_by, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, '{}', ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  // Inserted in creation order, as the application would have.
  planned.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.saleId - b.saleId);
  for (const p of planned) {
    const updated = p.signedAt ?? p.issuedAt ?? p.createdAt;
    insertContract.run(
      company.id,
      p.saleId,
      p.templateId,
      p.kind,
      p.number,
      p.year,
      p.state,
      p.number !== null ? pdf : null,
      p.issuedAt,
      p.issuedAt !== null ? p.agent : null,
      p.signedAt,
      p.state === 'ANULADO' ? 'Contrato emitido con datos errados' : null,
      p.agent,
      p.createdAt,
      updated,
    );
  }
  return planned.length;
}
