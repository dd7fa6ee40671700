import { createRequire } from 'node:module';
import { deflateSync, crc32 } from 'node:zlib';
import type { Kysely } from 'kysely';
import { cciCheckDigits } from '../../../src/schemas/finanzas/banks';
import type { Clock } from '../../clock';
import type { DB } from '../../db/database';
import { insertBankAccount } from './bank-accounts.repository';
import { insertWallet } from './wallets.repository';

/**
 * Demo data of Finanzas (issue 16, first slice): three bank accounts of the demo company (BCP,
 * BBVA, Interbank, each CCI with its right check digits) and two wallets (Yape, Plin) each with a
 * QR image: a real QR code (pdfmake's encoder) of a demo text, drawn as a grayscale PNG here.
 * Called once, inside the demo seed's transaction (server/db/seed.ts), so it is as idempotent as
 * the seed itself.
 */

/** A CCI from its first 18 digits: the check digits appended (src/schemas/finanzas/banks.ts). */
const cci = (first18: string) => `${first18}${cciCheckDigits(first18)}`;

/** The demo accounts (numbers are made up; their CCIs pass the check). */
export const DEMO_BANK_ACCOUNTS = [
  { bank: 'BCP', kind: 'AHORROS', currency: 'PEN', number: '19100012345678', cci: cci('002191000123456789') },
  { bank: 'BBVA', kind: 'CORRIENTE', currency: 'USD', number: '001101800200123456', cci: cci('011018000200123456') },
  { bank: 'INTERBANK', kind: 'AHORROS', currency: 'PEN', number: '2003000123456', cci: cci('003200300012345678') },
] as const;

/** The demo wallets. */
export const DEMO_WALLETS = [
  { kind: 'YAPE', phone: '987654321' },
  { kind: 'PLIN', phone: '912345678' },
] as const;

interface QrNode {
  qr: string;
  fit: number;
  padding: number;
  _canvas?: Array<{ x: number; y: number; w: number; h: number; color: string }>;
  _width?: number;
}

/** pdfmake's QR encoder (CommonJS, no types): `measure(node)` fills `_canvas` with the modules as rectangles. */
function qrEncoder(): { measure(node: QrNode): QrNode } {
  const require = createRequire(import.meta.url);
  return (require('pdfmake/js/qrEnc.js') as { default: { measure(node: QrNode): QrNode } }).default;
}

/** One PNG chunk: length, type, data, CRC-32 of type + data. */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A QR code of `text` as an 8-bit grayscale PNG, about `size` pixels wide with a 4-module quiet zone.
 * @returns the PNG bytes
 */
export function qrPng(text: string, size = 264): Buffer {
  const node = qrEncoder().measure({ qr: text, fit: size, padding: 4 });
  const width = node._width ?? size;
  const pixels = Buffer.alloc(width * width, 0xff);
  for (const rect of node._canvas ?? []) {
    if (rect.color === '#fff') continue;
    for (let y = rect.y; y < rect.y + rect.h && y < width; y += 1)
      pixels.fill(0x00, y * width + rect.x, y * width + Math.min(width, rect.x + rect.w));
  }
  const raw = Buffer.alloc(width * (width + 1));
  for (let y = 0; y < width; y += 1) pixels.copy(raw, y * (width + 1) + 1, y * width, (y + 1) * width); // filter byte 0 per row
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(width, 4);
  header[8] = 8; // bit depth
  header[9] = 0; // grayscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** Inserts the demo accounts and wallets (with their QR) for the company `holder`. */
export async function seedDemoFinanceAccounts(trx: Kysely<DB>, clock: Clock, holder: string): Promise<void> {
  const now = clock.now().toISOString();
  for (const account of DEMO_BANK_ACCOUNTS)
    await insertBankAccount(trx, { ...account, holder, active: 1, created_at: now, updated_at: now });
  for (const wallet of DEMO_WALLETS)
    await insertWallet(trx, {
      ...wallet,
      holder,
      active: 1,
      created_at: now,
      updated_at: now,
      qr_content_type: 'image/png',
      qr_data: qrPng(`${wallet.kind === 'YAPE' ? 'Yape' : 'Plin'} ${wallet.phone} - ${holder} (demo Parcela)`),
      qr_updated_at: now,
    });
}
