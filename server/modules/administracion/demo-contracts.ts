import type { Kysely } from 'kysely';
import { Temporal } from 'temporal-polyfill';
import { CONTRACT_KINDS, CONTRACT_KIND_LABELS, type ContractKind } from '../../../src/schemas/administracion/contract-templates';
import type { AuditContext } from '../../audit/audit';
import { todayInLimaBy, type Clock } from '../../clock';
import type { DB } from '../../db/database';
import type { WorkerPool } from '../../platform/worker-pool';
import { demoRescissionTargets, portalCustomerSales } from '../comercio/demo-rescissions';
import { DEMO_SUBDIVISIONS } from '../proyectos/lot-import/demo-subdivisions';
import {
  createContractTemplate,
  newContractTemplateVersion,
  publishContractTemplate,
  updateContractTemplate,
} from './contract-templates.service';
import { annulContract, createContract, issueContract, uploadSignedScan } from './contracts.service';
import { DEMO_TEMPLATE_DOCS, demoTemplateRevision } from './demo-contract-templates';

/**
 * Demo data of Administración's contracts (docs/domain.md "Contract templates", "Contracts",
 * "Settings the contracts read"), made through the services themselves inside the seed's
 * transaction:
 * - the company's legal representative, their DNI and power, the place of signing and the days to
 *   receive the signed copy; the married demo customers' property regime;
 * - per demo subdivision and kind, the template family of demo-contract-templates.ts: version 1
 *   PUBLICADA, version 2 PUBLICADA (a revision) and version 3 BORRADOR (the next draft) — except
 *   the families {@link FAMILIES_LEFT_TO_START} (Brisas de Chilca's two compraventas), which
 *   "Nueva plantilla" starts (a second family of a subdivision and kind is refused, docs/domain.md
 *   "Contract templates"; the e2e tests start them, docs/testing.md);
 * - contracts of a few sales ({@link OTHER_FATES}: each issue renders a PDF, so a few stay fast),
 *   all of subdivisions with the sale's compraventa template published (Los Viñedos de
 *   Carabayllo): most FIRMADO with a generated scan, some EMITIDO (two past the signature days, so
 *   the register flags them), one BORRADOR and one ANULADO; the demo customer's purchase and the
 *   sales the rescission and the adenda touch among the signed ones.
 */

/** The demo company's settings for contracts (Configuración → Empresas). */
export const DEMO_CONTRACT_SETTINGS = {
  legal_representative: 'Jorge Luis Paredes Salazar',
  legal_representative_dni: '41236587',
  legal_representative_power_entry: 'Partida 14523687, asiento C00004',
  contract_place: 'Lima',
  contract_signature_days: 15,
} as const;

/** One midday instant (Lima) of `day` (YYYY-MM-DD): the clock of a step that happened that day. */
export const clockAt = (day: string): Clock => {
  const at = new Date(`${day}T17:00:00.000Z`);
  return { now: () => new Date(at) };
};

/** `days` before `today` (YYYY-MM-DD). */
const daysBefore = (today: string, days: number) => Temporal.PlainDate.from(today).subtract({ days }).toString();
/** A record's version as the services answer it (always there: the tolerant reader's type has it optional). */
export const versionOf = (row: { version?: number }): number => {
  if (row.version === undefined) throw new Error('The service answered no version');
  return row.version;
};
/** The later of two days. */
const later = (a: string, b: string) => (a > b ? a : b);

/**
 * The company's contract settings and the property regime of the married demo customers: every
 * fourth couple keeps their goods apart (separación de patrimonios, Código Civil art. 295), the rest
 * have the default sociedad de gananciales. The company and the customers are seed rows without a
 * service of their own here, as their demo modules insert them.
 */
