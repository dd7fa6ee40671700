import { Readable } from 'node:stream';
import type { ChangeHistoryEntry } from '../../../src/schemas/historial/change-history';
import { csvField, UTF8_BOM } from '../../../src/lib/csv';

/**
 * CSV rendering of the change history (GET /api/change-history/export.csv), streamed row by row,
 * each field by the one writer of every export (src/lib/csv.ts `csvField`: RFC 4180, formulas
 * neutralised).
 */

/** Column headers (Spanish, as the screen shows them). */
export const CSV_HEADERS = [
  'Fecha',
  'Usuario',
  'Tipo de usuario',
  'Id de usuario',
  'IP',
  'Entidad',
  'Registro',
  'Acción',
  'Campos',
  'Antes',
  'Después',
];

/** One CSV line (CRLF-terminated) of an entry. */
export function csvLine(entry: ChangeHistoryEntry): string {
  return (
    [
      entry.occurred_at,
      entry.actor?.name ?? (entry.actor ? null : 'Sistema'),
      entry.actor?.type ?? null,
      entry.actor?.id ?? null,
      entry.ip,
      entry.entity,
      entry.record_label ? `${entry.record_label} (${entry.record_id})` : entry.record_id,
      entry.action,
      entry.changed_fields.join(' '),
      entry.before ? JSON.stringify(entry.before) : null,
      entry.after ? JSON.stringify(entry.after) : null,
    ]
      .map(csvField)
      .join(',') + '\r\n'
  );
}

/** A stream of the CSV (UTF-8 BOM so Excel reads the accents, header line, one line per entry). */
export function csvStream(entries: AsyncIterable<ChangeHistoryEntry>): Readable {
  async function* lines() {
    yield UTF8_BOM + CSV_HEADERS.map(csvField).join(',') + '\r\n';
    for await (const entry of entries) yield csvLine(entry);
  }
  return Readable.from(lines());
}
