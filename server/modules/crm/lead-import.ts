import { z } from 'zod';
import { documentNumberError } from '../../../src/schemas/documents';
import {
  LEAD_CHANNELS,
  LEAD_MESSAGES,
  MAX_LEAD_IMPORT_ROWS,
  normalizePhone,
  type LeadChannel,
  type LeadImportIssue,
} from '../../../src/schemas/crm/leads';
import { detectFormat } from '../proyectos/lot-import';
import { normaliseHeader, readCsvRows, readXlsxRows, type TableRows } from '../proyectos/lot-import/table';

/**
 * Lead files (issue "CRM and sales": import leads from CSV/XLSX with the columns of a Meta lead-ads
 * export — full_name, phone_number, email, created_time, campaign — previewed, then all or
 * nothing). Pure parsing, run on the import workers (lot-import/check-pool.ts), off the event loop;
 * the database checks (duplicates of existing leads) are the service's (leads-import.service.ts).
 * The first non-empty row is the header, matched without accents, case or punctuation.
 */

/** Canonical columns and the spellings accepted (Meta's English names, Spanish ones). */
export const LEAD_COLUMN_ALIASES: Readonly<Record<string, readonly string[]>> = {
  name: ['full_name', 'fullname', 'nombre', 'nombres', 'nombre completo', 'name', 'cliente'],
  first_name: ['first_name', 'firstname', 'primer nombre'],
  last_name: ['last_name', 'lastname', 'apellidos', 'apellido'],
  phone: ['phone_number', 'phone', 'telefono', 'teléfono', 'celular', 'movil', 'whatsapp', 'numero'],
  email: ['email', 'correo', 'correo electronico', 'e-mail', 'mail'],
  created_time: ['created_time', 'fecha', 'fecha de registro', 'created', 'fecha creacion', 'recibido'],
  campaign: ['campaign_name', 'campaign', 'campana', 'campaña', 'ad_name', 'form_name'],
  channel: ['platform', 'canal', 'channel', 'origen', 'fuente', 'source'],
  document_number: ['dni', 'documento', 'nro documento', 'numero de documento', 'document_number'],
};

/** Header → its column and rank (the alias's position: campaign_name beats ad_name whatever the column order). */
const aliasToColumn = new Map<string, { column: string; rank: number }>();
for (const [column, aliases] of Object.entries(LEAD_COLUMN_ALIASES)) {
  aliases.forEach((alias, rank) => {
    if (!aliasToColumn.has(normaliseHeader(alias))) aliasToColumn.set(normaliseHeader(alias), { column, rank });
  });
}

/** A row read from a lead file, normalised as it would be stored. */
export interface ParsedLeadRow {
  /** 1-based row of the file. */
  row: number;
  name: string;
  phone: string | null;
  email: string | null;
  /** Null: the import's default channel. */
  channel: LeadChannel | null;
  campaign: string | null;
  /** ISO instant; null: the import's time. */
  received_at: string | null;
  id_document_type: '1' | null;
  document_number: string | null;
  /** Some ERROR names this row. */
  invalid: boolean;
}

/** What a lead file holds. */
export interface LeadFileResult {
  rows: ParsedLeadRow[];
  issues: LeadImportIssue[];
}

/** Meta's `platform` codes and our channel names, in words people write. */
const CHANNEL_WORDS: Readonly<Record<string, LeadChannel>> = {
  fb: 'FACEBOOK',
  facebook: 'FACEBOOK',
  ig: 'INSTAGRAM',
  instagram: 'INSTAGRAM',
  tiktok: 'TIKTOK',
  whatsapp: 'WHATSAPP',
  wa: 'WHATSAPP',
  web: 'WEB',
  landing: 'LANDING',
  landingpage: 'LANDING',
  referido: 'REFERIDO',
  feria: 'FERIA',
  valla: 'VALLA',
  caseta: 'CASETA',
  walkin: 'WALK_IN',
  visitadirecta: 'WALK_IN',
  otro: 'OTRO',
};

/** A channel cell → a channel code (Meta's "fb"/"ig", our codes, Spanish words); null when blank or unknown. */
export function channelOf(text: string): LeadChannel | null {
  const key = normaliseHeader(text);
  if (!key) return null;
  const code = text.trim().toUpperCase();
  if ((LEAD_CHANNELS as readonly string[]).includes(code)) return code as LeadChannel;
  return CHANNEL_WORDS[key] ?? null;
}

const emailSchema = z.email();

/** Cell → trimmed text ('' for none). */
const cell = (value: unknown): string =>
  value === null || value === undefined
    ? ''
    : String(value)
        .replace(/\u00a0/g, ' ')
        .trim();

/**
 * A time cell → ISO instant: ISO 8601 with or without offset (Meta writes "2026-11-20T10:04:05-05:00";
 * without one it is Lima time), or dd/mm/yyyy [hh:mm] as Lima time.
 * @returns null when blank or unreadable.
 */