export async function seedDemoContractSettings(trx: Kysely<DB>): Promise<void> {
  await trx.updateTable('companies').set(DEMO_CONTRACT_SETTINGS).execute();
  const married = await trx
    .selectFrom('customers')
    .select(['id', 'spouse_id'])
    .where('marital_status', '=', 'CASADO')
    .where('password_hash', 'is', null)
    .orderBy('id')
    .execute();
  const separate: number[] = [];
  const shared: number[] = [];
  let couple = 0;
  const seen = new Set<number>();
  for (const c of married) {
    if (seen.has(c.id)) continue;
    const members = c.spouse_id !== null ? [c.id, c.spouse_id] : [c.id];
    for (const m of members) seen.add(m);
    (couple % 4 === 3 ? separate : shared).push(...members);
    couple += 1;
  }
  if (shared.length > 0)
    await trx.updateTable('customers').set({ property_regime: 'SOCIEDAD_GANANCIALES' }).where('id', 'in', shared).execute();
  if (separate.length > 0)
    await trx.updateTable('customers').set({ property_regime: 'SEPARACION_PATRIMONIOS' }).where('id', 'in', separate).execute();
}

/** Days before the seed on which each template version was written (v1 published, v2 published, v3 drafted). */
const TEMPLATE_DAYS = { v1: 400, v2: 120, v3: 6 } as const;

/**
 * The template families the demo leaves unstarted, by subdivision name: Brisas de Chilca (the
 * first demo subdivision by name) has no compraventa template yet — the cash one is what
 * tests/e2e/administracion-templates.e2e.test.ts creates for the first subdivision of the list, the
 * financed one what tests/e2e/administracion-contracts.e2e.test.ts creates for the newest financed
 * sale in instalments (a Brisas de Chilca sale: it sells most). Its separación, adenda and carta
 * families are seeded.
 */
export const FAMILIES_LEFT_TO_START: Readonly<Record<string, readonly ContractKind[]>> = {
  [DEMO_SUBDIVISIONS[1].name]: ['COMPRAVENTA_CONTADO', 'COMPRAVENTA_PLAZOS'],
};

/**
 * Per subdivision and kind (but {@link FAMILIES_LEFT_TO_START}): version 1 (the document)
 * published, version 2 (its first revision) published, version 3 (the second revision) left as
 * BORRADOR — create, publish, new version, edit, publish, new version, edit, each on its day.
 * @returns how many template versions were written.
 */
export async function seedDemoContractTemplates(trx: Kysely<DB>, clock: Clock, actorId: number | null): Promise<number> {
  const today = todayInLimaBy(clock);
  const at = (days: number) => {
    const stepClock = clockAt(daysBefore(today, days));
    return { deps: { db: trx, clock: stepClock }, audit: auditBy(actorId, stepClock) };
  };
  const subdivisions = await trx.selectFrom('subdivisions').select(['id', 'name']).orderBy('id').execute();
  let written = 0;
  for (const s of subdivisions)
    for (const kind of CONTRACT_KINDS) {
      if (FAMILIES_LEFT_TO_START[s.name]?.includes(kind)) continue;
      const doc = DEMO_TEMPLATE_DOCS[kind];
      const first = at(TEMPLATE_DAYS.v1);
      let t = await createContractTemplate(first.deps, first.audit, {
        subdivision_id: s.id,
        kind,
        name: `${CONTRACT_KIND_LABELS[kind]} — ${s.name}`,
        content: doc,
      });
      t = await publishContractTemplate(first.deps, first.audit, t.id, { version: versionOf(t) });
      for (const [n, days] of [
        [2, TEMPLATE_DAYS.v2],
        [3, TEMPLATE_DAYS.v3],
      ] as const) {
        const step = at(days);
        t = await newContractTemplateVersion(step.deps, step.audit, t.id, { version: versionOf(t) });
        t = await updateContractTemplate(step.deps, step.audit, t.id, { version: versionOf(t), content: demoTemplateRevision(doc, n) });
        if (n === 2) t = await publishContractTemplate(step.deps, step.audit, t.id, { version: versionOf(t) });
      }
      written += 3;
    }
  return written;
}

/** The audit context of `actorId` (a staff user, or the system) on `clock`. */
const auditBy = (actorId: number | null, clock: Clock): AuditContext => ({
  actor: actorId === null ? null : { userType: 'COLLABORATOR', accountId: actorId },
  ip: null,
  clock,
});

/**
 * A one-page PDF saying which contract was signed, by whom and when: the demo's "scan" of the
 * signed copy (a real one is a scanned image; this one is small and readable). Built by hand with
 * its cross-reference table, so any viewer opens it.
 */
