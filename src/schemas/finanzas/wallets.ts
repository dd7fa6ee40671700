import { z } from 'zod';
import { dataResponseSchema, listQueryShape, pagedResponseSchema, sortSchema } from '../paging';
import { AT_LEAST_ONE_FIELD, recordVersionSchema, versionInAnswerSchema } from '../versions';

/**
 * Finanzas → Billetera Digital (issue 16 "Money in"; docs/domain.md "Wallet"): the company's
 * wallets {YAPE | PLIN, phone, holder, QR image, active}. GET|POST /api/wallets,
 * GET|PATCH|DELETE /api/wallets/{id}, POST|GET /api/wallets/{id}/qr (multipart field `qr`, PNG or
 * JPEG by content, ≤ 1 MB) — staff: 'Acceso módulo finanzas' + 'Acceso submódulo billeteras digitales'.
 */

/** Wallet kinds (docs/domain.md "Wallet"). */
export const WALLET_KINDS = ['YAPE', 'PLIN'] as const;
export type WalletKind = (typeof WALLET_KINDS)[number];

/** Largest QR image accepted, in bytes (1 MB). */
export const QR_MAX_BYTES = 1024 * 1024;
/** QR image types accepted (detected from the bytes, not the file name). */
export const QR_CONTENT_TYPES = ['image/png', 'image/jpeg'] as const;

/** Spanish messages of the wallet form, its QR upload and routes. */
export const WALLET_MESSAGES = {
  /** 409: DELETE of a wallet that payments name as their destination. */
  inUse: 'La billetera tiene pagos registrados: desactívela en lugar de eliminarla',
  kind: 'Seleccione la billetera (Yape o Plin)',
  phone: 'El celular debe tener 9 dígitos y empezar con 9',
  holder: 'Ingrese el titular de la billetera',
  duplicatePhone: 'Ya hay una billetera de ese tipo con ese celular',
  qrMissing: 'Adjunte la imagen del QR en el campo "qr" (multipart/form-data)',
  qrTooLarge: 'El QR debe pesar como máximo 1 MB',
  qrNotImage: 'El QR debe ser una imagen PNG o JPEG',
  noQr: 'La billetera no tiene QR',
  qrSaved: 'QR actualizado',
} as const;

/**
 * A wallet as the API answers it. `qr_url` is the authenticated path of its QR image
 * (`/api/wallets/{id}/qr?v=…`, versioned by the upload time) or null when none was uploaded.
 */
export const walletSchema = z.object({
  id: z.number().int(),
  kind: z.enum(WALLET_KINDS),
  phone: z.string(),
  holder: z.string(),
  active: z.boolean(),
  qr_url: z.string().nullable(),
  /** Edit counter (src/schemas/versions.ts); a QR upload leaves it (the QR is not a form field: `qr_url` changes). */
  version: versionInAnswerSchema,
});
export type Wallet = z.infer<typeof walletSchema>;

/** Fields a request may send. */
const walletFields = {
  kind: z.enum(WALLET_KINDS, { error: WALLET_MESSAGES.kind }),
  /** Peruvian mobile: 9 digits starting with 9 (spaces dropped). */
  phone: z
    .string()
    .transform((v) => v.replace(/\s/g, ''))
    .pipe(z.string().regex(/^9\d{8}$/, WALLET_MESSAGES.phone)),
  holder: z.string().trim().min(1, WALLET_MESSAGES.holder).max(200),
  active: z.boolean(),
};

/** POST /api/wallets body (strict); `active` defaults to true. The QR is uploaded after, to /qr. */
export const createWalletRequestSchema = z.strictObject({ ...walletFields, active: walletFields.active.default(true) });
export type CreateWalletRequest = z.input<typeof createWalletRequestSchema>;

/** PATCH /api/wallets/{id} body: any subset, plus the `version` read (stale → 409). */
export const updateWalletRequestSchema = z
  .strictObject({ ...walletFields, version: recordVersionSchema })
  .partial()
  .refine(AT_LEAST_ONE_FIELD.check, AT_LEAST_ONE_FIELD.options);
export type UpdateWalletRequest = z.input<typeof updateWalletRequestSchema>;

/** GET /api/wallets query: `q` (phone, holder), filters kind, active ('true' | 'false'). */
export const walletsQuerySchema = z.strictObject({
  ...listQueryShape,
  sort: sortSchema(['kind', 'holder', 'phone', 'id']),
  kind: z.enum(WALLET_KINDS).optional(),
  active: z.enum(['true', 'false']).optional(),
});
export type WalletsQuery = z.infer<typeof walletsQuerySchema>;

/** GET /api/wallets answer. */
export const walletsPageSchema = pagedResponseSchema(walletSchema);
/** One wallet (GET one, POST, PATCH, QR upload). */
export const walletResponseSchema = dataResponseSchema(walletSchema);