export function instantOf(text: string): string | null {
  if (!text) return null;
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?$/.exec(text);
  const local = /^(\d{1,2})\/(\d{1,2})\/(\d{4})(?:\s+(\d{1,2}):(\d{2}))?$/.exec(text);
  let parts: { y: string; mo: string; d: string; h: string; mi: string; s: string; zone: string } | null = null;
  if (iso)
    parts = { y: iso[1]!, mo: iso[2]!, d: iso[3]!, h: iso[4] ?? '00', mi: iso[5] ?? '00', s: iso[6] ?? '00', zone: iso[7] ?? '-05:00' };
  else if (local)
    parts = {
      y: local[3]!,
      mo: local[2]!.padStart(2, '0'),
      d: local[1]!.padStart(2, '0'),
      h: (local[4] ?? '00').padStart(2, '0'),
      mi: local[5] ?? '00',
      s: '00',
      zone: '-05:00',
    };
  if (!parts) return null;
  const zone = parts.zone === 'Z' ? 'Z' : parts.zone.replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
  const at = new Date(`${parts.y}-${parts.mo}-${parts.d}T${parts.h}:${parts.mi}:${parts.s}${zone}`);
  return Number.isNaN(at.getTime()) ? null : at.toISOString();
}

/** Leads of the rows of a table (header first). */
export function leadsFromTable(table: TableRows): LeadFileResult {
  const issues: LeadImportIssue[] = [];
  const error = (row: number | null, field: string | null, message: string) => issues.push({ severity: 'ERROR', row, field, message });
  const warning = (row: number | null, field: string | null, message: string) => issues.push({ severity: 'WARNING', row, field, message });
  if (table.truncated)
    return { rows: [], issues: [{ severity: 'ERROR', row: null, field: 'file', message: LEAD_MESSAGES.importTooManyRows }] };
  const [header, ...body] = table.rows;
  if (!header || body.length === 0)
    return { rows: [], issues: [{ severity: 'ERROR', row: null, field: 'file', message: LEAD_MESSAGES.importEmpty }] };
  const columns = new Map<string, number>();
  const ranks = new Map<string, number>();
  header.forEach((title, index) => {
    const match = aliasToColumn.get(normaliseHeader(cell(title)));
    if (match && match.rank < (ranks.get(match.column) ?? Number.POSITIVE_INFINITY)) {
      columns.set(match.column, index);
      ranks.set(match.column, match.rank);
    }
  });
  if (!columns.has('name') && !columns.has('first_name')) error(null, 'file', LEAD_MESSAGES.importNoName);
  if (!columns.has('phone') && !columns.has('email')) error(null, 'file', LEAD_MESSAGES.importNoContact);
  if (issues.length > 0) return { rows: [], issues };
  const read = (values: unknown[], column: string) => {
    const index = columns.get(column);
    return index === undefined ? '' : cell(values[index]);
  };
  const rows = body.map((values, i): ParsedLeadRow => {
    const row = table.numbers[i + 1] ?? i + 2;
    let invalid = false;
    const name = (read(values, 'name') || `${read(values, 'first_name')} ${read(values, 'last_name')}`).trim().slice(0, 150);
    if (!name) {
      error(row, 'name', 'Falta el nombre');
      invalid = true;
    }
    const phoneText = read(values, 'phone');
    const phone = phoneText ? normalizePhone(phoneText) : null;
    if (phoneText && !phone) {
      error(row, 'phone', `Teléfono no válido: «${phoneText.slice(0, 40)}»`);
      invalid = true;
    }
    const emailText = read(values, 'email').toLowerCase();
    let email: string | null = emailText ? emailText.slice(0, 120) : null;
    if (email && !emailSchema.safeParse(email).success) {
      warning(row, 'email', `Correo no válido, se omite: «${emailText.slice(0, 60)}»`);
      email = null;
    }
    if (!phone && !email && !invalid) {
      error(row, 'phone', LEAD_MESSAGES.contactRequired);
      invalid = true;
    }
    const channelText = read(values, 'channel');
    const channel = channelText ? channelOf(channelText) : null;
    if (channelText && !channel) warning(row, 'channel', `Canal desconocido «${channelText.slice(0, 40)}»: se usa el canal por defecto`);
    const createdText = read(values, 'created_time');
    const received = createdText ? instantOf(createdText) : null;
    if (createdText && !received)
      warning(row, 'created_time', `Fecha no válida «${createdText.slice(0, 40)}»: se usa la fecha de importación`);
    const documentText = read(values, 'document_number').replace(/\s/g, '');
    const dni = documentText && documentNumberError('1', documentText) === null ? documentText : null;
    if (documentText && !dni) warning(row, 'document_number', `DNI no válido «${documentText.slice(0, 20)}»: se omite`);
    return {
      row,
      name,
      phone,
      email,
      channel,
      campaign: read(values, 'campaign').slice(0, 150) || null,
      received_at: received,
      id_document_type: dni ? '1' : null,
      document_number: dni,
      invalid,
    };
  });
  return { rows, issues };
}

/**
 * Reads a lead file (CSV or XLSX, by content). Unreadable or unknown files give one ERROR.
 * Never throws for bad input (a bad file is a 422, never a 500).
 */
export async function readLeadFile(bytes: Buffer, filename: string): Promise<LeadFileResult> {
  const format = detectFormat(bytes, filename);
  const fail = (message: string): LeadFileResult => ({ rows: [], issues: [{ severity: 'ERROR', row: null, field: 'file', message }] });
  if (format !== 'CSV' && format !== 'XLSX') return fail(LEAD_MESSAGES.importFormat);
  try {
    const table =
      format === 'XLSX' ? await readXlsxRows(bytes, MAX_LEAD_IMPORT_ROWS) : readCsvRows(bytes.toString('utf8'), MAX_LEAD_IMPORT_ROWS);
    return leadsFromTable(table);
  } catch {
    return fail(LEAD_MESSAGES.importDamaged);
  }
}