export function demoSignedScan(number: string, signedOn: string, signer: string): Buffer {
  // PDF strings: the standard Helvetica's WinAnsi; parentheses and backslashes escaped.
  const text = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const lines = [
    `CONTRATO ${number} - COPIA FIRMADA (escaneo de demostracion)`,
    `Firmado el ${signedOn.split('-').reverse().join('/')} por ${signer} y el representante de la empresa.`,
    'Documento generado por la demo de Parcela: no tiene valor legal.',
  ];
  const stream = `BT /F1 12 Tf 56 780 Td 16 TL ${lines.map((l) => `(${text(l)}) Tj T*`).join(' ')} ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>',
    `<< /Length ${Buffer.byteLength(stream, 'latin1')} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(body, 'latin1'));
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body, 'latin1');
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

/** What the demo does with a sale's contract. */
type ContractFate =
  /** Issued `issuedAgo` days before the seed and signed `signedAfter` days later. */
  | { state: 'FIRMADO'; issuedAgo: number; signedAfter: number }
  /** Issued `issuedAgo` days before the seed, not signed yet (flagged when past the signature days). */
  | { state: 'EMITIDO'; issuedAgo: number }
  /** Made, not issued: data being checked. */
  | { state: 'BORRADOR' }
  /** Made and annulled before issue. */
  | { state: 'ANULADO' };

/**
 * Which demo sales get a contract besides the demo customer's, the resolved and the rescheduled
 * sale's (all three FIRMADO): the sales CANCELADA or EN_CUOTAS whose subdivision has the
 * compraventa template of their kind published, CONTADO ones first (then the others), in order of
 * subdivision and id, their fates in turn. Kept small — every issue renders a multi-page PDF on the
 * documents' pool (~0.2–1 s on a loaded machine): eleven issued contracts in all.
 */
const OTHER_FATES: readonly ContractFate[] = [
  { state: 'FIRMADO', issuedAgo: 210, signedAfter: 5 },
  { state: 'EMITIDO', issuedAgo: 40 },
  { state: 'FIRMADO', issuedAgo: 150, signedAfter: 9 },
  { state: 'EMITIDO', issuedAgo: 3 },
  { state: 'BORRADOR' },
  { state: 'FIRMADO', issuedAgo: 90, signedAfter: 3 },
  { state: 'EMITIDO', issuedAgo: 24 },
  { state: 'FIRMADO', issuedAgo: 60, signedAfter: 12 },
  { state: 'ANULADO' },
];

/** The compraventa kind of a sale's type (docs/domain.md "Contracts"). */
const compraventaOf = (type: string): ContractKind => (type === 'CONTADO' ? 'COMPRAVENTA_CONTADO' : 'COMPRAVENTA_PLAZOS');

/** The sales the demo gives a contract, each with its fate (no sale twice, none without its published template). */
async function contractPlan(trx: Kysely<DB>, clock: Clock): Promise<{ saleId: number; fate: ContractFate }[]> {
  const signed = (issuedAgo: number, signedAfter: number): ContractFate => ({ state: 'FIRMADO', issuedAgo, signedAfter });
  const published = new Set(
    (
      await trx.selectFrom('contract_templates').select(['subdivision_id', 'kind']).where('state', '=', 'PUBLICADA').distinct().execute()
    ).map((t) => `${t.subdivision_id} ${t.kind}`),
  );
  /** The live sales a compraventa contract can be made for, by id. */
  const contractable = new Map(
    (
      await trx
        .selectFrom('sales')
        .select(['id', 'subdivision_id', 'type', 'status'])
        .where('status', 'in', ['REGISTRADA', 'INICIAL_PENDIENTE', 'EN_CUOTAS', 'CANCELADA'])
        .orderBy('subdivision_id')
        .orderBy('type')
        .orderBy('id')
        .execute()
    )
      .filter((s) => published.has(`${s.subdivision_id} ${compraventaOf(s.type)}`))
      .map((s) => [s.id, s]),
  );
  const plan: { saleId: number; fate: ContractFate }[] = [];
  const taken = new Set<number>();
  const add = (saleId: number | undefined, fate: ContractFate) => {
    if (saleId === undefined || taken.has(saleId) || !contractable.has(saleId)) return;
    taken.add(saleId);
    plan.push({ saleId, fate });
  };
  // The demo customer (the portal account) downloads their contract from Detalle de Compra.
  const own = await portalCustomerSales(trx).orderBy('sale_holders.sale_id').execute();
  for (const o of own) add(o.sale_id, signed(45, 4));
  // The rescission resolves a signed contract (RESUELTO); the adenda changes a signed one.
  const { toResolve, toReschedule } = await demoRescissionTargets(trx, clock);
  add(toResolve?.id, signed(300, 6));
  add(toReschedule?.id, signed(280, 2));
  let next = 0;
  for (const s of contractable.values()) {
    if (next >= OTHER_FATES.length) break;
    if (taken.has(s.id) || !['CANCELADA', 'EN_CUOTAS'].includes(s.status)) continue;
    add(s.id, OTHER_FATES[next]!);
    next += 1;
  }
  return plan;
}

/**
 * The demo contracts of {@link contractPlan}, made, issued and signed on their days (each issued
 * not before its sale was made), issued in date order so the numbers follow the days.
 * @param documents the documents' pool the PDFs are rendered on.
 * @returns how many contracts were made.
 */
export async function seedDemoContracts(trx: Kysely<DB>, clock: Clock, actorId: number | null, documents: WorkerPool): Promise<number> {
  const today = todayInLimaBy(clock);
  const plan = await contractPlan(trx, clock);
  const sales = new Map(
    (
      await trx
        .selectFrom('sales')
        .innerJoin('sale_holders', (join) => join.onRef('sale_holders.sale_id', '=', 'sales.id').on('sale_holders.role', '=', 'TITULAR'))
        .innerJoin('customers', 'customers.id', 'sale_holders.customer_id')
        .select(['sales.id', 'sales.sale_date', 'customers.name', 'customers.surname'])
        .where(
          'sales.id',
          'in',
          plan.map((p) => p.saleId),
        )
        .execute()
    ).map((s) => [s.id, s]),
  );
  /** The day a contract is made: `issuedAgo` days ago, yet not before its sale (+2 days) nor after today. */
  const issueDay = (saleId: number, issuedAgo: number) => {
    const saleDay = sales.get(saleId)?.sale_date ?? today;
    const day = later(daysBefore(today, issuedAgo), Temporal.PlainDate.from(saleDay.slice(0, 10)).add({ days: 2 }).toString());
    return day > today ? today : day;
  };
  const dated = plan.map((p) => ({
    ...p,
    day: p.fate.state === 'FIRMADO' || p.fate.state === 'EMITIDO' ? issueDay(p.saleId, p.fate.issuedAgo) : daysBefore(today, 1),
  }));
  dated.sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : a.saleId - b.saleId));
  for (const { saleId, fate, day } of dated) {
    const dayClock = clockAt(day);
    const deps = { db: trx, clock: dayClock, documents };
    const audit = auditBy(actorId, dayClock);
    let contract = await createContract(deps, audit, { sale_id: saleId });
    if (fate.state === 'BORRADOR') continue;
    if (fate.state === 'ANULADO') {
      await annulContract(deps, audit, contract.id, {
        version: versionOf(contract),
        reason: 'Se generó con el titular equivocado: se emitirá de nuevo tras corregir la venta (demo)',
      });
      continue;
    }
    contract = await issueContract(deps, audit, contract.id, { version: versionOf(contract) });
    if (fate.state !== 'FIRMADO') continue;
    const signedOn = Temporal.PlainDate.from(day).add({ days: fate.signedAfter }).toString();
    const signClock = clockAt(signedOn > today ? today : signedOn);
    const holder = sales.get(saleId);
    await uploadSignedScan({ ...deps, clock: signClock }, auditBy(actorId, signClock), contract.id, {
      bytes: demoSignedScan(
        contract.number ?? '',
        signedOn > today ? today : signedOn,
        `${holder?.name ?? ''} ${holder?.surname ?? ''}`.trim(),
      ),
      filename: `${contract.number}-firmado.pdf`,
    });
  }
  return dated.length;
}
